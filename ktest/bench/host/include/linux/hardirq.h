/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PCC_LINUX_HARDIRQ_H
#define _PCC_LINUX_HARDIRQ_H

/* in_nmi() and the rest: see linux/irqflags.h */
#include <linux/irqflags.h>

#endif
