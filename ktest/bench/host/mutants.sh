#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/bench/host/mutants.sh [NAME...]
# make bench-host-mutants: does pcc-bench's correctness pass fail on the
# planted bugs of make mutants?  One line per mutant: in how many runs a
# check failed; first a control, no bug planted, that must pass every run.
# Exit non-zero if the control fails once or a mutant is never caught.
#   NAME       ktest/mutants/NAME.patch (default: those that change
#              lib/percpu_counter.c, but for those that need an NMI)
# Environment:
#   RUNS=N     checks of each (default 10)
#   THREADS=N  pcc-bench check -t N (default: pcc-bench's)
#
# Each mutant is applied to a copy of the series' lib/percpu_counter.c,
# built as pcc-bench's "patched" in build/bench-host/mutant-NAME/.
set -uo pipefail
. "$(dirname "$0")/../../lib.sh"
usage_args 0 "" "$@"

RUNS=${RUNS:-10}
THREADS=${THREADS:-}
out=$BUILD/bench-host
[ -f "$SRC_PATCHED/lib/percpu_counter.c" ] || die "no $SRC_PATCHED: make src"
# By default the mutants of lib/percpu_counter.c (the others are the
# kernel's), less those that need an NMI, which userspace has not
# ("Needs: nmi" in their header).
names=${*:-$(cd "$TOP/ktest/mutants" &&
	grep -l '^+++ b/lib/percpu_counter\.c' ./*.patch | xargs grep -L '^Needs: nmi' |
	sed 's|^\./||; s|\.patch$||')}

# build NAME [PATCH]: pcc-bench with the series' file, PATCH applied
build() {
	local dir=$out/mutant-$1
	mkdir -p "$dir/src/lib"
	cp "$SRC_PATCHED/lib/percpu_counter.c" "$dir/src/lib/"
	if [ -n "${2:-}" ]; then
		patch -s -p1 -F0 -d "$dir/src" <"$2" ||
			die "$2 does not apply to $SRC_PATCHED/lib/percpu_counter.c"
	fi
	nice make -s -C "$TOP/ktest/bench/host" O="$dir" \
		PATCHED_C="$dir/src/lib/percpu_counter.c" >"$dir/build.log" 2>&1 ||
		{ cat "$dir/build.log" >&2; die "pcc-bench build failed for $1"; }
}

# runs NAME: how many of RUNS checks of the patched build fail; the
# failing lines of each run go to mutant-NAME/run-N.log
runs() {
	local dir=$out/mutant-$1 i failed=0
	rm -f "$dir"/run-*.log
	for i in $(seq 1 "$RUNS"); do
		if ! "$dir/pcc-bench" check -v patched ${THREADS:+-t "$THREADS"} \
			>"$dir/run-$i.log" 2>&1; then
			failed=$((failed + 1))
		fi
	done
	echo "$failed"
}

status=0
build control
n=$(runs control)
echo "control (no bug): $n of $RUNS runs failed"
[ "$n" = 0 ] || status=1
for m in $names; do
	p=$TOP/ktest/mutants/$m.patch
	[ -f "$p" ] || die "no ktest/mutants/$m.patch"
	build "$m" "$p"
	n=$(runs "$m")
	which=$(cat "$out/mutant-$m"/run-*.log | sed -n 's/^not ok [0-9]* patched: //p' |
		sort | uniq -c | awk '{printf "%s%s x%d", s, $2, $1; s=", "}')
	echo "$m: caught in $n of $RUNS runs${which:+ ($which)}"
	[ "$n" != 0 ] || status=1
done
exit $status
