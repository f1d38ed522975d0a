#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make mem-check: boot the mainline/ series and test them against the
# kernel's own /dev/zero and /dev/full.  Builds the newest Debian
# linux-source-7.x (fetched through the rig's private trixie apt
# configuration when it is not there yet) stock and with each series, boots
# each in the rig and runs a kselftest install there with kselftest's
# runner (collections zsplice and mem: mainline/guest/): the kselftests in
# target mode (fill counts included), the fix series' selftest
# splice_int_max (FIONREAD, splice, tee and io_uring beyond INT_MAX; again
# with kernel.io_uring_disabled=2, where its io_uring tests must skip),
# LTP's splice and tee tests (mainline/guest/ltp-splice.sh; each patched
# kernel must give stock's counts),
# zsbench on /dev/zero and LKP's stress-ng command on /dev/zero and on the
# module's `none`, and mainline/contention.sh (1 and 2 threads, the
# reference against the module's copy, to TCP and O_DIRECT; TCG shows no
# cache-line transfer: a function test of what submitters run on hardware).
# A second boot under QEMU -icount counts /dev/zero's
# instructions per splice; zsbench compares each kernel with stock.
#
# A developer's own tree: KERNEL_TREE=DIR (a git tree of Linux 6.1 or
# later) boots DIR instead of the series: kernel "stock" is DIR's
# merge-base with KERNEL_BASE (a ref; default the branch's upstream),
# exported once into the kernel builder's cache; kernel "tree" is that base
# with DIR's working tree against it as one patch (its commits since the
# base and what is not committed yet; files git does not track are left
# out: git add -N them).  splice_int_max runs where the tree has it; the
# kernel's splice selftests and tcp_mmap come from the base.  Default
# MEM_KERNELS "stock tree"; results in .mem-check/tree-<base>/, never in
# results/.
#
# Parameters (make variables or environment):
#   KERNEL_TREE   a git tree to boot instead of the series (above)
#   KERNEL_BASE   the ref whose merge-base with KERNEL_TREE's HEAD is
#                 kernel stock (default: the branch's upstream)
#   MEM_KERNELS   the kernels, by name (default "stock fix zero rfc
#                 rfc@persistent"; with KERNEL_TREE "stock tree"): stock,
#                 tree (KERNEL_TREE), or SERIES[+FRAGMENT...][@SETUP]
#                 where SERIES is a series directory of mainline/<version>/
#                 (its cover's Depends are applied first) or a path to one,
#                 FRAGMENT a config fragment of the kernel builder by name
#                 (huge-zero-folio) or a path; all on base.config +
#                 thp.config.  @SETUP boots the same kernel with a guest
#                 setup step first: @persistent writes 1 to the RFC's
#                 transparent_hugepage/persistent_huge_zero_folio
#   MEM_PHASES    what to run (default "guest icount"): guest = the boot
#                 above; quick = a boot with the fill kselftest and
#                 splice_int_max only (MEM_QUICK_TESTS, default
#                 "zsplice_fill_test splice_int_max": zsplice kselftests
#                 by name, splice_int_max, splice_int_max_no_uring,
#                 zeroout, ltp (LTP's splice and tee tests); the edit
#                 loop);
#                 summary = none of them, only the summary of what the
#                 output directory holds; icount = the -icount
#                 boot and the comparison against stock
#   MEM_CHECK_OUT results (default .mem-check/<version>/): guest-<name>/,
#                 icount-<name>/, zsbench-<name>.json, summary.txt; the
#                 summary also goes to MEM_RESULTS (default
#                 results/mem-check-<version>.txt; for the quick phase
#                 alone $MEM_CHECK_OUT/results.txt) with the command and
#                 commit
# Also: MEM_APPEND guest kernel arguments (default "init_on_alloc=1", as
# Debian's CONFIG_INIT_ON_ALLOC_DEFAULT_ON=y), MEM_ZSBENCH_ARGS,
# MEM_LKP_STRESSNG (default /var/cache/zsplice/stress-ng/V0.17.00/stress-ng
# when it exists, else the installed stress-ng, bookworm's 0.15.06, whose
# splice stressor has the same undrained 1-byte splice; "none" skips),
# MEM_LKP_TIME (60), ZSVM_TIMEOUT (default 3600), ZS_LTP_SRC (an LTP
# source tree or git directory instead of downloading LTP's release) and
# ZS_LTP_VERSION (mainline/sources.sh: zs_ltp; when LTP cannot be had,
# its tests are not run and mem-check says why).
#
# Exit status non-zero when a kselftest or splice_int_max fails on a patched
# kernel (splice_int_max is expected to fail on stock: reported, not a
# failure), a patched kernel's LTP splice and tee results differ from
# stock's, a kernel splats or a guest times out.
set -uo pipefail

