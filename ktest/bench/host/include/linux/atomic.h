/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Atomics and barriers on the compiler's C11 builtins, each as strong as
 * the kernel memory model (tools/memory-model) makes the kernel's:
 *
 *  - atomic_read()/atomic_set(): relaxed, _acquire/_release as named.
 *  - RMWs that return nothing (atomic_add(), atomic_or(), ...): relaxed,
 *    the LKMM orders them with nothing.
 *  - RMWs that return a value, xchg(), cmpxchg(), try_cmpxchg(): fully
 *    ordered.  A C11 seq_cst RMW orders only against other seq_cst
 *    accesses, so it is built as the kernel's generic fallback builds one
 *    from a relaxed op: smp_mb__before_atomic(); op; smp_mb__after_atomic().
 *    A failed cmpxchg orders nothing, in the LKMM as here (relaxed).
 *    The _release forms: a C11 release RMW, as the LKMM's.
 *  - smp_mb__{before,after}_atomic(): a seq_cst fence; on x86 only a
 *    compiler barrier, as in the kernel's x86 code: every RMW there is a
 *    locked instruction, itself a full barrier.
 *  - smp_mb(): seq_cst fence.  smp_rmb(): acquire fence (C11 has no
 *    load-load fence; dmb ishld on arm64, as the kernel's; nothing on
 *    x86).  smp_wmb(): release fence (no weaker than a store-store one).
 *  - smp_store_release()/smp_load_acquire(): release store, acquire load.
 */
#ifndef _PCC_LINUX_ATOMIC_H
#define _PCC_LINUX_ATOMIC_H

#include <linux/types.h>

#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#if defined(__x86_64__) || defined(__i386__)
#define smp_mb__before_atomic()	barrier()
#define smp_mb__after_atomic()	barrier()
#else
#define smp_mb__before_atomic()	smp_mb()
#define smp_mb__after_atomic()	smp_mb()
#endif

#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)

/* A fully ordered RMW of the kernel, from a C11 one: see above */
#define __pcc_full(op) ({						\
	smp_mb__before_atomic();					\
	__auto_type __r = (op);						\
	smp_mb__after_atomic();						\
	__r;								\
})

#define xchg(ptr, v)							\
	__pcc_full(__atomic_exchange_n((ptr), (v), __ATOMIC_SEQ_CST))

#define try_cmpxchg(ptr, oldp, new)					\
	__pcc_full(__atomic_compare_exchange_n((ptr), (oldp), (new), 0,	\
			__ATOMIC_SEQ_CST, __ATOMIC_RELAXED))

#define cmpxchg(ptr, old, new) ({					\
	__typeof__(*(ptr)) __o = (old);					\
	try_cmpxchg((ptr), &__o, (new));				\
	__o;								\
})

/* atomic_t and atomic64_t: one family, two widths */
#define PCC_ATOMIC_OPS(pfx, type, T)					\
static __always_inline T pfx##_read(const type *v)			\
{ return __atomic_load_n(&v->counter, __ATOMIC_RELAXED); }		\
static __always_inline T pfx##_read_acquire(const type *v)		\
{ return __atomic_load_n(&v->counter, __ATOMIC_ACQUIRE); }		\
static __always_inline void pfx##_set(type *v, T i)			\
{ __atomic_store_n(&v->counter, i, __ATOMIC_RELAXED); }			\
static __always_inline void pfx##_set_release(type *v, T i)		\
{ __atomic_store_n(&v->counter, i, __ATOMIC_RELEASE); }			\
static __always_inline void pfx##_add(T i, type *v)			\
{ __atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED); }		\
static __always_inline void pfx##_sub(T i, type *v)			\
{ __atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED); }		\
static __always_inline void pfx##_inc(type *v)				\
{ pfx##_add(1, v); }							\
static __always_inline void pfx##_dec(type *v)				\
{ pfx##_sub(1, v); }							\
static __always_inline void pfx##_or(T i, type *v)			\
{ __atomic_fetch_or(&v->counter, i, __ATOMIC_RELAXED); }		\
static __always_inline void pfx##_and(T i, type *v)			\
{ __atomic_fetch_and(&v->counter, i, __ATOMIC_RELAXED); }		\
static __always_inline T pfx##_fetch_add(T i, type *v)			\
{ return __pcc_full(__atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST)); } \
static __always_inline T pfx##_add_return(T i, type *v)		\
{ return pfx##_fetch_add(i, v) + i; }					\
static __always_inline T pfx##_add_return_release(T i, type *v)	\
{ return __atomic_add_fetch(&v->counter, i, __ATOMIC_RELEASE); }	\
static __always_inline T pfx##_fetch_sub_release(T i, type *v)	\
{ return __atomic_fetch_sub(&v->counter, i, __ATOMIC_RELEASE); }	\
static __always_inline T pfx##_inc_return(type *v)			\
{ return pfx##_add_return(1, v); }					\
static __always_inline bool pfx##_dec_and_test(type *v)		\
{ return pfx##_add_return(-1, v) == 0; }				\
static __always_inline T pfx##_xchg(type *v, T i)			\
{ return xchg(&v->counter, i); }					\
static __always_inline T pfx##_cmpxchg(type *v, T o, T n)		\
{ return cmpxchg(&v->counter, o, n); }					\
static __always_inline bool pfx##_try_cmpxchg(type *v, T *o, T n)	\
{ return try_cmpxchg(&v->counter, o, n); }

PCC_ATOMIC_OPS(atomic, atomic_t, int)
PCC_ATOMIC_OPS(atomic64, atomic64_t, s64)

#endif
