#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# zsplice soak, guest half: runs as root inside the zsvm guest (busybox sh
# or bash) with the module file at $ZSPLICE_KO and the soak programs in
# $SOAK_BIN (default: the directory of this script, then /zs/bin, then
# PATH).  Every phase is one section
#   # ZSVM-BEGIN soak:NAME
#   ...KTAP...
#   # ZSVM-END soak:NAME rc=N
# as tools/rig/tapcount.awk counts them.  Its own results are KTAP
# through the kernel's kselftest/ktap_helpers.sh (KSFT_DIR; the rig puts it
# at the host's linux-source path).
#
# Phases: baseline → trinity (unprivileged, the devices as victims, three
# seeded rounds) → soak_fuzz (our own deterministic fuzzer, same victims) →
# sanity after trinity (bad-input table, driver kselftests present in
# SOAK_BIN, a short switch run) → switch under load → unload under load →
# accounting (against the baseline).
#
# Environment:
#   SOAK_MINUTES   total budget in minutes (default 3, the short form)
#   SOAK_ROUNDS    unload rounds (default 50)
#   SOAK_SEED      first trinity seed and soak_fuzz's seed (default 1)
#   ZSPLICE_KO     module file (default /zs/zsplice.ko)

ZSPLICE_KO=${ZSPLICE_KO:-/zs/zsplice.ko}
export ZSPLICE_KO
minutes=${SOAK_MINUTES:-3}
rounds=${SOAK_ROUNDS:-50}
budget=$((minutes * 60))
# Shares of the budget: trinity 25%, our own fuzzer 10%, switch 35%; the
# rest (unload rounds, tables, accounting) takes what it takes, about a
# minute under TCG.
t_trinity=$((budget * 25 / 100))
t_fuzz=$((budget * 10 / 100))
t_switch=$((budget * 35 / 100))
[ "$t_trinity" -ge 45 ] || t_trinity=45
[ "$t_fuzz" -ge 20 ] || t_fuzz=20
[ "$t_switch" -ge 20 ] || t_switch=20
# trinity in rounds with fixed seeds (SOAK_SEED + round)
trinity_rounds=3
t_round=$((t_trinity / trinity_rounds))
seed=${SOAK_SEED:-1}
# The long form must reach 10^6 operations; the short one proves the path.
if [ "$minutes" -ge 10 ]; then min_ops=1000000; else min_ops=10000; fi

here=$(cd "$(dirname "$0")" && pwd)
bin=${SOAK_BIN:-}
if [ -z "$bin" ]; then
	for d in "$here" /zs/bin /zs; do
		if [ -x "$d/soak_switch" ]; then bin=$d; break; fi
	done
fi
tmo_extra=120
state=/tmp/soak
mkdir -p "$state"

ktap=${KSFT_DIR:-/usr/src/linux-source-6.12/linux-source-6.12/tools/testing/selftests}/kselftest/ktap_helpers.sh
# section_begin NAME [PLAN]: a section; with PLAN, a KTAP document of this
# script's own results (the helpers sourced again: fresh counters).
section_begin() {
	echo "# ZSVM-BEGIN soak:$1"
	if [ -n "${2:-}" ]; then
		# shellcheck source=/dev/null
		. "$ktap"
		ktap_print_header
		ktap_set_plan "$2"
	fi
}
section_end() { echo "# ZSVM-END soak:$1 rc=$2"; }

# run NAME TIMEOUT CMD...: one program as one section, killed when hung.
run() {
	name=$1 tmo=$2
	shift 2
	if [ ! -x "$1" ]; then
		section_begin "$name" 1
		ktap_test_fail "$1 missing (build failed?)"
		section_end "$name" 1
		return 1
	fi
	section_begin "$name"
	timeout -s KILL "$tmo" "$@"
	rc=$?
	section_end "$name" "$rc"
	return "$rc"
}

# Calls that reached the driver: reads, writes and splices, both devices.
# The module's call counters: debugfs since the driver rework (sysfs before).
driver_calls() {
	cat /sys/kernel/debug/zsplice/zsplice/stats /sys/kernel/debug/zsplice/fullsplice/stats \
	    /sys/class/misc/zsplice/stats /sys/class/misc/fullsplice/stats 2>/dev/null |
		awk '$1 ~ /_calls$/ { s += $2 } END { print s + 0 }'
}

