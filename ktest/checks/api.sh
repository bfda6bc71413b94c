#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/checks/api.sh
# A KTAP test of checks/host.sh: the series only uses interfaces that
# exist in v6.12 itself, not only in 6.12.y stable
# (ktest/checks/stable-only-api.txt); skipped if build/patched is not built.
#
# Debian's linux-source-6.12 (and any KSRC=6.12.y) has the stable
# backports, some of which add interfaces that v6.12 lacks; building
# against such a tree does not notice a series that needs them.  So
# every object compiled from a C file the series changes (an owned file,
# or one patches/ edits) is compiled again, -fsyntax-only with the exact
# kbuild command line of build/patched, against headers from which the
# declarations of the stable-only interfaces listed in
# ktest/checks/stable-only-api.txt are removed (an overlay include directory
# searched first).  A use of one is then an implicit declaration, which
# kbuild makes an error.  The list names each interface and where it came
# from; a v6.12 tree given as KSRC would check everything, the list only
# what the series has been found to trip on.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
usage_args 0 0 "$@"
. "$(dirname "$0")/ktap.sh"

ktap_begin
name="series uses no interface newer than v6.12"
list=$TOP/ktest/checks/stable-only-api.txt
out=$BUILD/patched
overlay=$BUILD/api-check

# make check VARIANT=base need not build the patched kernel; make check does.
[ -f "$out/vmlinux" ] || {
	ktap_test_skip "$name" "build/patched not built (make check builds it)"
	exit 0
}
rm -rf "$overlay"
mkdir -p "$overlay/include"

# The overlay: each header of the base tree that declares a listed symbol,
# without that declaration (a prototype, possibly over several lines, or
# a macro of that name).
syms=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$list" | awk '{ print $1 }')
for s in $syms; do
	hdrs=$(cd "$SRC_PATCHED" && grep -rlw --include='*.h' -e "$s" include arch/x86/include 2>/dev/null)
	for h in $hdrs; do
		o=$overlay/$(echo "$h" | sed 's|^arch/x86/include|include|')
		mkdir -p "$(dirname "$o")"
		[ -f "$o" ] || cp "$SRC_PATCHED/$h" "$o"
		perl -0pi -e "s/^[^;{}#\n]*[^;{}#]*\\b\Q$s\E\\s*\\([^;{}]*\\);[ \\t]*\\n//mg; s/^#\\s*define\\s+\Q$s\E\\b.*\\n//mg" "$o"
		if grep -qw -- "$s" "$o"; then
			echo "# $s: still named in $h after removing its declaration"
		fi
	done
done

# The objects built from the C files the series changes.
cfiles=$( (owned_files; patched_files) | grep '\.c$' | LC_ALL=C sort -u)
cmds=$(kbuild_cmds "$out")
objs=$(for c in $cfiles; do kbuild_users "$out" "$c" $cmds; done | LC_ALL=C sort -u)
[ -n "$objs" ] ||
	ktap_test_fail_exit "$name" "no object of build/patched is built from: $cfiles"

bad=0
for cmd in $objs; do
	obj=$(kbuild_obj "$cmd")
	# Compile nothing, search the overlay before the tree's own headers.
	if msg=$(kbuild_replay "$out" "$cmd" -fsyntax-only \
			-e "s| -nostdinc | -nostdinc -I$overlay/include |" 2>&1); then
		echo "# $obj: ok without:" $syms
	else
		bad=1
		echo "$msg" | grep -E 'error|warning: implicit' | head -n 20 | sed 's/^/# /'
		echo "# $obj: does not build on v6.12"
	fi
done
ktap_test_result $bad "$name"
