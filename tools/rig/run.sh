#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# zsvm: run one command as root in a QEMU guest booting a Debian kernel from
# an initramfs, and bring back its exit status, its output and files.
#
# Usage: run.sh [options] -- 'guest shell command'
#   --kver KVER         guest kernel (default $KVER, else newest installed 6.12)
#   --kimage BZIMAGE    boot this kernel image instead of /boot/vmlinuz-KVER
#                       (default $KIMAGE), e.g. one from tools/kbuild/
#   --kmods DIR         its modules, installed with INSTALL_MOD_PATH=DIR
#                       (default $KMODS); KVER is then DIR/lib/modules/*
#   --cpus N            vCPUs (default 2)
#   --possible N        N possible CPUs (N >= --cpus; the others absent,
#                       hot-pluggable): QEMU -smp maxcpus=N plus an ACPI
#                       MADT override in the initrd marking the absent
#                       CPUs online-capable, which Linux needs under TCG
#   --mem SIZE          guest memory (default 2G)
#   --timeout SEC       hard timeout for the whole run (default 1200)
#   --out DIR           logs: console.log, output.log, collected files
#   --file HOST[:GUEST] copy HOST into the guest (default /zs/; GUEST ending
#                       in / is a directory); repeatable.  Shared libraries
#                       of executables come along (ldd).
#   --collect PATH      bring guest file PATH back into DIR; repeatable
#   --append ARGS       extra guest kernel command line (e.g. mitigations=off)
#   --icount            deterministic guest time: TCG, one host thread,
#                       -icount shift=0,sleep=off (1 guest ns per executed
#                       instruction; zsbench run --icount measures in it)
#   --interactive       busybox shell on the serial console (make vm-shell)
#   --quiet             do not stream the guest output to stdout
#
# Environment: VM_ACCEL=tcg|kvm forces the accelerator (default: KVM when a
# probe boot works, cached in the build dir), ZSVM_BUILD=DIR the build dir,
# ZSVM_LOCK=PATH the guest lock (default /run/lock/zsplice-vm.lock, or in
# $TMPDIR without /run/lock), ZSVM_LOCK=none to boot without waiting.
#
# One guest at a time: every boot of the rig (make check, the soak, the
# perf gate, make bench, mem-check, check-debug, check-lkp) goes through
# this script, which holds the lock from the boot to the guest's end, so
# that two of them started on one machine do not share its CPUs and
# measure each other.  The wait does not count against --timeout.  Callers
# take no lock of their own: a caller holding it would wait here forever.
# An --interactive guest takes none (a shell left open would stop every
# other run).
#
# Exit status: the guest command's status; 124 hard timeout; 4 no exit
# status reported; 3 kernel splat (BUG, WARNING, Oops, hung task, ...) even
# when the command passed; 2 usage or setup error.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tools/rig/kver.sh
. "$here/kver.sh"

build=${ZSVM_BUILD:-$here/.build}
kver=${KVER:-}
kimage=${KIMAGE:-}
kmods=${KMODS:-}
cpus=2
possible=
mem=2G
timeout=1200
out=
interactive=0
icount=0
quiet=0
files=()
collects=()
extra_append=

die() { echo "zsvm: $*" >&2; exit 2; }
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
	--kver) kver=$2; shift 2 ;;
	--kimage) kimage=$2; shift 2 ;;
	--kmods) kmods=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	--possible) possible=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--file) files+=("$2"); shift 2 ;;
	--collect) collects+=("$2"); shift 2 ;;
	--append) extra_append="$extra_append $2"; shift 2 ;;
	--interactive) interactive=1; shift ;;
	--icount) icount=1; shift ;;
	--quiet) quiet=1; shift ;;
	-h|--help) usage 0 ;;
	--) shift; break ;;
	*) die "unknown option $1 (see --help)" ;;
	esac
