#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernels zsplice is tested on, and how to build for each.
#
# Usage: tools/rig/kernels.sh COMMAND [ARGS]
#   resolve SERIES     print the newest release of SERIES (6.1, 6.12 or 7)
#   fetch SERIES       make that release bootable and buildable, print it:
#                        6.1   bookworm, installed with the machine's apt
#                        6.12  bookworm, installed by deps.sh
#                        7     trixie-backports, unpacked (apt-get download +
#                              dpkg -x) into $ZS_KCACHE/<release>/ with its
#                              headers, kbuild and linux-source
#   matrix             fetch all three, print one release a line
#   chroot             create the trixie build chroot (cached)
#   exec KVER CMD...   run CMD where modules for KVER build: directly for a
#                      bookworm kernel, in the trixie chroot for a trixie one
#                      (the checkout, the kernel and $ZS_BINDS are visible
#                      there at the same paths, /proc is mounted)
#   kdir KVER          print the kernel build directory of KVER
#   apt ARGS...        apt-get with the private trixie configuration
#
# Never touches the machine's apt sources: trixie packages come through a
# private configuration under $ZS_APT (Dir::Etc, Dir::State, Dir::Cache),
# same mirror host as /etc/apt.  Versions are resolved by query, never
# hard-coded.  Run as root.
set -euo pipefail

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
case ${1:-} in -h|--help) usage 0 ;; esac

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=tools/rig/kver.sh
. "$here/kver.sh"

ZS_APT=${ZS_APT:-/var/cache/zsplice/apt-trixie}
ZS_CHROOT=${ZS_CHROOT:-/var/cache/zsplice/chroot-trixie}
# Packages in the trixie build chroot: the compiler the trixie headers were
# configured with, what their kbuild tools link against (linux-kbuild's
# Depends), sparse for the lint, dkms for the dkms test.
ZS_CHROOT_PKGS="gcc-14 gcc-14-for-host make libc6-dev libelf-dev bc kmod pahole
	libssl3t64 zlib1g xz-utils sparse dkms"

die() { echo "kernels: $*" >&2; exit 2; }
log() { echo "kernels: $*" >&2; }

# ------------------------------------------------------------- trixie apt
# The mirror host of the machine's own Debian sources.
zs_mirror() {
	local m
	m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		sed -n 's|^deb \(\[[^]]*\] \)\{0,1\}\(https\{0,1\}://[^ ]*\) bookworm .*|\2|p' | head -n 1)
	[ -n "$m" ] || m=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
		awk '/^URIs:/ { u = $2 } /^Suites:/ && / bookworm( |$)/ { print u; exit }')
	echo "${m:-http://deb.debian.org/debian}"
}

apt_setup() {
	local mirror
	mkdir -p "$ZS_APT"/etc/sources.list.d "$ZS_APT"/etc/preferences.d \
		"$ZS_APT"/state/lists/partial "$ZS_APT"/cache/archives/partial
	mirror=$(zs_mirror)
	cat >"$ZS_APT/etc/sources.list.new" <<EOF
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie-backports main
EOF
	mv "$ZS_APT/etc/sources.list.new" "$ZS_APT/etc/sources.list"
	cat >"$ZS_APT/apt.conf" <<EOF
Dir::Etc::sourcelist "$ZS_APT/etc/sources.list";
Dir::Etc::sourceparts "$ZS_APT/etc/sources.list.d";
Dir::Etc::preferencesparts "$ZS_APT/etc/preferences.d";
Dir::State "$ZS_APT/state";
Dir::State::status "$ZS_APT/state/status";
Dir::Cache "$ZS_APT/cache";
APT::Architecture "amd64";
APT::Architectures { "amd64"; };
Acquire::Languages "none";
EOF
	[ -e "$ZS_APT/state/status" ] || : >"$ZS_APT/state/status"
	# Package lists younger than 12 hours are fresh enough.
	if [ -z "$(find "$ZS_APT/state/lists" -maxdepth 1 -name '*_Packages*' -mmin -720 2>/dev/null)" ]; then
		log "apt-get update (trixie, trixie-backports from $mirror)"
		zs_apt update -qq
	fi
}

