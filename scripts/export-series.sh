#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Export the series as mail-ready patches in build/outgoing/.
#
# Every commit of this repository that changes an owned kernel file or
# patches/ becomes one patch, with that commit's message as its changelog
# (so such commits are written as kernel commits; "fixup! <subject>"
# commits are folded into the patch they name). The patches are made with
# git format-patch in build/outgoing.git, whose base commit holds the
# pristine versions of just the files the series touches, so their index
# lines carry upstream's blob ids and `git am` applies them to any 6.12
# tree holding those blobs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -d "$SRC_PRISTINE" ] || die "no base tree: run 'make src' first"
git -C "$TOP" rev-parse --verify -q HEAD >/dev/null || die "no commits to export"
repo=$BUILD/outgoing.git
outdir=$BUILD/outgoing
ver=$(make -s -C "$SRC_PRISTINE" kernelversion)
commits=$(git -C "$TOP" log --reverse --format=%H -- $OWNED_DIRS patches)

# Paths the series touches at any point of its history.
touched=$(for c in $commits; do
	git -C "$TOP" ls-tree -r --name-only "$c" -- $OWNED_DIRS
	git -C "$TOP" show "$c:patches/series" 2>/dev/null | sed -e 's/#.*//' -e '/^\s*$/d' |
		while read -r p; do
			git -C "$TOP" show "$c:patches/$p" | sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p'
		done
done | LC_ALL=C sort -u)

rm -rf "$repo" "$outdir"
git init -q "$repo"
g() { git -C "$repo" -c user.name="cpuacct-scale export" -c user.email=export@invalid "$@"; }

# Put the tree in the state of commit $1: pristine files, the owned files
# of that commit, its patches applied.
materialize() {
	local c=$1 tmp
	g rm -rq --ignore-unmatch . >/dev/null
	for p in $touched; do
		[ -f "$SRC_PRISTINE/$p" ] || continue
		mkdir -p "$repo/$(dirname "$p")"
		cp "$SRC_PRISTINE/$p" "$repo/$p"
	done
	[ -n "$c" ] || return 0
	tmp=$(mktemp -d)
	git -C "$TOP" archive "$c" -- $OWNED_DIRS $(git -C "$TOP" ls-tree --name-only "$c" patches) |
		tar -x -C "$tmp"
	(cd "$tmp" && for d in $OWNED_DIRS; do [ -d "$d" ] && find "$d" -type f; done) |
		(cd "$tmp" && cpio -pdm --quiet "$repo")
	if [ -f "$tmp/patches/series" ]; then
		sed -e 's/#.*//' -e '/^\s*$/d' "$tmp/patches/series" | while read -r p; do
			patch -s -p1 -N --no-backup-if-mismatch -d "$repo" <"$tmp/patches/$p" ||
				die "commit $c: patches/$p does not apply"
		done
	fi
	rm -rf "$tmp"
}

materialize ""
g add -A
g commit -q -m "Linux $ver (the files the series touches)"
base=$(g rev-parse HEAD)

for c in $commits; do
	materialize "$c"
	g add -A
	g diff --cached --quiet && continue	# e.g. the import of upstream copies
	subject=$(git -C "$TOP" log -1 --format=%s "$c")
	author=$(git -C "$TOP" log -1 --format='%an <%ae>' "$c")
	date=$(git -C "$TOP" log -1 --format=%aD "$c")
	case $subject in
	"fixup! "*) g commit -q --amend --no-edit ;;
	*) git -C "$TOP" log -1 --format=%B "$c" |
		g commit -q --author="$author" --date="$date" -F - ;;
	esac
done

n=$(g rev-list --count "$base..HEAD")
[ "$n" -gt 0 ] || die "the series is empty"
cover=$(mktemp)
cat >"$cover" <<-EOF
	cpuacct, percpu_counter: scale CPU accounting

	This series makes percpu_counter fold per-CPU deltas into an atomic64
	global count without a spinlock, adds a batch scaled to the unit of
	the values added, and gives cgroup-v1 cpuacct per-group context switch
	counts, with documentation and kselftests.

	Based on Linux $ver.
	EOF
g format-patch -q --cover-letter --cover-from-description=auto \
	--description-file="$cover" -o "$outdir" "$base..HEAD" >/dev/null
rm -f "$cover"
step "exported $n patches to build/outgoing/"
