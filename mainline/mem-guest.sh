#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of `make mem-check` (busybox sh, root, in the zsvm guest booting
# a kernel built by selftests/kbuild/build.sh).  Everything runs against the
# kernel's own /dev/zero and /dev/full, never the module:
#   zerofill        1-byte splice fill counts of 4 KiB / 64 KiB / 1 MiB pipes
#   kselftests      /zs/bin/zsplice_*_test with ZSPLICE_ZERO=/dev/zero
#                   ZSPLICE_FULL=/dev/full (tests that need the module skip)
#   zsbench         --impl devzero, JSON to /tmp/zsbench.json
#   stress-ng       the installed (bookworm 0.15.06) --splice stressor
#   fionread        /zs/bin/fionread (a pipe of more than INT_MAX bytes):
#                   from /dev/zero, and from /dev/zsplice (module, folio)
#   lkp             LKP's command with MEM_LKP_STRESSNG (stress-ng
#                   V0.17.00): --timeout 60 --times --verify --metrics-brief
#                   --splice nproc, 1 KiB per instance, on /dev/zero, then
#                   on each module implementation of MEM_LKP_IMPLS (default
#                   none: the pre-6.7 fallback) bound over /dev/zero
# The module (/zs/zsplice.ko, built for this kernel) is loaded only after
# the kselftests and zsbench, which measure the kernel's own devices.
# Sections are "# ZSVM-BEGIN name" ... "# ZSVM-END name rc=N".
#
# Environment: MEM_IMPL what this kernel's /dev/zero does (copy for a stock
# kernel, zeropage or folio with the series; exported as
# ZSPLICE_MAINLINE_IMPL), MEM_TESTS=0 skips the kselftests, MEM_TMO seconds
# per program, ZSBENCH_ARGS the zsbench workload arguments, MEM_FILL_SIZES
# (default "4096 65536 1048576") and MEM_FILL_CAP (stop a fill after that
# many splices, default none), MEM_LKP_STRESSNG, MEM_LKP_TIME (default 60).

tmo=${MEM_TMO:-900}
export ZSPLICE_ZERO=/dev/zero ZSPLICE_FULL=/dev/full
export ZSPLICE_MAINLINE_IMPL=${MEM_IMPL:-copy}
# set by mem-check.sh for a kernel with the FIONREAD fix
[ -z "${ZSPLICE_FIONREAD_FIXED:-}" ] || export ZSPLICE_FIONREAD_FIXED

section() {
	name=$1
	shift
	echo "# ZSVM-BEGIN $name"
	timeout -s KILL "$tmo" "$@"
	rc=$?
	echo "# ZSVM-END $name rc=$rc"
}

echo "# kernel $(uname -r), $(nproc) cpus, impl $ZSPLICE_MAINLINE_IMPL, cmdline: $(cat /proc/cmdline)"
export MEM_FILL_SIZES="${MEM_FILL_SIZES:-4096 65536 1048576}" MEM_FILL_CAP="${MEM_FILL_CAP:-0}"
# shellcheck disable=SC2016
section zerofill sh -c 'for s in $MEM_FILL_SIZES; do
	/zs/bin/zerofill /dev/zero $s $MEM_FILL_CAP; /zs/bin/zerofill /dev/full $s $MEM_FILL_CAP; done'

if [ "${MEM_TESTS:-1}" = 1 ]; then
	for t in /zs/bin/zsplice_*_test; do
		[ -x "$t" ] || continue
		section "$(basename "$t")" "$t"
	done
fi

if [ -x /zs/bin/zsbench ]; then
	# shellcheck disable=SC2086
	section zsbench /zs/bin/zsbench --quiet --impl devzero --json /tmp/zsbench.json \
		${ZSBENCH_ARGS:---workload splice-1,splice-4K,splice-64K,splice-1M,sendfile-null-64K,sendfile-tcp-64K,fill --threads 1,2 --runs 5}
fi

if command -v stress-ng >/dev/null && [ "${MEM_STRESSNG:-1}" = 1 ]; then
	section stress-ng stress-ng --splice 2 --timeout 20s --metrics-brief
fi

module=0
if [ -f /zs/zsplice.ko ] && insmod /zs/zsplice.ko; then
	module=1
	echo "# module: $(dmesg | grep 'zsplice: loaded' | tail -n 1)"
fi
if [ -x /zs/bin/fionread ]; then
	section fionread /zs/bin/fionread /dev/zero
	[ "$module" = 1 ] && section fionread-zsplice /zs/bin/fionread /dev/zsplice
fi

# lkp_run NAME: LKP's stress-ng command; a sixth of the run (at most 10 s)
# before its alarm, the wchan of every stress-ng instance ("stalled" =
# asleep in pipe_wait_writable).  Shell builtins only: with both vCPUs busy
# a fork per /proc entry takes so long that the instances are gone first.
lkp_run() {
	n=$(nproc)
	t=${MEM_LKP_TIME:-60}
	m=$((t / 6))
	[ "$m" -gt 10 ] && m=10
	[ "$m" -lt 1 ] && m=1
	echo "# ZSVM-BEGIN lkp-$1"
	"$MEM_LKP_STRESSNG" --timeout "$t" --times --verify --metrics-brief \
		--splice "$n" --splice-bytes $((n * 1024)) >/tmp/lkp.log 2>&1 &
	pid=$!
	sleep $((t - m))
	stalled=0 inst=0
	for d in /proc/[0-9]*; do
		read -r c <"$d/comm" 2>/dev/null || continue
		case $c in stress-ng-spli*) ;; *) continue ;; esac
		w=-
		read -r w <"$d/wchan" 2>/dev/null
		inst=$((inst + 1))
		[ "$w" = pipe_wait_writable ] && stalled=$((stalled + 1))
		echo "lkp $1 ${d#/proc/} $c wchan ${w:--}"
	done
	wait "$pid"
	rc=$?
	cat /tmp/lkp.log
	echo "lkp $1 instances $inst stalled $stalled rc $rc"
	echo "# ZSVM-END lkp-$1 rc=$rc"
}

if [ -n "${MEM_LKP_STRESSNG:-}" ] && [ -x "$MEM_LKP_STRESSNG" ]; then
	echo "# lkp: $("$MEM_LKP_STRESSNG" --version 2>&1 | head -n 1)"
	lkp_run devzero
	for impl in ${MEM_LKP_IMPLS:-none}; do
		[ "$module" = 1 ] || break
		if echo "$impl" >/sys/module/zsplice/parameters/splice_impl &&
		   mount -o bind /dev/zsplice /dev/zero; then
			lkp_run "$impl"
			umount /dev/zero
		fi
	done
fi
exit 0
