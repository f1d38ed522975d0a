#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make mem-check: build Debian's 6.12 kernel stock and with each mem.c
# series (mainline/6.12/B, then A: variants share ccache), boot each in the
# rig, and run against the kernel's own /dev/zero and /dev/full: the 1-byte
# fill counts, the kselftests in target mode, zsbench --impl devzero and
# stress-ng --splice (mainline/mem-guest.sh).  Then compares the zsbench
# runs (zsbench --compare when it has it), and checks the series for the
# newest linux-source-7.x (mainline/check.sh; fetched through the private
# trixie apt configuration if absent).
#
# Results in $MEM_CHECK_OUT (default .mem-check/): guest-<kernel>/ logs,
# zsbench-<kernel>.json, summary.txt.  Exit status non-zero when a fill
# count is wrong, a test fails, a kernel splats or a guest times out.
#
# Environment: MEM_KERNELS (default "stock B A"; a subset reruns only those,
# the summary and comparisons use every kernel with results in the output
# directory), MEM_STOCK_TESTS=1 also
# runs the kselftests on the stock kernel, MEM_BOOT7=1 also builds and
# boots the newest 7.x with series B, ZSVM_TIMEOUT (guest, default 3600),
# MEM_APPEND (extra guest kernel arguments, default "init_on_alloc=1": the
# page-allocator setting Debian ships, CONFIG_INIT_ON_ALLOC_DEFAULT_ON=y in
# its 6.12 config, which the allnoconfig-based kernels here do not have;
# MEM_APPEND=init_on_alloc=0 measures without it), MEM_ZSBENCH_ARGS
# (zsbench workload arguments instead of mem-guest.sh's default set).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=mainline/sources.sh
. "$here/sources.sh"
kbuild=$top/selftests/kbuild/build.sh
frag=$top/selftests/kbuild/base.config
out=${MEM_CHECK_OUT:-$top/.mem-check}
# One guest run at a time (selftests/vm/vmlock.sh; ZSVM_LOCK=none does not wait).
# shellcheck source=selftests/vm/vmlock.sh
. "$top/selftests/vm/vmlock.sh"
vmrun() { zs_vm_locked "$top/selftests/vm/run.sh" "$@"; }
kernels=${MEM_KERNELS:-stock B A}
mkdir -p "$out"
for k in $kernels; do
	rm -rf "$out/guest-$k" "$out/zsbench-$k.json"
done
say() { echo "mem-check: $*"; }
fail=0

src=$(zs_source 6.12) || exit 2

# ------------------------------------------------------------- kernels
declare -A kdir
for k in $kernels; do
	case $k in
	stock) patches=() ;;
	*) patches=(--patches "$here/6.12/$k") ;;
	esac
	say "kernel $k: selftests/kbuild/build.sh ${patches[*]} $(basename "$src")"
	if ! kdir[$k]=$("$kbuild" "${patches[@]}" "$src" "$frag" | tail -n 1) ||
	   [ ! -e "${kdir[$k]}/bzImage" ]; then
		say "kernel $k failed to build"
		exit 1
	fi
	say "kernel $k: ${kdir[$k]} ($(cat "${kdir[$k]}/release"), built in $(head -n 1 "${kdir[$k]}/time.txt"))"
done

# ------------------------------------------------------- host builds
say "building selftests, zsbench, zerofill"
make -s -k -C "$top/selftests" >"$out/build-selftests.log" 2>&1 ||
	say "some selftests did not build (see $out/build-selftests.log)"
make -s -C "$top/userspace" >"$out/build-userspace.log" 2>&1 ||
	say "zsbench did not build (see $out/build-userspace.log)"
gcc -O2 -Wall -o "$out/zerofill" "$here/zerofill.c" || exit 2

files=(--file "$here/mem-guest.sh:/zs/mem-guest.sh" --file "$out/zerofill:/zs/bin/")
for t in "$top"/selftests/zsplice_*_test; do
	[ -x "$t" ] && files+=(--file "$t:/zs/bin/")
done
[ -x "$top/userspace/zsbench" ] && files+=(--file "$top/userspace/zsbench:/zs/bin/")

# ----------------------------------------------------------- guest runs
append="mitigations=off ${MEM_APPEND-init_on_alloc=1}"
zsb_env=
[ -z "${MEM_ZSBENCH_ARGS:-}" ] || zsb_env="ZSBENCH_ARGS='$MEM_ZSBENCH_ARGS'"
say "guest kernel arguments: $append"
for k in $kernels; do
	d=${kdir[$k]}
	impl=zeropage tests=1
	if [ "$k" = stock ]; then
		impl=copy
		tests=${MEM_STOCK_TESTS:-0}
	fi
	say "guest: kernel $k ($(cat "$d/release")), /dev/zero impl $impl"
	vmrun --quiet \
		--kimage "$d/bzImage" --kmods "$d/modules" \
		--out "$out/guest-$k" --timeout "${ZSVM_TIMEOUT:-3600}" \
		--append "$append" --collect /tmp/zsbench.json "${files[@]}" \
		-- "MEM_IMPL=$impl MEM_TESTS=$tests $zsb_env sh /zs/mem-guest.sh"
	rc=$?
	case $rc in
	0) ;;
	3) say "kernel $k: KERNEL SPLAT (see $out/guest-$k/console.log)"; fail=1 ;;
	124) say "kernel $k: guest TIMEOUT"; fail=1 ;;
	*) say "kernel $k: guest run status $rc"; fail=1 ;;
	esac
	[ -f "$out/guest-$k/zsbench.json" ] && cp "$out/guest-$k/zsbench.json" "$out/zsbench-$k.json"
