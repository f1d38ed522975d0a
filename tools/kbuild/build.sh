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
#                     (an option the kernel does not define is only noted)
#   --patches P       a directory of *.patch (applied in name order, a
#                     *cover-letter.patch left out) or one
#                     patch file, with `git apply`; repeatable
#   --prepare         only `make prepare` (+ modules_prepare): a tree that
#                     single objects can be compiled in (make check)
#   --jobs N          make -jN (default: the CPUs, nproc; not part of the key)
#   --print           print the cache directory of these inputs and exit
#                     (status 0 when it is built, 1 when not)
#   --checkout        only put the line's tree into the state of these
#                     inputs (make.sh does, before make; the caller holds
#                     the line's lock)
#   -h, --help        this text
#
# Output (last line on stdout): the cache directory
#   /var/cache/zsplice/kbuild/<key>/  (ZS_KBUILD_CACHE overrides the parent)
#     bzImage       the kernel              (not with --prepare)
#     modules/      INSTALL_MOD_PATH staging: modules/lib/modules/<release>
#     release       `make kernelrelease`
#     config        the final .config
#     inputs        what the key was computed from
#     make.sh       `make` in the kernel's tree with the arguments of the
#                   build, after putting that tree back in this key's state
#                   (for M= modules: make.sh M=DIR modules)
#     linux/        --prepare: the configured, patched, prepared tree; a
#                   full build: a link to its line's tree (below)
#     build.log     make output; time.txt the wall-clock build time
#
# A build says what it builds (source, fragments, patches, key, line),
# then every minute how long it has run and, when an earlier build of the
# same line left its time.txt, how long that one took.  The tools a build
# needs (gcc, make, flex, bison, bc, perl, ccache, xz, git, depmod, the
# libc, libelf and OpenSSL headers) are checked before it starts; what is
# missing is named with its Debian package and, as root with apt-get,
# installed, else the build stops before it begins.
#
# key = sha256 of: this script's KEY_VERSION, the mode, the source (tarball
# content hash, or the tree's Makefile version + path), the patches' diffs
# (git patch-id), the fragments' contents and the compiler version.  A key
# that exists is never rebuilt.  --jobs is not in the key.
#
# Full builds of one source and one set of fragments (a "line") share one
# tree, line-<hash>/linux, configured once: a build puts the files its
# patches touch (and those the line's last build had touched) into this
# build's state, changing only the files whose content differs, and runs
# make there, so an edit to one patch recompiles what it changes and relinks.
# --prepare trees are copies of their own.  Builds run under `nice -n 19`
# through ccache (/var/cache/zsplice/ccache, shared by every tree).
set -euo pipefail

KEY_VERSION=1
self=$(readlink -f "${BASH_SOURCE[0]}")
checkout_only=0
cache=${ZS_KBUILD_CACHE:-/var/cache/zsplice/kbuild}
ccache_dir=${ZS_CCACHE_DIR:-/var/cache/zsplice/ccache}
jobs=$(nproc 2>/dev/null || echo 2)
mode=full
print=0
patches=()

die() { echo "kbuild: $*" >&2; exit 2; }
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
	--patches) patches+=("$2"); shift 2 ;;
	--prepare) mode=prepare; shift ;;
	--jobs) jobs=$2; shift 2 ;;
	--print) print=1; shift ;;
	--checkout) checkout_only=1; shift ;;
	-h|--help) usage 0 ;;
	--) shift; break ;;
	-*) die "unknown option $1 (see --help)" ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || usage
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "--jobs wants a number of make jobs, at least 1 (got '$jobs')"
src=$1; shift
fragments=("$@")
[ -e "$src" ] || die "$src: no such source"
for f in "${fragments[@]}"; do [ -r "$f" ] || die "$f: no such fragment"; done

# missing_tools key|build: what is missing, one "WHAT PACKAGE" a line: for
# the cache key (gcc --version, git patch-id, sha256sum), or for a build.
missing_tools() {
	local t tools="gcc:gcc git:git sha256sum:coreutils"
	[ "$1" = key ] || tools="$tools make:make flex:flex bison:bison bc:bc
		perl:perl ccache:ccache xz:xz-utils"
	for t in $tools; do
		command -v "${t%%:*}" >/dev/null || echo "${t%%:*} ${t#*:}"
	done
	[ "$1" = key ] && return
	# modules_install runs depmod (/sbin is not in every PATH).
	command -v depmod >/dev/null || [ -x /sbin/depmod ] || echo "depmod kmod"
	[ -e /usr/include/stdio.h ] || echo "libc-headers libc6-dev"
	[ -e /usr/include/libelf.h ] || echo "libelf.h libelf-dev"
	[ -e /usr/include/openssl/ssl.h ] || echo "openssl/ssl.h libssl-dev"
}

