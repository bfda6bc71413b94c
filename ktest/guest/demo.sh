#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cpuacct at work: a 3-level hierarchy, load only in the leaves, then a
# table of each group's counters, with a check that parents read the sum
# of their children.
cg=/sys/fs/cgroup/cpuacct
[ -d $cg ] || { echo "demo: no cpuacct hierarchy on this kernel"; exit 1; }

for g in demo demo/a demo/a/x demo/a/y demo/b; do
	mkdir -p $cg/$g
done

# Start a task in a group: busy user-mode loop, or a pipe that switches.
spin() { sh -c "echo \$\$ >$cg/$1/tasks; exec sh -c 'while :; do :; done'" & }
pipe() { sh -c "echo \$\$ >$cg/$1/tasks; exec sh -c 'yes | cat >/dev/null'" & }

spin demo/a/x
pipe demo/a/y
spin demo/b
pipe demo/b
echo "demo: load in demo/a/x (spin), demo/a/y (pipe), demo/b (spin + pipe) for 2 s"
sleep 2
for g in demo/a/x demo/a/y demo/b; do
	for p in $(cat $cg/$g/tasks); do kill -9 "$p" 2>/dev/null; done
done
wait

# One row per group: its four counters, and for a parent whether each
# equals the sum of its children's (no task ran in the parents themselves).
val() { cat $cg/$1/cpuacct.$2; }
row() {
	printf '%-10s %14s %14s %14s %10s  %s\n' "$@"
}
row group usage_ns user_ns system_ns switches "parent = children + own (0)"
for g in demo demo/a demo/a/x demo/a/y demo/b; do
	case $g in
	demo) kids="demo/a demo/b" ;;
	demo/a) kids="demo/a/x demo/a/y" ;;
	*) kids= ;;
	esac
	check=leaf
	if [ -n "$kids" ]; then
		check=yes
		for f in usage usage_user usage_sys nr_switches; do
			sum=0
			for k in $kids; do sum=$((sum + $(val $k $f))); done
			[ "$sum" = "$(val $g $f)" ] || check="no: $f"
		done
	fi
	row "$g" "$(val $g usage)" "$(val $g usage_user)" "$(val $g usage_sys)" \
		"$(val $g nr_switches)" "$check"
done
echo "demo: for the raw files, make shell, then: cat $cg/cpuacct.*"
for g in demo/a/x demo/a/y demo/a demo/b demo; do rmdir $cg/$g; done
