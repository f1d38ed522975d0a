#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test: our ioctl magic (ZSPLICE_IOC_MAGIC in include/uapi/linux/
# zsplice.h) must be free in the kernel's registry of ioctl codes,
# Documentation/userspace-api/ioctl/ioctl-number.rst, in every kernel
# source tree available here: Debian's linux-source-6.12 and any other
# unpacked linux-source-* tree (the rig's 7.x tree under
# /var/cache/zsplice/kernels/), plus the trees named in ZS_KSRC (space
# separated).  KTAP through the kernel's ktap_helpers.sh; fails when the magic appears in a table or
# when no table can be read.
#
# Usage: ioctl-number.sh [--magic VALUE] [--self-test]
#   --magic VALUE  check VALUE (0xNN or 'C') instead of the header's
#   --self-test    also prove the check can fail: 0xB7 (nsfs, remoteproc)
#                  must be reported as taken
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
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
hdr=$top/include/uapi/linux/zsplice.h
magic=
self_test=0
while [ $# -gt 0 ]; do
	case $1 in
	--magic) magic=$2; shift 2 ;;
	--self-test) self_test=1; shift ;;
	-h|--help) usage 0 ;;
	*) echo "ioctl-number.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done

# A magic as written in C or in the table ('Z', 0x5A, 0x5a) -> decimal.
to_num() {
	local v=$1
	case $v in
	\'?\') printf '%d' "'${v:1:1}" ;;
	0x*|0X*) printf '%d' "$v" 2>/dev/null ;;
	*) return 1 ;;
	esac
}

if [ -z "$magic" ]; then
	magic=$(sed -n 's/^#define[[:space:]]\+ZSPLICE_IOC_MAGIC[[:space:]]\+\([^[:space:]]*\).*/\1/p' "$hdr")
fi
trees=()
for t in /usr/src/linux-source-*/linux-source-* /var/cache/zsplice/kernels/*/usr/src/linux-source-* ${ZS_KSRC:-}; do
	[ -f "$t/Documentation/userspace-api/ioctl/ioctl-number.rst" ] && trees+=("$t")
done

# shellcheck source=tools/rig/kver.sh
. "$top/tools/rig/kver.sh"
. "${KSFT_DIR:-$(zs_src_tree)/tools/testing/selftests}/kselftest/ktap_helpers.sh"
ok() { ktap_test_pass "$*"; }
notok() { ktap_test_fail "$*"; }

# check VALUE TABLE: print the table lines whose code is VALUE; status 0 if any.
taken() {
	local want=$1 table=$2 code rest hit=1 num
	while read -r code rest; do
		num=$(to_num "$code") || continue
		if [ "$num" = "$want" ]; then
			echo "#   $code $rest"
			hit=0
		fi
	done < <(grep -E "^(0x[0-9A-Fa-f]{1,2}|'.')[[:space:]]" "$table")
	return $hit
}

ktap_print_header
if [ ${#trees[@]} = 0 ]; then
	ktap_set_plan 1
	notok "no kernel source tree with ioctl-number.rst (install linux-source-6.12: tools/rig/deps.sh)"
	exit 1
fi
ktap_set_plan $(( ${#trees[@]} * (1 + self_test) + 1 ))
want=$(to_num "$magic") || want=
if [ -n "$want" ]; then
	ok "ZSPLICE_IOC_MAGIC is $magic ($want)"
else
	notok "cannot read ZSPLICE_IOC_MAGIC from $hdr (got '$magic')"
fi
for t in "${trees[@]}"; do
	table=$t/Documentation/userspace-api/ioctl/ioctl-number.rst
	ver=$(basename "$t")
	[ -f "$t/Makefile" ] && ver=$(awk -F' *= *' '$1=="VERSION"{v=$2} $1=="PATCHLEVEL"{p=$2} $1=="SUBLEVEL"{s=$2} END{print v"."p"."s}' "$t/Makefile")
	if [ -z "$want" ]; then
		notok "$ver: no magic to check"
	elif hits=$(taken "$want" "$table"); then
		notok "$magic is taken in $ver ($table):"
		echo "$hits"
	else
		ok "$magic is free in $ver ($table)"
	fi
	if [ "$self_test" = 1 ]; then
		if hits=$(taken "$(to_num 0xB7)" "$table"); then
			ok "self-test: 0xB7 is reported taken in $ver"
			echo "$hits"
		else
			notok "self-test: 0xB7 (nsfs, remoteproc) not found in $ver: the check cannot fail"
		fi
	fi
done
ktap_finished
