/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PCC_LINUX_MATH64_H
#define _PCC_LINUX_MATH64_H

#include <linux/types.h>
#include <linux/math.h>

static inline u64 mul_u32_u32(u32 a, u32 b)
{
	return (u64)a * b;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

#endif
