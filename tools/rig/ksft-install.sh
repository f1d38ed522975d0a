#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stage selftests/ for the guest as kselftest installs it: the programs
# through lib.mk's `make install` into DIR/zsplice, the kernel's own
# run_kselftest.sh and kselftest/ runner (from KSFT_DIR, the unpacked
# linux-source-6.12 by default) into DIR, and DIR/kselftest-list.txt.
# In the guest, `DIR/run_kselftest.sh` runs every program with the
# timeout of selftests/settings and prints one TAP document.
#
# Usage: ksft-install.sh DIR
#
# The list names every program the tree expects (selftests/Makefile's
# TEST_GEN_PROGS and TEST_PROGS, and one per zsplice_*_test.c), built or
# not: a program that did not build is "not ok ... missing" in the guest,
# never a silent skip.  When one program does not build, lib.mk's install
# installs nothing, so the programs that did build are copied one by one.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=tools/rig/kver.sh
. "$here/kver.sh"
[ $# = 1 ] || { echo "usage: ksft-install.sh DIR" >&2; exit 2; }
out=$1
ksft=${KSFT_DIR:-$(zs_src_tree)/tools/testing/selftests}
st=$top/selftests

rm -rf "$out"
mkdir -p "$out/zsplice" "$out/kselftest"
for f in run_kselftest.sh kselftest/runner.sh kselftest/prefix.pl kselftest/ktap_helpers.sh; do
	cp "$ksft/$f" "$out/$f" || exit 2
done

{
	make -s --no-print-directory -C "$st" emit_tests COLLECTION=zsplice 2>/dev/null |
		grep '^zsplice:'
	for src in "$st"/zsplice_*_test.c; do
		[ -e "$src" ] && echo "zsplice:$(basename "$src" .c)"
	done
} | awk '!seen[$0]++' >"$out/kselftest-list.txt"

if ! make -s --no-print-directory -C "$st" install INSTALL_PATH="$out/zsplice" >"$out/install.log" 2>&1; then
	echo "ksft-install: make install failed (see $out/install.log); copying what was built" >&2
	for f in settings config $(sed -n 's/^zsplice://p' "$out/kselftest-list.txt"); do
		[ -e "$st/$f" ] && cp -p "$st/$f" "$out/zsplice/"
	done
fi
[ -s "$out/kselftest-list.txt" ] || { echo "ksft-install: no kselftests listed" >&2; exit 1; }
