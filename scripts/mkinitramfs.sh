#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh VARIANT: build/VARIANT/initramfs.cpio with busybox, the
# guest scripts (scripts/guest), VARIANT's kselftests and test modules
# (for ARCH-VARIANT, ARCH's busybox, fetched once).
# Written with the kernel's own usr/gen_init_cpio, so no root is needed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: mkinitramfs.sh VARIANT}
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
	echo "file /init $TOP/scripts/guest/init 0755 0 0"
	for f in "$TOP"/scripts/guest/*.sh; do
		echo "file /etc/ktest/${f##*/} $f 0755 0 0"
	done
	for f in "$TOP"/scripts/guest/*.txt; do
		echo "file /etc/ktest/${f##*/} $f 0644 0 0"
	done
	for f in "$out"/ktest/*.ko; do
		[ -f "$f" ] && echo "file /lib/modules/ktest/${f##*/} $f 0644 0 0"
	done
	# Control modules (keyflip-control.sh): loaded only by their own job.
	for f in "$out"/control/*.ko; do
		[ -f "$f" ] && echo "file /lib/modules/${f##*/} $f 0644 0 0"
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
