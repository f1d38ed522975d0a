#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check-matrix`: `make check` on every kernel zsplice supports: the
# newest Debian 6.1, 6.12 and 7.x (tools/rig/kernels.sh resolves,
# installs or unpacks them).  The 6.12 leg is exactly `make check` (with
# the rig's self-test); the others leave out the rig's self-test (SKIP_RIG=1,
# it tests run.sh, not the kernel) unless MATRIX_RIG=1, and the host tests
# that do not depend on the kernel (SKIP_HOST_COMMON=1).
# Prints one closing count per kernel and, last, the total
# "N passed, N failed[, N skipped]".  Exits non-zero on any failure.
#
# Environment: MATRIX_OUT (logs, default .check-matrix/), MATRIX_SERIES
# (default "6.1 6.12 7"), and what check.sh takes.
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
vm=$top/tools/rig
out=${MATRIX_OUT:-$top/.check-matrix}
series=${MATRIX_SERIES:-6.1 6.12 7}
start=$(date +%s)
mkdir -p "$out"
: >"$out/summary.txt"

say() { echo "matrix: $*"; }

# The 6.12 kernel and everything else check.sh needs first; then the
# trixie build chroot in the background while the kernels are fetched.
if ! bash "$vm/deps.sh" --check 2>/dev/null; then
	bash "$vm/deps.sh" || { say "deps.sh failed"; echo "0 passed, 1 failed"; exit 1; }
fi
bash "$vm/kernels.sh" chroot >"$out/chroot.log" 2>&1 &
chroot_pid=$!

declare -A kver
fetch_fail=0
for s in $series; do
	if k=$(bash "$vm/kernels.sh" fetch "$s" 2>"$out/fetch-$s.log"); then
		kver[$s]=$k
		say "$s: $k"
	else
		cat "$out/fetch-$s.log"
		say "$s: fetch failed"
		echo "not ok - fetch kernel series $s" >>"$out/fetch.tap"
		fetch_fail=1
	fi
done
if ! wait "$chroot_pid"; then
	cat "$out/chroot.log"
	echo "not ok - trixie build chroot" >>"$out/fetch.tap"
fi
say "kernels ready after $(($(date +%s) - start)) s"

# why_failed LOG: the diagnostics of each failed test in LOG (the lines a
# kselftest prints between its "RUN" and its "not ok", at most 20), so that
# a CI log that keeps only this script's output still says why.
why_failed() {
	awk '
		/^# +RUN / { n = 0 }
		/^#/ { if (n < 20) buf[++n] = $0; next }
		/^not ok / { for (i = 1; i <= n; i++) print buf[i]; print; n = 0; next }
		/^ok / { n = 0 }
	' "$1"
}

default=$(. "$vm/kver.sh" && zs_installed_kver)
rc=0
for s in $series; do
	k=${kver[$s]:-}
	[ -n "$k" ] || continue
	rig=1
	[ "$k" = "$default" ] || rig=${MATRIX_RIG:-0}
	say "make check KVER=$k (after $(($(date +%s) - start)) s)"
	t0=$(date +%s)
	common=0
	[ "$k" = "$default" ] || common=1
	SKIP_RIG=$([ "$rig" = 1 ] && echo 0 || echo 1) SKIP_HOST_COMMON=$common \
		KVER=$k CHECK_OUT="$out/$k" bash "$vm/check.sh" >"$out/$k.log" 2>&1 || rc=1
	line=$(tail -n 1 "$out/$k/summary.txt" 2>/dev/null)
	[ -n "$line" ] || line="0 passed, 1 failed"
	grep -h '^FAIL: ' "$out/$k/summary.txt" 2>/dev/null | sed "s|^|matrix: $k: |"
	grep -q '^FAIL: ' "$out/$k/summary.txt" 2>/dev/null && why_failed "$out/$k.log" | sed "s|^|matrix: $k: |"
	say "$k: $line ($(($(date +%s) - t0)) s$([ "$rig" = 1 ] || echo ', rig self-test left out'))"
	echo "$line" >>"$out/summary.txt"
done
[ -f "$out/fetch.tap" ] && { cat "$out/fetch.tap"; echo "0 passed, $(grep -c . "$out/fetch.tap") failed" >>"$out/summary.txt"; }
[ "$fetch_fail" = 0 ] || rc=1
say "finished after $(($(date +%s) - start)) s; logs in $out"
awk '
	{ for (i = 1; i < NF; i++) {
		n = $i + 0
		if ($(i + 1) ~ /^passed/) p += n
		else if ($(i + 1) ~ /^failed/) f += n
		else if ($(i + 1) ~ /^skipped/) s += n
	} }
	END {
		printf "%d passed, %d failed", p, f
		if (s) printf ", %d skipped", s
		printf "\n"
	}' "$out/summary.txt" | tee "$out/total.txt"
grep -q ' 0 failed' "$out/total.txt" && [ "$rc" = 0 ]
