#!/bin/bash
# pcc-bench, base (stock 6.12) against patched, and the A/A control: the
# patched lib/percpu_counter.c built as both sides.  Two pairs, A/B then
# A/A, each 1 and 2 threads, 9 interleaved rounds of 200 ms.
#   bench/DIR/run.sh OUT   (from the repository root, after make src)
set -euo pipefail
out=${1:?usage: run.sh OUT}
src=$PWD/build/src
mkdir -p "$out"
make -s -C ktest/bench/host O="$out/ab" BASE_C=$src/linux/lib/percpu_counter.c \
	BASE_H=$src/linux/include/linux/percpu_counter.h \
	PATCHED_C=$src/linux-patched/lib/percpu_counter.c \
	PATCHED_H=$src/linux-patched/include/linux/percpu_counter.h
make -s -C ktest/bench/host O="$out/aa" BASE_C=$src/linux-patched/lib/percpu_counter.c \
	BASE_H=$src/linux-patched/include/linux/percpu_counter.h \
	PATCHED_C=$src/linux-patched/lib/percpu_counter.c \
	PATCHED_H=$src/linux-patched/include/linux/percpu_counter.h
"$out/ab/pcc-bench" check >"$out/check.log" 2>&1
for i in 1 2; do
	for v in ab aa; do
		"$out/$v/pcc-bench" bench -t 1,2 -r 9 -m 200 -o "$out/$v$i-runs.csv" \
			-s "$out/$v$i-summary.csv" >"$out/$v$i.txt" 2>&1
	done
done