zs_apt() { APT_CONFIG=$ZS_APT/apt.conf apt-get "$@"; }
zs_apt_cache() { APT_CONFIG=$ZS_APT/apt.conf apt-cache "$@"; }

# ------------------------------------------------------------ resolving
# candidate CACHECMD PKG...: true when any PKG has a candidate version (a
# name that is only referenced does not count).  No grep -q in a pipe:
# with pipefail, apt-cache's SIGPIPE would fail it.
candidate() {
	local c=$1 out
	shift
	out=$("$c" policy "$@" 2>/dev/null) || return 1
	printf '%s\n' "$out" | grep '^  Candidate: [^(]' >/dev/null
}

# newest PREFIX REGEX CACHECMD: the newest release R for which
# linux-headers-R and linux-image-R(-unsigned) have candidates.
newest() {
	local prefix=$1 re=$2 k
	shift 2
	for k in $("$@" pkgnames "linux-headers-$prefix" | sed -n "s/^linux-headers-\($re\)\$/\1/p" | sort -rV); do
		if candidate "$1" "linux-image-$k" "linux-image-$k-unsigned" &&
		   candidate "$1" "linux-headers-$k"; then
			echo "$k"
			return 0
		fi
	done
	return 1
}

resolve() {
	case $1 in
	6.1)
		newest 6.1.0- '6\.1\.0-[0-9]*-amd64' apt-cache ||
			die "no linux-image/headers 6.1.0-*-amd64 in the machine's apt (apt-get update?)"
		;;
	6.12)
		zs_installed_kver || zs_apt_newest_kver ||
			die "no 6.12 kernel (run tools/rig/deps.sh)"
		;;
	7|7.x)
		apt_setup
		newest 7. '7\.[0-9.]*+deb1[3-9]-amd64' zs_apt_cache ||
			die "no linux-image/headers 7.*-amd64 in trixie-backports"
		;;
	*) die "unknown series $1 (6.1, 6.12 or 7)" ;;
	esac
}

# ------------------------------------------------------------- fetching
fetch_bookworm() {
	local k=$1 img need=""
	if [ -r "/boot/vmlinuz-$k" ] && [ -d "/usr/src/linux-headers-$k" ] &&
	   [ -e "/lib/modules/$k/modules.dep" ]; then
		return 0
	fi
	img=linux-image-$k-unsigned
	candidate apt-cache "$img" || img=linux-image-$k
	need="$img linux-headers-$k"
	log "installing $need (bookworm)"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null
}

# The Debian packages a trixie release is made of: image and headers, and
# the versioned linux-* packages they depend on (split image parts,
# headers-common, kbuild), not the generic ones (linux-base, compilers).
trixie_pkgs() {
	local k=$1 p img todo seen="" dep
	img=linux-image-$k-unsigned
	candidate zs_apt_cache "$img" || img=linux-image-$k
	todo="$img linux-headers-$k"
	while [ -n "$todo" ]; do
		set -- $todo
		p=$1
		shift
		todo=$*
		case " $seen " in *" $p "*) continue ;; esac
		seen="$seen $p"
		for dep in $(zs_apt_cache depends "$p" 2>/dev/null |
			     sed -n 's/^ *|\{0,1\}Depends: \(linux-[a-z]*-[^ ]*[0-9][^ ]*\)$/\1/p'); do
			todo="$todo $dep"
		done
	done
	echo "$seen"
}

