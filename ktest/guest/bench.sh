#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One benchmark job, of a row of the experiment table
# (ktest/bench/experiments.tsv, here /etc/ktest/bench-experiments.tsv:
# its job column); results are "# bench: name=value unit" lines.
#   bench.sh ctxsw RUN_MS RUNS OPTS...     pipe ping-pong by where the two
#                                          tasks' groups are (OPTS: those of
#                                          ctxsw_bench, lists ':'-separated),
#                                          cpuacct mounted alone
#   bench.sh ctxsw-co RUN_MS RUNS OPTS...  the same with cpu and cpuacct
#                                          co-mounted (cpu alone without
#                                          cpuacct)
#   bench.sh pcpu BENCH_MS                 percpu_counter module benchmarks
#   bench.sh mmap RUN_MS                   the mmap/munmap loop of Shaohua
#                                          Li, "percpu_counter: use atomic64
#                                          for counter" (2011)
#   bench.sh tmpfs RUN_MS                  tmpfs page near/far from size=
#   bench.sh groups N ROUNDS               Percpu/Slab growth for N groups
#   bench.sh files N                       cost of reading cpuacct files of
#                                          a leaf, a parent of N groups and
#                                          the root
#   bench.sh reads-poll ACTIVE_MS          reads at scale: 2000 groups
#                                          at depth 4, activity in 200
#                                          leaves (icount, -smp 64)
#   bench.sh reads-iso N                   reads of a parent of N groups,
#                                          quiet and while another subtree
#                                          resets, churns or both (real
#                                          time)
#   bench.sh syscall RUN_MS DEPTHS...      invalid syscall loop on the last
#                                          CPU, in a group at each depth
exp=$1
shift
echo 5 >/proc/sys/kernel/printk
# The experiment whose row runs this job, or none: a job no row names.
name=$(awk -F'\t' -v job="$exp" '!/^#/ && $1 != "name" {
	split($2, j, ","); if (j[1] == job) { print $1; exit } }' \
	/etc/ktest/bench-experiments.tsv)
if [ -z "$name" ]; then
	echo "bench.sh: no row of bench-experiments.tsv runs job '$exp'" >&2
	exit 2
fi
echo "# experiment $name: job $exp $*"

case $exp in
ctxsw | ctxsw-co)
	# The rows of ctxsw_bench -h in one of two cgroup v1 layouts. ctxsw:
	# cpuacct alone, as /init mounts it (no groups without cpuacct: depth
	# 0 only). ctxsw-co: cpu and cpuacct in one hierarchy, as systemd and
	# kubelet mount them; without cpuacct, cpu alone and the same groups
	# (the cost of the cpu controller's groups: the limit).
	run_ms=$1 runs=$2
	shift 2
	prefix=ctxsw_
	if [ "$exp" = ctxsw-co ]; then
		cg=/sys/fs/cgroup/cpu,cpuacct
		ctl=cpu,cpuacct
		grep -q '^cpuacct[[:space:]]' /proc/cgroups || ctl=cpu
		# A controller is in one hierarchy at a time: /init's goes, as
		# it has no groups (the mount waits until it has gone).
		umount /sys/fs/cgroup/cpuacct 2>/dev/null &&
			rmdir /sys/fs/cgroup/cpuacct
		mkdir -p $cg
		mount -t cgroup -o $ctl $ctl $cg || exit 1
		echo "# layout: $ctl at $cg"
		export CPUACCT_CG_ROOT=$cg
		prefix=ctxsw_co_
	fi
	# The table separates arguments with commas, a list's items with ':'
	/kselftest/cpuacct/ctxsw_bench -p $prefix -t "$run_ms" -r "$runs" \
		$(printf '%s ' "$@" | tr : ,)
	;;
pcpu)
	insmod /lib/modules/ktest/percpu_counter_test.ko bench_only=1 bench_ms="$1" ||
		exit 1
	grep -h 'bench:' /sys/kernel/debug/kunit/*/results | sed 's/^ *//'
	rmmod percpu_counter_test
	;;
