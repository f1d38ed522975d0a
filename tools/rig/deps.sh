#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything zsplice needs to build, test and benchmark on Debian
# bookworm.  Idempotent: when everything is present it only resolves the
# kernel version and exits.  Run as root.  On a machine without apt-get
# (not Debian) it installs nothing: it lists what is missing, by tool and
# Debian package, and exits 1.
#
# Usage: tools/rig/deps.sh [--check]
#   --check      report what is missing and exit 1 if anything is, install
#                nothing
#   -h, --help   this text
set -eu

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
check_only=0
case ${1:-} in
-h|--help) usage 0 ;;
--check) check_only=1 ;;
"") ;;
*) usage ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/rig/kver.sh
. "$here/kver.sh"

base_pkgs="build-essential bc kmod cpio xz-utils zstd qemu-system-x86
	busybox-static stress-ng fio liburing-dev libkmod-dev libjson-c-dev pkg-config
	gnuplot-nox trinity dkms sparse e2fsprogs iproute2 perl python3
	debootstrap rsync pv libssl-dev python3-docutils autoconf automake"

# What stands for each package where there is no dpkg to ask: a command,
# a path, or pc=NAME (a pkg-config module).
declare -A probe=([build-essential]=gcc [bc]=bc [kmod]=modprobe [cpio]=cpio
	[xz-utils]=xz [zstd]=zstd [qemu-system-x86]=qemu-system-x86_64
	[busybox-static]=busybox [stress-ng]=stress-ng [fio]=fio
	[liburing-dev]=pc=liburing [libkmod-dev]=pc=libkmod
	[libjson-c-dev]=pc=json-c [pkg-config]=pkg-config [gnuplot-nox]=gnuplot
	[trinity]=trinity [dkms]=dkms [sparse]=sparse [e2fsprogs]=mke2fs
	[iproute2]=ip [perl]=perl [python3]=python3 [debootstrap]=debootstrap
	[rsync]=rsync [pv]=pv [libssl-dev]=pc=libssl [python3-docutils]=rst2man
	[autoconf]=autoconf [automake]=automake
	[linux-source-6.12]=/usr/src/linux-source-6.12)

# missing_pkgs PKG...: the packages not installed (dpkg), or, without dpkg,
# those whose probe fails, as "PKG" or "PKG (PROBE)" lines.
missing_pkgs() {
	local p t
	for p in "$@"; do
		if command -v dpkg-query >/dev/null; then
			dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
				grep -q '^install ok installed$' || echo "$p"
			continue
		fi
		t=${probe[$p]}
		case $t in
		pc=*) pkg-config --exists "${t#pc=}" 2>/dev/null ;;
		/*) [ -e "$t" ] ;;
		*) command -v "$t" >/dev/null || [ -x "/sbin/$t" ] || [ -x "/usr/sbin/$t" ] ;;
		esac || echo "$p (${t#pc=})"
	done
}

# report: what is missing, one kind a line, on stderr.
report() {
	echo "deps: missing:"
	[ -z "$need" ] || printf '%s\n' "$need" | sed 's/^/deps:   Debian package /'
	[ -n "$kver" ] || echo "deps:   a Debian 6.12.*+deb12-amd64 kernel: /boot/vmlinuz-* with its linux-headers"
	[ -f "$(zs_src_tree)/tools/testing/selftests/kselftest_harness.h" ] ||
		echo "deps:   the unpacked linux-source-6.12 tree ($(zs_src_tree))"
} >&2

# Kernel packages: an installed 6.12 Debian kernel with headers and
# /boot/vmlinuz is enough; otherwise resolve the newest from apt.
kver=$(zs_installed_kver || true)
# shellcheck disable=SC2086
need=$(missing_pkgs $base_pkgs linux-source-6.12)
if [ -z "$need" ] && [ -n "$kver" ] && [ -d /usr/src/linux-source-6.12 ] &&
   [ -f "$(zs_src_tree)/tools/testing/selftests/kselftest_harness.h" ]; then
	exit 0
fi
if [ "$check_only" = 1 ]; then
	report
	exit 1
fi
if ! command -v apt-get >/dev/null; then
	report
	echo "deps: no apt-get here (zsplice's rig wants Debian bookworm): nothing installed;" \
		"install the equivalents of the above, or run on Debian bookworm" >&2
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	report
	echo "deps: not root: run as root to install them" >&2
	exit 1
fi
need=$(printf '%s\n' "$need" | xargs)

export DEBIAN_FRONTEND=noninteractive
echo "deps: apt-get update" >&2
apt-get update -qq
if [ -z "$kver" ]; then
	kver=$(zs_apt_newest_kver)
	if [ -z "$kver" ]; then
		echo "deps: no linux-image/headers 6.12.*+deb12-amd64 pair in apt" >&2
		exit 1
	fi
	img=linux-image-$kver
	zs_apt_has "$img" || img=linux-image-$kver-unsigned
	need="$need $img linux-headers-$kver"
fi
echo "deps: installing $need" >&2
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $need >/dev/null
zs_unpack_source
echo "deps: ready (kernel $kver)" >&2
