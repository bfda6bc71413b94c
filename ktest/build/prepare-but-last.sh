#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/build/prepare-but-last.sh SERIES
# Lay out build/src/linux-but-last-SERIES, the tree of a variant whose
# fragment says "# tree: but-last SERIES": build/src/linux-patched less
# the last patch of SERIES (OUTGOING in ktest/lib.sh), so that a bench
# tells what the series costs without its last, separable patch.
#   SERIES  percpu_counter or cpuacct
#
# The patch is the last one ktest/series/export.sh makes of HEAD (in
# build/outgoing-but-last/, exported again when HEAD moved): the owned
# files must be committed, and linux-patched must be HEAD's (make src).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
usage_args 1 1 "$@"

series=$1
grep -qw -- "$series" <<<"$OUTGOING" || usage_error "no series '$series' (OUTGOING: $OUTGOING)"
[ -d "$SRC_PATCHED" ] || die "no patched tree: run 'make src'"
[ -z "$(git -C "$TOP" status --porcelain -- $OWNED_DIRS patches)" ] ||
	die "the series' files differ from HEAD: commit them (the patch is HEAD's)"

out=$BUILD/outgoing-but-last
head=$(git -C "$TOP" rev-parse HEAD)
if [ "$(cat "$out/.head" 2>/dev/null)" != "$head" ]; then
	step "exporting the series of HEAD to ${out#"$TOP"/}"
	SERIES_OUT=$out FORCE=1 "$TOP/ktest/series/export.sh"
	echo "$head" >"$out/.head"
fi
last=$(ls "$out/$series"/[0-9][0-9][0-9][0-9]-*.patch | grep -v /0000- | tail -n1)

tree=$BUILD/src/linux-but-last-$series
stamp=$tree.stamp
want="$head $(stat -c %Y "$BUILD/src/.overlay")"
[ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && [ -d "$tree" ] && exit 0
step "creating ${tree#"$TOP"/}: linux-patched less ${last##*/}"
rm -rf "$tree" "$stamp"
cp -al "$SRC_PATCHED" "$tree"
# patch(1) writes each file it changes anew, which leaves linux-patched's
# hard link alone.
patch -s -R -p1 --no-backup-if-mismatch -d "$tree" <"$last" ||
	die "${last##*/} does not revert from build/src/linux-patched: is it HEAD's (make src)?"
echo "$want" >"$stamp"
