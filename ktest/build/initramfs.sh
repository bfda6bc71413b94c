#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/build/initramfs.sh VARIANT [MODULE.ko...]
# Write build/VARIANT/initramfs.cpio: busybox, the guest scripts
# (ktest/guest), VARIANT's kselftests and test modules (tests.sh).
#   VARIANT    as kernel.sh's; for ARCH-VARIANT, ARCH's busybox (fetched
#              once)
#   MODULE.ko  also in /lib/modules/, for a job of its own to load
#              (keyflip/control.sh); no later initramfs has it
#
# Written with the kernel's own usr/gen_init_cpio, so no root is needed.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
usage_args 1 "" "$@"

variant=$1
shift
out=$BUILD/$variant
arch_of "$variant"
busybox=$(busybox_of "$variant")	# Debian's busybox-static
[ -n "$APFX" ] && [ ! -x "$busybox" ] && fetch_busybox "$DEBARCH"
[ -x "$busybox" ] || die "$busybox missing: run 'make deps' (busybox-static)"

spec=$out/initramfs.list
{
	for d in /bin /sbin /dev /proc /sys /tmp /etc /etc/ktest /lib \
		 /lib/modules /lib/modules/ktest /usr /usr/bin /usr/sbin /root; do
		echo "dir $d 0755 0 0"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "file /bin/busybox $busybox 0755 0 0"
	# Another architecture's busybox may not run here: the same Debian
	# package's applets, from the host's.
	for app in $("$busybox" --list-full 2>/dev/null || /bin/busybox --list-full); do
		echo "slink /$app /bin/busybox 0777 0 0"
	done | grep -v ' /bin/busybox /bin/busybox'
	echo "file /init $TOP/ktest/guest/init 0755 0 0"
	for f in "$TOP"/ktest/guest/*.sh; do
		echo "file /etc/ktest/${f##*/} $f 0755 0 0"
	done
	for f in "$TOP"/ktest/guest/*.txt; do
		echo "file /etc/ktest/${f##*/} $f 0644 0 0"
	done
	# The bench job looks its job up in the experiment table.
	echo "file /etc/ktest/bench-experiments.tsv $TOP/ktest/bench/experiments.tsv 0644 0 0"
	for f in "$out"/ktest/*.ko; do
		[ -f "$f" ] && echo "file /lib/modules/ktest/${f##*/} $f 0644 0 0"
	done
	# Modules of a control job (keyflip/control.sh), for that job only.
	for f in "$@"; do
		[ -f "$f" ] || die "$f: no such module"
		echo "file /lib/modules/${f##*/} $f 0644 0 0"
	done
	# VARIANT's kselftest install tree, as it is.
	(cd "$out" && find kselftest -type d | sort |
		sed 's|.*|dir /& 0755 0 0|')
	(cd "$out" && find kselftest -type f | sort | while read -r f; do
		echo "file /$f $out/$f $(stat -c %a "$f") 0 0"
	done)
} >"$spec"
"$out/usr/gen_init_cpio" "$spec" >"$out/initramfs.cpio.new"
mv "$out/initramfs.cpio.new" "$out/initramfs.cpio"
