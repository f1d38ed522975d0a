// SPDX-License-Identifier: GPL-2.0
/*
 * zsvm_warn - test-only module for the VM rig's self-test.
 *
 * Loading it makes the kernel log a WARNING (with a stack trace) and then
 * fails the load, so nothing stays behind.  The rig must report the run as
 * a kernel splat even though the guest command itself succeeds.
 */
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/module.h>

static int __init zsvm_warn_init(void)
{
	WARN(1, "zsvm_warn: deliberate warning from the VM rig self-test\n");
	return -EAGAIN;
}
module_init(zsvm_warn_init);

MODULE_DESCRIPTION("zsplice VM rig self-test: WARN on load");
MODULE_LICENSE("GPL");
