/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PCC_LINUX_THREADS_H
#define _PCC_LINUX_THREADS_H

#include <linux/cpumask.h>

#endif
