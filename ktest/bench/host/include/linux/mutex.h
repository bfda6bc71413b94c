/* SPDX-License-Identifier: GPL-2.0 */
/* lib/percpu_counter.c includes it, and uses nothing from it */
#ifndef _PCC_LINUX_MUTEX_H
#define _PCC_LINUX_MUTEX_H
#endif