done

# -------------------------------------------------------------- summary
done_kernels=
for k in stock B A; do
	[ -f "$out/guest-$k/output.log" ] && done_kernels="$done_kernels $k"
done
{
	for k in $done_kernels; do
		log=$out/guest-$k/output.log
		echo "== kernel $k ($(sed -n 's/^# kernel \([^,]*\),.*/\1/p' "$log" | head -n 1))"
		grep '^zerofill ' "$log" 2>/dev/null
		grep -E '^# (PASSED|FAILED|Totals):|^# ZSVM-END' "$log" 2>/dev/null |
			grep -v 'ZSVM-END .* rc=0$' | grep -E 'Totals|rc=' || true
		awk '/^# ZSVM-BEGIN zsplice_/ { t = $3 } /^# Totals:/ { print "  " t ": " $0 }' "$log" 2>/dev/null
		grep -E 'stress-ng: (info|metrc).*splice' "$log" 2>/dev/null | tail -n 2
	done
} | tee "$out/summary.txt"

# Fill counts: 61441 for 64 KiB with the series, 16 stock.
for k in $done_kernels; do
	want=61441
	[ "$k" = stock ] && want=16
	got=$(awk '$1 == "zerofill" && $2 == "/dev/zero" && $3 == 65536 { print $4 }' \
		"$out/guest-$k/output.log" 2>/dev/null)
	if [ "$got" = "$want" ]; then
		say "kernel $k: /dev/zero 1-byte fill of 64 KiB = $got (ok)"
	else
		say "kernel $k: /dev/zero 1-byte fill of 64 KiB = ${got:-none}, want $want"
		fail=1
	fi
	if grep -q '^zerofill .* bad ' "$out/guest-$k/output.log" 2>/dev/null ||
	   grep -qE '^# ZSVM-END zsplice_.* rc=[1-9]' "$out/guest-$k/output.log" 2>/dev/null; then
		say "kernel $k: a fill readback or a kselftest failed"
		fail=1
	fi
done

# zsbench comparisons.
zsb=$top/userspace/zsbench
cmp() {
	local a=$1 b=$2
	[ -f "$out/zsbench-$a.json" ] && [ -f "$out/zsbench-$b.json" ] || return 0
	echo "== zsbench --compare $a $b" | tee -a "$out/summary.txt"
	"$zsb" --compare "$out/zsbench-$a.json" "$out/zsbench-$b.json" | tee -a "$out/summary.txt"
}
cmp stock B
cmp stock A
cmp A B

# ------------------------------------------------------------------ 7.x
v7=$(ls "$ZS_SRC_CACHE"/linux-source-7.*.tar.xz 2>/dev/null |
	sed 's|.*/linux-source-\(7\.[0-9]*\)\.tar\.xz|\1|' | sort -V | tail -n 1)
if [ -z "$v7" ] && v7=$(zs_newest_7x) && [ -n "$v7" ]; then
	zs_fetch_source "$v7" || v7=
fi
if [ -n "$v7" ] && [ -d "$here/$v7" ]; then
	say "linux-source-$v7: series apply, checkpatch, compile"
	bash "$here/check.sh" "$v7" | tee "$out/check-$v7.tap" || fail=1
	if [ "${MEM_BOOT7:-0}" = 1 ]; then
		d=$("$kbuild" --patches "$here/$v7/B" "$ZS_SRC_CACHE/linux-source-$v7.tar.xz" "$frag" | tail -n 1) &&
		vmrun --quiet --kimage "$d/bzImage" \
			--kmods "$d/modules" --out "$out/guest-$v7-B" --timeout "${ZSVM_TIMEOUT:-3600}" \
			"${files[@]}" -- "MEM_IMPL=zeropage MEM_TESTS=0 ZSBENCH_ARGS='--quick' sh /zs/mem-guest.sh" ||
			fail=1
		grep '^zerofill ' "$out/guest-$v7-B/output.log" 2>/dev/null | sed "s/^/$v7 B: /"
	fi
else
	say "linux-source-7.x: not available (${v7:-no private trixie apt configuration}); 7.x series not checked"
fi

if [ "$fail" = 0 ]; then say "PASS (results in $out)"; else say "FAIL (results in $out)"; fi
exit "$fail"
