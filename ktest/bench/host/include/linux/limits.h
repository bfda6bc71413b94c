/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PCC_LINUX_LIMITS_H
#define _PCC_LINUX_LIMITS_H

#define INT_MAX		((int)(~0U >> 1))
#define INT_MIN		(-INT_MAX - 1)
#define UINT_MAX	(~0U)
#define S32_MAX		((s32)(~0U >> 1))
#define S32_MIN		(-S32_MAX - 1)
#define U32_MAX		((u32)~0U)
#define S64_MAX		((s64)(~0ULL >> 1))
#define S64_MIN		(-S64_MAX - 1)
#define U64_MAX		((u64)~0ULL)

#endif
