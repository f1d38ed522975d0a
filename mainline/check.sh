#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# CI checks of the mem.c series in mainline/<kernel>/<design>/*.patch (TAP):
# for every series, on the kernel source it targets,
#   - the series applies (git apply, patch after patch; a cover letter
#     from git format-patch --cover-letter is skipped),
#   - every patch is checkpatch.pl --strict clean (that tree's checkpatch;
#     UNKNOWN_COMMIT_ID ignored: the Debian trees have no git history),
#   - the patched fs/splice.o, drivers/char/mem.o and the objects of every
#     .c file the series touches compile, in a prepared
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
		# The .c files the series touches, as objects, and fs/splice.o and
		# drivers/char/mem.o.
		objs=$({ echo fs/splice.o; echo drivers/char/mem.o
			 sed -n 's|^+++ b/\(.*\)\.c$|\1.o|p' "${series[@]}"; } |
			sort -u | tr '\n' ' ')
		objs=${objs% }
		# Apply the patches one after the other (git apply --check of
		# several patches checks each against the unpatched tree, so a
		# patch that builds on an earlier one would fail), compile, and
		# revert whatever was applied, under the tree's lock.
		(
			flock 9
			cd "$K" || exit 1
			applied=()
			revert() {
				local i
				for ((i = ${#applied[@]} - 1; i >= 0; i--)); do
					git apply -R "${applied[i]}"
				done
			}
			trap revert EXIT
			for p in "${series[@]}"; do
				git apply "$p" || { echo "$(basename "$p") does not apply"; exit 10; }
				applied+=("$p")
			done
			# shellcheck disable=SC2086
			"$kdir/make.sh" -s $objs || exit 11
		) 9>"$kdir/tree.lock" >"$kdir/check-$d.log" 2>&1
		rc=$?
		if [ "$rc" = 10 ]; then
			sed 's/^/# /' "$kdir/check-$d.log" | tail -n 30
			notok "$name applies to $(basename "$src")"
			continue
		fi
		ok "$name applies to $(basename "$src")"
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
		if [ "$rc" = 0 ]; then
			ok "$name: patched $objs compile"
		else
			sed 's/^/# /' "$kdir/check-$d.log" | tail -n 30
			notok "$name: patched $objs compile"
		fi
	done
done
echo "1..$n"
[ "$failed" = 0 ]
