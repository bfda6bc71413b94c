// SPDX-License-Identifier: GPL-2.0
/*
 * Fast batching percpu counters.
 */

#include <linux/percpu_counter.h>
#include <linux/mutex.h>
#include <linux/init.h>
#include <linux/cpu.h>
#include <linux/module.h>
#include <linux/debugobjects.h>

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

/*
 * Folding a per-CPU delta into fbc->count is not a single atomic step: the
 * delta is taken out of the per-CPU counter, added to fbc->count and only
 * then is the per-CPU counter reset.  While that happens the per-CPU counter
 * holds PERCPU_COUNTER_FOLDING, a value no per-CPU delta can take, as the
 * fast paths keep every delta within [-INT_MAX, INT_MAX].  Readers treat it as
 * "nothing pending here" (the delta is on its way into fbc->count); writers
 * other than the owning CPU wait for it to go away.
 */
#define PERCPU_COUNTER_FOLDING	S32_MIN

/*
 * Move the delta in @pcount, plus @amount, into fbc->count.
 *
 * @pcount is this CPU's counter, and interrupts must be disabled so that
 * nothing on this CPU sees the FOLDING marker; or it is the counter of a dead
 * CPU.  The only other writer, percpu_counter_set(), uses cmpxchg() and waits
 * for the marker to go away, so the delta is taken with xchg(): it can
 * neither be lost to nor resurrected after a concurrent set.
 */
static void percpu_counter_fold(struct percpu_counter *fbc, s32 *pcount,
				s64 amount)
{
	s32 count;

	lockdep_assert_irqs_disabled();

	/* Full barrier: the marker is visible before the global update */
	count = xchg(pcount, PERCPU_COUNTER_FOLDING);
	atomic64_add(count + amount, &fbc->count);
	/* Pairs with smp_load_acquire() in percpu_counter_read_delta() */
	smp_store_release(pcount, 0);
}

/*
 * Read @cpu's delta of @fbc for an exact computation: wait for a fold in
 * progress on that CPU to complete, which takes only a few instructions with
 * interrupts disabled over there.
 */
static s32 percpu_counter_read_delta(struct percpu_counter *fbc, int cpu)
{
	s32 *pcount = per_cpu_ptr(fbc->counters, cpu);
	s32 count;

	/*
	 * Acquire pairs with the release in percpu_counter_fold(): once the
	 * fold is seen done, so is its update of fbc->count.
	 */
	while ((count = smp_load_acquire(pcount)) == PERCPU_COUNTER_FOLDING)
		cpu_relax();
	return count;
}

/*
 * Set the counter to @amount and discard all per-CPU deltas.
 *
 * Adds that completed before the call are discarded, adds that start after
 * it returned are counted.  A racing fold either completes before the global
 * count is set, and is discarded with it, or takes its CPU's delta after
 * that was reset, and then only carries adds that raced with the set.  As
 * before, a fast path add racing with the reset of its own CPU's delta may
 * undo that reset: the fast path is not atomic against other CPUs.
 */
