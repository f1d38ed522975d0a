#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Page and slab accounting after the soak, against baseline.sh's snapshot.
# shellcheck source=tools/soak/guest/lib.sh
. "$(dirname "$0")/lib.sh"

exec ./soak_account -c "$state/baseline" -k "$(cat "$state/slack" 2>/dev/null || echo 0)"
