#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Export the series as mail-ready patches in build/outgoing/.
#
# Every commit of this repository that changes an owned kernel file or
# patches/ becomes one patch, with that commit's message as its changelog
# (so such commits are written as kernel commits). "fixup! <subject>" and
# "amend! <subject>" commits change the patch they name (amend! also
# replaces its changelog, e.g. to add measured figures): each file of a
# patch is taken as the patch's last commit that changed it left it, so a
# fixup! can restate a patch whole, even one that later patches build on
# (restate those too, in order, after it). The patches are made with
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

# Replay the history on branch "history", one commit per commit of ours,
# and note, for each patch and each file it changes, its last commit that
# changes that file: the patch's version of the file.
declare -A patch_of last hist pos
patches=() i=0
for c in $commits; do
	subj=$(git -C "$TOP" log -1 --format=%s "$c")
	case $subj in
	"fixup! "* | "amend! "*)
		t=${patch_of["${subj#*! }"]:-}
		[ -n "$t" ] || die "commit $c: no patch with the subject '${subj#*! }'"
		;;
	*)
		t=$c
		patch_of[$subj]=$c
		patches+=("$c")
		;;
	esac
	materialize "$c"
	g add -A
	g commit -q --allow-empty -m "$c"
	hist[$c]=$(g rev-parse HEAD)
	pos[$c]=$((i += 1))
	for f in $(g diff --no-renames --name-only HEAD^ HEAD); do
		last["$t $f"]=$c
	done
	case $subj in "amend! "*) last["$t message"]=$c ;; esac
done

# The series: each patch is its files as its last commits left them, so a
# fixup! may restate a patch whole.  A file several patches change must
# have been left by each of them after the ones before: otherwise a patch's
# version of it would contain a later patch's changes.
declare -A owner
g checkout -q -b series "$base"
for p in "${patches[@]}"; do
	for key in "${!last[@]}"; do
		[ "${key%% *}" = "$p" ] || continue
		f=${key#* }
		[ "$f" = message ] && continue
		c=${last[$key]}
		o=${owner[$f]:-}
		if [ -n "$o" ] && [ "${pos[$o]}" -gt "${pos[$c]}" ]; then
			die "$f: commit $o, of an earlier patch, changes it after commit $c of '$(git -C "$TOP" log -1 --format=%s "$p")': restate that patch (fixup!) after $o"
		fi
		owner[$f]=$c
		if git -C "$repo" cat-file -e "${hist[$c]}:$f" 2>/dev/null; then
			g checkout -q "${hist[$c]}" -- "$f"
		else
			g rm -q --ignore-unmatch -- "$f"
		fi
	done
	g add -A
	if g diff --cached --quiet; then
		continue	# e.g. the import
	fi
	msg=${last["$p message"]:-}
	if [ -n "$msg" ]; then
		msg=$(git -C "$TOP" log -1 --format=%B "$msg" | sed 1,2d)
	else
		msg=$(git -C "$TOP" log -1 --format=%B "$p")
	fi
	printf '%s\n' "$msg" |
		g commit -q --author="$(git -C "$TOP" log -1 --format='%an <%ae>' "$p")" \
			--date="$(git -C "$TOP" log -1 --format=%aD "$p")" -F -
done

n=$(g rev-list --count "$base..HEAD")
[ "$n" -gt 0 ] || die "the series is empty"
g format-patch -q --cover-letter -o "$outdir" "$base..HEAD"
# Fill in the cover letter's placeholders.
blurb="This series makes percpu_counter fold per-CPU deltas into an atomic64\\
global count without a spinlock on 64-bit, with percpu_counter_sum() still\\
exact and limited adds still bounded, adds a batch scaled to the unit of\\
the values added, and gives cgroup-v1 cpuacct per-group context switch\\
counts, with documentation and kselftests.\\
\\
cpuacct charges CPU time, user and system time and context switches once\\
per event, to the task's own group (and, for CPU time, the root's\\
system-wide usage, read in constant time as before), and sums a group's\\
subtree when its files are read (per-CPU counters, an aux count for\\
removed children, per-CPU seqcounts against hand-overs and resets),\\
instead of walking to the root on every charge.  It uses no rstat and\\
only interfaces of v6.12 itself: a port to current mainline needs\\
nothing from rstat's changed API (cgroup_rstat_flush_hold() is gone in\\
6.15; early_init subsystems with css_rstat_flush warn from 6.16), only\\
the __schedule() and sched.h hunks moved with the code around them.\\
\\
Based on Linux $ver."
sed -i -e 's/\*\*\* SUBJECT HERE \*\*\*/cpuacct, percpu_counter: scale CPU accounting/' \
	-e "s/\*\*\* BLURB HERE \*\*\*/$blurb/" "$outdir/0000-cover-letter.patch"
step "exported $n patches to build/outgoing/"
