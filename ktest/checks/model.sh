#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/checks/model.sh
# A KTAP test of checks/host.sh: SPIN verifies the model of the lock-free
# counter of lib/percpu_counter.c, ktest/checks/model/percpu_counter.pml,
# for 2 and 3 CPUs, and finds an error in each of its planted bugs (some
# 25-45 s on 2 busy cores); in build/model/.
#
# Exhaustively (safety: assertions and invalid end states; no lossy state
# compression, -DCOLLAPSE is lossless) in each scenario; a planted bug of
# the model (-DMUTANT_*) that it does not catch fails the check.  The
# protocol modelled (64-bit): each CPU keeps its delta,
# reset by its folds, the part it folded, never reset, and a generation,
# odd while a fold of that CPU is in flight; the fast path adds to the
# delta with a local cmpxchg while it stays within the batch (6.12's); a
# fold (also sync(), and a limited add's slow path under fbc->lock when
# the delta cannot take its amount), with interrupts disabled, makes the
# generation odd with this_cpu_inc(), takes the delta with
# this_cpu_xchg(), adds it and the amount to the folded part, makes the
# generation even and adds both to fbc->count; a nested fold (an NMI's,
# the only context that can nest there) adds to the folded part and
# fbc->count; a CPU's part of a sum is its folded part and delta, read as
# a seqcount reads, again while the generation moved or is odd (a wait
# for the fold over there) unless interrupts are off and the fold is the
# reader's own CPU's, or the move of a dead CPU's delta that its CPU runs
# (percpu_counter_mover), interrupted by an NMI (then at once, and it may
# miss that fold's or move's delta; a preemptible reader that migrated
# waits), or the reader is an NMI, which never waits (it takes the folded
# part alone, and may miss that CPU's delta); the exact sum
# is fbc->base plus every possible CPU's part, with no lock in any
# context, read again if a set() moved fbc->base meanwhile (a sum racing
# set() is linearizable with it; an NMI's sum in a set does not spin);
# set() moves fbc->base (and fbc->count by the same amount) under
# fbc->lock; cpu_dead() moves the dead CPU's delta to its folded part
# under fbc->lock, interrupts off, its generation odd and the mover set
# meanwhile, and (2 CPUs) an NMI nested there sums.  Some 25-45 s on 2
# cores a kernel build or a guest keeps busy (most of it spin and gcc, 24
# searches, and the scenarios 1 and 2, some 4.7 million states in all),
# at nice: the build may share them.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
usage_args 0 0 "$@"
. "$(dirname "$0")/ktap.sh"

ktap_begin
name="SPIN verifies the percpu_counter model for 2 and 3 CPUs and catches its planted bugs"
model=$TOP/ktest/checks/model/percpu_counter.pml
out=$BUILD/model
scenarios="1 2 3 4 5"
# Planted bug: the scenario that catches it (2 CPUs, or :N CPUs)
mutants="FOLD_CLAIMS_UNCHECKED:1 SUM_READS_COUNT:1 SUM_NO_GEN_CHECK:1
	 LIMITED_ADD_ROUGH:3 LIMITED_ADD_UNLOCKED_UPDATE:3
	 LIMITED_ADD_KEEPS_FULL_DELTA:3 SUM_ONLINE_ONLY:4 SET_WRITES_COUNT:2
	 SUM_READS_BASE_LAST:2 SUM_NO_BASE_RECHECK:2 GEN_INC_PLAIN:1
	 READER_SHORTCUT_ANY_CONTEXT:1 NO_MOVER:4 MOVE_DEAD_FOLDED_FIRST:4
	 NESTED_FOLD_TO_COUNT:1 NMI_TAKES_DELTA:1 MOVER_ANY_CPU:4:3
	 FOLDED_ADD_PLAIN:1"

if ! command -v spin >/dev/null; then
	ktap_test_fail_exit "$name" "spin is not installed (ktest/build/deps.sh installs it)"
fi

# verify DIR SPIN-FLAGS...: pan's report in DIR/pan.out; 1 if it did not run.
# gcc -O0: pan is bound by its state store, which -O2 does not speed, and
# compiling pan.c at -O2 takes longer.  -DCOLLAPSE: a quarter of the memory,
# no slower.  -w20: a hash table of 2^20 slots, not pan's 2^24, whose
# allocation took most of a small search's time (the larger ones chain: an
# exhaustive search stays exhaustive); the largest search takes some 80 MB.
verify() {
	local dir=$1
	shift
	rm -rf "$dir"
	mkdir -p "$dir"
	(cd "$dir" && nice spin -a "$@" "$model" >spin.out 2>&1 &&
		nice gcc -O0 -DSAFETY -DCOLLAPSE -o pan pan.c >gcc.out 2>&1 &&
		nice ./pan -m10000 -n -w20 >pan.out 2>&1) && grep -q '^State-vector' "$dir/pan.out"
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
			echo "# $cfg: errors or an incomplete search (trail: spin -t -p -k $dir/percpu_counter.pml.trail -DNCPU=$cpus -DSCENARIO=$s $model)"
			fail=1
		fi
	done
done
for m in $mutants; do
	IFS=: read -r mu s n <<<"$m"
	dir=$out/mutant-$mu
	if ! verify "$dir" -DNCPU="${n:-2}" -DSCENARIO="$s" -DMUTANT_"$mu"; then
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
