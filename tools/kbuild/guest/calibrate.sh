#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What the debug options slow down, timed for check-debug's timeout factor:
# 200 fork+exec of /bin/true and a 64 MiB anonymous fault-in ("calibrate
# ms N"), then a signal storm over 1-byte pipe round trips (calibrate.c,
# "calibrate signal_ms N").  Run on the debug kernel and on the stock one.
t0=$(cut -d' ' -f1 /proc/uptime)
i=0
while [ $i -lt 200 ]; do
	/bin/true
	i=$((i + 1))
done
head -c 67108864 /dev/zero | cat >/dev/null
t1=$(cut -d' ' -f1 /proc/uptime)
echo "calibrate ms $(echo "$t0 $t1" | awk '{ printf "%d", ($2 - $1) * 1000 }')"
exec ./calibrate
