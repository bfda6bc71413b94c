// SPDX-License-Identifier: GPL-2.0
/*
 * Fast batching percpu counters.
 */

#include <linux/math64.h>
#include <linux/percpu_counter.h>
#include <linux/mutex.h>
#include <linux/init.h>
#include <linux/cpu.h>
#include <linux/module.h>
#include <linux/debugobjects.h>
#include <kunit/visibility.h>

#ifdef CONFIG_HOTPLUG_CPU
static LIST_HEAD(percpu_counters);
static DEFINE_SPINLOCK(percpu_counters_lock);
#endif

#ifdef CONFIG_DEBUG_OBJECTS_PERCPU_COUNTER

static const struct debug_obj_descr percpu_counter_debug_descr;

static bool percpu_counter_fixup_free(void *addr, enum debug_obj_state state)
{
	struct percpu_counter *fbc = addr;

	switch (state) {
	case ODEBUG_STATE_ACTIVE:
		percpu_counter_destroy(fbc);
		debug_object_free(fbc, &percpu_counter_debug_descr);
		return true;
	default:
		return false;
	}
}

static const struct debug_obj_descr percpu_counter_debug_descr = {
	.name		= "percpu_counter",
	.fixup_free	= percpu_counter_fixup_free,
};

static inline void debug_percpu_counter_activate(struct percpu_counter *fbc)
{
	debug_object_init(fbc, &percpu_counter_debug_descr);
	debug_object_activate(fbc, &percpu_counter_debug_descr);
}

static inline void debug_percpu_counter_deactivate(struct percpu_counter *fbc)
{
	debug_object_deactivate(fbc, &percpu_counter_debug_descr);
	debug_object_free(fbc, &percpu_counter_debug_descr);
}

#else	/* CONFIG_DEBUG_OBJECTS_PERCPU_COUNTER */
static inline void debug_percpu_counter_activate(struct percpu_counter *fbc)
{ }
static inline void debug_percpu_counter_deactivate(struct percpu_counter *fbc)
{ }
#endif	/* CONFIG_DEBUG_OBJECTS_PERCPU_COUNTER */

/* The deltas and the count, read once: exact when nothing moves them */
static __always_inline s64 percpu_counter_pass(struct percpu_counter *fbc)
{
	s64 ret = percpu_counter_read(fbc);
	int cpu;

	for_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask)
		ret += READ_ONCE(*per_cpu_ptr(fbc->counters, cpu));
	return ret;
}

#ifdef PERCPU_COUNTER_LOCKLESS
/*
 * A fold moves a CPU's delta into fbc->count: two stores.  Every such move
 * adds PERCPU_COUNTER_MOVE to fbc->folds before it (a fully ordered RMW)
 * and to fbc->folded after it (a release).  A lockless pass reads
 * fbc->folded (acquire), the count and the deltas, then fbc->folds: if it
 * saw a store of a move, it sees that move begun; if it saw a move ended,
 * it sees all of it.  So when the two agree, every move is in the pass
 * whole or not at all.  Bit 0 of fbc->folds freezes the counter: a fold
 * whose begin finds it set moves nothing and adds its amount to
 * fbc->count alone; its end is counted when the counter thaws.  The
 * freezer waits for the moves begun before, so that no delta moves while
 * it holds fbc->lock.
 */
#define PERCPU_COUNTER_FROZEN	1
#define PERCPU_COUNTER_MOVE	2

static __always_inline bool percpu_counter_move_begin(struct percpu_counter *fbc)
{
	return atomic_add_return(PERCPU_COUNTER_MOVE, &fbc->folds) &
	       PERCPU_COUNTER_FROZEN;
}

static __always_inline void percpu_counter_move_end(struct percpu_counter *fbc)
{
	atomic_add_return_release(PERCPU_COUNTER_MOVE, &fbc->folded);
}

/* Fold this CPU's delta and @amount into fbc->count; interrupts disabled */
static __always_inline void __percpu_counter_fold(struct percpu_counter *fbc,
						  s64 amount, bool window)
{
	s32 __percpu *pcount = fbc->counters;
	s32 count;

	if (unlikely(percpu_counter_move_begin(fbc))) {
		atomic64_add(amount, &fbc->count);
		return;
	}
	count = this_cpu_read(*pcount);
	atomic64_add(count + amount, &fbc->count);
#if IS_ENABLED(CONFIG_KUNIT)
	if (window)
		percpu_counter_window_fn(fbc);
#endif
	/* Not a reset: an NMI's add since the read stays in the delta */
	this_cpu_sub(*pcount, count);
	percpu_counter_move_end(fbc);
}

