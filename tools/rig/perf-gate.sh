#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The perf gate of `make check`: instruction counts of the splice paths,
# measured by zsbench run --icount in a guest under QEMU -icount shift=0 (one
# guest ns per executed instruction: the same figures on every boot,
# whatever the host is doing), judged by fixed rules and against a
# baseline file per kernel line.  Prints TAP.
#
# Usage: perf-gate.sh [options]
#   --kver KVER     guest kernel (default $KVER, else newest installed 6.12)
#   --ko PATH       module to measure (default: zsplice.ko of the tree,
#                   built for KVER)
#   --out DIR       logs and the run's JSON (default .perf-gate/)
#   --json FILE     judge this zsbench run --icount JSON instead of booting
#                   (repeatable: the records of every file count)
#   --baseline DIR  baseline files (default tools/rig/perf-baseline)
#   --update        write the baseline of KVER's line from this run (after
#                   a deliberate change: say why in the commit)
#
# The rules (each figure the median of the repetitions):
#   - the run is an icount run (zsbench's clock check settled);
#   - copy costs what the guest kernel's /dev/zero costs (it is the same
#     copy_splice_read): within 1 % at 64 KiB; within 1.5 % at 4 KiB, where
#     zsplice's own dispatch (implementation switch, statistics,
#     tracepoint: about 80 instructions a call) is 1 % of the total;
#     skipped where /dev/zero cannot splice (before v6.7);
#   - folio's 64 KiB and 1 MiB splices cost at most 1.05 x the floor
#     (the 1-byte splice pair into our tail buffer): 1.035 x on 6.1,
#     1.034 x on 6.12, 1.041 x on 7.3 at 52a8486;
#   - every zeropage, folio and floor figure within 3 % of the baseline
#     file of the kernel's line (perf-baseline/MAJOR.MINOR.txt, else
#     MAJOR.txt): a change either way needs a new baseline.  Where
#     /dev/zero cannot splice, copy's figures are in the baseline too.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=tools/rig/kver.sh
. "$here/kver.sh"

kver=${KVER:-}
ko=
out=
jsons=()
bdir=$here/perf-baseline
update=0

die() { echo "perf-gate: $*" >&2; exit 2; }
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

while [ $# -gt 0 ]; do
	case $1 in
	--kver) kver=$2; shift 2 ;;
	--ko) ko=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--json) jsons+=("$2"); shift 2 ;;
	--baseline) bdir=$2; shift 2 ;;
	--update) update=1; shift ;;
	-h|--help) usage 0 ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
[ -n "$kver" ] || kver=$(zs_installed_kver) || die "no guest kernel (KVER=)"
out=${out:-$top/.perf-gate}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The measurement: two zsbench runs in one guest booted under -icount with
# one vCPU, the module loaded once with its defaults.  /dev/zero and copy
# at the sizes the copy rule needs; zeropage, folio and the floor at every
# splice size and sendfile.  0.01 guest s per repetition, 5 repetitions.
if [ ${#jsons[@]} -eq 0 ]; then
	ko=${ko:-$top/zsplice.ko}
	zsb=$top/userspace/zsbench
	[ -f "$ko" ] || die "$ko missing (make module KVER=$kver)"
	[ -x "$zsb" ] || die "$zsb missing (make userspace)"
	common="--icount --no-load --runs 5 --duration 0.01 --quiet"
	bash "$here/run.sh" --kver "$kver" --icount --cpus 1 --quiet --timeout 600 \
		--append mitigations=off --out "$out/guest" \
		--file "$ko:/zs/zsplice.ko" --file "$zsb:/zs/bin/zsbench" \
		--collect /tmp/copy.json --collect /tmp/fast.json -- \
		"insmod /zs/zsplice.ko &&
		 zsbench run $common --impl devzero,copy --workload splice-4K,splice-64K \
			--json /tmp/copy.json &&
		 zsbench run $common --impl zeropage,folio \
			--workload splice-1,splice-4K,splice-64K,splice-1M,sendfile-null-64K \
			--json /tmp/fast.json"
	rc=$?
	if [ "$rc" != 0 ] || [ ! -s "$out/guest/copy.json" ] || [ ! -s "$out/guest/fast.json" ]; then
		echo "1..1"
		echo "not ok 1 - perf: the icount guest run failed (status $rc; logs in $out/guest)"
		exit 1
	fi
	sed -n '/^fixed-count loops/,/^operations per guest second/p' "$out/guest/output.log" |
		grep -v '^operations per guest second' | sed 's/^/# /'
	jsons=("$out/guest/copy.json" "$out/guest/fast.json")
fi

# The baseline of the kernel's line: MAJOR.MINOR, else MAJOR.
major=${kver%%.*}
minor=${kver#*.}
minor=${minor%%[.+-]*}
bfile=$bdir/$major.$minor.txt
[ -f "$bfile" ] || [ ! -f "$bdir/$major.txt" ] || bfile=$bdir/$major.txt

python3 "$here/perf-gate.py" "$kver" "$bfile" "$update" \
	"$(git -C "$top" log -1 --format=%h -- drivers include 2>/dev/null || echo unknown)" \
	"${jsons[@]}"
