#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Mutation check: can the guest tests fail?  Applies, one at a time,
# planted bugs to a scratch copy of the driver, builds each (cached under
# /var/cache/zsplice/mutants/<key>/, keyed by the mutated sources and the
# kernel), boots one guest per mutant running only the tests that should
# catch it, and requires every mutant to be caught (a test failure, a
# kernel splat or a timeout).  The unmutated driver runs the union of those
# tests first (the control): a mutant only counts as caught when the
# control passed.  Legal variants (behaviour the kernel allows, e.g. a
# copy_splice_read that returns one page per call) must pass the tests
# instead.  Prints KTAP and "mutants: N caught of M".
#
# Usage: mutants.sh [--out DIR] [--only NAME] [--no-control] [--list]
# Environment: KVER (guest kernel), MUTANTS_TIMEOUT (per guest, default 900 s).
set -uo pipefail

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
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
vm=$top/tools/rig
# shellcheck source=tools/rig/kver.sh
. "$vm/kver.sh"
KVER=${KVER:-$(zs_installed_kver)}
KDIR=/lib/modules/$KVER/build
out=$top/.mutants
only=
control=1
list=0
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--no-control) control=0; shift ;;
	--list) list=1; shift ;;
	-h|--help) usage 0 ;;
	*) echo "mutants.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
cache=/var/cache/zsplice/mutants
tmo=${MUTANTS_TIMEOUT:-900}
# per test program: the timeout kselftest's runner enforces (selftests/settings)
prog_tmo=$(zs_test_timeout)

# ---------------------------------------------------------------- mutants
# NAME|FILE|PERL SUBSTITUTION (applied with perl -0pi, must change the
# file)|TESTS (program:-r filter,... separated by spaces)
mutants=(
"can_merge|drivers/char/zsplice/splice.c|s/(\\.ops\\s*=\\s*&nosteal_pipe_buf_ops,\\s*\\.flags\\s*=\\s*)0/\${1}PIPE_BUF_FLAG_CAN_MERGE/|zsplice_dirtypipe_test:dp.zsplice_ZEROPAGE.splice_then_write,dp.zsplice_FOLIO.splice_then_write"
"coalesce_past_end|drivers/char/zsplice/pages.c|s/return zs_pages_size\\(set\\) - end;/return zs_pages_size(set) - end + PAGE_SIZE;/|zsplice_pipe_test:pp.zsplice_ZEROPAGE.fionread_vs_getpipe_sz,pp.zsplice_FOLIO.fionread_vs_getpipe_sz zsplice_splice_test:sp.zsplice_ZEROPAGE.splice_read_more_than_fits"
"ref_too_few|drivers/char/zsplice/splice.c|s/folio_ref_add\\(folio, nr\\);/folio_ref_add(folio, nr - 1);/|zsplice_devices_test:stats.zsplice.pipe_refs_follow_pipes"
"ref_too_many|drivers/char/zsplice/splice.c|s/folio_ref_add\\(folio, nr\\);/folio_ref_add(folio, nr + 1);/|zsplice_lifetime_test:life.orphans_freed_after_rmmod"
"eintr_on_signal|drivers/char/zsplice/splice.c|s/(#include <linux\\/splice.h>\\n)/\${1}#include <linux\\/sched\\/signal.h>\\n/; s/(\\tthis_cpu_inc\\(zdev->stats->splice\\[impl\\]\\.calls\\);\\n)/\${1}\\tif (signal_pending(current))\\n\\t\\treturn -ERESTARTSYS;\\n/|zsplice_signal_test:sig.zsplice_COPY.storm_no_eintr,sig.zsplice_ZEROPAGE.storm_no_eintr,sig.zsplice_FOLIO.storm_no_eintr,sig.fullsplice_FOLIO.storm_no_eintr"
"fullsplice_write_count|drivers/char/zsplice/main.c|s/(zs_write_full\\(.*?)return -ENOSPC;/\${1}return count;/s|zsplice_devices_test:dev.fullsplice.write"
"copy_uses_zeropage|drivers/char/zsplice/splice.c|s/ret = zs_splice_copy\\(zdev, file, ppos, pipe, len, flags\\);/ret = zs_splice_zero(zdev, impl, pipe, len);/|zsplice_fill_test:fill.zsplice_COPY_16k.small_splice_count zsplice_pipe_test:pp.zsplice_COPY.fionread_vs_getpipe_sz"
"stat_not_incremented|drivers/char/zsplice/splice.c|s/\\t\\tthis_cpu_add\\(zdev->stats->splice\\[impl\\]\\.bytes, ret\\);\\n/\\t\\t;\\n/|zsplice_devices_test:stats.zsplice.splice_read_counters"
"no_pipe_cap|drivers/char/zsplice/splice.c|s/return bytes < ZS_PIPE_MAX_BYTES \\? ZS_PIPE_MAX_BYTES - bytes : 0;/return ZS_PIPE_MAX_BYTES;/|zsplice_pipe_test:cap.fionread_capped_in_largest_pipe"
"fullsplice_nowait|drivers/char/zsplice/main.c|s/(\\.kind = ZS_FULL,\\n)/\${1}\\t\\t.fmode = FMODE_NOWAIT,\\n/|zsplice_devices_test:dev.fullsplice.rwf_nowait_like_mainline"
"read_ignores_signal|drivers/char/zsplice/main.c|s/\\t\\tif \\(signal_pending\\(current\\)\\) \\{\\n\\t\\t\\terr = -ERESTARTSYS;\\n\\t\\t\\tbreak;\\n\\t\\t\\}\\n//|zsplice_signal_test:sig.zsplice_COPY.readv_1g_partial_like_mainline"
"no_coalescing|drivers/char/zsplice/splice.c|s/n = min\\(len, zs_pages_buf_room\\(buf\\)\\);/n = 0;/|zsplice_pipe_test:pp.zsplice_ZEROPAGE.setpipe_sz_grow_shrink_ebusy_like_mainline"
)

