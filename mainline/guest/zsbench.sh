#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# zsbench on the booted kernel's own /dev/zero (implementation devzero),
# the records in /tmp/zsbench.json for mem-check's comparison with stock.
# ZSBENCH_ARGS replaces the default workloads, threads and runs.
# shellcheck disable=SC2086
exec zsbench run --quiet --no-load --impl devzero --json /tmp/zsbench.json \
	${ZSBENCH_ARGS:---workload splice-1,splice-4K,splice-64K,splice-1M,sendfile-null-64K,sendfile-tcp-64K --threads 1,2 --runs 5}
