#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Export the series as mail-ready patches in build/outgoing/.
#
# Every commit of this repository that changes an owned kernel file or
# patches/ becomes one patch, with that commit's message as its changelog
# (so such commits are written as kernel commits). "fixup! <subject>" and
# "amend! <subject>" commits are squashed into the patch they name, as by
# git rebase --autosquash (amend! also replaces its changelog, e.g. to add
# measured figures). The patches are made with
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
# The commits that change the series, and amend! ones, which may only
# change a changelog (so touch no file).
series_commits=$( (git -C "$TOP" log --format=%H -- $OWNED_DIRS patches
	git -C "$TOP" log --format=%H --grep='^amend! ') | sort -u)
commits=$(git -C "$TOP" log --reverse --format=%H | grep -Fx "$series_commits")

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
g() { git -C "$repo" -c user.name="$(git -C "$TOP" log -1 --format=%an)" \
	-c user.email="$(git -C "$TOP" log -1 --format=%ae)" "$@"; }

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
	git -C "$TOP" archive "$c" -- $(git -C "$TOP" ls-tree --name-only "$c" -- $OWNED_DIRS patches) |
		tar -x -C "$tmp"
	(cd "$tmp" && for d in $OWNED_DIRS; do [ -d "$d" ] || continue; find "$d" -type f; done) |
		(cd "$tmp" && cpio -pdmu --quiet "$repo")
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
	case $(git -C "$TOP" log -1 --format=%s "$c") in
	"amend! "*) ;;
	*) g diff --cached --quiet && continue ;;	# e.g. the import
	esac
	author=$(git -C "$TOP" log -1 --format='%an <%ae>' "$c")
	date=$(git -C "$TOP" log -1 --format=%aD "$c")
	git -C "$TOP" log -1 --format=%B "$c" |
		g commit -q --allow-empty --author="$author" --date="$date" -F -
done
GIT_SEQUENCE_EDITOR=: g rebase -q -i --autosquash "$base" >/dev/null ||
	die "fixup!/amend! commits do not squash cleanly"

n=$(g rev-list --count "$base..HEAD")
[ "$n" -gt 0 ] || die "the series is empty"
g format-patch -q --cover-letter -o "$outdir" "$base..HEAD"
# Fill in the cover letter's placeholders.
blurb="This series makes percpu_counter fold per-CPU deltas into an atomic64\\
global count without a spinlock, adds a batch scaled to the unit of the\\
values added, and gives cgroup-v1 cpuacct per-group context switch counts,\\
with documentation and kselftests.\\
\\
Based on Linux $ver."
sed -i -e 's/\*\*\* SUBJECT HERE \*\*\*/cpuacct, percpu_counter: scale CPU accounting/' \
	-e "s/\*\*\* BLURB HERE \*\*\*/$blurb/" "$outdir/0000-cover-letter.patch"
step "exported $n patches to build/outgoing/"
