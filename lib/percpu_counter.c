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

#ifdef PERCPU_COUNTER_LOCKLESS
/*
 * Each CPU keeps its delta, and how much it folded, never reset (its wrap
 * at 2^64 is harmless: only differences are used): their sum is all the
 * adds of that CPU.  A fold makes gen odd, takes the delta with
 * this_cpu_xchg(), adds it to folded, makes gen even again, and adds it
 * to fbc->count with its amount: its one locked instruction.  A fold in an
 * NMI that interrupted a fold of its own CPU adds its amount alone.
 * fbc->count is fbc->base plus every CPU's folded part once the folds in
 * flight have landed; the exact value is fbc->base plus every possible
 * CPU's delta and folded part, read as a seqcount reads, without a lock.
 */
static __always_inline s32 __percpu *
percpu_counter_deltas(struct percpu_counter *fbc)
{
	return &fbc->counters->delta;
}

/* The CPU moving a dead CPU's delta, interrupts disabled, and the dead CPU */
static int percpu_counter_mover = -1, percpu_counter_moved = -1;

/* Interrupts disabled */
static void percpu_counter_move(struct percpu_counter *fbc, s64 amount)
{
	struct percpu_counter_cpu __percpu *pc = fbc->counters;
	s32 count;

	if (unlikely(__this_cpu_read(pc->gen) & 1)) {
		/* An NMI in this CPU's fold: one RMW against the fold's */
		this_cpu_add(pc->folded, amount);
		atomic64_add(amount, &fbc->count);
		return;
	}
	/* One RMW: an NMI's whole fold lands before or after it */
	this_cpu_inc(pc->gen);
	/* Pairs with smp_rmb() in percpu_counter_cpu_sum() */
	smp_wmb();
	count = this_cpu_xchg(pc->delta, 0);
	/* One RMW: a nested fold adds to folded too */
	this_cpu_add(pc->folded, count + amount);
	/* The delta and folded part before gen turns even */
	smp_wmb();
	__this_cpu_inc(pc->gen);
	atomic64_add(count + amount, &fbc->count);
}

static void percpu_counter_fold(struct percpu_counter *fbc, s64 amount)
{
	unsigned long flags;

	local_irq_save(flags);
	percpu_counter_move(fbc, amount);
	local_irq_restore(flags);
}

/* An NMI, or a debug exception, in a fold or move that this CPU makes */
static bool percpu_counter_nested(int cpu)
{
	int this = raw_smp_processor_id();

	return irqs_disabled() &&
	       (cpu == this || (READ_ONCE(percpu_counter_mover) == this &&
				READ_ONCE(percpu_counter_moved) == cpu));
}

/*
 * All the adds of @cpu.  Waits for a fold in flight there (a few
 * instructions, interrupts off) unless nested in it (it may then miss the
 * delta taken) or in an NMI, which never waits: it may miss that CPU's
 * delta.
 */
static __always_inline s64
percpu_counter_cpu_sum(struct percpu_counter *fbc, int cpu)
{
	struct percpu_counter_cpu *pc = per_cpu_ptr(fbc->counters, cpu);
	s64 folded;
	s32 delta;
	u32 gen;

	for (;;) {
		gen = READ_ONCE(pc->gen);
		/* Pairs with the fold's smp_wmb() after it makes gen odd */
		smp_rmb();
		folded = READ_ONCE(pc->folded);
		delta = READ_ONCE(pc->delta);
		/* Pairs with the fold's smp_wmb() before it makes gen even */
		smp_rmb();
		if (likely(!(gen & 1))) {
			if (likely(READ_ONCE(pc->gen) == gen))
				return folded + delta;
		} else if (percpu_counter_nested(cpu)) {
			return folded + delta;
		} else if (in_nmi()) {
			return folded;
		}
		cpu_relax();
	}
}

/*
 * Every add completed before the call, once.  Again if a set moved the
 * base meanwhile: a stream of sets can delay it, an NMI in a set of its
 * own CPU sees the base unmoved.
 */
static s64 percpu_counter_exact(struct percpu_counter *fbc)
{
	s64 base, ret;
	int cpu;

	do {
		/* Pairs with percpu_counter_set(): its reads, then its base */
		base = smp_load_acquire(&fbc->base);
		ret = base;
		for_each_possible_cpu(cpu)
			ret += percpu_counter_cpu_sum(fbc, cpu);
		/* Pairs with set's smp_wmb(): a later add seen, the base too */
		smp_rmb();
	} while (unlikely(READ_ONCE(fbc->base) != base));
	return ret;
}