# The project's kernel-splat patterns (tools/rig/splats.sh reading
# selftests/zsplice_splats.h, both shipped next to this script).
# shellcheck disable=SC2034 # read by splats.sh
ZS_SPLATS_H=$here/zsplice_splats.h
. "$here/splats.sh"
splats() {
	dmesg | grep -cE "$ZS_SPLAT_RE"
}

echo "# soak: $(uname -r), $(nproc) cpus, budget $minutes min (trinity ${t_trinity}s, fuzz ${t_fuzz}s, switch ${t_switch}s, $rounds unload rounds), programs in ${bin:-?}"

# ------------------------------------------------------------- module
section_begin module 1
if grep -q '^zsplice ' /proc/modules; then
	ktap_test_pass "zsplice already loaded"
elif out=$(insmod "$ZSPLICE_KO" 2>&1); then
	ktap_test_pass "insmod $ZSPLICE_KO"
else
	ktap_test_fail "insmod $ZSPLICE_KO: $out"
fi
n=0
while [ ! -c /dev/zsplice ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
section_end module 0

# Generic KASAN keeps freed slab objects in a quarantine of up to
# MemTotal/32 plus 1 MiB per CPU (mm/kasan/quarantine.c), on purpose: on
# such a kernel the whole-soak memory check (account, below) allows that
# much more.  Read while the boot messages are still in the log buffer.
slack=0
if dmesg 2>/dev/null | grep -q 'KernelAddressSanitizer initialized'; then
	slack=$(( $(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo) / 32 + $(nproc) * 1024 ))
fi
run baseline 120 "$bin/soak_account" -s "$state/baseline"

# ------------------------------------------------------------ trinity
# An unprivileged user, a victim directory holding only the two devices.
# Only two fd providers: "pseudo" (the victim files) and pipes (for splice
# and tee).  With trinity's other providers (test files, inotify, bpf, ...)
# the devices were a small share of the fd pool, and in a 63 s window under
# TCG trinity sometimes never picked one (CI, 2026-12-02: 0 driver calls on
# 6.1 and 6.12).
section_begin trinity 3
grep -q '^fuzz:' /etc/passwd || echo 'fuzz:x:1000:1000:fuzz:/tmp/fuzz:/bin/sh' >>/etc/passwd
grep -q '^fuzz:' /etc/group || echo 'fuzz:x:1000:' >>/etc/group
rm -rf /tmp/fuzz /tmp/victims
mkdir -p /tmp/fuzz /tmp/victims
chown 1000:1000 /tmp/fuzz
for d in zsplice fullsplice; do
	if [ -c /dev/$d ]; then
		majmin=$(stat -c '%t %T' /dev/$d)
		# shellcheck disable=SC2046,SC2086
		mknod -m 0666 /tmp/victims/$d c $(printf '%d %d' 0x${majmin% *} 0x${majmin#* })
	fi
done
ls -l /tmp/victims | sed 's/^/# /'
splats0=$(splats)
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
echo "# trinity as uid 1000, $trinity_rounds rounds of ${t_round}s (seeds $seed..):$targs"
tlog=$state/trinity.log
count=0
reached=0
round=0
while [ "$round" -lt "$trinity_rounds" ]; do
	calls0=$(driver_calls)
	(cd /tmp/fuzz && exec setsid "$bin/soak_runas" 1000 1000 \
		trinity -q -l off -a 64 -C 4 -V /tmp/victims -s $((seed + round)) \
		--enable-fds=pseudo,pipes \
		$targs) >"$tlog.$round" 2>&1 </dev/null &
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
	pkill_pg=$(ps -o pid,pgid 2>/dev/null | awk -v g="$tpid" '$2 == g { print $1 }')
	[ -z "$pkill_pg" ] || kill -KILL $pkill_pg 2>/dev/null
	rm -rf /tmp/fuzz/*
	c=$(sed -n 's/.*Ran \([0-9][0-9]*\) syscalls.*/\1/p' "$tlog.$round" | tail -n 1)
	if [ -z "$c" ]; then
		# older output: per-child counts in "executed N syscalls" lines
		c=$(grep -oE '[0-9]+ syscalls' "$tlog.$round" | awk '{ s += $1 } END { print s + 0 }')
	fi
	d=$(( $(driver_calls) - calls0 ))
	echo "# SOAK-TRINITY round=$round seed=$((seed + round)) syscalls=${c:-0} driver_calls=$d"
	tail -n 5 "$tlog.$round" | sed 's/^/# trinity: /'
	count=$((count + ${c:-0}))
	reached=$((reached + d))
	round=$((round + 1))
done
echo "# SOAK-TRINITY syscalls=$count driver_calls=$reached seconds=$t_trinity"
if [ "$count" -gt 0 ]; then
	ktap_test_pass "trinity ran $count syscalls as uid 1000 against the devices"
else
	ktap_test_fail "trinity ran no syscalls (see log above)"
fi
# trinity picks its fds at random among the victims and pipes and in a
# short run under TCG sometimes never picks a device (2 of 5 runs of
# 2026-12-03); the fuzz section below reaches the driver by construction.
if [ "$reached" -gt 0 ]; then
	ktap_test_pass "trinity reached the driver ($reached read/write/splice calls counted by its stats)"
else
	ktap_test_skip "trinity did not pick a device in $trinity_rounds rounds (random fd choice; soak_fuzz covers the driver)"
fi
splats1=$(splats)
if [ "$splats1" -eq "$splats0" ]; then
	ktap_test_pass "no kernel splat during trinity"
else
	ktap_test_fail "kernel splat during trinity ($((splats1 - splats0)) lines)"
	dmesg | tail -n 40 | sed 's/^/# /'
fi
section_end trinity 0

# ---------------------------------------------------------------- fuzz
# Our own deterministic fuzzer (soak_fuzz.c), unprivileged, on the same
# victim nodes: only the devices and pipes, a seeded sequence of calls.
# Every call it counts as having moved bytes went through the driver, so
# the driver's call counters must have moved at least that much.
calls0=$(driver_calls)
splats0=$(splats)
run fuzz $((t_fuzz + tmo_extra)) "$bin/soak_runas" 1000 1000 "$bin/soak_fuzz" \
	-s "$seed" -t "$t_fuzz" /tmp/victims/zsplice /tmp/victims/fullsplice \
	>"$state/fuzz.log" 2>&1
cat "$state/fuzz.log"
calls1=$(driver_calls)
want=$(sed -n 's/^# SOAK-FUZZ .*device_calls=\([0-9]*\).*/\1/p' "$state/fuzz.log")
section_begin fuzz-driver 2
if [ "${want:-0}" -gt 0 ] && [ "$((calls1 - calls0))" -ge "$want" ]; then
	ktap_test_pass "soak_fuzz reached the driver: $((calls1 - calls0)) calls counted, $want moved bytes"
else
	ktap_test_fail "soak_fuzz: driver counted $((calls1 - calls0)) calls, the fuzzer moved bytes in ${want:-no} calls"
fi
if [ "$(splats)" -eq "$splats0" ]; then
	ktap_test_pass "no kernel splat during soak_fuzz"
else
	ktap_test_fail "kernel splat during soak_fuzz"
	dmesg | tail -n 40 | sed 's/^/# /'
fi
section_end fuzz-driver 0
rm -rf /tmp/fuzz/* /tmp/victims

# ---------------------------------------------- sanity after trinity
run badinput 300 "$bin/soak_badinput"
# The driver's splice kselftest, without its two timing tests (2 GiB
# sendfile / 1 GiB read interrupted by a signal): they measure speed, not
# whether the devices survived, and folio can finish before the signal.
if [ -x "$bin/zsplice_splice_test" ]; then
	run zsplice_splice_test 600 "$bin/zsplice_splice_test" \
		-T sendfile_2g_interrupted -T read_1g_interrupted
fi
run sanity-switch 120 "$bin/soak_switch" -t 5 -n 100

# -------------------------------------------------- switch under load
run switch $((t_switch + tmo_extra)) "$bin/soak_switch" -t "$t_switch" -n "$min_ops"

# -------------------------------------------------- unload under load
run unload $((rounds * 20 + tmo_extra)) "$bin/soak_unload" -r "$rounds"

# ---------------------------------------------------------- accounting
run account 300 "$bin/soak_account" -c "$state/baseline" -k "$slack"

section_begin splats 1
if [ "$(splats)" -eq 0 ]; then
	ktap_test_pass "no kernel splat in the whole soak"
else
	ktap_test_fail "kernel splats in dmesg"
	dmesg | grep -E -A 20 "$ZS_SPLAT_RE" | head -n 60 | sed 's/^/# /'
fi
section_end splats 0
exit 0
