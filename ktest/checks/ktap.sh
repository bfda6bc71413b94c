# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# KTAP for the host checks (ktest/checks/*.sh), after the kernel's
# tools/testing/selftests/kselftest/ktap_helpers.sh: the checks say what
# passed or failed, this file numbers them and writes the plan.
#
#   ktap_begin [SECTION]    open a KTAP document; SECTION also prints the
#                           "ktest: SECTION start" and "... done" lines
#                           that ktap-summary.py looks for.  In a script
#                           run by another one's open document, it joins
#                           that one (its results are numbered on).
#   ktap_test_pass DESC [DIAG]
#   ktap_test_fail DESC [DIAG]
#   ktap_test_skip DESC REASON
#   ktap_test_result RC DESC [DIAG]   pass if RC is 0, else fail
#   ktap_test_none DESC LIST          pass if LIST is empty, else fail
#                                     with LIST as the diagnostic
#   ktap_test_fail_exit DESC [DIAG]   fail, and exit 0: a check script
#                                     whose one test failed early
#   ktap_print_msg TEXT     TEXT as diagnostic lines ("# ...")
#   ktap_finished           close the document (also at exit)
#
# DIAG is printed as "# " lines before the result.  The plan, "1..N",
# must come first, and it is not known until the last check ran: the
# document is kept in a file until ktap_finished, which prints it whole;
# meanwhile each result is also printed on stderr as it comes (progress).
# The count is in a file, so that results of the scripts a check runs
# are numbered in the same sequence.

ktap_begin() {
	[ -z "${KTAP_DIR:-}" ] || return 0
	KTAP_DIR=$(mktemp -d)
	KTAP_SECTION=${1:-}
	KTAP_OWNER=$BASHPID
	export KTAP_DIR KTAP_SECTION
	echo 0 >"$KTAP_DIR/count"
	[ -z "$KTAP_SECTION" ] || echo "ktest: $KTAP_SECTION start"
	exec 3>&1 >"$KTAP_DIR/body"
	trap ktap_finished EXIT
}

ktap_finished() {
	[ "${KTAP_OWNER:-}" = "$BASHPID" ] || return 0
	KTAP_OWNER=
	exec >&3 3>&-
	echo "KTAP version 1"
	echo "1..$(cat "$KTAP_DIR/count")"
	cat "$KTAP_DIR/body"
	[ -z "$KTAP_SECTION" ] || echo "ktest: $KTAP_SECTION done"
	rm -rf "$KTAP_DIR"
}

ktap_print_msg() {
	[ -z "${1:-}" ] || printf '%s\n' "${1%$'\n'}" | sed 's/^/# /'
}

# __ktap_test "ok"|"not ok" DESC [DIAG]
__ktap_test() {
	local n
	ktap_print_msg "${3:-}"
	n=$(($(cat "$KTAP_DIR/count") + 1))
	echo "$n" >"$KTAP_DIR/count"
	echo "$1 $n $2"
	echo "${KTAP_SECTION:-${0##*/}}: $1 $n $2" >&2
}

ktap_test_pass() { __ktap_test "ok" "$1" "${2:-}"; }
ktap_test_fail() { __ktap_test "not ok" "$1" "${2:-}"; }
ktap_test_skip() { __ktap_test "ok" "$1 # SKIP $2"; }

ktap_test_fail_exit() {
	ktap_test_fail "$1" "${2:-}"
	exit 0
}

ktap_test_result() {
	if [ "$1" = 0 ]; then
		ktap_test_pass "$2" "${3:-}"
	else
		ktap_test_fail "$2" "${3:-}"
	fi
}

ktap_test_none() {
	if [ -z "$2" ]; then
		ktap_test_pass "$1"
	else
		ktap_test_fail "$1" "$2"
	fi
}