# Debian's headers lack scripts/checker-valid.sh, which 7.x's Makefile runs
# before it lets C=1/C=2 use sparse (without it sparse is silently off):
# take it from the linux-source tree of the same release.
fixup() {
	local root=$1 k=$2 kb cv
	kb=$(ls -d "$root"/usr/lib/linux-kbuild-*/scripts 2>/dev/null | head -n 1)
	[ -n "$kb" ] || return 0
	[ ! -e "$kb/checker-valid.sh" ] || return 0
	for cv in "$root"/usr/src/linux-source-*/scripts/checker-valid.sh; do
		[ -e "$cv" ] && install -m 0755 "$cv" "$kb/"
		break
	done
}

fetch_trixie() {
	local k=$1 dir=$ZS_KCACHE/$1 debs src
	if [ -e "$dir/.zs-complete" ]; then
		fixup "$dir" "$k"
		return 0
	fi
	apt_setup
	mkdir -p "$ZS_KCACHE/debs"
	# shellcheck disable=SC2046
	set -- $(trixie_pkgs "$k") "linux-source-$(echo "$k" | cut -d. -f1,2)"
	log "downloading $*"
	(cd "$ZS_KCACHE/debs" && zs_apt download -qq -o APT::Sandbox::User=root "$@")
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	for p in "$@"; do
		debs=$(ls "$ZS_KCACHE/debs/${p}_"*.deb | sort -V | tail -n 1)
		dpkg -x "$debs" "$dir.tmp"
	done
	# Trixie's packages are merged-/usr and ship the image as
	# /usr/lib/modules/KVER/vmlinuz: give the tree the /lib and
	# /boot/vmlinuz-KVER of an installed kernel.
	[ -e "$dir.tmp/lib" ] || ln -s usr/lib "$dir.tmp/lib"
	if [ ! -e "$dir.tmp/boot/vmlinuz-$k" ]; then
		[ -e "$dir.tmp/usr/lib/modules/$k/vmlinuz" ] || die "no vmlinuz in $*"
		mkdir -p "$dir.tmp/boot"
		ln -s "../usr/lib/modules/$k/vmlinuz" "$dir.tmp/boot/vmlinuz-$k"
	fi
	# depmod writes the module index that the package's postinst would.
	depmod -b "$dir.tmp" "$k"
	src=$(ls "$dir.tmp"/usr/src/linux-source-*.tar.* 2>/dev/null | head -n 1)
	if [ -n "$src" ]; then
		log "unpacking $(basename "$src")"
		nice -n 19 tar -C "$dir.tmp/usr/src" -xf "$src"
		rm -f "$src"
	fi
	fixup "$dir.tmp" "$k"
	echo trixie >"$dir.tmp/.zs-suite"
	printf '%s\n' "$@" >"$dir.tmp/.zs-complete"
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
}

fetch() {
	local s=$1 k
	k=$(resolve "$s")
	case $s in
	6.1|6.12) fetch_bookworm "$k" ;;
	*)
		mkdir -p "$(dirname "$ZS_KCACHE")"
		exec 9>"$ZS_KCACHE.lock"
		flock 9
		fetch_trixie "$k"
		exec 9>&-
		;;
	esac
	echo "$k"
}

# --------------------------------------------------------- build chroot
chroot_key() {
	echo "trixie minbase $ZS_CHROOT_PKGS" | tr -s ' \t\n' ' ' | sha256sum | cut -c1-16
}