done
cmd=${*:-}
[ -n "$cmd" ] || [ "$interactive" = 1 ] || die "no guest command (run.sh [options] -- 'command')"
[[ $timeout =~ ^[0-9]+$ ]] || die "--timeout wants seconds"
if [ -n "$kimage" ]; then
	# A kernel of our own (tools/kbuild/build.sh): modules from --kmods.
	[ -r "$kimage" ] || die "--kimage $kimage missing"
	[ -n "$kmods" ] || die "--kimage needs --kmods DIR (its INSTALL_MOD_PATH)"
	kmods=$(cd "$kmods" && pwd) || die "--kmods $kmods missing"
	kver=$(ls "$kmods/lib/modules" 2>/dev/null | head -n 1)
	[ -n "$kver" ] || die "no $kmods/lib/modules/<release>"
	kernel=$kimage
else
	[ -n "$kver" ] || kver=$(zs_installed_kver) ||
		die "no 6.12.*+deb12-amd64 kernel with headers installed (run tools/rig/deps.sh)"
	# An installed kernel, or one unpacked by kernels.sh under $ZS_KCACHE.
	kmods=$(zs_kroot "$kver") ||
		die "kernel $kver is neither installed nor unpacked (tools/rig/kernels.sh fetch SERIES)"
	kernel=$kmods/boot/vmlinuz-$kver
fi
moddir=${kmods:+$kmods}/lib/modules/$kver
[ -r "$kernel" ] || die "$kernel missing"
[ -d "$moddir" ] || die "$moddir missing"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing (run tools/rig/deps.sh)"

mkdir -p "$build"
if [ -z "$out" ]; then
	out=$(mktemp -d "$build/run.XXXXXX")
else
	mkdir -p "$out"
fi
out=$(cd "$out" && pwd)

# ---------------------------------------------------------------- base cpio
# Host files that make up the base: busybox, bash, kmod, stress-ng, fio,
# trinity, mke2fs (also as mkfs.ext4), coreutils' timeout (kselftest's
# runner wants its --foreground) and their libraries, the guest
# kernel's module index and the modules that ext4 and loop need (unless
# built in).
base_bins() {
	local b
	for b in busybox bash kmod stress-ng fio trinity mke2fs timeout; do
		command -v "$b" || echo "zsvm: warning: $b not installed, not in guest" >&2
	done
}

# Shared libraries of the executables given, one path a line (ldd).
libs_of() {
	local f
	for f in "$@"; do
		[ -x "$f" ] && [ -f "$f" ] || continue
		{ ldd "$f" 2>/dev/null || true; } | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// && $1 !~ /:$/ { print $1 }'
	done | sort -u
}

# Module files (relative to /lib/modules/KVER) for ext4 and loop with their
# dependencies and soft dependencies; modules built in need none (modprobe
# then prints "builtin NAME").
guest_modules() {
	local m
	for m in ext4 loop; do
		modprobe ${kmods:+-d "$kmods"} -S "$kver" --show-depends "$m" 2>/dev/null |
			sed -n "s|^insmod $moddir/\([^ ]*\).*|\1|p"
	done | sort -u
}

# Copy host file $1 into staging root $2 at its resolved location (so that
# /lib -> usr/lib style symlinked directories stay symlinks in the guest);
# $3 overrides the guest path.
stage_file() {
	local src=$1 root=$2 dst=${3:-}
	if [ -z "$dst" ]; then
		dst=$(readlink -f "$(dirname "$src")")/$(basename "$src")
	fi
	mkdir -p "$root$(dirname "$dst")"
	cp -L --preserve=mode "$src" "$root$dst"
}

