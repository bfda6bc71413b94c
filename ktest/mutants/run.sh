#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/mutants/run.sh
# make mutants: do the series' tests fail on the bugs they were written
# against?  Each ktest/mutants/NAME.patch plants one bug in the series'
# kernel code and names, on its Caught-by: line, the tests of which at
# least one must fail on it: KUnit cases of the percpu_counter module, or
# PROG:CASE for a case of a kselftest program.  Booted on x86_64; KTAP in
# build/logs/mutants.log.
# Environment:
#   MUTANTS="NAME..."  only those (default: every ktest/mutants/*.patch)
#   RUNS=N             boots per mutant (default 3)
#
# build/src/linux-mutant is a hard-link farm of the patched tree; kernel,
# test module and initramfs go to build/mutant (variant "mutant", rebuilt
# incrementally).  First a control: the farm with no bug planted, booted
# once, where every Caught-by case must pass, in the same setup as the
# mutants (only the suites that hold them, ktest/guest/mutant.sh).  Then
# each mutant, RUNS boots: caught in a boot where one of its cases reports
# "not ok"; a boot that gives no result for one of its suites (panic,
# hang, insmod failure) is neither.  One KTAP result per mutant says in how many boots it was
# caught, and fails if in none.  Races are probabilistic: the count is the
# figure to report.  The farm is left without a bug.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
usage_args 0 0 "$@"

runs=${RUNS:-3}
names=${MUTANTS:-$(cd "$TOP/ktest/mutants" && ls *.patch | sed 's/\.patch$//')}
tree=$SRC_MUTANT
log=$BUILD/logs/mutants.log
[ -d "$SRC_PATCHED" ] || die "no patched tree: run 'make src'"
mkdir -p "$BUILD/logs"
cases_of() { mutant_cases "$TOP/ktest/mutants/$1.patch"; }
# result LOG CASE: CASE's result line in LOG, for PROG:CASE only within the
# output of PROG (which other programs' case names may repeat)
result() {
	case $2 in
	*:*) awk -v prog=": ${2%%:*}" '
		/^(not )?ok [0-9]+ selftests: / {
			if (index($0, prog " ") || substr($0, length($0) - length(prog) + 1) == prog)
				printf "%s", buf
			buf = ""; next
		}
		{ buf = buf $0 "\n" }' "$1" | grep -E "^ *(not )?ok [0-9]+ ${2#*:}( |$)" ;;
	*) grep -E "^ *(not )?ok [0-9]+ $2( |$)" "$1" ;;
	esac
}
suites_of() { mutant_suites $(for m; do echo "$TOP/ktest/mutants/$m.patch"; done); }
for m in $names; do
	[ -f "$TOP/ktest/mutants/$m.patch" ] || die "no mutant '$m' (ktest/mutants/$m.patch)"
	[ -n "$(cases_of "$m")" ] || die "ktest/mutants/$m.patch: no Caught-by: line"
done

# Every file a mutant ever changed, kept across runs: each is copied back
# from the patched tree before the next mutant, never linked, so that its
# mtime is newer than the objects built from a mutated copy.
changed=$BUILD/src/.mutant-files
touch "$changed"
step "creating build/src/linux-mutant"
rm -rf "$tree"
cp -al "$SRC_PATCHED" "$tree"

# plant [NAME]: the farm with mutant NAME, or with none
plant() {
	local p= f
	if [ -n "${1:-}" ]; then
		p=$TOP/ktest/mutants/$1.patch
		patch_paths "$p" | cat - "$changed" | LC_ALL=C sort -u >"$changed.new"
		mv "$changed.new" "$changed"
	fi
	for f in $(cat "$changed"); do
		rm -f "$tree/$f"
		cp "$SRC_PATCHED/$f" "$tree/$f"
	done
	[ -z "$p" ] || patch -s -p1 -F0 -N --no-backup-if-mismatch -d "$tree" <"$p" ||
		die "ktest/mutants/$1.patch does not apply to the series"
}

build() {
	"$TOP/ktest/build/kernel.sh" mutant
	"$TOP/ktest/build/tests.sh" mutant
	"$TOP/ktest/build/initramfs.sh" mutant
}

# boot LOG SUITE...: one boot running SUITEs (suites_of); false if one
# of them gave no result
boot() {
	local log=$1 s
	shift
	QUIET=1 "$TOP/ktest/run/qemu-run.sh" -v mutant -m mutant -l "$log" \
		-t 600 -a "$(echo "$@" | tr ' ' ,),bench_ms=0" || true
	grep -q '^ktest: mutant done' "$log" || return 1
	for s; do
		case $s in
		kunit) grep -Eq '^(not )?ok [0-9]+ percpu_counter$' "$log" ;;
		*) grep -Eq "^(not )?ok [0-9]+ selftests: ${s%%:*}: ${s#*:}\b" "$log" ;;
		esac || return 1
	done
}

# KTAP between start and done lines, as the guests print it
printf 'ktest: mutants start\nKTAP version 1\n1..%s\n' \
	$(($(echo $names | wc -w) + 1)) >"$log"

step "control: no bug planted"
plant
build
all=$(for m in $names; do cases_of "$m"; done | xargs -n1 | LC_ALL=C sort -u)
blog=$BUILD/logs/mutant-none.log
ok=ok
if ! boot "$blog" $(suites_of $names); then
	echo "# no result from a suite ($blog)" >>"$log"
	ok="not ok"
fi
for c in $all; do
	grep -Eq "^ *ok [0-9]+ ${c#*:}$" <<<"$(result "$blog" "$c")" && continue
	echo "# $c did not pass without a bug ($blog)" >>"$log"
	ok="not ok"
done
echo "$ok 1 control: every Caught-by case passes on the series" >>"$log"
tail -n 1 "$log"
[ "$ok" = ok ] || { "$TOP/ktest/run/ktap-summary.py" "$log"; exit 1; }

n=1
for m in $names; do
	n=$((n + 1))
	cases=$(cases_of "$m")
	step "mutant $m"
	plant "$m"
	build
	caught=0
	for r in $(seq "$runs"); do
		blog=$BUILD/logs/mutant-$m-$r.log
		if ! boot "$blog" $(suites_of "$m"); then
			echo "# $m, boot $r: no result from a suite ($blog)"
			continue
		fi
		hit=
		for c in $cases; do
			grep -q "^ *not ok" <<<"$(result "$blog" "$c")" && hit="$hit $c"
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
plant
echo "ktest: mutants done" >>"$log"
"$TOP/ktest/run/ktap-summary.py" "$log"
