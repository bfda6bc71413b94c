#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/bench/run.sh [all|scale]
# The experiments of ktest/bench/experiments.tsv, each row's guest job
# (ktest/guest/bench.sh) booted on its kernels, then report.py's report.
#   all    (make bench, the default) every row in the table's order, on
#          base, patched, nocpuacct: icount rows once per kernel, realtime
#          rows in rounds, the kernels interleaved within each;
#          build/bench/ (results.csv, report.md, plots)
#   scale  (make bench-scale) the scale rows, base vs patched, at 1, 2,
#          4, ... vCPUs up to the host's cores, interleaved within each
#          round too; build/bench-scale/ (results.csv, scale.csv,
#          report.md, scale.png)
# Environment:
#   ROUNDS=N     rounds of the realtime rows (default 5, QUICK=1: 2)
#   QUICK=1      each row's quick job (shorter), and 2 rounds
#   ONLY="E..."  only the experiments named (the table's, as in
#                results.csv; default: all)
#   SMP=N        all: the vCPUs of the rows whose vcpus is SMP, at most
#                the host's cores (default 2)
#   ARCH=A       i386 or arm64: that arch's kernels (i386-base, ...), in
#                build/ARCH-bench/ (the kernel column still says base,
#                patched, ...); default x86_64
#
# A run that produces no figure (its guest failed, its module did not
# load, ...) is reported with its log; the other runs go on, and the
# command fails at the end.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
usage_args 0 1 "$@"

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
*) usage_error "unknown argument $what" ;;
esac
kver=$(make -s -C "$SRC_PRISTINE" kernelversion 2>/dev/null) ||
	die "no kernel tree in $SRC_PRISTINE: run 'make src'"
# What every row records of the run, for the report: the guest's arch,
# the QEMU that runs it (that arch's system emulator), the kernel version.
qemu=${QEMU%% *}
qver=$("$qemu" --version 2>/dev/null | sed -n '1s/^QEMU emulator version //p') ||
	true
[ -n "$qver" ] || die "$qemu --version: nothing; is it installed ('make deps')?"
run_cols="$KARCH,$(echo "$qemu $qver" | tr , ';'),$kver"

rounds=${ROUNDS:-$([ -z "${QUICK:-}" ] && echo 5 || echo 2)}
case $rounds in ''|0|*[!0-9]*) die "ROUNDS=$rounds: a number of rounds, at least 1" ;; esac
# The table's rows (its jobs as QUICK says): NAME JOB MODE VCPUS KERNELS
# KPARAMS SCALE, tab-separated; a table not as it says stops here.
table=$(python3 "$TOP/ktest/bench/table.py" rows) ||
	die "ktest/bench/experiments.tsv: fix the line named above"
names=" $(cut -f1 <<<"$table" | uniq | xargs) "
for e in ${ONLY:-}; do
	[[ $names == *" $e "* ]] ||
		die "ONLY=$ONLY: no experiment '$e' in ktest/bench/experiments.tsv (there:$names)"
done

rm -rf "$out"
mkdir -p "$out/logs"
csv=$out/results.csv
failed=$out/failed.txt
echo "experiment,kernel,run,metric,value,unit,mode,vcpus,host_cores,arch,qemu,kernel_version" >"$csv"
: >"$failed"

# bench EXPERIMENT KERNEL ROUND MODE VCPUS ARGS [KERNEL_PARAMS]: one boot,
# one experiment, or one part of it: a guest job (ARGS' first word) named
# EXPERIMENT-PART, whose rows are EXPERIMENT's too (reads-poll, reads-iso).
bench() {
	local exp=$1 k=$2 r=$3 mode=$4 smp=$5 args=$6 kp=${7:-}
	case " ${ONLY:-$exp} " in *" $exp "*) ;; *) return 0 ;; esac
	local part=$exp
	case ${args%%,*} in "$exp"-*) part=${args%%,*} ;; esac
	local log=$out/logs/$part-$k-smp$smp-$r.log
	local icount= rows= kparams=()
	[ "$mode" = icount ] && icount=-i
	# One -k, however many parameters the table's kparams has
	[ -n "$kp" ] && kparams=(-k "$kp")
	step "$part: $k, round $r ($mode, -smp $smp)"
	if QUIET=1 "$TOP/ktest/run/qemu-run.sh" -v "$APFX$k" -m bench -s "$smp" \
		$icount "${kparams[@]}" -a "$args" -l "$log" -t 900 </dev/null; then
		rows=$(sed -n 's/^ *# bench: //p' "$log" | while read -r kv unit; do
			echo "$exp,$k,$r,${kv%%=*},${kv#*=},$unit,$mode,$smp,$cores,$run_cols"
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

# run_row "ROUND..." VCPUS NAME JOB MODE KERNELS KPARAMS: a row of the
# table in those rounds (icount: round 1 only), its kernels interleaved
# within each.
run_row() {
	local rs=$1 n=$2 exp=$3 job=$4 mode=$5 kernels=$6 kp=$7 r k
	[ "$kp" != - ] || kp=
	[ "$mode" = realtime ] || rs=1
	for r in $rs; do
		for k in $kernels; do
			bench "$exp" "$k" "$r" "$mode" "$n" "$job" "$kp"
		done
	done
}

# The end of both: the report, then the runs that gave nothing, if any.
finish() {
	python3 "$TOP/ktest/bench/report.py" "$@" "$out"
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
			while IFS=$'\t' read -r exp job mode vcpus kernels kp sc; do
				[ "$sc" = yes ] || continue
				run_row "$r" "$n" "$exp" "$job" "$mode" "$kernels" "$kp"
			done <<<"$table"
		done
	done
	finish --scale
fi

while IFS=$'\t' read -r exp job mode vcpus kernels kp sc; do
	[ "$vcpus" != SMP ] || vcpus=$smp
	run_row "$(seq "$rounds")" "$vcpus" "$exp" "$job" "$mode" "$kernels" "$kp"
done <<<"$table"

finish
