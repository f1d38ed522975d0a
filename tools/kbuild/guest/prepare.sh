#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Before check-debug's suite: the hung-task timeout scaled by the debug
# kernel's slowdown (ZSVM_FACTOR; the rig's init sets 30 s), kmemleak's
# list cleared so that kmemleak.sh sees only what the run leaked.
factor=${ZSVM_FACTOR:-1}
echo "# debug kernel $(uname -r), $(nproc) cpus, factor $factor, cmdline: $(cat /proc/cmdline)"
echo $((30 * factor)) >/proc/sys/kernel/hung_task_timeout_secs
kml=/sys/kernel/debug/kmemleak
[ ! -w $kml ] || echo clear >$kml
