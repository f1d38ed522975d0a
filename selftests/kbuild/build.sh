#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kbuild: build a small bootable x86_64 kernel for the zsplice rig from a
# source tarball or tree, a patch series and config fragments, cached by
# what went in.
#
# Usage: build.sh [options] SOURCE FRAGMENT...
#   SOURCE            linux-source tarball (.tar.xz/.tar.gz/.tar) or an
#                     unpacked tree (copied, never written)
#   FRAGMENT          config fragment(s) applied on top of `make allnoconfig`
#                     (KCONFIG_ALLCONFIG); every option they set must take
#   --patches P       a directory of *.patch (applied in name order) or one
#                     patch file, with `git apply`; repeatable
#   --prepare         only `make prepare` (+ modules_prepare): a tree that
#                     single objects can be compiled in (make check)
#   --jobs N          make -jN (default 2)
#   --print           print the cache directory of these inputs and exit
#                     (status 0 when it is built, 1 when not)
#   -h, --help        this text
#
# Output (last line on stdout): the cache directory
#   /var/cache/zsplice/kbuild/<key>/  (ZS_KBUILD_CACHE overrides the parent)
#     linux/        the configured, patched and built tree (KDIR for M=)
#     bzImage       the kernel              (not with --prepare)
#     modules/      INSTALL_MOD_PATH staging: modules/lib/modules/<release>
#     release       `make kernelrelease`
#     config        the final .config
#     inputs        what the key was computed from
#     build.log     make output; time.txt the wall-clock build time
# key = sha256 of: this script's KEY_VERSION, the mode, the source (tarball
# content hash, or the tree's Makefile version + path), the patches' and
# fragments' contents and the compiler version.  A key that exists is never
# rebuilt.  Builds run under `nice -n 19` through ccache
# (/var/cache/zsplice/ccache, shared by every variant, so a variant that
# changes two files recompiles only what those change).
set -euo pipefail

KEY_VERSION=1
cache=${ZS_KBUILD_CACHE:-/var/cache/zsplice/kbuild}
ccache_dir=${ZS_CCACHE_DIR:-/var/cache/zsplice/ccache}
jobs=2
mode=full
print=0
patches=()

die() { echo "kbuild: $*" >&2; exit 2; }
usage() { sed -n '5,/^set -euo/s/^# \{0,1\}//p' "$0" | sed '$d'; exit "${1:-2}"; }

while [ $# -gt 0 ]; do
	case $1 in
	--patches) patches+=("$2"); shift 2 ;;
	--prepare) mode=prepare; shift ;;
	--jobs) jobs=$2; shift 2 ;;
	--print) print=1; shift ;;
	-h|--help) usage 0 ;;
	--) shift; break ;;
	-*) die "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || usage
src=$1; shift
fragments=("$@")
[ -e "$src" ] || die "$src: no such source"
for f in "${fragments[@]}"; do [ -r "$f" ] || die "$f: no such fragment"; done

