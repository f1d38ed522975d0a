#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Programs people run on /dev/zero, each producing into a pipe that drain
# (mainline/drain.c) splices to /dev/null: pv (splice() of 64 KiB a call),
# pv --no-splice (read and write: the control), GNU cat and dd (read and
# write), uutils coreutils' cat (splice() of 128 KiB a call; trixie's
# rust-coreutils with its own libc under $MEM_UUTILS; GNU cat and dd
# under $MEM_GNU).  One line a run,
#   program NAME run I bytes N ns T GiBps G
# then the median run,
#   program NAME median ns T GiBps G ns-per-GiB P
# (under -icount a guest ns is an instruction: P is instructions per GiB).
# Then the kernel's tcp_mmap selftest receives with TCP_ZEROCOPY_RECEIVE
# what zero-send splices from /dev/zero with sendfile(), and says how much
# it could map.  MEM_PROGRAM_BYTES (default 512 MiB) and MEM_PROGRAM_RUNS
# (default 3).  TAP: one result a program; a program that is absent skips.
bytes=${MEM_PROGRAM_BYTES:-536870912}
runs=${MEM_PROGRAM_RUNS:-3}
uu=${MEM_UUTILS:-/zs/uutils}
gnu=${MEM_GNU:-/zs/gnu}
n=0
fail=0

tap() {
	n=$((n + 1))
	echo "$1 $n - $2"
}

# median NAME: the median of the runs in /tmp/programs.NAME
median() {
	sort -n -k 8 "/tmp/programs.$1" | awk -v runs="$runs" -v name="$1" '
		NR == int((runs + 1) / 2) {
			printf "program %s median ns %s GiBps %s ns-per-GiB %.0f\n",
				name, $8, $10, $8 * 1073741824 / $6
		}'
}

# program NAME CMD...: the runs of CMD through drain, then its median.
program() {
	name=$1
	shift
	rm -f "/tmp/programs.$name"
	i=1
	while [ "$i" -le "$runs" ]; do
		if ! out=$(drain "$bytes" "$@" 2>/tmp/programs.err); then
			sed 's/^/# /' /tmp/programs.err
			tap "not ok" "program $name"
			fail=1
			return
		fi
		echo "program $name run $i $out" | tee -a "/tmp/programs.$name"
		i=$((i + 1))
	done
	median "$name"
	tap ok "program $name"
}

# absent NAME WHAT: skip NAME, whose WHAT is not in the guest.
absent() {
	tap ok "program $1 # SKIP $2 not in the guest"
}

echo "TAP version 13"
if command -v pv >/dev/null; then
	program pv pv -q /dev/zero
	program pv-no-splice pv -q --no-splice /dev/zero
else
	absent pv pv
	absent pv-no-splice pv
fi
for p in cat dd; do
	if [ -x "$gnu/$p" ]; then
		case $p in
		cat) program gnu-cat "$gnu/cat" /dev/zero ;;
		dd) program gnu-dd "$gnu/dd" if=/dev/zero bs=64K status=none ;;
		esac
	else
		absent "gnu-$p" "GNU $p"
	fi
done
if [ -x "$uu/usr/bin/coreutils" ]; then
	lib=$uu/usr/lib/x86_64-linux-gnu
	program uutils-cat "$lib/ld-linux-x86-64.so.2" --library-path "$lib" \
		"$uu/usr/bin/coreutils" cat /dev/zero
else
	absent uutils-cat "uutils coreutils"
fi

# tcp_mmap over IPv4 (the rig's kernels have no IPv6), line-buffered
# (stdbuf) so that its report survives the kill.
if command -v tcp_mmap >/dev/null && command -v zero-send >/dev/null; then
	ip link set lo up 2>/dev/null
	stdbuf -oL tcp_mmap -4 -s -z -M 4108 >/tmp/tcp_mmap.out 2>&1 &
	server=$!
	sleep 1
	if zero-send 8787 268435456 4108; then
		sleep 1
		kill "$server" 2>/dev/null
		wait "$server" 2>/dev/null
		sed -n 's/^received /tcp_mmap: received /p' /tmp/tcp_mmap.out
		if grep -q '^received ' /tmp/tcp_mmap.out; then
			tap ok "tcp_mmap receives zero-send's /dev/zero"
		else
			sed 's/^/# /' /tmp/tcp_mmap.out
			tap "not ok" "tcp_mmap receives zero-send's /dev/zero"
			fail=1
		fi
	else
		kill "$server" 2>/dev/null
		tap "not ok" "zero-send to tcp_mmap"
		fail=1
	fi
else
	tap ok "tcp_mmap # SKIP tcp_mmap or zero-send not in the guest"
fi
echo "1..$n"
exit "$fail"