/*
 * The adds that race with the set count after it.  The deltas stay on
 * their CPUs: percpu_counter_read() may differ from @amount by them, as
 * after any add, until they fold.
 */
void percpu_counter_set(struct percpu_counter *fbc, s64 amount)
{
	unsigned long flags;
	s64 base = amount;
	int cpu;

	raw_spin_lock_irqsave(&fbc->lock, flags);
	for_each_possible_cpu(cpu)
		base -= percpu_counter_cpu_sum(fbc, cpu);
	/* fbc->count stays fbc->base plus the folded parts */
	atomic64_add(base - fbc->base, &fbc->count);
	/* Pairs with a sum's acquire: the CPUs read above, then the base */
	smp_store_release(&fbc->base, base);
	/* Pairs with a sum's smp_rmb(): this CPU's later adds after the base */
	smp_wmb();
	raw_spin_unlock_irqrestore(&fbc->lock, flags);
}

#ifdef CONFIG_HOTPLUG_CPU
/* A dead CPU's delta, under fbc->lock: nothing runs there */
static void percpu_counter_move_dead(struct percpu_counter *fbc,
				     unsigned int cpu)
{
	struct percpu_counter_cpu *pc = per_cpu_ptr(fbc->counters, cpu);
	s32 count = pc->delta;

	/* In this order: an NMI here must not take another CPU for the moved */
	WRITE_ONCE(percpu_counter_moved, cpu);
	WRITE_ONCE(percpu_counter_mover, raw_smp_processor_id());
	WRITE_ONCE(pc->gen, pc->gen + 1);
	/* As a fold: gen odd, then the move, then gen even */
	smp_wmb();
	/* Taken, then folded, as a fold does: an NMI's sum may miss it */
	WRITE_ONCE(pc->delta, 0);
	WRITE_ONCE(pc->folded, pc->folded + count);
	/* Pairs with the second smp_rmb() of percpu_counter_cpu_sum() */
	smp_wmb();
	WRITE_ONCE(pc->gen, pc->gen + 1);
	WRITE_ONCE(percpu_counter_mover, -1);
	atomic64_add(count, &fbc->count);
}
#endif
#else	/* !PERCPU_COUNTER_LOCKLESS */
/* 32-bit: fbc->count is a plain s64 under fbc->lock, as it always was */
static __always_inline s32 __percpu *
percpu_counter_deltas(struct percpu_counter *fbc)
{
	return fbc->counters;
}

/* fbc->lock held, interrupts disabled */
static void percpu_counter_move(struct percpu_counter *fbc, s64 amount)
{
	s32 count = __this_cpu_read(*fbc->counters);

	fbc->count += count + amount;
	__this_cpu_sub(*fbc->counters, count);
}

static void percpu_counter_fold(struct percpu_counter *fbc, s64 amount)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&fbc->lock, flags);
	percpu_counter_move(fbc, amount);
	raw_spin_unlock_irqrestore(&fbc->lock, flags);
}

/* fbc->lock held */
static s64 percpu_counter_exact(struct percpu_counter *fbc)
{
	s64 ret = fbc->count;
	int cpu;

	for_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask)
		ret += *per_cpu_ptr(fbc->counters, cpu);
	return ret;
}

void percpu_counter_set(struct percpu_counter *fbc, s64 amount)
{
	int cpu;
	unsigned long flags;

	raw_spin_lock_irqsave(&fbc->lock, flags);
	for_each_possible_cpu(cpu) {
		s32 *pcount = per_cpu_ptr(fbc->counters, cpu);
		*pcount = 0;
	}
	fbc->count = amount;
	raw_spin_unlock_irqrestore(&fbc->lock, flags);
}

#ifdef CONFIG_HOTPLUG_CPU
static void percpu_counter_move_dead(struct percpu_counter *fbc,
				     unsigned int cpu)
{
	s32 *pcount = per_cpu_ptr(fbc->counters, cpu);

	fbc->count += *pcount;
	*pcount = 0;
}
#endif
#endif	/* PERCPU_COUNTER_LOCKLESS */
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
	s32 __percpu *deltas = percpu_counter_deltas(fbc);
	s64 count;

	count = this_cpu_read(*deltas);
	do {
		if (unlikely(abs(count + amount) >= batch)) {
			/*
			 * Note: by now we might have migrated to another CPU
			 * or the value might have changed.
			 */
			percpu_counter_fold(fbc, amount);
			return;
		}
	} while (!this_cpu_try_cmpxchg(*deltas, &count, count + amount));
}
#else
/*
 * local_irq_save() is used to make the function irq safe:
 * - The slow path folds with interrupts disabled.
 * - this_cpu_add would be ok as it is irq-safe by definition.
 */
