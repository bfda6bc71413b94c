#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/series/export.sh
# make series: export the series as mail-ready patches, one series per set
# of maintainers (OUTGOING in lib.sh), each in SERIES_OUT/NAME/ with its
# cover letter, based on the pristine files alone.
# Environment:
#   SERIES_OUT=DIR  where (default build/outgoing)
#   FORCE=1         replace an earlier export edited since (default: keep
#                   it, and fail)
#
# Every commit of this repository that changes an owned kernel file or
# patches/ becomes one patch, with that commit's message as its changelog
# (so such commits are written as kernel commits). "fixup! <subject>" and
# "amend! <subject>" commits change the patch they name (amend! also
# replaces its changelog, e.g. to add measured figures; "drop! <subject>"
# removes it, once the history has undone its changes): each file of a
# patch is taken as the patch's last commit that changed it left it, so a
# fixup! can restate a patch whole, even one that later patches build on
# (restate those too, in order, after it). The patches are made with
# git format-patch in $SERIES_OUT.git, whose base commit holds the
# pristine versions of just the files the series touches, so their index
# lines carry upstream's blob ids and `git am` applies them to any 6.12
# tree holding those blobs.  Each patch then goes to the series its files
# belong to, and each series is replayed on the base without the others:
# a patch that needs another series' patches stops the export.  Every
# patch and cover letter is addressed as scripts/get_maintainer.pl of the
# base tree says (To: maintainers, Cc: reviewers and lists), and carries
# the base commit (git format-patch --base).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
usage_args 0 0 "$@"

[ -d "$SRC_PRISTINE" ] || die "no base tree: run 'make src' first"
git -C "$TOP" rev-parse --verify -q HEAD >/dev/null || die "no commits to export"
outdir=$SERIES_OUT
repo=$SERIES_OUT.git
# An earlier export that was edited (or is not one) is not replaced
# unasked: FORCE=1 replaces it.
manifest() { (cd "$outdir" && find . -type f ! -name .exported | LC_ALL=C sort | xargs -r sha1sum); }
if [ -d "$outdir" ] && [ "${FORCE:-}" != 1 ] &&
   ! manifest | cmp -s - "$outdir/.exported"; then
	die "$outdir differs from what the last export wrote (edited by hand?): copy it elsewhere, or FORCE=1 to replace it"
fi
ver=$(make -s -C "$SRC_PRISTINE" kernelversion)
# The commits that change the series, and amend! ones, which may only
# change a changelog (so touch no file).
series_commits=$( (git -C "$TOP" log --format=%H -- $OWNED_DIRS patches
	git -C "$TOP" log --format=%H --grep='^amend! ' --grep='^drop! ') | sort -u)
commits=$(git -C "$TOP" log --reverse --format=%H | grep -Fx "$series_commits")

# Paths the series touches at any point of its history.
touched=$(for c in $commits; do
	git -C "$TOP" ls-tree -r --name-only "$c" -- $OWNED_DIRS
	git -C "$TOP" show "$c:patches/series" 2>/dev/null | series_parse |
		while read -r p; do
			git -C "$TOP" show "$c:patches/$p" | patch_paths
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
	seed_pristine "$repo" $touched
	[ -n "$c" ] || return 0
	tmp=$(mktemp -d)
	git -C "$TOP" archive "$c" -- $(git -C "$TOP" ls-tree --name-only "$c" -- $OWNED_DIRS patches) |
		tar -x -C "$tmp"
	(cd "$tmp" && for d in $OWNED_DIRS; do [ -d "$d" ] || continue; find "$d" -type f; done) |
		(cd "$tmp" && cpio -pdmu --quiet "$repo")
	if [ -f "$tmp/patches/series" ]; then
		series_parse "$tmp/patches/series" | while read -r p; do
			patch -s -p1 -N --no-backup-if-mismatch -d "$repo" <"$tmp/patches/$p" ||
				die "commit $c: patches/$p does not apply"
		done
	fi
	rm -rf "$tmp"
}

materialize ""
g add -A
# A fixed date: the same files give the same base-commit.
GIT_AUTHOR_DATE="@0 +0000" GIT_COMMITTER_DATE="@0 +0000" \
	g commit -q -m "Linux $ver (the files the series touches)"
base=$(g rev-parse HEAD)

# Replay the history on branch "history", one commit per commit of ours,
# and note, for each patch and each file it changes, its last commit that
# changes that file: the patch's version of the file.
declare -A patch_of last hist pos dropped
patches=() i=0
for c in $commits; do
	subj=$(git -C "$TOP" log -1 --format=%s "$c")
	case $subj in
	"fixup! "* | "amend! "* | "drop! "*)
		t=${patch_of["${subj#*! }"]:-}
		[ -n "$t" ] || die "commit $c: no patch with the subject '${subj#*! }'"
		case $subj in "drop! "*) dropped[$t]=1 ;; esac
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

