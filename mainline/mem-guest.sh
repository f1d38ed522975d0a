#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of `make mem-check` (busybox sh, root, in the rig's guest
# booting a kernel of the mainline/ series).  Everything runs against the
# kernel's own /dev/zero and /dev/full, never the module, except LKP's
# command on the module's `none` (the pre-6.7 EINVAL fallback):
#   kselftests      /zs/bin/zsplice_*_test with ZSPLICE_ZERO=/dev/zero
#                   ZSPLICE_FULL=/dev/full, in target mode for MEM_IMPL
#                   (the fill test counts 1-byte splices per pipe size)
#   splice_int_max  the fix series' selftest: a pipe of 2 GiB
#   zsbench         --impl devzero, JSON to /tmp/zsbench.json
#   lkp             LKP's stress-ng command (zsbench run --workload lkp-splice) with
#                   MEM_LKP_STRESSNG on devzero and none
#   contention      mainline/contention.sh: 1 and 2 threads splicing
#                   /dev/zero, the module's copy and zeropage into loopback
#                   TCP and O_DIRECT writes to a loop device
# MEM_QUICK=1 runs only MEM_QUICK_TESTS (default zsplice_fill_test and
# splice_int_max): the edit loop.
# Sections are "# ZSVM-BEGIN name" ... "# ZSVM-END name rc=N".

tmo=${MEM_TMO:-900}
export ZSPLICE_ZERO=/dev/zero ZSPLICE_FULL=/dev/full
export ZSPLICE_MAINLINE_IMPL="${MEM_IMPL:-copy}"

section() {
	name=$1
	shift
	echo "# ZSVM-BEGIN $name"
	timeout -s KILL "$tmo" "$@"
	rc=$?
	echo "# ZSVM-END $name rc=$rc"
}

echo "# kernel $(uname -r), $(nproc) cpus, impl $ZSPLICE_MAINLINE_IMPL, cmdline: $(cat /proc/cmdline)"
if [ "${MEM_QUICK:-0}" = 1 ]; then
	for t in ${MEM_QUICK_TESTS:-zsplice_fill_test splice_int_max}; do
		section "$t" "/zs/bin/$t"
	done
	exit 0
fi
for t in /zs/bin/zsplice_*_test /zs/bin/splice_int_max; do
	[ -x "$t" ] && section "$(basename "$t")" "$t"
done

if [ -x /zs/bin/zsbench ]; then
	# shellcheck disable=SC2086
	section zsbench /zs/bin/zsbench run --quiet --no-load --impl devzero --json /tmp/zsbench.json \
		${ZSBENCH_ARGS:---workload splice-1,splice-4K,splice-64K,splice-1M,sendfile-null-64K,sendfile-tcp-64K --threads 1,2 --runs 5}
fi

[ -f /zs/zsplice.ko ] && insmod /zs/zsplice.ko
if [ -n "${MEM_LKP_STRESSNG:-}" ] && [ -c /dev/zsplice ]; then
	section lkp /zs/bin/zsbench run --no-load --workload lkp-splice \
		--impl devzero,none --stress-ng-bin "$MEM_LKP_STRESSNG" \
		--lkp-time "${MEM_LKP_TIME:-60}"
fi

if [ -x /zs/bin/contention ]; then
	dd if=/dev/zero of=/tmp/odirect.img bs=1M count=160 2>/dev/null
	if losetup /dev/loop0 /tmp/odirect.img; then
		section contention bash /zs/bin/contention.sh -t 5 -c "1 2" \
			-d /dev/loop0 -o /tmp/contention
		losetup -d /dev/loop0
	fi
	rm -f /tmp/odirect.img
fi
exit 0
