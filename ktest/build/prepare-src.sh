#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/build/prepare-src.sh
# Lay out the two source trees every variant builds from:
#   build/src/linux          the base tree, untouched
#   build/src/linux-patched  a hard-link farm of it with the series on top
# Environment:
#   KSRC=DIR      a 6.12.y tree to copy as the base (never modified; no
#                 .config in it); default: Debian's linux-source-6.12
#   TARBALL=FILE  that package's tarball (default
#                 /usr/src/linux-source-6.12.tar.*)
#
# Refuses a base that is not 6.12, an owned file whose upstream copy moved
# on, and a patch that does not apply. Only files whose content changed are
# rewritten, so kbuild rebuilds just what the series touched.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
usage_args 0 0 "$@"

TARBALL=${TARBALL:-$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n1 || true)}
stamp=$BUILD/src/.source

# Identity of the requested base, to notice when it changes.
if [ -n "${KSRC:-}" ]; then
	[ -f "$KSRC/Makefile" ] || die "KSRC=$KSRC is not a kernel tree"
	KSRC=$(cd "$KSRC" && pwd)
	want="ksrc $KSRC"
else
	[ -n "$TARBALL" ] ||
		die "no kernel source: install linux-source-6.12 (make deps) or set KSRC=/path/to/linux-6.12.y"
	want="tarball $TARBALL $(stat -c '%s %Y' "$TARBALL")"
fi

mkdir -p "$BUILD/src"
if [ -n "${KSRC:-}" ]; then
	# Copy, never build in the user's tree; rsync keeps reruns cheap.
	step "copying $KSRC into build/src/linux"
	command -v rsync >/dev/null || die "rsync missing: run 'make deps'"
	[ -f "$KSRC/.config" ] &&
		die "$KSRC has an in-tree .config: run 'make mrproper' there first"
	rsync -a --delete --exclude=.git "$KSRC/" "$SRC_PRISTINE/"
	[ "$(cat "$stamp" 2>/dev/null)" = "$want" ] || rm -rf "$SRC_PATCHED"
	echo "$want" >"$stamp"
elif [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || [ ! -d "$SRC_PRISTINE" ]; then
	step "extracting $TARBALL"
	rm -rf "$SRC_PRISTINE" "$SRC_PATCHED" "$BUILD/src/.extract"
	mkdir -p "$BUILD/src/.extract"
	tar -xf "$TARBALL" -C "$BUILD/src/.extract"
	mv "$BUILD/src/.extract"/* "$SRC_PRISTINE"
	rmdir "$BUILD/src/.extract"
	echo "$want" >"$stamp"
fi

# Wrong base: say which version was found.
ver=$(make -s -C "$SRC_PRISTINE" kernelversion 2>/dev/null || true)
case $ver in
6.12|6.12.*) ;;
*) die "base tree is '${ver:-not a kernel tree}', the series is for Linux 6.12 (set KSRC to a 6.12.y tree)" ;;
esac

# Every owned file must still match the upstream blob it was derived from.
bad=0
while read -r blob path; do
	case $blob in '#'*|'') continue ;; esac
	if [ ! -f "$SRC_PRISTINE/$path" ]; then
		echo "error: $path: recorded upstream blob $blob, but the base tree ($ver) has no such file" >&2
		bad=1
		continue
	fi
	have=$(git hash-object "$SRC_PRISTINE/$path")
	if [ "$have" != "$blob" ]; then
		cat >&2 <<-EOF
		error: $path changed upstream in $ver: the series' copy was derived
		       from blob $blob, the base tree has $have.
		       Using the series' copy would silently revert that change. Rebase it:
		         diff -u <(git cat-file -p $blob) $SRC_PRISTINE/$path  # upstream change
		       (or compare with the previous base), port the change into $path,
		       then record '$have $path' in upstream.blobs.
		EOF
		bad=1
	fi
done <"$TOP/upstream.blobs"
for path in $(owned_files); do
	grep -q " $path\$" "$TOP/upstream.blobs" && continue
	if [ -e "$SRC_PRISTINE/$path" ]; then
		echo "error: $path exists upstream but has no blob in upstream.blobs" >&2
		bad=1
	fi
done
[ $bad = 0 ] || exit 1

if [ ! -d "$SRC_PATCHED" ]; then
	step "creating build/src/linux-patched"
	cp -al "$SRC_PRISTINE" "$SRC_PATCHED"
fi

# Assemble the series' version of every file it changes in a scratch dir...
stage=$BUILD/src/.stage
rm -rf "$stage"
mkdir -p "$stage"
(cd "$TOP" && owned_files | cpio -pdm --quiet "$stage")
for path in $(patched_files); do
	grep -qx "$path" <<<"$(owned_files)" &&
		die "patches/ edits $path, which the series owns: change the file itself"
done
seed_pristine "$stage" $(patched_files)
for p in $(series_patches); do
	if ! out=$(patch -p1 -N --no-backup-if-mismatch -r - -d "$stage" <"$TOP/patches/$p" 2>&1); then
		printf 'error: patches/%s does not apply to %s:\n%s\n' "$p" "$ver" "$out" >&2
		exit 1
	fi
done

# ...then copy over only what differs (unlink first: the tree is hard-linked
# to the pristine one), and put back files the series no longer changes.
list=$BUILD/src/.overlay
(cd "$stage" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) >"$list.new"
touch "$list"
# A copy, not a link: the pristine file's mtime is older than the objects
# built from the series' version, and kbuild would keep them.
for path in $(LC_ALL=C comm -23 "$list" "$list.new"); do
	rm -f "$SRC_PATCHED/$path"
	[ -f "$SRC_PRISTINE/$path" ] && cp "$SRC_PRISTINE/$path" "$SRC_PATCHED/$path"
done
while read -r path; do
	cmp -s "$stage/$path" "$SRC_PATCHED/$path" && continue
	mkdir -p "$SRC_PATCHED/$(dirname "$path")"
	rm -f "$SRC_PATCHED/$path"
	cp "$stage/$path" "$SRC_PATCHED/$path"
done <"$list.new"
mv "$list.new" "$list"
rm -rf "$stage"
