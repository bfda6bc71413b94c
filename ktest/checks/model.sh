#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checks/model.sh: a KTAP test of checks/host.sh: SPIN verifies
# ktest/checks/model/percpu_counter.pml, the lock-free folds of
# lib/percpu_counter.c, exhaustively (safety: assertions and invalid end
# states, no state compression) in each scenario for 2 and 3 CPUs, and
# finds an error in every planted bug of the model (-DMUTANT_*): a
# planted bug the model does not catch fails the check.  The protocol
# modelled: a fold begins with atomic_add_return(2, &folds) and, finding
# the counter frozen, adds to fbc->count alone (a backoff, its end counted
# at the thaw); a freeze (under fbc->lock, where the frozen bit is clear)
# sets the bit with a fetch_add and waits until folded reaches the value
# before it; the thaw clears the bit with a fetch_sub and adds the
# backoffs' ends to folded; a sum tries two lockless passes, then an NMI
# returns the last one (it never locks), anyone else sums frozen under
# the lock; a limited add's slow path sums frozen under the lock; set(),
# sync() and cpu_dead() move deltas under the lock, where no freeze is in
# progress.  Some 65 s (40 s of CPU).
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/ktap.sh"

ktap_begin
name="SPIN verifies the percpu_counter fold model for 2 and 3 CPUs and catches its planted bugs"
model=$TOP/ktest/checks/model/percpu_counter.pml
out=$BUILD/model
scenarios="1 2 3 4 5 6 7 8 9 10 11 12"
# Planted bug: the scenario that catches it (2 CPUs)
mutants="SUM_MISSES_FOLDS:1 FOLD_RESETS_DELTA:1 LIMITED_ADD_ROUGH:3
	 LIMITED_ADD_UNLOCKED_UPDATE:3 SUM_FROZEN_SKIPS_CPU1:1 FREEZE_NO_WAIT:2
	 SYNC_AS_FOLD:6 LIMITED_ADD_KEEPS_FULL_DELTA:3 THAW_READS_LATE:1"

if ! command -v spin >/dev/null; then
	ktap_test_fail_exit "$name" "spin is not installed (ktest/build/deps.sh installs it)"
fi

# verify DIR SPIN-FLAGS...: pan's report in DIR/pan.out; 1 if it did not run
verify() {
	local dir=$1
	shift
	rm -rf "$dir"
	mkdir -p "$dir"
	(cd "$dir" && spin -a "$@" "$model" >spin.out 2>&1 &&
		gcc -O2 -DSAFETY -o pan pan.c >gcc.out 2>&1 &&
		./pan -m10000 -n >pan.out 2>&1) && grep -q '^State-vector' "$dir/pan.out"
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
