# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# One QEMU guest at a time: the scripts that boot the rig's guest for long
# measurements (mainline/mem-check.sh, selftests/kbuild/check-debug.sh,
# userspace/lkp/run-vm.sh) hold this lock around each guest run, so that
# two of them started on one machine do not share its CPUs.  The default
# lives in /run/lock, which every systemd or sysvinit machine has; without
# it, in the temporary directory.  ZSVM_LOCK=path chooses another lock,
# ZSVM_LOCK=none runs without waiting.

if [ -z "${ZSVM_LOCK:-}" ]; then
	if [ -d /run/lock ] && [ -w /run/lock ]; then
		ZSVM_LOCK=/run/lock/zsplice-vm.lock
	else
		ZSVM_LOCK=${TMPDIR:-/tmp}/zsplice-vm.lock
	fi
fi

# zs_vm_locked CMD...: run CMD holding the guest lock.
zs_vm_locked() {
	if [ "$ZSVM_LOCK" = none ]; then
		"$@"
	else
		flock "$ZSVM_LOCK" "$@"
	fi
}
