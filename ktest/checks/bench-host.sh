#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/checks/bench-host.sh
# A KTAP test of checks/host.sh: the series' lib/percpu_counter.c and
# stock 6.12's still build in userspace against ktest/bench/host/'s shim
# of kernel headers, and pass pcc-bench's correctness pass (a few seconds).
#
# The correctness pass: exactness, the sum window, limited adds and their
# race, hotplug.  A change to the file that the shim does not cover, or
# that breaks one of those checks, shows here at once rather than at the
# next make bench-host.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
usage_args 0 0 "$@"
. "$(dirname "$0")/ktap.sh"

ktap_begin
name="pcc-bench builds both trees' lib/percpu_counter.c in userspace and passes its checks"
out=$BUILD/bench-host
if ! log=$(nice make -s -C "$TOP/ktest/bench/host" O="$out" 2>&1); then
	ktap_test_fail_exit "$name" "$(echo "$log" | tail -n 40)"
fi
if log=$("$out/pcc-bench" check 2>&1); then
	# A race the host could not provoke: say which
	echo "$log" | sed -n 's/^ok [0-9]* \(.* # SKIP .*\)/# \1/p'
	ktap_test_pass "$name"
else
	ktap_test_fail "$name" "$(echo "$log" | grep -v '^ok ')"
fi
