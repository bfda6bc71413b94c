/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PCC_LINUX_COMPILER_H
#define _PCC_LINUX_COMPILER_H

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define __always_inline		inline __attribute__((__always_inline__))
#define noinline		__attribute__((__noinline__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#define __maybe_unused		__attribute__((__unused__))
#define __must_check		__attribute__((__warn_unused_result__))
/* Address-space and section annotations: nothing in userspace */
#define __percpu
#define __force
#define __read_mostly
#define __init

#define barrier()		__asm__ __volatile__("" : : : "memory")

/*
 * READ_ONCE()/WRITE_ONCE(): single-copy atomic, no ordering: C11 relaxed
 * accesses, which the kernel's volatile accesses are, in LKMM terms.
 */
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, val)	__atomic_store_n(&(x), (val), __ATOMIC_RELAXED)

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - __builtin_offsetof(type, member)))

#define ALIGN(x, a)		(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

#endif
