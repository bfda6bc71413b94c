// SPDX-License-Identifier: GPL-2.0

/*
 * CPU accounting code for task groups.
 *
 * Based on the work by Paul Menage (menage@google.com) and Balbir Singh
 * (balbir@in.ibm.com).
 *
 * Each group keeps per-CPU totals for itself and its subtree: a charge is
 * added to the task's group and to each of its ancestors, so that a read
 * costs one visit per CPU whatever the number of groups.
 *
 * A reset does not write the totals, which the charging CPU adds to
 * without a lock shared with the resetting one: it stores the group's
 * current count in ->base[], which reads subtract.  So a charge that races
 * with a reset is counted before it or after it, never lost nor undone,
 * and a reset zeroes the group's view only.  Resets of a group are
 * serialized by its ->reset_lock, so that ->base[] only grows, as the
 * counts do.
 *
 * Ordering, on 64-bit: a reset reads a count, then stores it in ->base[]
 * with smp_store_release(), which is A-cumulative: a reader that loads the
 * new base with smp_load_acquire() reads the count after it, and sees at
 * least the charges the reset saw, never a count below the base.  The
 * counts are plain additions by their CPU (or under its rq->lock), which
 * do not tear an aligned u64 on 64-bit: readers load them with
 * data_race(READ_ONCE()).  On 32-bit, where a u64 may tear, a CPU's usage
 * and ->base[] are read and written under its rq->lock, and its user and
 * system times, which its tick adds to without that lock, under
 * ->tick_sync as well.
 *
 * Context switches are counted as usage is charged, under the rq->lock,
 * where __schedule() counts rq->nr_switches, which is the root's count.
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

/* The counters of a group, per CPU */
enum cpuacct_counter {
	CPUACCT_USAGE,		/* runtime, ns, charged under the rq->lock */
	CPUACCT_USER,		/* USER + NICE, ns, charged at the tick */
	CPUACCT_SYSTEM,		/* SYSTEM + IRQ + SOFTIRQ, ns, the same */
	CPUACCT_SWITCHES,	/* switches away from tasks, as usage */

	CPUACCT_NR_COUNTERS,
};

static const enum cpuacct_counter cpuacct_stat_counter[] = {
	[CPUACCT_STAT_USER] = CPUACCT_USER,
	[CPUACCT_STAT_SYSTEM] = CPUACCT_SYSTEM,
};

#define CPUACCT_TIMES	(BIT(CPUACCT_USAGE) | BIT(CPUACCT_USER) | \
			 BIT(CPUACCT_SYSTEM))
#define CPUACCT_TICK	(BIT(CPUACCT_USER) | BIT(CPUACCT_SYSTEM))

/*
 * Per-CPU counters of a group: 64 bytes on 64-bit.  Usage comes first, at
 * the offset the charge has always used.
 */
struct cpuacct_usage {
	u64			tot[CPUACCT_NR_COUNTERS];  /* the subtree's */
	u64			base[CPUACCT_NR_COUNTERS]; /* taken by resets */
	struct u64_stats_sync	tick_sync;	/* tot[] of CPUACCT_TICK, 32-bit */
};

/* track CPU usage of a group of tasks and its child groups */
struct cpuacct {
	struct cgroup_subsys_state	css;
	/* cpuusage holds pointer to a cpuacct_usage object on every CPU */
	struct cpuacct_usage __percpu	*cpuusage;
	struct mutex			reset_lock;	/* serializes resets */
};

static inline struct cpuacct *css_ca(struct cgroup_subsys_state *css)
{
	return css ? container_of(css, struct cpuacct, css) : NULL;
}

/* Return CPU accounting group to which this task belongs */
static inline struct cpuacct *task_ca(struct task_struct *tsk)
{
	return css_ca(task_css(tsk, cpuacct_cgrp_id));
}

static inline struct cpuacct *parent_ca(struct cpuacct *ca)
{
	return css_ca(ca->css.parent);
}

