#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# contention.sh with 1 and 2 threads, to loopback TCP and with O_DIRECT to
# a loop device over a 160 MiB file; the module is loaded (its copy and
# zeropage are the references).
dd if=/dev/zero of=/tmp/odirect.img bs=1M count=160 2>/dev/null || exit 1
losetup /dev/loop0 /tmp/odirect.img || exit 1
bash ./contention.sh -t 5 -c "1 2" -d /dev/loop0 -o /tmp/contention
rc=$?
losetup -d /dev/loop0
rm -f /tmp/odirect.img
exit $rc
