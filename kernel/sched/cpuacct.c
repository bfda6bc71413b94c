// SPDX-License-Identifier: GPL-2.0

/*
 * CPU accounting code for task groups.
 *
 * Based on the work by Paul Menage (menage@google.com) and Balbir Singh
 * (balbir@in.ibm.com).
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

/*
 * Per-CPU counters of a group.  CPU time is charged to the group and to all
 * its ancestors at once.  Context switches are counted in the group of the
 * task only, in ->nr_switches, and summed up the hierarchy when read, by
 * cgroup rstat: see __cpuacct_count_switch() and cpuacct_switches_fold().
 *
 * Aligned so that ->usage and ->nr_switches share a cache line: __schedule()
 * charges prev's runtime to ->usage (cpuacct_charge()) right before counting
 * its switch-out in ->nr_switches.  The other fields are only accessed by
 * rstat flushes and by the readers and writers of the cpuacct.nr_switches*
 * files.
 */
struct cpuacct_usage {
	u64	usage;		/* CPU time in ns */
	u64	nr_switches;	/* switches away from the group's own tasks */
	u64	nr_switches_last;	/* ->nr_switches at the last fold */
	u64	nr_switches_pending;	/* from children, not yet folded */
	u64	nr_switches_subtree;	/* group and descendants: the files */
} __aligned(2 * sizeof(u64));

/* track CPU usage of a group of tasks and its child groups */
struct cpuacct {
	struct cgroup_subsys_state	css;
	/* cpuusage holds pointer to a cpuacct_usage object on every CPU */
	struct cpuacct_usage __percpu	*cpuusage;
	struct kernel_cpustat __percpu	*cpustat;
};

/*
 * Enabled while a non-root group exists.  Until then every task is in the
 * root group, whose switches are counted in rq->nr_switches only, and
 * cpuacct_count_switch() has nothing to do.  Taken in css_alloc and dropped
 * in css_free, like memcg's keys: a css outlives the last task that can be
 * switched out in it, exiting tasks included.
 */
DEFINE_STATIC_KEY_FALSE(cpuacct_switch_key);

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

/* The nr_switches fields are unused: the root's count is rq->nr_switches */
static DEFINE_PER_CPU(struct cpuacct_usage, root_cpuacct_cpuusage);
struct cpuacct root_cpuacct = {
	.cpustat	= &kernel_cpustat,
	.cpuusage	= &root_cpuacct_cpuusage,
};

/* cpuacct_count_switch() compares a task's css with &root_cpuacct */
static_assert(offsetof(struct cpuacct, css) == 0);

/* Create a new CPU accounting group */
static struct cgroup_subsys_state *
cpuacct_css_alloc(struct cgroup_subsys_state *parent_css)
{
	struct cpuacct *ca;

	if (!parent_css)
		return &root_cpuacct.css;

	ca = kzalloc(sizeof(*ca), GFP_KERNEL);
	if (!ca)
		goto out;

	ca->cpuusage = alloc_percpu(struct cpuacct_usage);
	if (!ca->cpuusage)
		goto out_free_ca;

	ca->cpustat = alloc_percpu(struct kernel_cpustat);
	if (!ca->cpustat)
		goto out_free_cpuusage;

	static_branch_inc(&cpuacct_switch_key);
	return &ca->css;

out_free_cpuusage:
	free_percpu(ca->cpuusage);
out_free_ca:
	kfree(ca);
out:
	return ERR_PTR(-ENOMEM);
}

/* Destroy an existing CPU accounting group */
static void cpuacct_css_free(struct cgroup_subsys_state *css)
{
	struct cpuacct *ca = css_ca(css);

	static_branch_dec(&cpuacct_switch_key);
	free_percpu(ca->cpustat);
	free_percpu(ca->cpuusage);
	kfree(ca);
}