case ${1:-} in
-h|--help)
	echo "Usage: mainline/mem-check.sh [-h|--help]   (or make mem-check; parameters below)"
	sed -n '3,/^set -uo pipefail$/{/^set /d; s/^# \{0,1\}//; p}' "${BASH_SOURCE[0]}"
	exit 0 ;;
?*) echo "mem-check.sh: takes no arguments but --help (parameters are environment variables)" >&2; exit 2 ;;
esac

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
# shellcheck source=mainline/sources.sh
. "$here/sources.sh"
rig=$top/tools/rig
kb=$top/tools/kbuild
say() { echo "mem-check: $*"; }
abspath() { case $1 in /*) echo "$1" ;; *) echo "$top/$1" ;; esac; }
fail=0
t_run=$SECONDS

# What the rig needs (QEMU, the guest's tools, compilers), before any
# build: tools/rig/deps.sh installs it, or on a machine without apt-get
# names what is missing.
if ! bash "$rig/deps.sh" --check >/dev/null 2>&1; then
	say "the rig lacks packages: tools/rig/deps.sh"
	bash "$rig/deps.sh" >&2 || { say "tools/rig/deps.sh failed: the rig cannot boot anything"; exit 2; }
fi

# --------------------------------------------------------- the source
# tree, base: KERNEL_TREE and its base commit (tree mode), else empty;
# src: the builder's SOURCE of kernel stock; srcname: how results name it.
tree=${KERNEL_TREE:-}
base=
if [ -n "$tree" ]; then
	tree=$(cd "$tree" 2>/dev/null && pwd) || { say "KERNEL_TREE=$KERNEL_TREE: no such directory"; exit 2; }
	ver=$(zs_tree_version "$tree") || { say "KERNEL_TREE=$tree: no kernel Makefile (VERSION, PATCHLEVEL)"; exit 2; }
	zs_version_at_least "$ver" 6.1 || { say "KERNEL_TREE=$tree: Linux $ver; the rig boots 6.1 or later"; exit 2; }
	base=$(zs_tree_base "$tree" "${KERNEL_BASE:-}") || exit 2
	say "KERNEL_TREE: Linux $ver, HEAD $(git -C "$tree" rev-parse --short HEAD), base $(git -C "$tree" log -1 --format='%h ("%s")' "$base")"
	src=$(zs_tree_export "$tree" "$base") || exit 2
	srcname="git tree at base ${base:0:12}"
	out=${MEM_CHECK_OUT:-$top/.mem-check/tree-${base:0:12}}
	kernels=${MEM_KERNELS:-stock tree}
else
	ver=$(zs_newest_7x)
	if [ -z "$ver" ]; then
		say "no linux-source-7.x known yet: setting up the private trixie apt configuration"
		bash "$rig/kernels.sh" apt -qq update >&2 || { say "apt-get update (trixie) failed"; exit 2; }
		ver=$(zs_newest_7x)
	fi
	[ -n "$ver" ] || { say "trixie offers no linux-source-7.x"; exit 2; }
	src=$(zs_source "$ver") || exit 2
	srcname=$(basename "$src")
	out=${MEM_CHECK_OUT:-$top/.mem-check/$ver}
	kernels=${MEM_KERNELS:-stock fix zero rfc rfc@persistent}
fi
phases=${MEM_PHASES:-guest icount}
for p in $phases; do
	case $p in guest|quick|icount|summary) ;; *) say "MEM_PHASES: $p is not guest, quick, icount or summary"; exit 2 ;; esac
done
has_phase() { [[ " $phases " == *" $1 "* ]]; }
# reported PHASE: the summary and the verdict cover PHASE's logs: those of
# this run's phases (MEM_PHASES=summary: every phase the directory holds).
reported() { has_phase summary || has_phase "$1"; }
say "$srcname; kernels: $kernels; phases: $phases"
mkdir -p "$out"
if [ -n "$tree" ]; then
	rc=0
	zs_tree_diff "$tree" "$base" "$out/tree.patch" || rc=$?
	case $rc in
	0) say "kernel tree: the base + tree.patch ($(grep -c '^diff --git' "$out/tree.patch") files)" ;;
	2) [[ " $kernels " != *" tree "* ]] || { say "KERNEL_TREE=$tree: no difference from its base: nothing to compare"; exit 2; } ;;
	*) say "KERNEL_TREE=$tree: git diff failed"; exit 2 ;;
	esac
fi

# kernel_args NAME: the builder's arguments for kernel NAME.
kernel_args() {
	local name=${1%%@*} s f d args=()
	if [ "$name" = stock ]; then
		echo "$src" "$kb/base.config" "$kb/thp.config"
		return
	fi
	if [ "$name" = tree ]; then
		[ -n "$tree" ] || { say "kernel tree: needs KERNEL_TREE" >&2; return 1; }
		echo --patches "$out/tree.patch" "$src" "$kb/base.config" "$kb/thp.config"
		return
	fi
	IFS=+ read -r -a parts <<<"$name"
	s=${parts[0]}
	d=$here/$ver/$s
	[ -d "$d" ] || d=$(abspath "$s")
	[ -f "$d/cover" ] || ls "$d"/*.patch >/dev/null 2>&1 || { say "$s: no series directory" >&2; return 1; }
	if [ -f "$d/cover" ]; then
		for s in $(zs_series_dirs "$d"); do args+=(--patches "$s"); done
	else
		args+=(--patches "$d")
	fi
	args+=("$src" "$kb/base.config" "$kb/thp.config")
	for f in "${parts[@]:1}"; do
		if [ -f "$kb/$f.config" ]; then args+=("$kb/$f.config"); else args+=("$(abspath "$f")"); fi
	done
	echo "${args[@]}"
}

# guest_setup NAME: the guest command that @SETUP of kernel NAME stands for.
guest_setup() {
	case $1 in
	*@persistent) echo "sh /zs/bin/setup-persistent.sh" ;;
	*@*) say "kernel $1: no guest setup @${1#*@} (known: @persistent)" >&2; return 1 ;;
	*) echo true ;;
	esac
}

# ------------------------------------------------------------- kernels
declare -A kdir has_fix has_zero
int_max_src=tools/testing/selftests/splice/splice_int_max.c
# a mem.c line that makes /dev/zero splice by reference
zero_re='splice_read.*= zero_splice_read'
t_builds=$SECONDS
for k in $kernels; do
	guest_setup "$k" >/dev/null || exit 2
	read -r -a args <<<"$(kernel_args "$k")" || exit 2
	[ ${#args[@]} -gt 0 ] || exit 2
	say "kernel $k: build.sh ${args[*]#"$top"/}"
	if ! kdir[$k]=$(bash "$kb/build.sh" "${args[@]}" | tail -n 1) ||
	   [ ! -e "${kdir[$k]}/bzImage" ]; then
		say "kernel $k failed to build"
		exit 1
	fi
	say "kernel $k: $(cat "${kdir[$k]}/release"), $(head -n 1 "${kdir[$k]}/time.txt")"
	if [ -n "$tree" ] && [ "${k%%@*}" = tree ]; then
		# the tree's own source says: its mem.c, its splice_int_max
		has_zero[$k]=0
		grep -q "$zero_re" "$tree/drivers/char/mem.c" && has_zero[$k]=1
		has_fix[$k]=0
		[ -f "$tree/$int_max_src" ] && has_fix[$k]=1
		continue
	fi
	# splice_int_max is expected to pass where the fix series is applied
	# (or, in tree mode, where the base has it)
	case " ${args[*]} " in *"/$ver/fix "*) has_fix[$k]=1 ;; *) has_fix[$k]=0 ;; esac
	[ -n "$tree" ] && [ -f "$src/$int_max_src" ] && has_fix[$k]=1
	# /dev/zero splices by reference where a series makes mem.c use zero_splice_read()
	has_zero[$k]=0
	[ -n "$tree" ] && grep -q "$zero_re" "$src/drivers/char/mem.c" && has_zero[$k]=1
	for a in "${args[@]}"; do
		[ -d "$a" ] && cat "$a"/*.patch 2>/dev/null | grep -q "^+.*$zero_re" &&
			has_zero[$k]=1
	done
done

t_builds=$((SECONDS - t_builds))

# ------------------------------------------------------- host builds
say "building the kselftests, zsbench and splice_int_max"
make -s -k -C "$top/selftests" >"$out/build-selftests.log" 2>&1 ||
	say "some kselftests did not build (see $out/build-selftests.log)"
make -s -C "$top/userspace" >"$out/build-userspace.log" 2>&1 ||
	say "zsbench did not build (see $out/build-userspace.log)"
# The fix series' selftest, from the pristine tree with that series
# applied; in tree mode from the tree, where it has it.
int_max=$out/splice_int_max
rm -f "$int_max"
if [ -n "$tree" ]; then
	pristine=$src
	if [ -f "$tree/$int_max_src" ]; then
		gcc -O2 -Wall -Wextra -static -o "$int_max" "$tree/$int_max_src" || exit 2
	else
		say "KERNEL_TREE has no $int_max_src: splice_int_max not run"
	fi
else
	pristine=$(zs_pristine_tree "$src") || { say "no pristine tree of $(basename "$src")"; exit 2; }
	tmp=$(mktemp -d)
	mkdir -p "$tmp/tools/testing/selftests"
	cp -a "$pristine"/tools/testing/selftests/{kselftest.h,kselftest_harness.h,splice} \
		"$tmp/tools/testing/selftests/"
	for p in $(zs_series_patches "$here/$ver/fix"); do
		git -C "$tmp" apply --include='tools/testing/selftests/*' "$p" || exit 2
	done
	gcc -O2 -Wall -Wextra -static -o "$int_max" "$tmp/$int_max_src" || exit 2
	rm -rf "$tmp"
fi
# The kernel's own splice selftests (as the source has them) and tcp_mmap.
ksplice=$out/splice
mkdir -p "$ksplice"
for t in splice_read default_file_splice_read; do
	gcc -O2 -static -o "$ksplice/$t" "$pristine/tools/testing/selftests/splice/$t.c" || exit 2
done
cp "$pristine"/tools/testing/selftests/splice/*.sh "$ksplice/"
gcc -O2 -o "$out/tcp_mmap" -I"$pristine/tools/testing/selftests" \
	"$pristine/tools/testing/selftests/net/tcp_mmap.c" -lpthread -lcrypto ||
	say "tcp_mmap did not build (libssl-dev): its test skips"

# The program workloads (mainline/guest/programs.sh): the consumer, the
# sender for tcp_mmap, and the programs as the host has them; uutils
# coreutils with trixie's libc (mainline/sources.sh: zs_uutils).
for p in drain zero-send; do
	gcc -O2 -Wall -Wextra -static -o "$out/$p" "$here/$p.c" || exit 2
done
pfiles=(--file "$out/drain:/zs/bin/" --file "$out/zero-send:/zs/bin/"
	--file "$here/guest/setup-persistent.sh:/zs/bin/")
[ -x "$out/tcp_mmap" ] && pfiles+=(--file "$out/tcp_mmap:/zs/bin/")
for p in pv stdbuf; do
	b=$(command -v "$p") && pfiles+=(--file "$b:/zs/bin/") || say "no $p on the host: its workload skips"
done
for f in /usr/libexec/coreutils/libstdbuf.so /usr/lib/coreutils/libstdbuf.so; do
	[ -f "$f" ] && pfiles+=(--file "$f:$f")
done
pfiles+=(--file /usr/bin/cat:/zs/gnu/cat --file /usr/bin/dd:/zs/gnu/dd)
if uu=$(zs_uutils); then
	# a directory: the rig would run the host's ldd on the binary
	rm -rf "$out/uutils" && mkdir -p "$out/uutils/usr/bin" "$out/uutils/usr/lib/x86_64-linux-gnu" &&
	cp -L "$uu/usr/bin/coreutils" "$out/uutils/usr/bin/" &&
	for f in ld-linux-x86-64.so.2 libc.so.6 libm.so.6 libgcc_s.so.1 libselinux.so.1 libpcre2-8.so.0; do
		cp -L "$uu/usr/lib/x86_64-linux-gnu/$f" "$out/uutils/usr/lib/x86_64-linux-gnu/" || exit 2
	done || exit 2
	pfiles+=(--file "$out/uutils:/zs/uutils")
	say "uutils: $(ls "$ZS_UUTILS_CACHE"/rust-coreutils_*.deb 2>/dev/null | sed 's|.*/||')"
else
	say "no uutils coreutils: its workload skips"
fi

gcc -O2 -Wall -Wextra -pthread -static -o "$out/contention" "$here/contention.c" || exit 2
gcc -O2 -Wall -Wextra -static -o "$out/zeroout" "$here/zeroout.c" || exit 2
# LTP's splice and tee tests (mainline/sources.sh: zs_ltp), static.
ltp=()
if ltpdir=$(zs_ltp 2>"$out/build-ltp.log"); then
	for f in "$ltpdir"/splice[0-9]* "$ltpdir"/tee[0-9]*; do ltp+=(--file mem "$f"); done
	say "LTP $(cat "$ltpdir/VERSION"): $(cd "$ltpdir" && echo splice[0-9]* tee[0-9]*)"
else
	say "LTP splice/tee not run: $(tail -n 1 "$out/build-ltp.log")"
fi
lkp=${MEM_LKP_STRESSNG:-/var/cache/zsplice/stress-ng/V0.17.00/stress-ng}
[ "$lkp" = none ] || [ -x "$lkp" ] || lkp=$(command -v stress-ng || echo none)
files=()
if [ "$lkp" != none ]; then
	files+=(--file "$lkp:$lkp")
	say "LKP's command with $lkp ($("$lkp" --version 2>&1 | head -n 1))"
fi
[ -x "$top/userspace/zsbench" ] && files+=(--file "$top/userspace/zsbench:/zs/bin/")

# The guest jobs, as kselftest installs (tools/rig/ksft-install.sh):
# guest = the kselftests, splice_int_max, zsbench, then with the module
# loaded LKP's command and the contention run; quick = MEM_QUICK_TESTS.
tmo=900
g=$here/guest
args=(--selftests --prog mem "$g/zsbench.sh" --prog rig "$rig/guest/load.sh")
intmax_t=
if [ -x "$int_max" ]; then
	args+=(--prog mem "$int_max" --prog mem "$g/splice_int_max_no_uring")
	intmax_t="-t mem:splice_int_max -t mem:splice_int_max_no_uring "
fi
[ "$lkp" = none ] || args+=(--prog mem "$g/lkp.sh")
ltp_t=
if [ ${#ltp[@]} -gt 0 ]; then
	args+=(--prog mem "$g/ltp-splice.sh" "${ltp[@]}")
	ltp_t="-t mem:ltp-splice.sh "
fi
args+=(--prog mem "$g/contention-run.sh" --file mem "$here/contention.sh"
       --file mem "$out/contention" --prog mem "$g/programs.sh"
       --prog mem "$g/zeroout.sh" --file mem "$out/zeroout"
       --prog mem "$ksplice/short_splice_read.sh" --prog mem "$ksplice/default_file_splice_read.sh"
       --file mem "$ksplice/splice_read" --file mem "$ksplice/default_file_splice_read"
       --timeout mem "$tmo")
bash "$rig/ksft-install.sh" "$out/ksft-guest" "${args[@]}" || exit 2
args=()
for t in ${MEM_QUICK_TESTS:-zsplice_fill_test splice_int_max}; do
	case $t in
	splice_int_max) [ -x "$int_max" ] && args+=(--prog mem "$int_max") ;;
	splice_int_max_no_uring) [ -x "$int_max" ] && args+=(--file mem "$int_max" --prog mem "$g/splice_int_max_no_uring") ;;
	zeroout) args+=(--prog mem "$g/zeroout.sh" --file mem "$out/zeroout") ;;
	ltp) [ ${#ltp[@]} -eq 0 ] || args+=(--prog mem "$g/ltp-splice.sh" "${ltp[@]}") ;;
	*) args+=(--prog zsplice "$top/selftests/$t") ;;
	esac
done
bash "$rig/ksft-install.sh" "$out/ksft-quick" "${args[@]}" || exit 2

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
	bash "$rig/run.sh" --quiet --kimage "$d/bzImage" --kmods "$d/modules" \
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

# impl_of K: what kernel K's /dev/zero does, as the kselftests' target
# mode names it: copy (stock, or no series that gives mem.c
# zero_splice_read()), folio (2 MiB buffers: the persistent huge zero
# folio, by the option or by the RFC's knob at @persistent), zeropage
# (4 KiB buffers).
impl_of() {
	local d=${kdir[$1]}
	if [ "${has_zero[$1]}" = 0 ]; then
		echo copy
	elif grep -q '^CONFIG_PERSISTENT_HUGE_ZERO_FOLIO=y' "$d/config" ||
	     [[ $1 == *@persistent ]]; then
		echo folio
	else
		echo zeropage
	fi
}

append="mitigations=off ${MEM_APPEND-init_on_alloc=1}"
commit="$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)$(
	git -C "$top" diff --quiet HEAD -- mainline tools selftests userspace 2>/dev/null ||
	echo '+local changes')"