# Tools a kernel build needs; install what is missing (Debian).
need_tools() {
	local missing=() t
	for t in gcc:gcc make:make flex:flex bison:bison bc:bc ccache:ccache \
		 xz:xz-utils perl:perl git:git; do
		command -v "${t%%:*}" >/dev/null || missing+=("${t#*:}")
	done
	[ -e /usr/include/libelf.h ] || missing+=(libelf-dev)
	[ -e /usr/include/openssl/ssl.h ] || missing+=(libssl-dev)
	if [ ${#missing[@]} -gt 0 ]; then
		echo "kbuild: installing ${missing[*]}" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}" >&2 ||
			die "could not install ${missing[*]}"
	fi
}

# The patch files, in application order.
patch_files() {
	local p
	for p in "${patches[@]+"${patches[@]}"}"; do
		if [ -d "$p" ]; then
			find "$p" -maxdepth 1 -name '*.patch' | LC_ALL=C sort
		elif [ -f "$p" ]; then
			echo "$p"
		else
			die "--patches $p: no such file or directory"
		fi
	done
}

source_id() {
	if [ -d "$src" ]; then
		echo "tree $(readlink -f "$src")"
		sed -n '2,5p' "$src/Makefile"
	else
		echo "tarball $(basename "$src") $(sha256sum <"$src" | cut -c1-64)"
	fi
}

inputs() {
	local f
	echo "kbuild key v$KEY_VERSION mode=$mode"
	source_id
	for f in $(patch_files); do
		echo "patch $(basename "$f") $(sha256sum <"$f" | cut -c1-64)"
	done
	for f in "${fragments[@]}"; do
		echo "fragment $(basename "$f") $(sha256sum <"$f" | cut -c1-64)"
	done
	echo "cc $(gcc --version | head -n 1)"
}

inputs_text=$(inputs)
key=$(printf '%s\n' "$inputs_text" | sha256sum | cut -c1-16)
dir=$cache/$key
if [ "$print" = 1 ]; then
	echo "$dir"
	[ -e "$dir/done" ]
	exit
fi
if [ -e "$dir/done" ]; then
	echo "kbuild: cached $dir" >&2
	echo "$dir"
	exit 0
fi

need_tools
mkdir -p "$cache" "$ccache_dir"
exec 9>"$dir.lock"
flock 9
if [ -e "$dir/done" ]; then	# built by someone else meanwhile
	echo "$dir"
	exit 0
fi
work=$dir.tmp
rm -rf "$work"
mkdir -p "$work"
printf '%s\n' "$inputs_text" >"$work/inputs"
log=$work/build.log
echo "kbuild: building $key in $work (log $log)" >&2
start=$(date +%s)

# 1. source
if [ -d "$src" ]; then
	cp -a "$src" "$work/linux"
else
	mkdir "$work/unpack"
	nice -n 19 tar -C "$work/unpack" -xf "$src"
	top=$(find "$work/unpack" -mindepth 1 -maxdepth 1 -type d)
	[ "$(printf '%s\n' "$top" | wc -l)" = 1 ] || die "$src: expected one top-level directory"
	mv "$top" "$work/linux"
	rmdir "$work/unpack"
fi
K=$work/linux

# 2. patches
for p in $(patch_files); do
	echo "kbuild: applying $(basename "$p")" >&2
	(cd "$K" && git apply --whitespace=nowarn "$p") || die "$p does not apply"
done

# 3. config: allnoconfig + the fragments, then check every option took
cat "${fragments[@]}" >"$work/fragment.config"
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=zsplice KBUILD_BUILD_HOST=kbuild KBUILD_BUILD_VERSION=1
export CCACHE_DIR=$ccache_dir CCACHE_BASEDIR=$work CCACHE_NOHASHDIR=1
export CCACHE_COMPILERCHECK=content CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
mk=(nice -n 19 make -C "$K" ARCH=x86_64 "CC=ccache gcc" LOCALVERSION=-zs${key:0:8})
"${mk[@]}" KCONFIG_ALLCONFIG="$work/fragment.config" allnoconfig >>"$log" 2>&1 ||
	die "allnoconfig failed (see $log)"
bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*) opt=${line%%=*}; want=${line#*=} ;;
	'# CONFIG_'*' is not set') opt=${line#\# }; opt=${opt%% *}; want=n ;;
	*) continue ;;
	esac
	got=$(sed -n "s/^$opt=//p" "$K/.config")
	[ -n "$got" ] || got=n
	if [ "$got" != "$want" ]; then
		echo "kbuild: $opt: fragment says $want, config has $got (unmet dependency?)" >&2
		bad=1
	fi
done <"$work/fragment.config"
[ "$bad" = 0 ] || die "config fragment did not take"
cp "$K/.config" "$work/config"

# 4. build
if [ "$mode" = prepare ]; then
	"${mk[@]}" -j"$jobs" prepare modules_prepare >>"$log" 2>&1 ||
		die "make prepare failed (see $log)"
else
	"${mk[@]}" -j"$jobs" bzImage modules >>"$log" 2>&1 ||
		{ tail -n 40 "$log" >&2; die "build failed (see $log)"; }
	cp "$K/arch/x86/boot/bzImage" "$work/bzImage"
	mkdir -p "$work/modules"
	"${mk[@]}" INSTALL_MOD_PATH="$work/modules" modules_install >>"$log" 2>&1 ||
		die "modules_install failed (see $log)"
fi
"${mk[@]}" -s kernelrelease >"$work/release" 2>>"$log"
end=$(date +%s)
echo "$((end - start)) s, -j$jobs, $(nproc) cpus, $(date -u +%FT%TZ)" >"$work/time.txt"
(CCACHE_DIR=$ccache_dir ccache -s 2>/dev/null | grep -iE 'hits|misses' || true) >>"$work/time.txt"
date -u +%FT%TZ >"$work/done"
rm -rf "$dir"
mv "$work" "$dir"
echo "kbuild: built $dir in $((end - start)) s ($(cat "$dir/release"))" >&2
echo "$dir"
