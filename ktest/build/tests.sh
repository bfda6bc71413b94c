#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/build/tests.sh VARIANT
# Build the guest's test payload against VARIANT's kernel (built first):
#   build/VARIANT/kselftest  the series' kselftests, static, installed the
#                            kselftest way (kselftest-list.txt), built
#                            against VARIANT's own uapi headers, so that
#                            no variant needs another built (for
#                            ARCH-VARIANT, with ARCH's cross compiler)
#   build/VARIANT/ktest      out-of-tree test modules (any selftest dir with
#                            a module/ subdir), built with M= against VARIANT
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
usage_args 1 1 "$@"

variant=$1
out=$BUILD/$variant
arch_of "$variant"
hdr=$out/hdr/include
[ -d "$hdr" ] || die "build the $variant kernel first (its uapi headers)"

[ -n "$SELFTESTS" ] || die "no kselftest targets in tools/testing/selftests/"
step "building kselftests: $SELFTESTS"
# The series' own selftest dirs come from the patched tree; lib.mk and
# kselftest.h are upstream's.
CFLAGS="-O2 -static" LDFLAGS="-static" \
make -s -C "$SRC_PATCHED/tools/testing/selftests" \
	ARCH="$KARCH" CROSS_COMPILE="$CROSS" \
	TARGETS="$SELFTESTS" KHDR_INCLUDES="-isystem $hdr" \
	O="$out/kselftest-build" INSTALL_PATH="$out/kselftest" \
	install >"$BUILD/logs/$variant-kselftest-build.log" 2>&1 ||
	{ tail -n 30 "$BUILD/logs/$variant-kselftest-build.log" >&2; die "kselftest build failed"; }

mkdir -p "$out/ktest"
for d in $SELFTESTS; do
	mod=$TOP/tools/testing/selftests/$d/module
	[ -d "$mod" ] || continue
	step "building test module $d/module against $variant"
	build_module "$mod" "$variant" "$d"
	cp "$out/$d-src"/*.ko "$out/ktest/"
done