# stamp DIR K: what produced the boot of kernel K whose logs are in DIR.
stamp() {
	echo "$(cat "${kdir[$2]}/release"); commit $commit, $(date -u +%FT%TZ), guest: $append" >"$1/run.txt"
}
for phase in guest quick; do
	has_phase "$phase" || continue
	for k in $kernels; do
		rm -rf "$out/$phase-$k"
		kfiles=("${files[@]}" "${pfiles[@]}" --file "$out/ksft-$phase:/zs/ksft")
		if ko=$(build_module "$k"); then
			kfiles+=(--file "$ko:/zs/")
		else
			say "kernel $k: zsplice.ko did not build (see $out/module-$k.log)"
		fi
		env="export ZSPLICE_ZERO=/dev/zero ZSPLICE_FULL=/dev/full ZSPLICE_MAINLINE_IMPL=$(impl_of "$k")"
		[ -z "${MEM_ZSBENCH_ARGS:-}" ] || env="$env ZSBENCH_ARGS='$MEM_ZSBENCH_ARGS'"
		[ "$lkp" = none ] || env="$env MEM_LKP_STRESSNG=$lkp MEM_LKP_TIME=${MEM_LKP_TIME:-60}"
		r=/zs/ksft/run_kselftest.sh
		env="$env; $(guest_setup "$k") || exit 1"
		if [ "$phase" = quick ]; then
			cmd="$env; $r -o $tmo"
		else
			cmd="$env; $r -c zsplice -o $tmo; $r ${intmax_t}-t mem:zsbench.sh -o $tmo;"
			cmd="$cmd $r -t mem:short_splice_read.sh -t mem:default_file_splice_read.sh -t mem:programs.sh -t mem:zeroout.sh ${ltp_t}-o $tmo;"
			cmd="$cmd $r -t rig:load.sh; $r -t mem:$([ "$lkp" = none ] || echo "lkp.sh -t mem:")contention-run.sh -o $tmo"
		fi
		say "$phase: kernel $k ($(cat "${kdir[$k]}/release")), /dev/zero as $(impl_of "$k")"
		start=$(date +%s)
		collect=()
		[ "$phase" = quick ] || collect=(--collect /tmp/zsbench.json)
		kernel_boot "$k" "$phase" --timeout "${ZSVM_TIMEOUT:-3600}" \
			"${collect[@]}" "${kfiles[@]}" -- "$cmd"
		say "$phase: kernel $k: $(($(date +%s) - start)) s in the guest"
		cp "$out/$phase-$k/elapsed" "$out/$phase-$k/time.txt" 2>/dev/null
		stamp "$out/$phase-$k" "$k"
		[ -f "$out/$phase-$k/zsbench.json" ] && cp "$out/$phase-$k/zsbench.json" "$out/zsbench-$k.json"
	done
