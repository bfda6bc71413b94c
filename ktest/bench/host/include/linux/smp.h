/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PCC_LINUX_SMP_H
#define _PCC_LINUX_SMP_H

#include <linux/cpumask.h>
#include <linux/processor.h>
#include <pcc.h>

#define smp_processor_id()	pcc_this_cpu
#define raw_smp_processor_id()	pcc_this_cpu

#endif
