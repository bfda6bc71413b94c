#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/bench/host/run.sh
# make bench-host: pcc-bench's benchmarks of lib/percpu_counter.c, base vs
# patched, built in userspace and run on this host (no QEMU), after its
# correctness pass; in build/bench-host/: report.md, runs.csv, summary.csv,
# rates.png, command.txt.
# Environment:
#   THREADS=T,...   thread counts, e.g. 1,2,4 (default 1, 2, 4, ... up
#                   to the host's cores)
#   ROUNDS=N        rounds (default 5)
#   MS=N            milliseconds per run (default 200)
#   PCC_BENCH=FILE  that pcc-bench binary (e.g. a pcc-bench-static)
#                   instead of a build of its own (default: unset)
#
# A benchmark of wrong code measures nothing: the correctness pass comes
# first.  runs.csv has a row per run; summary.csv the median, min and max
# per variant, the ratio of the medians and the range of the per-round
# ratios.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"
usage_args 0 0 "$@"

out=$BUILD/bench-host
ROUNDS=${ROUNDS:-5}
MS=${MS:-200}
mkdir -p "$out"
if [ -z "${PCC_BENCH:-}" ]; then
	step "building pcc-bench"
	nice make -s -C "$TOP/ktest/bench/host" O="$out"
	PCC_BENCH=$out/pcc-bench
fi
bench=("$PCC_BENCH" bench -r "$ROUNDS" -m "$MS" -o "$out/runs.csv" -s "$out/summary.csv")
[ -n "${THREADS:-}" ] && bench+=(-t "$THREADS")

step "pcc-bench check"
"$PCC_BENCH" check >"$out/check.log" 2>&1 ||
	{ cat "$out/check.log" >&2; die "pcc-bench check failed: no benchmark of broken code"; }
step "pcc-bench bench (load now: $(cut -d' ' -f1-3 /proc/loadavg))"
host=$("$PCC_BENCH" host)
commit=$(git -C "$TOP" rev-parse --short HEAD)
git -C "$TOP" diff --quiet HEAD -- ktest/bench/host || commit="$commit (ktest/bench/host/ modified)"
{
	echo "# commit $commit"
	echo "# base tree: Linux $(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' "$SRC_PRISTINE/Makefile" | paste -sd.)"
	echo "# base:    $(git hash-object "$SRC_PRISTINE/lib/percpu_counter.c") $SRC_PRISTINE/lib/percpu_counter.c"
	echo "# patched: $(git hash-object "$SRC_PATCHED/lib/percpu_counter.c") $SRC_PATCHED/lib/percpu_counter.c"
	echo "${bench[*]}"
} >"$out/command.txt"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
"${bench[@]}" | tee "$out/bench.txt"
load1=$(cut -d' ' -f1-3 /proc/loadavg)

# One panel per experiment: median per thread count, min-max as bars
step "plotting $out/rates.png"
exps=$(tail -n +2 "$out/summary.csv" | cut -d, -f1 | uniq)
tmax=$(tail -n +2 "$out/summary.csv" | cut -d, -f3 | sort -n | tail -1)
{
	echo "set terminal pngcairo size 1500,1100 font ',9' noenhanced"
	echo "set output '$out/rates.png'"
	echo "set datafile separator ','"
	echo "set multiplot layout 3,3 title 'per-thread rate against threads: base (stock 6.12) vs patched, median [min-max]'"
	echo "set logscale x 2; set logscale y; set key bottom left; set grid"
	echo "set xlabel 'threads'; set xrange [0.7:$tmax * 1.4]"
	for e in $exps; do
		unit=$(grep "^$e," "$out/summary.csv" | head -1 | cut -d, -f2)
		echo "set title '$e'; set ylabel '$unit per thread'"
		echo "plot '$out/summary.csv' using (strcol(1) eq '$e' && \$4 > 0 ? \$3 : NaN):4:5:6 with yerrorlines title 'base', \\"
		echo "     '' using (strcol(1) eq '$e' ? \$3 : NaN):7:8:9 with yerrorlines title 'patched'"
	done
	echo "unset multiplot"
} >"$out/rates.gp"
gnuplot "$out/rates.gp"

cores=$(sed -n 's/^cores=//p' <<<"$host")
{
	echo "# make bench-host: lib/percpu_counter.c, base vs patched, in userspace"
	echo
	echo "Host: $cores cores ($(sed -n 's/^model=//p' <<<"$host")), $(uname -sr), $(gcc --version | head -1);"
	echo "pcc-bench built with NR_CPUS=$(sed -n 's/^nr_cpus=//p' <<<"$host")."
	echo "Load average (1, 5, 15 min) before: $load0; after: $load1; per round in runs.csv (load1)."
	echo
	echo "Commit and sources, command:"
	echo
	sed 's/^/    /' "$out/command.txt"
	echo
	echo "Each \"CPU\" of lib/percpu_counter.c is a thread on a host core of its own;"
	echo "a run at T threads has T CPUs online (percpu_counter_batch = max(32, 2T))."
	echo "$ROUNDS rounds of $MS ms per run, base and patched alternating (base first in odd rounds)."
	echo "Values: median [min-max] over the rounds, per thread (sums: of the summing thread);"
	echo "patched/base is the ratio of the medians, then the range of the rounds' own ratios."
	echo
	sed -n 's/^# experiment \([^:]*\): /- `\1`: /p' "$out/bench.txt"
	echo
	grep '^|' "$out/bench.txt"
	echo
	echo "![per-thread rates against threads](rates.png)"
	echo
	echo "Correctness pass before the benchmark (pcc-bench check):"
	echo
	sed 's/^/    /' "$out/check.log"
} >"$out/report.md"
step "report: $out/report.md"
