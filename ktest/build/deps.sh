#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/build/deps.sh [ARCH...]
# Install the Debian 12 packages the pipeline needs, only those missing,
# as root; as non-root, name them and fail.
#   ARCH  i386 or arm64: also what that arch's guests need (its cross
#         compiler and libc for the static kselftests, arm64's QEMU);
#         x86_64 (the host's) needs nothing more
# Environment: KSRC=DIR, a base tree of your own: linux-source-6.12 is
#   not needed then (default: unset)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
usage_args 0 "" "$@"

pkgs="build-essential bc bison flex libelf-dev libssl-dev cpio xz-utils
      rsync git ccache python3 perl kmod busybox-static qemu-system-x86
      gnuplot-nox spin"
for a in "$@"; do
	case $a in
	i386) pkgs="$pkgs gcc-i686-linux-gnu libc6-dev-i386-cross" ;;
	arm64) pkgs="$pkgs gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm" ;;
	x86_64) ;;
	*) usage_error "unknown ARCH $a" ;;
	esac
done
# linux-source-6.12 is the default base; KSRC replaces it.
[ -n "${KSRC:-}" ] || pkgs="$pkgs linux-source-6.12"

# dpkg-query fails when any package is unknown to it: that is not an error.
# A package whose triggers have not run yet (an interrupted dpkg) is usable.
missing=$({ dpkg-query -W -f='${Package} ${Status}\n' $pkgs 2>/dev/null || true; } |
	awk '$NF !~ /^(installed|triggers-(pending|awaited))$/ {print $1}')
# dpkg-query prints nothing for packages it has never heard of.
for p in $pkgs; do
	dpkg-query -W "$p" >/dev/null 2>&1 || missing="$missing $p"
done
missing=$(echo $missing | tr ' ' '\n' | sort -u | tr '\n' ' ')
[ -n "${missing// }" ] || exit 0

echo "==> installing: $missing" >&2
[ "$(id -u)" = 0 ] || { echo "error: run as root, or install: $missing" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
