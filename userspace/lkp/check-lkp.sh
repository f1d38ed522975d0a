#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: userspace/lkp/check-lkp.sh   (what `make check-lkp` runs; -h,
# --help: this text)
#
# make check-lkp: the lkp-tests program (lkp-tests/ of this tree) checked
# against lkp-tests' own code, from a checkout given as LKP_SRC (it skips,
# saying why, without one).  Nothing of lkp-tests is kept in this tree: the
# checkout is copied to a scratch directory, the program dropped into it,
# and these run:
#
#   1. split-job: lkp split-job on jobs/zsbench.yaml gives one job per
#      impl x splice_bytes x nr_threads (20), with LKP's values;
#   2. the package: pkg/PKGBUILD's build and package with lkp-tests'
#      lib/tests/pkgbuild.sh, this tree as the source; it must pack the
#      module's sources and zsbench and nothing else; the module is built
#      from them here (the guest has no compiler) as run would build it;
#   3. the program's run in the rig's QEMU guest, with the environment
#      lkp-tests gives it: export_top_env of the job.sh that lkp-tests'
#      job2sh writes for one of those jobs, the program's parameters as
#      run_test passes them, LKP_SRC, BENCHMARK_ROOT, TMP, RESULT_ROOT and
#      TMP_RESULT_ROOT, and stress-ng installed the way lkp-tests'
#      programs/stress-ng package installs it (the cached V0.17.00 build);
#   4. that run's real output through our parse and their sbin/dump-stat:
#      the JSON must hold zsbench.splice.ops_per_sec > 0;
#   5. zsbench compare against their lib/compare.rb (ncompare's
#      statistics and row layout) on the same runs: the rows must be equal.
#
# Ends "check-lkp: N passed, N failed".  Environment: LKP_SRC (required),
# KVER (guest kernel), LKP_TESTTIME (the guest run's testtime, default
# 10s; the job's own is 60s), LKP_JOB (the split job run in the guest,
# default zsbench-folio-100%-1K).
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
case ${1:-} in
-h|--help) usage 0 ;;
"") ;;
*) echo "check-lkp: no arguments: the environment selects (see --help)" >&2; exit 2 ;;
esac

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tools/rig/kver.sh
. "$top/tools/rig/kver.sh"

testtime=${LKP_TESTTIME:-10s}
job=${LKP_JOB:-zsbench-folio-100%-1K}
ruby_pkgs="ruby ruby-tty-command ruby-activesupport ruby-git ruby-term-ansicolor ruby-colorize"
passed=0
failed=0

ok() { echo "ok - $*"; passed=$((passed + 1)); }
not_ok() { echo "not ok - $*"; failed=$((failed + 1)); }
check() { if [ "$1" = 0 ]; then ok "$2"; else not_ok "$2"; fi; }
finish() {
	echo "check-lkp: $passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
}

if [ -z "${LKP_SRC:-}" ] || [ ! -x "${LKP_SRC}/sbin/dump-stat" ]; then
	echo "check-lkp: SKIP: no lkp-tests checkout (give LKP_SRC=<checkout of" \
		"https://github.com/intel/lkp-tests>; LKP_SRC='${LKP_SRC:-}')"
	exit 0
fi
LKP_SRC=$(cd "$LKP_SRC" && pwd)

# What lkp-tests' ruby needs on bookworm.
missing=$(for p in $ruby_pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		echo "$p"; done)
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "check-lkp: SKIP: missing $missing (apt-get install them, or run as root)"
		exit 0
	fi
	echo "check-lkp: installing $(tr "\n" " " <<<"$missing")" >&2
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		$missing >/dev/null || { echo "check-lkp: installing $missing failed" >&2; exit 1; }
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/zs-check-lkp.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
lkp=$work/lkp-src
echo "check-lkp: lkp-tests $(git -C "$LKP_SRC" log -1 --format='%h %cs' 2>/dev/null || echo '?')" \
	"from $LKP_SRC, copied to $lkp"
rsync -a --exclude=.git "$LKP_SRC/" "$lkp/"
cp -a "$top/lkp-tests/." "$lkp/"
# the guest's testbox, as lkp install describes a machine
printf 'nr_cpu: 2\nmemory: 2G\n' >"$lkp/hosts/zsplice-vm"

# ---------------------------------------------------------------- split-job
mkdir -p "$work/split"
(cd "$lkp" && LKP_SRC=$lkp bin/lkp split-job -t zsplice-vm -s "testtime: $testtime" \
	-o "$work/split" jobs/zsbench.yaml) >"$work/split.log" 2>&1
