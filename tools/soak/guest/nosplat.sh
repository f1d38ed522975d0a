#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# No kernel splat in dmesg over the whole soak.
# shellcheck source=tools/soak/guest/lib.sh
. "$(dirname "$0")/lib.sh"

ktap_print_header
ktap_set_plan 1
if [ "$(zs_splats)" -eq 0 ]; then
	ktap_test_pass "no kernel splat in the whole soak"
else
	ktap_test_fail "kernel splats in dmesg"
	dmesg | grep -E -A 20 "$(zs_splat_re)" | head -n 60 | sed 's/^/# /'
fi
ktap_finished
