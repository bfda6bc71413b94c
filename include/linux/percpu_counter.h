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
 * the batch: then the delta and the amount are folded into @count with atomic
 * operations, taking no lock.  Deltas are thus always smaller than the batch
 * in magnitude (at most the batch after __percpu_counter_limited_add()).
 */
struct percpu_counter {
	atomic64_t count;
#ifdef CONFIG_HOTPLUG_CPU
	struct list_head list;	/* All percpu_counters are on a list */
#endif
	s32 __percpu *counters;
};

extern int percpu_counter_batch;

int __percpu_counter_init_many(struct percpu_counter *fbc, s64 amount,
			       gfp_t gfp, u32 nr_counters,
			       struct lock_class_key *key);

/* percpu_counters have no lock: there is no lock class key to pass */
#define percpu_counter_init_many(fbc, value, gfp, nr_counters)		\
	__percpu_counter_init_many(fbc, value, gfp, nr_counters, NULL)


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
 * Adds all the per-CPU deltas to the global count, without taking a lock.
 *
 * On a counter that nobody updates concurrently the result is exact.  While
 * adds are in flight it is the exact total of a set of adds that
 *  - contains no add that had not started when percpu_counter_sum() returned,
 *    and counts each add at most once;
 *  - contains every add that had completed before percpu_counter_sum() was
 *    called, except that for each CPU the delta that CPU had pending when
 *    the call began may be missed, if it is folded into the global count
 *    while the sum runs.  Only that one delta per CPU: later folds carry only
 *    adds that raced with the call.
 * A pending delta is less than the batch in magnitude: |delta| <= batch - 1
 * with percpu_counter_add_batch(), where batch is the largest batch used on
 * the counter (percpu_counter_batch for percpu_counter_add()), and
 * |delta| <= batch with __percpu_counter_limited_add().  So for a counter
 * that is only ever added non-negative amounts, if C is the total of the
 * adds completed before the call and S the total of those started before it
 * returned, the result r satisfies
 *
 *	C - nr * (batch - 1) <= r <= S
 *
 * where nr is the number of CPUs online at some time during the call
 * (num_online_cpus() without CPU hotplug).  The error is one-sided: nothing
 * is ever counted twice.  A sum that races with percpu_counter_set() may see
 * the old global count with some per-CPU deltas already discarded.
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
 * Returns the global count only.  It is a single atomic64_read(), which
 * does not tear on 32-bit machines, but it does not include the per-CPU
 * deltas: it differs from the value percpu_counter_sum() would return by
 * their sum, so by less than batch * nr in magnitude, with batch and nr as
 * for percpu_counter_sum() (at most batch * nr if
 * __percpu_counter_limited_add() is used).  For percpu_counter_add() this is
 * less than percpu_counter_batch * num_online_cpus().
 *
 * Return: the global count, which may be negative.
 */
static inline s64 percpu_counter_read(struct percpu_counter *fbc)
{
	return atomic64_read(&fbc->count);
}

/*
 * It is possible for the percpu_counter_read() to return a small negative
 * number for some counter which should never be negative.
 *
 */
static inline s64 percpu_counter_read_positive(struct percpu_counter *fbc)
{
	s64 ret = atomic64_read(&fbc->count);

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
	atomic64_t count;
};

static inline int percpu_counter_init_many(struct percpu_counter *fbc,
					   s64 amount, gfp_t gfp,
					   u32 nr_counters)
{
	u32 i;

	for (i = 0; i < nr_counters; i++)
		atomic64_set(&fbc[i].count, amount);

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
	atomic64_set(&fbc->count, amount);
}

static inline int percpu_counter_compare(struct percpu_counter *fbc, s64 rhs)
{
	s64 count = atomic64_read(&fbc->count);

	if (count > rhs)
		return 1;
	else if (count < rhs)
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
	atomic64_add(amount, &fbc->count);
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
	count = atomic64_read(&fbc->count) + amount;
	if ((amount > 0 && count <= limit) ||
	    (amount < 0 && count >= limit)) {
		atomic64_set(&fbc->count, count);
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
	return atomic64_read(&fbc->count);
}

/*
 * percpu_counter is intended to track positive numbers. In the UP case the
 * number should never be negative.
 */
static inline s64 percpu_counter_read_positive(struct percpu_counter *fbc)
{
	return atomic64_read(&fbc->count);
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
 * percpu_counter_read() and the error bound of percpu_counter_sum() while
 * adds race with it grow with the batch, see there: up to that batch per
 * CPU.  percpu_counter_sum() of a quiescent counter stays exact.
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
