#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# CI checks of the mem.c series in mainline/<kernel>/<design>/*.patch (TAP):
# for every series, on the kernel source it targets,
#   - the series applies (git apply --check, in order),
#   - every patch is checkpatch.pl --strict clean (that tree's checkpatch;
#     UNKNOWN_COMMIT_ID ignored: the Debian trees have no git history),
#   - the patched fs/splice.o and drivers/char/mem.o compile, in a prepared
#     tree cached by selftests/kbuild/build.sh --prepare (patched, compiled
#     and reverted under a lock; objects come from ccache when unchanged).
# A kernel source that is absent is a SKIP with the reason.  The boot and the
# measurements are `make mem-check` (mainline/mem-check.sh).
#
# Usage: check.sh [KERNEL...]   (default: every mainline/<kernel>/ directory)
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=mainline/sources.sh
. "$here/sources.sh"
kbuild=$top/selftests/kbuild/build.sh
fragment=$top/selftests/kbuild/base.config

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $* # SKIP $reason"; }

if [ $# -gt 0 ]; then
	kernels=("$@")
else
	kernels=()
	for d in "$here"/*/; do
		[ -d "$d" ] && ls "$d"/*/*.patch >/dev/null 2>&1 && kernels+=("$(basename "$d")")
	done
fi
echo "TAP version 13"

for ver in "${kernels[@]}"; do
	designs=()
	for d in "$here/$ver"/*/; do
		[ -d "$d" ] && designs+=("$(basename "$d")")
	done
	if ! src=$(zs_source "$ver" 2>/tmp/zs-src.$$); then
		reason=$(cat /tmp/zs-src.$$)
		for d in "${designs[@]}"; do
			skip "mainline/$ver/$d: applies, checkpatch, compiles"
		done
		rm -f /tmp/zs-src.$$
		continue
	fi
	rm -f /tmp/zs-src.$$
	echo "# $ver: $src"
	if ! kdir=$("$kbuild" --prepare "$src" "$fragment" 2>/tmp/zs-kb.$$ | tail -n 1) ||
	   [ ! -x "$kdir/make.sh" ]; then
		tail -n 20 /tmp/zs-kb.$$ | sed 's/^/# /'
		notok "mainline/$ver: prepared tree (selftests/kbuild/build.sh --prepare)"
		rm -f /tmp/zs-kb.$$
		continue
	fi
	rm -f /tmp/zs-kb.$$
	K=$kdir/linux
	for d in "${designs[@]}"; do
		series=()
		for p in "$here/$ver/$d"/*.patch; do
			# git format-patch --cover-letter: no diff to apply
			case $p in *-cover-letter.patch) continue ;; esac
			series+=("$p")
		done
		name="mainline/$ver/$d (${#series[@]} patches)"
		if (cd "$K" && git apply --check "${series[@]}") 2>&1 | sed 's/^/# /'; [ "${PIPESTATUS[0]}" = 0 ]; then
			ok "$name applies to $(basename "$src")"
		else
			notok "$name applies to $(basename "$src")"
			continue
		fi
		cp_bad=0
		for p in "${series[@]}"; do
			# Debian's source trees carry no git history, so checkpatch
			# cannot resolve the ids of commits the messages cite.
			out=$(cd "$K" && perl scripts/checkpatch.pl --strict --quiet \
				--ignore UNKNOWN_COMMIT_ID "$p" 2>&1)
			if [ -n "$out" ]; then
				printf '%s\n' "$out" | sed 's/^/# /'
				cp_bad=1
			fi
		done
		if [ "$cp_bad" = 0 ]; then
			ok "$name: checkpatch --strict clean"
		else
			notok "$name: checkpatch --strict"
		fi
		# Compile the two objects with the series applied, then revert.
		(
			flock 9
			cd "$K" || exit 1
			git apply "${series[@]}" || exit 1
			trap 'git apply -R $(printf "%s\n" "${series[@]}" | tac)' EXIT
			"$kdir/make.sh" -s fs/splice.o drivers/char/mem.o
		) 9>"$kdir/tree.lock" >"$kdir/check-$d.log" 2>&1
		rc=$?
		if [ "$rc" = 0 ]; then
			ok "$name: patched fs/splice.o and drivers/char/mem.o compile"
		else
			sed 's/^/# /' "$kdir/check-$d.log" | tail -n 30
			notok "$name: patched fs/splice.o and drivers/char/mem.o compile"
		fi
	done
done
echo "1..$n"
[ "$failed" = 0 ]
