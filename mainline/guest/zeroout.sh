#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# BLKZEROOUT on a loop device over a 64 MiB file in the guest's RAM file
# system.  Where the device has no REQ_OP_WRITE_ZEROES (write_zeroes_max_bytes
# 0), blkdev_issue_zeroout() writes zero folios (__blkdev_issue_zero_pages(),
# largest_zero_folio()).  A loop device offers WRITE_ZEROES where its
# backing file has ->fallocate(); tmpfs refuses FALLOC_FL_ZERO_RANGE, the
# loop driver then clears the limit and the block layer falls back to zero
# folios: write_zeroes_max_bytes before and after the zero-out say which
# happened.  zeroout (mainline/zeroout.c) fills the range, zeroes it and
# checks it reads back as zeroes.  Prints
#   zeroout: write_zeroes_max_bytes W -> W', thp_zero_page_alloc A -> B
# and zeroout's own line; exit status zeroout's (1 when the loop device
# cannot be set up).
img=/tmp/zeroout.img
dd if=/dev/zero of="$img" bs=1M count=64 2>/dev/null || exit 1
if ! dev=$(losetup -f) || ! losetup "$dev" "$img"; then
	rm -f "$img"
	exit 1
fi
wz=/sys/block/${dev#/dev/}/queue/write_zeroes_max_bytes
wz_before=$(cat "$wz")
before=$(sed -n 's/^thp_zero_page_alloc //p' /proc/vmstat)
./zeroout "$dev" 64
rc=$?
after=$(sed -n 's/^thp_zero_page_alloc //p' /proc/vmstat)
echo "zeroout: write_zeroes_max_bytes $wz_before -> $(cat "$wz"), thp_zero_page_alloc $before -> $after"
losetup -d "$dev"
rm -f "$img"
exit $rc