#if IS_ENABLED(CONFIG_KUNIT)
/* A KUnit test's function runs where an NMI may land in a fold of its counter */
struct percpu_counter *percpu_counter_window_fbc __read_mostly;
EXPORT_SYMBOL_IF_KUNIT(percpu_counter_window_fbc);
void (*percpu_counter_window_fn)(struct percpu_counter *fbc) __read_mostly;
EXPORT_SYMBOL_IF_KUNIT(percpu_counter_window_fn);

static noinline void percpu_counter_fold_test(struct percpu_counter *fbc,
					      s64 amount)
{
	unsigned long flags;

	local_irq_save(flags);
	__percpu_counter_fold(fbc, amount, true);
	local_irq_restore(flags);
}
#endif

static __always_inline void percpu_counter_fold(struct percpu_counter *fbc,
						s64 amount)
{
	unsigned long flags;

#if IS_ENABLED(CONFIG_KUNIT)
	if (unlikely(READ_ONCE(percpu_counter_window_fbc) == fbc)) {
		percpu_counter_fold_test(fbc, amount);
		return;
	}
#endif
	local_irq_save(flags);
	__percpu_counter_fold(fbc, amount, false);
	local_irq_restore(flags);
}

/* Stop the deltas from moving: fbc->lock held, interrupts disabled */
static __always_inline void percpu_counter_freeze(struct percpu_counter *fbc)
{
	int begun;

	/* Bit 0 is clear under fbc->lock: the add sets it */
	lockdep_assert_held(&fbc->lock);
	begun = atomic_fetch_add(PERCPU_COUNTER_FROZEN, &fbc->folds);

	/* Wait for the moves begun before, a few instructions each */
	while (atomic_read_acquire(&fbc->folded) != begun)
		cpu_relax();
}

/* Thaw, and count the ends of the folds that found the counter frozen */
static __always_inline void percpu_counter_thaw(struct percpu_counter *fbc)
{
	/* Read while frozen: the release orders it before moves resume */
	int folded = atomic_read(&fbc->folded);
	int backoffs = atomic_fetch_sub_release(PERCPU_COUNTER_FROZEN,
						&fbc->folds) -
		       PERCPU_COUNTER_FROZEN - folded;

	if (backoffs)
		atomic_add_return_release(backoffs, &fbc->folded);
}

static inline void percpu_counter_count_add(struct percpu_counter *fbc,
					    s64 amount)
{
	atomic64_add(amount, &fbc->count);
}

static inline void percpu_counter_count_set(struct percpu_counter *fbc,
					    s64 amount)
{
	atomic64_set(&fbc->count, amount);
}

/* One lockless pass; false if a move overlapped it */
static __always_inline bool percpu_counter_try_sum(struct percpu_counter *fbc,
						   s64 *sum)
{
	int folded = atomic_read_acquire(&fbc->folded);

	*sum = percpu_counter_pass(fbc);
	/* Pairs with the fully ordered begin of a move */
	smp_rmb();
	return (atomic_read(&fbc->folds) & ~PERCPU_COUNTER_FROZEN) == folded;
}
#else	/* !PERCPU_COUNTER_LOCKLESS */
/* 32-bit: fbc->count is a plain s64 under fbc->lock, as it always was */
static inline bool percpu_counter_move_begin(struct percpu_counter *fbc)
{
	return false;
}

static inline void percpu_counter_move_end(struct percpu_counter *fbc) { }
static inline void percpu_counter_freeze(struct percpu_counter *fbc) { }
static inline void percpu_counter_thaw(struct percpu_counter *fbc) { }

static inline void percpu_counter_count_add(struct percpu_counter *fbc,
					    s64 amount)
{
	fbc->count += amount;
}

static inline void percpu_counter_count_set(struct percpu_counter *fbc,
					    s64 amount)
{
	fbc->count = amount;
}
#endif	/* PERCPU_COUNTER_LOCKLESS */

/*
 * Move this CPU's delta and @amount into fbc->count: fbc->lock held, where
 * no freeze can make the move back off; interrupts disabled
 */
static void percpu_counter_move_locked(struct percpu_counter *fbc, s64 amount)
{
	s32 count;

	percpu_counter_move_begin(fbc);
	count = __this_cpu_read(*fbc->counters);
	percpu_counter_count_add(fbc, count + amount);
	this_cpu_sub(*fbc->counters, count);
	percpu_counter_move_end(fbc);
}