done

# ------------------------------------------------------- icount runs
# /dev/zero only (no module: every kernel measures the same thing), the
# splice sizes and sendfile of the perf gate, sendfile to loopback TCP, 5
# repetitions of 0.01 guest s; then the program workloads, whose guest ns
# are instructions.
if has_phase icount; then
	for k in $kernels; do
		rm -rf "$out/icount-$k" "$out/icount-$k.json"
		say "icount: kernel $k ($(cat "${kdir[$k]}/release"))"
		kernel_boot "$k" icount --icount --cpus 1 --timeout 900 \
			--file "$top/userspace/zsbench:/zs/bin/" "${pfiles[@]}" \
			--file "$g/programs.sh:/zs/bin/" --collect /tmp/icount.json -- \
			"$(guest_setup "$k") && ip link set lo up &&
			zsbench run --icount --no-load --no-floor --runs 5 --duration 0.01 --quiet \
				--impl devzero --json /tmp/icount.json \
				--workload splice-1,splice-4K,splice-64K,splice-1M,sendfile-null-64K,sendfile-tcp-64K &&
			sh /zs/bin/programs.sh" &&
			cp "$out/icount-$k/icount.json" "$out/icount-$k.json" &&
			stamp "$out/icount-$k" "$k"
		cp "$out/icount-$k/elapsed" "$out/icount-$k/time.txt" 2>/dev/null
	done