build_base() {
	local stage=$1 b f
	rm -rf "$stage"
	mkdir -p "$stage"
	# Merged /usr like the host: bin, sbin, lib, lib64 are symlinks.
	(cd "$stage" && mkdir -p usr/bin usr/sbin usr/lib usr/lib64 etc proc sys dev tmp run root \
		zs/bin mnt var/tmp "usr/lib/modules/$kver" &&
		ln -s usr/bin bin && ln -s usr/sbin sbin && ln -s usr/lib lib && ln -s usr/lib64 lib64)
	for b in $(base_bins); do
		stage_file "$b" "$stage" "/usr/bin/$(basename "$b")"
	done
	# shellcheck disable=SC2046 # one path a word
	libs_of $(base_bins 2>/dev/null) >"$build/base-libs-$kver"
	for f in $(cat "$build/base-libs-$kver"); do
		stage_file "$f" "$stage"
	done
	# ld.so at the path the binaries ask for.
	[ -e /lib64/ld-linux-x86-64.so.2 ] && stage_file /lib64/ld-linux-x86-64.so.2 "$stage"
	for b in $("$stage/usr/bin/busybox" --list); do
		case $b in busybox|init|linuxrc) continue ;; esac
		[ -e "$stage/usr/bin/$b" ] || ln -s busybox "$stage/usr/bin/$b"
	done
	for b in insmod rmmod modprobe depmod lsmod modinfo; do
		rm -f "$stage/usr/bin/$b"
		ln -s kmod "$stage/usr/bin/$b"
		ln -s ../bin/kmod "$stage/usr/sbin/$b"
	done
	if [ -e "$stage/usr/bin/mke2fs" ]; then
		for b in mkfs.ext2 mkfs.ext3 mkfs.ext4; do
			rm -f "$stage/usr/bin/$b"
			ln -s mke2fs "$stage/usr/bin/$b" 2>/dev/null || true
		done
	fi
	for f in "$moddir"/modules.*; do
		cp "$f" "$stage/usr/lib/modules/$kver/"
	done
	for f in $(guest_modules); do
		mkdir -p "$stage/usr/lib/modules/$kver/$(dirname "$f")"
		cp "$moddir/$f" "$stage/usr/lib/modules/$kver/$f"
	done
	printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' \
		>"$stage/etc/passwd"
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$stage/etc/group"
	printf 'hosts: files\n' >"$stage/etc/nsswitch.conf"
	printf '127.0.0.1 localhost zsvm\n::1 localhost\n' >"$stage/etc/hosts"
	: >"$stage/etc/mtab"
	install -m 0755 "$here/init.sh" "$stage/init"
	chmod 1777 "$stage/tmp" "$stage/var/tmp"
}

# The base is rebuilt when any input changes: the list of input files with
# sizes and mtimes, this script and the guest init.
base_key() {
	{
		echo "$kver $kernel"
		local f
		# shellcheck disable=SC2046 # one path a word
		for f in $(base_bins 2>/dev/null) $(libs_of $(base_bins 2>/dev/null)) \
			 "$moddir"/modules.* "$kernel" "$here/run.sh" "$here/init.sh"; do
			stat -L -c '%n %s %Y' "$f"
		done
		guest_modules
	} | sha256sum | cut -c1-16
}

base=$build/base-$kver.cpio
key=$(base_key)
if [ "$(cat "$base.key" 2>/dev/null)" != "$key" ] || [ ! -s "$base" ]; then
	[ "$quiet" = 1 ] || echo "zsvm: building base initramfs for $kver" >&2
	# Private names until the final rename: runs may build concurrently.
	build_base "$build/base-$kver.d.$$"
	(cd "$build/base-$kver.d.$$" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --quiet) >"$base.tmp.$$"
	mv "$base.tmp.$$" "$base"
	echo "$key" >"$base.key"
	rm -rf "$build/base-$kver.d.$$"
fi

# ------------------------------------------------------------ per-run cpio
stage=$out/.stage
rm -rf "$stage"
mkdir -p "$stage/zs/bin"
for spec in "${files[@]+"${files[@]}"}"; do
	src=${spec%%:*}
	if [ "$src" != "$spec" ]; then dst=${spec#*:}; else dst=/zs/; fi
	[ -e "$src" ] || die "--file $src: no such file"
	case $dst in
	*/) dst=$dst$(basename "$src") ;;
	esac
	mkdir -p "$stage$(dirname "$dst")"
	cp -rL --preserve=mode "$src" "$stage$dst"
	if [ -f "$src" ] && [ -x "$src" ]; then
		for f in $(libs_of "$src"); do
			# Already in the base?  Then skip.
			[ -e "$build/base-libs-$kver" ] && grep -qxF "$f" "$build/base-libs-$kver" && continue
			stage_file "$f" "$stage"
		done
	fi
