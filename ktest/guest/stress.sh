#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make check-debug's stress job, bounded by SECS (default 120):
#   stress.sh [SECS]
# First, for SECS/2 seconds, a lone group made and removed under switch
# load. Then for SECS seconds at once: CPU hotplug under ping-pongs in a
# depth-3 cpuacct tree (test_hotplug), the percpu_counter module's
# concurrency tests loaded again and again, group churn with task
# migration (test_churn), test_exact's exact counts under readers,
# removals and resets, again and again, and readers and resetters of
# every cpuacct file. Then group creation under allocation failure
# (test_mkdir_fail), a kmemleak scan and the kernel log check. One KTAP
# document, what was done as diagnostics. Under KCSAN, races in the stock
# functions of kcsan-ignore.txt are not reported.
. /etc/ktest/ktap.sh
secs=${1:-120}
cg=/sys/fs/cgroup/cpuacct
kmemleak=/sys/kernel/debug/kmemleak
# Errors and worse on the console (as in check.sh); the log check at the
# end reads the whole log.
echo 4 >/proc/sys/kernel/printk
# Only leaks from here on count.
[ -w $kmemleak ] && echo clear >$kmemleak
# KCSAN does not report races in the stock functions of kcsan-ignore.txt;
# the last test fails if one of them is unknown to the kernel.
kcsan=/sys/kernel/debug/kcsan
kcsan_bad=
if [ -w $kcsan ]; then
	for f in $(grep -Ev '^(#|$)' /etc/ktest/kcsan-ignore.txt); do
		echo "!$f" >$kcsan 2>/dev/null || kcsan_bad="$kcsan_bad $f"
	done
fi
end=$(($(date +%s) + secs))

# A lone group made and removed again and again for $1 seconds (at most
# 1000 times) under switch load, before any other group exists: the
# first group enables cpuacct's switch key in __schedule().  Were the key
# flipped at every 0 <-> 1 transition of the group count, each step would
# patch __schedule() while both CPUs run it; under multi-threaded TCG
# (QEMU 7.2) text patching can leave a CPU running a stale int3, which
# panics the guest (docs/text-patching.md).
flip_loop() {
	local stop=$(($(date +%s) + $1)) i=0 bad=0

	if [ -n "$(ls -d $cg/*/ 2>/dev/null)" ]; then
		echo "# other groups exist"
		return 4
	fi
	switch_load_start flip
	while [ "$(date +%s)" -lt $stop ] && [ $i -lt 1000 ]; do
		i=$((i + 1))
		{ mkdir $cg/stress_flip && rmdir $cg/stress_flip; } || bad=$((bad + 1))
	done
	switch_load_stop flip
	echo "# $i group creations and removals under switch load, $bad errors"
	[ $bad = 0 ]
}

# The percpu_counter tests, their hotplug ones across the job's hotplug,
# until the end; one result per load. Under ext_hotplug no case may skip,
# but for want of an interface the kernel lacks ("kernel has no ...": a
# stock kernel, make stress VARIANT=base) or one that needs every CPU to
# stay ("not under CPU hotplug: ...", the real NMI test).
pcpu_loop() {
	local i=0 ok f

	while [ "$(date +%s)" -lt $end ]; do
		i=$((i + 1))
		ok=ok
		insmod /lib/modules/ktest/percpu_counter_test.ko ext_hotplug=1 \
			bench_ms=0 stress_ms=1000 stress_adds=200000 || ok="not ok"
		for s in $(ls /sys/kernel/debug/kunit 2>/dev/null); do
			f=/sys/kernel/debug/kunit/$s/results
			if tail -n 1 $f | grep -q '^not ok' ||
			   { [ "$s" = percpu_counter ] &&
			     grep '^    ok .*# SKIP' $f |
			     grep -vEq '# SKIP (kernel |not under CPU hotplug: )'; }; then
				ok="not ok"
				ktap_kunit 1 "$s" | sed 's/^/# /'
			fi
		done
		rmmod percpu_counter_test 2>/dev/null
		echo "$ok $i percpu_counter tests, load $i"
	done
	echo "1..$i"
}

# test_exact (pairs of tasks, readers, removals, resets; every count
# checked exactly against the tasks' own) again and again, until the end:
# one result per run.
exact_loop() {
	local i=0 rc

	while [ "$(date +%s)" -lt $end ]; do
		i=$((i + 1))
		(cd /kselftest/cpuacct && ./test_exact >/tmp/exact.out 2>&1)
		rc=$?
		if [ $rc = 0 ]; then
			echo "ok $i test_exact, run $i"
		else
			sed 's/^/# /' /tmp/exact.out
			echo "not ok $i test_exact, run $i # exit=$rc"
		fi
	done
	echo "1..$i"
}

