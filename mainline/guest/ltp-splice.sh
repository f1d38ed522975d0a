#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# LTP's splice and tee tests (splice01..., tee01..., whichever the release
# has; mainline/sources.sh: zs_ltp builds them, static), installed beside
# this script.  Each runs from here with its own TMPDIR, LTP's timeouts
# multiplied by MEM_LTP_TIMEOUT_MUL (default 4: TCG is slow) and a hard
# timeout of MEM_LTP_TIMEOUT seconds (default 300).  Its output, then one
# line a test with the counts of LTP's Summary and its exit status,
#   ltp: TEST pass P fail F brok B conf C warn W exit S
# (all counts 0 when it printed no Summary: killed, crashed).  Exit status
# 1 when a test failed, broke or printed no Summary, or when there is no
# test here.
tmo=${MEM_LTP_TIMEOUT:-300}
export LTP_TIMEOUT_MUL="${MEM_LTP_TIMEOUT_MUL:-4}"
fail=0
n=0
for t in ./splice[0-9]* ./tee[0-9]*; do
	[ -x "$t" ] || continue
	name=${t#./}
	n=$((n + 1))
	tmp=/tmp/ltp-$name
	rm -rf "$tmp" && mkdir -p "$tmp"
	TMPDIR=$tmp timeout "$tmo" "$t" >/tmp/ltp.out 2>&1 </dev/null
	rc=$?
	cat /tmp/ltp.out
	awk -v name="$name" -v rc="$rc" '
		/^Summary:$/ { s = 1; next }
		s && $1 == "passed" { p = $2 }
		s && $1 == "failed" { f = $2 }
		s && $1 == "broken" { b = $2 }
		s && $1 == "skipped" { c = $2 }
		s && $1 == "warnings" { w = $2 }
		END {
			printf "ltp: %s pass %d fail %d brok %d conf %d warn %d exit %d\n",
				name, p, f, b, c, w, rc
			exit !(s && f == 0 && b == 0)
		}' /tmp/ltp.out || fail=1
	rm -rf "$tmp"
done
rm -f /tmp/ltp.out
if [ "$n" = 0 ]; then
	echo "ltp-splice: no LTP splice or tee test installed"
	exit 1
fi
exit "$fail"
