#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/keyflip/control.sh [VARIANT [FLIPS]]
# make keyflip-control: does text patching survive on this QEMU?  Flips a
# static key of a module's own (ktest/keyflip, nothing of the series)
# FLIPS times under switch load, on -smp 2 with one TCG thread per vCPU
# (as the tests run), then with one TCG thread for both; reports, for
# each, the flips done and whether the guest oopsed.
#   VARIANT  a variant whose kernel is built (default base)
#   FLIPS    how many (default 3000)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
usage_args 0 2 "$@"

variant=${1:-base} flips=${2:-3000}
out=$BUILD/$variant
[ -f "$out/Module.symvers" ] || die "build the $variant kernel first"
step "building the keyflip module against $variant"
build_module "$TOP/ktest/keyflip" "$variant" keyflip
# An initramfs with the module for these boots only: every other job of
# the variant boots one without it, made again when this script ends.
rm -rf "$out/control"	# where older versions left the module
trap '"$TOP/ktest/build/initramfs.sh" "$variant"' EXIT
"$TOP/ktest/build/initramfs.sh" "$variant" "$out/keyflip-src/keyflip.ko"

for tcg in multi single; do
	log=$BUILD/logs/$variant-keyflip-$tcg.log
	opt=
	[ $tcg = single ] && opt=-1
	QUIET=1 "$TOP/ktest/run/qemu-run.sh" -v "$variant" -m keyflip -s 2 $opt \
		-a "$flips" -t 900 -l "$log" || true
	done=$(sed -n 's/^keyflip: \([0-9]*\) flips$/\1/p' "$log" | tail -n 1)
	if grep -q '^Oops' "$log"; then
		echo "# $tcg-threaded TCG: Oops after ${done:-0}+ of $flips flips: $(grep -m1 '^RIP' "$log") (log: $log)"
	elif grep -q '^keyflip: .* survived' "$log"; then
		echo "# $tcg-threaded TCG: $flips flips, no Oops (log: $log)"
	else
		echo "# $tcg-threaded TCG: did not finish, ${done:-0} flips (log: $log)"
	fi
done
