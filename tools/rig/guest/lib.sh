# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Sourced by the rig's guest programs (collections rig, soak, debug and
# mem of the kselftest install that tools/rig/ksft-install.sh stages):
# the kernel's KTAP helpers from the install's kselftest/ directory, and
# what several programs share.  kselftest's runner starts each program
# in its collection's directory; this file is ../rig/lib.sh from there.

# shellcheck source=/dev/null
. "$(dirname "$0")/../kselftest/ktap_helpers.sh"

ZSPLICE_KO=${ZSPLICE_KO:-/zs/zsplice.ko}

# zs_result STATUS TEXT: pass when STATUS is 0, else fail.
zs_result() {
	if [ "$1" -eq 0 ]; then ktap_test_pass "$2"; else ktap_test_fail "$2"; fi
}

# zs_subtest NAME CMD...: run CMD, whose output is a KTAP document, as a
# subtest: its lines indented four spaces, then one result NAME, passed
# when CMD exited 0 (4, kselftest's skip, is a skip).
zs_subtest() {
	zs_name=$1
	shift
	zs_st=$(mktemp)
	{ "$@" 2>&1; echo $? >"$zs_st"; } | sed 's/^/    /'
	zs_rc=$(cat "$zs_st")
	rm -f "$zs_st"
	case $zs_rc in
	0) ktap_test_pass "$zs_name" ;;
	4) ktap_test_skip "$zs_name" ;;
	*) ktap_test_fail "$zs_name (exit ${zs_rc:-?})" ;;
	esac
}

# zs_splat_re: the kernel-splat patterns (selftests/zsplice_splats.h, as
# one extended regular expression; rig/splats.sh reads the header).
zs_splat_re() {
	# shellcheck disable=SC2034 # read by splats.sh
	ZS_SPLATS_H=$(dirname "$0")/../rig/zsplice_splats.h
	# shellcheck source=tools/rig/splats.sh
	. "$(dirname "$0")/../rig/splats.sh"
	echo "$ZS_SPLAT_RE"
}

# zs_splats: lines in dmesg that are kernel splats.
zs_splats() {
	dmesg | grep -cE "$(zs_splat_re)"
}
