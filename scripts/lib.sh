# SPDX-License-Identifier: GPL-2.0
# Shared by the pipeline scripts: paths, variants, progress lines.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$(realpath -m "${BUILD:-$TOP/build}")
SRC_PRISTINE=$BUILD/src/linux
SRC_PATCHED=$BUILD/src/linux-patched
# Top-level kernel directories whose files in this repository are owned
# by the series (everything else here is tooling).
OWNED_DIRS="Documentation include kernel lib tools"

step() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The source tree a variant is built from: the "# tree:" line of its
# fragment, "patched" or "pristine".
variant_tree() {
	local frag=$TOP/configs/$1.config tree
	[ -f "$frag" ] || die "unknown variant '$1' (no configs/$1.config)"
	tree=$(sed -n 's/^# tree: *//p' "$frag")
	case $tree in
	patched) echo "$SRC_PATCHED" ;;
	pristine) echo "$SRC_PRISTINE" ;;
	*) die "configs/$1.config: missing '# tree: patched|pristine' line" ;;
	esac
}

# Files the series owns, relative to the tree root.
owned_files() {
	(cd "$TOP" && for d in $OWNED_DIRS; do
		[ -d "$d" ] || continue
		find "$d" -type f
	done) | LC_ALL=C sort
}

# Files the quilt patches touch.
patched_files() {
	local p
	[ -f "$TOP/patches/series" ] || return 0
	for p in $(series_patches); do
		sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$TOP/patches/$p"
	done | LC_ALL=C sort -u
}

series_patches() {
	[ -f "$TOP/patches/series" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/patches/series"
}

JOBS=${JOBS:-$(nproc)}

# kselftest targets the series adds (each has a `config` fragment).
SELFTESTS=$(cd "$TOP/tools/testing/selftests" 2>/dev/null && for d in */; do
	[ -f "$d/Makefile" ] && echo "${d%/}"; done | xargs)
