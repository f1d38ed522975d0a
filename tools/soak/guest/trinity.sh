#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# trinity as an unprivileged user with the two devices as its only victim
# files, in three rounds with fixed seeds (SOAK_SEED + round).  Only two
# fd providers: "pseudo" (the victim files) and pipes (for splice and
# tee); with trinity's others (test files, inotify, bpf, ...) the devices
# were a small share of the fd pool and a short TCG run sometimes never
# picked one.
# shellcheck source=tools/soak/guest/lib.sh
. "$(dirname "$0")/lib.sh"

rounds=3
t_round=$((t_trinity / rounds))
here=$(pwd)

ktap_print_header
ktap_set_plan 3
victims
ls -l /tmp/victims | sed 's/^/# /'
splats0=$(zs_splats)
syscalls="splice tee vmsplice sendfile read write readv writev preadv pwritev preadv2 pwritev2 pread64 pwrite64 ioctl mmap lseek copy_file_range io_uring_setup io_uring_enter io_uring_register"
targs=""
trinity -L >"$state/trinity.syscalls" 2>/dev/null
for s in $syscalls; do
	if grep -q " $s : \[64-bit\]" "$state/trinity.syscalls"; then
		targs="$targs -c $s"
	else
		echo "# trinity does not know $s"
	fi
done
echo "# trinity as uid 1000, $rounds rounds of ${t_round}s (seeds $seed..):$targs"
tlog=$state/trinity.log
count=0
reached=0
round=0
while [ "$round" -lt "$rounds" ]; do
	calls0=$(driver_calls)
	# shellcheck disable=SC2086
	(cd /tmp/fuzz && exec setsid "$here/soak_runas" 1000 1000 \
		trinity -q -l off -a 64 -C 4 -V /tmp/victims -s $((seed + round)) \
		--enable-fds=pseudo,pipes $targs) >"$tlog.$round" 2>&1 </dev/null &
	tpid=$!
	sleep "$t_round"
	kill -INT -- "-$tpid" 2>/dev/null || kill -INT "$tpid" 2>/dev/null
	n=0
	while kill -0 "$tpid" 2>/dev/null && [ $n -lt 60 ]; do sleep 1; n=$((n + 1)); done
	if kill -0 "$tpid" 2>/dev/null; then
		echo "# trinity did not stop on SIGINT within 60 s, killing it"
		kill -KILL -- "-$tpid" 2>/dev/null || kill -KILL "$tpid" 2>/dev/null
	fi
	wait "$tpid" 2>/dev/null
	sleep 1
	# trinity's leftovers (test files, shm) must not count as a leak
	left=$(ps -o pid,pgid 2>/dev/null | awk -v g="$tpid" '$2 == g { print $1 }')
	# shellcheck disable=SC2086
	[ -z "$left" ] || kill -KILL $left 2>/dev/null
	rm -rf /tmp/fuzz/*
	c=$(sed -n 's/.*Ran \([0-9][0-9]*\) syscalls.*/\1/p' "$tlog.$round" | tail -n 1)
	# a trinity without the "Ran N syscalls" line: per-child "executed N syscalls"
	[ -n "$c" ] || c=$(grep -oE '[0-9]+ syscalls' "$tlog.$round" | awk '{ s += $1 } END { print s + 0 }')
	d=$(( $(driver_calls) - calls0 ))
	echo "# SOAK-TRINITY round=$round seed=$((seed + round)) syscalls=${c:-0} driver_calls=$d"
	tail -n 5 "$tlog.$round" | sed 's/^/# trinity: /'
	count=$((count + ${c:-0}))
	reached=$((reached + d))
	round=$((round + 1))
done
rm -rf /tmp/victims
echo "# SOAK-TRINITY syscalls=$count driver_calls=$reached seconds=$t_trinity"
[ "$count" -gt 0 ]
zs_result $? "trinity ran $count syscalls as uid 1000 against the devices"
# trinity picks its fds at random among the victims and pipes and in a
# short run under TCG sometimes never picks a device; fuzz.sh reaches the
# driver by construction.
if [ "$reached" -gt 0 ]; then
	ktap_test_pass "trinity reached the driver ($reached read/write/splice calls counted by its stats)"
else
	ktap_test_skip "trinity did not pick a device in $rounds rounds (random fd choice; fuzz.sh covers the driver)"
fi
if [ "$(zs_splats)" -eq "$splats0" ]; then
	ktap_test_pass "no kernel splat during trinity"
else
	ktap_test_fail "kernel splat during trinity"
	dmesg | tail -n 40 | sed 's/^/# /'
fi
ktap_finished
