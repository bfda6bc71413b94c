#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/checks/deps.sh
# A KTAP test of checks/tooling.sh: on a machine that lacks a package it
# needs, build/deps.sh installs that package and exits 0, so that `make`
# goes on (nothing is installed: apt-get is a shim).
#
# On a fresh machine dpkg-query has never heard of most packages: it
# prints what it knows and exits 1.  That once stopped deps.sh, silently,
# under pipefail, before it installed anything.  Such a machine is
# simulated with shims on PATH: a dpkg-query that does not know $pkg and
# otherwise answers as the real one, an apt-get that only records what it
# is asked, and an id that says root.  make deps has run before, so $pkg
# must be all it installs: a package it installs again on every run (say,
# one with triggers pending) would need the network on every `make`.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
usage_args 0 0 "$@"
. "$(dirname "$0")/ktap.sh"

ktap_begin
pkg=cpio
name="deps.sh installs just the missing package and goes on"
shims=$BUILD/deps-check
real=$(command -v dpkg-query) || {
	ktap_test_skip "$name" "no dpkg-query (not Debian)"
	exit 0
}
rm -rf "$shims"
mkdir -p "$shims"

cat >"$shims/dpkg-query" <<EOF
#!/bin/bash
args=() unknown=0
for a; do
	if [ "\$a" = $pkg ]; then unknown=1; else args+=("\$a"); fi
done
"$real" "\${args[@]}"
rc=\$?
[ \$unknown = 0 ] && exit \$rc
echo "dpkg-query: no packages found matching $pkg" >&2
exit 1
EOF
printf '#!/bin/sh\necho "$*" >>"%s/apt-get.log"\n' "$shims" >"$shims/apt-get"
printf '#!/bin/sh\necho 0\n' >"$shims/id"
chmod +x "$shims"/*

out=$(PATH=$shims:$PATH "$TOP/ktest/build/deps.sh" 2>&1)
rc=$?
# The packages of "apt-get install [OPTIONS] PKG...".
install=$(sed -n 's/^install //p' "$shims/apt-get.log" 2>/dev/null | tr ' ' '\n' | grep -v '^-' | xargs)
ktap_print_msg "$out"
ktap_print_msg "deps.sh exit $rc, apt-get install: ${install:-not run}"
[ $rc = 0 ] && [ "$install" = $pkg ]
ktap_test_result $? "$name"
