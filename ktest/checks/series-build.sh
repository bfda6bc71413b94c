#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/checks/series-build.sh
# KTAP tests of checks/host.sh, one per series (OUTGOING in lib.sh): the
# series builds patch by patch, on the pristine tree alone; skipped if
# build/patched is not built.
# Environment: SERIES_OUT=DIR, the export to build (default
#   build/outgoing, make series'; checks/host.sh: build/outgoing-check)
#
# Each series is applied, one patch at a time, to a copy of the base tree
# (build/src/linux-series, a hard-link farm of build/src/linux whose
# files the series touches are copies of their own).  After each patch
# that changes kernel C files or headers (tools/ aside: the selftests are
# built against the whole series), the kernel objects built from the C
# files the series has changed so far, and those that include the headers
# it has changed outside include/, are compiled with the exact kbuild
# command lines of build/patched (its configuration and generated
# headers), against that copy instead of build/src/linux-patched, through
# ccache, so that a patch that did not change is not compiled again.  A
# header under include/ is compiled through the series' own C files, not
# through its hundreds of includers.  An error or a warning fails the
# series.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
usage_args 0 0 "$@"
. "$(dirname "$0")/ktap.sh"

ktap_begin
out=$BUILD/patched
tree=$BUILD/src/linux-series
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; ktap_finished' EXIT
desc() { echo "series $1 builds patch by patch"; }

# make check VARIANT=base need not build the patched kernel; make check does.
if [ ! -f "$out/.config" ]; then
	for s in $OUTGOING; do
		ktap_test_skip "$(desc "$s")" "build/patched not built (make check builds it)"
	done
	exit 0
fi

# The farm, made again when the base tree changed.  The files a previous
# run patched are put back first.
stamp=$(cat "$BUILD/src/.source" 2>/dev/null)
if [ ! -d "$tree" ] || [ "$(cat "$tree.source" 2>/dev/null)" != "$stamp" ]; then
	rm -rf "$tree" "$tree.paths"
	cp -al "$SRC_PRISTINE" "$tree"
	echo "$stamp" >"$tree.source"
fi
[ -f "$tree.paths" ] && seed_pristine "$tree" $(cat "$tree.paths")

# The kbuild objects of build/patched whose dependencies name a path.
cmds=$(kbuild_cmds "$out")
objs_of() {
	kbuild_users "$out" "$1" $cmds
}

# Compile the object whose kbuild command file is $1 against the farm:
# the object written aside, the farm's sources, through ccache.
compile() {
	kbuild_replay --ccache "$out" "$1" "-c -o $tmp/obj.o" \
		-e "s|$SRC_PATCHED/|$tree/|g" >"$tmp/log" 2>&1
	if [ $? != 0 ] || grep -q 'warning:' "$tmp/log"; then
		echo "$(kbuild_obj "$1"):"
		grep -E 'error|warning' "$tmp/log" | head -n 20
		return 1
	fi
}

for s in $OUTGOING; do
	patches=$(ls "$SERIES_OUT/$s"/0*.patch 2>/dev/null | grep -v 0000-cover-letter)
	if [ -z "$patches" ]; then
		ktap_test_fail "$(desc "$s")" "no patches in ${SERIES_OUT#"$TOP"/}/$s: run make series"
		continue
	fi
	paths=$(patch_paths $patches)
	(cat "$tree.paths" 2>/dev/null; echo "$paths") | LC_ALL=C sort -u >"$tmp/paths"
	mv "$tmp/paths" "$tree.paths"
	seed_pristine "$tree" $paths
	log= bad=0 done=
	for p in $patches; do
		name=${p##*/}
		if ! msg=$(patch -p1 -s -N --no-backup-if-mismatch -d "$tree" <"$p" 2>&1); then
			log+="$name: does not apply: $msg"$'\n'
			bad=1
			break
		fi
		changed=$(patch_paths "$p" | grep -E '\.[ch]$' | grep -v '^tools/')
		[ -n "$changed" ] || continue
		done="$done $changed"
		objs=$(for f in $done; do
			case $f in include/* | arch/*/include/*) ;; *.h | *.c) objs_of "$f" ;; esac
		done | LC_ALL=C sort -u)
		if [ -z "$objs" ]; then
			log+="$name: no kernel object of build/patched is built from:$done"$'\n'
			continue
		fi
		for cmd in $objs; do
			if ! msg=$(compile "$cmd"); then
				log+="$name: $msg"$'\n'
				bad=1
			fi
		done
		[ $bad = 0 ] || break
		log+="$name: compiled$(echo $objs | sed 's|\./||g; s|/\.\([^ /]*\)\.o\.cmd|/\1.o|g; s/^/ /')"$'\n'
	done
	seed_pristine "$tree" $paths
	ktap_test_result $bad "$(desc "$s")" "$log"
done
