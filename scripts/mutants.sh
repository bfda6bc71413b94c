#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make mutants [MUTANTS="name ..."] [RUNS=3]: do the percpu_counter tests
# fail on the bugs they were written against?  Each scripts/mutants/NAME.patch
# plants one bug in the series' kernel code and names, on its Caught-by:
# line, the KUnit cases of which at least one must fail on it.  For each
# mutant: build/src/linux-mutant, a hard-link farm of the patched tree with
# the patch applied; kernel, test module and initramfs in build/mutant
# (variant "mutant", rebuilt incrementally from one mutant to the next);
# RUNS boots of the test module alone (scripts/guest/mutant.sh).  A mutant
# is caught in a boot where one of its cases reports "not ok"; one KTAP
# result per mutant says in how many boots, and fails if in none.  Races
# are probabilistic: the count is the figure to report.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

runs=${RUNS:-3}
names=${MUTANTS:-$(cd "$TOP/scripts/mutants" && ls *.patch | sed 's/\.patch$//')}
tree=$SRC_MUTANT
log=$BUILD/logs/mutants.log
[ -d "$SRC_PATCHED" ] || die "no patched tree: run 'make src'"
mkdir -p "$BUILD/logs"

# A fresh farm follows the patched tree; files a previous mutant changed
# are copied back, not linked, so that their mtime is newer than the
# mutant's objects and kbuild rebuilds them.
step "creating build/src/linux-mutant"
rm -rf "$tree"
cp -al "$SRC_PATCHED" "$tree"
changed=$BUILD/src/.mutant-files
touch "$changed"

plant() {
	local p=$TOP/scripts/mutants/$1.patch f
	[ -f "$p" ] || die "no mutant '$1' (scripts/mutants/$1.patch)"
	for f in $(cat "$changed") $(sed -n 's|^+++ b/||p' "$p"); do
		rm -f "$tree/$f"
		cp "$SRC_PATCHED/$f" "$tree/$f"
	done
	sed -n 's|^+++ b/||p' "$p" >"$changed"
	patch -s -p1 -F0 -N --no-backup-if-mismatch -d "$tree" <"$p" ||
		die "scripts/mutants/$1.patch does not apply to the series"
}

# KTAP between start and done lines, as the guests print it
printf 'ktest: mutants start\nKTAP version 1\n1..%s\n' "$(echo $names | wc -w)" >"$log"
n=0
for m in $names; do
	n=$((n + 1))
	plant "$m"
	cases=$(sed -n 's/^Caught-by: *//p' "$TOP/scripts/mutants/$m.patch")
	[ -n "$cases" ] || die "scripts/mutants/$m.patch: no Caught-by: line"
	step "mutant $m: building"
	"$TOP/scripts/build-kernel.sh" mutant
	"$TOP/scripts/build-tests.sh" mutant
	"$TOP/scripts/mkinitramfs.sh" mutant
	caught=0
	for r in $(seq "$runs"); do
		blog=$BUILD/logs/mutant-$m-$r.log
		QUIET=1 "$TOP/scripts/qemu-run.sh" -v mutant -m mutant -l "$blog" \
			-t 600 -a bench_ms=0 || true
		hit=
		for c in $cases; do
			grep -Eq "^ *not ok [0-9]+ $c\b" "$blog" && hit="$hit $c"
		done
		if [ -n "$hit" ]; then
			caught=$((caught + 1))
			echo "# $m, boot $r: not ok:$hit"
		else
			echo "# $m, boot $r: survived ($blog)"
		fi
	done >>"$log"
	ok=ok
	[ "$caught" -gt 0 ] || ok="not ok"
	echo "$ok $n mutant $m caught in $caught of $runs boots ($cases)" >>"$log"
	tail -n $((runs + 1)) "$log"
done
echo "ktest: mutants done" >>"$log"
"$TOP/scripts/ktap-summary.py" "$log"
