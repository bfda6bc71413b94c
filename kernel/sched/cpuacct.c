// SPDX-License-Identifier: GPL-2.0

/*
 * CPU accounting code for task groups.
 *
 * Based on the work by Paul Menage (menage@google.com) and Balbir Singh
 * (balbir@in.ibm.com).
 *
 * Each group keeps per-CPU totals, ->tot[], for itself and its subtree, as
 * earlier kernels did, so that a read costs one visit per CPU whatever the
 * number of groups.  What changes is how the scheduler's charges (usage
 * and switches, under the rq->lock) reach them: each CPU has a cursor, the
 * group it charged last and what it charged that group since, ->pend[].
 * A charge to the cursor's group is one addition to ->pend[]; a charge to
 * another group adds ->pend[] to ->tot[] of the cursor's group and of each
 * of its ancestors, then makes the charged group the cursor.  So the
 * scheduler walks the hierarchy when a CPU goes from a task of one group to
 * a task of another, not at every update of a task's runtime.  A task of
 * the root group (a kthread, mostly) leaves a cursor that names another
 * group where it is: its usage goes to the root's ->tot[] straight away.
 * A read of G on a CPU adds ->pend[] to G's ->tot[] if the cursor's group
 * is in G's subtree (an O(1) test of cgroup levels and ancestors[]).
 *
 * User and system time, charged by the CPU itself with irqs off at tick
 * rate (with VIRT_CPU_ACCOUNTING_NATIVE, at switches too), are still added
 * to ->tot[] of the group and of each ancestor, as 6.12 did.  The
 * root's user, system and switch counts are the system-wide ones
 * (kernel_cpustat, rq->nr_switches); its usage is that of every task.
 *
 * A reset does not write ->tot[]: it stores the group's current value in
 * ->base[], which reads subtract, so that it zeroes the group's view and no
 * one else's.  A removed group needs nothing handed over: its charges are
 * in its ancestors' ->tot[] already, or in a cursor's ->pend[], which
 * cpuacct_css_free() adds to them.
 *
 * Locking and ordering:
 *
 *  - A CPU's cursor and the usage and switch counts of ->tot[] on that CPU
 *    are written under its rq->lock: a move inside a write section of the
 *    cursor's seqcount, ->pend[] and a root task's usage on their own on
 *    64-bit, each stored whole (a reader reads it before or after the add;
 *    see cpuacct_pend_switch() for the switch count), inside one on 32-bit.
 *    Readers retry when a move raced with them, so each charge is in
 *    ->pend[] or in ->tot[] for them, never both nor neither:
 *
 *	reader of P, CPU c		charge to X on CPU c, cursor A < P
 *	seq = read_seqcount_begin()
 *	v = tot(P)			write_seqcount_begin()
 *					tot(A..root) += pend
 *					cursor = X, pend = delta
 *					write_seqcount_end()
 *	cursor X not under P: v += 0
 *	read_seqcount_retry(seq): retry, pend now in tot(P)
 *
 *  - User and system in ->tot[] are written by their CPU only, with irqs
 *    off; on 32-bit under ->tick_sync.
 *
 *  - ->base[] is written by resets only, with no lock on 64-bit: it only
 *    grows, as the counts do, so of two racing resets the later read wins
 *    whichever stores last.  The store is a cmpxchg() after the read of the
 *    value it stores (fully ordered, hence A-cumulative: it orders the
 *    writes that read saw, too); readers load it with smp_load_acquire()
 *    before they read the counts (read_seqcount_begin() is an acquire,
 *    which orders nothing before it), so a reader that sees a new base
 *    sees the counts it was read from, and never a value below it.  On
 *    32-bit, where a u64 may tear, resets store it under the rq->lock in a
 *    write section of the cursor's seqcount, after an smp_mb() for the
 *    same reason, and readers read it in a read section, whose retry's
 *    smp_rmb() orders it before the counts.
 *
 * Readers take no lock but RCU's (on 32-bit, the root's user, system and
 * switch counts take the rq->lock, as in 6.12) and write nothing: a read
 * of a group on a CPU is a few loads of that CPU's cursor and of the
 * group's per-CPU counters.
 */