#ifndef PERCPU_COUNTER_LOCKLESS
static void percpu_counter_fold(struct percpu_counter *fbc, s64 amount)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&fbc->lock, flags);
	percpu_counter_move_locked(fbc, amount);
	raw_spin_unlock_irqrestore(&fbc->lock, flags);
}
#endif

/*
 * Set the counter to @amount.  As before, a fast path add racing with the
 * reset of its own CPU's delta may undo that reset.  Not from NMI: it takes
 * fbc->lock.
 */
void percpu_counter_set(struct percpu_counter *fbc, s64 amount)
{
	int cpu;
	unsigned long flags;

	WARN_ON_ONCE(in_nmi());
	raw_spin_lock_irqsave(&fbc->lock, flags);
	percpu_counter_freeze(fbc);
	percpu_counter_move_begin(fbc);
	for_each_possible_cpu(cpu)
		WRITE_ONCE(*per_cpu_ptr(fbc->counters, cpu), 0);
	percpu_counter_count_set(fbc, amount);
	percpu_counter_move_end(fbc);
	percpu_counter_thaw(fbc);
	raw_spin_unlock_irqrestore(&fbc->lock, flags);
}
EXPORT_SYMBOL(percpu_counter_set);

/*
 * Add to a counter while respecting batch size.
 *
 * There are 2 implementations, both dealing with the following problem:
 *
 * The decision slow path/fast path and the actual update must be atomic.
 * Otherwise a call in process context could check the current values and
 * decide that the fast path can be used. If now an interrupt occurs before
 * the this_cpu_add(), and the interrupt updates this_cpu(*fbc->counters),
 * then the this_cpu_add() that is executed after the interrupt has completed
 * can produce values larger than "batch" or even overflows.
 */
#ifdef CONFIG_HAVE_CMPXCHG_LOCAL
/*
 * Safety against interrupts is achieved in 2 ways:
 * 1. the fast path uses local cmpxchg (note: no lock prefix)
 * 2. the slow path operates with interrupts disabled
 */
void percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount, s32 batch)
{
	s64 count;

	count = this_cpu_read(*fbc->counters);
	do {
		if (unlikely(abs(count + amount) >= batch)) {
			/*
			 * Note: by now we might have migrated to another CPU
			 * or the value might have changed.
			 */
			percpu_counter_fold(fbc, amount);
			return;
		}
	} while (!this_cpu_try_cmpxchg(*fbc->counters, &count, count + amount));
}
#else
/*
 * local_irq_save() is used to make the function irq safe:
 * - The slow path folds with interrupts disabled, as it must.
 * - this_cpu_add would be ok as it is irq-safe by definition.
 */
void percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount, s32 batch)
{
	s64 count;
	unsigned long flags;

	local_irq_save(flags);
	count = __this_cpu_read(*fbc->counters) + amount;
	if (abs(count) >= batch)
		percpu_counter_fold(fbc, amount);
	else
		this_cpu_add(*fbc->counters, amount);
	local_irq_restore(flags);
}
#endif
EXPORT_SYMBOL(percpu_counter_add_batch);

/*
 * For percpu_counter with a big batch, the devication of its count could
 * be big, and there is requirement to reduce the deviation, like when the
 * counter's batch could be runtime decreased to get a better accuracy,
 * which can be achieved by running this sync function on each CPU.
 */
void percpu_counter_sync(struct percpu_counter *fbc)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&fbc->lock, flags);
	percpu_counter_move_locked(fbc, 0);
	raw_spin_unlock_irqrestore(&fbc->lock, flags);
}
EXPORT_SYMBOL(percpu_counter_sync);

/*
 * Add up all the per-cpu counts, return the result.  This is a more accurate
 * but much slower version of percpu_counter_read_positive().
 *
 * We use the cpu mask of (cpu_online_mask | cpu_dying_mask) to capture sums
 * from CPUs that are in the process of being taken offline. Dying cpus have
 * been removed from the online mask, but may not have had the hotplug dead
 * notifier called to fold the percpu count back into the global counter sum.
 * By including dying CPUs in the iteration mask, we avoid this race condition
 * so __percpu_counter_sum() just does the right thing when CPUs are being taken
 * offline.
 *
 * Two lockless passes first; if moves overlapped both, one pass under
 * fbc->lock with the counter frozen.  In NMI, where a fold or lock of its
 * own CPU would never end, the last lockless pass.
 */
