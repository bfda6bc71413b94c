#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-run.sh (make bench): the base, patched and nocpuacct kernels side
# by side, same initramfs jobs (scripts/guest/bench.sh), kernels
# interleaved within each round. Results: build/bench/results.csv, then
# report.md and plots by scripts/bench-report.py. QUICK=1 runs fewer rounds, shorter; ONLY="exp
# ..." runs only those experiments (names as in results.csv); SMP=N runs
# the real-time experiments at N vCPUs (default 2, at most the host's
# cores). ARCH=i386 or arm64 runs them on that arch's kernels (i386-base,
# ...), results in build/ARCH-bench/ (the kernel column still says base,
# patched, ...).
#
# bench-run.sh scale (make bench-scale): the real-time experiments (pcpu,
# mmap), base vs patched, at 1, 2, 4, ... vCPUs up to the host's cores, the
# CPU counts interleaved within each round too. Results in
# build/bench-scale/: results.csv, scale.csv, report.md, scale.png.
#
# A run that produces no figure (its guest failed, its module did not
# load, ...) is reported with its log; the other runs go on, and the
# command fails at the end.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

what=${1:-all}
arch_of "${ARCH:-x86_64}-"
cores=$(nproc)
case $what in
all)
	out=$BUILD/${APFX}bench
	smp=${SMP:-2}
	# MTTCG runs one thread per vCPU: more vCPUs than host cores would
	# measure the host's scheduler.
	case $smp in ''|*[!0-9]*) smp=0 ;; esac
	[ "$smp" -ge 1 ] && [ "$smp" -le "$cores" ] ||
		die "SMP=${SMP:-}: the real-time experiments run at 1 to $cores vCPUs (this host's cores)"
	;;
scale) out=$BUILD/${APFX}bench-scale ;;
*) die "usage: bench-run.sh [scale]" ;;
esac
kver=$(make -s -C "$SRC_PRISTINE" kernelversion 2>/dev/null) ||
	die "no kernel tree in $SRC_PRISTINE: run 'make src'"

rm -rf "$out"
mkdir -p "$out/logs"
csv=$out/results.csv
failed=$out/failed.txt
echo "experiment,kernel,run,metric,value,unit,mode,vcpus,host_cores" >"$csv"
: >"$failed"

if [ -n "${QUICK:-}" ]; then
	rounds=2 pcpu_ms=300 mmap_ms=500
else
	rounds=5 pcpu_ms=1000 mmap_ms=2000
fi

# bench EXPERIMENT KERNEL ROUND MODE VCPUS ARGS [KERNEL_PARAMS]: one boot,
# one experiment, or one part of it: a guest job (ARGS' first word) named
# EXPERIMENT-PART, whose rows are EXPERIMENT's too (reads-poll, reads-iso).
bench() {
	local exp=$1 k=$2 r=$3 mode=$4 smp=$5 args=$6 kp=${7:-}
	case " ${ONLY:-$exp} " in *" $exp "*) ;; *) return 0 ;; esac
	local part=$exp
	case ${args%%,*} in "$exp"-*) part=${args%%,*} ;; esac
	local log=$out/logs/$part-$k-smp$smp-$r.log
	local icount= kparams= rows=
	[ "$mode" = icount ] && icount=-i
	[ -n "$kp" ] && kparams="-k $kp"
	step "$part: $k, round $r ($mode, -smp $smp)"
	if QUIET=1 "$TOP/scripts/qemu-run.sh" -v "$APFX$k" -m bench -s "$smp" \
		$icount $kparams -a "$args" -l "$log" -t 900; then
		rows=$(sed -n 's/^ *# bench: //p' "$log" | while read -r kv unit; do
			echo "$exp,$k,$r,${kv%%=*},${kv#*=},$unit,$mode,$smp,$cores"
		done)
		# The guest's job ended but printed nothing: its last words.
		[ -n "$rows" ] || tail -n 5 "$log" | sed 's/^/  | /' >&2
	fi
	if [ -z "$rows" ]; then
		echo "error: $part on $k, round $r (-smp $smp): no figure; log: $log" >&2
		echo "$part on $k, round $r (-smp $smp): $log" >>"$failed"
		return 0
	fi
	echo "$rows" >>"$csv"
}

