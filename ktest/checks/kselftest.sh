#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/checks/kselftest.sh
# A KTAP test of checks/host.sh: the series' kselftests build and package
# with `make gen_tar` as labs that run kselftest tarballs (KernelCI, LKFT)
# make them, and the tarball lists every test; skipped if build/patched is
# not built.
# Environment: JOBS=N, make -j (default: nproc)
#
# The command, unchanged:
#
#   make -C tools/testing/selftests TARGETS="$SELFTESTS" gen_tar
#
# in the patched tree, with upstream's flags (dynamically linked, unlike
# the static build of build/tests.sh for the guest), against the patched
# kernel's uapi headers.  It must build without a warning, and the tarball's
# kselftest-list.txt must list exactly the programs each target's Makefile
# names to run (TEST_GEN_PROGS, TEST_CUSTOM_PROGS, TEST_PROGS), every
# test_*.c of the target among them, each in the tarball as an executable,
# with the target's settings (its timeout) beside it.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
usage_args 0 0 "$@"
. "$(dirname "$0")/ktap.sh"

ktap_begin
name="kselftest tarball (gen_tar) lists the series' tests"
hdr=$BUILD/patched/hdr/include
dir=$BUILD/kselftest-tar
log=$BUILD/logs/kselftest-tar.log
ksft=$SRC_PATCHED/tools/testing/selftests
tarball=$dir/install/kselftest-packages/kselftest.tar.gz
# A make of its own, as a lab runs it: not make check's flags and level.
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make "$@"; }

# make check VARIANT=base need not build the patched kernel; make check does.
[ -f "$BUILD/patched/vmlinux" ] || {
	ktap_test_skip "$name" "build/patched not built (make check builds it)"
	exit 0
}
[ -d "$hdr" ] || ktap_test_fail_exit "$name" "no $hdr: build the patched kernel first"
[ -n "$SELFTESTS" ] || ktap_test_fail_exit "$name" "no kselftest targets in tools/testing/selftests/"

# The build directory is kept (make rebuilds what changed), the tarball
# is made anew.
rm -rf "$dir/install"
mkdir -p "$dir/build" "$(dirname "$log")"
# FORCE_TARGETS: fail when one target does not build (by default, only
# when none does).
mk -C "$ksft" -j"$JOBS" TARGETS="$SELFTESTS" FORCE_TARGETS=1 \
	KHDR_INCLUDES="-isystem $hdr" O="$dir/build" \
	INSTALL_PATH="$dir/install" gen_tar >"$log" 2>&1 ||
	ktap_test_fail_exit "$name" "$(grep -E 'error|Error|No rule|undefined' "$log" | head -n 20)
make gen_tar failed (build/logs/kselftest-tar.log)"
warn=$(grep -E 'warning:' "$log")
[ -z "$warn" ] || ktap_test_fail_exit "$name" "$warn"
[ -f "$tarball" ] || ktap_test_fail_exit "$name" "make gen_tar made no ${tarball#"$BUILD"/}"

# What each target's Makefile names to run, by make itself.
expected=$(for t in $SELFTESTS; do
	mk -s --no-print-directory -C "$ksft/$t" \
		--eval 'ksft-check-list: ; @echo $(notdir $(TEST_GEN_PROGS) $(TEST_CUSTOM_PROGS) $(TEST_PROGS))' \
		ksft-check-list | tr ' ' '\n' | sed "/^\$/d; s|^|$t:|"
done | LC_ALL=C sort)
listed=$(tar -xOf "$tarball" ./kselftest-list.txt 2>/dev/null | LC_ALL=C sort) ||
	ktap_test_fail_exit "$name" "no kselftest-list.txt in ${tarball#"$BUILD"/}"
contents=$(tar -tvf "$tarball")

bad=
[ -n "$expected" ] || bad="$bad
the Makefiles of $SELFTESTS name no test"
[ "$listed" = "$expected" ] || bad="$bad
kselftest-list.txt differs from the Makefiles' tests (-listed +expected):
$(diff <(echo "$listed") <(echo "$expected") | grep '^[<>]' | tr '<>' '-+')"
for t in $SELFTESTS; do
	for c in "$ksft/$t"/test_*.c; do
		[ -f "$c" ] || continue
		p=$(basename "$c" .c)
		grep -qFx "$t:$p" <<<"$expected" ||
			bad="$bad
$t/$p.c is not a test of $t/Makefile"
	done
	if [ -f "$ksft/$t/settings" ] &&
	   ! grep -qE "^-.* \./$t/settings\$" <<<"$contents"; then
		bad="$bad
no $t/settings in the tarball"
	fi
done
for e in $expected; do
	grep -qE "^-..x.* \./${e%%:*}/${e#*:}\$" <<<"$contents" ||
		bad="$bad
no executable ${e%%:*}/${e#*:} in the tarball"
done

echo "# ${tarball#"$BUILD"/}: $(echo "$contents" | wc -l) entries, kselftest-list.txt:"
echo "$listed" | sed 's/^/#   /'
[ -z "$bad" ] || ktap_test_fail_exit "$name" "${bad#?}"
ktap_test_pass "$name"
