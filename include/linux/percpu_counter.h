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

/* percpu_counter batch for local add or sub */
#define PERCPU_COUNTER_LOCAL_BATCH	INT_MAX

#ifdef CONFIG_SMP

/* On 64-bit, adds, folds and exact sums take no lock */
#ifdef CONFIG_64BIT
#define PERCPU_COUNTER_LOCKLESS

/* A CPU's delta, and what it folded, never reset; gen odd in a fold */
struct percpu_counter_cpu {
	s32 delta;
	u32 gen;
	s64 folded;
} __aligned(16);
#endif

struct percpu_counter {
	raw_spinlock_t lock;
	s32 batch_max;		/* largest batch of percpu_counter_add_scaled() */
#ifdef PERCPU_COUNTER_LOCKLESS
	atomic64_t count;	/* base, and the CPUs' folded parts */
	s64 base;		/* the value less the CPUs' deltas and folded parts */
#else
	s64 count;
#endif
#ifdef CONFIG_HOTPLUG_CPU
	struct list_head list;	/* All percpu_counters are on a list */
#endif
#ifdef PERCPU_COUNTER_LOCKLESS
	struct percpu_counter_cpu __percpu *counters;
#else
	s32 __percpu *counters;
#endif
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

/*
 * Every add completed before the call, once.  On 64-bit, without a lock:
 * every possible CPU, waiting for a fold in flight on another CPU, again
 * if a set raced.  From NMI it never waits, and may miss the deltas of
 * the folds in flight.  On 32-bit, under fbc->lock: not from NMI.
 */
static inline s64 percpu_counter_sum(struct percpu_counter *fbc)
{
	return __percpu_counter_sum(fbc);
}

static inline s64 percpu_counter_read(struct percpu_counter *fbc)
{
#ifdef PERCPU_COUNTER_LOCKLESS
	return atomic64_read(&fbc->count);
#else
	/* Prevent reloads of fbc->count */
	return READ_ONCE(fbc->count);
#endif
}

/*
 * It is possible for the percpu_counter_read() to return a small negative
 * number for some counter which should never be negative.
 *
 */
static inline s64 percpu_counter_read_positive(struct percpu_counter *fbc)
{
	s64 ret = percpu_counter_read(fbc);

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
 * @unit: typical magnitude of one update (e.g. TICK_NSEC for nanoseconds)
 *
 * For percpu_counter_add_scaled(), whose counters' compare and limited
 * add know the batch; passed to percpu_counter_add_batch(), their margins
 * would not cover it.
 *
 * Return: percpu_counter_batch * @unit, within percpu_counter_batch and
 * INT_MAX: about as many updates per fold as percpu_counter_batch gives
 * updates of 1.
 */
static __always_inline s32 percpu_counter_scaled_batch(u32 unit)
{
	s32 batch = READ_ONCE(percpu_counter_batch);

	return clamp_t(s64, (s64)batch * unit, batch, INT_MAX);
}

/* The margins of compare and limited add must cover a larger batch */
static __always_inline void
__percpu_counter_note_batch(struct percpu_counter *fbc, s32 batch)
{
	s32 old = READ_ONCE(fbc->batch_max);

	while (unlikely(batch > old) && !try_cmpxchg(&fbc->batch_max, &old, batch))
		;
}

/**
 * percpu_counter_add_scaled - add to a counter updated in large units
 * @fbc: the counter
 * @amount: the amount to add
 * @unit: typical magnitude of one update, see percpu_counter_scaled_batch()
 *
 * percpu_counter_read() then deviates by up to that batch per CPU;
 * __percpu_counter_compare() and __percpu_counter_limited_add() widen their
 * margins to it, whatever batch they are given.
 */
static __always_inline void
percpu_counter_add_scaled(struct percpu_counter *fbc, s64 amount, u32 unit)
{
	s32 batch = percpu_counter_scaled_batch(unit);

	__percpu_counter_note_batch(fbc, batch);
	percpu_counter_add_batch(fbc, amount, batch);
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

static inline void
percpu_counter_add_scaled(struct percpu_counter *fbc, s64 amount, u32 unit)
{
	percpu_counter_add(fbc, amount);
}
#endif	/* CONFIG_SMP */

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
