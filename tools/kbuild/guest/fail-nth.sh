#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Fault injection into the module's load and first splice: every
# injectable allocation, one at a time (failnth.c through
# /proc/thread-self/fail-nth), must fail cleanly or be tolerated.
# shellcheck source=tools/rig/guest/lib.sh
. "$(dirname "$0")/../rig/lib.sh"

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

ktap_print_header
ktap_set_plan 2
for m in load splice; do
	zs_subtest "fail-nth $m" ./failnth $m "$ZSPLICE_KO"
done
ktap_finished
