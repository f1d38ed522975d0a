#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest test: the installed module through the real module tools.  The host
# staged `make install-module INSTALL_MOD_PATH=...` under /zs/stage; this
# puts the staged updates/zsplice.ko into the guest's module tree, runs
# depmod, then modinfo, modprobe with a parameter and modprobe -r.  Leaves
# the module as it found it.  KTAP, through the kernel's ktap_helpers.sh
# (../kselftest/, where a kselftest install and a kernel tree have it);
# skips without a staged install (outside `make check`).

. "$(dirname "$0")/../kselftest/ktap_helpers.sh"

kver=$(uname -r)
staged=/zs/stage/lib/modules/$kver/updates/zsplice.ko
dest=/lib/modules/$kver/updates

t() { if [ "$1" -eq 0 ]; then ktap_test_pass "$2"; else ktap_test_fail "$2"; fi; }

ktap_print_header
if [ ! -d /zs/stage ]; then
	ktap_skip_all "no staged make install-module in /zs/stage (make check stages it)"
	exit "$KSFT_SKIP"
fi
ktap_set_plan 8
[ -f "$staged" ]
t $? "make install-module staged updates/zsplice.ko (not compressed)"

was_loaded=0
if grep -q '^zsplice ' /proc/modules; then
	was_loaded=1
	rmmod zsplice
fi

mkdir -p "$dest" && cp "$staged" "$dest/" && depmod "$kver" &&
	grep -q '^updates/zsplice.ko:' "/lib/modules/$kver/modules.dep"
t $? "depmod indexes updates/zsplice.ko"

parm=$(modinfo -F parm zsplice 2>&1)
echo "$parm" | sed 's/^/# /'
echo "$parm" | grep -q '^splice_impl:.*none, copy, zeropage or folio'
t $? "modinfo zsplice lists splice_impl with its four values"

modprobe zsplice splice_impl=copy
t $? "modprobe zsplice splice_impl=copy"

[ "$(cat /sys/module/zsplice/parameters/splice_impl 2>/dev/null)" = copy ]
t $? "splice_impl reads back copy"

nonzero=$(dd if=/dev/zsplice bs=4096 count=4 2>/dev/null | od -An -v -tx1 |
	tr -d ' 0\n')
[ -c /dev/zsplice ] && [ -z "$nonzero" ]
t $? "/dev/zsplice reads zeros after modprobe"

modprobe -r zsplice && ! grep -q '^zsplice ' /proc/modules
t $? "modprobe -r zsplice"

rm -f "$dest/zsplice.ko" && depmod "$kver" &&
	! grep -q 'zsplice' "/lib/modules/$kver/modules.dep"
t $? "uninstalled from the guest's module tree"

if [ "$was_loaded" = 1 ] && [ -n "${ZSPLICE_KO:-}" ]; then
	insmod "$ZSPLICE_KO" || ktap_print_msg "could not reload $ZSPLICE_KO"
fi
ktap_finished
