#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tools/rig/check.sh   (what `make check` runs; -h, --help: this text)
#
# `make check`: build everything, run the host unit tests, run the module's
# kselftests and the zsbench smoke test in one QEMU guest, test the VM rig
# itself, and end with one line "N passed, N failed[, N skipped]" counting
# every TAP result from host and guest.  Exits non-zero on any failure,
# kernel splat or timeout.  A component that does not exist yet (module,
# test binaries, zsbench) is a failed test, never a silent skip.
#
# Environment: KVER (guest kernel), CHECK_OUT (log dir, default .check/),
# ZSVM_TIMEOUT (guest run hard timeout, default 720 s), ZSVM_TEST_TIMEOUT
# (per test program in the guest, instead of selftests/settings' timeout:
# run_kselftest.sh -o), ZSVM_POSSIBLE_CPUS
# (possible CPUs of the guest, default 64 with 2 present), SKIP_RIG=1 (leave
# out the rig self-test while iterating), SKIP_HOST_COMMON=1 (leave out
# the host tests that do not depend on KVER).
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
case ${1:-} in
-h|--help) usage 0 ;;
"") ;;
*) echo "check: no arguments: the environment selects (see --help)" >&2; exit 2 ;;
esac

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
vm=$top/tools/rig
cd "$top" || exit 2
logs=${CHECK_OUT:-$top/.check}
rm -rf "$logs"
mkdir -p "$logs"
start=$(date +%s)

say() { echo "check: $*"; }
elapsed() { echo "$(($(date +%s) - start)) s"; }

# section NAME LOGFILE CMD...: run CMD (streaming its output) into LOGFILE
# for the counter.  A nonzero status that its results do not explain (no
# failed result; 4, kselftest's skip, with a skipped one) fails once more;
# a kill or timeout (124 and above) always does.
section() {
	local name=$1 log=$2 rc counted t0=$SECONDS
	shift 2
	"$@" 2>&1 </dev/null | tee "$log"
	rc=${PIPESTATUS[0]}
	say "$name: $((SECONDS - t0)) s"
	[ "$rc" = 0 ] && return 0
	counted=$(awk -f "$vm/tapcount.awk" "$log" | tail -n 1)
	if [ "$rc" -ge 124 ] || { [[ $counted == *" 0 failed"* ]] &&
	   ! { [ "$rc" = 4 ] && [[ $counted == *skipped* ]]; }; }; then
		echo "not ok - $name exited with status $rc" | tee -a "$log"
	fi
	return "$rc"
}

# result LOGFILE "ok|not ok" TEXT: one test result of check.sh itself.
result() {
	echo "$2 - $3" | tee -a "$1"
}

# ------------------------------------------------------------------ deps
say "dependencies"
if ! bash "$vm/deps.sh" --check 2>/dev/null; then
	if ! bash "$vm/deps.sh"; then
		echo "check: deps.sh failed; cannot build or boot anything"
		echo "0 passed, 1 failed"
		exit 1
	fi
fi
# shellcheck source=tools/rig/kver.sh
. "$vm/kver.sh"
export KVER=${KVER:-$(zs_installed_kver)}
say "guest kernel $KVER"

# ----------------------------------------------------------------- builds
build() { # build NAME CMD...: one result line in builds.log
	local name=$1
	shift
	say "build: $name ($*)"
	if "$@" >"$logs/build-$name.log" 2>&1; then
		result "$logs/builds.log" ok "build $name"
	else
		tail -n 40 "$logs/build-$name.log"
		result "$logs/builds.log" "not ok" "build $name failed: see $logs/build-$name.log"
	fi
}
: >"$logs/builds.log"
build module zs_make "$KVER" module
build selftests make -k -C "$top/selftests"
if [ -f "$top/userspace/Makefile" ]; then
	build userspace make -C "$top/userspace"
else
	result "$logs/builds.log" "not ok" "build userspace: userspace/Makefile missing"
fi
build soak make -C "$top/tools/soak"
# The install path, staged for the guest's modprobe test (selftests/modprobe.sh),
# which fails if make install-module left nothing there.
mkdir -p "$logs/stage"
build install-module zs_make "$KVER" install-module \
	INSTALL_MOD_PATH="$logs/stage"
say "builds done after $(elapsed)"

# ------------------------------------------------------- host unit tests
# SKIP_HOST_COMMON=1 (check-matrix, for all but one kernel) leaves out the
# host tests that do not depend on KVER: userspace unit tests, the
# mainline/ series, the --help of every script, the ioctl number table.
common() { [ "${SKIP_HOST_COMMON:-0}" != 1 ]; }
if ! common; then
	say "host unit tests, mainline/ series, ioctl number: left out (SKIP_HOST_COMMON=1)"
elif [ -f "$top/userspace/Makefile" ]; then
	say "host unit tests (make -C userspace test)"
	section host:userspace-test "$logs/host-unit.log" make -s -C "$top/userspace" test
else
	result "$logs/host-unit.log" "not ok" "host unit tests: userspace/Makefile missing"
fi

# Kernel style: checkpatch --strict, sparse and W=1.
say "host: checkpatch, sparse, W=1"
section host:lint "$logs/host-lint.log" bash "$top/tools/lint/lint.sh" \
	"$KVER" "$logs/lint"