static DEFINE_PER_CPU(struct cpuacct_usage, root_cpuacct_cpuusage);
static struct cpuacct root_cpuacct = {
	.cpuusage	= &root_cpuacct_cpuusage,
	.reset_lock	= __MUTEX_INITIALIZER(root_cpuacct.reset_lock),
};

static inline bool cpuacct_is_root(struct cpuacct *ca)
{
	return ca == &root_cpuacct;
}

/*
 * Enabled when the first non-root group is created.  Until then every task
 * is in the root group, whose switches are rq->nr_switches, and
 * cpuacct_count_switch() has nothing to do.  Left on once groups have
 * existed: each flip patches __schedule()'s text and syncs every CPU with
 * an IPI, which should not happen at every mkdir and rmdir of a lone group.
 */
DEFINE_STATIC_KEY_FALSE(cpuacct_switch_key);

/* Create a new CPU accounting group */
static struct cgroup_subsys_state *
cpuacct_css_alloc(struct cgroup_subsys_state *parent_css)
{
	struct cpuacct *ca;
	int cpu;

	if (!parent_css)
		return &root_cpuacct.css;

	ca = kzalloc(sizeof(*ca), GFP_KERNEL);
	if (!ca)
		return ERR_PTR(-ENOMEM);

	ca->cpuusage = alloc_percpu(struct cpuacct_usage);
	if (!ca->cpuusage) {
		kfree(ca);
		return ERR_PTR(-ENOMEM);
	}
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(ca->cpuusage, cpu)->tick_sync);
	mutex_init(&ca->reset_lock);

	/* static_branch_enable() takes cpus_read_lock() even if enabled */
	if (!static_key_enabled(&cpuacct_switch_key))
		static_branch_enable(&cpuacct_switch_key);

	return &ca->css;
}

/* Destroy an existing CPU accounting group */
static void cpuacct_css_free(struct cgroup_subsys_state *css)
{
	struct cpuacct *ca = css_ca(css);

	mutex_destroy(&ca->reset_lock);
	free_percpu(ca->cpuusage);
	kfree(ca);
}

/* On 32-bit, a CPU's usage and ->base[] are under its rq->lock */
static inline void cpuacct_lock_cpu(int cpu)
{
#ifndef CONFIG_64BIT
	raw_spin_rq_lock_irq(cpu_rq(cpu));
#endif
}

static inline void cpuacct_unlock_cpu(int cpu)
{
#ifndef CONFIG_64BIT
	raw_spin_rq_unlock_irq(cpu_rq(cpu));
#endif
}

/*
 * Counter @i of @cu, as charged; on 32-bit, its CPU's rq->lock held.  Its
 * writers' plain additions do not tear it on 64-bit (see the top comment).
 */
static __always_inline u64 cpuacct_count(struct cpuacct_usage *cu,
					 enum cpuacct_counter i)
{
	unsigned int seq;
	u64 val;

	if (!(CPUACCT_TICK & BIT(i)))
		/* A plain addition's store: whole on 64-bit */
		return data_race(READ_ONCE(cu->tot[i]));
	do {
		seq = u64_stats_fetch_begin(&cu->tick_sync);
		/* Same */
		val = data_race(READ_ONCE(cu->tot[i]));
	} while (u64_stats_fetch_retry(&cu->tick_sync, seq));
	return val;
}

static u64 cpuacct_root_read(int cpu, enum cpuacct_counter i)
{
	u64 *cpustat = kcpustat_cpu(cpu).cpustat;

	switch (i) {
	case CPUACCT_USER:
		/* Plain adds by @cpu, not under its rq->lock: may tear on 32-bit */
		return data_race(cpustat[CPUTIME_USER] + cpustat[CPUTIME_NICE]);
	case CPUACCT_SYSTEM:
		/* Same */
		return data_race(cpustat[CPUTIME_SYSTEM] +
				 cpustat[CPUTIME_IRQ] +
				 cpustat[CPUTIME_SOFTIRQ]);
	case CPUACCT_SWITCHES:
		/* rq->nr_switches++ under the rq->lock, not a marked access */
		return data_race(cpu_rq(cpu)->nr_switches);
	default:
		return cpuacct_count(per_cpu_ptr(&root_cpuacct_cpuusage, cpu), i);
	}
}

