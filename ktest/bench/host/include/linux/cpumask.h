/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU masks over the harness's CPU slots (pcc.h): possible is every slot
 * the run uses, online those the current experiment runs on; dying is set
 * from the start of a CPU's removal until it comes back, as in
 * kernel/cpu.c.
 */
#ifndef _PCC_LINUX_CPUMASK_H
#define _PCC_LINUX_CPUMASK_H

#include <linux/types.h>
#include <linux/bitops.h>
#include <pcc.h>

#define NR_CPUS		CONFIG_NR_CPUS

struct cpumask {
	unsigned long bits[BITS_TO_LONGS(NR_CPUS)];
};

#define cpu_possible_mask ((const struct cpumask *)pcc_cpu_possible_bits)
#define cpu_online_mask	((const struct cpumask *)pcc_cpu_online_bits)
#define cpu_dying_mask	((const struct cpumask *)pcc_cpu_dying_bits)
#define cpumask_bits(maskp)	((maskp)->bits)
#define nr_cpu_ids		READ_ONCE(pcc_nr_cpu_ids)

/* As include/linux/cpumask.h sizes its loops */
#if NR_CPUS <= BITS_PER_LONG
#define small_cpumask_bits	((unsigned int)NR_CPUS)
#else
#define small_cpumask_bits	nr_cpu_ids
#endif

#define for_each_cpu(cpu, mask)						\
	for ((cpu) = 0;							\
	     (cpu) = find_next_bit(cpumask_bits(mask), small_cpumask_bits, (cpu)), \
	     (cpu) < small_cpumask_bits;				\
	     (cpu)++)
#define for_each_cpu_or(cpu, mask1, mask2)				\
	for ((cpu) = 0;							\
	     (cpu) = find_next_or_bit(cpumask_bits(mask1),		\
				      cpumask_bits(mask2),		\
				      small_cpumask_bits, (cpu)),	\
	     (cpu) < small_cpumask_bits;				\
	     (cpu)++)
#define for_each_possible_cpu(cpu)	for_each_cpu((cpu), cpu_possible_mask)
#define for_each_online_cpu(cpu)	for_each_cpu((cpu), cpu_online_mask)

/* The kernel reads an atomic count, not the mask's weight */
#define num_online_cpus()	((unsigned int)READ_ONCE(pcc_num_online))

static inline bool cpu_online(unsigned int cpu)
{
	return (READ_ONCE(pcc_cpu_online_bits[cpu / BITS_PER_LONG]) >>
		(cpu % BITS_PER_LONG)) & 1;
}

#endif