# Legal variations: behaviour the kernel allows that the tests must accept
# (must NOT be caught).  copy_one_page: copy_splice_read returning one page
# per call, as it does when the page allocator hands out single pages
# (page_owner=on): every splicing test must loop or accept the short count.
legal=(
"copy_one_page|drivers/char/zsplice/splice.c|s/zs_copy_splice_read\\(file, ppos, pipe, len, flags\\)/zs_copy_splice_read(file, ppos, pipe, min_t(size_t, len, PAGE_SIZE), flags)/|zsplice_splice_test:-v,zsplice_COPY,-v,fullsplice_COPY zsplice_consumers_test:-v,zsplice_COPY,-v,fullsplice_COPY zsplice_dirtypipe_test:-v,zsplice_COPY zsplice_pipe_test:-v,zsplice_COPY zsplice_signal_test:-v,zsplice_COPY"
)

if [ "$list" = 1 ]; then
	for m in "${mutants[@]}"; do
		IFS='|' read -r name file _ tests <<<"$m"
		echo "$name ($file): $tests"
	done
	exit 0
fi

mkdir -p "$out" "$cache"
caught=0
total=0
# KTAP through the kernel's ktap_helpers.sh.
. "${KSFT_DIR:-$(zs_src_tree)/tools/testing/selftests}/kselftest/ktap_helpers.sh"
ok() { ktap_test_pass "$*"; }
notok() { ktap_test_fail "$*"; }

# The driver sources a module build needs.
src_files() {
	(cd "$top" && git ls-files Kbuild drivers include 2>/dev/null || find Kbuild drivers include -type f)
}

# build DIR: the module of the sources in DIR, cached by their content;
# prints the path of zsplice.ko.
build() {
	local dir=$1 key ko log
	key=$( (cd "$dir" && find . -type f ! -name '*.o' ! -name '*.ko' ! -name '.*' | LC_ALL=C sort |
		xargs sha256sum; echo "$KVER") | sha256sum | cut -c1-16)
	ko=$cache/$key/zsplice.ko
	if [ ! -s "$ko" ]; then
		log=$dir.build.log
		if ! nice -n 19 make -C "$KDIR" M="$dir" ZSPLICE_VERSION=mutant modules >"$log" 2>&1; then
			tail -n 20 "$log" >&2
			return 1
		fi
		mkdir -p "$cache/$key.tmp.$$"
		cp "$dir/zsplice.ko" "$cache/$key.tmp.$$/"
		mv -T "$cache/$key.tmp.$$" "$cache/$key" 2>/dev/null || rm -rf "$cache/$key.tmp.$$"
	fi
	echo "$ko"
}

# scratch NAME: a fresh copy of the driver sources in $out/NAME.
scratch() {
	local d=$out/$1
	rm -rf "$d" "$d.build.log"
	mkdir -p "$d"
	(cd "$top" && src_files | cpio -pdm --quiet "$d")
	echo "$d"
}

