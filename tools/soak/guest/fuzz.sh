#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Our own deterministic fuzzer (soak_fuzz.c), unprivileged, on the same
# victim nodes as trinity: only the devices and pipes, a seeded sequence
# of calls.  Every call it counts as having moved bytes went through the
# driver, so the driver's call counters must have moved at least that much.
# shellcheck source=tools/soak/guest/lib.sh
. "$(dirname "$0")/lib.sh"

ktap_print_header
ktap_set_plan 3
victims
calls0=$(driver_calls)
splats0=$(zs_splats)
zs_subtest soak_fuzz ./soak_runas 1000 1000 ./soak_fuzz -s "$seed" -t "$t_fuzz" \
	/tmp/victims/zsplice /tmp/victims/fullsplice >"$state/fuzz.log"
cat "$state/fuzz.log"
calls=$(( $(driver_calls) - calls0 ))
want=$(sed -n 's/^ *# SOAK-FUZZ .*device_calls=\([0-9]*\).*/\1/p' "$state/fuzz.log")
[ "${want:-0}" -gt 0 ] && [ "$calls" -ge "$want" ]
zs_result $? "soak_fuzz reached the driver: $calls calls counted, ${want:-no} moved bytes"
if [ "$(zs_splats)" -eq "$splats0" ]; then
	ktap_test_pass "no kernel splat during soak_fuzz"
else
	ktap_test_fail "kernel splat during soak_fuzz"
	dmesg | tail -n 40 | sed 's/^/# /'
fi
rm -rf /tmp/fuzz/* /tmp/victims
ktap_finished
