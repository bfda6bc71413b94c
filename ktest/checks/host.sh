#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/checks/host.sh
# make check's host-side checks of the exported series, as KTAP:
#  - each series (exported to build/outgoing-check/NAME/, not make series'
#    build/outgoing/) applies with `git am` to the pristine files on its
#    own, and all of them together give exactly the tree that was built
#    and tested (build/src/linux-patched);
#  - every patch passes checkpatch.pl --strict;
#  - each series builds patch by patch (checks/series-build.sh);
#  - the series uses no interface newer than v6.12 (checks/api.sh);
#  - the kselftest tarball builds and lists every test (checks/kselftest.sh);
#  - KCSAN's stress job ignores no function the series changes;
#  - both trees' lib/percpu_counter.c build and pass pcc-bench's checks in
#    userspace (checks/bench-host.sh);
#  - SPIN verifies the model of the lock-free folds for 2 and 3 CPUs, and
#    each of its planted bugs fails it (checks/model.sh).
# The checks of the tooling itself are checks/tooling.sh's.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
usage_args 0 0 "$@"
. "$(dirname "$0")/ktap.sh"

ktap_begin host
# An export of its own: build/outgoing is make series', maybe edited.
export SERIES_OUT=$BUILD/outgoing-check FORCE=1
if ! out=$("$TOP/ktest/series/export.sh" 2>&1); then
	ktap_test_fail "export the series" "$out"
	exit 1
fi
patches=$(for s in $OUTGOING; do ls "$SERIES_OUT/$s"/0*.patch; done | grep -v 0000-cover-letter)

# git am onto a scratch repo with the pristine versions of the files the
# patches touch: cheap, and git am is what a maintainer would run.
g() { git -C "$am" -c user.name=check -c user.email=check@invalid "$@"; }
am_pristine() {
	rm -rf "$am"
	git init -q "$am"
	seed_pristine "$am" $(patch_paths "$@")
	g add -A && g commit -q -m base --allow-empty
	g am -q "$@" 2>&1
}
# Each series on its own, as its maintainers get it...
for s in $OUTGOING; do
	am=$BUILD/am-check/$s
	out=$(am_pristine $(echo "$patches" | grep -F "$SERIES_OUT/$s/"))
	ktap_test_result $? "series $s applies with git am on its own" "$out"
done
# ...and all of them, which must give the tree that was built and tested.
am=$BUILD/am-check/all
files=$(patch_paths $patches)
desc="the series together match the tested tree"
if out=$(am_pristine $patches); then
	ktap_test_none "$desc" "$(for f in $files; do
		cmp -s "$am/$f" "$SRC_PATCHED/$f" ||
			echo "differs from build/src/linux-patched: $f"
	done)"
else
	ktap_test_fail "$desc" "$out"
fi

for p in $patches; do
	out=$(cd "$SRC_PRISTINE" && perl scripts/checkpatch.pl --strict -q "$p" 2>&1)
	ktap_test_result $? "checkpatch --strict ${p#"$SERIES_OUT"/}" "$out"
done
"$TOP/ktest/checks/series-build.sh"
"$TOP/ktest/checks/api.sh"
"$TOP/ktest/checks/kselftest.sh"

# A function named in kcsan-ignore.txt must be stock: no patch adds,
# removes or changes a line of it (a hunk's @@ line names its function).
ignore=$(grep -Ev '^(#|$)' "$TOP/ktest/guest/kcsan-ignore.txt")
ktap_test_none "KCSAN ignores only functions the series does not change" \
	"$(for f in $ignore; do
		grep -Hw -- "$f" $patches | grep -E '^[^:]+:(@@|[-+]([^-+]|$))' |
			sed "s|^$SERIES_OUT/||"
	done)"
"$TOP/ktest/checks/bench-host.sh"
"$TOP/ktest/checks/model.sh"
