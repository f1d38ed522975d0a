#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: userspace/bench.sh   (what `make bench` runs; -h, --help: this text)
#
# make bench: the comparison benchmark.  Runs zsbench over every workload
# and implementation plus the stress-ng and fio runs and the programs (pv,
# GNU cat and dd: the host's go into the guest), where the module can
# be loaded: on the host when its kernel loads modules and we are root,
# otherwise in the QEMU guest of the test rig.  Results land in results/:
# zsbench.txt (the table), zsbench.json, zsbench.png, zsbench-threads.png,
# zsbench.run (command, commit, date) and README.md (tools/results.py).
#
# Environment: ZSBENCH_ARGS replaces the default zsbench run arguments
# (--workload all; with lkp-splice among the workloads the cached stress-ng
# V0.17.00 goes into the guest too);
# BENCH_WHERE=host|vm forces the place; KVER as for the rig.
#
# ICOUNT=1 (make bench ICOUNT=1): the deterministic form.  The guest boots
# under QEMU -icount shift=0,sleep=off with one vCPU (run.sh --icount) and
# zsbench run --icount measures fixed-count loops in guest ns = instructions;
# results in results/zsbench-icount.txt, .json and .run (Documentation/
# benchmarking.rst).
set -euo pipefail

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
*) echo "bench: no arguments: the environment selects (see --help)" >&2; exit 2 ;;
esac

top=$(cd "$(dirname "$0")/.." && pwd)
res=$top/results
icount=${ICOUNT:-0}
name=zsbench
vmopts=()
if [ "$icount" = 1 ]; then
	args=${ZSBENCH_ARGS:---icount}
	[[ " $args " == *" --icount "* ]] || args="--icount $args"
	[ "${BENCH_WHERE:-vm}" = vm ] || {
		echo "bench: ICOUNT=1 measures in a QEMU guest under -icount: not with BENCH_WHERE=$BENCH_WHERE" >&2
		exit 2
	}
	BENCH_WHERE=vm
	name=zsbench-icount
	vmopts=(--icount --cpus 1)
else
	args=${ZSBENCH_ARGS:---workload all}
fi
mkdir -p "$res"

host_can_load() {
	[ "$(id -u)" = 0 ] && [ -e /proc/modules ] &&
		[ -d "/lib/modules/$(uname -r)/build" ]
}

where=${BENCH_WHERE:-}
if [ -z "$where" ]; then
	if host_can_load; then where=host; else where=vm; fi
fi

finish() {
	# The table is printed by zsbench; plot on the host, where gnuplot is.
	[ "$icount" = 1 ] || "$top/userspace/zsbench" plot "$res/zsbench.json" \
		--output "$res/zsbench.png" > /dev/null
	# What produced the JSON, for results/README.md (tools/results.py)
	{
		echo "command=make bench${ICOUNT:+ ICOUNT=$ICOUNT}${ZSBENCH_ARGS:+ ZSBENCH_ARGS=\"$ZSBENCH_ARGS\"}"
		echo "commit=$(git -C "$top" describe --always --dirty 2>/dev/null || echo "none (not a git checkout)")"
		echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
		echo "where=$where"
	} >"$res/$name.run"
	python3 "$top/tools/results.py" "$res" >&2 || true
	echo "bench: results in $res: $(cd "$res" && echo $name.*) README.md"
}

case $where in
host)
	echo "bench: on the host (kernel $(uname -r))" >&2
	make -C "$top" KVER="$(uname -r)" module userspace >&2
	# shellcheck disable=SC2086
	"$top/userspace/zsbench" run --module "$top/zsplice.ko" $args \
		--json "$res/zsbench.json" | tee "$res/zsbench.txt"
	finish
	;;
vm)
	# shellcheck source=tools/rig/kver.sh
	. "$top/tools/rig/kver.sh"
	kver=${KVER:-$(zs_installed_kver)}
	echo "bench: this kernel cannot load zsplice here; running in a QEMU guest ($kver)" >&2
	zs_make "$kver" module userspace >&2
	out=$res/vm
	[ "$icount" = 0 ] || out=$res/vm-icount
	rm -rf "$out"
	# lkp-splice wants LKP's stress-ng at the same path in the guest
	lkp=()
	lkpbin=${ZS_CACHE:-/var/cache/zsplice}/stress-ng/V0.17.00/stress-ng
	if [[ $args == *lkp-splice* ]] && [ -x "$lkpbin" ]; then
		lkp=(--file "$lkpbin:$lkpbin")
		args="--lkp-stress-ng $lkpbin $args"
	fi
	# The programs (zsbench run --workload program): the host's pv, GNU
	# cat and dd (the guest's cat and dd are busybox's, which zsbench
	# does not take for GNU's)
	progs=()
	for p in pv cat dd; do
		b=$(command -v "$p") || continue
		if [ "$p" = pv ]; then progs+=(--file "$b:/zs/bin/pv"); else progs+=(--file "$b:/zs/gnu/$p"); fi
	done
	# Guest booted with mitigations=off: under TCG every syscall entry
	# otherwise pays for retpolines and page-table switches, which hides
	# the differences between implementations (Documentation/benchmarking.rst).
	# shellcheck disable=SC2086
	bash "$top/tools/rig/run.sh" --out "$out" --timeout 1500 "${vmopts[@]}" \
		--append "mitigations=off" \
		--file "$top/zsplice.ko" \
		--file "$top/userspace/zsbench:/zs/bin/zsbench" \
		--file "$top/userspace/fio:/zs/fio" "${lkp[@]}" "${progs[@]}" \
		--collect /tmp/$name.json --collect /tmp/$name.txt \
		-- \
		"ZSB_GNU_CAT=/zs/gnu/cat ZSB_GNU_DD=/zs/gnu/dd zsbench run --module /zs/zsplice.ko --fio-dir /zs/fio $args --json /tmp/$name.json > /tmp/$name.txt"
	cp "$out/$name.json" "$out/$name.txt" "$res/"
	cat "$res/$name.txt"
	finish
	;;
*)
	echo "bench: BENCH_WHERE must be host or vm" >&2
	exit 2
	;;
esac