mmap)
	/kselftest/percpu_counter/mmap_loop "$1"
	;;
tmpfs)
	# A 2 MiB tmpfs filled to its last pages (limited adds take the slow
	# path) and a 1 GiB one (fast path); the loop runs on the last CPU.
	mkdir -p /mnt/near /mnt/far
	mount -t tmpfs -o size=2m near /mnt/near &&
		mount -t tmpfs -o size=1g far /mnt/far || exit 1
	taskset -c "$(($(grep -c ^processor /proc/cpuinfo) - 1))" \
		/kselftest/percpu_counter/tmpfs_limit /mnt/near /mnt/far "$1"
	;;
groups)
	# Memory that N groups take, in a cgroup v1 hierarchy without
	# controllers (cgroup core, kernfs) and in the cpuacct one (the same
	# plus cpuacct): the difference is what cpuacct adds.  Each figure is
	# taken after the system has settled (reclaimable dentries and inodes
	# dropped, RCU-freed objects gone), ROUNDS times; one line per round.
	n=$1 rounds=${2:-3}
	cg=/sys/fs/cgroup/cpuacct
	[ -d $cg ] || { echo "# bench: groups: no cpuacct"; exit 0; }
	core=/tmp/cg-core
	mkdir -p $core
	mount -t cgroup -o none,name=benchcore none $core || exit 1
	kb() { sed -n "s/^$1: *\([0-9]*\) kB/\1/p" /proc/meminfo; }
	settle() {
		sync
		echo 3 >/proc/sys/vm/drop_caches
		sleep 2
		echo 3 >/proc/sys/vm/drop_caches
	}
	# grow DIR: "slab_bytes percpu_bytes" per group (percpu unused)
	grow() {
		local i=0 p0 s0 p1 s1
		settle
		p0=$(kb Percpu) s0=$(kb Slab)
		while [ $i -lt "$n" ]; do mkdir $1/g$i; i=$((i + 1)); done
		settle
		p1=$(kb Percpu) s1=$(kb Slab)
		i=0
		while [ $i -lt "$n" ]; do rmdir $1/g$i; i=$((i + 1)); done
		echo "$(((s1 - s0) * 1024 / n)) $(((p1 - p0) * 1024 / n))"
	}
	# A first round of each, not reported: caches grow.  No per-CPU
	# figures: "Percpu:" counts populated pages, which the percpu
	# allocator keeps and reuses, so 1,000 groups' areas (cpuacct's:
	# sizeof(struct cpuacct_usage) per possible CPU, 88 bytes in 6.12,
	# 64 patched) move it by nothing or by whole pages, either way.
	grow $core >/dev/null
	grow $cg >/dev/null
	r=0
	while [ $r -lt "$rounds" ]; do
		r=$((r + 1))
		set -- $(grow $core) $(grow $cg)
		echo "# bench: slab_per_group_cgroup_core=$1 bytes"
		echo "# bench: slab_per_group=$3 bytes"
		echo "# bench: slab_per_group_cpuacct=$(($3 - $1)) bytes"
	done
	umount $core
	;;
files)
	# One parent of N groups, under the root
	n=$1
	cg=/sys/fs/cgroup/cpuacct
	[ -d $cg ] || { echo "# bench: files: no cpuacct"; exit 0; }
	p=$cg/readbench
	mkdir $p
	i=0
	while [ $i -lt "$n" ]; do mkdir $p/g$i; i=$((i + 1)); done
	# Some counts everywhere: a short run in the leaf
	sh -c "echo \$\$ >$p/g0/tasks; exec /kselftest/cpuacct/read_bench -n 5 x=$p/g0/cpuacct.usage" >/dev/null
	set --
	for f in usage usage_percpu nr_switches; do
		set -- "$@" "${f}_leaf=$p/g0/cpuacct.$f" \
			"${f}_parent${n}=$p/cpuacct.$f" "${f}_root=$cg/cpuacct.$f"
	done
	/kselftest/cpuacct/read_bench -n 100 "$@"
	;;
