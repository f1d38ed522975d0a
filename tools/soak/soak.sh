#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# zsplice soak, host half: build the module and the soak programs, boot the
# test guest (tools/rig/run.sh) with them and guest-soak.sh, count the
# TAP results and end with "N passed, N failed".  Exit status non-zero on
# any failure, a kernel splat, a timeout or a guest that died.
#
# Usage: soak.sh [--out DIR] [--no-build]
#   --out DIR    logs (default tools/rig/.build/soak): build.log,
#                console.log, output.log (guest TAP), verdict.tap (host
#                results), soak.tap (both, what the counter reads),
#                summary.txt
#   --no-build   use the zsplice.ko and programs already built
# Environment:
#   SOAK_MINUTES  budget in minutes (default 3, the short form of make check;
#                 10 or more is the long form, which must reach 10^6 ops)
#   SOAK_ROUNDS   unload rounds (default 50)
#   SOAK_SEED     trinity's first seed and soak_fuzz's seed (default 1)
#   KVER, VM_ACCEL, ZSVM_BUILD as for tools/rig/run.sh
#   ZSVM_RUN      the rig's run.sh (default tools/rig/run.sh)
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
minutes=${SOAK_MINUTES:-3}
rounds=${SOAK_ROUNDS:-50}
out=$top/tools/rig/.build/soak
build=1
progs="soak_switch soak_unload soak_account soak_badinput soak_runas soak_fuzz"
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--no-build) build=0; shift ;;
	-h|--help) sed -n '3,21s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "soak.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
[[ $minutes =~ ^[0-9]+$ ]] && [ "$minutes" -ge 1 ] ||
	{ echo "soak.sh: SOAK_MINUTES wants whole minutes" >&2; exit 2; }
[[ $rounds =~ ^[0-9]+$ ]] || { echo "soak.sh: SOAK_ROUNDS wants a number" >&2; exit 2; }

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
verdict=$out/verdict.tap
# The host's own results: KTAP through the kernel's ktap_helpers.sh.
# shellcheck source=tools/rig/kver.sh
. "$top/tools/rig/kver.sh"
. "${KSFT_DIR:-$(zs_src_tree)/tools/testing/selftests}/kselftest/ktap_helpers.sh"
host_result() { # host_result ok|"not ok" TEXT
	if [ "$1" = ok ]; then ktap_test_pass "$2"; else ktap_test_fail "$2"; fi >>"$verdict"
	tail -n 1 "$verdict"
}
{
	echo "# ZSVM-BEGIN soak:host"
	ktap_print_header
	# two builds unless --no-build, and the guest run
	ktap_set_plan $((build == 1 ? 3 : 1))
} >"$verdict"

# ------------------------------------------------------------------ build
if [ "$build" = 1 ]; then
	if zs_make "${KVER:-$(zs_installed_kver)}" -s module >"$out/build.log" 2>&1; then
		host_result ok "build zsplice.ko"
	else
		tail -n 20 "$out/build.log"
		host_result "not ok" "build zsplice.ko (see $out/build.log)"
	fi
	if make -s -C "$here" >>"$out/build.log" 2>&1; then
		host_result ok "build the soak programs"
	else
		tail -n 20 "$out/build.log"
		host_result "not ok" "build the soak programs (see $out/build.log)"
	fi
	# The driver's own splice kselftest, for the sanity check after
	# trinity: used when it builds.
	make -s -C "$top/selftests" zsplice_splice_test >>"$out/build.log" 2>&1 || true
fi

files=(--file "$here/guest-soak.sh:/zs/bin/guest-soak.sh"
	--file "$top/tools/rig/splats.sh:/zs/bin/splats.sh"
	--file "$top/selftests/zsplice_splats.h:/zs/bin/zsplice_splats.h")
missing=""
if [ -f "$top/zsplice.ko" ]; then
	files+=(--file "$top/zsplice.ko:/zs/zsplice.ko")
else
	missing="$missing zsplice.ko"
fi
for p in $progs; do
	if [ -x "$here/$p" ]; then
		files+=(--file "$here/$p:/zs/bin/$p")
	else
		missing="$missing $p"
	fi
done
[ -x "$top/selftests/zsplice_splice_test" ] &&
	files+=(--file "$top/selftests/zsplice_splice_test:/zs/bin/zsplice_splice_test")

# ------------------------------------------------------------------ guest
timeout=$(((minutes + 10) * 60))
if [ -n "$missing" ]; then
	host_result "not ok" "guest run: missing$missing"
	rc=-1
else
	echo "# soak: ${minutes} min budget, $rounds unload rounds, hard timeout ${timeout} s, logs in $out"
	"${ZSVM_RUN:-$top/tools/rig/run.sh}" --out "$out" --timeout "$timeout" "${files[@]}" -- \
		"SOAK_MINUTES=$minutes SOAK_ROUNDS=$rounds SOAK_SEED=${SOAK_SEED:-1} ZSPLICE_KO=/zs/zsplice.ko sh /zs/bin/guest-soak.sh"
	rc=$?
	case $rc in
	0) host_result ok "guest run: no kernel splat, finished within $timeout s" ;;
	3) host_result "not ok" "guest run: kernel splat (see $out/console.log)" ;;
	4) host_result "not ok" "guest run: no exit status reported (crash? see $out/console.log)" ;;
	124) host_result "not ok" "guest run: hard timeout after $timeout s" ;;
	*) host_result "not ok" "guest run: status $rc" ;;
	esac
fi
echo "# ZSVM-END soak:host rc=0" >>"$verdict"

# ----------------------------------------------------------------- count
cat "$verdict" >"$out/soak.tap"
[ -f "$out/output.log" ] && grep -v '^ZSVM-' "$out/output.log" >>"$out/soak.tap"
awk -f "$top/tools/rig/tapcount.awk" "$out/soak.tap" >"$out/summary.txt" 2>&1
grep '^FAIL' "$out/summary.txt"
summary=$(tail -n 1 "$out/summary.txt")
passed=$(echo "$summary" | sed -n 's/^\([0-9][0-9]*\) passed.*/\1/p')
failed=$(echo "$summary" | sed -n 's/.* \([0-9][0-9]*\) failed.*/\1/p')
skipped=$(echo "$summary" | sed -n 's/.* \([0-9][0-9]*\) skipped.*/\1/p')
if [ -z "$passed" ] || [ -z "$failed" ]; then
	echo "# soak: could not count results: $summary"
	passed=${passed:-0}
	failed=$((${failed:-0} + 1))
fi
echo "# figures:"
grep -hE 'SOAK-(TRINITY|FUZZ|SWITCH|UNLOAD)' "$out/soak.tap" | sed 's/^# */#   /'
[ -z "$skipped" ] || [ "$skipped" = 0 ] || echo "# $skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
