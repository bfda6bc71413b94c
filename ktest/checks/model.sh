#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checks/model.sh: a KTAP test of checks/host.sh: SPIN verifies
# ktest/checks/model/percpu_counter.pml, the lock-free counter of
# lib/percpu_counter.c (64-bit), exhaustively (safety: assertions and
# invalid end states, no state compression) in each scenario for 2 and 3
# CPUs, and finds an error in every planted bug of the model (-DMUTANT_*):
# a planted bug the model does not catch fails the check.  The protocol
# modelled: each CPU keeps its delta, reset by folds, and the total of its
# adds, never reset; the fast path adds to the delta with a local cmpxchg
# while it stays within the batch, then to the total; a fold (also sync(),
# and a limited add's slow path under fbc->lock), with interrupts
# disabled, adds to the total, takes the delta with this_cpu_xchg() (a
# nested fold, an NMI's, the only context that can nest there, takes a
# disjoint part) and adds both to fbc->count; the exact sum is fbc->base
# plus every possible CPU's total, with no lock in any context, read again
# if a set() moved fbc->base meanwhile (a sum racing set() is
# linearizable with it; an NMI's sum in a set does not spin); set() moves
# fbc->base (and fbc->count by the same amount) under fbc->lock;
# cpu_dead() folds the dead CPU's delta under fbc->lock, racing with an
# add that did its cmpxchg there and migrated before adding to a total.
# Some 40 s on 2 busy cores (most of it spin, gcc and 3-CPU scenarios 1
# and 2), at nice: a kernel build may share them.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/ktap.sh"

ktap_begin
name="SPIN verifies the percpu_counter model for 2 and 3 CPUs and catches its planted bugs"
model=$TOP/ktest/checks/model/percpu_counter.pml
out=$BUILD/model
scenarios="1 2 3 4 5"
# Planted bug: the scenario that catches it (2 CPUs)
mutants="FOLD_CLAIMS_UNCHECKED:1 SUM_READS_COUNT:1 LIMITED_ADD_ROUGH:3
	 LIMITED_ADD_UNLOCKED_UPDATE:3 LIMITED_ADD_KEEPS_FULL_DELTA:3
	 SUM_ONLINE_ONLY:4 SET_WRITES_COUNT:2 SUM_READS_BASE_LAST:2
	 SUM_NO_BASE_RECHECK:2"

if ! command -v spin >/dev/null; then
	ktap_test_fail_exit "$name" "spin is not installed (ktest/build/deps.sh installs it)"
fi

# verify DIR SPIN-FLAGS...: pan's report in DIR/pan.out; 1 if it did not run.
# gcc -O0: compiling pan.c at -O2 takes longer than the searches it speeds.
verify() {
	local dir=$1
	shift
	rm -rf "$dir"
	mkdir -p "$dir"
	(cd "$dir" && nice spin -a "$@" "$model" >spin.out 2>&1 &&
		nice gcc -O0 -DSAFETY -o pan pan.c >gcc.out 2>&1 &&
		nice ./pan -m10000 -n >pan.out 2>&1) && grep -q '^State-vector' "$dir/pan.out"
}
errors() { sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$1/pan.out"; }

fail=0
start=$SECONDS
for cpus in 2 3; do
	for s in $scenarios; do
		dir=$out/ncpu$cpus-s$s
		cfg="NCPU=$cpus SCENARIO=$s"
		t=$SECONDS
		if ! verify "$dir" -DNCPU=$cpus -DSCENARIO=$s; then
			cat "$dir"/*.out 2>/dev/null | tail -n 20 | sed 's/^/# /'
			echo "# $cfg: did not run"
			fail=1
			continue
		fi
		states=$(sed -n 's/^ *\([0-9]*\) states, stored.*/\1/p' "$dir/pan.out")
		ptime=$(sed -n 's/^pan: elapsed time \(.*\) seconds/\1/p' "$dir/pan.out")
		echo "# $cfg: $states states stored, pan ${ptime}s, $((SECONDS - t))s with spin and gcc"
		if [ "$(errors "$dir")" != 0 ] ||
		   grep -Eq 'max search depth too small|Search not completed' "$dir/pan.out"; then
			grep -E '^pan:|errors:|depth' "$dir/pan.out" | sed 's/^/# /'
			echo "# $cfg: errors or an incomplete search (trail: spin -t -p -DNCPU=$cpus -DSCENARIO=$s in $dir)"
			fail=1
		fi
	done
done
for m in $mutants; do
	mu=${m%:*}
	s=${m#*:}
	dir=$out/mutant-$mu
	if ! verify "$dir" -DNCPU=2 -DSCENARIO="$s" -DMUTANT_"$mu"; then
		cat "$dir"/*.out 2>/dev/null | tail -n 20 | sed 's/^/# /'
		echo "# MUTANT_$mu: did not run"
		fail=1
	elif [ "$(errors "$dir")" = 0 ]; then
		echo "# MUTANT_$mu: scenario $s passes: the model no longer catches it"
		fail=1
	else
		echo "# MUTANT_$mu: caught, $(grep -m1 '^pan:1:' "$dir/pan.out" | sed 's/^pan:1: //')"
	fi
done
# Every planted bug of lib/percpu_counter.c in make mutants has its
# counterpart here: NAME.patch is MUTANT_NAME, upper case, - as _.
for p in $(grep -l '^+++ b/lib/percpu_counter\.c' "$TOP"/ktest/mutants/*.patch); do
	mu=$(basename "$p" .patch | tr a-z- A-Z_)
	case " $(echo $mutants) " in
	*" $mu:"*) ;;
	*) echo "# ${p#"$TOP"/}: no MUTANT_$mu in the model"; fail=1 ;;
	esac
done
echo "# $((SECONDS - start))s in all"
ktap_test_result $fail "$name"
