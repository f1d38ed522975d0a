#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mem-check's @persistent: make the huge zero folio persistent through the
# RFC's knob before the tests, and check the knob's contract: reads 1
# afterwards, writing 0 is refused (EBUSY), the folio was allocated once
# (thp_zero_page_alloc).  Exit status 1 when any of that does not hold.
knob=/sys/kernel/mm/transparent_hugepage/persistent_huge_zero_folio
[ -w "$knob" ] || { echo "setup: no $knob"; exit 1; }
before=$(sed -n 's/^thp_zero_page_alloc //p' /proc/vmstat)
echo 1 >"$knob" || { echo "setup: writing 1 to $knob failed"; exit 1; }
after=$(sed -n 's/^thp_zero_page_alloc //p' /proc/vmstat)
echo "setup: persistent_huge_zero_folio $(cat "$knob"), thp_zero_page_alloc $before -> $after"
[ "$(cat "$knob")" = 1 ] || exit 1
if (echo 0 >"$knob") 2>/dev/null; then
	echo "setup: writing 0 after pinning was accepted"
	exit 1
fi
echo "setup: writing 0 after pinning refused"
echo 1 >"$knob" || { echo "setup: writing 1 again failed"; exit 1; }
