#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tools/kbuild/check-debug.sh [--kcsan]   (make check-debug; with
# --kcsan, make check-kcsan; -h, --help: this text)
#
# make check-debug: the guest suite, a fault-injection sweep of the module's
# load path and first splice, and the short soak, on a debug build of
# Debian's linux-source-6.12 (tools/kbuild/base.config + debug.config:
# KASAN, lockdep, DEBUG_VM, DEBUG_PAGEALLOC, PAGE_OWNER, kmemleak, DEBUG_LIST,
# SLUB_DEBUG_ON, DEBUG_OBJECTS, failslab/fail_page_alloc), 2 vCPUs, booted
# with page_owner=on page_poison=1.  Any sanitizer report on the console or
# kmemleak entry at the end fails the run.  Timeouts are scaled by a factor
# the rig derives: a calibration workload timed on the debug kernel against
# the same workload on the stock Debian 6.12 guest (cached per host).
# Ends with "N passed, N failed[, N skipped]" like make check; summary and
# logs in $DEBUG_OUT (default .check-debug/).
#
# check-debug.sh --kcsan (make check-kcsan): the same on a KCSAN build
# (base.config + kcsan.config; KCSAN cannot share a kernel with KASAN),
# without the fault-injection sweep and kmemleak; logs in .check-kcsan/.
#
# Environment: DEBUG_OUT, SKIP_SOAK=1, SKIP_SUITE=1 (no guest suite: with
# SKIP_SOAK=1 only the fault-injection sweep and kmemleak), SOAK_MINUTES
# (default 3), ZSVM_TEST_TIMEOUT (per test program before scaling, default
# selftests/settings' timeout).
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
variant=debug
case ${1:-} in
--kcsan) variant=kcsan ;;
-h|--help) usage 0 ;;
"") ;;
*) usage ;;
esac

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
vm=$top/tools/rig
out=${DEBUG_OUT:-$top/.check-$variant}
rm -rf "$out"
mkdir -p "$out"
start=$(date +%s)
say() { echo "check-$variant: $*"; }
if [ "$variant" = kcsan ]; then
	fragment=$here/kcsan.config
	bootargs=""
else
	fragment=$here/debug.config
	bootargs="page_owner=on page_poison=1"
fi
# shellcheck source=tools/rig/kver.sh
. "$vm/kver.sh"

# Console lines that are sanitizer or debug-check reports (run.sh's list
# plus what the debug options print: lockdep's "WARNING: possible ...",
# SLUB's "BUG <cache> (...)", debugobjects' "ODEBUG:", page state).
report_re='BUG:|BUG [a-z0-9_:-]+ \(|WARNING:|Oops|general protection|Kernel panic|list_(add|del) corruption|refcount_t:|kernel BUG at|UBSAN:|KASAN:|KFENCE:|ODEBUG:|Bad page|page dumped because|possible circular locking|inconsistent lock state|suspicious RCU usage|unreferenced object|blocked for more than|detected stalls on CPU'

# ------------------------------------------------------------- kernel
src=/usr/src/linux-source-6.12.tar.xz
[ -r "$src" ] || bash "$vm/deps.sh" || exit 2
say "$variant kernel: tools/kbuild/build.sh $(basename "$src") base.config $(basename "$fragment")"
kd=$("$here/build.sh" "$src" "$here/base.config" "$fragment" | tail -n 1)
[ -e "$kd/bzImage" ] || { say "debug kernel build failed"; exit 1; }
kver=$(cat "$kd/release")
say "debug kernel $kver, built in $(head -n 1 "$kd/time.txt")"
kargs=(--kimage "$kd/bzImage" --kmods "$kd/modules")

# ------------------------------------------------------------- builds
say "module against $kd/linux, selftests, soak, zsbench, failnth"
make -C "$top" module KDIR="$kd/linux" >"$out/build-module.log" 2>&1 ||
	{ tail -n 30 "$out/build-module.log"; say "module build failed"; exit 1; }
