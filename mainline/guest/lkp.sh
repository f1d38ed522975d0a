#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# LKP's stress-ng command (zsbench's lkp-splice workload) with the
# stress-ng at MEM_LKP_STRESSNG, on the kernel's /dev/zero and on the
# module's `none` (the pre-6.7 EINVAL fallback); the module is loaded.
exec zsbench run --no-load --workload lkp-splice --impl devzero,none \
	--stress-ng-bin "$MEM_LKP_STRESSNG" --lkp-time "${MEM_LKP_TIME:-60}"
