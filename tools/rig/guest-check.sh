#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of `make check` (runs as root inside the zsvm guest, busybox
# sh).  Loads /zs/zsplice.ko, runs every expected kselftest binary, the
# zsbench smoke test and any extra guest scripts, each in a section
#   # ZSVM-BEGIN name
#   ...its KTAP output...
#   # ZSVM-END name rc=N
# that check.sh counts.  This script's own results are KTAP through the
# kernel's kselftest/ktap_helpers.sh (the rig puts it at the host's path).  Expected binaries are listed in /zs/tests.list so
# that a missing one is reported, not silently skipped.
#
# Environment: ZSVM_TEST_TIMEOUT seconds per test program (check.sh passes
# selftests/settings' timeout, the one kselftest's runner enforces; 300).

ZSPLICE_KO=${ZSPLICE_KO:-/zs/zsplice.ko}
export ZSPLICE_KO
tmo=${ZSVM_TEST_TIMEOUT:-300}
KSFT_DIR=${KSFT_DIR:-/usr/src/linux-source-6.12/linux-source-6.12/tools/testing/selftests}
export KSFT_DIR
. "$KSFT_DIR/kselftest/ktap_helpers.sh"

# one pass|fail|skip TEXT: a whole KTAP document of one result.
one() {
	(ktap_print_header; ktap_set_plan 1; "ktap_test_$1" "$2")
}

# run NAME CMD...: one section; a hung program is killed after $tmo s.
run() {
	name=$1
	shift
	echo "# ZSVM-BEGIN $name"
	timeout -s KILL "$tmo" "$@"
	rc=$?
	echo "# ZSVM-END $name rc=$rc"
}

echo "# ZSVM-BEGIN guest:module"
if [ ! -f "$ZSPLICE_KO" ]; then
	one fail "load zsplice.ko: $ZSPLICE_KO missing (make module failed?)"
elif out=$(insmod "$ZSPLICE_KO" 2>&1); then
	one pass "load zsplice.ko"
	grep -E '^zsplice ' /proc/modules | sed 's/^/# /'
else
	one fail "load zsplice.ko: $out"
fi
echo "# ZSVM-END guest:module rc=0"

if [ -s /zs/tests.list ]; then
	while read -r t; do
		[ -n "$t" ] || continue
		if [ -x "/zs/bin/$t" ]; then
			run "$t" "/zs/bin/$t"
		else
			echo "# ZSVM-BEGIN $t"
			one fail "$t: binary missing (build failed?)"
			echo "# ZSVM-END $t rc=1"
		fi
	done </zs/tests.list
fi

if [ -f /zs/smoke.sh ]; then
	run smoke.sh bash /zs/smoke.sh
else
	echo "# ZSVM-BEGIN smoke.sh"
	one fail "userspace/tests/smoke.sh missing"
	echo "# ZSVM-END smoke.sh rc=1"
fi

for s in /zs/scripts/*.sh; do
	[ -f "$s" ] || continue
	run "$(basename "$s")" bash "$s"
done

echo "# ZSVM-BEGIN guest:unload"
if grep -q '^zsplice ' /proc/modules; then
	if out=$(rmmod zsplice 2>&1); then
		one pass "unload zsplice"
	else
		one fail "unload zsplice: $out"
	fi
else
	one skip "unload zsplice: not loaded"
fi
echo "# ZSVM-END guest:unload rc=0"
exit 0
