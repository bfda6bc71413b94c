#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run every installed kselftest and every test module as one KTAP document
# on the console: each kselftest program and each KUnit suite is a
# subtest, and a last test checks the kernel log for splats.
# Arguments go to the test modules (e.g. bench_ms=2000).
cd /kselftest || exit 1
kunit=/sys/kernel/debug/kunit

# Only warnings and worse on the console (KUnit logs at KERN_INFO and is
# read back from debugfs); the whole log is checked at the end.
echo 5 >/proc/sys/kernel/printk

indent() { sed 's/^/    /'; }

# Modules first: their suites run while they load, and the plan below
# needs to know how many suites there were.
: >/tmp/modfail
for m in /lib/modules/ktest/*.ko; do
	[ -f "$m" ] || continue
	insmod "$m" "$@" || echo "${m##*/}" >>/tmp/modfail
done
suites=$(ls $kunit 2>/dev/null)
tests=$(cat kselftest-list.txt)

echo "KTAP version 1"
echo "1..$(($(echo $tests $suites | wc -w) + $(wc -l </tmp/modfail) + 1))"
n=0
for t in $tests; do
	n=$((n + 1))
	dir=${t%%:*}
	prog=${t#*:}
	timeout=45
	[ -f "$dir/settings" ] && . "$dir/settings"
	(cd "$dir" && timeout "$timeout" "./$prog" 2>&1; echo "$?" >/tmp/rc) | indent
	rc=$(cat /tmp/rc)
	case $rc in
	0) echo "ok $n selftests: $dir: $prog" ;;
	4) echo "ok $n selftests: $dir: $prog # SKIP" ;;
	124|143) echo "not ok $n selftests: $dir: $prog # TIMEOUT $timeout seconds" ;;
	*) echo "not ok $n selftests: $dir: $prog # exit=$rc" ;;
	esac
done

# debugfs holds each suite as a KTAP document of one test: drop its
# header and renumber its result line into ours.
for s in $suites; do
	n=$((n + 1))
	tail -n +3 $kunit/$s/results | sed '$d'
	tail -n 1 $kunit/$s/results | sed "s/^\(\(not \)\{0,1\}ok\) 1 /\1 $n /"
done
for m in $(cat /tmp/modfail); do
	n=$((n + 1))
	echo "not ok $n $m # insmod failed"
done
for m in /lib/modules/ktest/*.ko; do
	[ -f "$m" ] && rmmod "$(basename "$m" .ko)"
done

# Any splat during the run fails it, with the report for the reader.
n=$((n + 1))
splat='BUG:|WARNING:|Oops|INFO: task|possible recursive locking|circular locking|suspicious RCU|KASAN:|UBSAN:|KCSAN:|unreferenced object|Call Trace'
if dmesg | grep -Eq "$splat"; then
	dmesg | grep -E -B5 -A30 "$splat" | sed 's/^/# /'
	echo "not ok $n kernel log clean"
else
	echo "ok $n kernel log clean"
fi