/* Time spent by the tasks of the CPU accounting group executing in ... */
enum cpuacct_stat_index {
	CPUACCT_STAT_USER,	/* ... user mode */
	CPUACCT_STAT_SYSTEM,	/* ... kernel mode */

	CPUACCT_STAT_NSTATS,
};

static const char * const cpuacct_stat_desc[] = {
	[CPUACCT_STAT_USER] = "user",
	[CPUACCT_STAT_SYSTEM] = "system",
};

/* cpuacct_all_seq_show() passes the one for the other */
static_assert((int)CPUACCT_USER == (int)CPUACCT_STAT_USER &&
	      (int)CPUACCT_SYSTEM == (int)CPUACCT_STAT_SYSTEM);

#define CPUACCT_TIMES	(BIT(CPUACCT_USER) | BIT(CPUACCT_SYSTEM) | \
			 BIT(CPUACCT_USAGE))

/*
 * Enabled when the first non-root group is created.  Until then every task
 * is in the root group, whose switches are counted in rq->nr_switches only,
 * and cpuacct_count_switch() (sched.h) has nothing to do.  It is left on
 * once groups have existed: each flip patches __schedule()'s text and
 * syncs every CPU with an IPI, which should not happen on every mkdir and
 * rmdir of a lone group.
 */
DEFINE_STATIC_KEY_FALSE(cpuacct_switch_key);

DEFINE_PER_CPU_SHARED_ALIGNED(struct cpuacct_cursor, cpuacct_cursor) = {
	.seq = SEQCNT_ZERO(cpuacct_cursor.seq),
};

static inline struct cpuacct *parent_ca(struct cpuacct *ca)
{
	return css_ca(ca->css.parent);
}

static DEFINE_PER_CPU(struct cpuacct_usage, root_cpuacct_cpuusage);
static struct cpuacct root_cpuacct = {
	.cpuusage	= &root_cpuacct_cpuusage,
};

static inline bool cpuacct_is_root(struct cpuacct *ca)
{
	return ca == &root_cpuacct;
}

/* The task's group: callers run with irqs off, an RCU read-side section */
static inline struct cpuacct *task_ca(struct task_struct *tsk)
{
	return css_ca(task_css(tsk, cpuacct_cgrp_id));
}

/*
 * Not for the root's: css_alloc runs for it before the per-CPU areas and
 * the possible CPUs are set up.  Its u64_stats_sync are never used.
 */
static void cpuacct_init_syncs(struct cpuacct_usage __percpu *cpuusage)
{
	int cpu;

	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(cpuusage, cpu)->tick_sync);
}

static struct cgroup_subsys_state *
cpuacct_css_alloc(struct cgroup_subsys_state *parent_css)
{
	struct cpuacct_usage __percpu *cpuusage;
	struct cpuacct *ca;

	if (!parent_css)
		return &root_cpuacct.css;

	/* Create a new CPU accounting group */
	ca = kzalloc(sizeof(*ca), GFP_KERNEL);
	if (!ca)
		return ERR_PTR(-ENOMEM);

	cpuusage = alloc_percpu(struct cpuacct_usage);
	if (!cpuusage) {
		kfree(ca);
		return ERR_PTR(-ENOMEM);
	}
	cpuacct_init_syncs(cpuusage);
	ca->cpuusage = cpuusage;

	/* static_branch_enable() takes cpus_read_lock() even if enabled */
	if (!static_key_enabled(&cpuacct_switch_key))
		static_branch_enable(&cpuacct_switch_key);
	return &ca->css;
}

/**
 * cpuacct_cursor_move - make @ca the group that @cpu charges
 * @cpu: the CPU, whose rq->lock is held
 * @ca: the group, or NULL
 * @usage: its first usage charge
 * @switches: its first switch count
 *
 * Adds what the cursor's group was charged on @cpu to ->tot[] of that group
 * and of each of its ancestors: usage and switches per level, the root's
 * usage, 2 * depth + 1 per-CPU additions, where earlier kernels made
 * depth + 1 at every charge.
 */