fi

# -------------------------------------------------------------- summary
# Of the kernels of this run only: logs of others in the output directory
# are left out.
{
	for phase in guest quick icount; do
		reported "$phase" || continue
		for k in $kernels; do
			log=$out/$phase-$k/output.log
			[ -f "$log" ] || continue
			echo "== $phase-$k ($(cat "$out/$phase-$k/run.txt" 2>/dev/null))"
			[ ! -s "$out/$phase-$k/time.txt" ] || echo "  time: $(cat "$out/$phase-$k/time.txt") s in the guest"
			grep -E 'small_splice_count:zsplice .* pipe (64|1024) KiB' "$log" |
				sed -E 's/^(# )+[^ ]*small_splice_count:/  fill: /'
			awk '/^# selftests: / { t = $4 } /^# # Totals:/ { print "  " t ": " substr($0, 3) }' "$log"
			# What each failing splice_int_max test got, from the first
			# kselftest_harness message of the test ("FILE:LINE:TEST:Expected
			# EXPR (GOT) == EXPR (WANT)"): "  intmax: TEST GOT", TEST
			# splice_pipe_to_pipe written as splice (mainline/figures.py:
			# intmax.<kernel>.<test>).
			sed -nE 's/^(# )+.*splice_int_max\.c:[0-9]+:([a-z_]+):Expected .* \((-?[0-9]+)\) (==|!=|<=|>=|<|>) .*$/  intmax: \2 \3/p' "$log" |
				sed 's/^  intmax: splice_pipe_to_pipe /  intmax: splice /' | awk '!seen[$2]++'
			grep -E '^# ((lkp|devzero|none): .*asleep|.*stress-ng: (info|metrc).*splice)' "$log" | sed 's/^# //'
			grep -E '^# (devzero|copy|zeropage) /dev/.* MBps ' "$log" | sed 's/^# /  /'
			grep -E '^(# )*(program [^ ]* median|tcp_mmap: received|setup: |zeroout: |ltp: )' "$log" | sed -E 's/^(# )*/  /'
			grep -E '^(not )?ok [0-9]+ selftests: mem: (short_splice_read|default_file_splice_read)' "$log" |
				sed -E 's/^(not ok|ok) [0-9]+ selftests: mem: ([^ ]*).*/  kselftest splice: \2 \1/'
		done
	done
} | tee "$out/summary.txt"

