#!/bin/bash
# The same objects as run.sh's, linked in both orders (base's code first,
# then patched's; and the other way round), 1 thread, 7 interleaved rounds
# each, twice: how much of a row is where the linker put each side's code.
#   bench/DIR/placement.sh OUT   (after run.sh OUT)
set -euo pipefail
out=${1:?usage: placement.sh OUT}
for v in ab aa; do
	o=$out/$v/obj
	gcc -pthread -o "$out/$v-norm" "$o/main.o" "$o/runtime.o" "$o/base.o" "$o/patched.o"
	gcc -pthread -o "$out/$v-swap" "$o/main.o" "$o/runtime.o" "$o/patched.o" "$o/base.o"
done
for i in 1 2; do
	for b in ab-norm ab-swap aa-norm aa-swap; do
		"$out/$b" bench -t 1 -r 7 -m 200 -s "$out/$b$i-summary.csv" >/dev/null 2>&1
	done
done
