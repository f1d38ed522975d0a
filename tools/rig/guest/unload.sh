#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Unload the module under test.
# shellcheck source=tools/rig/guest/lib.sh
. "$(dirname "$0")/lib.sh"

ktap_print_header
ktap_set_plan 1
if ! grep -q '^zsplice ' /proc/modules; then
	ktap_test_skip "unload zsplice: not loaded"
elif out=$(rmmod zsplice 2>&1); then
	ktap_test_pass "unload zsplice"
else
	ktap_test_fail "unload zsplice: $out"
fi
ktap_finished