# need_tools key|build: every tool missing for the key or for a build,
# named together with its Debian package, then installed (root, apt-get;
# never for --print), else the end.  When a tool of the key is missing,
# what a build needs is checked (and installed) with it.
need_tools() {
	local what=$1 m pkgs for="a kernel build"
	m=$(missing_tools "$what")
	[ -n "$m" ] || return 0
	if [ "$what" = key ] && [ "$print" = 1 ]; then
		for="the cache key"
	elif [ "$what" = key ]; then
		m=$(missing_tools build)
	fi
	pkgs=$(printf '%s\n' "$m" | awk '!seen[$2]++ { printf "%s%s", sep, $2; sep = " " }')
	echo "kbuild: missing for $for:" \
		"$(printf '%s\n' "$m" | awk '{ printf "%s%s (%s)", sep, $1, $2; sep = ", " }')" >&2
	if [ "$print" = 1 ] || [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
		die "install them first: apt-get install $pkgs"
	fi
	echo "kbuild: installing $pkgs" >&2
	# shellcheck disable=SC2086 # one word a package
	DEBIAN_FRONTEND=noninteractive apt-get install -y $pkgs >&2 ||
		die "could not install $pkgs"
	m=$(missing_tools "$what")
	[ -z "$m" ] || die "still missing after apt-get install: $(printf '%s\n' "$m" | cut -d' ' -f1 | xargs)"
}
need_tools key

# The patch files, in application order.
patch_files() {
	local p
	for p in "${patches[@]+"${patches[@]}"}"; do
		if [ -d "$p" ]; then
			find "$(cd "$p" && pwd)" -maxdepth 1 -name '*.patch' ! -name '*cover-letter.patch' | LC_ALL=C sort
		elif [ -f "$p" ]; then
			echo "$(cd "$(dirname "$p")" && pwd)/$(basename "$p")"
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
		# The diff, not the commit message: rewording a patch does not
		# rebuild the kernel.
		echo "patch $(git patch-id --stable <"$f" | cut -d' ' -f1)"
	done
	for f in "${fragments[@]}"; do
		echo "fragment $(basename "$f") $(sha256sum <"$f" | cut -c1-64)"
	done
	echo "cc $(gcc --version | head -n 1)"
}

inputs_text=$(inputs)
key=$(printf '%s\n' "$inputs_text" | sha256sum | cut -c1-16)
dir=$cache/$key
# The line: the inputs but the patches.
linekey=$(printf '%s\n' "$inputs_text" | grep -v '^patch ' | sha256sum | cut -c1-16)
line=$cache/line-$linekey
if [ "$print" = 1 ]; then
	echo "$dir"
	[ -e "$dir/done" ]
	exit
fi
# make.sh: make in the key's tree with the build's own arguments; for a
# full build, under the line's lock, after putting the line's tree back
# into this key's state (and `make prepare`, for this key's release).
write_make_sh() {
	local mk
	mk="nice -n 19 make -C \"\$d/linux/\" ARCH=x86_64 \"CC=ccache gcc\" LOCALVERSION=-zs${key:0:8}"
	{
		cat <<MAKESH
#!/bin/sh
# Generated by the kernel builder: make in this key's tree with the
# arguments it was built with (ccache, nice, LOCALVERSION).
d=\$(cd "\$(dirname "\$0")" && pwd)
export KBUILD_BUILD_TIMESTAMP='$KBUILD_BUILD_TIMESTAMP'
export KBUILD_BUILD_USER=zsplice KBUILD_BUILD_HOST=kbuild KBUILD_BUILD_VERSION=1
export CCACHE_DIR='$ccache_dir' CCACHE_BASEDIR="\$(dirname "\$(readlink -f "\$d/linux")")" CCACHE_NOHASHDIR=1
export CCACHE_COMPILERCHECK=content CCACHE_MAXSIZE=\${CCACHE_MAXSIZE:-20G}
MAKESH
		if [ "$mode" != prepare ]; then
			echo "# The line's tree: under its lock, in this key's state."
			echo "[ -n \"\${ZS_KBUILD_LOCKED:-}\" ] ||"
			echo "	ZS_KBUILD_LOCKED=1 exec flock $(printf '%q' "$line.lock") \"\$0\" \"\$@\""
			echo "bash $(printf '%q' "$line/build.sh") --checkout $(printf '%q ' "${argv[@]}")>/dev/null || exit"
			echo "$mk -s prepare || exit"
		fi
		echo "exec $mk \"\$@\""
	} >"$1/make.sh"
	chmod +x "$1/make.sh"
}
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=zsplice KBUILD_BUILD_HOST=kbuild KBUILD_BUILD_VERSION=1
export CCACHE_DIR=$ccache_dir CCACHE_NOHASHDIR=1
export CCACHE_COMPILERCHECK=content CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}