# ltp_results DIR: the LTP lines of $out/DIR's guest output, sorted.
ltp_results() {
	sed -nE 's/^(# )*ltp: //p' "$out/$1/output.log" 2>/dev/null | sort
}
# A zsplice kselftest that failed or never ran fails mem-check on every
# kernel; splice_int_max is expected to pass where the fix series is
# applied, and to fail elsewhere (reported, not a failure).
for phase in guest quick; do
	reported "$phase" || continue
	for k in $kernels; do
		log=$out/$phase-$k/output.log
		[ -f "$log" ] || continue
		want='zsplice:zsplice_|mem:zeroout.sh'
		[ "${has_fix[$k]}" = 1 ] && want="$want|mem:splice_int_max"
		if [ "${has_fix[$k]}" = 0 ] &&
		   grep -qE '^ok [0-9]+ selftests: mem: splice_int_max$' "$log"; then
			say "kernel $k: splice_int_max passed without the fix series: the reproducer no longer shows the bug"
		fi
		[ "$k" = stock ] && continue
		grep -E "^($want)" "$out/ksft-$phase/kselftest-list.txt" >"$out/expect-$phase"
		if grep -qE "^not ok [0-9]+ selftests: (${want//:/: })" "$log" ||
		   awk -v lists="$out/expect-$phase" -f "$rig/tapcount.awk" "$log" | grep -q 'never ran'; then
			what=kselftest
			[ "${has_fix[$k]}" = 1 ] && what="kselftest or splice_int_max"
			say "kernel $k: a $what failed"
			fail=1
		fi
		# LTP's splice and tee tests: stock's results, test by test
		if [[ " $kernels " != *" stock "* ]]; then
			grep -qE '^(# )*ltp: ' "$log" && say "kernel $k: LTP results not compared: no stock in MEM_KERNELS"
			continue
		fi
		d=$(diff <(ltp_results "$phase-stock") <(ltp_results "$phase-$k") |
			sed -n 's/^[<>] \([^ ]*\) .*/\1/p' | sort -u | xargs)
		if [ -n "$d" ]; then
			say "kernel $k: LTP results differ from stock's: $d"
			fail=1
		fi
	done
