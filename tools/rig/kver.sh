# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers to find the Debian 6.12 kernel the guest boots.  Sourced by
# deps.sh and run.sh.  Never hard-code the ABI number: it changes with
# every security update.

ZS_SRC_BASE=/usr/src/linux-source-6.12

# Newest installed 6.12.*+deb12-amd64 kernel that has both a bootable
# image and its headers.
zs_installed_kver() {
	local k best=""
	for k in /boot/vmlinuz-6.12.*+deb12-amd64; do
		[ -r "$k" ] || continue
		k=${k#/boot/vmlinuz-}
		[ -d "/usr/src/linux-headers-$k" ] || continue
		best=$(printf '%s\n%s\n' "$best" "$k" | sed '/^$/d' | sort -V | tail -n 1)
	done
	[ -n "$best" ] && echo "$best"
}

# True when apt can install package $1 (a name that is only referenced,
# with no candidate version, does not count).
zs_apt_has() {
	apt-cache policy "$1" 2>/dev/null | grep -q '^  Candidate: [^(]'
}

# Newest 6.12.*+deb12-amd64 ABI for which apt has headers and an image
# (signed or unsigned).  Needs a fresh apt-get update.
zs_apt_newest_kver() {
	local k
	for k in $(apt-cache pkgnames linux-headers-6.12. |
		   sed -n 's/^linux-headers-\(6\.12\.[0-9]*+deb12-amd64\)$/\1/p' |
		   sort -rV); do
		if zs_apt_has "linux-image-$k" ||
		   zs_apt_has "linux-image-$k-unsigned"; then
			echo "$k"
			return 0
		fi
	done
	return 1
}

# The unpacked linux-source-6.12 tree (kselftest_harness.h, checkpatch.pl).
zs_src_tree() {
	echo "$ZS_SRC_BASE/linux-source-6.12"
}

zs_unpack_source() {
	local tarball tree
	tree=$(zs_src_tree)
	[ -f "$tree/tools/testing/selftests/kselftest_harness.h" ] && return 0
	tarball=$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n 1)
	[ -n "$tarball" ] || { echo "deps: linux-source-6.12 tarball missing" >&2; return 1; }
	mkdir -p "$ZS_SRC_BASE"
	echo "deps: unpacking $tarball" >&2
	tar -C "$ZS_SRC_BASE" -xf "$tarball"
}

# Kernels that are not installed on the machine (trixie ones) are unpacked
# by kernels.sh into $ZS_KCACHE/<release>/ (boot/, lib/modules/, usr/src/).
ZS_KCACHE=${ZS_KCACHE:-/var/cache/zsplice/kernels}

# The root that holds boot/vmlinuz-KVER and lib/modules/KVER: empty for an
# installed kernel, the cache directory for an unpacked one.
zs_kroot() {
	if [ -r "/boot/vmlinuz-$1" ] && [ -d "/lib/modules/$1" ]; then
		echo ""
	elif [ -r "$ZS_KCACHE/$1/boot/vmlinuz-$1" ] && [ -e "$ZS_KCACHE/$1/.zs-complete" ]; then
		echo "$ZS_KCACHE/$1"
	else
		return 1
	fi
}

# The kernel build directory (headers) of KVER.
zs_kdir() {
	local root
	root=$(zs_kroot "$1") || { echo "/lib/modules/$1/build"; return 0; }
	if [ -z "$root" ]; then
		echo "/lib/modules/$1/build"
	else
		echo "$root/usr/src/linux-headers-$1"
	fi
}

# zs_make KVER MAKE-ARGS...: make in the top directory for kernel KVER, an
# installed or an unpacked one: the top Makefile resolves only installed
# build trees by itself, so the rig passes KDIR, and for a kernel built by
# trixie's toolchain the wrapper that runs kbuild in the cached chroot.
zs_make() {
	local kver=$1 rig
	shift
	rig=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	if [ "$(cat "$ZS_KCACHE/$kver/.zs-suite" 2>/dev/null)" = trixie ]; then
		set -- "ZS_KEXEC=bash $rig/kernels.sh exec $kver" "$@"
	fi
	make -C "$rig/../.." "KVER=$kver" "KDIR=$(zs_kdir "$kver")" "$@"
}

# The per-program timeout that kselftest's runner enforces (the
# "timeout=" of selftests/settings): the guest runners use the same one.
zs_test_timeout() {
	local rig
	rig=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	sed -n 's/^timeout=\([0-9][0-9]*\)$/\1/p' "$rig/../../selftests/settings"
}

# zs_check_minutes NAME VALUE: VALUE is a budget in whole minutes, at
# least 1; otherwise say so, naming the variable NAME, and fail.
zs_check_minutes() {
	[[ $2 =~ ^[1-9][0-9]*$ ]] && return 0
	echo "${0##*/}: $1 wants whole minutes, at least 1 (got '$2')" >&2
	return 1
}

# zs_suite_cmd [SECONDS]: the guest command of the suite that
# ksft-install.sh --suite stages in /zs/ksft: load the module, the
# kselftests, the zsbench smoke test, unload, each run_kselftest.sh call
# with -o SECONDS when given.
zs_suite_cmd() {
	local r=/zs/ksft/run_kselftest.sh o=${1:+ -o $1}
	echo "$r -t rig:load.sh$o; $r -c zsplice$o; $r -t zsbench:smoke.sh$o; $r -t rig:unload.sh$o"
}
