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
 * Folds without a lock (64-bit architectures with native 64-bit atomics).
 *
 * Folding a per-CPU delta into fbc->count is not a single atomic step: the
 * delta is taken out of the per-CPU counter, added to fbc->count and only
 * then is the per-CPU counter reset.  While that happens the per-CPU counter
 * holds PERCPU_COUNTER_FOLDING, a value no per-CPU delta can take, as the
 * fast paths keep every delta within [-INT_MAX, INT_MAX].  Each fold adds
 * PERCPU_COUNTER_FOLD to fbc->seq after its update of fbc->count, before it
 * resets the per-CPU counter; fbc->seq's bit 0, PERCPU_COUNTER_BLOCKED, is
 * set by an exact reader holding fbc->lock that needs folds to stop.
 *
 * An exact reader that must not race with folds takes fbc->lock and sets
 * PERCPU_COUNTER_BLOCKED (percpu_counter_block_folds()).
 * A fold checks the bit after its xchg(), a full barrier, and the reader
 * reads each CPU's delta after setting it with a full barrier: for each
 * CPU, either the reader sees the fold's marker and waits for it to go
 * away (in percpu_counter_sum_locked_from()), or the fold sees the bit and
 * puts its delta back untouched, then waits for fbc->lock.  Once the
 * reader has passed a CPU, that CPU's delta can no longer move into
 * fbc->count, and the folds it saw in flight have completed: the deltas
 * and fbc->count, read last, add up exactly.  The wait for a marker is
 * bounded: a fold that saw the bit clear completes in a few instructions,
 * with interrupts disabled over there (unless its vCPU is preempted, as a
 * spinlock holder's can be), and one that saw it set backs off as fast.
 */
#define PERCPU_COUNTER_FOLDING	S32_MIN
#define PERCPU_COUNTER_BLOCKED	1
#define PERCPU_COUNTER_FOLD	2

/* Inlined, as is all of the fold's common path: it is what adds cost */
static __always_inline void
percpu_counter_fold_commit(struct percpu_counter *fbc, s32 *pcount, s64 amount)
{
	atomic64_add(amount, &fbc->count);
	/* The update before the increment: see percpu_counter_try_sum() */
	smp_mb__after_atomic();
	atomic_add(PERCPU_COUNTER_FOLD, &fbc->seq);
	/* Pairs with smp_rmb() after the reads of the deltas */
	smp_store_release(pcount, 0);
}

/*
 * Fold under fbc->lock, with interrupts disabled: folds cannot be blocked.
 * @pcount is this CPU's counter or, from the CPU hotplug callback, a dead
 * CPU's.
 */
static __always_inline void
percpu_counter_fold_locked(struct percpu_counter *fbc, s32 *pcount, s64 amount)
{
	s32 count;

	lockdep_assert_held(&fbc->lock);
	lockdep_assert_irqs_disabled();
	count = xchg(pcount, PERCPU_COUNTER_FOLDING);

	percpu_counter_fold_commit(fbc, pcount, count + amount);
}

/*
 * Move the delta in @pcount, this CPU's counter, plus @amount, into
 * fbc->count.  Interrupts must be disabled, so that nothing on this CPU sees
 * the FOLDING marker (percpu_counters are not NMI-safe, as before).  The
 * only other writer, percpu_counter_set(), holds folds off and waits for the
 * marker to go away, so the delta is taken with xchg(): it can neither be
 * lost to nor resurrected after a concurrent set.
 *
 * Returns false, having added nothing, if an exact reader holds fbc->lock:
 * the caller then folds with percpu_counter_fold_slow(), once interrupts
 * are enabled again, so that nothing but the fold itself has to wait.
 */
static __always_inline bool
percpu_counter_fold(struct percpu_counter *fbc, s32 *pcount, s64 amount)
{
	s32 count;

	lockdep_assert_irqs_disabled();

	/* Full barrier: the marker is visible before we look at the bit */
	count = xchg(pcount, PERCPU_COUNTER_FOLDING);
	if (unlikely(atomic_read(&fbc->seq) & PERCPU_COUNTER_BLOCKED)) {
		/* Back off: nobody else writes over the marker */
		WRITE_ONCE(*pcount, count);
		return false;
	}
	percpu_counter_fold_commit(fbc, pcount, count + amount);
	return true;
}

/*
 * Read @cpu's delta of @fbc with folds blocked: wait for a fold in progress
 * on that CPU to complete or back off, a few instructions with interrupts
 * disabled over there.
 */
static __always_inline s32
percpu_counter_read_delta(struct percpu_counter *fbc, int cpu)
{
	s32 *pcount = per_cpu_ptr(fbc->counters, cpu);
	s32 count;

	/* The caller's smp_rmb() orders what follows: not an acquire per CPU */
	while ((count = READ_ONCE(*pcount)) == PERCPU_COUNTER_FOLDING)
		cpu_relax();
	return count;
}

/*
 * One lockless pass: it reads fbc->seq, fbc->count, the per-CPU deltas,
 * then fbc->seq again.  Take a fold F on CPU i, and the sum's reads of
 * fbc->count (C) and of CPU i's delta (D):
 *  - C sees F's update of fbc->count: D is ordered after C, F's xchg() of
 *    the marker before its update, so D sees the marker (the sum gives up)
 *    or what followed it: F's delta is counted once, in C.
 *  - C does not see it and D sees the delta before F's xchg(): counted
 *    once, in D.
 *  - C does not see it and D sees the marker, or what followed F's reset:
 *    the delta is missed.  But F's reset is a release, and D is followed
 *    by smp_rmb() before the second read of fbc->seq, which thus sees F's
 *    increment; the first read did not, as it is an acquire and F
 *    incremented after its update of fbc->count, which C did not see: the
 *    sum gives up.
 * In the last case D may read a later store of CPU i's fast path instead of
 * the reset.  The kernel memory model only extends a release through atomic
 * read-modify-writes, but every architecture orders a CPU's later store to
 * the same location after its release (x86 is TSO, arm64 orders same-address
 * stores, the barrier of a release on powerpc and riscv orders all later
 * stores), and percpu_counter_sum_locked() relies on it too.
 * percpu_counter_set() and percpu_counter_fold_held() write only after
 * setting bit 0 with a full barrier, so a pass that sees any of their
 * writes sees the bit, or its clearing, on its second read.
 * So a pass whose two reads of fbc->seq agree (and found bit 0 clear) has
 * counted every delta exactly once, at one point between its reads of
 * fbc->count and CPU i's delta; hence every add completed before the call.
 * fbc->seq is 32-bit: a wrong "agree" needs 2^31 folds, each a locked
 * operation on the counter's cache line, during one pass, which runs with
 * interrupts disabled and reads nr_cpu_ids words at most.
 *
 * A pass can fail for as long as other CPUs keep folding: the caller then
 * blocks folds and uses percpu_counter_sum_locked().
 */
static __always_inline bool
percpu_counter_try_sum(struct percpu_counter *fbc, s64 *sum)
{
	unsigned int seq;
	s64 ret;
	int cpu;

	/* Acquire: fbc->count is read after, see the comment above */
	seq = atomic_read_acquire(&fbc->seq);
	if (seq & PERCPU_COUNTER_BLOCKED)
		return false;
	ret = atomic64_read(&fbc->count);
	/* Pairs with the xchg() in percpu_counter_fold() */
	smp_rmb();
	for_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask) {
		s32 count = READ_ONCE(*per_cpu_ptr(fbc->counters, cpu));

		if (count == PERCPU_COUNTER_FOLDING)
			return false;
		ret += count;
	}
	/* Pairs with the release in percpu_counter_fold_commit() */
	smp_rmb();
	if (atomic_read(&fbc->seq) != seq)
		return false;
	*sum = ret;
	return true;
}