static u64 cpuacct_cpuusage_read(struct cpuacct *ca, int cpu,
				 enum cpuacct_stat_index index)
{
	u64 *cpuusage = &per_cpu_ptr(ca->cpuusage, cpu)->usage;
	u64 *cpustat = per_cpu_ptr(ca->cpustat, cpu)->cpustat;
	u64 data;

	/*
	 * We allow index == CPUACCT_STAT_NSTATS here to read
	 * the sum of usages.
	 */
	if (WARN_ON_ONCE(index > CPUACCT_STAT_NSTATS))
		return 0;

#ifndef CONFIG_64BIT
	/*
	 * Take rq->lock to make 64-bit read safe on 32-bit platforms.
	 */
	raw_spin_rq_lock_irq(cpu_rq(cpu));
#endif

	switch (index) {
	case CPUACCT_STAT_USER:
		data = cpustat[CPUTIME_USER] + cpustat[CPUTIME_NICE];
		break;
	case CPUACCT_STAT_SYSTEM:
		data = cpustat[CPUTIME_SYSTEM] + cpustat[CPUTIME_IRQ] +
			cpustat[CPUTIME_SOFTIRQ];
		break;
	case CPUACCT_STAT_NSTATS:
		data = *cpuusage;
		break;
	}

#ifndef CONFIG_64BIT
	raw_spin_rq_unlock_irq(cpu_rq(cpu));
#endif

	return data;
}

static void cpuacct_cpuusage_write(struct cpuacct *ca, int cpu)
{
	u64 *cpuusage = &per_cpu_ptr(ca->cpuusage, cpu)->usage;
	u64 *cpustat = per_cpu_ptr(ca->cpustat, cpu)->cpustat;

	/* Don't allow to reset global kernel_cpustat */
	if (ca == &root_cpuacct)
		return;

#ifndef CONFIG_64BIT
	/*
	 * Take rq->lock to make 64-bit write safe on 32-bit platforms.
	 */
	raw_spin_rq_lock_irq(cpu_rq(cpu));
#endif
	*cpuusage = 0;
	cpustat[CPUTIME_USER] = cpustat[CPUTIME_NICE] = 0;
	cpustat[CPUTIME_SYSTEM] = cpustat[CPUTIME_IRQ] = 0;
	cpustat[CPUTIME_SOFTIRQ] = 0;

#ifndef CONFIG_64BIT
	raw_spin_rq_unlock_irq(cpu_rq(cpu));
#endif
}

/* Return total CPU usage (in nanoseconds) of a group */
static u64 __cpuusage_read(struct cgroup_subsys_state *css,
			   enum cpuacct_stat_index index)
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
	return __cpuusage_read(css, CPUACCT_STAT_USER);
}

static u64 cpuusage_sys_read(struct cgroup_subsys_state *css,
			     struct cftype *cft)
{
	return __cpuusage_read(css, CPUACCT_STAT_SYSTEM);
}

static u64 cpuusage_read(struct cgroup_subsys_state *css, struct cftype *cft)
{
	return __cpuusage_read(css, CPUACCT_STAT_NSTATS);
}

static int cpuusage_write(struct cgroup_subsys_state *css, struct cftype *cft,
			  u64 val)
{
	struct cpuacct *ca = css_ca(css);
	int cpu;

	/*
	 * Only allow '0' here to do a reset.
	 */
	if (val)
		return -EINVAL;

	for_each_possible_cpu(cpu)
		cpuacct_cpuusage_write(ca, cpu);

	return 0;
}

static int __cpuacct_percpu_seq_show(struct seq_file *m,
				     enum cpuacct_stat_index index)
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
	return __cpuacct_percpu_seq_show(m, CPUACCT_STAT_USER);
}

static int cpuacct_percpu_sys_seq_show(struct seq_file *m, void *V)
{
	return __cpuacct_percpu_seq_show(m, CPUACCT_STAT_SYSTEM);
}

