#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test: the kernel code is checkpatch --strict clean (checkpatch.pl
# from linux-source-6.12) and builds without a sparse (C=2) or W=1
# warning.  KTAP, through the kernel's ktap_helpers.sh.
#
# Usage: tools/lint/lint.sh KVER WORKDIR
set -u

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
case ${1:-} in -h|--help) usage 0 ;; esac
[ $# = 2 ] || usage

top=$(cd "$(dirname "$0")/../.." && pwd)
kver=$1
work=$2
# shellcheck source=tools/rig/kver.sh
. "$top/tools/rig/kver.sh"
checkpatch=$(zs_src_tree)/scripts/checkpatch.pl
. "${KSFT_DIR:-$(zs_src_tree)/tools/testing/selftests}/kselftest/ktap_helpers.sh"

ktap_print_header
ktap_set_plan 3
mkdir -p "$work"
cd "$top" || exit 1
mapfile -t srcs < <(git ls-files 'drivers/*.[ch]' 'include/*.[ch]')
perl "$checkpatch" --strict --no-tree --terse --show-types -f "${srcs[@]}" \
	>"$work/checkpatch.log" 2>&1
if [ -s "$work/checkpatch.log" ]; then
	sed 's/^/# /' "$work/checkpatch.log"
	ktap_test_fail "checkpatch.pl --strict on drivers/ and include/"
else
	ktap_test_pass "checkpatch.pl --strict on drivers/ and include/ (${#srcs[@]} files)"
fi

# A separate build tree, so the module the tests use is left alone.
rm -rf "$work/tree"
mkdir -p "$work/tree"
git ls-files Kbuild VERSION drivers include | xargs cp --parents -t "$work/tree"
# kernels.sh exec: in the trixie chroot for a trixie kernel.
ZS_BINDS=$work bash "$top/tools/rig/kernels.sh" exec "$kver" \
	make -C "$(zs_kdir "$kver")" M="$work/tree" C=2 W=1 modules \
	>"$work/build.log" 2>&1
rc=$?
if [ $rc -ne 0 ] || grep -qE 'warning:|error:' "$work/build.log"; then
	grep -E 'warning:|error:' "$work/build.log" | sed 's/^/# /'
	ktap_test_fail "sparse (C=2) and W=1 build for $kver without warnings (rc=$rc)"
else
	ktap_test_pass "sparse (C=2) and W=1 build for $kver without warnings"
fi
# Kbuild turns sparse off (with a make warning, not a compiler one) when
# the sparse it finds cannot parse the kernel's headers: 7.x needs a sparse
# that knows __typeof_unqual__, which Debian's 0.6.4 does not.
if grep -q 'specified, but .* not available or not up to date' "$work/build.log"; then
	ktap_test_skip "sparse ran on every file: kbuild disabled sparse for $kver (its headers need a sparse that parses __typeof_unqual__; Debian has 0.6.4)"
elif grep -q '^  CHECK ' "$work/build.log"; then
	ktap_test_pass "sparse ran on every file ($(grep -c '^  CHECK ' "$work/build.log") CHECK lines)"
else
	ktap_test_fail "sparse ran on every file: no CHECK line in the build log"
fi
ktap_finished
