#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A short switch run: the devices still work after the fuzzers.
exec ./soak_switch -t 5 -n 100
