/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel-splat patterns: the one list that the kselftests
 * (zs_kmsg_splat, on /dev/kmsg), the rig's run.sh (on the guest's console
 * log) and the soak (on dmesg) look for.  The shell side reads this file
 * (tools/rig/splats.sh), so keep its shape: one fixed string a line, in
 * double quotes, followed by a comma and a backslash; no regular-expression
 * characters and no escapes (C matches them with strstr, the shell joins
 * them into one grep -E alternation).  A headline is enough: "Call Trace"
 * and "RIP:" follow a headline, and come alone from dump_stack() and
 * allocation-failure warnings, which are no splat.
 */
#ifndef ZSPLICE_SPLATS_H
#define ZSPLICE_SPLATS_H

#define ZS_SPLATS_INIT \
	"BUG:", \
	"WARNING:", \
	"Oops", \
	"general protection", \
	"stack segment", \
	"kernel BUG at", \
	"Kernel panic", \
	"Unable to handle kernel", \
	"Bad page", \
	"page dumped because", \
	"list_add corruption", \
	"list_del corruption", \
	"refcount_t:", \
	"UBSAN:", \
	"KASAN:", \
	"KFENCE:", \
	"unreferenced object", \
	"blocked for more than", \
	"detected stalls on CPU", \
	"self-detected stall", \

#endif /* ZSPLICE_SPLATS_H */