/*
 * Stop folds: the caller holds fbc->lock, with interrupts disabled.  This
 * and the helpers after it are inlined into __percpu_counter_sum(),
 * __percpu_counter_limited_add() and percpu_counter_set(): near its limit,
 * every __percpu_counter_limited_add() comes through here.
 */
static __always_inline void
percpu_counter_block_folds(struct percpu_counter *fbc)
{
	atomic_or(PERCPU_COUNTER_BLOCKED, &fbc->seq);
	/* Full barrier: pairs with the xchg() in percpu_counter_fold() */
	smp_mb__after_atomic();
}

static __always_inline void
percpu_counter_unblock_folds(struct percpu_counter *fbc)
{
	/*
	 * Release: a pass that reads the new value sees what the blocked
	 * section wrote (percpu_counter_set()).
	 */
	smp_mb__before_atomic();
	/* Clears the bit and moves fbc->seq on: an overlapping pass fails */
	atomic_inc(&fbc->seq);
}

/*
 * The rest of percpu_counter_sum_locked()'s pass, from @cpu, whose delta
 * held a marker, on: @ret is the sum of the deltas before it.  It waits
 * for each marker it meets, that of a fold that saw the bit clear and
 * completes, or of one that saw it set and backs off, each a few
 * instructions with interrupts disabled over there.
 */
