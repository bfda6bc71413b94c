/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spinlocks as the kernel's queued spinlock (kernel/locking/qspinlock.c)
 * without its pending bit: one cmpxchg (acquire) on the lock word when
 * free, else an MCS queue (runtime.c) in which only its head spins on
 * the lock word, and a release store of the locked byte to unlock.  The
 * same ordering (acquire, release) and the same handover as the kernel's,
 * so that stock 6.12's fold-heavy paths see the lock they see there.
 * spinlock_t is raw_spinlock_t, as without PREEMPT_RT.
 */
#ifndef _PCC_LINUX_SPINLOCK_H
#define _PCC_LINUX_SPINLOCK_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/irqflags.h>
#include <linux/lockdep.h>
#include <linux/processor.h>
#include <pcc.h>

typedef struct pcc_qspinlock raw_spinlock_t;
typedef struct pcc_qspinlock spinlock_t;

#define __RAW_SPIN_LOCK_UNLOCKED(name)	{ { .val = 0 } }
#define DEFINE_RAW_SPINLOCK(x)	raw_spinlock_t x = __RAW_SPIN_LOCK_UNLOCKED(x)
#define DEFINE_SPINLOCK(x)	spinlock_t x = __RAW_SPIN_LOCK_UNLOCKED(x)

static __always_inline void raw_spin_lock_init(raw_spinlock_t *lock)
{
	__atomic_store_n(&lock->val, 0, __ATOMIC_RELAXED);
}

static __always_inline void raw_spin_lock(raw_spinlock_t *lock)
{
	unsigned int val = 0;

	if (likely(__atomic_compare_exchange_n(&lock->val, &val, 1, 0,
					       __ATOMIC_ACQUIRE,
					       __ATOMIC_RELAXED)))
		return;
	pcc_queued_spin_lock_slowpath(lock);
}

static __always_inline void raw_spin_unlock(raw_spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

#define raw_spin_lock_irqsave(lock, flags)				\
	do { local_irq_save(flags); raw_spin_lock(lock); } while (0)
#define raw_spin_unlock_irqrestore(lock, flags)				\
	do { raw_spin_unlock(lock); local_irq_restore(flags); } while (0)
#define raw_spin_lock_irq(lock)		raw_spin_lock(lock)
#define raw_spin_unlock_irq(lock)	raw_spin_unlock(lock)

#define spin_lock_init(lock)		raw_spin_lock_init(lock)
#define spin_lock(lock)			raw_spin_lock(lock)
#define spin_unlock(lock)		raw_spin_unlock(lock)
#define spin_lock_irq(lock)		raw_spin_lock_irq(lock)
#define spin_unlock_irq(lock)		raw_spin_unlock_irq(lock)
#define spin_lock_irqsave(lock, flags)	raw_spin_lock_irqsave(lock, flags)
#define spin_unlock_irqrestore(lock, flags) \
	raw_spin_unlock_irqrestore(lock, flags)

#endif
