#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Load the module under test ($ZSPLICE_KO, default /zs/zsplice.ko) and
# wait for its devices.  Already loaded is a pass: the module stays.
# shellcheck source=tools/rig/guest/lib.sh
. "$(dirname "$0")/lib.sh"

ktap_print_header
ktap_set_plan 1
if grep -q '^zsplice ' /proc/modules; then
	ktap_test_pass "zsplice already loaded"
elif [ ! -f "$ZSPLICE_KO" ]; then
	ktap_test_fail "load zsplice.ko: $ZSPLICE_KO missing (make module failed?)"
elif out=$(insmod "$ZSPLICE_KO" 2>&1); then
	n=0
	while [ ! -c /dev/zsplice ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	grep -E '^zsplice ' /proc/modules | sed 's/^/# /'
	[ -c /dev/zsplice ]
	zs_result $? "load zsplice.ko"
else
	ktap_test_fail "load zsplice.ko: $out"
fi
ktap_finished
