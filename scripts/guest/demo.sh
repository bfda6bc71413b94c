#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cpuacct at work: a 3-level hierarchy, load only in the leaves, then the
# files of each level. Parents read the sum of their children.
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

show() {
	echo "---- $1"
	for f in $cg/$1/cpuacct.*; do
		name=${f##*/}
		case $name in
		cpuacct.stat|cpuacct.usage_all)
			echo "$name:"; sed 's/^/    /' "$f" ;;
		*)
			printf '%-28s %s\n' "$name" "$(cat "$f")" ;;
		esac
	done
}
show demo
show demo/a
show demo/a/x
show demo/a/y
show demo/b
for g in demo/a/x demo/a/y demo/a demo/b demo; do rmdir $cg/$g; done
