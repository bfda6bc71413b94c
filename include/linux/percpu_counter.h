/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PERCPU_COUNTER_H
#define _LINUX_PERCPU_COUNTER_H
/*
 * A simple "approximate counter" for use in ext2 and ext3 superblocks.
 *
 * WARNING: these things are HUGE.  4 kbytes per counter on 32-way P4.
 */

#include <linux/atomic.h>
#include <linux/spinlock.h>
#include <linux/smp.h>
#include <linux/list.h>
#include <linux/threads.h>
#include <linux/percpu.h>
#include <linux/types.h>
#include <linux/limits.h>
#include <linux/minmax.h>

/* percpu_counter batch for local add or sub */
#define PERCPU_COUNTER_LOCAL_BATCH	INT_MAX

#ifdef CONFIG_SMP

/*
 * The value of a percpu_counter is @count plus the sum of the per-CPU deltas
 * in @counters.  An add changes only its CPU's delta, unless that would reach
 * the batch: then the delta and the amount are folded into @count.  Deltas
 * are thus smaller than the batch in magnitude (at most the batch after
 * __percpu_counter_limited_add()).
 *
 * Where a 64-bit atomic is a machine word (64-bit architectures without
 * CONFIG_GENERIC_ATOMIC64), folds take no lock: they update @count with
 * atomic operations and count themselves in @seq, which lets
 * percpu_counter_sum() see whether one happened while it added up.  @lock
 * serialises percpu_counter_set(), the slow path of
 * __percpu_counter_limited_add(), the CPU hotplug callback, the sums that
 * must hold folds off, and the folds that find them held off.  Elsewhere
 * @count is a plain s64 under @lock, as it always was: a 64-bit atomic there
 * is a locked cmpxchg8b or a hashed spinlock, no cheaper than @lock, and
 * would make percpu_counter_read() an atomic read.  So is every atomic on
 * parisc, 64-bit or not.
 */
#if defined(CONFIG_64BIT) && !defined(CONFIG_GENERIC_ATOMIC64) && \
	!defined(CONFIG_PARISC)
#define PERCPU_COUNTER_LOCKLESS
#endif

struct percpu_counter {
	raw_spinlock_t lock;
#ifdef PERCPU_COUNTER_LOCKLESS
	atomic_t seq;		/* 2 per fold; bit 0: folds wait for @lock */
	atomic64_t count;
#else
	s64 count;
#endif
#ifdef CONFIG_HOTPLUG_CPU
	struct list_head list;	/* All percpu_counters are on a list */
#endif
	s32 __percpu *counters;
};

extern int percpu_counter_batch;

int __percpu_counter_init_many(struct percpu_counter *fbc, s64 amount,
			       gfp_t gfp, u32 nr_counters,
			       struct lock_class_key *key);

#define percpu_counter_init_many(fbc, value, gfp, nr_counters)		\
	({								\
		static struct lock_class_key __key;			\
									\
		__percpu_counter_init_many(fbc, value, gfp, nr_counters,\
					   &__key);			\
	})


#define percpu_counter_init(fbc, value, gfp)				\
	percpu_counter_init_many(fbc, value, gfp, 1)

void percpu_counter_destroy_many(struct percpu_counter *fbc, u32 nr_counters);
static inline void percpu_counter_destroy(struct percpu_counter *fbc)
{
	percpu_counter_destroy_many(fbc, 1);
}

void percpu_counter_set(struct percpu_counter *fbc, s64 amount);
void percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount,
			      s32 batch);
s64 __percpu_counter_sum(struct percpu_counter *fbc);
int __percpu_counter_compare(struct percpu_counter *fbc, s64 rhs, s32 batch);
bool __percpu_counter_limited_add(struct percpu_counter *fbc, s64 limit,
				  s64 amount, s32 batch);
void percpu_counter_sync(struct percpu_counter *fbc);

static inline int percpu_counter_compare(struct percpu_counter *fbc, s64 rhs)
{
	return __percpu_counter_compare(fbc, rhs, percpu_counter_batch);
}

static inline void percpu_counter_add(struct percpu_counter *fbc, s64 amount)
{
	percpu_counter_add_batch(fbc, amount, percpu_counter_batch);
}

static inline bool
percpu_counter_limited_add(struct percpu_counter *fbc, s64 limit, s64 amount)
{
	return __percpu_counter_limited_add(fbc, limit, amount,
					    percpu_counter_batch);
}