s64 __percpu_counter_sum(struct percpu_counter *fbc)
{
	s64 ret;
	unsigned long flags;

#ifdef PERCPU_COUNTER_LOCKLESS
	for (int i = 0; i < 2; i++) {
		if (percpu_counter_try_sum(fbc, &ret))
			return ret;
	}
	if (unlikely(in_nmi()))
		return ret;
#endif

	raw_spin_lock_irqsave(&fbc->lock, flags);
	percpu_counter_freeze(fbc);
	ret = percpu_counter_pass(fbc);
	percpu_counter_thaw(fbc);
	raw_spin_unlock_irqrestore(&fbc->lock, flags);
	return ret;
}
EXPORT_SYMBOL(__percpu_counter_sum);

int __percpu_counter_init_many(struct percpu_counter *fbc, s64 amount,
			       gfp_t gfp, u32 nr_counters,
			       struct lock_class_key *key)
{
	unsigned long flags __maybe_unused;
	size_t counter_size;
	s32 __percpu *counters;
	u32 i;

	counter_size = ALIGN(sizeof(*counters), __alignof__(*counters));
	counters = __alloc_percpu_gfp(nr_counters * counter_size,
				      __alignof__(*counters), gfp);
	if (!counters) {
		fbc[0].counters = NULL;
		return -ENOMEM;
	}

	for (i = 0; i < nr_counters; i++) {
		raw_spin_lock_init(&fbc[i].lock);
		lockdep_set_class(&fbc[i].lock, key);
#ifdef CONFIG_HOTPLUG_CPU
		INIT_LIST_HEAD(&fbc[i].list);
#endif
#ifdef PERCPU_COUNTER_LOCKLESS
		atomic_set(&fbc[i].folds, 0);
		atomic_set(&fbc[i].folded, 0);
#endif
		fbc[i].batch_max = 0;
		percpu_counter_count_set(&fbc[i], amount);
		fbc[i].counters = (void __percpu *)counters + i * counter_size;

		debug_percpu_counter_activate(&fbc[i]);
	}

#ifdef CONFIG_HOTPLUG_CPU
	spin_lock_irqsave(&percpu_counters_lock, flags);
	for (i = 0; i < nr_counters; i++)
		list_add(&fbc[i].list, &percpu_counters);
	spin_unlock_irqrestore(&percpu_counters_lock, flags);
#endif
	return 0;
}
EXPORT_SYMBOL(__percpu_counter_init_many);

void percpu_counter_destroy_many(struct percpu_counter *fbc, u32 nr_counters)
{
	unsigned long flags __maybe_unused;
	u32 i;

	if (WARN_ON_ONCE(!fbc))
		return;

	if (!fbc[0].counters)
		return;

	for (i = 0; i < nr_counters; i++)
		debug_percpu_counter_deactivate(&fbc[i]);

#ifdef CONFIG_HOTPLUG_CPU
	spin_lock_irqsave(&percpu_counters_lock, flags);
	for (i = 0; i < nr_counters; i++)
		list_del(&fbc[i].list);
	spin_unlock_irqrestore(&percpu_counters_lock, flags);
#endif

	free_percpu(fbc[0].counters);

	for (i = 0; i < nr_counters; i++)
		fbc[i].counters = NULL;
}
EXPORT_SYMBOL(percpu_counter_destroy_many);

int percpu_counter_batch __read_mostly = 32;
EXPORT_SYMBOL(percpu_counter_batch);

static int compute_batch_value(unsigned int cpu)
{
	int nr = num_online_cpus();

	percpu_counter_batch = max(32, nr*2);
	return 0;
}

static int percpu_counter_cpu_dead(unsigned int cpu)
{
#ifdef CONFIG_HOTPLUG_CPU
	struct percpu_counter *fbc;

	compute_batch_value(cpu);

	spin_lock_irq(&percpu_counters_lock);
	list_for_each_entry(fbc, &percpu_counters, list) {
		s32 *pcount;

		raw_spin_lock(&fbc->lock);
		pcount = per_cpu_ptr(fbc->counters, cpu);
		percpu_counter_move_begin(fbc);
		percpu_counter_count_add(fbc, *pcount);
		WRITE_ONCE(*pcount, 0);
		percpu_counter_move_end(fbc);
		raw_spin_unlock(&fbc->lock);
	}
	spin_unlock_irq(&percpu_counters_lock);
#endif
	return 0;
}

/*
 * What the deltas can hold: @batch per online CPU, or the largest batch of
 * percpu_counter_add_scaled() on @fbc.  A negative @batch gives a huge
 * margin: the exact sum decides.
 */