# Read every cpuacct file and reset the counters of a group whose task
# moves between its two children, until the end; then, with no task left,
# a reset must read back as 0. Shell builtins only: forks are slow here.
reset_loop() {
	local g=$cg/stress_reset i=0 bad=0 f d pid to line

	mkdir -p $g/a $g/b
	sh -c "echo \$\$ >$g/a/tasks; exec sh -c 'yes | cat >/dev/null'" &
	# (cgroup files have no size: read one)
	until read -r pid <$g/a/tasks; do :; done
	while [ "$(date +%s)" -lt $end ]; do
		i=$((i + 1))
		to=$g/a
		[ $((i % 2)) = 1 ] && to=$g/b
		for f in $g/a/tasks $g/b/tasks; do
			while read -r pid; do
				echo "$pid" >$to/tasks || bad=$((bad + 1))
			done <$f
		done
		for f in $cg/cpuacct.* $g/cpuacct.* $g/a/cpuacct.* $g/b/cpuacct.*; do
			{ while read -r line; do :; done <"$f"; } 2>/dev/null ||
				bad=$((bad + 1))
		done
		for f in $g/cpuacct.usage $g/a/cpuacct.usage $g/cpuacct.nr_switches; do
			[ -e "$f" ] || continue
			echo 0 >"$f" || bad=$((bad + 1))
		done
	done
	kill $(cat $g/a/tasks $g/b/tasks) 2>/dev/null
	wait
	while read -r pid <$g/a/tasks || read -r pid <$g/b/tasks; do :; done
	# Out of its group's tasks, a task may still run to its last switch,
	# charged to the group: nothing tells a shell when (the kselftests
	# wait for it as SCHED_FIFO, reap_exact()), but it is microseconds of
	# exit path (milliseconds on a debug kernel under TCG), against a
	# second.
	sleep 1
	for d in $g $g/a $g/b; do
		for f in usage nr_switches; do
			[ -e "$d/cpuacct.$f" ] || continue
			echo 0 >"$d/cpuacct.$f"
			[ "$(cat "$d/cpuacct.$f")" = 0 ] ||
				{ echo "# $d/cpuacct.$f: $(cat "$d/cpuacct.$f") after reset"; bad=$((bad + 1)); }
		done
		grep -q '^[0 ]*$' "$d/cpuacct.usage_percpu" ||
			{ echo "# $d/cpuacct.usage_percpu: not 0 after reset"; bad=$((bad + 1)); }
	done
	rmdir $g/a $g/b $g || bad=$((bad + 1))
	echo "# $i read, move and reset cycles, $bad errors"
	[ $bad = 0 ]
}

echo "KTAP version 1"
echo "1..10"
flip_loop $((secs / 2)) >/tmp/flip.ktap 2>&1
flip_rc=$?
indent </tmp/flip.ktap
case $flip_rc in
0) echo "ok 1 cpuacct group churn under switch load" ;;
4) echo "ok 1 cpuacct group churn under switch load # SKIP" ;;
*) echo "not ok 1 cpuacct group churn under switch load" ;;
esac
ktap_timeout=$((secs + 120))
ktap_kselftest 3 cpuacct test_churn -t "$secs" >/tmp/churn.ktap &
pcpu_loop >/tmp/pcpu.ktap &
exact_loop >/tmp/exact.ktap &
reset_loop >/tmp/reset.ktap 2>&1 &
reset_pid=$!
ktap_kselftest 2 cpuacct test_hotplug -t $((secs * 1000)) -i 100
wait $reset_pid
reset_rc=$?
wait
cat /tmp/churn.ktap
(echo "KTAP version 1"; tail -n 1 /tmp/pcpu.ktap; sed '$d' /tmp/pcpu.ktap) | indent
if grep -q '^not ok' /tmp/pcpu.ktap || ! grep -q '^ok' /tmp/pcpu.ktap; then
	echo "not ok 4 percpu_counter module under CPU hotplug"
else
	echo "ok 4 percpu_counter module under CPU hotplug"
fi
indent </tmp/reset.ktap
if [ $reset_rc = 0 ]; then
	echo "ok 5 cpuacct readers, moves and resets"
else
	echo "not ok 5 cpuacct readers, moves and resets"
fi
(echo "KTAP version 1"; tail -n 1 /tmp/exact.ktap; sed '$d' /tmp/exact.ktap) | indent
if grep -q '^not ok' /tmp/exact.ktap || ! grep -q '^ok' /tmp/exact.ktap; then
	echo "not ok 6 cpuacct test_exact under CPU hotplug"
else
	echo "ok 6 cpuacct test_exact under CPU hotplug"
fi
unset ktap_timeout
ktap_kselftest 7 cpuacct test_mkdir_fail

# Leaks since the start, as kmemleak sees them: two scans, as it reports
# an object only once it has been unreferenced in two, and only if it is
# older than MSECS_MIN_AGE (5 s, mm/kmemleak.c) when scanned.
if [ -w $kmemleak ]; then
	echo scan >$kmemleak
	sleep 5
	echo scan >$kmemleak
	cat $kmemleak >/tmp/leaks
	indent </tmp/leaks
	if [ -s /tmp/leaks ]; then
		echo "not ok 8 kmemleak: $(grep -c '^unreferenced' /tmp/leaks) leaks"
	else
		echo "ok 8 kmemleak: no leaks"
	fi
else
	echo "ok 8 kmemleak # SKIP no CONFIG_DEBUG_KMEMLEAK"
fi
ktap_log_clean 9
if [ -w $kcsan ]; then
	indent <$kcsan
	if [ -n "$kcsan_bad" ]; then
		echo "not ok 10 KCSAN ignores stock functions: unknown:$kcsan_bad"
	else
		echo "ok 10 KCSAN ignores stock functions of kcsan-ignore.txt only"
	fi
else
	echo "ok 10 KCSAN # SKIP no CONFIG_KCSAN"
fi