void cpuacct_cursor_move(int cpu, struct cpuacct *ca, u64 usage, u64 switches)
{
	struct cpuacct_cursor *cur = per_cpu_ptr(&cpuacct_cursor, cpu);
	u64 pu = cur->pend[CPUACCT_PEND(CPUACCT_USAGE)];
	u64 ps = cur->pend[CPUACCT_PEND(CPUACCT_SWITCHES)];
	struct cpuacct_usage *cu;
	struct cpuacct *pos;

	lockdep_assert_rq_held(cpu_rq(cpu));

	write_seqcount_begin(&cur->seq);
	pos = rcu_dereference_protected(cur->ca,
					lockdep_is_held(__rq_lockp(cpu_rq(cpu))));
	if (pos) {
		/*
		 * Plain adds: the rq->lock keeps out every other writer, and
		 * every reader of these counters reads them under this
		 * seqcount and retries if a move overlapped its loads.  One
		 * memory-operand add each on x86, where WRITE_ONCE() would be
		 * a load, an add and a store.
		 */
		for (; !cpuacct_is_root(pos); pos = parent_ca(pos)) {
			cu = per_cpu_ptr(pos->cpuusage, cpu);
			cu->tot[CPUACCT_USAGE] += pu;
			cu->tot[CPUACCT_SWITCHES] += ps;
		}
		/* The root's switches are rq->nr_switches */
		cu = per_cpu_ptr(&root_cpuacct_cpuusage, cpu);
		cu->tot[CPUACCT_USAGE] += pu;
	}
	/* Published, fields readers use included, by the task's ->cgroups */
	RCU_INIT_POINTER(cur->ca, ca);
	WRITE_ONCE(cur->pend[CPUACCT_PEND(CPUACCT_USAGE)], usage);
	WRITE_ONCE(cur->pend[CPUACCT_PEND(CPUACCT_SWITCHES)], switches);
	write_seqcount_end(&cur->seq);
}

static void cpuacct_free_rcu(struct rcu_head *rcu)
{
	struct cpuacct *ca = container_of(rcu, struct cpuacct, rcu);

	free_percpu(ca->cpuusage);
	kfree(ca);
}

/*
 * Destroy an existing CPU accounting group.
 *
 * css_free runs an RCU grace period after css_release, which runs once
 * the last reference is gone: a task holds its css_set, hence the css,
 * until it is freed, after its last switch; and a charge to a task that
 * was just moved away (update_curr() read task_css() before the move)
 * runs under an rq->lock, irqs off, i.e. in an RCU read-side critical
 * section, which the grace period waits for.  So no charge can make the
 * group a cursor any more, and each cursor it still is was set before the
 * grace period (RCU's grace-period ordering: the pre-check below sees the
 * last write of each cursor that named the group).  Readers may still look
 * at the group through a cursor they loaded under RCU
 * (cpuacct_in_subtree()), hence call_rcu(); ->css.cgroup outlives that:
 * cgroup core puts the cgroup after css_free, and the cgroup's own free
 * waits for another grace period (css_release_work_fn(), queue_rcu_work()).
 */
static void cpuacct_css_free(struct cgroup_subsys_state *css)
{
	struct cpuacct *ca = css_ca(css);
	int cpu;

	for_each_possible_cpu(cpu) {
		struct cpuacct_cursor *cur = per_cpu_ptr(&cpuacct_cursor, cpu);
		struct rq *rq = cpu_rq(cpu);

		if (rcu_access_pointer(cur->ca) != ca)
			continue;
		raw_spin_rq_lock_irq(rq);
		if (rcu_access_pointer(cur->ca) == ca)
			cpuacct_cursor_move(cpu, NULL, 0, 0);
		raw_spin_rq_unlock_irq(rq);
	}
	call_rcu(&ca->rcu, cpuacct_free_rcu);
}

/*
 * Is @pos, a cursor's group, in @ca's subtree?  Under RCU.  The levels and
 * @pos's ancestor at @ca's level tell, as in cgroup_is_descendant(), less
 * its test of the roots: a cursor naming the root (level 0) is in no other
 * group's subtree, and a dying group of a hierarchy cpuacct left (rebind
 * only waits for ->children to empty, before css_free) has ancestors of
 * that hierarchy, never equal to a cgroup of this one, and pinned by it.
 */