static int cpuacct_percpu_seq_show(struct seq_file *m, void *V)
{
	return __cpuacct_percpu_seq_show(m, CPUACCT_STAT_NSTATS);
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
			seq_printf(m, " %llu",
				   cpuacct_cpuusage_read(ca, cpu, index));
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
		u64 *cpustat = per_cpu_ptr(ca->cpustat, cpu)->cpustat;

		cputime.utime += cpustat[CPUTIME_USER];
		cputime.utime += cpustat[CPUTIME_NICE];
		cputime.stime += cpustat[CPUTIME_SYSTEM];
		cputime.stime += cpustat[CPUTIME_IRQ];
		cputime.stime += cpustat[CPUTIME_SOFTIRQ];

		cputime.sum_exec_runtime += per_cpu_ptr(ca->cpuusage, cpu)->usage;
	}

	cputime_adjust(&cputime, &seq_css(sf)->cgroup->prev_cputime,
		&val[CPUACCT_STAT_USER], &val[CPUACCT_STAT_SYSTEM]);

	for (stat = 0; stat < CPUACCT_STAT_NSTATS; stat++) {
		seq_printf(sf, "%s %llu\n", cpuacct_stat_desc[stat],
			nsec_to_clock_t(val[stat]));
	}

	return 0;
}

/*
 * On 32-bit platforms, the rq->lock of a CPU makes the 64-bit accesses to
 * the context switch counters of that CPU safe: they are all made under it
 * there, the increments in __schedule() included.  On 64-bit platforms,
 * the counters are read with READ_ONCE() and need no lock.
 */
#ifdef CONFIG_64BIT
static inline unsigned long cpuacct_switches_lock(int cpu)
{
	return 0;
}

static inline void cpuacct_switches_unlock(int cpu, unsigned long flags) { }
#else
static inline unsigned long cpuacct_switches_lock(int cpu)
{
	unsigned long flags;

	raw_spin_rq_lock_irqsave(cpu_rq(cpu), flags);
	return flags;
}

static inline void cpuacct_switches_unlock(int cpu, unsigned long flags)
{
	raw_spin_rq_unlock_irqrestore(cpu_rq(cpu), flags);
}
#endif

/**
 * cpuacct_switches_fold - fold a group's new context switches on a CPU
 * @ca: the group, not the root group
 * @cpu: the CPU
 *
 * Add to @ca's subtree total on @cpu the switches counted in @ca itself
 * on @cpu since the last fold and those its children passed on since then,
 * and pass them on to @ca's parent, unless that is the root group.  This is
 * cgroup rstat's flush of @ca on @cpu; rstat flushes children before their
 * parents, so a flush of a group's subtree leaves its totals up to date.
 *
 * Called with cgroup_rstat_lock held, by a flush or under
 * cgroup_rstat_flush_hold(): the lock serializes all the updates of
 * ->nr_switches_{last,pending,subtree} with each other.  ->nr_switches is
 * only written by @cpu, under its rq->lock.
 *
 * Return: the number of switches passed on to the parent.
 */
static u64 cpuacct_switches_fold(struct cpuacct *ca, int cpu)
{
	struct cpuacct_usage *cu = per_cpu_ptr(ca->cpuusage, cpu);
	struct cpuacct *parent = parent_ca(ca);
	struct cpuacct_usage *pcu;
	unsigned long flags;
	u64 own, delta;

	flags = cpuacct_switches_lock(cpu);

	own = READ_ONCE(cu->nr_switches);
	delta = own - cu->nr_switches_last + cu->nr_switches_pending;
	cu->nr_switches_last = own;
	cu->nr_switches_pending = 0;
	if (delta) {
		WRITE_ONCE(cu->nr_switches_subtree,
			   cu->nr_switches_subtree + delta);
		if (parent != &root_cpuacct) {
			pcu = per_cpu_ptr(parent->cpuusage, cpu);
			pcu->nr_switches_pending += delta;
		} else {
			delta = 0;
		}
	}

	cpuacct_switches_unlock(cpu, flags);

	return delta;
}