done

# Every comparison the output directory holds, as for the icount ones
# below (MEM_PHASES=summary rewrites the whole summary).
reported guest && [[ " $kernels " == *" stock "* ]] && for k in $kernels; do
	if [ "$k" = stock ] || [ ! -f "$out/zsbench-stock.json" ] || [ ! -f "$out/zsbench-$k.json" ]; then
		continue
	fi
	echo "== zsbench compare stock $k" | tee -a "$out/summary.txt"
	(cd "$out" && "$top/userspace/zsbench" compare zsbench-stock.json "zsbench-$k.json") |
		tee -a "$out/summary.txt"
done
reported icount && [[ " $kernels " == *" stock "* ]] && for k in $kernels; do
	if [ "$k" = stock ] || [ ! -f "$out/icount-stock.json" ] || [ ! -f "$out/icount-$k.json" ]; then
		continue
	fi
	echo "== zsbench compare stock $k, guest instructions per op (-icount; $(cat "$out/icount-$k/run.txt" 2>/dev/null))" |
		tee -a "$out/summary.txt"
	(cd "$out" && "$top/userspace/zsbench" compare icount-stock.json "icount-$k.json") |
		tee -a "$out/summary.txt"
done

# The summary, with the command and commit that produced it, in results/
# (MEM_RESULTS; a run of the quick phase alone writes only its output
# directory unless MEM_RESULTS names a file)
# (file names relative to the output directory: no path of this machine).
results=${MEM_RESULTS:-$top/results/mem-check-$ver.txt}
if { [ "$phases" = quick ] || [ -n "$tree" ]; } && [ -z "${MEM_RESULTS:-}" ]; then
	results=$out/results.txt