static __always_inline bool cpuacct_in_subtree(struct cpuacct *pos,
					       struct cpuacct *ca)
{
	struct cgroup *cgrp, *anc;

	if (pos == ca || cpuacct_is_root(ca))
		return true;
	cgrp = pos->css.cgroup;
	anc = ca->css.cgroup;
	return cgrp->level > anc->level && cgrp->ancestors[anc->level] == anc;
}

/* Usage or switches (@idx) of @ca on @cpu, before resets */
static __always_inline u64 cpuacct_rq_read(struct cpuacct *ca, int cpu,
					   enum cpuacct_counter idx)
{
	struct cpuacct_cursor *cur = per_cpu_ptr(&cpuacct_cursor, cpu);
	struct cpuacct_usage *cu = per_cpu_ptr(ca->cpuusage, cpu);
	struct cpuacct *pos;
	unsigned int seq;
	u64 val;

	rcu_read_lock();
	do {
		seq = read_seqcount_begin(&cur->seq);
		val = READ_ONCE(cu->tot[idx]);
		pos = rcu_dereference(cur->ca);
		if (pos && cpuacct_in_subtree(pos, ca))
			val += READ_ONCE(cur->pend[CPUACCT_PEND(idx)]);
	} while (read_seqcount_retry(&cur->seq, seq));
	rcu_read_unlock();
	return val;
}

/* User or system time (@idx) of @ca, not the root, on @cpu, before resets */
static __always_inline u64 cpuacct_tick_read(struct cpuacct *ca, int cpu,
					     enum cpuacct_counter idx)
{
	struct cpuacct_usage *cu = per_cpu_ptr(ca->cpuusage, cpu);
	unsigned int seq;
	u64 val;

	do {
		seq = u64_stats_fetch_begin(&cu->tick_sync);
		val = READ_ONCE(cu->tot[idx]);
	} while (u64_stats_fetch_retry(&cu->tick_sync, seq));
	return val;
}

static __always_inline u64 cpuacct_raw_read(struct cpuacct *ca, int cpu,
					    enum cpuacct_counter idx)
{
	if (idx == CPUACCT_USAGE || idx == CPUACCT_SWITCHES)
		return cpuacct_rq_read(ca, cpu, idx);
	return cpuacct_tick_read(ca, cpu, idx);
}

/*
 * What resets of @ca took from counter @idx on @cpu, read before the counts
 * (see the top comment).
 */
static u64 cpuacct_base_read(struct cpuacct *ca, int cpu,
			     enum cpuacct_counter idx)
{
	struct cpuacct_usage *cu = per_cpu_ptr(ca->cpuusage, cpu);
#ifdef CONFIG_64BIT
	/* Pairs with the cmpxchg() in cpuacct_base_write() */
	return smp_load_acquire(&cu->base[idx]);
#else
	seqcount_t *seqc = &per_cpu_ptr(&cpuacct_cursor, cpu)->seq;
	unsigned int seq;
	u64 val;

	do {
		seq = read_seqcount_begin(seqc);
		val = cu->base[idx];
	} while (read_seqcount_retry(seqc, seq));
	return val;
#endif
}

/*
 * Raise ->base[i] of @ca on @cpu to @vals[i], the count cpuacct_reset() read,
 * for each counter i in @mask.
 */
