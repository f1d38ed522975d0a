# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Where the kernel sources the mem.c series targets come from.  Sourced by
# mainline/check.sh and mainline/mem-check.sh.
#   6.12  Debian bookworm's linux-source-6.12 (tools/rig/deps.sh installs it)
#   7.x   the newest linux-source-7.* of trixie-backports, downloaded through
#         the private apt configuration /var/cache/zsplice/apt-trixie (never
#         the machine's sources) into $ZS_SRC_CACHE.

ZS_SRC_CACHE=${ZS_SRC_CACHE:-/var/cache/zsplice/kbuild/src}
ZS_APT_TRIXIE=${ZS_APT_TRIXIE:-/var/cache/zsplice/apt-trixie/apt.conf}

# zs_source VER: path of the source tarball for series directory VER
# (6.12, 7.3, ...), or status 1 with the reason on stderr.
zs_source() {
	local ver=$1 t
	case $ver in
	6.12)
		t=/usr/src/linux-source-6.12.tar.xz
		[ -r "$t" ] || { echo "linux-source-6.12 not installed (tools/rig/deps.sh)" >&2; return 1; }
		;;
	*)
		t=$ZS_SRC_CACHE/linux-source-$ver.tar.xz
		[ -r "$t" ] || zs_fetch_source "$ver" 2>/dev/null || {
			echo "$t absent and not fetched: no private trixie apt configuration (tools/rig/kernels.sh fetch 7, part of make check-matrix, sets it up)" >&2
			return 1
		}
		;;
	esac
	echo "$t"
}

# zs_fetch_source VER: extract linux-source-VER's tarball from the package
# the kernels rig already downloaded (tools/rig/kernels.sh fetch 7 keeps
# it in $ZS_KCACHE/debs), else download it from trixie(-backports) with the
# private apt configuration.
zs_fetch_source() {
	local ver=$1 deb
	[ -r "$ZS_SRC_CACHE/linux-source-$ver.tar.xz" ] && return 0
	mkdir -p "$ZS_SRC_CACHE"
	# shellcheck disable=SC2012
	deb=$(ls -t "${ZS_KCACHE:-/var/cache/zsplice/kernels}"/debs/linux-source-"$ver"_*_all.deb \
		"$ZS_SRC_CACHE"/linux-source-"$ver"_*_all.deb 2>/dev/null | head -n 1)
	if [ -z "$deb" ]; then
		[ -r "$ZS_APT_TRIXIE" ] || {
			echo "no private trixie apt configuration at $ZS_APT_TRIXIE (the kernels rig sets it up)" >&2
			return 1
		}
		(cd "$ZS_SRC_CACHE" && apt-get -q -c "$ZS_APT_TRIXIE" download "linux-source-$ver") >&2 || return 1
		# shellcheck disable=SC2012
		deb=$(ls -t "$ZS_SRC_CACHE"/linux-source-"$ver"_*_all.deb | head -n 1)
	fi
	# into a temporary directory first: an interrupted extraction must not
	# leave a truncated tarball that the [ -r ] above would take
	rm -rf "$ZS_SRC_CACHE/.x.$$" && mkdir "$ZS_SRC_CACHE/.x.$$" &&
	dpkg-deb --fsys-tarfile "$deb" |
		tar -C "$ZS_SRC_CACHE/.x.$$" -x --strip-components=3 -f - "./usr/src/linux-source-$ver.tar.xz" &&
	mv "$ZS_SRC_CACHE/.x.$$/linux-source-$ver.tar.xz" "$ZS_SRC_CACHE/"
	rm -rf "$ZS_SRC_CACHE/.x.$$"
	[ -r "$ZS_SRC_CACHE/linux-source-$ver.tar.xz" ]
}

# zs_newest_7x: the newest linux-source-7.* version the private apt
# configuration offers (e.g. 7.3).
zs_newest_7x() {
	apt-cache -c "$ZS_APT_TRIXIE" pkgnames linux-source-7. 2>/dev/null |
		sed -n 's/^linux-source-\(7\.[0-9]*\)$/\1/p' | sort -V | tail -n 1
}

