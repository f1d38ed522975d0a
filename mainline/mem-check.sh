#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make mem-check: boot a mem.c change and test it against the kernel's own
# /dev/zero and /dev/full.  Builds Debian's kernel source of a line (6.12 or
# 7: the newest linux-source-7.x) stock and with each series directory, boots
# each in the rig and runs mainline/mem-guest.sh there: the 1-byte fill
# counts, the kselftests in target mode, zsbench --impl devzero, the
# FIONREAD reproducer (mainline/fionread.c) and LKP's stress-ng command on
# /dev/zero and on the zsplice module's `none` (the pre-6.7 fallback, built
# for that kernel).  Then zsbench --compare of each series against stock.
#
# Parameters (make variables or environment):
#   MEM_SERIES    series directories, *.patch applied in name order (default
#                 mainline/<newest 7.x>/v2 for line 7, mainline/6.12/B and
#                 mainline/6.12/A for line 6.12); any directory of
#                 `git format-patch` files for that source works
#   MEM_LINE      6.12 or 7 (default 7)
#   MEM_FRAGMENT  config fragment(s) on top of selftests/kbuild/base.config
#                 and thp.config for the patched kernels (default for line 7:
#                 selftests/kbuild/huge-zero-folio.config; "none" for none).
#                 The stock kernel is base.config + thp.config.
#   MEM_KERNELS   a subset of the kernel names to (re)build and run: "stock"
#                 and each series' name, <dir> or <dir>+<fragment> (e.g.
#                 v2+huge-zero-folio); the summary uses every kernel with
#                 results in the output directory
#   MEM_CHECK_OUT results (default .mem-check/<version>/): guest-<name>/ logs,
#                 zsbench-<name>.json, summary.txt
#   MEM_PHASES    what to run on each kernel (default "guest icount"):
#                 guest = the TCG boot above; icount = a second boot under
#                 QEMU -icount with one vCPU, zsbench --icount of /dev/zero
#                 (guest instructions per splice, deterministic), then
#                 zsbench --compare of each series against stock
# Also: MEM_STOCK_TESTS=1 runs the kselftests on the stock kernel too,
# MEM_APPEND guest kernel arguments (default "init_on_alloc=1", as Debian's
# CONFIG_INIT_ON_ALLOC_DEFAULT_ON=y), MEM_ZSBENCH_ARGS, MEM_LKP_STRESSNG
# (default /var/cache/zsplice/stress-ng/V0.17.00/stress-ng when it exists;
# "none" skips), MEM_LKP_TIME (60), MEM_FILL_WANT (the 64 KiB fill count a
# patched kernel must give: default 31457281 with the persistent huge zero
# folio, else 61441), ZSVM_TIMEOUT (default 3600).
#
# Exit status non-zero when a fill count is wrong, a test or the FIONREAD
# check fails, a kernel splats or a guest times out.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=mainline/sources.sh
. "$here/sources.sh"
kb=$top/selftests/kbuild
kbuild=$kb/build.sh
# One guest run at a time (selftests/vm/vmlock.sh; ZSVM_LOCK=none does not wait).
# shellcheck source=selftests/vm/vmlock.sh
. "$top/selftests/vm/vmlock.sh"
vmrun() { zs_vm_locked "$top/selftests/vm/run.sh" "$@"; }
say() { echo "mem-check: $*"; }
abspath() { case $1 in /*) echo "$1" ;; *) echo "$top/$1" ;; esac; }
fail=0

# --------------------------------------------------------- parameters
line=${MEM_LINE:-7}
case $line in
6.12) ver=6.12 ;;
7|7.*)
	ver=$(ls "$ZS_SRC_CACHE"/linux-source-7.*.tar.xz 2>/dev/null |
		sed 's|.*/linux-source-\(7\.[0-9]*\)\.tar\.xz|\1|' | sort -V | tail -n 1)
	newest=$(zs_newest_7x)
	[ -n "$newest" ] && ver=$newest
	[ -n "$ver" ] || { say "no linux-source-7.x: run selftests/vm/kernels.sh fetch 7 first"; exit 2; }
	;;
*) say "MEM_LINE=$line: 6.12 or 7"; exit 2 ;;
esac
src=$(zs_source "$ver") || exit 2
out=${MEM_CHECK_OUT:-$top/.mem-check/$ver}
if [ -n "${MEM_SERIES:-}" ]; then
	read -r -a series <<<"$MEM_SERIES"