static noinline s64
percpu_counter_sum_locked_from(struct percpu_counter *fbc, unsigned int cpu,
			       s64 ret)
{
	for (; cpu = find_next_or_bit(cpumask_bits(cpu_online_mask),
				      cpumask_bits(cpu_dying_mask),
				      small_cpumask_bits, cpu),
	     cpu < small_cpumask_bits; cpu++)
		ret += percpu_counter_read_delta(fbc, cpu);
	/*
	 * After the deltas: the folds they waited for are in it.  Pairs with
	 * the release in percpu_counter_fold_commit().
	 */
	smp_rmb();
	return ret + atomic64_read(&fbc->count);
}

/*
 * Exact sum, plus @ret: the caller holds fbc->lock and has blocked folds.
 * One pass; its rest goes out of line if it meets a marker, so that this
 * loop has no wait in it.  Near its limit every limited add comes through
 * here, so with NR_CPUS <= BITS_PER_LONG the CPUs come from one snapshot of
 * the masks' only word, a few instructions a CPU cheaper than
 * find_next_or_bit().  A CPU that goes meanwhile is as with
 * for_each_cpu_or(): its delta is folded under fbc->lock, after this pass;
 * one that comes has no delta from before the call.
 */
static __always_inline s64
percpu_counter_sum_locked(struct percpu_counter *fbc, s64 ret)
{
#if NR_CPUS <= BITS_PER_LONG
	unsigned long m = cpumask_bits(cpu_online_mask)[0] |
			  cpumask_bits(cpu_dying_mask)[0];

	for (; m; m &= m - 1) {
		unsigned int cpu = __ffs(m);
		s32 count = READ_ONCE(*per_cpu_ptr(fbc->counters, cpu));

		if (unlikely(count == PERCPU_COUNTER_FOLDING))
			return percpu_counter_sum_locked_from(fbc, cpu, ret);
		ret += count;
	}
#else
	int cpu;

	for_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask) {
		s32 count = READ_ONCE(*per_cpu_ptr(fbc->counters, cpu));

		if (unlikely(count == PERCPU_COUNTER_FOLDING))
			return percpu_counter_sum_locked_from(fbc, cpu, ret);
		ret += count;
	}
#endif
	/* As in percpu_counter_sum_locked_from() */
	smp_rmb();
	return ret + atomic64_read(&fbc->count);
}

/*
 * Fold this CPU's delta with @amount, folds blocked by the caller, under
 * fbc->lock with interrupts disabled: nothing else writes this delta (the
 * lock excludes percpu_counter_set()), and every lockless pass that
 * overlaps fails on fbc->seq, so neither a marker nor a fold count is needed.
 */
static __always_inline void
percpu_counter_fold_held(struct percpu_counter *fbc, s64 amount)
{
	s32 count;

	lockdep_assert_held(&fbc->lock);
	lockdep_assert_irqs_disabled();
	count = __this_cpu_read(*fbc->counters);
	/*
	 * In either order: the passes that could see one alone fail.
	 * this_cpu_write(): one store on x86, a marked one on arm64: other
	 * CPUs' lockless passes read it.
	 */
	this_cpu_write(*fbc->counters, 0);
	atomic64_add(count + amount, &fbc->count);
}

/*
 * Zero a delta for percpu_counter_set(), folds blocked.  A fold that holds
 * the marker completes or backs off first: the cmpxchg() never overwrites
 * it, so a fold can never commit a delta the set has discarded.  It retries
 * when this CPU's fast path changed the delta in between: lock-free, not
 * wait-free, as the fast path is not atomic against other CPUs anyway.
 */
