/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PCC_LINUX_BUG_H
#define _PCC_LINUX_BUG_H

#include <pcc.h>

/* A warning is counted and printed: the correctness pass fails on any */
#define WARN_ON(cond) ({						\
	int __ret = !!(cond);						\
	if (unlikely(__ret))						\
		pcc_warn(__FILE__, __LINE__, #cond);			\
	unlikely(__ret);						\
})
#define WARN_ON_ONCE(cond)	WARN_ON(cond)

#endif