rc=$?
grep '=>' "$work/split.log"
n=$(ls "$work/split"/*.yaml 2>/dev/null | wc -l)
check $((rc != 0 || n != 20)) "split-job: $n jobs (impl x splice_bytes x nr_threads = 5 x 2 x 2)"
jobfile=$(ls "$work/split/$job"-*.yaml 2>/dev/null | head -n 1)
if [ -z "$jobfile" ]; then
	not_ok "split-job: no $job job"
	finish
fi
grep -q -- '- MODULES: "y"' "$jobfile" && grep -q -- '- MODULE_UNLOAD: "y"' "$jobfile" &&
	grep -A1 '^initrds' "$jobfile" | grep -q linux_headers
check $? "$(basename "$jobfile"): need_kconfig MODULES, MODULE_UNLOAD; initrd linux_headers"

(cd "$lkp" && LKP_SRC=$lkp ruby sbin/job2sh "$jobfile" -o "$work/job.sh") >"$work/job2sh.log" 2>&1
check $? "job2sh writes the job's job.sh"
sed -n '/^export_top_env()/,/^}/p' "$work/job.sh" >"$work/top-env.sh"
params=$(sed -n 's|^[[:space:]]*run_test \(.*\) \$LKP_SRC/bin/run-test zsbench$|\1|p' "$work/job.sh")
echo "check-lkp: job.sh: run_test $params \$LKP_SRC/bin/run-test zsbench;" \
	"$(grep -E "export (nr_threads|testtime)=" "$work/top-env.sh" | tr -d '\t' | tr '\n' ' ')"
[ -n "$params" ] && grep -q "export nr_threads=2$" "$work/top-env.sh"
check $? "job.sh: the program's parameters, nr_threads 100% of 2 CPUs = 2"

# ------------------------------------------------- run, in the guest
kver=${KVER:-$(zs_installed_kver)}
kdir=$(zs_kdir "$kver")
# The package as pkg/PKGBUILD builds and packs it, with lkp-tests'
# lib/tests/pkgbuild.sh: this tree as its source, zsbench built.
(
	set +u
	export LKP_SRC=$lkp ZSPLICE_GIT=$top
	srcdir=$work/src
	pkgdir=$work/pkg
	mkdir -p "$srcdir" "$pkgdir" && ln -s "$top" "$srcdir/zsbench"
	cd "$lkp/programs/zsbench/pkg" || exit
	# shellcheck disable=SC1091
	. ./PKGBUILD && prepare && build && package
) >"$work/pkg.log" 2>&1
rc=$?
bench=$work/pkg/lkp/benchmarks/zsbench
packed=$(cd "$bench" 2>/dev/null && echo *)
[ "$rc" = 0 ] && [ "$packed" = "Kbuild VERSION drivers include zsbench" ]
check $? "PKGBUILD packs what run needs, nothing else: ${packed:-nothing}"
[ "$rc" = 0 ] || { tail -n 20 "$work/pkg.log"; finish; }
# run builds zsplice.ko for the booted kernel; the guest has no compiler,
# so it is built here the way run builds it, and run keeps it
make -C "$kdir" M="$bench" modules >"$work/build.log" 2>&1
rc=$?
tail -n 3 "$work/build.log"
[ "$rc" = 0 ] && [ "$(modinfo -F vermagic "$bench/zsplice.ko" | cut -d' ' -f1)" = "$kver" ]
check $? "make -C $kdir M=... builds zsplice.ko for $kver from the package"
rm -f "$bench"/*.o "$bench"/.*.cmd

# LKP_SRC in the guest: the shell libraries run sources and the program
mkdir -p "$work/guest-src/lib" "$work/guest-src/programs"
cp "$lkp"/lib/*.sh "$work/guest-src/lib/"
cp -a "$lkp/programs/zsbench" "$work/guest-src/programs/"
# what job.sh gives the program: its top-level environment, the paths
# lkp-tests sets, the parameters run_test passes; nothing else (env -i)
{
	echo '#!/bin/bash'
	cat "$work/top-env.sh"
	echo 'export_top_env'
	echo 'export BENCHMARK_ROOT=/lkp/benchmarks TMP=/tmp/lkp RESULT_ROOT=/tmp/lkp/result'
	echo 'export TMP_RESULT_ROOT=/tmp/lkp/result'
	echo "export $params"
	echo 'exec "$LKP_SRC/programs/zsbench/run"'
} >"$work/lkp-env.sh"
files=(--file "$work/guest-src:/lkp/lkp/src" --file "$bench:/lkp/benchmarks/zsbench"
	--file "$work/lkp-env.sh:/zs/lkp-env.sh" --file "$bench/zsbench:/zs/bin/zsbench")
# lkp-tests' stress-ng build as its package installs it (the binary in
# /usr/bin, the stressor list in $BENCHMARK_ROOT/stress-ng/tests): the
# cached V0.17.00 when there is one, else the guest has Debian's
sng=${ZS_CACHE:-/var/cache/zsplice}/stress-ng/V0.17.00/stress-ng
if [ -x "$sng" ]; then
	mkdir -p "$work/stress-ng" && echo stress-splice.c >"$work/stress-ng/tests"
	files+=(--file "$sng:/usr/bin/stress-ng" --file "$work/stress-ng:/lkp/benchmarks/stress-ng")
fi
cmd="mkdir -p /tmp/lkp/result && env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin bash /zs/lkp-env.sh"
cmd="$cmd >/tmp/lkp/result/zsbench 2>&1; echo \"run: exit \$?\""
echo "check-lkp: guest $kver: $params run (testtime $testtime)"
bash "$top/tools/rig/run.sh" --kver "$kver" --out "$work/vm" --quiet \
	--timeout 900 --append "mitigations=off" "${files[@]}" \
	--collect /tmp/lkp/result/zsbench -- "$cmd"
rc=$?
log=$work/vm/zsbench
[ -f "$log" ] && sed 's/^/  | /' "$log"
[ "$rc" = 0 ] && grep -q "run: exit 0" "$work/vm/output.log"
check $? "the program's run in the guest exits 0 (and no kernel splat)"

# ---------------------------------------------------- parse and dump-stat
if [ -f "$log" ]; then
	"$lkp/programs/zsbench/parse" <"$log" >"$work/stats"
	sed 's/^/  parse: /' "$work/stats"
	(cd "$lkp" && RESULT_ROOT=$work LKP_SRC=$lkp ruby sbin/dump-stat zsbench \
		"$work/zsbench.json" <"$work/stats") >"$work/dump-stat.log" 2>&1
	rc=$?
	cat "$work/dump-stat.log"
	[ "$rc" = 0 ] && [ -s "$work/zsbench.json" ] &&
		ruby -rjson -e 'v = JSON.parse(File.read(ARGV[0]))["zsbench.splice.ops_per_sec"]
			exit(v.is_a?(Array) && v.size == 1 && v[0] > 0 ? 0 : 1)' "$work/zsbench.json"
	check $? "dump-stat accepts parse's stats: zsbench.splice.ops_per_sec > 0"
	echo "  dump-stat JSON: $(tr -d ' \n' <"$work/zsbench.json" 2>/dev/null)"
	printf 'splice.ops_per_sec: 1\nbad key: 2\n' |
		(cd "$lkp" && LKP_SRC=$lkp ruby sbin/dump-stat zsbench "$work/bad.json") >/dev/null 2>&1
	check $((! $?)) "dump-stat still rejects a key with whitespace (the check can fail)"
else
	not_ok "dump-stat: no output of run to parse"
fi

# ------------------------------------------- --compare against ncompare
# name base-runs cand-runs: the 2023 report's two tests (seeds/002), a
# count (a change from 100000% on), figures under 1000 and above 1e8, a
# zero base, single runs, sigmas of 2.9% (shown) and 1.5% (not shown).
cases=(
	"robot-64t 12444442.19,12599010.87,12416009.38,12494132.89,12286766.76,12359235.82 24055.57,23235.46,22142.13,23782.13,21732.13,22415.46"
	"robot-1t 173056.44,172030.08,171401.68,171694.23,171001.19,171606.93 244347.89,259085.63,231423.88,232897.93,226714.77,237792.34"
	"fill 16,16,16 983041,983041,983041"
	"small 0.5,0.7,0.61 800.1,900.2,999.999"
	"huge 120000000,130000000 125000000,110000000.5"
	"zero-base 0,0 3,4"
	"one-run 100 250"
	"sigma-2.9 100,105.8 100,100"
	"sigma-1.5 100,103 103,100"
)
json_doc() {
	local side=$1 c name vals sep=""
	printf '{"schema":3,"kernel":"%s","records":[' "$side"
	for c in "${cases[@]}"; do
		read -r name b v <<<"$c"
		[ "$side" = base ] && vals=$b || vals=$v
		printf '%s{"metric":"lkp.%s.ops_per_sec","impl":"x","unit":"ops_per_sec","runs":%d,"values":[%s]}' \
			"$sep" "$name" "$(tr ',' '\n' <<<"$vals" | wc -l)" "$vals"
		sep=,
	done
	printf ']}\n'
}
json_doc base >"$work/base.json"
json_doc cand >"$work/cand.json"
"$top/userspace/zsbench" compare "$work/base.json" "$work/cand.json" |
	sed -n 's/ \[x\]$//p' >"$work/ours.txt"
for c in "${cases[@]}"; do
	read -r name b v <<<"$c"
	LKP_SRC=$lkp ruby -e '
		require "#{ENV["LKP_SRC"]}/lib/compare"
		stat = { stat_key: "lkp.#{ARGV[0]}.ops_per_sec",
			 values: [ARGV[1], ARGV[2]].map { |s| s.split(",").map { |x| x.index(".") ? x.to_f : x.to_i } } }
		stat[:runs] = stat[:values].map(&:size)
		Compare.calc_stat_change(stat)
		Compare.show_perf_change(stat)
		Compare.show_stat(stat)' "$name" "$b" "$v"
done >"$work/theirs.txt" 2>"$work/theirs.err"
while IFS= read -r line; do echo "  ncompare: $line"; done <"$work/theirs.txt"
while IFS= read -r line; do echo "  zsbench:  $line"; done <"$work/ours.txt"
[ "$(wc -l <"$work/theirs.txt")" = "${#cases[@]}" ] && diff "$work/theirs.txt" "$work/ours.txt"
check $? "zsbench compare prints ncompare's rows on the same runs (${#cases[@]} cases)"

finish
