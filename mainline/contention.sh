#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Contention of splicing zeroes by reference, for a submitter to run on a
# many-core machine (a QEMU TCG guest cannot show cache-line transfer).
# Consumers that take page references (TCP frags, O_DIRECT bios) all hit one
# refcount line when every buffer is the same zero page or folio, where
# copy_splice_read() gives private pages.  For each thread count, each
# source and each sink, mainline/contention.c splices for SECONDS and prints
# MB/s.  Sources: /dev/zero (by reference with the series, by copy on a
# stock kernel) and, with the zsplice module loaded, /dev/zsplice as `copy`
# (copy_splice_read() in the same boot) and as `zeropage`.  With perf c2c
# working, the largest thread count of each source and sink is recorded again
# under `perf c2c record`, its report kept.
#
# Usage: mainline/contention.sh [-t SECONDS] [-c "1 2 4 ..."] [-d PATH] [-o DIR]
#   -t SECONDS   per run (default 10)
#   -c COUNTS    thread counts (default 1 2 4 ... up to nproc, and nproc)
#   -d PATH      also O_DIRECT: a file name prefix on a real file system, or
#                a block device that may be overwritten (64 MiB per thread)
#   -o DIR       results (default ./contention-<kernel release>)
#   -h, --help   this text
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
secs=10
counts=
odirect=
out=contention-$(uname -r)
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
# getopts knows no long options.
for a in "$@"; do [ "$a" != --help ] || usage 0; done
while getopts t:c:d:o:h o; do
	case $o in
	t) secs=$OPTARG ;;
	c) counts=$OPTARG ;;
	d) odirect=$OPTARG ;;
	o) out=$OPTARG ;;
	h) usage 0 ;;
	*) usage ;;
	esac
done
if [ -z "$counts" ]; then
	n=1
	while [ "$n" -lt "$(nproc)" ]; do counts="$counts $n"; n=$((n * 2)); done
	counts="$counts $(nproc)"
fi
mkdir -p "$out"
bin=$out/contention
if [ -x "$here/contention" ]; then
	cp "$here/contention" "$bin"
else
	gcc -O2 -Wall -Wextra -pthread -o "$bin" "$here/contention.c"
fi

impl=/sys/module/zsplice/parameters/splice_impl
sources=("/dev/zero:devzero")
if [ -c /dev/zsplice ] && [ -w "$impl" ]; then
	sources+=("/dev/zsplice:copy" "/dev/zsplice:zeropage")
fi
sinks=(tcp)
[ -z "$odirect" ] || sinks+=("odirect:$odirect")

c2c=0
if command -v perf >/dev/null && perf c2c record -o /dev/null -- true >/dev/null 2>&1; then
	c2c=1
fi
{
	echo "# $(uname -r), $(nproc) cpus, $secs s a run, $(date -u +%FT%TZ)"
	echo "# perf c2c: $([ "$c2c" = 1 ] && echo yes || echo 'not available here')"
} | tee "$out/results.txt"

for s in "${sources[@]}"; do
	dev=${s%%:*} name=${s#*:}
	[ "$dev" = /dev/zero ] || echo "$name" >"$impl"
	for k in "${sinks[@]}"; do
		for n in $counts; do
			printf '%s ' "$name" | tee -a "$out/results.txt"
			"$bin" "$dev" "$k" "$n" "$secs" | tee -a "$out/results.txt"
		done
		if [ "$c2c" = 1 ]; then
			tag=$name-${k%%:*}
			perf c2c record -o "$out/c2c-$tag.data" -- \
				"$bin" "$dev" "$k" "${counts##* }" "$secs" >/dev/null 2>&1 &&
				perf c2c report -i "$out/c2c-$tag.data" --stdio 2>/dev/null |
				head -n 80 >"$out/c2c-$tag.txt"
		fi
	done
done
[ -z "$odirect" ] || [ -b "$odirect" ] || rm -f "$odirect".[0-9]*
echo "contention: results in $out/results.txt"