static void percpu_counter_zero_delta(s32 *pcount)
{
	s32 old = READ_ONCE(*pcount);

	do {
		while (old == PERCPU_COUNTER_FOLDING) {
			cpu_relax();
			old = READ_ONCE(*pcount);
		}
	} while (!try_cmpxchg(pcount, &old, 0));
}

static inline void percpu_counter_count_set(struct percpu_counter *fbc,
					    s64 amount)
{
	atomic64_set(&fbc->count, amount);
}

#else	/* !PERCPU_COUNTER_LOCKLESS */
/*
 * 32-bit architectures and CONFIG_GENERIC_ATOMIC64: fbc->count is a plain
 * s64, every fold and every exact reader takes fbc->lock.
 */
static void percpu_counter_fold_locked(struct percpu_counter *fbc,
				       s32 *pcount, s64 amount)
{
	lockdep_assert_held(&fbc->lock);
	fbc->count += *pcount + amount;
	*pcount = 0;
}

static bool percpu_counter_fold(struct percpu_counter *fbc, s32 *pcount,
				s64 amount)
{
	lockdep_assert_irqs_disabled();

	raw_spin_lock(&fbc->lock);
	percpu_counter_fold_locked(fbc, pcount, amount);
	raw_spin_unlock(&fbc->lock);
	return true;
}

static inline bool percpu_counter_try_sum(struct percpu_counter *fbc,
					  s64 *sum)
{
	return false;
}

/* Exact sum, plus @ret; inlined: near its limit every limited add runs it */
static __always_inline s64
percpu_counter_sum_locked(struct percpu_counter *fbc, s64 ret)
{
	int cpu;

	ret += fbc->count;
	for_each_cpu_or(cpu, cpu_online_mask, cpu_dying_mask)
		ret += *per_cpu_ptr(fbc->counters, cpu);
	return ret;
}

static inline void percpu_counter_block_folds(struct percpu_counter *fbc) { }
static inline void percpu_counter_unblock_folds(struct percpu_counter *fbc) { }

static __always_inline void
percpu_counter_fold_held(struct percpu_counter *fbc, s64 amount)
{
	s32 count = __this_cpu_read(*fbc->counters);

	__this_cpu_write(*fbc->counters, 0);
	fbc->count += count + amount;
}

static inline void percpu_counter_zero_delta(s32 *pcount)
{
	*pcount = 0;
}

static inline void percpu_counter_count_set(struct percpu_counter *fbc,
					    s64 amount)
{
	fbc->count = amount;
}
#endif	/* PERCPU_COUNTER_LOCKLESS */

/* Fold this CPU's delta and @amount under fbc->lock */
static noinline void percpu_counter_fold_slow(struct percpu_counter *fbc,
					      s64 amount)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&fbc->lock, flags);
	percpu_counter_fold_locked(fbc, this_cpu_ptr(fbc->counters), amount);
	raw_spin_unlock_irqrestore(&fbc->lock, flags);
}

/*
 * Set the counter to @amount and discard all per-CPU deltas, atomically with
 * respect to percpu_counter_sum() and to folds.  As before, a fast path add
 * racing with the reset of its own CPU's delta may undo that reset: the fast
 * path is not atomic against other CPUs.
 */