# A series directory holds its patches (*.patch, applied in name order) and
# a "cover": a header of "Key: value" lines, a blank line, the cover
# letter's text.  Keys: Subject, Prefix (PATCH, PATCH v2, RFC PATCH), Base,
# Depends (series directories beside this one that must be applied first),
# Cc (one address a line, on top of what get_maintainer.pl finds).

# zs_cover_field DIR KEY: the values of KEY in DIR/cover, one a line.
zs_cover_field() {
	[ -r "$1/cover" ] || return 0
	sed -n "/^\$/q; s/^$2: *//p" "$1/cover"
}

# zs_series_dirs DIR: DIR's dependencies (recursively) and DIR, in the
# order they apply, each once, one directory a line.
zs_series_dirs() {
	local dirs
	dirs=$(zs_series_walk "$1") || return 1
	printf '%s\n' "$dirs" | awk '!seen[$0]++'
}

zs_series_walk() {
	local dir dep
	dir=$(cd "$1" && pwd -P) || return 1
	for dep in $(zs_cover_field "$dir" Depends); do
		[ -d "$dir/../$dep" ] || { echo "$dir: Depends: $dep: no such series" >&2; return 1; }
		zs_series_walk "$dir/../$dep" || return 1
	done
	echo "$dir"
}

# zs_series_patches DIR: every patch to apply for DIR, its dependencies'
# first, one path a line.
zs_series_patches() {
	local d dirs
	dirs=$(zs_series_dirs "$1") || return 1
	for d in $dirs; do
		find "$(cd "$d" && pwd -P)" -maxdepth 1 -name '*.patch' | LC_ALL=C sort
	done | awk '!seen[$0]++'
}

# zs_pristine_tree TARBALL: the unpacked copy of TARBALL that the kernel
# builder keeps (its cache's src-<hash>/linux), or status 1.
zs_pristine_tree() {
	local d
	d=${ZS_KBUILD_CACHE:-/var/cache/zsplice/kbuild}/src-$(sha256sum <"$1" | cut -c1-16)
	[ -e "$d/done" ] && [ -d "$d/linux" ] || return 1
	echo "$d/linux"
}

