#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/checks/tooling.sh
# make check-tooling: host-side checks of the tooling itself, not of the
# series, as KTAP (make check runs them after checks/host.sh's):
#  - deps.sh installs a package dpkg has never heard of (checks/deps.sh);
#  - every planted bug of make mutants still applies to the series' code
#    and names tests that exist;
#  - no commit mixes series files (OWNED_DIRS, patches/) and tooling.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
usage_args 0 0 "$@"
. "$(dirname "$0")/ktap.sh"

ktap_begin tooling
"$TOP/ktest/checks/deps.sh"

# A mutant that no longer applies, or names a case the module no longer
# has, would make `make mutants` fail long after the change that broke it:
# say so here.
kcases=$(sed -n 's/^[[:space:]]*KUNIT_CASE[_A-Z]*(\([a-z0-9_]*\).*/\1/p' \
	"$TOP"/tools/testing/selftests/*/module/*.c)
ktap_test_none "make mutants' planted bugs apply and name existing tests" \
	"$(for m in "$TOP"/ktest/mutants/*.patch; do
	patch -s -p1 -F0 --dry-run -d "$SRC_PATCHED" <"$m" >/dev/null 2>&1 ||
		echo "does not apply: ${m#"$TOP"/}"
	for c in $(mutant_cases "$m"); do
		case $c in
		*:*) grep -Eqs "^TEST_GEN_PROGS *\+?= *${c%%:*}$" \
				"$TOP"/tools/testing/selftests/*/Makefile &&
			cat "$TOP"/tools/testing/selftests/*/"${c%%:*}.c" 2>/dev/null |
			grep -Eq "CG_TEST\(${c#*:}\)|\"${c#*:}\\\\n\"" ||
				echo "no kselftest case $c: ${m#"$TOP"/}" ;;
		*) grep -qx "$c" <<<"$kcases" ||
			echo "no KUnit case $c: ${m#"$TOP"/}" ;;
		esac
	done
done)"

# Each commit that touches the series becomes a mailed patch: none may
# also touch the tooling (the import of the pristine files aside).
owned="^($(tr ' ' '|' <<<"$OWNED_DIRS patches"))/"
ktap_test_none "no commit mixes series files and tooling" \
	"$(git -C "$TOP" log --format=%H --min-parents=1 --max-parents=1 | while read -r c; do
	files=$(git -C "$TOP" show --format= --name-only "$c")
	grep -qE "$owned" <<<"$files" && grep -qvE "$owned" <<<"$files" &&
		git -C "$TOP" log -1 --format='mixes series files and tooling: %h %s' "$c"
done)"
