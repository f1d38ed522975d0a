# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034 # the programs that source this read its variables
#
# Sourced by the soak's guest programs (collection soak of the job that
# tools/soak/soak.sh stages): the rig's helpers, the budget and the state
# the programs hand on to each other in /tmp/soak.
#
#   SOAK_MINUTES   total budget in minutes (default 3, the short form)
#   SOAK_SEED      first trinity seed and soak_fuzz's seed (default 1)

# shellcheck source=tools/rig/guest/lib.sh
. "$(dirname "$0")/../rig/lib.sh"

minutes=${SOAK_MINUTES:-3}
seed=${SOAK_SEED:-1}
budget=$((minutes * 60))
# Shares of the budget: trinity 25%, our own fuzzer 10%, switch 35%; the
# rest (unload rounds, tables, accounting) takes what it takes, about a
# minute under TCG.
t_trinity=$((budget * 25 / 100))
t_fuzz=$((budget * 10 / 100))
t_switch=$((budget * 35 / 100))
[ "$t_trinity" -ge 45 ] || t_trinity=45
[ "$t_fuzz" -ge 20 ] || t_fuzz=20
[ "$t_switch" -ge 20 ] || t_switch=20
# The long form must reach 10^6 operations; the short one proves the path.
if [ "$minutes" -ge 10 ]; then min_ops=1000000; else min_ops=10000; fi
state=/tmp/soak
mkdir -p "$state"

# driver_calls: reads, writes and splices that reached the driver (both
# devices' call counters in debugfs).
driver_calls() {
	cat /sys/kernel/debug/zsplice/zsplice/stats /sys/kernel/debug/zsplice/fullsplice/stats 2>/dev/null |
		awk '$1 ~ /_calls$/ { s += $2 } END { print s + 0 }'
}

# victims: /tmp/victims holding only the two devices, for an unprivileged
# user (uid 1000, "fuzz", home /tmp/fuzz).
victims() {
	grep -q '^fuzz:' /etc/passwd || echo 'fuzz:x:1000:1000:fuzz:/tmp/fuzz:/bin/sh' >>/etc/passwd
	grep -q '^fuzz:' /etc/group || echo 'fuzz:x:1000:' >>/etc/group
	rm -rf /tmp/fuzz /tmp/victims
	mkdir -p /tmp/fuzz /tmp/victims
	chown 1000:1000 /tmp/fuzz
	for d in zsplice fullsplice; do
		[ -c /dev/$d ] || continue
		majmin=$(stat -c '%t %T' /dev/$d)
		# shellcheck disable=SC2046,SC2086
		mknod -m 0666 /tmp/victims/$d c $(printf '%d %d' 0x${majmin% *} 0x${majmin#* })
	done
}