elif [ "$ver" = 6.12 ]; then
	series=(mainline/6.12/B mainline/6.12/A)
else
	series=("mainline/$ver/v2")
fi
frag=${MEM_FRAGMENT-}
[ -n "$frag" ] || { [ "$ver" = 6.12 ] && frag=none || frag=selftests/kbuild/huge-zero-folio.config; }
base_frags=("$kb/base.config" "$kb/thp.config")
patched_frags=("${base_frags[@]}")
suffix=
if [ "$frag" != none ]; then
	for f in $frag; do
		patched_frags+=("$(abspath "$f")")
		suffix="$suffix+$(basename "$f" .config)"
	done
fi

# build.sh --patches takes files: every *.patch but a cover letter
declare -A patches
names=(stock)
for s in "${series[@]}"; do
	d=$(abspath "$s")
	n=$(basename "$d")$suffix
	for p in "$d"/*.patch; do
		case $p in *-cover-letter.patch|"$d/*.patch") continue ;; esac
		patches[$n]="${patches[$n]:-} --patches $p"
	done
	[ -n "${patches[$n]:-}" ] || { say "$s: no *.patch"; exit 2; }
	names+=("$n")
done
kernels=${MEM_KERNELS:-${names[*]}}
say "line $line: $(basename "$src"); kernels: $kernels"
mkdir -p "$out"
phases=${MEM_PHASES:-guest icount}
for p in $phases; do
	case $p in guest|icount) ;; *) say "MEM_PHASES: $p is not guest or icount"; exit 2 ;; esac
done
has_phase() { [[ " $phases " == *" $1 "* ]]; }
for k in $kernels; do
	! has_phase guest || rm -rf "$out/guest-$k" "$out/zsbench-$k.json"
	! has_phase icount || rm -rf "$out/icount-$k" "$out/icount-$k.json"
done

# ------------------------------------------------------------- kernels
declare -A kdir
for k in $kernels; do
	if [ "$k" = stock ]; then
		args=("$src" "${base_frags[@]}")
	elif [ -n "${patches[$k]:-}" ]; then
		read -r -a args <<<"${patches[$k]}"
		args+=("$src" "${patched_frags[@]}")
	else
		say "kernel $k: not one of ${names[*]}"
		exit 2
	fi
	say "kernel $k: selftests/kbuild/build.sh ${args[*]#"$top"/}"
	if ! kdir[$k]=$("$kbuild" "${args[@]}" | tail -n 1) ||
	   [ ! -e "${kdir[$k]}/bzImage" ]; then
		say "kernel $k failed to build"
		exit 1
	fi
	say "kernel $k: ${kdir[$k]} ($(cat "${kdir[$k]}/release"), built in $(head -n 1 "${kdir[$k]}/time.txt"))"
done

# ------------------------------------------------------- host builds
say "building selftests, zsbench, zerofill, fionread"
make -s -k -C "$top/selftests" >"$out/build-selftests.log" 2>&1 ||
	say "some selftests did not build (see $out/build-selftests.log)"
make -s -C "$top/userspace" >"$out/build-userspace.log" 2>&1 ||
	say "zsbench did not build (see $out/build-userspace.log)"
gcc -O2 -Wall -Wextra -o "$out/zerofill" "$here/zerofill.c" || exit 2
gcc -O2 -Wall -Wextra -o "$out/fionread" "$here/fionread.c" || exit 2

files=(--file "$here/mem-guest.sh:/zs/mem-guest.sh" --file "$out/zerofill:/zs/bin/"
       --file "$out/fionread:/zs/bin/")
for t in "$top"/selftests/zsplice_*_test; do
	[ -x "$t" ] && files+=(--file "$t:/zs/bin/")
done
[ -x "$top/userspace/zsbench" ] && files+=(--file "$top/userspace/zsbench:/zs/bin/")
lkp=${MEM_LKP_STRESSNG:-/var/cache/zsplice/stress-ng/V0.17.00/stress-ng}
if [ "$lkp" != none ] && [ -x "$lkp" ]; then
	files+=(--file "$lkp:$lkp")
else
	say "no stress-ng for LKP's command ($lkp): lkp sections skipped"
	lkp=
fi

# zsplice.ko for a kernel of ours, from a copy of the module sources (so
# that builds for different kernels never share objects).
build_module() {
	local k=$1 m=$out/module-$1
	rm -rf "$m" && mkdir -p "$m/drivers/char" &&
	cp -a "$top/Kbuild" "$top/VERSION" "$top/include" "$m/" &&
	cp -a "$top/drivers/char/zsplice" "$m/drivers/char/" &&
	"${kdir[$k]}/make.sh" M="$m" modules >"$out/module-$k.log" 2>&1 &&
	echo "$m/zsplice.ko"
}

# ----------------------------------------------------------- guest runs
# kernel_boot K PHASE RUN.SH-ARGS...: boot kernel K in the rig, logs in
# $out/PHASE-K; a splat, a timeout or a failed command fails mem-check.
kernel_boot() {
	local k=$1 phase=$2 d=${kdir[$1]} rc
	shift 2
	vmrun --quiet --kimage "$d/bzImage" --kmods "$d/modules" \
		--out "$out/$phase-$k" --append "$append" "$@"
	rc=$?
	case $rc in
	0) return 0 ;;
	3) say "kernel $k: KERNEL SPLAT in the $phase boot (see $out/$phase-$k/console.log)" ;;
	124) say "kernel $k: $phase boot TIMEOUT" ;;
	*) say "kernel $k: $phase boot status $rc (see $out/$phase-$k/)" ;;
	esac
	fail=1
	return "$rc"
}

append="mitigations=off ${MEM_APPEND-init_on_alloc=1}"
say "guest kernel arguments: $append"
guest_kernels=$kernels
has_phase guest || guest_kernels=
for k in $guest_kernels; do
	d=${kdir[$k]}
	impl=zeropage tests=1 sizes="4096 65536 1048576"
	if [ "$k" = stock ]; then
		impl=copy
		tests=${MEM_STOCK_TESTS:-0}
	elif grep -q '^CONFIG_PERSISTENT_HUGE_ZERO_FOLIO=y' "$d/config"; then
		# 2 MiB buffers: 64 KiB takes 31457281 one-byte splices, 1 MiB
		# would take 534773761 (minutes under TCG): left out
		impl=folio sizes="4096 65536"
	fi
	kfiles=("${files[@]}")
	if ko=$(build_module "$k"); then
		kfiles+=(--file "$ko:/zs/")
	else
		say "kernel $k: zsplice.ko did not build (see $out/module-$k.log): no module sections"
	fi
	env="MEM_IMPL=$impl MEM_TESTS=$tests MEM_FILL_SIZES='$sizes' MEM_FILL_CAP=33554432"
	# a kernel whose FIONREAD clamps at INT_MAX (v2 patch 1): the
	# kselftests' INT_MAX reproducer must pass there, not XFAIL
	if sed -n '/case FIONREAD:/,/put_user/p' "$d/linux/fs/pipe.c" 2>/dev/null | grep -q INT_MAX; then
		env="$env ZSPLICE_FIONREAD_FIXED=1"
	fi
	[ -z "${MEM_ZSBENCH_ARGS:-}" ] || env="$env ZSBENCH_ARGS='$MEM_ZSBENCH_ARGS'"
	[ -z "$lkp" ] || env="$env MEM_LKP_STRESSNG=$lkp MEM_LKP_TIME=${MEM_LKP_TIME:-60}"
	say "guest: kernel $k ($(cat "$d/release")), /dev/zero impl $impl"
	kernel_boot "$k" guest --timeout "${ZSVM_TIMEOUT:-3600}" \
		--collect /tmp/zsbench.json "${kfiles[@]}" -- "$env sh /zs/mem-guest.sh"
	[ -f "$out/guest-$k/zsbench.json" ] && cp "$out/guest-$k/zsbench.json" "$out/zsbench-$k.json"
done

# ------------------------------------------------------- icount runs
# /dev/zero only (no module: every kernel measures the same thing), the
# splice sizes and sendfile of the perf gate, 5 repetitions of 0.01 guest s.
icount_run() {
	local k=$1 d=${kdir[$1]}

	say "icount: kernel $k ($(cat "$d/release"))"
	kernel_boot "$k" icount --icount --cpus 1 --timeout 900 \
		--file "$top/userspace/zsbench:/zs/bin/" --collect /tmp/icount.json -- \
		"zsbench --icount --no-load --no-floor --runs 5 --duration 0.01 --quiet \
			--impl devzero --json /tmp/icount.json \
			--workload splice-1,splice-4K,splice-64K,splice-1M,sendfile-null-64K" &&
		cp "$out/icount-$k/icount.json" "$out/icount-$k.json"
}
if has_phase icount; then
	for k in $kernels; do
		icount_run "$k"
	done
fi

# -------------------------------------------------------------- summary
done_kernels=
for d in "$out"/guest-*/; do
	[ -f "$d/output.log" ] && done_kernels="$done_kernels $(basename "$d" | sed 's/^guest-//')"
