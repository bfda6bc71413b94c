#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# usage: mutant.sh [kunit] [DIR:PROG...] [NAME=VALUE...]
# make mutants: the suites that must catch a planted bug, as KTAP. The
# kernel carries the bug (ktest/mutants/); the host looks for the test
# that must fail on it. Arguments: "kunit" loads the percpu_counter test
# module, with the NAME=VALUE arguments as its own; DIR:PROG runs that
# kselftest program (as kselftest-list.txt names it).
. /etc/ktest/ktap.sh

echo 4 >/proc/sys/kernel/printk
kunit= margs= progs=
for a; do
	case $a in
	kunit) kunit=1 ;;
	*=*) margs="$margs $a" ;;
	*) progs="$progs $a" ;;
	esac
done
suites=
if [ -n "$kunit" ]; then
	insmod /lib/modules/ktest/percpu_counter_test.ko $margs ||
		echo "# insmod percpu_counter_test.ko failed"
	suites=$(ls /sys/kernel/debug/kunit 2>/dev/null)
fi
echo "KTAP version 1"
echo "1..$(echo $progs $suites | wc -w)"
ktap_tests 0 "$progs" "$suites"
