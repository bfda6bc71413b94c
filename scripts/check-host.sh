#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host-side checks of the exported series, as KTAP:
#  - it applies with `git am` to the pristine files and the result is
#    exactly the tree that was built and tested (build/src/linux-patched);
#  - every patch passes checkpatch.pl --strict;
#  - the series uses no interface newer than v6.12 (check-api.sh);
#  - deps.sh installs a package dpkg has never heard of (check-deps.sh);
#  - the kselftest tarball builds and lists every test (check-kselftest.sh).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

echo "ktest: host start"
if ! out=$("$TOP/scripts/export-series.sh" 2>&1); then
	printf 'KTAP version 1\n1..1\n%s\nnot ok 1 export the series\n' "$(echo "$out" | sed 's/^/# /')"
	echo "ktest: host done"
	exit 1
fi
patches=$(ls "$BUILD"/outgoing/0*.patch | grep -v 0000-cover-letter)

echo "KTAP version 1"
echo "1..$(($(echo "$patches" | wc -l) + 4))"

# git am onto a scratch repo with the pristine versions of the files the
# patches touch: cheap, and git am is what a maintainer would run.
am=$BUILD/am-check
rm -rf "$am"
git init -q "$am"
files=$(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' $patches | LC_ALL=C sort -u)
for f in $files; do
	[ -f "$SRC_PRISTINE/$f" ] || continue
	mkdir -p "$am/$(dirname "$f")"
	cp "$SRC_PRISTINE/$f" "$am/$f"
done
g() { git -C "$am" -c user.name=check -c user.email=check@invalid "$@"; }
g add -A && g commit -q -m base --allow-empty
if out=$(g am -q $patches 2>&1); then
	diff=$(for f in $files; do
		cmp -s "$am/$f" "$SRC_PATCHED/$f" || echo "$f"
	done)
	if [ -z "$diff" ]; then
		echo "ok 1 series applies with git am and matches the tested tree"
	else
		echo "# differs from build/src/linux-patched: $diff"
		echo "not ok 1 series applies with git am and matches the tested tree"
	fi
else
	echo "$out" | sed 's/^/# /'
	echo "not ok 1 series applies with git am and matches the tested tree"
fi

n=1
for p in $patches; do
	n=$((n + 1))
	if out=$(cd "$SRC_PRISTINE" && perl scripts/checkpatch.pl --strict -q "$p" 2>&1); then
		echo "ok $n checkpatch --strict ${p##*/}"
	else
		echo "$out" | sed 's/^/# /'
		echo "not ok $n checkpatch --strict ${p##*/}"
	fi
done
"$TOP/scripts/check-api.sh" $((n + 1))
"$TOP/scripts/check-kselftest.sh" $((n + 2))
echo "ktest: host done"
