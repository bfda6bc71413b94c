#!/bin/bash
# Experiment reads' icount job (reads-poll) at 32 and 16 possible CPUs,
# besides make bench's 64: run from the repository root once make bench
# ONLY=reads has built base and patched.
out=build/reads-cpus
mkdir -p $out
for smp in 32 16; do
  for k in base patched; do
    log=$out/reads-poll-$k-smp$smp.log
    QUIET=1 ktest/run/qemu-run.sh -v $k -m bench -s $smp -i -a "reads-poll,1000" -l $log -t 900 </dev/null
    sed -n "s/^ *# bench: /$k,$smp,/p" $log
  done
done