done
printf '%s\n' "$cmd" >"$stage/zs/cmd"
if [ ${#collects[@]} -gt 0 ]; then
	printf '%s\n' "${collects[@]}" >"$stage/zs/collect"
fi
[ "$interactive" = 1 ] && : >"$stage/zs/interactive"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$out/run.cpio"
# --possible N: QEMU lists the absent CPUs as disabled MADT entries, which
# Linux (6.9+) counts as hot-pluggable only when the FADT says ACPI 6.3+ and
# the entry is online-capable, or on a known hypervisor -- never under TCG.
# So the initrd carries upgraded tables (CONFIG_ACPI_TABLE_UPGRADE, first
# uncompressed archive): QEMU's own FADT (read once by a probe boot of the
# same machine, cached) raised to revision 6.3, and an MADT like QEMU's pc
# one (a local APIC per possible CPU, IO APIC, ISA overrides, LAPIC NMI)
# with the absent CPUs online-capable.
acpi_cpio() {
	local dir=$out/.acpi facp
	facp=$build/facp-$(qemu-system-x86_64 --version | head -n 1 | tr -cd '0-9.')-$mem-$cpus-$possible-$accel.bin
	if [ ! -s "$facp" ]; then
		"$0" --kver "$kver" --cpus "$cpus,maxcpus=$possible" --mem "$mem" --quiet \
			--out "$out/.probe" --timeout 300 \
			--collect /sys/firmware/acpi/tables/FACP -- true >/dev/null 2>&1 ||
			die "--possible: probe boot failed (see $out/.probe)"
		mv "$out/.probe/FACP" "$facp.$$" && mv "$facp.$$" "$facp"
		rm -rf "$out/.probe"
	fi
	rm -rf "$dir"
	mkdir -p "$dir/kernel/firmware/acpi"
	python3 "$here/acpi-tables.py" "$cpus" "$possible" "$facp" "$dir/kernel/firmware/acpi"
	(cd "$dir" && find kernel | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet)
	rm -rf "$dir"
}
smp=$cpus
if [ -n "$possible" ]; then
	[[ $possible =~ ^[0-9]+$ ]] && [[ $cpus =~ ^[0-9]+$ ]] && [ "$possible" -ge "$cpus" ] &&
		[ "$possible" -le 254 ] || die "--possible wants a CPU count from --cpus to 254"
	smp="$cpus,maxcpus=$possible"
fi
cat "$base" "$out/run.cpio" >"$out/initrd.cpio"
rm -rf "$stage" "$out/run.cpio"

# ------------------------------------------------------------ accelerator
# KVM only when a probe boot of the guest kernel gets as far as panicking
# for lack of a root fs; some hosts' KVM cannot run a stock guest.
probe_kvm() {
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || return 1
	local log=$build/kvm-probe.log
	rm -f "$log"
	timeout 20 qemu-system-x86_64 -accel kvm -cpu host -m 256 -smp 1 -nodefaults \
		-display none -monitor none -no-reboot -serial "file:$log" \
		-kernel "$kernel" -append 'console=ttyS0 panic=-1' >/dev/null 2>&1 || true
	grep -q 'Kernel panic' "$log" 2>/dev/null
}

accel=${VM_ACCEL:-}
# -icount needs TCG (and single-threaded TCG: the vCPUs take turns).
if [ "$icount" = 1 ]; then
	[ -z "$accel" ] || [ "$accel" = tcg ] || die "--icount needs TCG, not VM_ACCEL=$accel"
	accel=tcg
fi
if [ -z "$accel" ]; then
	verdict=$build/accel-$(uname -r)
	if [ ! -s "$verdict" ]; then
		if probe_kvm; then echo kvm >"$verdict"; else echo tcg >"$verdict"; fi
	fi
	accel=$(cat "$verdict")
fi
# shellcheck disable=SC2054 # QEMU's option values have commas
case $accel in
kvm) accel_args=(-accel kvm -cpu host) ;;
tcg) accel_args=(-accel tcg,thread=multi -cpu max) ;;
*) die "VM_ACCEL must be tcg or kvm" ;;
esac
if [ "$icount" = 1 ]; then
	# shellcheck disable=SC2054
	accel_args=(-accel tcg,thread=single -cpu max -icount shift=0,sleep=off)
	icount_label=" -icount"