# The mem.c series (mainline/): applies, checkpatch, patched objects compile.
common && say "host: mainline/ series" &&
	section host:mainline "$logs/host-mainline.log" bash "$top/mainline/check.sh"

# dkms builds the module from dkms.conf in a private tree.
say "host: dkms build"
section host:dkms-build "$logs/host-dkms.log" bash "$top/tools/lint/dkms-build.sh" \
	"$KVER" "$logs/dkms"

# Every script answers --help and -h with its usage and does nothing else
# (tools/rig/selftest-help.sh: in a scratch copy, with stubs and empty caches).
common && say "host: --help of every script" &&
	section host:help "$logs/host-help.log" bash "$vm/selftest-help.sh"

# Our ioctl magic is free in the kernel's ioctl-number table (6.12 and 7.x
# sources); --self-test proves the check fails for 0xB7.
common && say "host: ioctl magic free in ioctl-number.rst" &&
	section host:ioctl-number "$logs/host-ioctl.log" bash "$top/tools/lint/ioctl-number.sh" \
	--self-test

# ------------------------------------------------------------ guest run
# One kselftest install (tools/rig/ksft-install.sh) run by kselftest's
# run_kselftest.sh: load the module, the kselftests, the zsbench smoke
# test, unload.  Every program the tree expects is listed, so one that did
# not build fails in the guest, and one the guest never got to fails here.
ksft=$logs/ksft
if ! bash "$vm/ksft-install.sh" "$ksft" --suite; then
	result "$logs/guest-prep.log" "not ok" "kselftests not staged (tools/rig/ksft-install.sh)"
fi
files=(--file "$ksft:/zs/ksft")
[ -f "$top/zsplice.ko" ] && files+=(--file "$top/zsplice.ko:/zs/zsplice.ko")
files+=(--file "$logs/stage:/zs/stage")
if [ -x "$top/userspace/zsbench" ]; then
	files+=(--file "$top/userspace/zsbench:/zs/bin/")
else
	result "$logs/guest-prep.log" "not ok" "userspace/zsbench missing: the guest smoke test cannot run it"
fi

say "guest run: module, kselftests, smoke test (after $(elapsed))"
# 64 possible CPUs (2 present): per-possible-CPU allocations show up.
"$vm/run.sh" --out "$logs/guest" --timeout "${ZSVM_TIMEOUT:-720}" \
	--possible "${ZSVM_POSSIBLE_CPUS:-64}" "${files[@]}" \
	-- "export ZSPLICE_KO=/zs/zsplice.ko; $(zs_suite_cmd "${ZSVM_TEST_TIMEOUT:-}")"
grc=$?
case $grc in
0|1) result "$logs/guest-verdict.log" ok "guest run: no kernel splat, finished in time" ;;
3) result "$logs/guest-verdict.log" "not ok" "guest run: kernel splat (see $logs/guest/console.log)" ;;
4) result "$logs/guest-verdict.log" "not ok" "guest run: guest did not report an exit status (crash? see $logs/guest/console.log)" ;;
124) result "$logs/guest-verdict.log" "not ok" "guest run: TIMEOUT after ${ZSVM_TIMEOUT:-720} s" ;;
*) result "$logs/guest-verdict.log" "not ok" "guest run: runner failed with status $grc" ;;
esac

# ------------------------------------------------------------ perf gate
# Instruction counts under QEMU -icount against rules and the kernel
# line's baseline (tools/rig/perf-gate.sh); deterministic.
say "perf gate: instruction counts under -icount (after $(elapsed))"
section perf:gate "$logs/perf-gate.log" bash "$vm/perf-gate.sh" --kver "$KVER" --out "$logs/perf"

# ------------------------------------------------------ rig self-test
if [ "${SKIP_RIG:-0}" != 1 ]; then
	say "rig self-test (after $(elapsed))"
	section rig:selftest "$logs/rig.log" "$vm/selftest-rig.sh" --out "$logs/rig"
fi

# ------------------------------------------------------- soak, short form
if [ "${SKIP_SOAK:-0}" != 1 ]; then
	say "soak, short form (after $(elapsed))"
	SOAK_MINUTES=${SOAK_MINUTES:-3} bash "$top/tools/soak/soak.sh" \
		--no-build --out "$logs/soak"
	src=$?
	# A soak that stopped before its first result (bad SOAK_MINUTES) counts.
	[ "$src" = 0 ] || [ -s "$logs/soak/verdict.tap" ] ||
		result "$logs/soak-verdict.log" "not ok" "soak did not run (status $src)"
fi

# ---------------------------------------------------------------- verdict
say "finished after $(elapsed); logs in $logs"
logfiles=()
for f in builds.log host-unit.log host-lint.log host-mainline.log host-dkms.log host-help.log host-ioctl.log guest-prep.log guest/output.log guest-verdict.log perf-gate.log rig.log soak-verdict.log soak/verdict.tap soak/output.log; do
	[ -f "$logs/$f" ] && logfiles+=("$logs/$f")
done
lists=$ksft/kselftest-list.txt
[ -f "$logs/soak/ksft/kselftest-list.txt" ] && lists="$lists $logs/soak/ksft/kselftest-list.txt"
awk -v lists="$lists" -f "$vm/tapcount.awk" "${logfiles[@]}" | tee "$logs/summary.txt"
grep -q ' 0 failed' "$logs/summary.txt"
