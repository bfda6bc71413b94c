#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One benchmark experiment; results are "# bench: name=value unit" lines.
#   bench.sh ctxsw RUN_MS RUNS DEPTHS...   pipe ping-pong vs cgroup depth
#   bench.sh pcpu BENCH_MS                 percpu_counter module benchmarks
#   bench.sh mmap RUN_MS                   seed 004's mmap/munmap loop
#   bench.sh tmpfs RUN_MS                  tmpfs page near/far from size=
#   bench.sh groups N                      Percpu/Slab growth for N groups
#   bench.sh syscall RUN_MS DEPTHS...      invalid syscall loop on the last
#                                          CPU, in a group at each depth
exp=$1
shift
echo 5 >/proc/sys/kernel/printk

case $exp in
ctxsw)
	run_ms=$1 runs=$2
	shift 2
	/kselftest/cpuacct/ctxsw_bench -t "$run_ms" -r "$runs" -d "$(echo "$@" | tr ' ' ,)"
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
	cg=/sys/fs/cgroup/cpuacct
	[ -d $cg ] || { echo "# bench: groups: no cpuacct"; exit 0; }
	kb() { sed -n "s/^$1: *\([0-9]*\) kB/\1/p" /proc/meminfo; }
	p0=$(kb Percpu) s0=$(kb Slab)
	i=0
	while [ $i -lt "$1" ]; do mkdir $cg/g$i; i=$((i + 1)); done
	p1=$(kb Percpu) s1=$(kb Slab)
	ncpu=$(grep -c ^processor /proc/cpuinfo)
	echo "# bench: percpu_per_group=$(((p1 - p0) * 1024 / $1)) bytes"
	echo "# bench: percpu_per_group_per_cpu=$(((p1 - p0) * 1024 / $1 / ncpu)) bytes"
	echo "# bench: slab_per_group=$(((s1 - s0) * 1024 / $1)) bytes"
	i=0
	while [ $i -lt "$1" ]; do rmdir $cg/g$i; i=$((i + 1)); done
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
	echo "bench.sh: unknown experiment '$exp'" >&2
	exit 2
	;;
esac
