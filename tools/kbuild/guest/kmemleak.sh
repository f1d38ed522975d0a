#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kmemleak after everything, and after one more load and unload of the
# module: any unreferenced object fails.
# shellcheck source=tools/rig/guest/lib.sh
. "$(dirname "$0")/../rig/lib.sh"

kml=/sys/kernel/debug/kmemleak
ktap_print_header
ktap_set_plan 2
out=$(insmod "$ZSPLICE_KO" 2>&1 && rmmod zsplice 2>&1)
zs_result $? "load and unload zsplice once more${out:+: $out}"
if [ -w $kml ]; then
	# Objects freed by RCU or deferred work need a moment; scan twice.
	sleep 5
	echo scan >$kml
	sleep 5
	echo scan >$kml
	n=$(grep -c '^unreferenced object' $kml)
	[ "$n" = 0 ] || sed 's/^/# /' $kml
	[ "$n" = 0 ]
	zs_result $? "kmemleak: $n unreferenced objects"
else
	ktap_test_fail "kmemleak: $kml missing (CONFIG_DEBUG_KMEMLEAK?)"
fi
ktap_finished