fi

if [ -n "$possible" ]; then
	acpi_cpio >"$out/acpi.cpio"
	cat "$out/acpi.cpio" "$out/initrd.cpio" >"$out/initrd.tmp" && mv "$out/initrd.tmp" "$out/initrd.cpio"
	rm -f "$out/acpi.cpio"
fi

# ------------------------------------------------------------------- boot
append="console=ttyS0,115200 panic=-1 rdinit=/init loglevel=7 printk.time=1$extra_append"
qemu=(qemu-system-x86_64 "${accel_args[@]}" -smp "$smp" -m "$mem" -nodefaults -no-reboot
      -display none -kernel "$kernel" -initrd "$out/initrd.cpio" -append "$append")

: >"$out/console.log"
: >"$out/output.log"

if [ "$interactive" = 1 ]; then
	echo "zsvm: interactive guest ($accel, $kver); Ctrl-A X quits QEMU" >&2
	"${qemu[@]}" -chardev "stdio,id=con,mux=on,signal=off,logfile=$out/console.log" \
		-serial chardev:con -mon chardev=con,mode=readline -serial "file:$out/output.log"
	exit 0
fi

ZS_SPLATS_H=$here/../../selftests/zsplice_splats.h
# ------------------------------------------------------------- guest lock
if [ -n "${ZSVM_LOCK_HELD:-}" ]; then
	die "run.sh inside a run that holds the guest lock $ZSVM_LOCK_HELD: it would wait forever"
fi
if [ -z "${ZSVM_LOCK:-}" ]; then
	if [ -d /run/lock ] && [ -w /run/lock ]; then
		ZSVM_LOCK=/run/lock/zsplice-vm.lock
	else
		ZSVM_LOCK=${TMPDIR:-/tmp}/zsplice-vm.lock
	fi
fi
if [ "$ZSVM_LOCK" != none ]; then
	exec {lockfd}>>"$ZSVM_LOCK" || die "cannot open the guest lock $ZSVM_LOCK"
	if ! flock -n "$lockfd"; then
		echo "zsvm: waiting for the guest lock $ZSVM_LOCK (another guest runs)" >&2
		flock "$lockfd" || die "cannot take the guest lock $ZSVM_LOCK"
	fi
	export ZSVM_LOCK_HELD=$ZSVM_LOCK
fi

# shellcheck source=tools/rig/splats.sh
. "$here/splats.sh"

# One boot of the guest; sets timed_out and elapsed.
boot() {
	: >"$out/console.log"
	: >"$out/output.log"
	[ "$quiet" = 1 ] || echo "zsvm: booting $kver ($accel${icount_label:-}, $cpus cpus${possible:+ of $possible possible}, $mem), logs in $out" >&2
	start=$(date +%s)
	"${qemu[@]}" -monitor none -serial "file:$out/console.log" -serial "file:$out/output.log" \
		>"$out/qemu.log" 2>&1 </dev/null &
	qpid=$!
	trap 'kill $qpid 2>/dev/null || true' EXIT
	trap 'kill $qpid 2>/dev/null || true; exit 130' INT TERM

	tpid=
	if [ "$quiet" = 0 ]; then
		# Stream the command's output until the exit marker.
		tail -n +1 -s 0.2 -f --pid=$qpid "$out/output.log" 2>/dev/null |
			awk '/^ZSVM-EXIT /{ exit } { print; fflush() }' &
		tpid=$!
	fi

	timed_out=0
	while kill -0 $qpid 2>/dev/null; do
		if [ $(($(date +%s) - start)) -ge "$timeout" ]; then
			timed_out=1
			kill $qpid 2>/dev/null || true
			sleep 1
			kill -9 $qpid 2>/dev/null || true
			break
		fi
		sleep 0.5
	done
	wait $qpid 2>/dev/null || true
	[ -z "$tpid" ] || wait "$tpid" 2>/dev/null || true
	trap - EXIT INT TERM
	elapsed=$(($(date +%s) - start))
}

