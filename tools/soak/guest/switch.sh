#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Switching the implementation under splice load: the soak's share of the
# budget, at least 10^6 operations in the long form.
# shellcheck source=tools/soak/guest/lib.sh
. "$(dirname "$0")/lib.sh"

exec ./soak_switch -t "$t_switch" -n "$min_ops"