/*
 * With percpu_counter_add_local() and percpu_counter_sub_local(), counts
 * are accumulated in local per cpu counter and not in fbc->count until
 * local count overflows PERCPU_COUNTER_LOCAL_BATCH. This makes counter
 * write efficient.
 * But percpu_counter_sum(), instead of percpu_counter_read(), needs to be
 * used to add up the counts from each CPU to account for all the local
 * counts. So percpu_counter_add_local() and percpu_counter_sub_local()
 * should be used when a counter is updated frequently and read rarely.
 */
static inline void
percpu_counter_add_local(struct percpu_counter *fbc, s64 amount)
{
	percpu_counter_add_batch(fbc, amount, PERCPU_COUNTER_LOCAL_BATCH);
}

static inline s64 percpu_counter_sum_positive(struct percpu_counter *fbc)
{
	s64 ret = __percpu_counter_sum(fbc);
	return ret < 0 ? 0 : ret;
}

/**
 * percpu_counter_sum - precise value of a percpu_counter
 * @fbc: the counter
 *
 * Adds all the per-CPU deltas to the global count.  The result counts every
 * add that completed before the call, and no add twice; an add that runs
 * concurrently counts fully or not at all.  On a counter nobody updates
 * concurrently, it is exact.  It runs with interrupts disabled, for a
 * bounded time: at most two lockless passes over the CPUs, then, if folds
 * kept interfering or another caller holds them off, the counter's lock
 * (waited for with interrupts disabled, behind its holders) and one pass
 * that waits for the folds in flight, each a few instructions with
 * interrupts disabled (unless its vCPU is preempted, as a spinlock
 * holder's can be).
 *
 * Return: the sum, which may be negative.
 */
static inline s64 percpu_counter_sum(struct percpu_counter *fbc)
{
	return __percpu_counter_sum(fbc);
}

/**
 * percpu_counter_read - quick, approximate value of a percpu_counter
 * @fbc: the counter
 *
 * Returns the global count only, with one plain load: it does not include
 * the per-CPU deltas, so it differs from percpu_counter_sum() by up to
 * batch per CPU that holds a delta (batch being the largest batch the
 * counter is added with): about batch * num_online_cpus(), more while CPUs
 * go offline.  On 32-bit machines the load of the s64 may tear against a
 * concurrent fold, as it always could.
 *
 * Return: the global count, which may be negative.
 */
static inline s64 percpu_counter_read(struct percpu_counter *fbc)
{
#ifdef PERCPU_COUNTER_LOCKLESS
	return atomic64_read(&fbc->count);
#else
	return fbc->count;
#endif
}

/*
 * It is possible for the percpu_counter_read() to return a small negative
 * number for some counter which should never be negative.
 *
 */
static inline s64 percpu_counter_read_positive(struct percpu_counter *fbc)
{
#ifdef PERCPU_COUNTER_LOCKLESS
	s64 ret = atomic64_read(&fbc->count);
#else
	/* Prevent reloads of fbc->count */
	s64 ret = READ_ONCE(fbc->count);
#endif

	if (ret >= 0)
		return ret;
	return 0;
}

static inline bool percpu_counter_initialized(struct percpu_counter *fbc)
{
	return (fbc->counters != NULL);
}

/**
 * percpu_counter_scaled_batch - batch for a counter updated in large units
 * @unit: typical magnitude of one update (e.g. TICK_NSEC for a counter of
 *	nanoseconds updated on every tick)
 *
 * percpu_counter_batch is sized for updates of 1.  A counter updated by
 * amounts of about @unit would, with it, fold into the global count on
 * nearly every update and bounce the global count's cache line between the
 * CPUs.  Scaling the batch by @unit restores about percpu_counter_batch
 * updates per fold.
 *
 * The result is computed from percpu_counter_batch at each call, so it
 * follows CPU hotplug like percpu_counter_batch does.  A larger batch makes
 * percpu_counter_read() less accurate, see there: compare such a counter
 * with __percpu_counter_compare() and the same batch.
 *
 * Return: percpu_counter_batch * @unit, capped at INT_MAX (0 for a @unit
 * of 0, which makes every update fold).
 */
static inline s32 percpu_counter_scaled_batch(u32 unit)
{
	return min_t(s64, (s64)READ_ONCE(percpu_counter_batch) * unit,
		     INT_MAX);
}

#else /* !CONFIG_SMP */

struct percpu_counter {
	s64 count;
};

static inline int percpu_counter_init_many(struct percpu_counter *fbc,
					   s64 amount, gfp_t gfp,
					   u32 nr_counters)
{
	u32 i;

	for (i = 0; i < nr_counters; i++)
		fbc[i].count = amount;

	return 0;
}

