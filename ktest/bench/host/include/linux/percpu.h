/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU data on per-thread slots: each CPU's copy lies at its own offset
 * in a per-CPU area (PCC_PCPU_UNIT apart, as the kernel's units), and a
 * thread reaches its CPU's copy through pcc_this_off, as the kernel does
 * through %gs (x86) or tpidr_el1 (arm64).  As in the kernel, a per-CPU
 * pointer is an address in the image of the static per-CPU data (section
 * pcc_percpu, DEFINE_PER_CPU()), not itself a copy: a CPU's copy lies
 * per_cpu_offset(cpu) past it; each unit starts with a copy of that image,
 * alloc_percpu()'s offsets follow it (runtime.c).
 *
 * this_cpu_*() ops are atomic against the CPU's own interrupts, never
 * against other CPUs (x86: one unlocked instruction), and they order
 * nothing.  A slot is only ever written by its own thread, but for remote
 * RMWs of lib/percpu_counter.c itself (xchg(), try_cmpxchg()): so a relaxed
 * load and a relaxed store, not atomic against other CPUs either.
 */
#ifndef _PCC_LINUX_PERCPU_H
#define _PCC_LINUX_PERCPU_H

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/limits.h>
#include <linux/cpumask.h>
#include <linux/bug.h>
#include <pcc.h>

#define per_cpu_offset(cpu)						\
	(pcc_pcpu_delta + (unsigned long)(cpu) * PCC_PCPU_UNIT)
/* In unsigned long, as the kernel's RELOC_HIDE(): out of any C object */
#define per_cpu_ptr(ptr, cpu)						\
	((__typeof__(ptr))((unsigned long)(ptr) + per_cpu_offset(cpu)))
#define this_cpu_ptr(ptr)						\
	((__typeof__(ptr))((unsigned long)(ptr) + pcc_this_off))
#define raw_cpu_ptr(ptr)	this_cpu_ptr(ptr)
#define per_cpu(var, cpu)	(*per_cpu_ptr(&(var), (cpu)))

/* Static per-CPU data: its image, copied into every unit at the start */
#define DECLARE_PER_CPU(type, name)					\
	extern __typeof__(type) name
#define DEFINE_PER_CPU(type, name)					\
	__typeof__(type) name __attribute__((__section__("pcc_percpu")))

#define this_cpu_read(pcp)						\
	__atomic_load_n(this_cpu_ptr(&(pcp)), __ATOMIC_RELAXED)
#define this_cpu_write(pcp, val)					\
	__atomic_store_n(this_cpu_ptr(&(pcp)), (val), __ATOMIC_RELAXED)
#define this_cpu_add(pcp, val) do {					\
	__typeof__(&(pcp)) __p = this_cpu_ptr(&(pcp));			\
	__atomic_store_n(__p, __atomic_load_n(__p, __ATOMIC_RELAXED) +	\
			 (val), __ATOMIC_RELAXED);			\
} while (0)
#define this_cpu_sub(pcp, val)	this_cpu_add(pcp, -(__typeof__(pcp))(val))
#define this_cpu_xchg(pcp, nval) ({					\
	__typeof__(&(pcp)) __p = this_cpu_ptr(&(pcp));			\
	__typeof__(pcp) __old = __atomic_load_n(__p, __ATOMIC_RELAXED);	\
	__atomic_store_n(__p, (nval), __ATOMIC_RELAXED);		\
	__old;								\
})
/* As include/asm-generic/percpu.h: compared in the per-CPU type */
#define this_cpu_try_cmpxchg(pcp, ovalp, nval) ({			\
	__typeof__(&(pcp)) __p = this_cpu_ptr(&(pcp));			\
	__typeof__(pcp) __old = *(ovalp);				\
	__typeof__(pcp) __val = __atomic_load_n(__p, __ATOMIC_RELAXED); \
	bool __ok = __val == __old;					\
	if (__ok)							\
		__atomic_store_n(__p, (nval), __ATOMIC_RELAXED);	\
	else								\
		*(ovalp) = __val;					\
	__ok;								\
})

/* The __ forms skip the kernel's preemption checks: same code here */
#define __this_cpu_read(pcp)		this_cpu_read(pcp)
#define __this_cpu_write(pcp, val)	this_cpu_write(pcp, val)
#define __this_cpu_add(pcp, val)	this_cpu_add(pcp, val)
#define __this_cpu_sub(pcp, val)	this_cpu_sub(pcp, val)
#define this_cpu_inc(pcp)		this_cpu_add(pcp, 1)
#define __this_cpu_inc(pcp)		this_cpu_add(pcp, 1)

/* Zeroed on every possible CPU, as the kernel's */
#define __alloc_percpu_gfp(size, align, gfp)				\
	((void __percpu *)pcc_alloc_percpu((size), (align)))
#define __alloc_percpu(size, align)	__alloc_percpu_gfp(size, align, GFP_KERNEL)
#define alloc_percpu(type)						\
	((type __percpu *)__alloc_percpu(sizeof(type), __alignof__(type)))
#define free_percpu(ptr)	pcc_free_percpu((void *)(ptr))

#endif
