/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PCC_LINUX_MODULE_H
#define _PCC_LINUX_MODULE_H

#include <linux/init.h>
/* As the kernel's, through linux/stat.h and linux/time.h */
#include <linux/math64.h>

/* One program: nothing to export to */
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)

#endif