static void cpuacct_css_rstat_flush(struct cgroup_subsys_state *css, int cpu)
{
	struct cpuacct *ca = css_ca(css);

	/* The root group's count is rq->nr_switches */
	if (ca != &root_cpuacct)
		cpuacct_switches_fold(ca, cpu);
}

/*
 * A removed group's switches must reach its parent, as its CPU time did.
 * css_release_work_fn() flushed the group's cgroup just before this, but
 * rstat only flushes the groups marked updated: in __schedule(), the test
 * of whether the group is still marked on the CPU may be ordered before the
 * increment, so a switch racing with a flush of its CPU may be left
 * unmarked.  It would be folded after the next switch in the group on that
 * CPU, but there is none in a released group: fold it now, and mark the
 * parent on the CPU for it.
 *
 * Nothing else writes the group's counters any more: it has no tasks and
 * no children left, and is on no CPU's updated tree after that flush.  So
 * they can be checked without locks, to only hold off flushes, for the
 * update of the parent's counters, in the rare case of a leftover.
 */
static void cpuacct_css_released(struct cgroup_subsys_state *css)
{
	struct cpuacct *ca = css_ca(css);
	struct cgroup *parent = css->parent->cgroup;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct cpuacct_usage *cu = per_cpu_ptr(ca->cpuusage, cpu);

		if (cu->nr_switches != cu->nr_switches_last ||
		    cu->nr_switches_pending)
			break;
	}
	if (cpu >= nr_cpu_ids)
		return;

	cgroup_rstat_flush_hold(css->cgroup);
	for_each_possible_cpu(cpu) {
		if (cpuacct_switches_fold(ca, cpu))
			__cgroup_rstat_updated(parent, cpu);
	}
	cgroup_rstat_flush_release(css->cgroup);
}

/*
 * The root group counts every switch on the CPU: rq->nr_switches, which
 * also backs nr_context_switches() and /proc/stat's ctxt.  Other groups
 * report their subtree totals, up to date after cpuacct_switches_flush().
 */
static u64 cpuacct_nr_switches_read(struct cpuacct *ca, int cpu)
{
	struct cpuacct_usage *cu = per_cpu_ptr(ca->cpuusage, cpu);
	unsigned long flags;
	u64 data;

	flags = cpuacct_switches_lock(cpu);

	if (ca == &root_cpuacct)
		data = cpu_rq(cpu)->nr_switches;
	else
		data = READ_ONCE(cu->nr_switches_subtree);

	cpuacct_switches_unlock(cpu, flags);

	return data;
}

/* Bring the subtree totals of @ca up to date; may sleep */
static void cpuacct_switches_flush(struct cpuacct *ca)
{
	if (ca != &root_cpuacct)
		cgroup_rstat_flush(ca->css.cgroup);
}

static u64 nr_switches_read(struct cgroup_subsys_state *css,
			    struct cftype *cft)
{
	struct cpuacct *ca = css_ca(css);
	u64 total = 0;
	int cpu;

	cpuacct_switches_flush(ca);
	for_each_possible_cpu(cpu)
		total += cpuacct_nr_switches_read(ca, cpu);

	return total;
}

static int nr_switches_write(struct cgroup_subsys_state *css,
			     struct cftype *cft, u64 val)
{
	struct cpuacct *ca = css_ca(css);
	int cpu;

	/*
	 * Only allow '0' here to do a reset.
	 */
	if (val)
		return -EINVAL;

	/*
	 * The root's count is rq->nr_switches, which must not be reset:
	 * ignore the reset, as cpuacct.usage does for the root.
	 */
	if (ca == &root_cpuacct)
		return 0;