static inline int percpu_counter_init(struct percpu_counter *fbc, s64 amount,
				      gfp_t gfp)
{
	return percpu_counter_init_many(fbc, amount, gfp, 1);
}

static inline void percpu_counter_destroy_many(struct percpu_counter *fbc,
					       u32 nr_counters)
{
}

static inline void percpu_counter_destroy(struct percpu_counter *fbc)
{
}

static inline void percpu_counter_set(struct percpu_counter *fbc, s64 amount)
{
	fbc->count = amount;
}

static inline int percpu_counter_compare(struct percpu_counter *fbc, s64 rhs)
{
	if (fbc->count > rhs)
		return 1;
	else if (fbc->count < rhs)
		return -1;
	else
		return 0;
}

static inline int
__percpu_counter_compare(struct percpu_counter *fbc, s64 rhs, s32 batch)
{
	return percpu_counter_compare(fbc, rhs);
}

static inline void
percpu_counter_add(struct percpu_counter *fbc, s64 amount)
{
	unsigned long flags;

	local_irq_save(flags);
	fbc->count += amount;
	local_irq_restore(flags);
}

static inline bool
percpu_counter_limited_add(struct percpu_counter *fbc, s64 limit, s64 amount)
{
	unsigned long flags;
	bool good = false;
	s64 count;

	if (amount == 0)
		return true;

	local_irq_save(flags);
	count = fbc->count + amount;
	if ((amount > 0 && count <= limit) ||
	    (amount < 0 && count >= limit)) {
		fbc->count = count;
		good = true;
	}
	local_irq_restore(flags);
	return good;
}

/* non-SMP percpu_counter_add_local is the same with percpu_counter_add */
static inline void
percpu_counter_add_local(struct percpu_counter *fbc, s64 amount)
{
	percpu_counter_add(fbc, amount);
}

static inline void
percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount, s32 batch)
{
	percpu_counter_add(fbc, amount);
}

static inline s64 percpu_counter_read(struct percpu_counter *fbc)
{
	return fbc->count;
}

/*
 * percpu_counter is intended to track positive numbers. In the UP case the
 * number should never be negative.
 */
static inline s64 percpu_counter_read_positive(struct percpu_counter *fbc)
{
	return fbc->count;
}

static inline s64 percpu_counter_sum_positive(struct percpu_counter *fbc)
{
	return percpu_counter_read_positive(fbc);
}

static inline s64 percpu_counter_sum(struct percpu_counter *fbc)
{
	return percpu_counter_read(fbc);
}

static inline bool percpu_counter_initialized(struct percpu_counter *fbc)
{
	return true;
}

static inline void percpu_counter_sync(struct percpu_counter *fbc)
{
}

/*
 * On UP every add goes straight to the count, as it would with a batch of 0:
 * the batch is ignored, and there is no deviation to bound with it.
 */
static inline s32 percpu_counter_scaled_batch(u32 unit)
{
	return 0;
}
#endif	/* CONFIG_SMP */

/**
 * percpu_counter_add_scaled - add to a counter updated in large units
 * @fbc: the counter
 * @amount: the amount to add
 * @unit: typical magnitude of one update, see percpu_counter_scaled_batch()
 *
 * Like percpu_counter_add(), but with a batch of
 * percpu_counter_scaled_batch(@unit), so that a counter updated by amounts
 * of about @unit folds into the global count about as rarely as one updated
 * by amounts of 1 with percpu_counter_add().  The deviation of
 * percpu_counter_read() grows with the batch, see there: up to that batch
 * per CPU.  percpu_counter_sum() is as exact as with any batch.
 */
static inline void
percpu_counter_add_scaled(struct percpu_counter *fbc, s64 amount, u32 unit)
{
	percpu_counter_add_batch(fbc, amount, percpu_counter_scaled_batch(unit));
}

static inline void percpu_counter_inc(struct percpu_counter *fbc)
{
	percpu_counter_add(fbc, 1);
}

static inline void percpu_counter_dec(struct percpu_counter *fbc)
{
	percpu_counter_add(fbc, -1);
}

static inline void percpu_counter_sub(struct percpu_counter *fbc, s64 amount)
{
	percpu_counter_add(fbc, -amount);
}

static inline void
percpu_counter_sub_local(struct percpu_counter *fbc, s64 amount)
{
	percpu_counter_add_local(fbc, -amount);
}

#endif /* _LINUX_PERCPU_COUNTER_H */
