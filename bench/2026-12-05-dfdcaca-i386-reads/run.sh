#!/bin/bash
# Experiment reads on 32-bit x86: ROUNDS (default 36) rounds of the
# real-time job (reads-iso, -smp 2), the kernels interleaved, then the
# icount job (reads-poll) once per kernel, at 8 CPUs: without X86_BIGSMP
# i386 has at most 8 (ktest/configs/arch/i386.config). Run from the
# repository root once build/i386-base and build/i386-patched are built
# (make initramfs-i386-base initramfs-i386-patched).
out=build/i386-reads
mkdir -p $out
echo kernel,round,metric,value,unit > $out/results.csv
for r in $(seq ${ROUNDS:-36}); do
  for k in base patched; do
    log=$out/reads-iso-$k-$r.log
    QUIET=1 ktest/run/qemu-run.sh -v i386-$k -m bench -s 2 -a "reads-iso,200" -l $log -t 900 </dev/null
    sed -n "s/^ *# bench: \([a-z_]*\)=\([0-9.]*\) \(.*\)/$k,$r,\1,\2,\3/p" $log >> $out/results.csv
  done
done
for k in base patched; do
  log=$out/reads-poll-$k.log
  QUIET=1 ktest/run/qemu-run.sh -v i386-$k -m bench -s 8 -i -a "reads-poll,1000" -l $log -t 1800 </dev/null
  sed -n "s/^ *# bench: \([a-z_]*\)=\([0-9.]*\) \(.*\)/$k,icount,\1,\2,\3/p" $log >> $out/results.csv
done
