#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest test: the installed module through the real module tools.  The host
# staged `make install-module INSTALL_MOD_PATH=...` under /zs/stage; this
# puts the staged updates/zsplice.ko into the guest's module tree, runs
# depmod, then modinfo, modprobe with a parameter and modprobe -r.  Leaves
# the module as it found it.  Prints TAP.

kver=$(uname -r)
staged=/zs/stage/lib/modules/$kver/updates/zsplice.ko
dest=/lib/modules/$kver/updates
n=0
fails=0

t() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fails=$((fails + 1))
	fi
}

echo "1..8"
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
	insmod "$ZSPLICE_KO" || echo "# could not reload $ZSPLICE_KO"
fi
[ "$fails" -eq 0 ]