void percpu_counter_set(struct percpu_counter *fbc, s64 amount)
{
	unsigned long flags;
	int cpu;

	raw_spin_lock_irqsave(&fbc->lock, flags);
	percpu_counter_block_folds(fbc);
	for_each_possible_cpu(cpu)
		percpu_counter_zero_delta(per_cpu_ptr(fbc->counters, cpu));
	percpu_counter_count_set(fbc, amount);
	percpu_counter_unblock_folds(fbc);
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
	unsigned long flags;

	count = this_cpu_read(*fbc->counters);
	do {
		if (unlikely(abs(count + amount) >= batch)) {
			bool done;

			local_irq_save(flags);
			/*
			 * Note: by now we might have migrated to another CPU
			 * or the value might have changed; the fold takes
			 * whatever this CPU has pending.
			 */
			done = percpu_counter_fold(fbc,
						   this_cpu_ptr(fbc->counters),
						   amount);
			local_irq_restore(flags);
			if (unlikely(!done))
				percpu_counter_fold_slow(fbc, amount);
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
	bool done = true;

	local_irq_save(flags);
	count = __this_cpu_read(*fbc->counters) + amount;
	if (abs(count) >= batch)
		done = percpu_counter_fold(fbc, this_cpu_ptr(fbc->counters),
					   amount);
	else
		this_cpu_add(*fbc->counters, amount);
	local_irq_restore(flags);
	if (unlikely(!done))
		percpu_counter_fold_slow(fbc, amount);
}
#endif
EXPORT_SYMBOL(percpu_counter_add_batch);

/*
 * For percpu_counter with a big batch, the devication of its count could
 * be big, and there is requirement to reduce the deviation, like when the
 * counter's batch could be runtime decreased to get a better accuracy,
 * which can be achieved by running this sync function on each CPU (from a
 * task bound to it: a fold that finds folds blocked completes after
 * interrupts are enabled again, on whichever CPU the task is then).
 */
void percpu_counter_sync(struct percpu_counter *fbc)
{
	unsigned long flags;
	bool done = true;

	local_irq_save(flags);
	/* Marked: percpu_counter_set() may zero it from another CPU */
	if (READ_ONCE(*this_cpu_ptr(fbc->counters)))
		done = percpu_counter_fold(fbc, this_cpu_ptr(fbc->counters), 0);
	local_irq_restore(flags);
	if (unlikely(!done))
		percpu_counter_fold_slow(fbc, 0);
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
 * Without lockless folds this takes fbc->lock, as it always did.  With them
 * it first tries lockless passes (see percpu_counter_try_sum()), which no
 * fold waits for; only if folds keep interfering does it take fbc->lock.
 */
s64 __percpu_counter_sum(struct percpu_counter *fbc)
{
	unsigned long flags;
	s64 ret;

	local_irq_save(flags);
	if (!percpu_counter_try_sum(fbc, &ret) &&
	    !percpu_counter_try_sum(fbc, &ret)) {
		raw_spin_lock(&fbc->lock);
		percpu_counter_block_folds(fbc);
		ret = percpu_counter_sum_locked(fbc, 0);
		percpu_counter_unblock_folds(fbc);
		raw_spin_unlock(&fbc->lock);
	}
	local_irq_restore(flags);
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
		atomic_set(&fbc[i].seq, 0);
#endif
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
		s32 *pcount = per_cpu_ptr(fbc->counters, cpu);
		unsigned long flags;

		/*
		 * Under fbc->lock with interrupts disabled, which
		 * spin_lock_irq() does not guarantee on PREEMPT_RT: a reader
		 * must never wait for a fold whose task was preempted.  Only
		 * lock holders write a dead CPU's delta.
		 */
		raw_spin_lock_irqsave(&fbc->lock, flags);
		if (*pcount)
			percpu_counter_fold_locked(fbc, pcount, 0);
		raw_spin_unlock_irqrestore(&fbc->lock, flags);
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
	/* A negative batch gives a huge margin: the exact sum decides */
	if (abs(count - rhs) > mul_u32_u32(batch, num_online_cpus())) {
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
 * The decision and the update are made under fbc->lock, from an exact sum
 * taken with folds held off until the update: limited adds that take this
 * slow path (all those that come within batch * num_online_cpus() of the
 * limit do) never overshoot it together.  Interrupts are disabled for one
 * lock acquisition and at most one pass over the CPUs.
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
	/* A negative batch gives a huge @unknown: the exact sum decides */
	unknown = mul_u32_u32(batch, num_online_cpus());
	count = __this_cpu_read(*fbc->counters);

	/* Skip taking the lock when safe */
	if (abs(count + amount) <= batch &&
	    ((amount > 0 && percpu_counter_read(fbc) + unknown <= limit) ||
	     (amount < 0 && percpu_counter_read(fbc) - unknown >= limit))) {
		this_cpu_add(*fbc->counters, amount);
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

	if (good) {
		/* Fold this CPU's delta with the amount, as the fast path would */
		percpu_counter_fold_locked(fbc, this_cpu_ptr(fbc->counters),
					   amount);
		goto out;
	}

	percpu_counter_block_folds(fbc);
	count = percpu_counter_sum_locked(fbc, amount);
	if (amount > 0 ? count <= limit : count >= limit) {
		percpu_counter_fold_held(fbc, amount);
		good = true;
	}
	percpu_counter_unblock_folds(fbc);
out:
	raw_spin_unlock(&fbc->lock);
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
