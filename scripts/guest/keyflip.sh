#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# keyflip.sh [FLIPS]: two pipe loops (switch load), then the keyflip
# module flips its own static key FLIPS times (scripts/keyflip-control.sh).
flips=${1:-3000}
rm -f /tmp/keyflip.stop
for load in 1 2; do
	while [ ! -e /tmp/keyflip.stop ]; do echo x; done |
		while read -r x; do :; done &
done
t0=$(date +%s)
insmod /lib/modules/keyflip.ko flips="$flips" || exit 1
echo "keyflip: $flips flips survived in $(($(date +%s) - t0)) s"
touch /tmp/keyflip.stop
wait
