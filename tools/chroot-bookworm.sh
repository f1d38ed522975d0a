#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A clean Debian bookworm chroot (debootstrap --variant=minbase) with only
# what a user building zsplice has: build-essential, kmod, libkmod-dev,
# liburing-dev, libjson-c-dev, pkg-config, python3-docutils (rst2man, for
# the man pages of make install) and the linux-headers package of one kernel.
# Used by the clean-machine checks (quick start, Debian package).
#
# Usage: tools/chroot-bookworm.sh COMMAND [KVER] [-- CMD]   (run as root)
#   base [KVER]          create (once) and print the base
#   run [KVER] -- CMD    run CMD (bash -c) as root in a throw-away copy of
#                        the base, with this tree's committed files (git
#                        archive HEAD, or ZS_CHROOT_REV) in /src
#   quickstart [KVER]    the README quick start there: make && make
#                        install, modinfo
#   deb [KVER]           dpkg-buildpackage -us -uc -b there (plus the build
#                        dependencies), install the .debs, dkms status,
#                        modinfo
#   -h, --help           this text
# KVER defaults to the guest's kernel (the newest installed 6.12 Debian
# kernel).  quickstart and deb print KTAP (the kernel's ktap_helpers.sh).
#
# The base lives in /var/cache/zsplice/chroot-bookworm/<key>/root, keyed by
# the package list and the kernel; it is never changed after it is built.
# Every run works on an overlay (a copy where overlayfs is unavailable) that
# is deleted afterwards.  Packages downloaded inside runs are kept in
# /var/cache/zsplice/chroot-bookworm/archives.  Extra packages for one run:
# ZS_CHROOT_EXTRA="debhelper dh-dkms".  ZS_CHROOT_KEEP=1 keeps the run's
# directory (its path is printed).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=/var/cache/zsplice/chroot-bookworm
mirror=${ZS_MIRROR:-http://deb.debian.org/debian}
security=${ZS_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
pkgs="build-essential kmod libkmod-dev liburing-dev libjson-c-dev pkg-config python3-docutils"

die() { echo "chroot-bookworm: $*" >&2; exit 1; }
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
case ${1:-} in
base|run|quickstart|deb) ;;
-h|--help) usage 0 ;;
*) usage ;;
esac
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, mounts)"

# Default kernel: the guest's (newest installed 6.12 Debian kernel).
default_kver() {
	# shellcheck source=../tools/rig/kver.sh
	. "$top/tools/rig/kver.sh"
	zs_installed_kver || die "no 6.12.*+deb12-amd64 kernel installed; give KVER"
}

# Mount the pseudo file systems a build and apt need; undone by umount_all.
mounted=()
mount_all() {
	local r=$1
	mount -t proc proc "$r/proc" && mounted+=("$r/proc")
	mount -t sysfs sys "$r/sys" && mounted+=("$r/sys")
	mount --bind /dev "$r/dev" && mounted+=("$r/dev")
	mount --bind /dev/pts "$r/dev/pts" && mounted+=("$r/dev/pts")
	mkdir -p "$cache/archives/partial" "$r/var/cache/apt/archives"
	mount --bind "$cache/archives" "$r/var/cache/apt/archives" &&
		mounted+=("$r/var/cache/apt/archives")
}
umount_all() {
	local i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount -l "${mounted[i]}" 2>/dev/null || true
	done
	mounted=()
}

in_chroot() { # ROOT CMD
	local r=$1
	shift
	chroot "$r" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive /bin/bash -c "$1"
}

base() { # KVER -> prints the base root
	local kver=$1 key dir tmp
	key=$(printf '%s\n' "bookworm minbase" "$pkgs" "linux-headers-$kver" "v1" |
	      sha256sum | cut -c1-16)
	dir=$cache/$key
	if [ -f "$dir/done" ]; then
		echo "$dir/root"
		return 0
	fi
	command -v debootstrap >/dev/null ||
		die "debootstrap missing: apt-get install debootstrap"
	mkdir -p "$cache"
	exec 9>"$cache/.lock"
	flock 9
	if [ ! -f "$dir/done" ]; then
		tmp=$dir.tmp.$$
		rm -rf "$tmp"
		mkdir -p "$tmp"
		echo "chroot-bookworm: debootstrap bookworm into $tmp (key $key)" >&2
		nice -n 19 debootstrap --variant=minbase \
			--include="$(echo "$pkgs" | tr ' ' ,)" \
			bookworm "$tmp/root" "$mirror" >"$tmp/debootstrap.log" 2>&1 ||
			{ tail -n 20 "$tmp/debootstrap.log" >&2; die "debootstrap failed"; }
		cat >"$tmp/root/etc/apt/sources.list" <<SRC
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
SRC
		trap umount_all EXIT
		mount_all "$tmp/root"
		in_chroot "$tmp/root" "apt-get update -q && nice -n 19 apt-get install -y -q --no-install-recommends linux-headers-$kver" \
			>"$tmp/headers.log" 2>&1 ||
			{ umount_all; tail -n 20 "$tmp/headers.log" >&2; die "headers install failed"; }
		in_chroot "$tmp/root" "apt-get clean; dpkg-query -W -f '\${Package} \${Version}\n'" >"$tmp/packages"
		umount_all
		trap - EXIT
		echo "$kver" >"$tmp/kver"
		touch "$tmp/done"
		rm -rf "$dir"
		mv "$tmp" "$dir"
		echo "chroot-bookworm: base ready: $dir/root ($(wc -l <"$dir/packages") packages)" >&2
	fi
	exec 9>&-
	echo "$dir/root"
}