done
{
	for k in $done_kernels; do
		log=$out/guest-$k/output.log
		echo "== kernel $k ($(sed -n 's/^# kernel \([^,]*\),.*/\1/p' "$log" | head -n 1))"
		grep -E '^(zerofill|fionread|lkp [a-z]+ instances) ' "$log" 2>/dev/null
		awk '/^# ZSVM-BEGIN zsplice_/ { t = $3 } /^# Totals:/ { print "  " t ": " $0 }' "$log" 2>/dev/null
		grep -E 'stress-ng: (info|metrc).*splice' "$log" 2>/dev/null
	done
} | tee "$out/summary.txt"

for k in $done_kernels; do
	log=$out/guest-$k/output.log
	if [ "$k" = stock ]; then
		want=16
	elif [ -n "${MEM_FILL_WANT:-}" ]; then
		want=$MEM_FILL_WANT
	elif grep -q '^folio' <(sed -n 's/^# kernel .*, impl \([a-z]*\),.*/\1/p' "$log"); then
		want=31457281
	else
		want=61441
	fi
	got=$(awk '$1 == "zerofill" && $2 == "/dev/zero" && $3 == 65536 { print $4 }' "$log" 2>/dev/null)
	if [ "$got" = "$want" ]; then
		say "kernel $k: /dev/zero 1-byte fill of 64 KiB = $got (ok)"
	else
		say "kernel $k: /dev/zero 1-byte fill of 64 KiB = ${got:-none}, want $want"
		fail=1
	fi
	if grep -q '^zerofill .* bad ' "$log" 2>/dev/null ||
	   grep -qE '^# ZSVM-END zsplice_.* rc=[1-9]' "$log" 2>/dev/null; then
		say "kernel $k: a fill readback or a kselftest failed"
		fail=1
	fi
	# The pipe core's int counts: fixed by the series, broken on stock.
	if [ "$k" != stock ] && grep -q '^fionread .* bad$' "$log"; then
		say "kernel $k: FIONREAD or pipe-to-pipe splice count wrong beyond INT_MAX"
		fail=1
	fi
done

zsb=$top/userspace/zsbench
for k in $done_kernels; do
	[ "$k" != stock ] && [ -f "$out/zsbench-stock.json" ] && [ -f "$out/zsbench-$k.json" ] || continue
	echo "== zsbench --compare stock $k" | tee -a "$out/summary.txt"
	"$zsb" --compare "$out/zsbench-stock.json" "$out/zsbench-$k.json" | tee -a "$out/summary.txt"
done

for j in "$out"/icount-*.json; do
	k=$(basename "$j" .json)
	k=${k#icount-}
	[ "$k" != stock ] && [ -f "$out/icount-stock.json" ] || continue
	echo "== zsbench --compare stock $k, guest instructions per op (-icount)" | tee -a "$out/summary.txt"
	"$zsb" --compare "$out/icount-stock.json" "$j" | tee -a "$out/summary.txt"
done

if [ "$fail" = 0 ]; then say "PASS (results in $out)"; else say "FAIL (results in $out)"; fi
exit "$fail"