cp "$top/zsplice.ko" "$out/zsplice.ko"
make -s -k -C "$top/selftests" >"$out/build-selftests.log" 2>&1
make -s -C "$top/tools/soak" >"$out/build-soak.log" 2>&1
make -s -C "$top/userspace" >"$out/build-userspace.log" 2>&1
gcc -O2 -Wall -static -o "$out/failnth" "$here/failnth.c" || exit 2
gcc -O2 -Wall -static -o "$out/calibrate" "$here/calibrate.c" || exit 2

# ---------------------------------------------------------- calibrate
# Two workloads (guest/calibrate.sh): fork/exec/page faults ("ms")
# and a 50 us signal storm over 1-byte pipe round trips ("signal_ms",
# calibrate.c), each timed on the debug kernel and on the stock guest (cached
# per stock kernel).  The factor is the larger ratio: the first run's factor
# from fork/exec alone (3) was too small for zsplice_signal_test.
calibrate() {
	local dir=$1
	shift
	"$vm/run.sh" --quiet "$@" --out "$dir" --timeout 1800 \
		--file "$out/calibrate-ksft:/zs/ksft" \
		-- '/zs/ksft/run_kselftest.sh -t debug:calibrate.sh' >/dev/null 2>&1
	awk '$2 == "calibrate" && $3 == "ms" { a = $4 }
	     $2 == "calibrate" && $3 == "signal_ms" { b = $4 }
	     END { if (a != "" && b != "") print a, b }' "$dir/output.log" 2>/dev/null
}
bash "$vm/ksft-install.sh" "$out/calibrate-ksft" --prog debug "$here/guest/calibrate.sh" \
	--file debug "$out/calibrate" --timeout debug 1800 || exit 2
# ceil(debug / stock), or nothing when either is missing or 0
ratio() {
	[ -n "$1" ] && [ -n "$2" ] && [ "$2" -gt 0 ] && echo $(( ($1 + $2 - 1) / $2 ))
}
stock=$(zs_installed_kver)
ref_cache=/var/cache/zsplice/kbuild/calibrate2-$stock
ref=$(cat "$ref_cache" 2>/dev/null)
if [ -z "$ref" ]; then
	ref=$(calibrate "$out/calibrate-stock" --kver "$stock")
	[ -n "$ref" ] && echo "$ref" >"$ref_cache"
fi
dbg=$(calibrate "$out/calibrate-debug" "${kargs[@]}" --append "$bootargs")
# shellcheck disable=SC2086
set -- $ref $dbg
f_fork=$(ratio "${3:-}" "${1:-}")
f_sig=$(ratio "${4:-}" "${2:-}")
if [ -n "$f_fork" ] && [ -n "$f_sig" ]; then
	factor=$f_fork
	[ "$f_sig" -le "$factor" ] || factor=$f_sig
else
	factor=10
	say "calibration failed (stock ${ref:-?}, debug ${dbg:-?}): factor $factor"
fi
[ "$factor" -ge 1 ] || factor=1
[ "$factor" -le 30 ] || factor=30
say "calibration: stock $stock ${1:-?}/${2:-?} ms, debug ${3:-?}/${4:-?} ms (fork+exec/signal storm): ratios ${f_fork:-?}/${f_sig:-?}, timeouts x $factor"

# ------------------------------------------------------ guest suite
# One kselftest install run by kselftest's runner: prepare.sh, the suite
# of make check with its timeout scaled, then (debug variant) the
# fault-injection sweeps and the kmemleak scan.
g=$here/guest
tmo=$(( ${ZSVM_TEST_TIMEOUT:-$(zs_test_timeout)} * factor ))
args=(--prog debug "$g/prepare.sh")
if [ "${SKIP_SUITE:-0}" != 1 ]; then
	args+=(--suite)
fi
if [ "$variant" = debug ]; then
	args+=(--prog debug "$g/fail-nth.sh" --prog debug "$g/kmemleak.sh" --file debug "$out/failnth")