static void cpuacct_base_write(struct cpuacct *ca, int cpu, unsigned long mask,
			       const u64 *vals)
{
	struct cpuacct_usage *cu = per_cpu_ptr(ca->cpuusage, cpu);
	int i;
#ifdef CONFIG_64BIT
	for_each_set_bit(i, &mask, CPUACCT_NR_COUNTERS) {
		u64 old = READ_ONCE(cu->base[i]);

		/* Fully ordered after the reads: see cpuacct_base_read() */
		do {
			if (vals[i] <= old)
				break;
		} while (!try_cmpxchg(&cu->base[i], &old, vals[i]));
	}
#else
	struct cpuacct_cursor *cur = per_cpu_ptr(&cpuacct_cursor, cpu);
	struct rq *rq = cpu_rq(cpu);
	unsigned long grow = 0;

	/*
	 * Only resets raise ->base[], so a CPU where none of @vals exceeds
	 * it is left alone: a reset takes the rq->lock of the CPUs where the
	 * group was charged since the last reset, once, whatever @mask.
	 */
	for_each_set_bit(i, &mask, CPUACCT_NR_COUNTERS) {
		if (vals[i] > cpuacct_base_read(ca, cpu, i))
			__set_bit(i, &grow);
	}
	if (!grow)
		return;
	/* Orders the writes the reads of @vals saw; see the top comment */
	smp_mb();
	raw_spin_rq_lock_irq(rq);
	write_seqcount_begin(&cur->seq);
	for_each_set_bit(i, &grow, CPUACCT_NR_COUNTERS)
		cu->base[i] = max(cu->base[i], vals[i]);
	write_seqcount_end(&cur->seq);
	raw_spin_rq_unlock_irq(rq);
#endif
}

/*
 * The root's counters on @cpu: every task's usage, and the system-wide
 * counts.  On 32-bit, kernel_cpustat and rq->nr_switches are read under the
 * rq->lock, which keeps rq->nr_switches, always written under it, from
 * tearing: kernel_cpustat is also written without it (tick, irq time) and
 * may tear, as in /proc/stat.
 */
static u64 cpuacct_root_read(int cpu, enum cpuacct_counter idx)
{
	u64 *cpustat = kcpustat_cpu(cpu).cpustat;
	struct rq *rq = cpu_rq(cpu);
	u64 val;

	if (idx == CPUACCT_USAGE)
		return cpuacct_rq_read(&root_cpuacct, cpu, idx);

#ifndef CONFIG_64BIT
	raw_spin_rq_lock_irq(rq);
#endif
	switch (idx) {
	case CPUACCT_USER:
		/* Plain per-CPU adds by @cpu, whole on 64-bit */
		val = data_race(cpustat[CPUTIME_USER] + cpustat[CPUTIME_NICE]);
		break;
	case CPUACCT_SYSTEM:
		/* Same */
		val = data_race(cpustat[CPUTIME_SYSTEM] +
				cpustat[CPUTIME_IRQ] +
				cpustat[CPUTIME_SOFTIRQ]);
		break;
	default:
		/* rq->nr_switches++ under the rq->lock, not a marked access */
		val = data_race(rq->nr_switches);
		break;
	}
#ifndef CONFIG_64BIT
	raw_spin_rq_unlock_irq(rq);
#endif
	return val;
}

/**
 * cpuacct_read - a counter of a group on a CPU, as its files show it
 * @ca: the group
 * @cpu: the CPU
 * @idx: the counter
 *
 * What the group's subtree was charged on @cpu, less what resets of the
 * group took.  Constant time, whatever the number of groups; no lock, but
 * on 32-bit the rq->lock for the root's user, system and switch counts.
 */
static __always_inline u64 cpuacct_read(struct cpuacct *ca, int cpu,
					enum cpuacct_counter idx)
{
	u64 base;

	if (cpuacct_is_root(ca))
		return cpuacct_root_read(cpu, idx);
	/* Before the counts; see the top comment */
	base = cpuacct_base_read(ca, cpu, idx);
	return cpuacct_raw_read(ca, cpu, idx) - base;
}

/**
 * cpuacct_reset - zero a group's view of some of its counters
 * @ca: the group, not the root
 * @mask: BIT() of the counters to reset
 *
 * Per CPU, store the group's current count in ->base[]: the group then
 * reads what its subtree was charged after the count was read, while its
 * ancestors and descendants, whose ->tot[] and ->base[] are untouched,
 * read what they did.  A charge that races with the read is counted before
 * the reset or after it, never lost.  No lock on 64-bit (on 32-bit, the
 * rq->lock of each CPU that charged the group since its last reset): racing
 * resets of the group leave the latest count in ->base[].
 */