void percpu_counter_add_batch(struct percpu_counter *fbc, s64 amount, s32 batch)
{
	s32 __percpu *deltas = percpu_counter_deltas(fbc);
	unsigned long flags;

	local_irq_save(flags);
	if (abs(__this_cpu_read(*deltas) + amount) >= batch)
		percpu_counter_fold(fbc, amount);
	else
		this_cpu_add(*deltas, amount);
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
	percpu_counter_fold(fbc, 0);
}
EXPORT_SYMBOL(percpu_counter_sync);

/*
 * Add up all the per-cpu counts, return the result.  This is a more accurate
 * but much slower version of percpu_counter_read_positive().
 *
 * On 64-bit every possible CPU's total, which no CPU hotplug moves.  On
 * 32-bit:
 *
 * We use the cpu mask of (cpu_online_mask | cpu_dying_mask) to capture sums
 * from CPUs that are in the process of being taken offline. Dying cpus have
 * been removed from the online mask, but may not have had the hotplug dead
 * notifier called to fold the percpu count back into the global counter sum.
 * By including dying CPUs in the iteration mask, we avoid this race condition
 * so __percpu_counter_sum() just does the right thing when CPUs are being taken
 * offline.
 */
s64 __percpu_counter_sum(struct percpu_counter *fbc)
{
#ifdef PERCPU_COUNTER_LOCKLESS
	return percpu_counter_exact(fbc);
#else
	s64 ret;
	unsigned long flags;

	raw_spin_lock_irqsave(&fbc->lock, flags);
	ret = percpu_counter_exact(fbc);
	raw_spin_unlock_irqrestore(&fbc->lock, flags);
	return ret;
#endif
}
EXPORT_SYMBOL(__percpu_counter_sum);

int __percpu_counter_init_many(struct percpu_counter *fbc, s64 amount,
			       gfp_t gfp, u32 nr_counters,
			       struct lock_class_key *key)
{
	unsigned long flags __maybe_unused;
	size_t counter_size;
	typeof(fbc->counters) counters;
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
		fbc[i].batch_max = 0;
#ifdef PERCPU_COUNTER_LOCKLESS
		atomic64_set(&fbc[i].count, amount);
		fbc[i].base = amount;
#else
		fbc[i].count = amount;
#endif
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
		raw_spin_lock(&fbc->lock);
		percpu_counter_move_dead(fbc, cpu);
		raw_spin_unlock(&fbc->lock);
	}
	spin_unlock_irq(&percpu_counters_lock);
#endif
	return 0;
}

/*
 * What the deltas can hold: @batch per online CPU, or the largest batch of
 * percpu_counter_add_scaled() on @fbc.  A negative @batch gives a huge
 * margin: the exact sum decides.  The largest batch never shrinks: a delta
 * left under it stays on its CPU until that CPU adds again.
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
 * The adds that take fbc->lock decide and add before they release it.
 * Interrupts are disabled for the wait for fbc->lock (a spinlock's: longer
 * if its holder's vCPU is preempted), one pass over the CPUs and one fold.
 * Not from NMI.
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
	count = __this_cpu_read(*percpu_counter_deltas(fbc));

	/* Skip taking the lock when safe */
	if (abs(count + amount) <= batch &&
	    ((amount > 0 && percpu_counter_read(fbc) + unknown <= limit) ||
	     (amount < 0 && percpu_counter_read(fbc) - unknown >= limit))) {
		this_cpu_add(*percpu_counter_deltas(fbc), amount);
		local_irq_restore(flags);
		return true;
	}

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
		count = percpu_counter_exact(fbc) + amount;
		if (amount > 0) {
			if (count > limit)
				goto out;
		} else {
			if (count < limit)
				goto out;
		}
		good = true;
	}

	/* Into this CPU's delta while it fits, as the fast path adds */
	count = __this_cpu_read(*percpu_counter_deltas(fbc));
	if (abs(count + amount) <= batch)
		this_cpu_add(*percpu_counter_deltas(fbc), amount);
	else
		percpu_counter_move(fbc, amount);
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
