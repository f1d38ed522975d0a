#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test: the kernel code is checkpatch --strict clean (checkpatch.pl
# from linux-source-6.12) and builds without a sparse (C=2) or W=1
# warning.  Prints TAP.
#
# Usage: selftests/host/lint.sh KVER WORKDIR
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
kver=$1
work=$2
# shellcheck source=selftests/vm/kver.sh
. "$top/selftests/vm/kver.sh"
checkpatch=$(zs_src_tree)/scripts/checkpatch.pl
fails=0

echo "1..2"
mkdir -p "$work"
cd "$top" || exit 1
mapfile -t srcs < <(git ls-files 'drivers/*.[ch]' 'include/*.[ch]')
perl "$checkpatch" --strict --no-tree --terse --show-types -f "${srcs[@]}" \
	>"$work/checkpatch.log" 2>&1
if [ -s "$work/checkpatch.log" ]; then
	sed 's/^/# /' "$work/checkpatch.log"
	echo "not ok 1 - checkpatch.pl --strict on drivers/ and include/"
	fails=1
else
	echo "ok 1 - checkpatch.pl --strict on drivers/ and include/ (${#srcs[@]} files)"
fi

# A separate build tree, so the module the tests use is left alone.
rm -rf "$work/tree"
mkdir -p "$work/tree"
git ls-files Kbuild drivers include | xargs cp --parents -t "$work/tree"
# kernels.sh exec: in the trixie chroot for a trixie kernel.
ZS_BINDS=$work bash "$top/selftests/vm/kernels.sh" exec "$kver" \
	make -C "$(zs_kdir "$kver")" M="$work/tree" C=2 W=1 modules \
	>"$work/build.log" 2>&1
rc=$?
if [ $rc -ne 0 ] || grep -qE 'warning:|error:' "$work/build.log"; then
	grep -E 'warning:|error:' "$work/build.log" | sed 's/^/# /'
	echo "not ok 2 - sparse (C=2) and W=1 build for $kver without warnings (rc=$rc)"
	fails=1
else
	echo "ok 2 - sparse (C=2) and W=1 build for $kver without warnings"
fi
exit $fails