# A guest kernel that dies before /init prints "zsvm: guest up" has not run
# anything of ours (the module is loaded by the command, never at boot):
# Debian's kernels under multi-threaded TCG occasionally take an "Oops:
# int3" while a static key is patched during boot (seen 2026-12-02 in
# sched_clock_cpu, 1 of 4 boots of 6.12.118).  Such a boot is kept as
# console.boot-failed.log, reported, and retried once; a kernel that dies
# in boot twice fails the run as before.
boot
if [ "$timed_out" = 0 ] && ! grep -aq '^zsvm: guest up:' "$out/console.log" &&
   ! grep -aq '^ZSVM-EXIT ' "$out/output.log"; then
	cp "$out/console.log" "$out/console.boot-failed.log"
	{
		echo "zsvm: the guest kernel died during boot, before /init ran (console.boot-failed.log):"
		grep -anE "$ZS_SPLAT_RE|Kernel panic" "$out/console.log" | head -n 3 | sed 's/^/zsvm:   /'
		echo "zsvm: booting once more"
	} >&2
	boot
fi
rm -f "$out/initrd.cpio"
# the last boot's seconds, from QEMU's start (the lock's wait left out)
echo "$elapsed" >"$out/elapsed"

# ----------------------------------------------------------------- verdict
# Collected files.
awk -v dir="$out" '
	/^ZSVM-FILE-BEGIN / { f = $2; sub(/.*\//, "", f); path = dir "/" f ".b64"; printf "" > path; next }
	/^ZSVM-FILE-END / { close(path); path = ""; next }
	path != "" { print > path }
	/^ZSVM-FILE-MISSING / { print "zsvm: guest file " $2 " missing, not collected" > "/dev/stderr" }
' "$out/output.log"
for f in "$out"/*.b64; do
	[ -e "$f" ] || continue
	base64 -d "$f" >"${f%.b64}" || echo "zsvm: could not decode ${f%.b64}" >&2
	rm -f "$f"
done

# Kernel splats (the project's one list, splats.sh): print from a little
# before the first one.
splat=0
if line=$(grep -anE "$ZS_SPLAT_RE" "$out/console.log" | head -n 1 | cut -d: -f1) && [ -n "$line" ]; then
	splat=1
	{
		echo "zsvm: ---- guest kernel log from line $line of $out/console.log ----"
		sed -n "$((line > 5 ? line - 5 : 1)),$((line + 80))p" "$out/console.log"
		echo "zsvm: ----"
	} >&2
fi

rc=$(awk '/^ZSVM-EXIT [0-9]+$/ { rc = $2 } END { print rc }' "$out/output.log")
if [ "$timed_out" = 1 ]; then
	echo "zsvm: TIMEOUT after $timeout s (logs in $out)" >&2
	exit 124
fi
if [ "$splat" = 1 ]; then
	echo "zsvm: kernel splat (command status ${rc:-none}; logs in $out)" >&2
	exit 3
fi
if [ -z "$rc" ]; then
	echo "zsvm: guest did not report an exit status (logs in $out)" >&2
	tail -n 30 "$out/console.log" >&2
	exit 4
fi
[ "$quiet" = 1 ] || echo "zsvm: guest command exited with status $rc after $elapsed s" >&2
exit "$rc"
