/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PCC_LINUX_MATH_H
#define _PCC_LINUX_MATH_H

/* The kernel's abs() keeps its argument's type: s64 stays s64 */
#define abs(x) ({ __auto_type __a = (x); __a < 0 ? -__a : __a; })

#endif
