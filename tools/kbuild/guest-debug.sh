#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of `make check-debug` (busybox sh, root, debug kernel booted
# with page_owner=on page_poison=1).  Sections for the TAP counter:
#   calibrate     (CALIBRATE=1 only) time of a fixed fork/exec/page-fault
#                 workload, "calibrate ms N", and of a signal storm
#                 (calibrate.c), "calibrate signal_ms N", then exits
#   guest-check   the whole guest suite (tools/rig/guest-check.sh), its
#                 per-program timeout scaled by ZSVM_FACTOR
#   failnth:load, failnth:splice   fault-injection sweeps (failnth.c)
#   kmemleak      scan after everything; any entry fails
# Environment: ZSVM_FACTOR (slowdown factor the host derived, default 1),
# ZS_DEBUG_VARIANT (debug, default, or kcsan: a KCSAN kernel has neither
# fault injection nor kmemleak, so only the guest suite runs), ZS_SKIP_SUITE=1
# (no guest suite: only the fault-injection sweeps and kmemleak).

factor=${ZSVM_FACTOR:-1}

calibrate() {
	# 200 fork+exec of busybox true and a 64 MiB anonymous fault-in: what
	# the debug options slow down (page alloc/free, slab, locking).
	t0=$(cut -d' ' -f1 /proc/uptime)
	i=0
	while [ $i -lt 200 ]; do
		/bin/true
		i=$((i + 1))
	done
	head -c 67108864 /dev/zero | cat >/dev/null
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "calibrate ms $(echo "$t0 $t1" | awk '{ printf "%d", ($2 - $1) * 1000 }')"
	# the signal-storm half (calibrate.c): syscalls under a 50 us timer
	/zs/bin/calibrate
}
if [ "${CALIBRATE:-0}" = 1 ]; then
	calibrate
	exit 0
fi

echo "# debug kernel $(uname -r), $(nproc) cpus, factor $factor, cmdline: $(cat /proc/cmdline)"
# The rig's init sets 30 s; a debug kernel under TCG is $factor times slower.
echo $((30 * factor)) >/proc/sys/kernel/hung_task_timeout_secs 2>/dev/null
kml=/sys/kernel/debug/kmemleak
[ -w $kml ] && echo clear >$kml

if [ "${ZS_SKIP_SUITE:-0}" = 1 ]; then
	echo "# guest suite skipped (ZS_SKIP_SUITE=1)"
else
	ZSVM_TEST_TIMEOUT=$((${ZSVM_TEST_TIMEOUT:-300} * factor)) sh /zs/guest-check.sh
fi

if [ "${ZS_DEBUG_VARIANT:-debug}" = kcsan ]; then
	echo "# KCSAN kernel: no fault-injection sweep, no kmemleak scan"
	exit 0
fi

# Fault injection: every injectable allocation counts for fail-nth.
for d in failslab fail_page_alloc; do
	f=/sys/kernel/debug/$d
	[ -d $f ] || continue
	echo N >$f/ignore-gfp-wait
	[ -e $f/min-order ] && echo 0 >$f/min-order
	echo 0 >$f/verbose
done
# Keep injection out of the tracing core's module notifier: when an
# allocation there fails, 6.12's event_create_dir() WARNs (event_define_fields)
# and returns without taking the reference the event's "enable" file drops
# at rmmod (event_file_put WARNs twice) -- the kernel's error path, not
# zsplice's (Documentation/rig.rst).  fail-nth honours the
# failslab/fail_page_alloc stack filter: allocations with trace_module_notify
# on their stack are neither failed nor counted.  Two static functions have
# that name (kernel/trace/trace.c's, for eval maps, and trace_events.c's);
# the one meant is trace_events.c's, the one nearest event_create_dir (one
# object's symbols are contiguous).  Kernel text addresses differ only in
# their low 32 bits, which shell arithmetic handles.
ecd=$(awk '$3 == "event_create_dir" { print $1; exit }' /proc/kallsyms)
notify=
best=
[ -n "$ecd" ] && for a in $(awk '$3 == "trace_module_notify" { print $1 }' /proc/kallsyms); do
	d=$(( 0x$(echo "$a" | tail -c 9) - 0x$(echo "$ecd" | tail -c 9) ))
	[ "$d" -ge 0 ] || d=$(( -d ))
	if [ -z "$best" ] || [ "$d" -lt "$best" ]; then
		best=$d
		notify=$a
	fi
done
notify_end=$(awk -v s="$notify" '$1 > s && (e == "" || $1 < e) { e = $1 } END { print e }' /proc/kallsyms)
for d in failslab fail_page_alloc; do
	f=/sys/kernel/debug/$d
	if [ -z "$notify" ] || [ -z "$notify_end" ] || [ ! -e $f/reject-start ]; then
		echo "# $d: no stack filter (CONFIG_FAULT_INJECTION_STACKTRACE_FILTER?)"
		continue
	fi
	echo 32 >$f/stacktrace-depth
	echo "0x$notify_end" >$f/reject-end
	echo "0x$notify" >$f/reject-start
	echo "# $d: allocations under trace_module_notify (0x$notify-0x$notify_end) not injected"
done
for m in load splice; do
	echo "# ZSVM-BEGIN failnth:$m"
	timeout -s KILL $((1800 * factor)) /zs/bin/failnth $m /zs/zsplice.ko
	echo "# ZSVM-END failnth:$m rc=$?"
done
# kmemleak clean after a later successful load and unload.
insmod /zs/zsplice.ko && rmmod zsplice

echo "# ZSVM-BEGIN kmemleak"
if [ -w $kml ]; then
	# Objects freed by RCU or deferred work need a moment; scan twice.
	sleep 5
	echo scan >$kml
	sleep 5
	echo scan >$kml
	n=$(grep -c '^unreferenced object' $kml)
	if [ "$n" = 0 ]; then
		echo "ok 1 - kmemleak: no unreferenced objects"
	else
		sed 's/^/# /' $kml
		echo "not ok 1 - kmemleak: $n unreferenced objects"
	fi
else
	echo "not ok 1 - kmemleak: $kml missing (CONFIG_DEBUG_KMEMLEAK?)"
fi
echo "# ZSVM-END kmemleak rc=0"
exit 0
