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
# Sections are "# ZSVM-BEGIN name" ... "# ZSVM-END name rc=N".
#
# Environment: MEM_IMPL what this kernel's /dev/zero does (copy for a stock
# kernel, zeropage with the series; exported as ZSPLICE_MAINLINE_IMPL),
# MEM_TESTS=0 skips the kselftests, MEM_TMO seconds per program,
# ZSBENCH_ARGS the zsbench workload arguments.

tmo=${MEM_TMO:-900}
export ZSPLICE_ZERO=/dev/zero ZSPLICE_FULL=/dev/full
export ZSPLICE_MAINLINE_IMPL=${MEM_IMPL:-copy}

section() {
	name=$1
	shift
	echo "# ZSVM-BEGIN $name"
	timeout -s KILL "$tmo" "$@"
	rc=$?
	echo "# ZSVM-END $name rc=$rc"
}

echo "# kernel $(uname -r), $(nproc) cpus, impl $ZSPLICE_MAINLINE_IMPL, cmdline: $(cat /proc/cmdline)"
section zerofill sh -c 'for s in 4096 65536 1048576; do
	/zs/bin/zerofill /dev/zero $s; /zs/bin/zerofill /dev/full $s; done'

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

if command -v stress-ng >/dev/null; then
	section stress-ng stress-ng --splice 2 --timeout 20s --metrics-brief
fi
exit 0
