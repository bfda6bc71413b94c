#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# usage: modloop.sh [N [NAME=VALUE...]]
# Load and unload each test module N times (default 8), with the NAME=VALUE
# arguments as its own, printing its suites' results: a fault that shows
# only now and then in make check shows here within a boot
# (docs/qemu-i386-double-fault.md).
n=${1:-8}
shift 2>/dev/null
echo 4 >/proc/sys/kernel/printk
rc=0
i=0
while [ $i -lt "$n" ]; do
	i=$((i + 1))
	for m in /lib/modules/ktest/*.ko; do
		[ -f "$m" ] || continue
		insmod "$m" "$@" || { echo "modloop $i: insmod ${m##*/} failed"; rc=1; }
		for s in /sys/kernel/debug/kunit/*/results; do
			[ -f "$s" ] || continue
			r=$(tail -n 1 "$s")
			echo "modloop $i: ${s%/results}: $r" | sed 's,/sys/kernel/debug/kunit/,,'
			case $r in ok*) ;; *) rc=1 ;; esac
		done
		rmmod "$(basename "$m" .ko)"
	done
done
exit $rc