void percpu_counter_set(struct percpu_counter *fbc, s64 amount)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		s32 *pcount = per_cpu_ptr(fbc->counters, cpu);
		s32 old = READ_ONCE(*pcount);

		do {
			while (old == PERCPU_COUNTER_FOLDING) {
				cpu_relax();
				old = READ_ONCE(*pcount);
			}
		} while (!try_cmpxchg(pcount, &old, 0));
	}
	/* Ordered after the cmpxchg()s above, which are full barriers */
	atomic64_set(&fbc->count, amount);
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
	unsigned long flags;

	count = this_cpu_read(*fbc->counters);
	do {
		if (unlikely(abs(count + amount) >= batch)) {
			local_irq_save(flags);
			/*
			 * Note: by now we might have migrated to another CPU
			 * or the value might have changed; the fold takes
			 * whatever this CPU has pending.
			 */
			percpu_counter_fold(fbc, this_cpu_ptr(fbc->counters),
					    amount);
			local_irq_restore(flags);
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
		percpu_counter_fold(fbc, this_cpu_ptr(fbc->counters), amount);
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

	local_irq_save(flags);
	if (__this_cpu_read(*fbc->counters))
		percpu_counter_fold(fbc, this_cpu_ptr(fbc->counters), 0);
	local_irq_restore(flags);
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
 * No lock is taken, so concurrent adds and folds are never held up.  The
 * global count is read first, then each CPU's delta.  A delta that is folded
 * into the global count between those two reads is missed: a CPU's counter
 * that is being folded reads as PERCPU_COUNTER_FOLDING (taken as 0) or as
 * the value after the fold.  Nothing is ever counted twice: a delta still
 * seen in a per-CPU counter has not yet reached the global count as read,
 * because the fold's xchg() orders the marker before its global update and
 * smp_rmb() orders our reads.  Folds only take whole deltas, and the first
 * fold on a CPU after the global count was read takes the only delta that
 * can contain adds that completed before this call; later folds on that CPU
 * only carry adds that raced with this call.  See percpu_counter_sum() for
 * the resulting error bound.
 */
s64 __percpu_counter_sum(struct percpu_counter *fbc)
{
	s64 ret;
	int cpu;

	ret = atomic64_read(&fbc->count);
	/* Pairs with the full barrier in percpu_counter_fold() */
	smp_rmb();
	for_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask) {
		s32 count = READ_ONCE(*per_cpu_ptr(fbc->counters, cpu));

		if (count != PERCPU_COUNTER_FOLDING)
			ret += count;
	}
	return ret;
}
EXPORT_SYMBOL(__percpu_counter_sum);

/*
 * @key is unused: percpu_counters no longer have a lock.  It is kept so that
 * the prototype, and with it every caller, stays the same.
 */
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
#ifdef CONFIG_HOTPLUG_CPU
		INIT_LIST_HEAD(&fbc[i].list);
#endif
		atomic64_set(&fbc[i].count, amount);
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
		s32 *pcount = per_cpu_ptr(fbc->counters, cpu);

		/* Only percpu_counter_set() can still write it, to zero */
		if (READ_ONCE(*pcount))
			percpu_counter_fold(fbc, pcount, 0);
	}
	spin_unlock_irq(&percpu_counters_lock);
#endif
	return 0;
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
	if (abs(count - rhs) > ((s64)batch * num_online_cpus())) {
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
 * There is no lock: the decision is committed with a cmpxchg on fbc->count,
 * so a fold or another limited add that changes fbc->count while the total
 * is being computed makes us compute it again.  Folds in flight are waited
 * for, so that the per-CPU deltas read add up exactly with the fbc->count
 * that is committed against: limited adds that take this slow path (all
 * those beyond the batch do) never overshoot the limit together.  As before,
 * the fast path, taken while fbc->count is more than batch *
 * num_online_cpus() away from the limit, is not serialised against it.
 */
bool __percpu_counter_limited_add(struct percpu_counter *fbc,
				  s64 limit, s64 amount, s32 batch)
{
	s64 count;
	s64 unknown;
	s64 total;
	unsigned long flags;
	bool good = false;
	int cpu;

	if (amount == 0)
		return true;

	local_irq_save(flags);
	unknown = (s64)batch * num_online_cpus();
	count = __this_cpu_read(*fbc->counters);

	/* Skip the global update when safe */
	if (abs(count + amount) <= batch &&
	    ((amount > 0 && atomic64_read(&fbc->count) + unknown <= limit) ||
	     (amount < 0 && atomic64_read(&fbc->count) - unknown >= limit))) {
		this_cpu_add(*fbc->counters, amount);
		local_irq_restore(flags);
		return true;
	}

	/* Moving this CPU's delta into fbc->count leaves the total unchanged */
	if (count)
		percpu_counter_fold(fbc, this_cpu_ptr(fbc->counters), 0);

	count = atomic64_read(&fbc->count);
	for (;;) {
		total = count + amount;

		/* Skip the exact sum when safe */
		if (amount > 0) {
			if (total - unknown > limit)
				goto out;
			good = total + unknown <= limit;
		} else {
			if (total + unknown < limit)
				goto out;
			good = total - unknown >= limit;
		}

		if (!good) {
			/* Pairs with the full barrier in percpu_counter_fold() */
			smp_rmb();
			for_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask)
				total += percpu_counter_read_delta(fbc, cpu);
			if ((amount > 0 && total > limit) ||
			    (amount < 0 && total < limit)) {
				/* Only fail on a total that was consistent */
				total = atomic64_read(&fbc->count);
				if (total == count)
					goto out;
				count = total;
				continue;
			}
		}

		if (atomic64_try_cmpxchg(&fbc->count, &count, count + amount))
			break;
	}
	good = true;
out:
	local_irq_restore(flags);
	return good;
}
EXPORT_SYMBOL(__percpu_counter_limited_add);

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
