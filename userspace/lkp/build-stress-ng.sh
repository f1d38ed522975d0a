#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build-stress-ng.sh SRC TAG - build a static stress-ng from SRC and cache it
#
# SRC is either a stress-ng source tree or a git directory (bare mirror or
# checkout) that holds TAG.  The binary lands in
#   ${ZS_CACHE:-/var/cache/zsplice}/stress-ng/TAG/stress-ng
# together with a "key" file (tag and commit).  When that file exists the
# build is skipped: the cache is keyed by the tag, which names one commit.
#
# The build is nice -n 19 and uses at most two jobs (the machine etiquette in
# TEAM.md); V0.17.00 takes about 22 minutes on 2 cores.
#
# LKP ran stress-ng V0.17.00 (the last release whose splice stressor ends
# every loop with the undrained 1-byte splice from /dev/zero); V0.17.01 and
# later dropped that call.  CI machines cannot reach GitHub: get SRC once with
#   git clone --bare https://github.com/ColinIanKing/stress-ng
# and copy the cache directory over.
set -eu

usage() { echo "usage: $0 SRC TAG" >&2; exit 2; }
[ $# -eq 2 ] || usage
src=$1
tag=$2
cache=${ZS_CACHE:-/var/cache/zsplice}/stress-ng
out=$cache/$tag
jobs=${ZS_JOBS:-2}

if [ -x "$out/stress-ng" ] && [ -f "$out/key" ]; then
	echo "build-stress-ng: cached $out/stress-ng ($(cat "$out/key"))"
	exit 0
fi

mkdir -p "$cache"
work=$(mktemp -d "$cache/.build-$tag.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

if git --git-dir="$src" rev-parse -q --verify "refs/tags/$tag^{commit}" >/dev/null 2>&1; then
	commit=$(git --git-dir="$src" rev-parse "refs/tags/$tag^{commit}")
	git --git-dir="$src" archive --format=tar "$commit" | tar -x -C "$work"
elif git -C "$src" rev-parse -q --verify "refs/tags/$tag^{commit}" >/dev/null 2>&1; then
	commit=$(git -C "$src" rev-parse "refs/tags/$tag^{commit}")
	git -C "$src" archive --format=tar "$commit" | tar -x -C "$work"
elif [ -f "$src/stress-ng.c" ]; then
	commit="tree:$(cd "$src" && pwd)"
	cp -a "$src/." "$work/"
else
	echo "build-stress-ng: $src is neither a git directory holding $tag nor a stress-ng tree" >&2
	exit 1
fi

echo "build-stress-ng: building $tag ($commit) in $work, nice -n 19, -j$jobs"
start=$(date +%s)
( cd "$work" && nice -n 19 make -j"$jobs" STATIC=1 >build.log 2>&1 ) || {
	echo "build-stress-ng: build failed; last lines of the log:" >&2
	tail -30 "$work/build.log" >&2
	exit 1
}
end=$(date +%s)

mkdir -p "$out.tmp"
cp "$work/stress-ng" "$out.tmp/stress-ng"
cp "$work/build.log" "$out.tmp/build.log"
printf '%s %s\n' "$tag" "$commit" >"$out.tmp/key"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "build-stress-ng: $out/stress-ng built in $((end - start)) s"
"$out/stress-ng" --version || true
