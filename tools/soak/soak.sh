#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# zsplice soak, host half: build the module and the soak programs, stage
# them with the guest programs of tools/soak/guest/ as a kselftest install
# (tools/rig/ksft-install.sh), boot the rig's guest (tools/rig/run.sh) to
# run it with kselftest's runner, count the TAP results and end with
# "N passed, N failed".  Exit status non-zero on any failure, a kernel
# splat, a timeout or a guest that died.
#
# Usage: soak.sh [--out DIR] [--no-build] [--ko FILE]
#   --out DIR    logs (default tools/rig/.build/soak): build.log, ksft/
#                (the job), console.log, output.log (guest TAP),
#                verdict.tap (host results), summary.txt
#   --no-build   use the zsplice.ko and programs already built
#   --ko FILE    the module to soak (default the tree's zsplice.ko; one
#                built for another kernel, e.g. check-debug's)
# Environment:
#   SOAK_MINUTES  budget in minutes (default 3, the short form of make check;
#                 10 or more is the long form, which must reach 10^6 ops)
#   SOAK_ROUNDS   unload rounds (default 50)
#   SOAK_SEED     trinity's first seed and soak_fuzz's seed (default 1)
#   KVER, VM_ACCEL, ZSVM_BUILD as for tools/rig/run.sh
#   ZSVM_RUN      the rig's run.sh (default tools/rig/run.sh)
set -uo pipefail

# usage [STATUS]: the Usage paragraph of the header above, then the rest of
# the header; on stdout for STATUS 0 (--help), else on stderr.
usage() {
	awk 'NR > 2 && !/^#/ { exit }
	NR > 2 { sub(/^# ?/, ""); h[++n] = $0 }
	END {
		for (u = 1; u <= n && h[u] !~ /^Usage:/; u++) ;
		for (i = u; i <= n && h[i] != ""; i++) o[++m] = h[i]
		e = i
		for (i = 1; i < u; i++) o[++m] = h[i]
		for (i = e; i <= n; i++) o[++m] = h[i]
		while (m > 0 && o[m] == "") m--
		for (i = 1; i <= m; i++) if (o[i] != "" || o[i - 1] != "") print o[i]
	}' "$0" >&"$([ "${1:-2}" = 0 ] && echo 1 || echo 2)"
	exit "${1:-2}"
}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
minutes=${SOAK_MINUTES:-3}
rounds=${SOAK_ROUNDS:-50}
out=$top/tools/rig/.build/soak
build=1
ko=
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--no-build) build=0; shift ;;
	--ko) ko=$2; build=0; shift 2 ;;
	-h|--help) usage 0 ;;
	*) echo "soak.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
# shellcheck source=tools/rig/kver.sh
. "$top/tools/rig/kver.sh"
zs_check_minutes SOAK_MINUTES "$minutes" || exit 2
[[ $rounds =~ ^[0-9]+$ ]] || { echo "soak.sh: SOAK_ROUNDS wants a number" >&2; exit 2; }

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
verdict=$out/verdict.tap
# The host's own results: KTAP through the kernel's ktap_helpers.sh.
. "${KSFT_DIR:-$(zs_src_tree)/tools/testing/selftests}/kselftest/ktap_helpers.sh"
host_result() { # host_result ok|"not ok" TEXT
	if [ "$1" = ok ]; then ktap_test_pass "$2"; else ktap_test_fail "$2"; fi >>"$verdict"
	tail -n 1 "$verdict"
}
{
	ktap_print_header
	# two builds unless --no-build, the staging and the guest run
	ktap_set_plan $((build == 1 ? 4 : 2))
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

# ------------------------------------------------------------------ guest
# The job: kselftest's runner over collection soak (tools/soak/guest/ and
# the programs, in this order), after the rig's load.sh.
ksft=$out/ksft
g=$here/guest
args=(--prog rig "$top/tools/rig/guest/load.sh" --file soak "$g/lib.sh")
for p in "$g/baseline.sh" "$g/trinity.sh" "$g/fuzz.sh" "$here/soak_badinput" \
	 "$top/selftests/zsplice_splice_test" "$g/switch-sanity.sh" "$g/switch.sh" \
	 "$here/soak_unload" "$g/account.sh" "$g/nosplat.sh"; do
	args+=(--prog soak "$p")
done
for p in soak_runas soak_fuzz soak_switch soak_account; do
	args+=(--file soak "$here/$p")
done
# The runner's timeout per program: the longest one's share and then some.
ptmo=$((minutes * 60 + 300))
[ $((rounds * 20 + 120)) -le "$ptmo" ] || ptmo=$((rounds * 20 + 120))
if bash "$top/tools/rig/ksft-install.sh" "$ksft" "${args[@]}" --timeout soak "$ptmo"; then
	host_result ok "stage the soak job"
else
	host_result "not ok" "stage the soak job (tools/rig/ksft-install.sh)"
fi
files=(--file "$ksft:/zs/ksft")
ko=${ko:-$top/zsplice.ko}
[ -f "$ko" ] && files+=(--file "$ko:/zs/zsplice.ko")

timeout=$(((minutes + 10) * 60))
r=/zs/ksft/run_kselftest.sh
echo "# soak: ${minutes} min budget, $rounds unload rounds, hard timeout ${timeout} s, logs in $out"
# The driver's splice kselftest without its two timing tests (2 GiB
# sendfile / 1 GiB read interrupted by a signal): they measure speed, not
# whether the devices survived the fuzzers.
"${ZSVM_RUN:-$top/tools/rig/run.sh}" --out "$out" --timeout "$timeout" "${files[@]}" -- \
	"export SOAK_MINUTES=$minutes SOAK_SEED=${SOAK_SEED:-1} ZSPLICE_KO=/zs/zsplice.ko" \
	"KSELFTEST_SOAK_UNLOAD_ARGS='-r $rounds'" \
	"KSELFTEST_ZSPLICE_SPLICE_TEST_ARGS='-T sendfile_2g_interrupted -T read_1g_interrupted';" \
	"$r -t rig:load.sh; $r -c soak"
rc=$?
case $rc in
0) host_result ok "guest run: no kernel splat, finished within $timeout s" ;;
3) host_result "not ok" "guest run: kernel splat (see $out/console.log)" ;;
4) host_result "not ok" "guest run: no exit status reported (crash? see $out/console.log)" ;;
124) host_result "not ok" "guest run: hard timeout after $timeout s" ;;
*) host_result "not ok" "guest run: status $rc" ;;
esac

# ----------------------------------------------------------------- count
[ -f "$out/output.log" ] || : >"$out/output.log"
awk -v lists="$ksft/kselftest-list.txt" -f "$top/tools/rig/tapcount.awk" \
	"$verdict" "$out/output.log" >"$out/summary.txt" 2>&1
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
grep -hE 'SOAK-(TRINITY|FUZZ|SWITCH|UNLOAD)' "$out/output.log" | sed 's/^[# ]*/#   /'
[ -z "$skipped" ] || [ "$skipped" = 0 ] || echo "# $skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
