#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make mutants: one load of the percpu_counter test module, its suites as
# KTAP. The kernel carries a planted bug (scripts/mutants/); the host
# looks for the test that must fail on it. Arguments go to the module.
. /etc/ktest/ktap.sh

echo 4 >/proc/sys/kernel/printk
insmod /lib/modules/ktest/percpu_counter_test.ko "$@" ||
	echo "# insmod percpu_counter_test.ko failed"
suites=$(ls /sys/kernel/debug/kunit 2>/dev/null)
echo "KTAP version 1"
echo "1..$(echo $suites | wc -w)"
n=0
for s in $suites; do
	n=$((n + 1))
	ktap_kunit $n "$s"
done
