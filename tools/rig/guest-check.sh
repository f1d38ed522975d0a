#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of `make check` (runs as root inside the zsvm guest, busybox
# sh).  Loads /zs/zsplice.ko, runs the kselftests with kselftest's own
# runner (/zs/ksft/run_kselftest.sh, staged by tools/rig/ksft-install.sh:
# every program of kselftest-list.txt, each under selftests/settings'
# timeout), then the zsbench smoke test, and unloads the module.  Each
# step is one section
#   # ZSVM-BEGIN name
#   ...its KTAP output...
#   # ZSVM-END name rc=N
# that tapcount.awk counts; in the "kselftests" section it reads the
# runner's "# "-prefixed program output as nested KTAP.  This script's own
# results are KTAP through the kernel's kselftest/ktap_helpers.sh (the rig
# puts it at the host's path).
#
# Environment: ZSVM_TEST_TIMEOUT seconds per test program, when it is not
# the one of selftests/settings (run_kselftest.sh --override-timeout; the
# debug kernel's scaled timeout).

ZSPLICE_KO=${ZSPLICE_KO:-/zs/zsplice.ko}
export ZSPLICE_KO
KSFT_DIR=${KSFT_DIR:-/usr/src/linux-source-6.12/linux-source-6.12/tools/testing/selftests}
export KSFT_DIR
. "$KSFT_DIR/kselftest/ktap_helpers.sh"

# one pass|fail|skip TEXT: a whole KTAP document of one result.
one() {
	(ktap_print_header; ktap_set_plan 1; "ktap_test_$1" "$2")
}

# run NAME CMD...: one section.
run() {
	name=$1
	shift
	echo "# ZSVM-BEGIN $name"
	"$@"
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

if [ -x /zs/ksft/run_kselftest.sh ]; then
	run kselftests /zs/ksft/run_kselftest.sh \
		${ZSVM_TEST_TIMEOUT:+--override-timeout "$ZSVM_TEST_TIMEOUT"}
else
	echo "# ZSVM-BEGIN kselftests"
	one fail "kselftests: /zs/ksft/run_kselftest.sh missing (ksft-install.sh failed?)"
	echo "# ZSVM-END kselftests rc=1"
fi

if [ -f /zs/smoke.sh ]; then
	run smoke.sh timeout -s KILL "${ZSVM_TEST_TIMEOUT:-300}" bash /zs/smoke.sh
else
	echo "# ZSVM-BEGIN smoke.sh"
	one fail "userspace/tests/smoke.sh missing"
	echo "# ZSVM-END smoke.sh rc=1"
fi

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