reads-poll)
	# The poll rows of experiment reads (reads at scale): 10/40/200/1750 groups per
	# level, 2000 in all
	cg=/sys/fs/cgroup/cpuacct
	[ -d $cg ] || { echo "# bench: reads: no cpuacct"; exit 0; }
	p=$cg/pollbench
	l3=0
	for a in 0 1 2 3 4 5 6 7 8 9; do
		for b in 0 1 2 3; do
			for c in 0 1 2 3 4; do
				# 150 third-level groups get 9 leaves, 50 get 8
				n=8
				[ $l3 -lt 150 ] && n=9
				l3=$((l3 + 1))
				d=$p/a$a/b$b/c$c
				mkdir -p $d
				i=0
				while [ $i -lt $n ]; do mkdir $d/d$i; i=$((i + 1)); done
			done
		done
	done
	/kselftest/cpuacct/poll_bench -m "$1" -n 200 $p
	;;
reads-iso)
	# The isolation rows of experiment reads (reads at scale): another tenant's
	# resets of cpuacct.usage (as fast as they go), its mkdir/rmdir, and
	# both at once (the storm), in subtree a, against reads of the parent
	# of N groups in subtree b
	cg=/sys/fs/cgroup/cpuacct
	[ -d $cg ] || { echo "# bench: reads: no cpuacct"; exit 0; }
	p=$cg/iso
	mkdir -p $p/a/x $p/b
	i=0
	while [ $i -lt "$1" ]; do mkdir $p/b/g$i; i=$((i + 1)); done
	# read_bench pins itself to CPU 0; the resets run on CPU 1, the
	# churn on the last CPU (CPU 1 too at -smp 2)
	last=$(($(grep -c ^processor /proc/cpuinfo) - 1))
	resets() {
		taskset -c 1 sh -c "while :; do echo 0 >$p/a/x/cpuacct.usage; done" &
	}
	# Killed, it removes the group it may have left
	churn() {
		taskset -c $last sh -c "trap 'rmdir $p/a/y 2>/dev/null; exit' TERM
			while :; do mkdir $p/a/y && rmdir $p/a/y; done" &
	}
	timed() {
		/kselftest/cpuacct/read_bench -n 20000 "$1=$p/b/cpuacct.usage" |
			tee /tmp/$1
	}
	ratio() {
		awk -v a="$(sed -n 's/.*=\([0-9.]*\) ns$/\1/p' /tmp/$1)" \
		    -v b="$(sed -n 's/.*=\([0-9.]*\) ns$/\1/p' /tmp/$2)" \
			'BEGIN { printf "%.4f", a / b }'
	}
	timed unrelated_quiet
	resets
	timed unrelated_during_resets
	kill $!
	wait
	churn
	timed unrelated_during_churn
	kill $!
	wait
	resets
	r=$!
	churn
	timed unrelated_during_storm
	kill $r $!
	wait
	echo "# bench: reads_isolated=$(ratio unrelated_during_storm unrelated_quiet) x"
	echo "# bench: reads_isolated_resets=$(ratio unrelated_during_resets unrelated_quiet) x"
	echo "# bench: reads_isolated_churn=$(ratio unrelated_during_churn unrelated_quiet) x"
	;;
syscall)
	run_ms=$1
	shift
	cg=/sys/fs/cgroup/cpuacct
	echo "# nohz_full CPUs: '$(cat /sys/devices/system/cpu/nohz_full)'"
	for d in "$@"; do
		[ -d $cg ] || [ "$d" = 0 ] || continue
		g=$cg i=0
		while [ $i -lt "$d" ]; do
			i=$((i + 1))
			g=$g/s$i
			mkdir -p $g
		done
		# The root group is the whole system (no group at all without cpuacct).
		sh -c "[ -d $g ] && echo \$\$ >$g/tasks; exec /kselftest/cpuacct/syscall_loop -t $run_ms syscall_depth${d}_ns"
	done
	;;
*)
	echo "bench.sh: job '$exp' of experiment $name has no case here" >&2
	exit 2
	;;
esac
