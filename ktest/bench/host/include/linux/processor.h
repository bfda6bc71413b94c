/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PCC_LINUX_PROCESSOR_H
#define _PCC_LINUX_PROCESSOR_H

#include <pcc.h>

/* The CPU's spin-wait hint, and a yield now and then: see runtime.c */
#define cpu_relax()	pcc_cpu_relax()

#endif