fi
mkdir -p "$(dirname "$results")"
kbase=${KERNEL_BASE:-'@{upstream}'}
{
	echo "# make mem-check${tree:+ KERNEL_TREE=... KERNEL_BASE=$kbase} MEM_KERNELS=\"$kernels\" MEM_PHASES=\"$phases\"${MEM_QUICK_TESTS:+ MEM_QUICK_TESTS=\"$MEM_QUICK_TESTS\"}${MEM_LKP_TIME:+ MEM_LKP_TIME=$MEM_LKP_TIME}"
	[ -z "$tree" ] || echo "# KERNEL_TREE: HEAD $(git -C "$tree" rev-parse HEAD)$(git -C "$tree" diff --quiet HEAD 2>/dev/null || echo ' + changes not committed'), base $base"
	echo "# $srcname; summary written at commit $commit, $(date -u +%FT%TZ);" \
		"each section names the commit of its boot"
	echo "# verdict: $([ "$fail" = 0 ] && echo PASS || echo FAIL)"
	echo "# elapsed: $((SECONDS - t_run)) s, of which kernel builds $t_builds s"
	# The stress-ng of LKP's command (mainline/figures.py: run.stressng),
	# its --version line without the host's uname (no name of this
	# machine) and non-ASCII; MEM_PHASES=summary names the one the
	# script would use now.
	if [ "$lkp" = none ]; then
		echo "# stress-ng: none (LKP's command not run)"
	else
		echo "# stress-ng: $("$lkp" --version 2>&1 | head -n 1 |
			LC_ALL=C sed -E 's/, [^ ,]+ Linux [^)]*\)/)/; s/[^ -~]//g; s/ +$//')"
	fi
	cat "$out/summary.txt"
} >"$results"
if [ "$fail" = 0 ]; then say "PASS (results in $out)"; else say "FAIL (results in $out)"; fi
exit "$fail"
