# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the guest jobs: each function prints one top-level KTAP result
# numbered $1, with its subtests or output indented under it.

indent() { sed 's/^/    /'; }

# switch_load_start NAME: two pipe loops, a context switch or two a line,
# until switch_load_stop NAME, which waits for the shell's background jobs.
switch_load_start() {
	local load

	rm -f "/tmp/$1.stop"
	for load in 1 2; do
		while [ ! -e "/tmp/$1.stop" ]; do echo x; done |
			while read -r x; do :; done &
	done
}
switch_load_stop() {
	touch "/tmp/$1.stop"
	wait
}

# ktap_kselftest N DIR PROG [ARGS...]: a kselftest program, killed after
# the timeout of DIR/settings (or $ktap_timeout, if set).
ktap_kselftest() {
	local n=$1 dir=$2 prog=$3 timeout=45 rc
	shift 3
	[ -f "/kselftest/$dir/settings" ] && . "/kselftest/$dir/settings"
	[ -n "${ktap_timeout:-}" ] && timeout=$ktap_timeout
	(cd "/kselftest/$dir" && timeout "$timeout" "./$prog" "$@" 2>&1
	 echo "$?" >"/tmp/rc.$n") | indent
	rc=$(cat "/tmp/rc.$n")
	case $rc in
	0) echo "ok $n selftests: $dir: $prog" ;;
	4) echo "ok $n selftests: $dir: $prog # SKIP" ;;
	124|143) echo "not ok $n selftests: $dir: $prog # TIMEOUT $timeout seconds" ;;
	*) echo "not ok $n selftests: $dir: $prog # exit=$rc" ;;
	esac
}

# ktap_tests N PROGS SUITES: the kselftest programs (DIR:PROG, as
# kselftest-list.txt names them), then the KUnit suites, numbered from
# N + 1; leaves the last number used in $n.
ktap_tests() {
	local t

	n=$1
	for t in $2; do
		n=$((n + 1))
		ktap_kselftest $n "${t%%:*}" "${t#*:}"
	done
	for t in $3; do
		n=$((n + 1))
		ktap_kunit $n "$t"
	done
}

# ktap_kunit N SUITE: the results of a suite KUnit ran (from a module
# loaded before), renumbered from debugfs' document of one test.
ktap_kunit() {
	local f=/sys/kernel/debug/kunit/$2/results
	tail -n +3 "$f" | sed '$d'
	tail -n 1 "$f" | sed "s/^\(\(not \)\{0,1\}ok\) 1 /\1 $1 /"
}

# ktap_log_clean N: fails, quoting it, if the kernel logged a splat (a
# line of splats.txt, the host's list too).
ktap_log_clean() {
	grep -Ev '^(#|$)' /etc/ktest/splats.txt >/tmp/splats
	if dmesg | grep -Eqf /tmp/splats; then
		dmesg | grep -E -B5 -A30 -f /tmp/splats | sed 's/^/# /'
		echo "not ok $1 kernel log clean"
	else
		echo "ok $1 kernel log clean"
	fi
}