static void cpuacct_reset(struct cpuacct *ca, unsigned long mask)
{
	u64 vals[CPUACCT_NR_COUNTERS];
	int cpu, i;

	for_each_possible_cpu(cpu) {
		for_each_set_bit(i, &mask, CPUACCT_NR_COUNTERS)
			vals[i] = cpuacct_raw_read(ca, cpu, i);
		cpuacct_base_write(ca, cpu, mask, vals);
	}
}

/* Return total CPU usage (in nanoseconds) of a group */
static u64 __cpuusage_read(struct cgroup_subsys_state *css,
			   enum cpuacct_counter index)
{
	struct cpuacct *ca = css_ca(css);
	u64 totalcpuusage = 0;
	int i;

	for_each_possible_cpu(i)
		totalcpuusage += cpuacct_read(ca, i, index);

	return totalcpuusage;
}

static u64 cpuusage_user_read(struct cgroup_subsys_state *css,
			      struct cftype *cft)
{
	return __cpuusage_read(css, CPUACCT_USER);
}

static u64 cpuusage_sys_read(struct cgroup_subsys_state *css,
			     struct cftype *cft)
{
	return __cpuusage_read(css, CPUACCT_SYSTEM);
}

static u64 cpuusage_read(struct cgroup_subsys_state *css, struct cftype *cft)
{
	return __cpuusage_read(css, CPUACCT_USAGE);
}

/* Writing 0 to the root's counters is accepted and ignored */
static int cpuacct_reset_write(struct cgroup_subsys_state *css, u64 val,
			       unsigned long mask)
{
	struct cpuacct *ca = css_ca(css);

	/*
	 * Only allow '0' here to do a reset.
	 */
	if (val)
		return -EINVAL;

	/* Don't allow to reset global kernel_cpustat or rq->nr_switches */
	if (!cpuacct_is_root(ca))
		cpuacct_reset(ca, mask);

	return 0;
}

static int cpuusage_write(struct cgroup_subsys_state *css, struct cftype *cft,
			  u64 val)
{
	return cpuacct_reset_write(css, val, CPUACCT_TIMES);
}

static int __cpuacct_percpu_seq_show(struct seq_file *m,
				     enum cpuacct_counter index)
{
	struct cpuacct *ca = css_ca(seq_css(m));
	u64 percpu;
	int i;

	for_each_possible_cpu(i) {
		percpu = cpuacct_read(ca, i, index);
		seq_printf(m, "%llu ", (unsigned long long) percpu);
	}
	seq_printf(m, "\n");
	return 0;
}

static int cpuacct_percpu_user_seq_show(struct seq_file *m, void *V)
{
	return __cpuacct_percpu_seq_show(m, CPUACCT_USER);
}

static int cpuacct_percpu_sys_seq_show(struct seq_file *m, void *V)
{
	return __cpuacct_percpu_seq_show(m, CPUACCT_SYSTEM);
}

static int cpuacct_percpu_seq_show(struct seq_file *m, void *V)
{
	return __cpuacct_percpu_seq_show(m, CPUACCT_USAGE);
}

static int cpuacct_all_seq_show(struct seq_file *m, void *V)
{
	struct cpuacct *ca = css_ca(seq_css(m));
	int index;
	int cpu;

	seq_puts(m, "cpu");
	for (index = 0; index < CPUACCT_STAT_NSTATS; index++)
		seq_printf(m, " %s", cpuacct_stat_desc[index]);
	seq_puts(m, "\n");

	for_each_possible_cpu(cpu) {
		seq_printf(m, "%d", cpu);
		for (index = 0; index < CPUACCT_STAT_NSTATS; index++)
			seq_printf(m, " %llu", cpuacct_read(ca, cpu, index));
		seq_puts(m, "\n");
	}
	return 0;
}

