#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test: dkms builds zsplice from dkms.conf for the guest kernel, in a
# private source and dkms tree (nothing is registered with the system's
# dkms).  Then the built module's modinfo is checked.  KTAP, through the
# kernel's ktap_helpers.sh.
#
# Usage: tools/lint/dkms-build.sh KVER WORKDIR
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
. "${KSFT_DIR:-$(zs_src_tree)/tools/testing/selftests}/kselftest/ktap_helpers.sh"

t() { if [ "$1" -eq 0 ]; then ktap_test_pass "$2"; else ktap_test_fail "$2"; fi; }

ktap_print_header
ktap_set_plan 3
ver=$(cat "$top/VERSION")
src=$work/src/zsplice-$ver
rm -rf "$work"
mkdir -p "$src" "$work/tree"
# The files dkms needs: what git tracks under the build's inputs.
(cd "$top" && git ls-files Kbuild VERSION dkms.conf drivers include) |
	(cd "$top" && xargs cp --parents -t "$src")

# kernels.sh exec: in the trixie chroot (which has its own dkms) for a
# trixie kernel.
ZS_BINDS=$work bash "$top/tools/rig/kernels.sh" exec "$kver" \
	dkms build -m zsplice -v "$ver" -k "$kver" --sourcetree "$work/src" \
	--dkmstree "$work/tree" >"$work/dkms.log" 2>&1
rc=$?
[ $rc -eq 0 ] || sed 's/^/# /' "$work/dkms.log" | tail -n 30
t $rc "dkms build zsplice/$ver -k $kver"

ko=$(find "$work/tree" -name 'zsplice.ko*' | head -n 1)
[ -n "$ko" ]
t $? "dkms produced zsplice.ko"

info=$(modinfo "$ko" 2>&1)
echo "$info" | grep -q "^version: *$ver\$" &&
	echo "$info" | grep -q '^parm: *splice_impl:.*none, copy, zeropage or folio'
t $? "modinfo shows version $ver and splice_impl"
ktap_finished