# pristine_tree: the unpacked source, never written: the tree given, or
# one copy per tarball in the cache.
pristine_tree() {
	local pristine
	if [ -d "$src" ]; then
		readlink -f "$src"
		return
	fi
	pristine=$cache/src-$(printf '%s\n' "$inputs_text" | sed -n 's/^tarball .* \(.\{16\}\).*/\1/p')
	(
		flock 8
		if [ ! -e "$pristine/done" ]; then
			rm -rf "$pristine"
			mkdir -p "$pristine/unpack"
			nice -n 19 tar -C "$pristine/unpack" -xf "$src"
			top=$(find "$pristine/unpack" -mindepth 1 -maxdepth 1 -type d)
			[ "$(printf '%s\n' "$top" | wc -l)" = 1 ] || die "$src: expected one top-level directory"
			mv "$top" "$pristine/linux"
			rmdir "$pristine/unpack"
			date -u +%FT%TZ >"$pristine/done"
		fi
	) 8>"$pristine.lock" || exit
	echo "$pristine/linux"
}

# touched PATCH...: the files the patches change, create or delete.
touched() {
	[ $# -gt 0 ] || return 0
	sed -n 's|^--- a/||p; s|^+++ b/||p' "$@" | sort -u
}

# checkout TREE PRISTINE: put TREE into this key's state.  The files that
# TREE's last checkout touched and those the patches touch are made from
# PRISTINE plus the patches in a scratch directory; only those whose
# content differs are written into TREE (so make rebuilds what changed).
checkout() {
	local tree=$1 pristine=$2 scratch f
	local -a files pfiles
	mapfile -t pfiles < <(patch_files)
	mapfile -t files < <({ cat "$tree/../applied-files" 2>/dev/null
			      touched "${pfiles[@]+"${pfiles[@]}"}"; } | sort -u)
	scratch=$(mktemp -d)
	for f in "${files[@]+"${files[@]}"}"; do
		[ -e "$pristine/$f" ] || continue
		mkdir -p "$scratch/$(dirname "$f")"
		cp -p "$pristine/$f" "$scratch/$f"
	done
	for f in "${pfiles[@]+"${pfiles[@]}"}"; do
		echo "kbuild: applying $(basename "$f")" >&2
		(cd "$scratch" && git apply --whitespace=nowarn "$f") ||
			{ rm -rf "$scratch"; die "$f does not apply"; }
	done
	for f in "${files[@]+"${files[@]}"}"; do
		if [ -e "$scratch/$f" ]; then
			cmp -s "$scratch/$f" "$tree/$f" && continue
			mkdir -p "$tree/$(dirname "$f")"
			cp "$scratch/$f" "$tree/$f"
			echo "kbuild: changed $f" >&2
		elif [ -e "$tree/$f" ]; then
			rm -f "$tree/$f"
			echo "kbuild: removed $f" >&2
		fi
	done
	rm -rf "$scratch"
	touched "${pfiles[@]+"${pfiles[@]}"}" >"$tree/../applied-files"
	echo "$key" >"$tree/../state"
}

# configure TREE: allnoconfig + the fragments, then check every option took.
configure() {
	local K=$1 bad=0 line opt want got
	cat "${fragments[@]}" >"$K/../fragment.config"
	"${mk[@]}" KCONFIG_ALLCONFIG="$K/../fragment.config" allnoconfig >>"$log" 2>&1 ||
		die "allnoconfig failed (see $log)"
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) opt=${line%%=*}; want=${line#*=} ;;
		'# CONFIG_'*' is not set') opt=${line#\# }; opt=${opt%% *}; want=n ;;
		*) continue ;;
		esac
		got=$(sed -n "s/^$opt=//p" "$K/.config")
		[ -n "$got" ] || got=n
		if [ "$got" != "$want" ]; then
			# An option this kernel does not have at all is only noted
			# (one fragment serves several kernels); anything else is
			# an error.
			if ! grep -rqx --include='Kconfig*' "\(menu\)\{0,1\}config ${opt#CONFIG_}" "$K"; then
				echo "kbuild: $opt: not in this kernel, ignored" >&2
				continue
			fi
			echo "kbuild: $opt: fragment says $want, config has $got (unmet dependency?)" >&2
			bad=1
		fi
	done <"$K/../fragment.config"
	[ "$bad" = 0 ] || die "config fragment did not take"
}

