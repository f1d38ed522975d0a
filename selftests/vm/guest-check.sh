#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of `make check` (runs as root inside the zsvm guest, busybox
# sh).  Loads /zs/zsplice.ko, runs every expected kselftest binary, the
# zsbench smoke test and any extra guest scripts, each in a section
#   # ZSVM-BEGIN name
#   ...its TAP/KTAP output...
#   # ZSVM-END name rc=N
# that check.sh counts.  Expected binaries are listed in /zs/tests.list so
# that a missing one is reported, not silently skipped.
#
# Environment: ZSVM_TEST_TIMEOUT seconds per test program (default 600).

ZSPLICE_KO=${ZSPLICE_KO:-/zs/zsplice.ko}
export ZSPLICE_KO
tmo=${ZSVM_TEST_TIMEOUT:-600}

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
	echo "not ok 1 - load zsplice.ko: $ZSPLICE_KO missing (make module failed?)"
elif out=$(insmod "$ZSPLICE_KO" 2>&1); then
	echo "ok 1 - load zsplice.ko"
	grep -E '^zsplice ' /proc/modules | sed 's/^/# /'
else
	echo "not ok 1 - load zsplice.ko: $out"
fi
echo "# ZSVM-END guest:module rc=0"

if [ -s /zs/tests.list ]; then
	while read -r t; do
		[ -n "$t" ] || continue
		if [ -x "/zs/bin/$t" ]; then
			run "$t" "/zs/bin/$t"
		else
			echo "# ZSVM-BEGIN $t"
			echo "not ok 1 - $t: binary missing (build failed?)"
			echo "# ZSVM-END $t rc=1"
		fi
	done </zs/tests.list
fi

if [ -f /zs/smoke.sh ]; then
	run smoke.sh bash /zs/smoke.sh
else
	echo "# ZSVM-BEGIN smoke.sh"
	echo "not ok 1 - userspace/tests/smoke.sh missing"
	echo "# ZSVM-END smoke.sh rc=1"
fi

for s in /zs/scripts/*.sh; do
	[ -f "$s" ] || continue
	run "$(basename "$s")" bash "$s"
done

echo "# ZSVM-BEGIN guest:unload"
if grep -q '^zsplice ' /proc/modules; then
	if out=$(rmmod zsplice 2>&1); then
		echo "ok 1 - unload zsplice"
	else
		echo "not ok 1 - unload zsplice: $out"
	fi
else
	echo "ok 1 - unload zsplice # SKIP not loaded"
fi
echo "# ZSVM-END guest:unload rc=0"
exit 0
