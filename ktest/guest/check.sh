#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# usage: check.sh [NAME=VALUE...]
# Run every installed kselftest and every test module as one KTAP document
# on the console: each kselftest program and each KUnit suite is a
# subtest, and a last test checks the kernel log for splats.
# Arguments go to the test modules (e.g. bench_ms=2000).
. /etc/ktest/ktap.sh
kunit=/sys/kernel/debug/kunit

# Only errors and worse on the console: KUnit logs at KERN_INFO and is
# read back from debugfs, fault injection makes callers warn. The whole
# log is checked at the end.
echo 4 >/proc/sys/kernel/printk

# Modules first: their suites run while they load, and the plan below
# needs to know how many suites there were.
: >/tmp/modfail
for m in /lib/modules/ktest/*.ko; do
	[ -f "$m" ] || continue
	insmod "$m" "$@" || echo "${m##*/}" >>/tmp/modfail
done
suites=$(ls $kunit 2>/dev/null)
tests=$(cat /kselftest/kselftest-list.txt)

echo "KTAP version 1"
echo "1..$(($(echo $tests $suites | wc -w) + $(wc -l </tmp/modfail) + 1))"
ktap_tests 0 "$tests" "$suites"
for m in $(cat /tmp/modfail); do
	n=$((n + 1))
	echo "not ok $n $m # insmod failed"
done
for m in /lib/modules/ktest/*.ko; do
	[ -f "$m" ] && rmmod "$(basename "$m" .ko)"
done

# Any splat during the run fails it, with the report for the reader.
ktap_log_clean $((n + 1))
