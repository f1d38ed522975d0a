# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034 # the sourcing script reads them
#
# The kernel-splat patterns, read from the one list the kselftests compile
# in (selftests/zsplice_splats.h, ZS_SPLATS_INIT): the rig (run.sh, on the
# guest's console log) and the soak (tools/soak/guest/, on dmesg) look for the
# same strings.  Sourced by sh and bash; the caller sets ZS_SPLATS_H to the
# header's path (the guest has no tree: ksft-install.sh stages the header
# in the rig collection).
#
#   ZS_SPLATS    the patterns, one fixed string a line
#   ZS_SPLAT_RE  the same as one extended regular expression (a|b|...)

ZS_SPLATS=$(sed -n 's/^[[:space:]]*"\([^"]*\)",[[:space:]]*\\$/\1/p' "$ZS_SPLATS_H")
ZS_SPLAT_RE=$(printf '%s\n' "$ZS_SPLATS" |
	awk 'NF { r = r (r == "" ? "" : "|") $0 } END { print r }')
if [ -z "$ZS_SPLATS" ]; then
	echo "splats.sh: no patterns in ${ZS_SPLATS_H:-(ZS_SPLATS_H unset)}" >&2
	# No list must not mean no splat: match everything.
	ZS_SPLAT_RE=.
fi
