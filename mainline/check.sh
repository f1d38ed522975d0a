#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# CI checks of the series in mainline/<kernel>/<series>/ (TAP): for every
# series directory (one with a cover file), on the kernel source it targets,
#   - the series applies, after the series its cover Depends on (git apply,
#     patch after patch),
#   - mainline/submit.sh --dry-run turns it into mails: signed off, a cover
#     letter, checkpatch.pl --strict clean (UNKNOWN_COMMIT_ID and
#     FILE_PATH_CHANGES ignored: the Debian trees have no git history),
#     commit messages of at most 50 lines,
#   - the patched objects compile: fs/splice.o, drivers/char/mem.o, those
#     of every .c file the series touches and of every caller of
#     largest_zero_folio(), in a prepared tree cached by the kernel builder
#     (--prepare; patched, compiled and reverted under a lock),
#   - every kselftest program the series adds compiles (-Wall -Wextra).
# A kernel source that is absent is a SKIP with the reason.  The boot and the
# measurements are `make mem-check` (mainline/mem-check.sh).
# Before the series, for the whole tree (no kernel source needed):
#   - figures: mainline/figures.py's unit tests pass, and `figures.py check`:
#     every cover, changelog and Documentation/porting-to-mem.rst rendered
#     from a template (FILE.in) equals a fresh render, and every number in
#     them that looks like a measurement is in the results file they name.
#
# Usage: check.sh [-h|--help] [KERNEL...]
#   (default: every mainline/<kernel>/ directory)
set -uo pipefail

usage() {
	echo "Usage: mainline/check.sh [-h|--help] [KERNEL...]"
	sed -n '3,/^# Usage:/{/^# Usage:/d; s/^# \{0,1\}//; p}' "${BASH_SOURCE[0]}"
	sed -n '/^# Usage:/,/^set -uo pipefail$/{/^# Usage:/d; /^set /d; s/^# \{0,1\}//; p}' "${BASH_SOURCE[0]}"
}
case ${1:-} in
-h|--help) usage; exit 0 ;;
-*) echo "check.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
esac

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=mainline/sources.sh
. "$here/sources.sh"
kbuild=$top/tools/kbuild/build.sh
fragments=("$top/tools/kbuild/base.config" "$top/tools/kbuild/thp.config")

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
		[ -d "$d" ] && ls "$d"/*/cover >/dev/null 2>&1 && kernels+=("$(basename "$d")")
	done
fi
echo "TAP version 13"

# Figures of covers, changelogs and docs against their results files.
if out=$(cd "$here" && python3 -m unittest test_figures 2>&1); then
	ok "figures: unit tests of mainline/figures.py ($(printf '%s\n' "$out" | grep -E '^Ran ' | head -n 1))"
else
	printf '%s\n' "$out" | tail -n 40 | sed 's/^/# /'
	notok "figures: unit tests of mainline/figures.py"
fi
if out=$(python3 "$here/figures.py" check 2>&1); then
	ok "figures: $(printf '%s\n' "$out" | tail -n 1 | sed 's/^figures: //')"
else
	printf '%s\n' "$out" | sed 's/^/# /'
	notok "figures: covers, changelogs and docs disagree with their results (mainline/figures.py check)"
fi

for ver in "${kernels[@]}"; do
	designs=()
	for d in "$here/$ver"/*/; do
		[ -f "$d/cover" ] && designs+=("$(basename "$d")")
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
	if ! kdir=$("$kbuild" --prepare "$src" "${fragments[@]}" 2>/tmp/zs-kb.$$ | tail -n 1) ||
	   [ ! -x "$kdir/make.sh" ]; then
		tail -n 20 /tmp/zs-kb.$$ | sed 's/^/# /'
		notok "mainline/$ver: prepared tree (tools/kbuild/build.sh --prepare)"
		rm -f /tmp/zs-kb.$$
		continue
	fi
	rm -f /tmp/zs-kb.$$
	K=$kdir/linux
	for d in "${designs[@]}"; do
		mapfile -t series < <(zs_series_patches "$here/$ver/$d")
		name="mainline/$ver/$d (${#series[@]} patches with its dependencies)"
		# The objects of the .c files the series touches, fs/splice.o,
		# drivers/char/mem.o and the callers of largest_zero_folio().
		objs=$({ echo fs/splice.o; echo drivers/char/mem.o
			 sed -n 's|^+++ b/\(.*\)\.c$|\1.o|p' "${series[@]}" | grep -v '^tools/'
			 (cd "$K" && grep -rl --include='*.c' 'largest_zero_folio()' \
				block fs mm drivers/char | sed 's|\.c$|.o|'); } |
			sort -u | tr '\n' ' ')
		objs=${objs% }
		tests=$(sed -n 's|^+++ b/\(tools/testing/selftests/.*\.c\)$|\1|p' "${series[@]}" | sort -u)
		# Apply the patches one after the other (git apply --check of
		# several patches checks each against the unpatched tree, so a
		# patch that builds on an earlier one would fail), compile, and
		# revert whatever was applied, under the tree's lock.
		(
			flock 9
			cd "$K" || exit 1
			applied=()
			# shellcheck disable=SC2317 # the EXIT trap calls it
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
			for t in $tests; do
				gcc -Wall -Wextra -Werror -O2 -o /dev/null \
					-I"$(dirname "$t")/.." "$t" || exit 12
			done
		) 9>"$kdir/tree.lock" >"$kdir/check-$d.log" 2>&1
		rc=$?
		if [ "$rc" = 10 ]; then
			sed 's/^/# /' "$kdir/check-$d.log" | tail -n 30
			notok "$name applies to $(basename "$src")"
			continue
		fi
		ok "$name applies to $(basename "$src")"
		if out=$(bash "$here/submit.sh" --dry-run --tree "$K" "$here/$ver/$d" 2>&1); then
			ok "$name: mails signed off, checkpatch --strict clean, messages <= 50 lines"
		else
			printf '%s\n' "$out" | sed 's/^/# /' | tail -n 40
			notok "$name: mainline/submit.sh --dry-run"
		fi
		if [ "$rc" = 0 ]; then
			ok "$name: patched $objs${tests:+ and $tests} compile"
		else
			sed 's/^/# /' "$kdir/check-$d.log" | tail -n 30
			notok "$name: patched $objs compile"
		fi
	done
done
echo "1..$n"
[ "$failed" = 0 ]
