#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tools/rig/check-matrix.sh   (what `make check-matrix` runs; -h,
# --help: this text)
#
# `make check-matrix`: `make check` on every kernel zsplice supports: the
# newest Debian 6.1, 6.12 and 7.x (tools/rig/kernels.sh resolves,
# installs or unpacks them).  The leg of the installed 6.12 kernel runs
# first, while the other kernels are fetched in the background; it is
# `make check` with the rig's self-test, except for the host tests that do
# not depend on the kernel (unit tests, the mainline/ series, the ioctl
# table: SKIP_HOST_COMMON=1).  They run once, in the last leg, when every
# kernel and source they read (the 7.x tree) is there (a kernel that cannot
# be fetched fails the matrix; its leg and what it carries do not run).  The other legs
# leave out the rig's self-test (SKIP_RIG=1, it tests run.sh, not the
# kernel) unless MATRIX_RIG=1, and soak for MATRIX_SOAK_MINUTES (default 1:
# every soak program and check, with shorter fuzzing shares) instead of
# make check's 3 minutes.
# Prints one closing count per kernel and, last, the total
# "N passed, N failed[, N skipped]".  Exits non-zero on any failure.
#
# Environment: MATRIX_OUT (logs, default .check-matrix/), MATRIX_SERIES
# (default "6.1 6.12 7"), and what check.sh takes.
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
*) echo "matrix: no arguments: the environment selects (see --help)" >&2; exit 2 ;;
esac

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
vm=$top/tools/rig
out=${MATRIX_OUT:-$top/.check-matrix}
series=${MATRIX_SERIES:-6.1 6.12 7}
start=$(date +%s)
mkdir -p "$out"
: >"$out/summary.txt"

# shellcheck source=tools/rig/kver.sh
. "$vm/kver.sh"
say() { echo "matrix: $*"; }
if ! zs_check_minutes MATRIX_SOAK_MINUTES "${MATRIX_SOAK_MINUTES:-1}"; then
	echo "0 passed, 1 failed" | tee "$out/total.txt"
	exit 2
fi

# What check.sh needs first (the 6.12 kernel among it); then, in the
# background, the trixie build chroot and every series' kernel but the
# first leg's, each in its own job (bookworm's apt and the private trixie
# one share no lock), niced below the leg that runs meanwhile.
if ! bash "$vm/deps.sh" --check 2>/dev/null; then
	bash "$vm/deps.sh" || { say "deps.sh failed"; echo "0 passed, 1 failed"; exit 1; }
fi
nice -n 10 bash "$vm/kernels.sh" chroot >"$out/chroot.log" 2>&1 &
chroot_pid=$!

# The legs: the installed 6.12 kernel's series first (nothing to fetch).
default=$(zs_installed_kver)
order=
for s in $series; do
	case $default in "$s".*) order="$s $order" ;; *) order="$order $s" ;; esac
done
read -r -a order <<<"$order"

declare -A fetch_pid fetch_rc
fetch() { # fetch SERIES: the release into $out/fetch-SERIES.kver
	bash "$vm/kernels.sh" fetch "$1" >"$out/fetch-$1.kver" 2>"$out/fetch-$1.log"
}
fetch "${order[0]}"
fetch_rc[${order[0]}]=$?
for s in "${order[@]:1}"; do
	(renice -n 10 -p "$BASHPID" >/dev/null; fetch "$s") &
	fetch_pid[$s]=$!
done

# ready SERIES: wait for the series' kernel (and, for all but the first
# leg, the chroot), print its release; status 1 when it failed.
fetch_fail=0
chroot_done=0
ready() {
	local s=$1 rc=${fetch_rc[$1]:-}
	if [ -z "$rc" ]; then
		wait "${fetch_pid[$s]}"
		rc=$?
	fi
	if [ "$s" != "${order[0]}" ] && [ "$chroot_done" = 0 ]; then
		chroot_done=1
		if ! wait "$chroot_pid"; then
			cat "$out/chroot.log"
			echo "not ok - trixie build chroot" >>"$out/fetch.tap"
		fi
	fi
	if [ "$rc" = 0 ] && [ -s "$out/fetch-$s.kver" ]; then
		say "$s: $(cat "$out/fetch-$s.kver") (ready after $(($(date +%s) - start)) s)"
		return 0
	fi
	cat "$out/fetch-$s.log"
	say "$s: fetch failed"
	echo "not ok - fetch kernel series $s" >>"$out/fetch.tap"
	fetch_fail=1
	return 1
}

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

rc=0
last=${order[${#order[@]} - 1]}
for s in "${order[@]}"; do
	ready "$s" || continue
	k=$(cat "$out/fetch-$s.kver")
	rig=1 soak=${SOAK_MINUTES:-3}
	if [ "$k" != "$default" ]; then
		rig=${MATRIX_RIG:-0}
		soak=${MATRIX_SOAK_MINUTES:-1}
	fi
	common=1
	[ "$s" = "$last" ] && common=0
	say "make check KVER=$k (after $(($(date +%s) - start)) s)"
	t0=$(date +%s)
	SKIP_RIG=$([ "$rig" = 1 ] && echo 0 || echo 1) SKIP_HOST_COMMON=$common \
		SOAK_MINUTES=$soak KVER=$k CHECK_OUT="$out/$k" bash "$vm/check.sh" >"$out/$k.log" 2>&1 || rc=1
	line=$(tail -n 1 "$out/$k/summary.txt" 2>/dev/null)
	[ -n "$line" ] || line="0 passed, 1 failed"
	grep -h '^FAIL: ' "$out/$k/summary.txt" 2>/dev/null | sed "s|^|matrix: $k: |"
	grep -q '^FAIL: ' "$out/$k/summary.txt" 2>/dev/null && why_failed "$out/$k.log" | sed "s|^|matrix: $k: |"
	say "$k: $line ($(($(date +%s) - t0)) s, $soak min soak$([ "$rig" = 1 ] || echo ', rig self-test left out')$([ "$common" = 0 ] && echo ', with the host tests of every kernel'))"
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
