#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# keyflip.sh [FLIPS]: two pipe loops (switch load), then the keyflip
# module flips its own static key FLIPS times (ktest/keyflip/control.sh).
. /etc/ktest/ktap.sh
flips=${1:-3000}
switch_load_start keyflip
t0=$(date +%s)
insmod /lib/modules/keyflip.ko flips="$flips" || exit 1
echo "keyflip: $flips flips survived in $(($(date +%s) - t0)) s"
switch_load_stop keyflip