# keep_inputs DIR FINAL: copy the patches and fragments into DIR/inputs.d
# and set argv to them as they will be under FINAL (DIR's final name), so
# that make.sh never depends on a checkout that moves or changes.
keep_inputs() {
	local d=$1 final=$2 i=0 p n
	rm -rf "$d/inputs.d"
	mkdir -p "$d/inputs.d"
	argv=()
	for p in $(patch_files); do
		i=$((i + 1))
		n=$(printf '%04d-%s' "$i" "$(basename "$p")")
		cp "$p" "$d/inputs.d/$n"
		argv+=(--patches "$final/inputs.d/$n")
	done
	argv+=("$(readlink -f "$src")")
	# a fragment keeps its name: the key has it
	for p in "${fragments[@]}"; do
		i=$((i + 1))
		n=$(printf '%04d' "$i")/$(basename "$p")
		mkdir -p "$d/inputs.d/${n%/*}"
		cp "$p" "$d/inputs.d/$n"
		argv+=("$final/inputs.d/$n")
	done
}

# describe: what this build builds, on stderr.
describe() {
	local p n=0
	for p in $(patch_files); do n=$((n + 1)); done
	{
		echo "kbuild: building $key ($([ "$mode" = prepare ] && echo "--prepare tree" || echo "bzImage and modules"), make -j$jobs, nice 19)"
		echo "kbuild:   source    $src"
		echo "kbuild:   fragments ${fragments[*]}"
		echo "kbuild:   patches   $n${patches[0]:+ from ${patches[*]}}"
		if [ "$mode" = prepare ]; then
			echo "kbuild:   tree      $work/linux (a copy of its own)"
		elif [ -e "$line/done" ]; then
			echo "kbuild:   line      $line (configured: make rebuilds what the patches change)"
		else
			echo "kbuild:   line      $line (new: configured and compiled from scratch)"
		fi
		echo "kbuild:   log       $log"
	} >&2
}

