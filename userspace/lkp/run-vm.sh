#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: userspace/lkp/run-vm.sh   (-h, --help: this text)
#
# run-vm.sh - the lkp-splice runs of Documentation/benchmarking.rst
# in the QEMU guest of the test rig (2 vCPUs, so 2 stress-ng instances):
#
#   1. LKP's stress-ng V0.17.00, 1 KiB per loop, LKP_TIME s (default 60)
#      per implementation: none, copy, zeropage, folio (module defaults),
#      devzero (the guest kernel's own /dev/zero);
#   2. the newest cached stress-ng (no 1-byte splice), 1 KiB and 64 KiB,
#      NEW_TIME s (default 30) per implementation;
#   3. (PARTS=verify) what --verify changes: V0.17.00, 1 KiB, LKP_TIME s,
#      LKP's command line with and without --verify in one boot, in the
#      order with, without, without, with (VERIFY_IMPLS, default
#      none,folio,copy; copy, which stalls, only the first two).
#
# The stress-ng binaries come from /var/cache/zsplice/stress-ng/<tag>/
# (static builds of those tags, Documentation/benchmarking.rst); a missing one is reported and its
# part skipped.  Results: results/lkp/{lkp.txt,*.json}.  The guest run
# waits for the rig's guest lock (run.sh takes it) so that only one guest
# runs at a time.
#
# Environment: LKP_TIME, NEW_TIME, NEW_TAG (default V0.22.00), KVER,
# IMPLS (default none,copy,zeropage,folio,devzero), PARTS (default
# "old new": old = V0.17.00, new = the newest stress-ng; verify: above),
# VERIFY_IMPLS.
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
*) echo "run-vm: no arguments: the environment selects (see --help)" >&2; exit 2 ;;
esac

top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${ZS_CACHE:-/var/cache/zsplice}/stress-ng
lkp_time=${LKP_TIME:-60}
new_time=${NEW_TIME:-30}
new_tag=${NEW_TAG:-V0.22.00}
impls=${IMPLS:-none,copy,zeropage,folio,devzero}
parts=" ${PARTS:-old new} "
res=$top/results/lkp
# shellcheck source=tools/rig/kver.sh
. "$top/tools/rig/kver.sh"
kver=${KVER:-$(zs_installed_kver)}

mkdir -p "$res"
(renice -n 19 "$BASHPID" >/dev/null; zs_make "$kver" module userspace) >&2

files=(--file "$top/zsplice.ko" --file "$top/userspace/zsbench:/zs/bin/zsbench")
cmd="insmod /zs/zsplice.ko && echo 'lkp: module loaded with default parameters' &&"
cmd="$cmd grep -E '^(folio_bytes|zeropage_bytes) ' /sys/kernel/debug/zsplice/zsplice/stats;"
zsb="zsbench run --no-load --quiet --workload lkp-splice --impl $impls"
if [[ $parts != *" old "* ]]; then
	:
elif [ -x "$cache/V0.17.00/stress-ng" ]; then
	files+=(--file "$cache/V0.17.00/stress-ng:$cache/V0.17.00/stress-ng")
	cmd="$cmd $zsb --lkp-time $lkp_time --json /tmp/lkp-v0.17.00-1k.json;"
else
	echo "run-vm: $cache/V0.17.00/stress-ng missing (Documentation/benchmarking.rst);" \
		"running Debian's stress-ng 0.15.06 instead (same 1-byte splice)" >&2
	cmd="$cmd $zsb --stress-ng-bin stress-ng --lkp-time $lkp_time --json /tmp/lkp-v0.17.00-1k.json;"
fi
if [[ $parts != *" new "* ]]; then
	:
elif [ -x "$cache/$new_tag/stress-ng" ]; then
	new=/zs/bin/stress-ng-$new_tag
	files+=(--file "$cache/$new_tag/stress-ng:$new")
	cmd="$cmd $zsb --stress-ng-bin $new --lkp-time $new_time --json /tmp/lkp-new-1k.json;"
	cmd="$cmd $zsb --stress-ng-bin $new --lkp-time $new_time --lkp-bytes 65536 --json /tmp/lkp-new-64k.json;"
else
	echo "run-vm: $cache/$new_tag/stress-ng missing: skipping the newest stress-ng" >&2
fi
if [[ $parts == *" verify "* ]]; then
	if [ -x "$cache/V0.17.00/stress-ng" ]; then
		[[ $parts == *" old "* ]] ||
			files+=(--file "$cache/V0.17.00/stress-ng:$cache/V0.17.00/stress-ng")
		vi=${VERIFY_IMPLS:-none,folio,copy}
		vi2=$(tr ',' '\n' <<<"$vi" | grep -vx copy | paste -sd, -)
		v="zsbench run --no-load --quiet --workload lkp-splice --lkp-time $lkp_time"
		cmd="$cmd $v --impl $vi --json /tmp/lkp-verify-1.json;"
		cmd="$cmd $v --impl $vi --lkp-no-verify --json /tmp/lkp-noverify-1.json;"
		[ -n "$vi2" ] && cmd="$cmd $v --impl $vi2 --lkp-no-verify --json /tmp/lkp-noverify-2.json;"
		[ -n "$vi2" ] && cmd="$cmd $v --impl $vi2 --json /tmp/lkp-verify-2.json;"
	else
		echo "run-vm: $cache/V0.17.00/stress-ng missing: skipping the --verify part" >&2
	fi
fi
cmd="$cmd echo 'lkp: after all runs:'; grep -E '^(folio_bytes|zeropage_bytes|folio_fallbacks) ' /sys/kernel/debug/zsplice/zsplice/stats"

out=$res/vm
rm -rf "$out"
bash "$top/tools/rig/run.sh" --kver "$kver" --out "$out" --timeout 3600 \
	--append "mitigations=off" "${files[@]}" \
	--collect /tmp/lkp-v0.17.00-1k.json --collect /tmp/lkp-new-1k.json \
	--collect /tmp/lkp-new-64k.json --collect /tmp/lkp-verify-1.json \
	--collect /tmp/lkp-noverify-1.json --collect /tmp/lkp-noverify-2.json \
	--collect /tmp/lkp-verify-2.json -- "$cmd" | tee "$res/lkp.txt"
cp "$out"/*.json "$res/" 2>/dev/null || true
echo "run-vm: results in $res"