static u64 percpu_counter_margin(struct percpu_counter *fbc, s32 batch)
{
	return mul_u32_u32(max_t(u32, batch, READ_ONCE(fbc->batch_max)),
			   num_online_cpus());
}

/*
 * Compare counter against given value.
 * Return 1 if greater, 0 if equal and -1 if less
 */
int __percpu_counter_compare(struct percpu_counter *fbc, s64 rhs, s32 batch)
{
	s64	count;

	count = percpu_counter_read(fbc);
	/* Check to see if rough count will be sufficient for comparison */
	if (abs(count - rhs) > percpu_counter_margin(fbc, batch)) {
		if (count > rhs)
			return 1;
		else
			return -1;
	}
	/* Need to use precise count */
	count = percpu_counter_sum(fbc);
	if (count > rhs)
		return 1;
	else if (count < rhs)
		return -1;
	else
		return 0;
}
EXPORT_SYMBOL(__percpu_counter_compare);

/*
 * Compare counter, and add amount if total is: less than or equal to limit if
 * amount is positive, or greater than or equal to limit if amount is negative.
 * Return true if amount is added, or false if total would be beyond the limit.
 *
 * Negative limit is allowed, but unusual.
 * When negative amounts (subs) are given to percpu_counter_limited_add(),
 * the limit would most naturally be 0 - but other limits are also allowed.
 *
 * Overflow beyond S64_MAX is not allowed for: counter, limit and amount
 * are all assumed to be sane (far from S64_MIN and S64_MAX).
 *
 * The adds that take the lock decide on the margin or an exact sum and add
 * before they release it: together they never overshoot the limit.  With
 * interrupts disabled they wait for the lock, then at most for the folds in
 * flight and one pass over the CPUs.  Not from NMI.
 */
bool __percpu_counter_limited_add(struct percpu_counter *fbc,
				  s64 limit, s64 amount, s32 batch)
{
	s64 count;
	s64 unknown;
	unsigned long flags;
	bool good = false;

	if (amount == 0)
		return true;

	local_irq_save(flags);
	unknown = percpu_counter_margin(fbc, batch);
	count = __this_cpu_read(*fbc->counters);

	/* Skip taking the lock when safe */
	if (abs(count + amount) <= batch &&
	    ((amount > 0 && percpu_counter_read(fbc) + unknown <= limit) ||
	     (amount < 0 && percpu_counter_read(fbc) - unknown >= limit))) {
		this_cpu_add(*fbc->counters, amount);
		local_irq_restore(flags);
		return true;
	}

	WARN_ON_ONCE(in_nmi());
	raw_spin_lock(&fbc->lock);
	count = percpu_counter_read(fbc) + amount;

	/* Skip percpu_counter_sum() when safe */
	if (amount > 0) {
		if (count - unknown > limit)
			goto out;
		if (count + unknown <= limit)
			good = true;
	} else {
		if (count + unknown < limit)
			goto out;
		if (count - unknown >= limit)
			good = true;
	}

	if (!good) {
		/* One pass with interrupts off, as before: frozen, not retried */
		percpu_counter_freeze(fbc);
		count = percpu_counter_pass(fbc) + amount;
		percpu_counter_thaw(fbc);
		if (amount > 0) {
			if (count > limit)
				goto out;
		} else {
			if (count < limit)
				goto out;
		}
		good = true;
	}

	/*
	 * Into this CPU's delta while it fits, as the fast path adds (an NMI's
	 * add may land in between); else, as 6.12 always did, move the delta
	 * with it.
	 */
	count = __this_cpu_read(*fbc->counters);
	do {
		if (abs(count + amount) > batch) {
			percpu_counter_move_locked(fbc, amount);
			break;
		}
	} while (!this_cpu_try_cmpxchg(*fbc->counters, &count, count + amount));
out:
	raw_spin_unlock(&fbc->lock);
	local_irq_restore(flags);
	return good;
}
EXPORT_SYMBOL_IF_KUNIT(__percpu_counter_limited_add);

static int __init percpu_counter_startup(void)
{
	int ret;

	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "lib/percpu_cnt:online",
				compute_batch_value, NULL);
	WARN_ON(ret < 0);
	ret = cpuhp_setup_state_nocalls(CPUHP_PERCPU_CNT_DEAD,
					"lib/percpu_cnt:dead", NULL,
					percpu_counter_cpu_dead);
	WARN_ON(ret < 0);
	return 0;
}
module_init(percpu_counter_startup);