/*
 * Counter @i of @ca on @cpu, less what resets of @ca took: what @ca's
 * subtree was charged on @cpu since @ca's last reset; on 32-bit, @cpu's
 * rq->lock held.  The root's counters are the system-wide ones
 * (/proc/stat's), and never reset.
 */
static __always_inline u64 cpuacct_read_locked(struct cpuacct *ca, int cpu,
					       enum cpuacct_counter i)
{
	struct cpuacct_usage *cu = per_cpu_ptr(ca->cpuusage, cpu);
	u64 base;

	if (cpuacct_is_root(ca))
		return cpuacct_root_read(cpu, i);
#ifdef CONFIG_64BIT
	/* Pairs with cpuacct_cpuusage_write(): before the count */
	base = smp_load_acquire(&cu->base[i]);
#else
	base = cu->base[i];
#endif
	return cpuacct_count(cu, i) - base;
}

static u64 cpuacct_cpuusage_read(struct cpuacct *ca, int cpu,
				 enum cpuacct_counter i)
{
	u64 val;

	cpuacct_lock_cpu(cpu);
	val = cpuacct_read_locked(ca, cpu, i);
	cpuacct_unlock_cpu(cpu);

	return val;
}

/* Reset the counters of @mask of @ca on @cpu; ->reset_lock held */
static void cpuacct_cpuusage_write(struct cpuacct *ca, int cpu,
				   unsigned long mask)
{
	struct cpuacct_usage *cu = per_cpu_ptr(ca->cpuusage, cpu);
	int i;

	lockdep_assert_held(&ca->reset_lock);

	cpuacct_lock_cpu(cpu);
	for_each_set_bit(i, &mask, CPUACCT_NR_COUNTERS) {
#ifdef CONFIG_64BIT
		/* After the count's read: see the top comment */
		smp_store_release(&cu->base[i], cpuacct_count(cu, i));
#else
		cu->base[i] = cpuacct_count(cu, i);
#endif
	}
	cpuacct_unlock_cpu(cpu);
}

/* Return total CPU usage (in nanoseconds) of a group */
static u64 __cpuusage_read(struct cgroup_subsys_state *css,
			   enum cpuacct_counter index)
{
	struct cpuacct *ca = css_ca(css);
	u64 totalcpuusage = 0;
	int i;

	for_each_possible_cpu(i)
		totalcpuusage += cpuacct_cpuusage_read(ca, i, index);

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

static int cpuacct_reset(struct cgroup_subsys_state *css, u64 val,
			 unsigned long mask)
{
	struct cpuacct *ca = css_ca(css);
	int cpu;

	/*
	 * Only allow '0' here to do a reset.
	 */
	if (val)
		return -EINVAL;

	/* Don't allow to reset global kernel_cpustat */
	if (cpuacct_is_root(ca))
		return 0;

	mutex_lock(&ca->reset_lock);
	for_each_possible_cpu(cpu)
		cpuacct_cpuusage_write(ca, cpu, mask);
	mutex_unlock(&ca->reset_lock);

	return 0;
}

static int cpuusage_write(struct cgroup_subsys_state *css, struct cftype *cft,
			  u64 val)
{
	return cpuacct_reset(css, val, CPUACCT_TIMES);
}

static int __cpuacct_percpu_seq_show(struct seq_file *m,
				     enum cpuacct_counter index)
{
	struct cpuacct *ca = css_ca(seq_css(m));
	u64 percpu;
	int i;

