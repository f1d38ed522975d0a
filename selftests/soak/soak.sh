#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# zsplice soak, host half: build the module and the soak programs, boot the
# test guest (selftests/vm/run.sh) with them and guest-soak.sh, count the
# TAP results and end with "N passed, N failed".  Exit status non-zero on
# any failure, a kernel splat, a timeout or a guest that died.
#
# Usage: soak.sh [--out DIR] [--no-build]
# Environment:
#   SOAK_MINUTES  budget in minutes (default 3, the short form of make check;
#                 10 or more is the long form, which must reach 10^6 ops)
#   SOAK_ROUNDS   unload rounds (default 50)
#   KVER, VM_ACCEL, ZSVM_BUILD as for selftests/vm/run.sh
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
minutes=${SOAK_MINUTES:-3}
rounds=${SOAK_ROUNDS:-50}
out=$top/selftests/vm/.build/soak
build=1
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--no-build) build=0; shift ;;
	-h|--help) sed -n '3,15s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "soak.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
[[ $minutes =~ ^[0-9]+$ ]] && [ "$minutes" -ge 1 ] || { echo "soak.sh: SOAK_MINUTES wants whole minutes" >&2; exit 2; }

fail_setup() {
	echo "not ok 1 - soak setup: $*"
	echo "0 passed, 1 failed"
	exit 1
}

if [ "$build" = 1 ]; then
	make -s -C "$top" module >"$out.build.log" 2>&1 || { mkdir -p "$(dirname "$out")"; tail -n 20 "$out.build.log"; fail_setup "make module failed"; }
	make -s -C "$here" >>"$out.build.log" 2>&1 || { tail -n 20 "$out.build.log"; fail_setup "make -C selftests/soak failed"; }
	# The driver's own kselftests, for the sanity check after trinity:
	# optional, used when they build.
	make -s -C "$top/selftests" zsplice_splice_test >>"$out.build.log" 2>&1 || true
fi
[ -f "$top/zsplice.ko" ] || fail_setup "zsplice.ko missing"

files=(--file "$top/zsplice.ko:/zs/zsplice.ko" --file "$here/guest-soak.sh:/zs/bin/guest-soak.sh")
for p in soak_switch soak_unload soak_account soak_badinput soak_runas; do
	[ -x "$here/$p" ] || fail_setup "$p not built"
	files+=(--file "$here/$p:/zs/bin/$p")
done
[ -x "$top/selftests/zsplice_splice_test" ] &&
	files+=(--file "$top/selftests/zsplice_splice_test:/zs/bin/zsplice_splice_test")

rm -rf "$out"
mkdir -p "$out"
timeout=$(((minutes + 10) * 60))
echo "# soak: ${minutes} min budget, hard timeout ${timeout} s, logs in $out"
"$top/selftests/vm/run.sh" --out "$out" --timeout "$timeout" "${files[@]}" -- \
	"SOAK_MINUTES=$minutes SOAK_ROUNDS=$rounds ZSPLICE_KO=/zs/zsplice.ko sh /zs/bin/guest-soak.sh"
rc=$?

# Counts: every section of the guest output, plus the run itself.
summary=$(awk -f "$top/selftests/vm/tapcount.awk" "$out/output.log" 2>/dev/null | tail -n 1)
passed=$(echo "$summary" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
failed=$(echo "$summary" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
awk -f "$top/selftests/vm/tapcount.awk" "$out/output.log" 2>/dev/null | grep '^FAIL' || true
passed=${passed:-0}
failed=${failed:-0}
echo "# figures:"
grep -hE 'SOAK-(TRINITY|SWITCH|UNLOAD)' "$out/output.log" | sed 's/^# */#   /'
case $rc in
0) ;;
3) echo "not ok - kernel splat in the guest (see $out/console.log)"; failed=$((failed + 1)) ;;
124) echo "not ok - hard timeout after $timeout s"; failed=$((failed + 1)) ;;
*) echo "not ok - guest run exited with status $rc"; failed=$((failed + 1)) ;;
esac
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
