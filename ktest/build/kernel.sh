#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/build/kernel.sh VARIANT
# Configure and build VARIANT's kernel in build/VARIANT: the boot image,
# modules and uapi headers; reruns are incremental.
#   VARIANT  ktest/configs/variants/VARIANT.config; ARCH-VARIANT
#            (i386-patched, arm64-base) cross-builds it for ARCH
# Environment: JOBS=N, make -j (default: nproc)
#
# The configuration: tinyconfig + ktest/configs/common.config + every
# selftest target's config [+ ktest/configs/arch/ARCH.config] + the
# fragments ktest/configs/variants/VARIANT.config includes + that
# fragment, regenerated only when a fragment changed.  The arch is
# lib.sh's arch_of.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
usage_args 1 1 "$@"

variant=$1
src=$(variant_tree "$variant")
case $src in
*/linux-but-last-*) "$TOP/ktest/build/prepare-but-last.sh" "${src##*/linux-but-last-}" ;;
esac
arch_of "$variant"
out=$BUILD/$variant
mkdir -p "$out" "$BUILD/logs"

frags="$TOP/ktest/configs/common.config"
for d in $SELFTESTS; do
	[ -f "$TOP/tools/testing/selftests/$d/config" ] || continue
	frags="$frags $TOP/tools/testing/selftests/$d/config"
done
[ -z "$APFX" ] || frags="$frags $TOP/ktest/configs/arch/$KARCH.config"
# A variant's fragment may start from another's ("# include: NAME").
vfrag=$TOP/ktest/configs/variants/$(variant_config "$variant").config
for inc in $(sed -n 's/^# include: *//p' "$vfrag"); do
	[ -f "$TOP/ktest/configs/variants/$inc.config" ] || die "$vfrag: no ktest/configs/variants/$inc.config"
	frags="$frags $TOP/ktest/configs/variants/$inc.config"
done
frags="$frags $vfrag"

kmake() {
	local cc=${CROSS}gcc
	command -v ccache >/dev/null && cc="ccache $cc"
	# Same base dir for every variant so ccache shares objects between them.
	CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=1 \
	KBUILD_BUILD_TIMESTAMP='Sat Jan 1 00:00:00 UTC 2000' \
	KBUILD_BUILD_USER=cpuacct-scale KBUILD_BUILD_HOST=qemu \
		make -s -C "$src" O="$out" ARCH="$KARCH" \
			CROSS_COMPILE="$CROSS" CC="$cc" -j"$JOBS" "$@"
}

sum=$(cat $frags | sha1sum | cut -d' ' -f1)
if [ "$(cat "$out/.fragments" 2>/dev/null)" != "$sum" ] || [ ! -f "$out/.config" ]; then
	step "configuring $variant"
	kmake tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" $frags \
		>"$BUILD/logs/$variant-config.log"
	kmake olddefconfig >/dev/null
	# A requested option that did not stick is a broken fragment (the
	# last fragment to name an option wins, as in merge_config.sh),
	# unless only another architecture's Kconfig has it (the kcsan
	# fragment's x86 unwinder, on arm64).
	case $KARCH in i386|x86_64) srcarch=x86 ;; *) srcarch=$KARCH ;; esac
	kconfig_syms() { xargs grep -hoE '^[[:space:]]*(menu)?config [A-Z0-9_]+' | awk '{ print "CONFIG_" $2 }' | sort -u; }
	other=$(comm -13 <(find "$src" -path "$src/arch" -prune -o -name 'Kconfig*' -print |
				cat - <(find "$src/arch/$srcarch" -name 'Kconfig*') | kconfig_syms) \
			 <(find "$src" -name 'Kconfig*' | kconfig_syms))
	missing=$(cat $frags | sed -n 's/^\(CONFIG_[A-Z0-9_]*=.*\)/\1/p; s/^# \(CONFIG_[A-Z0-9_]*\) is not set/\1=n/p' |
		awk -F= '{ v[$1] = $0; if (!($1 in seen)) { seen[$1]; order[n++] = $1 } }
			 END { for (i = 0; i < n; i++) print v[order[i]] }' |
		while IFS= read -r want; do
			opt=${want%%=*}
			grep -qx "$opt" <<<"$other" && continue
			have=$(grep -E "^$opt=|^# $opt is not set" "$out/.config" || true)
			case $want in
			*=n) [ -z "$have" ] || [ "$have" = "# $opt is not set" ] || echo "$want" ;;
			*) [ "$have" = "$want" ] || echo "$want" ;;
			esac
		done)
	[ -z "$missing" ] || die "$variant: options not set as requested (dependencies?):
$missing"
	echo "$sum" >"$out/.fragments"
fi

step "building kernel: $variant"
if ! kmake "${IMAGE##*/}" modules >"$BUILD/logs/$variant-build.log" 2>&1; then
	tail -n 40 "$BUILD/logs/$variant-build.log" >&2
	die "$variant: kernel build failed (log: build/logs/$variant-build.log)"
fi
grep -E 'warning:' "$BUILD/logs/$variant-build.log" >&2 || true
kmake headers_install INSTALL_HDR_PATH="$out/hdr" >/dev/null
