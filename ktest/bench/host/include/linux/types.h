/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PCC_LINUX_TYPES_H
#define _PCC_LINUX_TYPES_H

/* No libc header here: glibc's own headers include <linux/...> ones */
#include <linux/compiler.h>

typedef signed char		s8;
typedef unsigned char		u8;
typedef short			s16;
typedef unsigned short		u16;
typedef int			s32;
typedef unsigned int		u32;
typedef long long		s64;
typedef unsigned long long	u64;
typedef __SIZE_TYPE__		size_t;
typedef _Bool			bool;
#define true	1
#define false	0
#define NULL	((void *)0)

typedef unsigned int		gfp_t;
#define GFP_KERNEL		0x0cc0u

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	s64 counter;
} atomic64_t;

struct list_head {
	struct list_head *next, *prev;
};

#endif
