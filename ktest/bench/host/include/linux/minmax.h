/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PCC_LINUX_MINMAX_H
#define _PCC_LINUX_MINMAX_H

/* Without the kernel's type checks: the kernel build has made them */
#define min(x, y) ({ __auto_type __x = (x); __auto_type __y = (y); \
		     __x < __y ? __x : __y; })
#define max(x, y) ({ __auto_type __x = (x); __auto_type __y = (y); \
		     __x > __y ? __x : __y; })
#define min_t(type, x, y)	min((type)(x), (type)(y))
#define max_t(type, x, y)	max((type)(x), (type)(y))
#define clamp_t(type, v, lo, hi)	min_t(type, max_t(type, v, lo), hi)

#endif