	/*
	 * Zero the subtree totals after a flush, holding off other flushes:
	 * they are the only other writers of the totals, so the reset is
	 * exact.  A switch folded before it is zeroed, any other one is
	 * counted after it.  The switches of the group and of its children
	 * stay in their own counters, and those the group passed on stay in
	 * its ancestors, so only this group is reset.
	 */
	cgroup_rstat_flush_hold(css->cgroup);
	for_each_possible_cpu(cpu) {
		struct cpuacct_usage *cu = per_cpu_ptr(ca->cpuusage, cpu);
		unsigned long flags;

		flags = cpuacct_switches_lock(cpu);
		WRITE_ONCE(cu->nr_switches_subtree, 0);
		cpuacct_switches_unlock(cpu, flags);
	}
	cgroup_rstat_flush_release(css->cgroup);

	return 0;
}

static int cpuacct_nr_switches_percpu_show(struct seq_file *m, void *v)
{
	struct cpuacct *ca = css_ca(seq_css(m));
	int cpu;

	cpuacct_switches_flush(ca);
	for_each_possible_cpu(cpu)
		seq_printf(m, "%llu ", cpuacct_nr_switches_read(ca, cpu));
	seq_puts(m, "\n");
	return 0;
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

	for (ca = task_ca(tsk); ca; ca = parent_ca(ca))
		per_cpu_ptr(ca->cpuusage, cpu)->usage += cputime;
}

/**
 * __cpuacct_count_switch - count a context switch away from a task
 * @rq: the runqueue of this CPU, locked
 * @prev: the task switched out, not in the root group
 *
 * Called by cpuacct_count_switch() from __schedule(), on the CPU of @rq
 * with rq->lock held and irqs disabled: as in cpuacct_charge(), that keeps
 * the task's css_set and groups alive and satisfies task_css()'s checks.
 *
 * The switch is counted in @prev's group only, whatever its depth: one
 * per-CPU increment, and marking the group updated on this CPU for cgroup
 * rstat, which returns at once unless the group's switches on this CPU have
 * been flushed since it was last marked.  The ancestors are only updated
 * when the counts are read, by rstat flushes (cpuacct_switches_fold()).
 * Charging the ancestors here, as cpuacct_charge() does for CPU time, would
 * cost every switch a walk up the hierarchy, O(depth) work in __schedule():
 * the objection raised in review to earlier per-group switch counts.  With
 * rstat, a switch costs the same at any depth, and reads pay instead.
 *
 * Lock order: rq->lock, then rstat's per-CPU lock, taken by
 * __cgroup_rstat_updated() when it has to mark the group.  The same order
 * as cgroup_account_cputime() from update_curr().
 */
void __cpuacct_count_switch(struct rq *rq, struct task_struct *prev)
{
	struct cgroup_subsys_state *css = task_css(prev, cpuacct_cgrp_id);
	struct cgroup *cgrp = css->cgroup;

	lockdep_assert_rq_held(rq);

	__this_cpu_inc(css_ca(css)->cpuusage->nr_switches);

	/*
	 * __cgroup_rstat_updated() starts with this speculative test of
	 * whether the group is still marked on this CPU: made here, it saves
	 * the call in the usual case, where it is.
	 */
	if (!data_race(this_cpu_ptr(cgrp->rstat_cpu)->updated_next))
		__cgroup_rstat_updated(cgrp, cpu_of(rq));
}

/*
 * Add user/system time to cpuacct.
 *
 * Note: it's the caller that updates the account of the root cgroup.
 */
void cpuacct_account_field(struct task_struct *tsk, int index, u64 val)
{
	struct cpuacct *ca;

	for (ca = task_ca(tsk); ca != &root_cpuacct; ca = parent_ca(ca))
		__this_cpu_add(ca->cpustat->cpustat[index], val);
}

struct cgroup_subsys cpuacct_cgrp_subsys = {
	.css_alloc	= cpuacct_css_alloc,
	.css_released	= cpuacct_css_released,
	.css_free	= cpuacct_css_free,
	.css_rstat_flush = cpuacct_css_rstat_flush,
	.legacy_cftypes	= files,
	.early_init	= true,
};