static int cpuacct_stats_show(struct seq_file *sf, void *v)
{
	struct cpuacct *ca = css_ca(seq_css(sf));
	struct task_cputime cputime;
	u64 val[CPUACCT_STAT_NSTATS];
	int cpu;
	int stat;

	memset(&cputime, 0, sizeof(cputime));
	for_each_possible_cpu(cpu) {
		cputime.utime += cpuacct_read(ca, cpu, CPUACCT_USER);
		cputime.stime += cpuacct_read(ca, cpu, CPUACCT_SYSTEM);
		cputime.sum_exec_runtime += cpuacct_read(ca, cpu, CPUACCT_USAGE);
	}

	cputime_adjust(&cputime, &seq_css(sf)->cgroup->prev_cputime,
		&val[CPUACCT_STAT_USER], &val[CPUACCT_STAT_SYSTEM]);

	for (stat = 0; stat < CPUACCT_STAT_NSTATS; stat++) {
		seq_printf(sf, "%s %llu\n", cpuacct_stat_desc[stat],
			nsec_to_clock_t(val[stat]));
	}

	return 0;
}

static u64 nr_switches_read(struct cgroup_subsys_state *css,
			    struct cftype *cft)
{
	return __cpuusage_read(css, CPUACCT_SWITCHES);
}

static int nr_switches_write(struct cgroup_subsys_state *css,
			     struct cftype *cft, u64 val)
{
	return cpuacct_reset_write(css, val, BIT(CPUACCT_SWITCHES));
}

static int cpuacct_nr_switches_percpu_show(struct seq_file *m, void *v)
{
	return __cpuacct_percpu_seq_show(m, CPUACCT_SWITCHES);
}

static struct cftype files[] = {
	{
		.name = "usage",
		.read_u64 = cpuusage_read,
		.write_u64 = cpuusage_write,
	},
	{
		.name = "usage_user",
		.read_u64 = cpuusage_user_read,
	},
	{
		.name = "usage_sys",
		.read_u64 = cpuusage_sys_read,
	},
	{
		.name = "usage_percpu",
		.seq_show = cpuacct_percpu_seq_show,
	},
	{
		.name = "usage_percpu_user",
		.seq_show = cpuacct_percpu_user_seq_show,
	},
	{
		.name = "usage_percpu_sys",
		.seq_show = cpuacct_percpu_sys_seq_show,
	},
	{
		.name = "usage_all",
		.seq_show = cpuacct_all_seq_show,
	},
	{
		.name = "stat",
		.seq_show = cpuacct_stats_show,
	},
	{
		.name = "nr_switches",
		.read_u64 = nr_switches_read,
		.write_u64 = nr_switches_write,
	},
	{
		.name = "nr_switches_percpu",
		.seq_show = cpuacct_nr_switches_percpu_show,
	},
	{ }	/* terminate */
};

/*
 * Add user/system time to cpuacct.
 *
 * Note: it's the caller that updates the account of the root cgroup.
 *
 * Called on the CPU that accounts the time, with irqs disabled, at tick
 * rate (with VIRT_CPU_ACCOUNTING_NATIVE, at switches too): an addition to
 * the task's group and to each of its ancestors, as in earlier kernels.
 * Only USER + NICE (user) and SYSTEM + IRQ + SOFTIRQ (system) are kept:
 * no cpuacct file ever showed the other indexes.
 */
void cpuacct_account_field(struct task_struct *tsk, int index, u64 val)
{
	enum cpuacct_counter idx;
	struct cpuacct *ca;

	switch (index) {
	case CPUTIME_USER:
	case CPUTIME_NICE:
		idx = CPUACCT_USER;
		break;
	case CPUTIME_SYSTEM:
	case CPUTIME_IRQ:
	case CPUTIME_SOFTIRQ:
		idx = CPUACCT_SYSTEM;
		break;
	default:
		return;
	}
	for (ca = task_ca(tsk); !cpuacct_is_root(ca); ca = parent_ca(ca)) {
		struct cpuacct_usage *cu = this_cpu_ptr(ca->cpuusage);

		u64_stats_update_begin(&cu->tick_sync);
		/* The only writer: this CPU, irqs off */
		WRITE_ONCE(cu->tot[idx], cu->tot[idx] + val);
		u64_stats_update_end(&cu->tick_sync);
	}
}

struct cgroup_subsys cpuacct_cgrp_subsys = {
	.css_alloc	= cpuacct_css_alloc,
	.css_free	= cpuacct_css_free,
	.legacy_cftypes	= files,
	.early_init	= true,
};