make_chroot() {
	local key tmp
	key=$(chroot_key)
	[ "$(cat "$ZS_CHROOT/.zs-key" 2>/dev/null)" = "$key" ] && return 0
	mkdir -p "$(dirname "$ZS_CHROOT")"
	exec 8>"$ZS_CHROOT.lock"
	flock 8
	[ "$(cat "$ZS_CHROOT/.zs-key" 2>/dev/null)" = "$key" ] && return 0
	command -v debootstrap >/dev/null || die "debootstrap missing (run tools/rig/deps.sh)"
	tmp=$ZS_CHROOT.tmp
	rm -rf "$tmp"
	log "debootstrap trixie into $tmp"
	nice -n 19 debootstrap --variant=minbase trixie "$tmp" "$(zs_mirror)" >"$ZS_CHROOT.log" 2>&1 ||
		{ tail -n 20 "$ZS_CHROOT.log" >&2; die "debootstrap failed (log $ZS_CHROOT.log)"; }
	log "installing $ZS_CHROOT_PKGS into the chroot"
	# shellcheck disable=SC2086
	unshare -m --propagation private sh -c '
		mount -t proc proc "$1/proc"
		shift
		DEBIAN_FRONTEND=noninteractive chroot "$0" sh -c "apt-get update -qq &&
			apt-get install -y -qq --no-install-recommends $* && apt-get clean"
	' "$tmp" "$tmp" $ZS_CHROOT_PKGS >>"$ZS_CHROOT.log" 2>&1 ||
		{ tail -n 20 "$ZS_CHROOT.log" >&2; die "chroot package install failed (log $ZS_CHROOT.log)"; }
	echo "$key" >"$tmp/.zs-key"
	rm -rf "$ZS_CHROOT"
	mv "$tmp" "$ZS_CHROOT"
	exec 8>&-
}

# exec KVER CMD...: in a private mount namespace, so nothing stays mounted.
kexec() {
	local k=$1 root d binds=()
	shift
	root=$(zs_kroot "$k") || die "kernel $k is not fetched (kernels.sh fetch ...)"
	if [ "$(cat "$root/.zs-suite" 2>/dev/null)" != trixie ]; then
		exec "$@"
	fi
	make_chroot
	binds=("$root" "$top" "$PWD")
	# The kernel's own files also at their installed paths (its headers'
	# Makefile includes /usr/src/linux-headers-*-common/Makefile; dkms
	# wants /lib/modules/KVER/build): pairs of source and chroot path.
	inst=()
	for d in "$root"/usr/src/linux-headers-* "$root"/usr/lib/linux-kbuild-* \
		 "$root/usr/lib/modules/$k"; do
		[ -d "$d" ] && inst+=("$d" "${d#"$root"}")
	done
	IFS=: read -r -a extra <<<"${ZS_BINDS:-}"
	for d in "${extra[@]+"${extra[@]}"}"; do
		[ -n "$d" ] && [ -d "$d" ] && binds+=("$(cd "$d" && pwd)")
	done
	# Paths into the kernel's tree are given as installed: the headers'
	# Makefile only works from /usr/src/linux-headers-KVER (invoked from
	# elsewhere, kbuild would write the module's objects into it).
	local args=() a
	for a in "$@"; do
		args+=("${a//"$root"\/usr\//\/usr\/}")
	done
	exec unshare -m --propagation private /bin/bash -c '
		set -e
		ch=$1 cwd=$2 n=$3
		shift 3
		mount -t proc proc "$ch/proc"
		mount --bind /dev "$ch/dev"
		mount -t tmpfs tmpfs "$ch/tmp"
		while [ "$n" -gt 0 ]; do
			mkdir -p "$ch$1"
			mount --bind "$1" "$ch$1"
			shift
			n=$((n - 1))
		done
		n=$1
		shift
		while [ "$n" -gt 0 ]; do
			mkdir -p "$ch$2"
			mount --bind "$1" "$ch$2"
			mount -o remount,bind,ro "$ch$2"
			shift 2
			n=$((n - 1))
		done
		cd "$cwd"
		exec chroot "$ch" /bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$cwd" "$@"
	' bash "$ZS_CHROOT" "$PWD" "${#binds[@]}" "${binds[@]}" \
		$((${#inst[@]} / 2)) "${inst[@]}" "${args[@]}"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
resolve) resolve "${1:?series}" ;;
fetch) fetch "${1:?series}" ;;
matrix)
	for s in 6.1 6.12 7; do fetch "$s"; done
	;;
chroot) make_chroot ;;
exec) kexec "$@" ;;
kdir) zs_kdir "${1:?KVER}" ;;
apt) apt_setup; zs_apt "$@" ;;
*) usage ;;
esac