fi
bash "$vm/ksft-install.sh" "$out/ksft" "${args[@]}" --timeout debug $((1800 * factor)) || exit 2
r=/zs/ksft/run_kselftest.sh
cmd="export ZSPLICE_KO=/zs/zsplice.ko ZSVM_FACTOR=$factor; $r -t debug:prepare.sh"
[ "${SKIP_SUITE:-0}" = 1 ] || cmd="$cmd; $(zs_suite_cmd "$tmo")"
[ "$variant" != debug ] || cmd="$cmd; $r -t debug:fail-nth.sh -t debug:kmemleak.sh"
files=(--file "$out/ksft:/zs/ksft" --file "$out/zsplice.ko:/zs/zsplice.ko")
[ -x "$top/userspace/zsbench" ] && files+=(--file "$top/userspace/zsbench:/zs/bin/")

say "guest suite$([ "$variant" = debug ] && echo " + fault injection") on $kver (after $(($(date +%s) - start)) s)"
gstart=$(date +%s)
"$vm/run.sh" --quiet "${kargs[@]}" --cpus 2 \
	--append "$bootargs" --out "$out/guest" \
	--timeout $((3600 * factor)) "${files[@]}" -- "$cmd"
grc=$?
say "guest suite: status $grc after $(($(date +%s) - gstart)) s"
{
	case $grc in
	0|1|3) echo "ok - debug guest run finished in time" ;;
	124) echo "not ok - debug guest run: TIMEOUT" ;;
	*) echo "not ok - debug guest run: status $grc (see $out/guest/console.log)" ;;
	esac
} >"$out/verdict.tap"

# ------------------------------------------------------------- soak
if [ "${SKIP_SOAK:-0}" != 1 ]; then
	say "short soak on $kver"
	# run.sh wrapper: debug kernel, boot arguments, timeout x factor.
	cat >"$out/run-debug.sh" <<WRAP
#!/bin/bash
args=()
while [ \$# -gt 0 ]; do
	case \$1 in
	--timeout) args+=(--timeout \$((\$2 * $factor))); shift 2 ;;
	--) break ;;
	*) args+=("\$1"); shift ;;
	esac
done
exec "$vm/run.sh" --kimage "$kd/bzImage" --kmods "$kd/modules" \\
	--append "$bootargs" "\${args[@]}" "\$@"
WRAP
	chmod +x "$out/run-debug.sh"
	ZSVM_RUN=$out/run-debug.sh SOAK_MINUTES=${SOAK_MINUTES:-3} \
		bash "$top/tools/soak/soak.sh" --ko "$out/zsplice.ko" --out "$out/soak" >"$out/soak.log" 2>&1
	tail -n 3 "$out/soak.log"
fi

# ---------------------------------------------------------- verdict
reports=0
for c in "$out/guest/console.log" "$out/soak/console.log" "$out/calibrate-debug/console.log"; do
	[ -f "$c" ] || continue
	if grep -aqE "$report_re" "$c"; then
		n=$(grep -acE "$report_re" "$c")
		reports=$((reports + n))
		echo "not ok - sanitizer/debug reports in $c: $n lines" >>"$out/verdict.tap"
		grep -anE "$report_re" "$c" | head -n 20 | sed 's/^/# /' >>"$out/verdict.tap"
	else
		echo "ok - no sanitizer/debug report in $(basename "$(dirname "$c")")/console.log" >>"$out/verdict.tap"
	fi
done
[ -f "$out/guest/output.log" ] || : >"$out/guest/output.log"
logfiles=("$out/guest/output.log" "$out/verdict.tap")
lists=$out/ksft/kselftest-list.txt
if [ -f "$out/soak/verdict.tap" ]; then
	logfiles+=("$out/soak/verdict.tap" "$out/soak/output.log")
	lists="$lists $out/soak/ksft/kselftest-list.txt"
fi
{
	echo "debug kernel $kver ($kd), factor $factor, run $(($(date +%s) - start)) s"
	sed -En 's/^#[ ]+# ((load|splice): .*)/\1/p' "$out/guest/output.log"
	awk '/^# selftests: / { s = $3 " " $4 } /^# # Totals:/ { print s ": " substr($0, 5) }' "$out/guest/output.log"
	echo "sanitizer/debug report lines: $reports"
	awk -v lists="$lists" -f "$vm/tapcount.awk" "${logfiles[@]}"
} | tee "$out/summary.txt"
grep -q ' 0 failed' "$out/summary.txt" && [ "$reports" = 0 ]
