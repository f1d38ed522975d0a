# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# The kernel-splat patterns: the one list that the rig (run.sh, on the
# guest's console log), the soak (guest-soak.sh, on dmesg) and the C
# kselftests (zsplice_util.h's zs_kmsg_splat, through the zsplice_splats.h
# that selftests/Makefile generates from this file) look for.  Sourced by
# sh and bash.
#
# One fixed string a line between the quotes: no regular-expression
# characters (the C side matches them with strstr, the shell side joins
# them into one grep -E alternation).  A headline is enough: "Call Trace"
# and "RIP:" follow a headline, and come alone from dump_stack() and
# allocation-failure warnings, which are no splat.
ZS_SPLATS='
BUG:
WARNING:
Oops
general protection
stack segment
kernel BUG at
Kernel panic
Unable to handle kernel
Bad page
page dumped because
list_add corruption
list_del corruption
refcount_t:
UBSAN:
KASAN:
KFENCE:
unreferenced object
blocked for more than
detected stalls on CPU
self-detected stall
'

# ZS_SPLAT_RE: the same as one extended regular expression (a|b|...).
ZS_SPLAT_RE=$(printf '%s\n' "$ZS_SPLATS" |
	awk 'NF { r = r (r == "" ? "" : "|") $0 } END { print r }')