# zs_uutils: a directory holding trixie's rust-coreutils (uutils) with the
# libc it needs (glibc >= 2.39; bookworm has 2.36), unpacked from packages
# of the private trixie apt configuration into $ZS_UUTILS_CACHE, or status
# 1 with the reason on stderr.  Run as usr/lib/x86_64-linux-gnu/ld-linux-
# x86-64.so.2 --library-path usr/lib/x86_64-linux-gnu usr/bin/coreutils.
ZS_UUTILS_CACHE=${ZS_UUTILS_CACHE:-/var/cache/zsplice/uutils}
ZS_UUTILS_PKGS="rust-coreutils libc6 libselinux1 libgcc-s1 libpcre2-8-0"
zs_uutils() {
	local d=$ZS_UUTILS_CACHE p
	if [ ! -e "$d/done" ]; then
		[ -r "$ZS_APT_TRIXIE" ] || {
			echo "no private trixie apt configuration at $ZS_APT_TRIXIE (tools/rig/kernels.sh fetch 7 sets it up)" >&2
			return 1
		}
		mkdir -p "$d" && rm -rf "$d/root" "$d"/*.deb || return 1
		for p in $ZS_UUTILS_PKGS; do
			(cd "$d" && apt-get -q -c "$ZS_APT_TRIXIE" download "$p") >&2 ||
				{ echo "apt-get download $p (trixie) failed" >&2; return 1; }
		done
		for p in "$d"/*.deb; do
			dpkg -x "$p" "$d/root" || return 1
		done
		[ -x "$d/root/usr/bin/coreutils" ] || { echo "rust-coreutils has no usr/bin/coreutils" >&2; return 1; }
		touch "$d/done"
	fi
	echo "$d/root"
}

# ------------------------------------------------ a developer's git tree
# (make mem-check KERNEL_TREE=DIR [KERNEL_BASE=REF])

# zs_tree_base TREE [REF]: the merge-base of TREE's HEAD with REF (default
# the branch's upstream, @{upstream}), as a full commit id; status 1 with
# the reason on stderr.
zs_tree_base() {
	local tree=$1 ref=${2:-} b
	git -C "$tree" rev-parse --verify -q HEAD >/dev/null ||
		{ echo "KERNEL_TREE=$tree: not a git tree with a commit" >&2; return 1; }
	if [ -z "$ref" ]; then
		ref=$(git -C "$tree" rev-parse --abbrev-ref --symbolic-full-name '@{upstream}' 2>/dev/null) || {
			echo "KERNEL_TREE=$tree: its branch has no upstream: name the base, e.g. KERNEL_BASE=HEAD~1 or KERNEL_BASE=v7.3" >&2
			return 1
		}
	fi
	b=$(git -C "$tree" merge-base HEAD "$ref" 2>/dev/null) ||
		{ echo "KERNEL_TREE=$tree: no merge-base of HEAD and $ref" >&2; return 1; }
	echo "$b"
}

# zs_tree_version TREE: VERSION.PATCHLEVEL of TREE's Makefile (7.3).
zs_tree_version() {
	awk '$1 == "VERSION" { v = $3 } $1 == "PATCHLEVEL" { p = $3 }
	     END { if (v == "" || p == "") exit 1; print v "." p }' "$1/Makefile"
}

# zs_version_at_least A B: status 0 when version A (7.3) is B (6.1) or later.
zs_version_at_least() {
	[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]
}

# zs_tree_export TREE COMMIT: COMMIT of TREE as a plain source tree in the
# kernel builder's cache (git-<commit>/linux, written once, never changed),
# the kernel builder's SOURCE for the base kernel.
zs_tree_export() {
	local tree=$1 c=$2 d
	d=${ZS_KBUILD_CACHE:-/var/cache/zsplice/kbuild}/git-$c
	(
		flock 8
		if [ ! -e "$d/done" ]; then
			rm -rf "$d"
			mkdir -p "$d/linux"
			git -C "$tree" archive --format=tar "$c" | tar -C "$d/linux" -xf - || exit 1
			date -u +%FT%TZ >"$d/done"
		fi
	) 8>"$d.lock" || { echo "could not export $c of $tree" >&2; return 1; }
	echo "$d/linux"
}

# zs_tree_diff TREE COMMIT FILE: write TREE's working tree against COMMIT
# (its commits since and what is not committed yet, staged or not; files
# git does not track are not in it) as one patch to FILE; status 2 when
# there is no difference.
zs_tree_diff() {
	git -C "$1" diff --binary --no-color --no-ext-diff "$2" -- >"$3" || return 1
	[ -s "$3" ] || return 2
}

# ------------------------------------------------ LTP's splice and tee tests

# zs_ltp: a directory holding LTP's splice and tee tests (splice01... and
# tee01..., whichever the release has), static x86_64 binaries, or status
# 1 with the reason on stderr.  The source: ZS_LTP_SRC, a directory (an
# LTP tree, built in a copy) or a git directory (its tag $ZS_LTP_VERSION,
# archived into $ZS_LTP_CACHE/src-<tag>), else the release tarball
# ltp-full-$ZS_LTP_VERSION.tar.xz downloaded from GitHub into
# $ZS_LTP_CACHE.  Only lib/ and the two test directories are built
# (LDFLAGS=-static), once per version: $ZS_LTP_CACHE/bin-<version>/ (for
# a directory source bin-<version>-dir-<hash of its path>: remove it to
# rebuild), the build's log beside it.
ZS_LTP_CACHE=${ZS_LTP_CACHE:-/var/cache/zsplice/ltp}
ZS_LTP_VERSION=${ZS_LTP_VERSION:-20260529}
ZS_LTP_URL=${ZS_LTP_URL:-https://github.com/linux-test-project/ltp/releases/download}
zs_ltp() {
	local v=$ZS_LTP_VERSION s=${ZS_LTP_SRC:-} c=$ZS_LTP_CACHE key tree t
	[ "$(uname -m)" = x86_64 ] || { echo "LTP for the x86_64 guest builds on an x86_64 host only" >&2; return 1; }
	mkdir -p "$c" || { echo "cannot create $c" >&2; return 1; }
	if [ -n "$s" ] && [ -f "$s/configure.ac" ]; then
		v=$(cat "$s/VERSION" 2>/dev/null) || { echo "ZS_LTP_SRC=$s: no VERSION file" >&2; return 1; }
		key=$v-dir-$(printf '%s' "$(cd "$s" && pwd -P)" | sha256sum | cut -c1-12)
	elif [ -n "$s" ]; then
		git --git-dir="$s" rev-parse -q --verify "refs/tags/$v^{commit}" >/dev/null 2>&1 || {
			echo "ZS_LTP_SRC=$s: neither an LTP source tree nor a git directory with tag $v (ZS_LTP_VERSION)" >&2
			return 1
		}
		key=$v
	else
		key=$v
	fi
	[ -e "$c/bin-$key/done" ] && { echo "$c/bin-$key"; return 0; }
	(
		flock 8
		[ -e "$c/bin-$key/done" ] && exit 0
		for p in make gcc pkg-config; do
			command -v "$p" >/dev/null || { echo "no $p on the host (tools/rig/deps.sh)" >&2; exit 1; }
		done
		if [ -n "$s" ] && [ -f "$s/configure.ac" ]; then
			tree=$c/build-$key
			rm -rf "$tree" && mkdir -p "$tree" && cp -a "$s/." "$tree/" || exit 1
			(cd "$tree" && make -s clean >/dev/null 2>&1)
		elif [ ! -e "$c/src-$v/done" ]; then
			tree=$c/src-$v
			rm -rf "$tree" && mkdir -p "$tree" || exit 1
			if [ -n "$s" ]; then
				git --git-dir="$s" archive "$v" | tar -C "$tree" -xf - ||
					{ echo "git archive $v of $s failed" >&2; exit 1; }
			else
				t=$c/ltp-full-$v.tar.xz
				if [ ! -s "$t" ]; then
					curl -fsSL --connect-timeout 60 -o "$t.tmp" "$ZS_LTP_URL/$v/ltp-full-$v.tar.xz" && mv "$t.tmp" "$t" || {
						rm -f "$t.tmp"
						echo "could not download $ZS_LTP_URL/$v/ltp-full-$v.tar.xz (or set ZS_LTP_SRC to an LTP tree or git directory)" >&2
						exit 1
					}
				fi
				tar -C "$tree" --strip-components=1 -xJf "$t" || { echo "$t: cannot unpack" >&2; exit 1; }
			fi
			touch "$tree/done"
		else
			tree=$c/src-$v
		fi
		log=$c/bin-$key.log
		if [ ! -x "$tree/configure" ]; then
			for p in autoconf automake; do
				command -v "$p" >/dev/null ||
					{ echo "no $p on the host: needed for LTP's make autotools (tools/rig/deps.sh)" >&2; exit 1; }
			done
		fi
		echo "building LTP $v's splice and tee tests (log: $log)" >&2
		(
			cd "$tree" &&
			{ [ -x configure ] || make autotools; } &&
			./configure LDFLAGS=-static &&
			make -j"$(nproc)" -C lib &&
			make -C testcases/kernel/syscalls/splice &&
			make -C testcases/kernel/syscalls/tee
		) >"$log" 2>&1 || { echo "LTP $v did not build (see $log)" >&2; exit 1; }
		rm -rf "$c/bin-$key.tmp" && mkdir -p "$c/bin-$key.tmp" || exit 1
		n=0
		for t in "$tree"/testcases/kernel/syscalls/splice/splice[0-9]* "$tree"/testcases/kernel/syscalls/tee/tee[0-9]*; do
			case $t in *.*) continue ;; esac
			[ -x "$t" ] || continue
			strip -o "$c/bin-$key.tmp/${t##*/}" "$t" || exit 1
			n=$((n + 1))
		done
		[ "$n" -gt 0 ] || { echo "LTP $v built no splice or tee test (see $log)" >&2; exit 1; }
		echo "$v" >"$c/bin-$key.tmp/VERSION"
		rm -rf "$c/bin-$key" && mv "$c/bin-$key.tmp" "$c/bin-$key" && touch "$c/bin-$key/done"
	) 8>"$c/bin-$key.lock" || return 1
	echo "$c/bin-$key"
}