# Real-time runs are noisy: several rounds, the kernels interleaved.
rounds_of() {
	local exp=$1 args=$2 r k
	for r in $(seq "$rounds"); do
		for k in base patched; do
			bench "$exp" "$k" "$r" realtime "$smp" "$args"
		done
	done
}

# The end of both: the report, then the runs that gave nothing, if any.
finish() {
	python3 "$TOP/scripts/bench-report.py" "$@" "$out" "$kver"
	[ -s "$failed" ] || exit 0
	echo "error: $(wc -l <"$failed") bench run(s) produced no figure:" >&2
	sed 's/^/  /' "$failed" >&2
	exit 1
}

if [ "$what" = scale ]; then
	# 1, 2, 4, ... and the host's cores.
	cpus=
	for ((n = 1; n < cores; n *= 2)); do cpus="$cpus $n"; done
	cpus="$cpus $cores"
	step "scaling over -smp$cpus on $cores host cores, $rounds rounds"
	for r in $(seq "$rounds"); do
		for n in $cpus; do
			for k in base patched; do
				bench pcpu "$k" "$r" realtime "$n" "pcpu,$pcpu_ms"
				bench mmap "$k" "$r" realtime "$n" "mmap,$mmap_ms"
			done
		done
	done
	finish --scale
fi

# 1. Context switch cost vs cgroup depth: instruction-exact, one run.
for k in base patched nocpuacct; do
	bench ctxsw "$k" 1 icount 2 "ctxsw,500,1,0,1,2,3,4,8"
done
# 2 and 4. percpu_counter module: contention in real time (MTTCG), and
# their costs on one vCPU under icount.
rounds_of pcpu "pcpu,$pcpu_ms"
for k in base patched; do
	bench pcpu-icount "$k" 1 icount 1 "pcpu,200"
done
# 3. mmap/munmap loop (vm_committed_as), one process per vCPU.
rounds_of mmap "mmap,$mmap_ms"
# 7. percpu_counter_limited_add() near its limit: a tmpfs page near size=.
for k in base patched; do
	bench tmpfs "$k" 1 icount 2 "tmpfs,$pcpu_ms"
done
# 5. Invalid system calls on one CPU (Rik van Riel's loop, 2016), in the root and at depth 3;
# with nohz_full, each kernel entry and exit accounts time (vtime).
for k in base patched nocpuacct; do
	bench syscall "$k" 1 icount 2 "syscall,500,0,3"
	bench syscall-nohz "$k" 1 icount 2 "syscall,500,0,3" nohz_full=1
done
# 6. Memory per cpuacct group: settled per-group deltas, several rounds.
for k in base patched; do
	bench groups "$k" 1 icount 2 "groups,1000,$rounds"
done
# 8. Cost of reading cpuacct files: a leaf, the parent of 1,000 groups, the
# root (reads sum the subtree on the patched kernel).
for k in base patched; do
	bench files "$k" 1 icount 2 "files,1000"
done
# 9. Reads at scale (the cpuacct read targets: 2000 groups, 64 CPUs, a
# subtree isolated from another's resets), one experiment in two parts. reads-poll: a
# monitoring poll of 2000 groups at depth 4, and reads of their parent
# after activity, with 64 possible CPUs: all online, as x86 under TCG lists
# no hot-pluggable ones (QEMU's maxcpus needs a hypervisor signature that
# TCG does not give).
for k in base patched; do
	bench reads "$k" 1 icount 64 "reads-poll,1000"
done
# reads-iso: reads of one subtree while another resets, churns, or both,
# in real time: under icount one thread runs the vCPUs in turns of 100 ms
# of guest time, longer than the reads.
rounds_of reads "reads-iso,200"

finish