work=
run() { # KVER CMD
	local kver=$1 cmd=$2 b r
	b=$(base "$kver")
	work=$(mktemp -d /var/tmp/zsplice-chroot.XXXXXX)
	mkdir -p "$work/upper" "$work/work" "$work/root"
	if ! mount -t overlay overlay -o "lowerdir=$b,upperdir=$work/upper,workdir=$work/work" \
		"$work/root" 2>/dev/null; then
		rmdir "$work/root"
		cp -a "$b" "$work/root"
	else
		mounted+=("$work/root")
	fi
	r=$work/root
	cleanup() {
		umount_all
		if [ "${ZS_CHROOT_KEEP:-0}" = 1 ]; then
			echo "chroot-bookworm: kept $work" >&2
		else
			rm -rf "$work"
		fi
	}
	trap cleanup EXIT
	mount_all "$r"
	mkdir -p "$r/src"
	git -C "$top" archive "${ZS_CHROOT_REV:-HEAD}" | tar -C "$r/src" -x
	if [ -n "${ZS_CHROOT_EXTRA:-}" ]; then
		in_chroot "$r" "apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends $ZS_CHROOT_EXTRA" \
			>"$work/extra.log" 2>&1 ||
			{ tail -n 20 "$work/extra.log" >&2; die "installing $ZS_CHROOT_EXTRA failed"; }
	fi
	in_chroot "$r" "cd /src && $cmd"
}

# The checks: commands run in the chroot, whose lines "ZS-OK text" and
# "ZS-FAIL text" become KTAP results; the rest is shown as diagnostics.
check() { # KVER PLAN CMD
	local kver=$1 plan=$2 cmd=$3
	# shellcheck source=../tools/rig/kver.sh
	. "$top/tools/rig/kver.sh"
	. "${KSFT_DIR:-$(zs_src_tree)/tools/testing/selftests}/kselftest/ktap_helpers.sh"
	ktap_print_header
	ktap_set_plan "$plan"
	while IFS= read -r line; do
		case $line in
		ZS-OK\ *) ktap_test_pass "${line#ZS-OK }" ;;
		ZS-FAIL\ *) ktap_test_fail "${line#ZS-FAIL }" ;;
		*) ktap_print_msg "$line" ;;
		esac
	done < <(run "$kver" "$cmd" 2>&1)
	ktap_finished
}
# t TEXT CMD: one result line for check(); CMD's output shows only when it
# fails.
t_fn='t() {
	local d=$1
	shift
	if "$@" >/tmp/t.log 2>&1; then
		echo "ZS-OK $d"
	else
		tail -n 30 /tmp/t.log
		echo "ZS-FAIL $d"
	fi
}
kv=$(ls /lib/modules | sort -V | tail -n 1)
ver=$(cat VERSION)
'

quickstart_cmd="$t_fn"'
echo "packages: $(dpkg-query -W | wc -l), kernel headers $kv, no kernel source tree"
t "make (module and zsbench)" make -j2
t "make install" make install
t "modinfo of the installed module" modinfo -k "$kv" zsplice
modinfo -k "$kv" zsplice | grep -E "^(filename|version|vermagic)"
t "zsbench installed and runs" zsbench --help
t "uapi header and zsplice.pc installed" pkg-config --cflags zsplice
make selftests >/tmp/selftests.log 2>&1
st=$?
grep missing /tmp/selftests.log
t "make selftests fails (status $st) and says what is missing" \
	grep -q "missing kselftest" /tmp/selftests.log
'
deb_cmd="$t_fn"'
t "dpkg-buildpackage -us -uc -b" dpkg-buildpackage -us -uc -b
ls -l /*.deb
t "apt-get install the zsplice-dkms and zsbench .debs" apt-get install -y -q \
	--no-install-recommends "/zsplice-dkms_${ver}_all.deb" "/zsbench_${ver}_amd64.deb"
dkms status 2>/dev/null
t "dkms built and installed zsplice/$ver for $kv" \
	grep -q "^zsplice/$ver, $kv, .*: installed" <(dkms status 2>/dev/null)
modinfo -k "$kv" zsplice | grep -E "^(filename|version|vermagic)"
t "modinfo of the dkms module: version $ver" \
	grep -qx "$ver" <(modinfo -k "$kv" -F version zsplice)
t "zsplice(4), zsbench(1), completion, header, zsplice.pc installed" \
	test -f /usr/share/man/man4/zsplice.4.gz -a -f /usr/share/man/man1/zsbench.1.gz \
	-a -f /usr/share/bash-completion/completions/zsbench \
	-a -f /usr/include/zsplice/zsplice.h -a -f /usr/share/pkgconfig/zsplice.pc
'

what=${1:-}
shift || true
kver=""
if [ $# -gt 0 ] && [ "$1" != "--" ]; then kver=$1; shift; fi
[ -n "$kver" ] || kver=$(default_kver)
case $what in
base) base "$kver" ;;
run)
	[ "${1:-}" = "--" ] && shift
	[ $# -gt 0 ] || die "run: no command"
	run "$kver" "$*"
	;;
quickstart) check "$kver" 6 "$quickstart_cmd" ;;
deb) ZS_CHROOT_EXTRA="debhelper dh-dkms" check "$kver" 5 "$deb_cmd" ;;
*) usage ;;
esac
