#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stage a guest job as kselftest installs tests: the kernel's own
# run_kselftest.sh and kselftest/ runner (from KSFT_DIR, the unpacked
# linux-source-6.12 by default) into DIR, each collection in DIR/<name>/,
# and DIR/kselftest-list.txt.  In the guest, DIR/run_kselftest.sh runs
# them (-c COLLECTION, -t COLLECTION:PROGRAM, -o SECONDS) and prints TAP.
# The rig's guest helpers (tools/rig/guest/: lib.sh, load.sh, unload.sh
# and the splat patterns) are always in DIR/rig/.
#
# Usage: ksft-install.sh DIR [option]...
#   --selftests          the tree's kselftests (selftests/, lib.mk's
#                        `make install`) as collection zsplice
#   --suite              the guest suite of make check and check-debug:
#                        rig:load.sh, --selftests, zsbench:smoke.sh (with
#                        selftests/settings' timeout), rig:unload.sh; its
#                        guest command is zs_suite_cmd (kver.sh)
#   --prog COLL FILE     FILE into DIR/COLL/, listed as COLL:<name>
#   --file COLL FILE     FILE into DIR/COLL/, not listed (what a program
#                        reads or runs)
#   --timeout COLL SEC   DIR/COLL/settings: the runner's timeout per program
#
# The list names every program the job expects, in the order given,
# present or not: a program that is missing (did not build) is "not ok
# ... missing" in the guest, never a silent skip.  When one kselftest
# does not build, lib.mk's install installs nothing, so the kselftests
# that did build are copied one by one.  The host holds the guest's output
# against the list: tapcount.awk -v lists=DIR/kselftest-list.txt.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=tools/rig/kver.sh
. "$here/kver.sh"
# usage [STATUS]: the Usage paragraph of the header above, then the rest of
# the header; on stdout for STATUS 0 (--help), else on stderr.
usage() {
	awk 'NR > 2 && !/^#/ { exit }
	NR > 2 { sub(/^# ?/, ""); h[++n] = $0 }
	END {
		for (u = 1; u <= n && h[u] !~ /^Usage:/; u++) ;
		for (i = u; i <= n && h[i] != ""; i++) o[++m] = h[i]
		e = i
		for (i = 1; i < u; i++) o[++m] = h[i]
		for (i = e; i <= n; i++) o[++m] = h[i]
		while (m > 0 && o[m] == "") m--
		for (i = 1; i <= m; i++) if (o[i] != "" || o[i - 1] != "") print o[i]
	}' "$0" >&"$([ "${1:-2}" = 0 ] && echo 1 || echo 2)"
	exit "${1:-2}"
}
[ $# -ge 1 ] || usage
case $1 in -h|--help) usage 0 ;; -*) usage ;; esac
out=$1
shift
ksft=${KSFT_DIR:-$(zs_src_tree)/tools/testing/selftests}
st=$top/selftests
list=$out/kselftest-list.txt

rm -rf "$out"
mkdir -p "$out/kselftest" "$out/rig"
for f in run_kselftest.sh kselftest/runner.sh kselftest/prefix.pl kselftest/ktap_helpers.sh; do
	cp "$ksft/$f" "$out/$f" || exit 2
done
cp -p "$here"/guest/*.sh "$here/splats.sh" "$st/zsplice_splats.h" "$out/rig/" || exit 2
: >"$list"

selftests() {
	local c=$out/zsplice
	mkdir -p "$c"
	{
		make -s --no-print-directory -C "$st" emit_tests COLLECTION=zsplice 2>/dev/null |
			grep '^zsplice:'
		for src in "$st"/zsplice_*_test.c; do
			[ -e "$src" ] && echo "zsplice:$(basename "$src" .c)"
		done
	} | awk '!seen[$0]++' >"$out/zsplice.list"
	if ! make -s --no-print-directory -C "$st" install INSTALL_PATH="$c" >"$out/install.log" 2>&1; then
		echo "ksft-install: make install failed (see $out/install.log); copying what was built" >&2
		for f in settings config $(sed -n 's/^zsplice://p' "$out/zsplice.list"); do
			[ -e "$st/$f" ] && cp -p "$st/$f" "$c/"
		done
	fi
	cat "$out/zsplice.list" >>"$list"
	rm -f "$out/zsplice.list"
}

while [ $# -gt 0 ]; do
	case $1 in
	--selftests)
		selftests
		shift ;;
	--suite)
		shift
		set -- --prog rig "$here/guest/load.sh" --selftests \
			--prog zsbench "$top/userspace/tests/smoke.sh" \
			--timeout zsbench "$(zs_test_timeout)" \
			--prog rig "$here/guest/unload.sh" "$@" ;;
	--prog|--file)
		[ $# -ge 3 ] || usage
		mkdir -p "$out/$2"
		if [ -e "$3" ]; then
			cp -pL "$3" "$out/$2/" || exit 2
		elif [ "$1" = --file ]; then
			echo "ksft-install: $3 missing" >&2
		fi
		[ "$1" = --file ] || echo "$2:$(basename "$3")" >>"$list"
		shift 3 ;;
	--timeout)
		[ $# -ge 3 ] && [[ $3 =~ ^[0-9]+$ ]] || usage
		mkdir -p "$out/$2"
		echo "timeout=$3" >"$out/$2/settings"
		shift 3 ;;
	*)
		usage ;;
	esac
done
[ -s "$list" ] || { echo "ksft-install: no programs listed" >&2; exit 1; }