# guest NAME KO TESTS...: boot one guest, run each "prog:filter,filter";
# status 0 when every program passed and the kernel did not splat.
guest() {
	local name=$1 ko=$2 cmd spec prog filters f args files=() progs=()
	shift 2
	cmd="insmod /zs/zsplice.ko || exit 99; export ZSPLICE_KO=/zs/zsplice.ko; rc=0"
	for spec in "$@"; do
		prog=${spec%%:*}
		filters=${spec#*:}
		args=
		for f in ${filters//,/ }; do
			case $f in
			-*|[!a-z]*) args="$args $f" ;;
			*) if [ "${args##* }" = -v ] || [ "${args##* }" = -t ] || [ "${args##* }" = -f ]; then
				args="$args $f"
			   else
				args="$args -r $f"
			   fi ;;
			esac
		done
		cmd="$cmd; echo '# mutant $name: $prog$args'; timeout -s KILL $prog_tmo /zs/bin/$prog$args || rc=1"
		case " ${progs[*]-} " in *" $prog "*) ;; *) progs+=("$prog") ;; esac
	done
	cmd="$cmd; exit \$rc"
	for prog in "${progs[@]}"; do
		[ -x "$top/selftests/$prog" ] || { echo "# $prog not built" >&2; return 2; }
		files+=(--file "$top/selftests/$prog:/zs/bin/")
	done
	"$vm/run.sh" --quiet --out "$out/$name.guest" --timeout "$tmo" \
		--file "$ko:/zs/zsplice.ko" "${files[@]}" -- "$cmd" >"$out/$name.log" 2>&1
}

main() {
make -s -C "$top/selftests" >/dev/null 2>&1 || { echo "mutants: selftests do not build" >&2; exit 2; }

ktap_print_header
sel=()
for m in "${mutants[@]}"; do
	IFS='|' read -r name _ _ _ <<<"$m"
	[ -z "$only" ] || [ "$only" = "$name" ] && sel+=("$m")
done
lsel=()
for m in "${legal[@]}"; do
	IFS='|' read -r name _ _ _ <<<"$m"
	[ -z "$only" ] || [ "$only" = "$name" ] && lsel+=("$m")
done
ktap_set_plan $(( ${#sel[@]} + ${#lsel[@]} + control ))

if [ "$control" = 1 ]; then
	alltests=()
	for m in "${sel[@]}"; do
		IFS='|' read -r _ _ _ tests <<<"$m"
		for t in $tests; do alltests+=("$t"); done
	done
	d=$(scratch control)
	if ko=$(build "$d") && guest control "$ko" "${alltests[@]}"; then
		ok "control: the unmutated driver passes every selected test"
	else
		notok "control: the unmutated driver fails the selected tests (see $out/control.log): mutants prove nothing"
		grep -E '^not ok|Expected' "$out/control.log" | head -n 20 | sed 's/^/# /'
	fi
fi

for m in "${sel[@]}"; do
	IFS='|' read -r name file subst tests <<<"$m"
	total=$((total + 1))
	d=$(scratch "$name")
	if ! MUT_SUBST=$subst perl -0pi -e 'BEGIN { $n = 0 } $n += eval "$ENV{MUT_SUBST}"; die $@ if $@; END { exit($n ? 0 : 3) }' "$d/$file" 2>"$out/$name.perl.log"; then
		notok "mutant $name: could not plant it in $file (pattern not found; driver changed?)"
		continue
	fi
	if cmp -s "$top/$file" "$d/$file"; then
		notok "mutant $name: $file unchanged"
		continue
	fi
	(cd "$out" && diff -u "$top/$file" "$d/$file" >"$name.diff")
	if ! ko=$(build "$d"); then
		notok "mutant $name: does not build (see $d.build.log)"
		continue
	fi
	guest "$name" "$ko" $tests
	rc=$?
	if [ "$rc" = 0 ]; then
		notok "mutant $name: NOT caught by $tests"
	else
		caught=$((caught + 1))
		why=$(grep -m1 -E '^not ok' "$out/$name.log" || true)
		case $rc in
		3) why="kernel splat${why:+; $why}" ;;
		124) why="guest timeout${why:+; $why}" ;;
		esac
		ok "mutant $name: caught (${why:-rc $rc})"
	fi
done
# Legal variants: the same, but every selected test must pass.
for m in "${lsel[@]}"; do
	IFS='|' read -r name file subst tests <<<"$m"
	d=$(scratch "$name")
	if ! MUT_SUBST=$subst perl -0pi -e 'BEGIN { $n = 0 } $n += eval "$ENV{MUT_SUBST}"; die $@ if $@; END { exit($n ? 0 : 3) }' "$d/$file" 2>"$out/$name.perl.log"; then
		notok "legal variant $name: could not apply it to $file (pattern not found)"
		continue
	fi
	if ! ko=$(build "$d"); then
		notok "legal variant $name: does not build (see $d.build.log)"
		continue
	fi
	if guest "$name" "$ko" $tests; then
		ok "legal variant $name: accepted by $tests"
	else
		notok "legal variant $name: rejected (see $out/$name.log): a test cannot take it"
		grep -E '^not ok|Expected' "$out/$name.log" | head -n 10 | sed 's/^/# /'
	fi
done
echo "mutants: $caught caught of $total"
ktap_print_totals
[ "$KTAP_CNT_FAIL" = 0 ] && [ "$caught" = "$total" ]
}

# The whole run is parsed before it starts: editing this file meanwhile is safe.
main "$@"