# A dropped patch is mailed no more: what it changed, the commits after
# its drop! restate (its files' versions are checked nowhere else).
kept=()
for p in "${patches[@]}"; do
	[ -n "${dropped[$p]:-}" ] || kept+=("$p")
done
patches=("${kept[@]}")

# A patch written after those it must precede (a fix the others build
# on) is moved up by ktest/series/order: the subjects listed there, as
# their commits have them, come in that order, where the first of them
# would come.
if [ -f "$TOP/ktest/series/order" ]; then
	declare -A rank
	i=0
	while read -r subj; do
		c=${patch_of[$subj]:-}
		[ -n "$c" ] || die "ktest/series/order: no patch '$subj'"
		rank[$c]=$((i += 1))
	done < <(grep -v '^#' "$TOP/ktest/series/order" | sed '/^$/d')
	listed=$(for p in "${patches[@]}"; do
		[ -z "${rank[$p]:-}" ] || echo "${rank[$p]} $p"
	done | sort -n | cut -d' ' -f2)
	ordered=()
	for p in "${patches[@]}"; do
		[ -n "${rank[$p]:-}" ] || { ordered+=("$p"); continue; }
		[ -z "$listed" ] || ordered+=($listed)
		listed=
	done
	patches=("${ordered[@]}")
fi

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

[ "$(g rev-list --count "$base..HEAD")" -gt 0 ] || die "the series is empty"

# Split it: each patch goes to the series its files belong to, replayed on
# the base without the other series' patches.
declare -A count
for s in $OUTGOING; do
	g branch -q -f "out-$s" "$base"
	count[$s]=0
done
for c in $(g rev-list --reverse "$base..series"); do
	subj=$(g log -1 --format=%s "$c")
	s=$(outgoing_of $(g diff-tree --no-commit-id --name-only -r "$c") 2>&1) ||
		die "'$subj' mixes series (ktest/lib.sh, OUTGOING): $s"
	[ -n "$s" ] || die "'$subj' is in no series (ktest/lib.sh, OUTGOING)"
	g checkout -q "out-$s"
	if ! g cherry-pick --allow-empty "$c" >/dev/null 2>&1; then
		f=$(g diff --name-only --diff-filter=U | xargs)
		g cherry-pick --abort >/dev/null 2>&1 || true
		die "series $s: '$subj' does not apply${f:+ (to $f)} without the patches of the other series before it: the series must not depend on each other"
	fi
	count[$s]=$((count[$s] + 1))
done

rm -rf "$outdir"
mkdir -p "$outdir"
tmp=$(mktemp -d)
total=0
for s in $OUTGOING; do
	[ "${count[$s]}" -gt 0 ] || die "series $s is empty"
	# The cover letter: ktest/series/cover/NAME.txt, its subject on the first
	# line, then the blurb; the base version is added at its end.
	cover=$TOP/ktest/series/cover/$s.txt
	[ -f "$cover" ] || die "series $s has no cover letter (ktest/series/cover/$s.txt)"
	# Recipients, from the base tree's MAINTAINERS, by file and not by
	# keyword (K:): the changelogs name architectures (riscv64) and other
	# subsystems' code, which would add their lists.
	g format-patch -q -o "$tmp/$s" "$base..out-$s"
	gm() { (cd "$SRC_PRISTINE" && perl scripts/get_maintainer.pl --no-git --no-rolestats --no-keywords "$@" "$tmp/$s"/*.patch); }
	to=$(gm --no-r --no-l)
	cc=$(gm | grep -vxF "$to" || true)
	args=()
	while read -r a; do [ -n "$a" ] && args+=("--to=$a"); done <<<"$to"
	while read -r a; do [ -n "$a" ] && args+=("--cc=$a"); done <<<"$cc"
	# The cover letter is from the author of the series' first patch.
	first=$(g rev-list --reverse "$base..out-$s" | sed -n 1p)
	git -C "$repo" -c user.name="$(g log -1 --format=%an "$first")" \
		-c user.email="$(g log -1 --format=%ae "$first")" \
		format-patch -q --cover-letter --base="$base" "${args[@]}" \
		-o "$outdir/$s" "$base..out-$s"
	{ cat "$cover"; printf '\nBased on Linux %s.\n' "$ver"; } >"$tmp/$s.cover"
	COVER=$tmp/$s.cover perl -0pi -e '
		open(my $f, "<", $ENV{COVER}) or die;
		my $subj = do { local $/ = "\n"; <$f> }; chomp $subj;
		my $blurb = do { local $/; <$f> }; chomp $blurb;
		s/\*\*\* SUBJECT HERE \*\*\*/$subj/;
		s/\*\*\* BLURB HERE \*\*\*/$blurb/;' "$outdir/$s/0000-cover-letter.patch"
	total=$((total + count[$s]))
done
rm -rf "$tmp"
manifest >"$outdir/.exported.new" && mv "$outdir/.exported.new" "$outdir/.exported"
step "exported $total patches to ${outdir#"$TOP"/}/: $(for s in $OUTGOING; do printf '%s (%s) ' "$s" "${count[$s]}"; done | sed 's/ $//')"