# expected_time: how long an earlier build of this line took (its
# time.txt), the longest one when the line's tree is new (a full compile),
# else the newest; nothing when there was none.
expected_time() {
	local d t newest=0 newest_t="" max=-1 max_t="" m
	for d in "$cache"/*/inputs; do
		d=${d%/inputs}
		[ -f "$d/time.txt" ] || continue
		[ "$(grep -v '^patch ' "$d/inputs" | sha256sum | cut -c1-16)" = "$linekey" ] || continue
		t=$(head -n 1 "$d/time.txt")
		[[ ${t%% *} =~ ^[0-9]+$ ]] || continue
		m=$(stat -c %Y "$d/time.txt")
		if [ "$m" -gt "$newest" ]; then newest=$m newest_t=$t; fi
		if [ "${t%% *}" -gt "$max" ]; then max=${t%% *} max_t=$t; fi
	done
	[ -n "$newest_t" ] || return 0
	if [ "$mode" = full ] && [ ! -e "$line/done" ]; then
		t=$max_t
		echo "about $(minutes "${t%% *}") (the line's longest earlier build, as its tree was new: $t)"
	else
		t=$newest_t
		echo "about $(minutes "${t%% *}") (the line's last build: $t)"
	fi
}

minutes() { # minutes SECONDS: "N min" (at least 1)
	local m=$((($1 + 30) / 60))
	echo "$((m > 0 ? m : 1)) min"
}

# start_ticker EXPECTED: every 60 s, the time the build has run (stderr).
# It closes the lock descriptors and stops with this script.
ticker=
start_ticker() {
	local expect=$1
	(
		exec 8>&- 9>&-
		trap 'kill "$sp" 2>/dev/null; exit 0' TERM
		t0=$(date +%s)
		while kill -0 "$$" 2>/dev/null; do
			sleep 60 &
			sp=$!
			wait "$sp" || true
			echo "kbuild: building $key: $(minutes $(($(date +%s) - t0))) elapsed${expect:+, expected $expect}"
		done
	) >&2 &
	ticker=$!
}
stop_ticker() {
	[ -z "$ticker" ] || kill "$ticker" 2>/dev/null || true
	ticker=
}

if [ "$checkout_only" = 1 ]; then
	if [ "$mode" != full ] || [ ! -e "$line/done" ]; then
		die "--checkout: no line tree for these inputs"
	fi
	checkout "$line/linux" "$(pristine_tree)"
	exit 0
fi

if [ -e "$dir/done" ]; then
	if [ ! -x "$dir/make.sh" ]; then
		[ "$mode" = prepare ] || keep_inputs "$dir" "$dir"
		write_make_sh "$dir"
	fi
	echo "kbuild: cached $dir" >&2
	echo "$dir"
	exit 0
fi

need_tools build
mkdir -p "$cache" "$ccache_dir"
exec 9>"$dir.lock"
flock 9
if [ -e "$dir/done" ]; then	# built by someone else meanwhile
	[ -x "$dir/make.sh" ] || write_make_sh "$dir"
	echo "$dir"
	exit 0
fi
work=$dir.tmp
rm -rf "$work"
mkdir -p "$work"
printf '%s\n' "$inputs_text" >"$work/inputs"
log=$work/build.log
describe
expect=$(expected_time)
[ -z "$expect" ] || echo "kbuild:   expected  $expect" >&2
start=$(date +%s)
trap stop_ticker EXIT
start_ticker "$expect"
pristine=$(pristine_tree)

if [ "$mode" = prepare ]; then
	# A tree of its own, prepared for single objects.
	K=$work/linux
	nice -n 19 cp -a "$pristine" "$K"
	for p in $(patch_files); do
		echo "kbuild: applying $(basename "$p")" >&2
		(cd "$K" && git apply --whitespace=nowarn "$p") || die "$p does not apply"
	done
	export CCACHE_BASEDIR=$work
	mk=(nice -n 19 make -C "$K" ARCH=x86_64 "CC=ccache gcc" "LOCALVERSION=-zs${key:0:8}")
	configure "$K"
	"${mk[@]}" -j"$jobs" prepare modules_prepare >>"$log" 2>&1 ||
		die "make prepare failed (see $log)"
else
	# The line's tree, configured once, put into this key's state.
	exec 8>"$line.lock"
	flock 8
	K=$line/linux
	export CCACHE_BASEDIR=$line
	mk=(nice -n 19 make -C "$K" ARCH=x86_64 "CC=ccache gcc" "LOCALVERSION=-zs${key:0:8}")
	if [ ! -e "$line/done" ]; then
		echo "kbuild: new line tree $line" >&2
		rm -rf "$line"
		mkdir -p "$line"
		nice -n 19 cp -a "$pristine" "$K"
		configure "$K"
		: >"$line/applied-files"
		date -u +%FT%TZ >"$line/done"
	fi
	checkout "$K" "$pristine"
	# make.sh's --checkout: this script, kept with the tree it serves.
	cp "$self" "$line/build.sh.tmp" && mv "$line/build.sh.tmp" "$line/build.sh"
	"${mk[@]}" -j"$jobs" bzImage modules >>"$log" 2>&1 ||
		{ tail -n 40 "$log" >&2; die "build failed (see $log)"; }
	cp "$K/arch/x86/boot/bzImage" "$work/bzImage"
	mkdir -p "$work/modules"
	"${mk[@]}" INSTALL_MOD_PATH="$work/modules" modules_install >>"$log" 2>&1 ||
		die "modules_install failed (see $log)"
	ln -s "$K" "$work/linux"
fi
cp "$K/.config" "$work/config"
"${mk[@]}" -s kernelrelease >"$work/release" 2>>"$log"
end=$(date +%s)
echo "$((end - start)) s, -j$jobs, $(nproc) cpus, $(date -u +%FT%TZ)" >"$work/time.txt"
(CCACHE_DIR=$ccache_dir ccache -s 2>/dev/null | grep -iE 'hits|misses' || true) >>"$work/time.txt"
[ "$mode" = prepare ] || keep_inputs "$work" "$dir"
write_make_sh "$work"
date -u +%FT%TZ >"$work/done"
rm -rf "$dir"
mv "$work" "$dir"
# modules_install pointed lib/modules/<release>/build at the tree.
for b in "$dir"/modules/lib/modules/*/build; do
	[ -L "$b" ] && ln -sfn "$(readlink -f "$dir/linux")" "$b"
done
stop_ticker
echo "kbuild: built $dir in $((end - start)) s ($(cat "$dir/release"))" >&2
echo "$dir"