	for_each_possible_cpu(i) {
		percpu = cpuacct_cpuusage_read(ca, i, index);
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
		u64 val[CPUACCT_STAT_NSTATS];

		cpuacct_lock_cpu(cpu);
		for (index = 0; index < CPUACCT_STAT_NSTATS; index++) {
			enum cpuacct_counter i = cpuacct_stat_counter[index];

			val[index] = cpuacct_read_locked(ca, cpu, i);
		}
		cpuacct_unlock_cpu(cpu);

		seq_printf(m, "%d", cpu);
		for (index = 0; index < CPUACCT_STAT_NSTATS; index++)
			seq_printf(m, " %llu", val[index]);
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
		cpuacct_lock_cpu(cpu);
		cputime.utime += cpuacct_read_locked(ca, cpu, CPUACCT_USER);
		cputime.stime += cpuacct_read_locked(ca, cpu, CPUACCT_SYSTEM);
		cputime.sum_exec_runtime +=
			cpuacct_read_locked(ca, cpu, CPUACCT_USAGE);
		cpuacct_unlock_cpu(cpu);
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
	return cpuacct_reset(css, val, BIT(CPUACCT_SWITCHES));
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
 * charge this task's execution time to its accounting group.
 *
 * called with rq->lock held.
 */
void cpuacct_charge(struct task_struct *tsk, u64 cputime)
{
	unsigned int cpu = task_cpu(tsk);
	struct cpuacct *ca;

	lockdep_assert_rq_held(cpu_rq(cpu));

	/* A plain add: see the top comment */
	for (ca = task_ca(tsk); ca; ca = parent_ca(ca))
		per_cpu_ptr(ca->cpuusage, cpu)->tot[CPUACCT_USAGE] += cputime;
}

/*
 * Count a context switch away from @prev, on this CPU, whose rq->lock is
 * held with irqs off (an RCU read-side section for task_css()): one
 * addition per level, as cpuacct_charge().  The root's count is
 * rq->nr_switches.  Called through cpuacct_count_switch() (sched.h).
 */
void __cpuacct_count_switch(struct task_struct *prev)
{
	struct cpuacct *ca;

	for (ca = task_ca(prev); ca != &root_cpuacct; ca = parent_ca(ca))
		__this_cpu_inc(ca->cpuusage->tot[CPUACCT_SWITCHES]);
}

/*
 * Add user/system time to cpuacct.
 *
 * Note: it's the caller that updates the account of the root cgroup.
 *
 * Only USER + NICE (user) and SYSTEM + IRQ + SOFTIRQ (system) are kept: no
 * cpuacct file ever showed the other indexes.  Those are accounted on the
 * CPU that ran the time, with irqs disabled; FORCEIDLE, the one index
 * that is not (__sched_core_account_forceidle() charges a sibling CPU's
 * tasks), is dropped before any per-CPU access.
 */
void cpuacct_account_field(struct task_struct *tsk, int index, u64 val)
{
	enum cpuacct_counter i;
	struct cpuacct *ca;

	switch (index) {
	case CPUTIME_USER:
	case CPUTIME_NICE:
		i = CPUACCT_USER;
		break;
	case CPUTIME_SYSTEM:
	case CPUTIME_IRQ:
	case CPUTIME_SOFTIRQ:
		i = CPUACCT_SYSTEM;
		break;
	default:
		return;
	}
	for (ca = task_ca(tsk); ca != &root_cpuacct; ca = parent_ca(ca)) {
#ifdef CONFIG_64BIT
		__this_cpu_add(ca->cpuusage->tot[i], val);
#else
		struct cpuacct_usage *cu = this_cpu_ptr(ca->cpuusage);

		/* The only writer: this CPU, irqs off */
		u64_stats_update_begin(&cu->tick_sync);
		cu->tot[i] += val;
		u64_stats_update_end(&cu->tick_sync);
#endif
	}
}

struct cgroup_subsys cpuacct_cgrp_subsys = {
	.css_alloc	= cpuacct_css_alloc,
	.css_free	= cpuacct_css_free,
	.legacy_cftypes	= files,
	.early_init	= true,
};
