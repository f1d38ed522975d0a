#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The VM rig tests itself: boots guests that must fail in known ways and
# checks that run.sh reports each one correctly, and that a job's failing
# programs are counted as failures.  KTAP (the kernel's
# kselftest/ktap_helpers.sh); every
# assertion is one test.  A rig that cannot fail is no rig.
#
# Usage: selftest-rig.sh [--out DIR]   (KVER= selects the guest kernel)
#   --out DIR   the guests' logs (default tools/rig/.build/selftest-rig)
#   -h, --help  this text
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
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tools/rig/kver.sh
. "$here/kver.sh"
out=$here/.build/selftest-rig
while [ $# -gt 0 ]; do
	case $1 in
	--out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
	-h|--help) usage 0 ;;
	*) echo "selftest-rig: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
kver=${KVER:-$(zs_installed_kver)}
export KVER=$kver
rm -rf "$out"
mkdir -p "$out"
. "${KSFT_DIR:-$(zs_src_tree)/tools/testing/selftests}/kselftest/ktap_helpers.sh"

ok() { ktap_test_pass "$*"; }
notok() { ktap_test_fail "$*"; }
check() { # check DESCRIPTION CONDITION...
	local d=$1
	shift
	if "$@"; then ok "$d"; else notok "$d"; fi
}

# vm NAME [run.sh args...]: run a guest; status in $rc, its stderr in
# $out/NAME/zsvm.err.
vm() {
	local name=$1
	shift
	mkdir -p "$out/$name"
	echo "# rig: $name: run.sh $*"
	"$here/run.sh" --quiet --out "$out/$name" "$@" 2>"$out/$name/zsvm.err" >/dev/null
	rc=$?
	echo "# rig: $name: exit status $rc"
	sed 's/^/#   /' "$out/$name/zsvm.err" | grep -E 'zsvm: [A-Za-z]' | grep -v 'zsvm: guest up' | head -n 5
}

ktap_print_header
ktap_set_plan 18

# 2. A failing command: its status must come back as the run's status.
vm fail --timeout 300 -- 'echo "about to fail"; false || exit 7'
check "failing command reports its status (7, got $rc)" [ "$rc" = 7 ]
check "failing run keeps the console log" grep -q 'Linux version' "$out/fail/console.log"

# 3. A kernel WARNING from a test-only module, while the command passes.
wbuild=$out/warn_module
rm -rf "$wbuild"
mkdir -p "$wbuild"
cp "$here/warn_module/zsvm_warn.c" "$here/warn_module/Kbuild" "$here/warn_module/Makefile" "$wbuild/"
if make -s -C "$wbuild" KVER="$kver" ZSVM_DIR="$here" >"$out/warn_build.log" 2>&1 && [ -f "$wbuild/zsvm_warn.ko" ]; then
	ok "warn test module builds against $kver"
	vm warn --timeout 300 --file "$wbuild/zsvm_warn.ko" -- 'insmod /zs/zsvm_warn.ko; echo "insmod returned $?"; exit 0'
	check "kernel WARNING fails the run as a splat (3, got $rc)" [ "$rc" = 3 ]
	check "splat is reported with the WARNING text" \
		grep -q 'zsvm_warn: deliberate warning' "$out/warn/zsvm.err"
else
	sed 's/^/# /' "$out/warn_build.log"
	notok "warn test module builds against $kver"
	notok "kernel WARNING fails the run as a splat (module not built)"
	notok "splat is reported with the WARNING text (module not built)"
fi

# 4. A guest that never finishes: hard timeout.
vm hang --timeout 10 -- 'echo sleeping; sleep 100000'
check "hung guest hits the hard timeout (124, got $rc)" [ "$rc" = 124 ]
check "timeout is reported as such" grep -q 'zsvm: TIMEOUT after 10 s' "$out/hang/zsvm.err"

# 5. A guest that dies before reporting a status.
vm die --timeout 300 -- 'echo dying; poweroff -f; sleep 100'
check "guest that dies unreported gives status 4 (got $rc)" [ "$rc" = 4 ]
check "missing status is reported as such" \
	grep -q 'zsvm: guest did not report an exit status' "$out/die/zsvm.err"

# 6. A kernel that dies during boot, before /init (here: an init that does
# not exist): run.sh boots it a second time, then fails the run.
vm noboot --timeout 120 --append "rdinit=/nonexistent init=/nonexistent" -- 'true'
check "kernel dying in boot fails the run (3, got $rc)" [ "$rc" = 3 ]
check "boot failure is reported and retried once" \
	grep -q 'zsvm: booting once more' "$out/noboot/zsvm.err"
check "the failed boot's console is kept" \
	grep -q 'Kernel panic' "$out/noboot/console.boot-failed.log"

# 1 and 7. A command that succeeds, with a file in and a file back, in
# the boot of a kselftest job (ksft-install.sh) whose programs fail in
# every way the runner and tapcount.awk must catch: one that is killed,
# one past its timeout, one that is missing, a subtest that fails (counted
# once), and a listed program the guest never runs.  One passing program
# and one result before the kill: 3 passed, 5 failed; the runner's own
# status is 0.
p=$out/runner-progs
mkdir -p "$p"
printf '#!/bin/sh\necho "TAP version 13"; echo "1..1"; echo "ok 1 pass"\n' >"$p/pass.sh"
printf '#!/bin/sh\necho "TAP version 13"; echo "1..2"; echo "ok 1 before"; kill -KILL $$\n' >"$p/crash.sh"
printf '#!/bin/sh\necho "TAP version 13"; echo "1..1"; sleep 600\n' >"$p/hang.sh"
printf '#!/bin/sh\n. "$(dirname "$0")/../rig/lib.sh"\nktap_print_header; ktap_set_plan 1\nzs_subtest child printf "TAP version 13\\n1..2\\nok 1 a\\nnot ok 2 b\\n"\nktap_finished\n' >"$p/subfail.sh"
printf '#!/bin/sh\necho "TAP version 13"; echo "1..1"; echo "ok 1 never"\n' >"$p/never.sh"
chmod +x "$p"/*.sh
ok=0
bash "$here/ksft-install.sh" "$out/runner-ksft" --prog x "$p/pass.sh" --prog x "$p/crash.sh" \
	--prog x "$p/hang.sh" --prog x "$p/subfail.sh" --prog x "$p/missing.sh" \
	--prog y "$p/never.sh" >"$out/runner-install.log" 2>&1 && ok=1
check "ksft-install.sh stages a job" [ "$ok" = 1 ]
echo "zsvm payload $$" >"$out/payload.txt"
vm runner --timeout 300 --file "$out/payload.txt" --collect /tmp/back.txt \
	--file "$out/runner-ksft:/zs/ksft" -- \
	'cat /zs/payload.txt; cp /zs/payload.txt /tmp/back.txt; /zs/ksft/run_kselftest.sh -c x -o 5'
check "passing command reports status 0" [ "$rc" = 0 ]
check "command output reaches output.log" grep -q "zsvm payload $$" "$out/runner/output.log"
check "collected file comes back intact" cmp -s "$out/payload.txt" "$out/runner/back.txt"
awk -v lists="$out/runner-ksft/kselftest-list.txt" -f "$here/tapcount.awk" \
	"$out/runner/output.log" >"$out/runner/count.txt"
sed 's/^/# /' "$out/runner/count.txt"
check "killed, timed-out, missing and failing-subtest programs count (3 passed, 5 failed)" \
	grep -qx '3 passed, 5 failed' "$out/runner/count.txt"
check "a listed program the guest never ran fails" \
	grep -q 'y:never.sh never ran' "$out/runner/count.txt"

ktap_finished
