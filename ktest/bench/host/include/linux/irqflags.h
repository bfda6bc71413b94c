/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interrupts and preemption: there are none to disable in userspace, so
 * these order nothing and cost nothing.  What is lost: in the kernel a
 * section with interrupts disabled (a fold holding its marker, a spinlock
 * holder) runs to its end; here its thread can be preempted there, and
 * whoever waits for it spins until it runs again.  Hence no more threads
 * than cores for the figures, and the yield in cpu_relax().
 */
#ifndef _PCC_LINUX_IRQFLAGS_H
#define _PCC_LINUX_IRQFLAGS_H

#define local_irq_save(flags)		do { (flags) = 0; barrier(); } while (0)
#define local_irq_restore(flags)	do { barrier(); (void)(flags); } while (0)
#define local_irq_disable()		barrier()
#define local_irq_enable()		barrier()
#define preempt_disable()		barrier()
#define preempt_enable()		barrier()
/* percpu_counters are not NMI-safe; no NMI here */
#define in_nmi()			0

#endif
