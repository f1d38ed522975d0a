#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The memory baseline the soak's accounting (account.sh) compares against,
# and the slack a KASAN kernel needs: generic KASAN keeps freed slab
# objects in a quarantine of up to MemTotal/32 plus 1 MiB per CPU
# (mm/kasan/quarantine.c).  Read while the boot messages are still in
# the log buffer.
# shellcheck source=tools/soak/guest/lib.sh
. "$(dirname "$0")/lib.sh"

slack=0
if dmesg 2>/dev/null | grep -q 'KernelAddressSanitizer initialized'; then
	slack=$(( $(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo) / 32 + $(nproc) * 1024 ))
fi
echo "$slack" >"$state/slack"
echo "# soak: $(uname -r), $(nproc) cpus, budget $minutes min (trinity ${t_trinity}s, fuzz ${t_fuzz}s, switch ${t_switch}s), KASAN slack ${slack} KiB"
exec ./soak_account -s "$state/baseline"
