#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: ktest/run/qemu-run.sh [-v VARIANT] [-m MODE] [-s SMP] [-i|-1]
#                              [-t SECS] [-a ARGS] [-k PARAMS] [-l LOG]
# Boot VARIANT's kernel and initramfs in QEMU (TCG) and run one guest job
# on it; exit 0 only when the job ran to its end and exited 0.
#   -v VARIANT  build/VARIANT's kernel and initramfs (default patched)
#   -m MODE     the guest job, ktest/guest/MODE.sh: check (default), demo,
#               bench, stress, mutant, keyflip, modloop; or shell, an
#               interactive shell (no log, no result)
#   -s SMP      vCPUs (default 2)
#   -i          -icount shift=0,sleep=off: guest time counts instructions,
#               so single-CPU costs repeat exactly; fixed RTC date
#   -1          one TCG thread for all vCPUs, without icount (default: one
#               per vCPU)
#   -t SECS     kill the guest after SECS and print the console tail
#               (default 900)
#   -a ARGS     comma-separated arguments of the guest job
#   -k PARAMS   extra kernel parameters (e.g. nohz_full=1)
#   -l LOG      the console's copy (default build/logs/VARIANT-MODE.log)
#   -h          this help
# Environment: QUIET=1 writes the console to LOG only (default: also to
# stdout).
#
# The one QEMU launcher (every target that boots a guest).  MODE becomes
# ktest.mode=: the guest's /init runs /etc/ktest/MODE.sh.  -i: the RTC
# runs on guest time, since seeded from the host clock the guest's RNG
# (hash seeds, ASLR) varied results by ~0.03%.  -1: one thread per vCPU
# can miss cross-vCPU code patching (keyflip/control.sh).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

variant=patched mode=check smp=2 icount= single= secs=900 args= kparams= log=
while getopts ":v:m:s:i1t:a:k:l:" o; do
	case $o in
	v) variant=$OPTARG ;;
	m) mode=$OPTARG ;;
	s) smp=$OPTARG ;;
	i) icount=1 ;;
	1) single=1 ;;
	t) secs=$OPTARG ;;
	a) args=$OPTARG ;;
	k) kparams=$OPTARG ;;
	l) log=$OPTARG ;;
	*) usage_opt "$o" "$@" ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 0 ] || usage_error "unexpected argument $1"
[ "$mode" = shell ] || [ -f "$TOP/ktest/guest/$mode.sh" ] ||
	die "no guest job '$mode': modes are shell and ktest/guest/*.sh"
out=$BUILD/$variant
arch_of "$variant"
kernel=$out/$IMAGE
[ -f "$kernel" ] || die "no kernel for $variant: build it first"
[ -f "$out/initramfs.cpio" ] || die "no initramfs for $variant: build it first"
log=${log:-$BUILD/logs/$variant-$mode.log}
mkdir -p "$(dirname "$log")"

if [ -n "$icount" ]; then
	accel="-accel tcg -icount shift=0,sleep=off -rtc base=2000-01-01,clock=vm"
elif [ -n "$single" ]; then
	accel="-accel tcg,thread=single"
else
	accel="-accel tcg,thread=multi"
fi
cmdline="console=$CONSOLE quiet panic=-1 oops=panic ktest.mode=$mode"
[ -n "$args" ] && cmdline="$cmdline ktest.args=$args"
[ -n "$kparams" ] && cmdline="$cmdline $kparams"

qemu=($QEMU $accel -smp "$smp" -m 1G -no-reboot -nic none
      -kernel "$kernel" -initrd "$out/initramfs.cpio" -append "$cmdline")
step "booting $variant ($mode, -smp $smp${icount:+, icount}${single:+, one TCG thread})"
if [ "$mode" = shell ]; then
	exec "${qemu[@]}" -nographic
fi

# Not tee >/dev/stdout: that opens stdout again, which truncates the file
# it may be redirected to (make check >ci.log).
[ -z "${QUIET:-}" ] || exec >/dev/null
set +e
timeout -k 5 "$secs" "${qemu[@]}" -display none -monitor none -serial stdio \
	</dev/null 2>&1 | sed -u 's/\r$//' | tee "$log"
rc=${PIPESTATUS[0]}
set -e
# The console tail, then what went wrong and where the whole log is.
fail() {
	tail -n 40 "$log" >&2
	die "$variant guest: $1 (log: $log)"
}
[ "$rc" != 124 ] && [ "$rc" != 137 ] || fail "still running after $secs s, killed"
[ "$rc" = 0 ] || die "qemu exited with $rc (log: $log)"
# /init ends with "ktest: MODE done, exit N": the job's exit status is the
# result, and a guest that never printed it (panic) failed.
status=$(sed -n "s/^ktest: $mode done, exit \([0-9]*\)\$/\1/p" "$log" | tail -n 1)
[ -n "$status" ] || fail "did not finish its $mode job (panic?)"
[ "$status" = 0 ] || fail "$mode job exited $status"
