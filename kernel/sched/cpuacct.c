// SPDX-License-Identifier: GPL-2.0

/*
 * CPU accounting code for task groups.
 *
 * Based on the work by Paul Menage (menage@google.com) and Balbir Singh
 * (balbir@in.ibm.com).
 *
 * Every event is charged once, to the per-CPU counters of the task's own
 * group, whatever its depth; the hierarchical totals the files show are
 * summed over the group's subtree when a file is read.  The root group is
 * the exception: its counters are the system-wide ones (its per-CPU
 * usage, charged for every task; kernel_cpustat; rq->nr_switches), and
 * reading them walks nothing.
 *
 * A group's value on a CPU, for each counter, is
 *
 *	sum over D in subtree(G) of (own(D) + aux(D))
 *
 * where own(D) is what D's own tasks were charged and aux(D) what D's
 * removed children handed over to it (cpuacct_handover()), minus what
 * resets of D took away (cpuacct_reset()).  A reset of G subtracts the
 * value of G from aux(G) and adds it to aux(parent), so that G's view is
 * zero, its descendants' are untouched, and its ancestors' do not change.
 *
 * Locking:
 *
 *  - own() of a CPU is written by that CPU's accounting only: usage and
 *    nr_switches under the CPU's rq->lock (cpuacct_charge() may run for a
 *    remote rq), user and system by the CPU itself with irqs disabled
 *    (the tick and vtime); and zeroed by the hand-over, once no charge
 *    can come, in a write section of cpuacct_seq.  Readers do not lock
 *    them: on 64-bit a u64 is read whole; on 32-bit each of the two kinds
 *    of writers has its own u64_stats_sync, so a read never tears and
 *    never blocks a writer.
 *
 *  - aux() of a CPU is only written under cpuacct_mutex, inside write
 *    sections of that CPU's cpuacct_seq; the groups' own tree
 *    (children/sibling, linked at css_online, unlinked after the
 *    hand-over) under cpuacct_tree_lock, and, but for the root's children,
 *    only where a group whose counts are all zero comes or goes.  Readers
 *    of a CPU walk the tree under RCU and retry when that CPU's
 *    cpuacct_seq moved, so they see each hand-over and each reset of the
 *    CPU either not at all or whole; after a few retries, they walk
 *    under cpuacct_mutex instead, so they cannot be starved.  Resets
 *    walk the same way and take the mutex to check that nothing was
 *    written since, then write; a hand-over takes it for one CPU at a
 *    time, from cpuacct's own work item, so that no other controller's
 *    css_free waits for it.
 *
 * Nothing ever sums the root's tree: the root's counters are the
 * system-wide ones, and it cannot be reset.  Its children may include
 * groups of an unmounted hierarchy whose hand-over is still pending.
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

/* vals[] of cpuacct_read() are indexed by both */
static_assert((int)CPUACCT_USER == (int)CPUACCT_STAT_USER &&
	      (int)CPUACCT_SYSTEM == (int)CPUACCT_STAT_SYSTEM);

#define CPUACCT_TIMES	(BIT(CPUACCT_USER) | BIT(CPUACCT_SYSTEM) | \
			 BIT(CPUACCT_USAGE))

/*
 * Enabled when the first non-root group is created.  Until then every task
 * is in the root group, whose switches are counted in rq->nr_switches only,
 * and cpuacct_count_switch() (sched.h) has nothing to do.  It is left on
 * once groups have existed: each flip patches __schedule() on every CPU,
 * which should not happen on every mkdir and rmdir of a lone group, and a
 * root task then pays three loads, a compare and a branch.
 */
DEFINE_STATIC_KEY_FALSE(cpuacct_switch_key);

/* Serializes the writers of aux(); see the top comment */
static DEFINE_MUTEX(cpuacct_mutex);
/*
 * Serializes the tree's list updates: css_online only links a group whose
 * counts are all zero, which changes no sum, so it takes this alone, and
 * mkdir (under cgroup_mutex) never waits for a reader holding
 * cpuacct_mutex.
 */
static DEFINE_SPINLOCK(cpuacct_tree_lock);
/*
 * Per CPU: a hand-over or reset writes one CPU's counts, a reader reads one
 * CPU's, so readers only retry for writes to the CPU they read.
 */
static DEFINE_PER_CPU(seqcount_mutex_t, cpuacct_seq) =
	SEQCNT_MUTEX_ZERO(cpuacct_seq, &cpuacct_mutex);

/* Removed groups whose counts are yet to be handed over, and who does it */
static LLIST_HEAD(cpuacct_free_list);
static void cpuacct_free_workfn(struct work_struct *work);
static DECLARE_WORK(cpuacct_free_work, cpuacct_free_workfn);

/* Optimistic reads before a reader takes cpuacct_mutex */
#define CPUACCT_READ_TRIES	3

static inline struct cpuacct *parent_ca(struct cpuacct *ca)
{
	return css_ca(ca->css.parent);
}

/*
 * The root's ->own[USAGE] counts every task; its other counters are
 * kernel_cpustat and rq->nr_switches, and its other ->own[] entries and
 * its ->aux are unused.
 */
static DEFINE_PER_CPU(struct cpuacct_usage, root_cpuacct_cpuusage);
static struct cpuacct root_cpuacct = {
	.cpuusage	= &root_cpuacct_cpuusage,
};

static inline bool cpuacct_is_root(struct cpuacct *ca)
{
	return ca == &root_cpuacct;
}

/*
 * Not for the root's: css_alloc runs for it before the per-CPU areas and
 * the possible CPUs are set up, and once they are, CPUs charge it.  Its
 * zeroed static per-CPU seqcounts are valid; lockdep keys them by address.
 */
static void cpuacct_init_syncs(struct cpuacct_usage __percpu *cpuusage)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		u64_stats_init(&per_cpu_ptr(cpuusage, cpu)->rq_sync);
		u64_stats_init(&per_cpu_ptr(cpuusage, cpu)->tick_sync);
	}
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

/*
 * Link the group into cpuacct's tree, where readers of its ancestors find
 * it: no task can be in it before, and ->css.parent, which readers follow
 * back up, is set by now.  All zero: linking it changes no sum, so no
 * write section.
 */
static int cpuacct_css_online(struct cgroup_subsys_state *css)
{
	struct cpuacct *ca = css_ca(css);

	if (!css->parent)
		return 0;

	spin_lock(&cpuacct_tree_lock);
	hlist_add_head_rcu(&ca->sibling, &parent_ca(ca)->children);
	spin_unlock(&cpuacct_tree_lock);
	return 0;
}

/*
 * Hand a removed group's counts over to its parent.
 *
 * Only after css_free can no more charges come: css_free runs an RCU grace
 * period after css_release, which runs once the last reference is gone.  A
 * task holds its css_set, hence the css, until it is freed, after its last
 * switch; and a charge to a task that was just moved away (update_curr()
 * read task_css() before the move) runs under an rq->lock, irqs off, i.e.
 * in an RCU read-side critical section, which the grace period waits for.
 * At css_release there could still be such a charge in flight, and cgroup
 * core has already unlinked the css from its parent's children there:
 * that is why cpuacct keeps its own tree, in which the group stays visible
 * to readers until its counts have been handed over.  Its children were
 * handed over before it: they pin it, and cpuacct_css_free() queues groups
 * in the order cgroup core frees them, children first.
 *
 * Per CPU, in one write section of that CPU's cpuacct_seq, the group's own
 * and aux counts are added to the parent's aux and zeroed: a reader of
 * that CPU's value sees them once, in the group or in the parent, never
 * both nor neither, and readers of other CPUs are not affected.  Then the
 * group, now zero on every CPU, is unlinked, and freed after a grace
 * period, as readers may still be walking it.  Nothing to hand over, no
 * write section: to the root, which counts every task already and whose
 * tree is never summed (its children are unlinked with their counts), and
 * on a CPU where the group's counts are all zero.  They are
 * stable: no charge comes any more, nor any reset (the group's files are
 * gone), and its children were handed over before, by this worker.
 *
 *	reader of P, CPU c		hand-over of C
 *	seq = read_seqcount_begin()
 *	sum += own(P) + aux(P)
 *					write_seqcount_begin()
 *					aux(P) += own(C) + aux(C)
 *					own(C) = aux(C) = 0
 *					write_seqcount_end()
 *	sum += own(C) + aux(C)	(0)
 *	read_seqcount_retry(seq): retry, C's counts now in aux(P)
 */
static bool cpuacct_usage_zero(struct cpuacct_usage *cu)
{
	int i;

	for (i = 0; i < CPUACCT_NR_COUNTERS; i++)
		if (cu->own[i] || cu->aux[i])
			return false;
	return true;
}

static void cpuacct_handover(struct cpuacct *ca)
{
	struct cpuacct *parent = parent_ca(ca);
	int cpu, i;

	if (cpuacct_is_root(parent))
		goto unlink;
	for_each_possible_cpu(cpu) {
		struct cpuacct_usage *cu = per_cpu_ptr(ca->cpuusage, cpu);
		struct cpuacct_usage *pcu = per_cpu_ptr(parent->cpuusage, cpu);
		seqcount_mutex_t *seqc = per_cpu_ptr(&cpuacct_seq, cpu);

		if (cpuacct_usage_zero(cu))
			continue;
		mutex_lock(&cpuacct_mutex);
		write_seqcount_begin(seqc);
		for (i = 0; i < CPUACCT_NR_COUNTERS; i++) {
			WRITE_ONCE(pcu->aux[i], pcu->aux[i] +
				   cu->own[i] + cu->aux[i]);
			WRITE_ONCE(cu->own[i], 0);
			WRITE_ONCE(cu->aux[i], 0);
		}
		write_seqcount_end(seqc);
		mutex_unlock(&cpuacct_mutex);
		cond_resched();
	}
	/*
	 * Zero everywhere now, or a child of the root: unlinking it changes
	 * no sum.  Not linked if cgroup creation failed before css_online.
	 */
unlink:
	spin_lock(&cpuacct_tree_lock);
	if (!hlist_unhashed(&ca->sibling))
		hlist_del_rcu(&ca->sibling);
	spin_unlock(&cpuacct_tree_lock);
}

static void cpuacct_free_rcu(struct rcu_head *rcu)
{
	struct cpuacct *ca = container_of(rcu, struct cpuacct, rcu);

	free_percpu(ca->cpuusage);
	kfree(ca);
}

/* Hand over the removed groups, in the order they were removed */
static void cpuacct_free_workfn(struct work_struct *work)
{
	struct llist_node *list = llist_del_all(&cpuacct_free_list);
	struct cpuacct *ca, *next;

	list = llist_reverse_order(list);
	llist_for_each_entry_safe(ca, next, list, free_node) {
		cpuacct_handover(ca);
		/* ->rcu takes the place of ->free_node */
		call_rcu(&ca->rcu, cpuacct_free_rcu);
		/* Many groups may come at once, most with nothing to hand over */
		cond_resched();
	}
}

/*
 * Destroy an existing CPU accounting group.  The hand-over takes
 * cpuacct_mutex, which resets and readers may hold: css_free runs on
 * cgroup_free_wq, shared by all controllers, so leave it to cpuacct's own
 * work item.  The group stays in cpuacct's tree, with its counts, until
 * then.  Of the css, only ->parent is used, which the parent's own later
 * hand-over keeps alive; ->cgroup dangles from here on, as cgroup core
 * frees the cgroup.
 */
static void cpuacct_css_free(struct cgroup_subsys_state *css)
{
	struct cpuacct *ca = css_ca(css);

	if (llist_add(&ca->free_node, &cpuacct_free_list))
		queue_work(system_unbound_wq, &cpuacct_free_work);
}

/*
 * A group's own counters on @cpu, read whole: on 64-bit, each u64 is
 * written by one writer at a time, whole; on 32-bit, the writers of a CPU
 * (the two kinds of them, see the top comment) bump their u64_stats_sync.
 */
static void cpuacct_own_read(struct cpuacct_usage *cu, u64 *vals)
{
	unsigned int seq;

	do {
		seq = u64_stats_fetch_begin(&cu->rq_sync);
		vals[CPUACCT_USAGE] = READ_ONCE(cu->own[CPUACCT_USAGE]);
		vals[CPUACCT_SWITCHES] = READ_ONCE(cu->own[CPUACCT_SWITCHES]);
	} while (u64_stats_fetch_retry(&cu->rq_sync, seq));

	do {
		seq = u64_stats_fetch_begin(&cu->tick_sync);
		vals[CPUACCT_USER] = READ_ONCE(cu->own[CPUACCT_USER]);
		vals[CPUACCT_SYSTEM] = READ_ONCE(cu->own[CPUACCT_SYSTEM]);
	} while (u64_stats_fetch_retry(&cu->tick_sync, seq));
}

/*
 * The next group of @root's subtree after @pos, in pre-order; under RCU.
 * An unlinked group still leads on to its old next sibling.
 */
static struct cpuacct *cpuacct_next_pre(struct cpuacct *pos,
					struct cpuacct *root)
{
	struct hlist_node *next;

	next = rcu_dereference(hlist_first_rcu(&pos->children));
	while (!next && pos != root) {
		next = rcu_dereference(hlist_next_rcu(&pos->sibling));
		pos = parent_ca(pos);
	}
	return next ? hlist_entry(next, struct cpuacct, sibling) : NULL;
}

/* Sum own() + aux() over @ca's subtree on @cpu into @vals */
static void cpuacct_subtree_sum(struct cpuacct *ca, int cpu, u64 *vals)
{
	struct cpuacct *pos;
	int i;

	memset(vals, 0, CPUACCT_NR_COUNTERS * sizeof(*vals));
	for (pos = ca; pos; pos = cpuacct_next_pre(pos, ca)) {
		struct cpuacct_usage *cu = per_cpu_ptr(pos->cpuusage, cpu);
		u64 own[CPUACCT_NR_COUNTERS];

		cpuacct_own_read(cu, own);
		for (i = 0; i < CPUACCT_NR_COUNTERS; i++)
			vals[i] += own[i] + READ_ONCE(cu->aux[i]);
	}
}

/*
 * The root's counters on @cpu: the system-wide ones.  On 32-bit,
 * kernel_cpustat and rq->nr_switches are read under the rq->lock, which
 * keeps rq->nr_switches, always written under it, from tearing:
 * kernel_cpustat is also written without it (tick, irq time) and may tear,
 * as in /proc/stat.  A constant time, whatever the number of groups; on
 * 32-bit, with irqs off.
 */
static void cpuacct_root_read(int cpu, u64 *vals)
{
	u64 *cpustat = kcpustat_cpu(cpu).cpustat;
	struct rq *rq = cpu_rq(cpu);
	u64 own[CPUACCT_NR_COUNTERS];

	cpuacct_own_read(per_cpu_ptr(root_cpuacct.cpuusage, cpu), own);
	vals[CPUACCT_USAGE] = own[CPUACCT_USAGE];

#ifndef CONFIG_64BIT
	raw_spin_rq_lock_irq(rq);
#endif
	/* Plain per-CPU adds by @cpu, whole on 64-bit */
	vals[CPUACCT_USER] = data_race(cpustat[CPUTIME_USER] +
				       cpustat[CPUTIME_NICE]);
	/* Same */
	vals[CPUACCT_SYSTEM] = data_race(cpustat[CPUTIME_SYSTEM] +
					 cpustat[CPUTIME_IRQ] +
					 cpustat[CPUTIME_SOFTIRQ]);
	/* rq->nr_switches++ under the rq->lock, not a marked access */
	vals[CPUACCT_SWITCHES] = data_race(rq->nr_switches);
#ifndef CONFIG_64BIT
	raw_spin_rq_unlock_irq(rq);
#endif
}

/*
 * Sum @ca's subtree on @cpu into @vals, seeing each hand-over and reset of
 * @cpu whole: optimistically, then, if writers kept coming, holding them
 * off with cpuacct_mutex.  With @hold, it returns with cpuacct_mutex held
 * and no write to @cpu's aux() since the walk, so that a reset can write
 * what it read; the mutex then only covers a walk in the fallback.
 */
static void cpuacct_subtree_read(struct cpuacct *ca, int cpu, u64 *vals,
				 bool hold)
{
	seqcount_mutex_t *seqc = per_cpu_ptr(&cpuacct_seq, cpu);
	unsigned int seq;
	int tries;

	/* See the top comment: the root's tree is not to be summed */
	WARN_ON_ONCE(cpuacct_is_root(ca));
	for (tries = 0; tries < CPUACCT_READ_TRIES; tries++) {
		/* Outside RCU: on PREEMPT_RT, this may take cpuacct_mutex */
		seq = read_seqcount_begin(seqc);
		rcu_read_lock();
		cpuacct_subtree_sum(ca, cpu, vals);
		rcu_read_unlock();
		if (hold)
			mutex_lock(&cpuacct_mutex);
		if (!read_seqcount_retry(seqc, seq))
			return;
		if (hold)
			mutex_unlock(&cpuacct_mutex);
	}

	mutex_lock(&cpuacct_mutex);
	rcu_read_lock();
	cpuacct_subtree_sum(ca, cpu, vals);
	rcu_read_unlock();
	if (!hold)
		mutex_unlock(&cpuacct_mutex);
}

/**
 * cpuacct_read - the counters of a group on a CPU, as its files show them
 * @ca: the group
 * @cpu: the CPU
 * @vals: CPUACCT_NR_COUNTERS values
 *
 * The sum over @ca's subtree (see the top comment), read without locks
 * unless hand-overs and resets of @cpu keep the reader retrying.  Cost:
 * the subtree's groups, live and removed but not yet handed over, times
 * one or two per-CPU cache lines; the root is read in constant time.
 * Callers read each possible CPU in turn and may sleep in between.
 * Process context.
 */
static void cpuacct_read(struct cpuacct *ca, int cpu, u64 *vals)
{
	if (cpuacct_is_root(ca))
		cpuacct_root_read(cpu, vals);
	else
		cpuacct_subtree_read(ca, cpu, vals, false);
}

static u64 cpuacct_read_one(struct cpuacct *ca, int cpu,
			    enum cpuacct_counter idx)
{
	u64 vals[CPUACCT_NR_COUNTERS];

	cpuacct_read(ca, cpu, vals);
	return vals[idx];
}

/**
 * cpuacct_reset - zero a group's view of some of its counters
 * @ca: the group, not the root
 * @mask: BIT() of the counters to reset
 *
 * Per CPU, subtract the group's current value v from its aux and add v to
 * its parent's (not the root's, which counts every task anyway), in one
 * write section: the group then reads 0 plus what was charged in its
 * subtree after its counters were read, the parent's value does not
 * change (-v + v), and nor do the descendants'.  No aux count of the CPU,
 * hence v, changed between the read and the write (see
 * cpuacct_subtree_read()); a charge that races with the read of its
 * counter is counted before the reset or after it, never lost.
 */
static void cpuacct_reset(struct cpuacct *ca, unsigned long mask)
{
	struct cpuacct *parent = parent_ca(ca);
	u64 vals[CPUACCT_NR_COUNTERS];
	int cpu, i;

	for_each_possible_cpu(cpu) {
		struct cpuacct_usage *cu = per_cpu_ptr(ca->cpuusage, cpu);
		struct cpuacct_usage *pcu = per_cpu_ptr(parent->cpuusage, cpu);
		seqcount_mutex_t *seqc = per_cpu_ptr(&cpuacct_seq, cpu);

		cpuacct_subtree_read(ca, cpu, vals, true);
		write_seqcount_begin(seqc);
		for_each_set_bit(i, &mask, CPUACCT_NR_COUNTERS) {
			WRITE_ONCE(cu->aux[i], cu->aux[i] - vals[i]);
			if (!cpuacct_is_root(parent))
				WRITE_ONCE(pcu->aux[i], pcu->aux[i] + vals[i]);
		}
		write_seqcount_end(seqc);
		mutex_unlock(&cpuacct_mutex);
		cond_resched();
	}
}

/* Return total CPU usage (in nanoseconds) of a group */
static u64 __cpuusage_read(struct cgroup_subsys_state *css,
			   enum cpuacct_counter index)
{
	struct cpuacct *ca = css_ca(css);
	u64 totalcpuusage = 0;
	int i;

	for_each_possible_cpu(i) {
		totalcpuusage += cpuacct_read_one(ca, i, index);
		cond_resched();
	}

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
		percpu = cpuacct_read_one(ca, i, index);
		seq_printf(m, "%llu ", (unsigned long long) percpu);
		cond_resched();
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
	u64 vals[CPUACCT_NR_COUNTERS];
	int index;
	int cpu;

	seq_puts(m, "cpu");
	for (index = 0; index < CPUACCT_STAT_NSTATS; index++)
		seq_printf(m, " %s", cpuacct_stat_desc[index]);
	seq_puts(m, "\n");

	for_each_possible_cpu(cpu) {
		cpuacct_read(ca, cpu, vals);
		seq_printf(m, "%d", cpu);
		for (index = 0; index < CPUACCT_STAT_NSTATS; index++)
			seq_printf(m, " %llu", vals[index]);
		seq_puts(m, "\n");
		cond_resched();
	}
	return 0;
}

static int cpuacct_stats_show(struct seq_file *sf, void *v)
{
	struct cpuacct *ca = css_ca(seq_css(sf));
	struct task_cputime cputime;
	u64 vals[CPUACCT_NR_COUNTERS];
	u64 val[CPUACCT_STAT_NSTATS];
	int cpu;
	int stat;

	memset(&cputime, 0, sizeof(cputime));
	for_each_possible_cpu(cpu) {
		cpuacct_read(ca, cpu, vals);
		cputime.utime += vals[CPUACCT_USER];
		cputime.stime += vals[CPUACCT_SYSTEM];
		cputime.sum_exec_runtime += vals[CPUACCT_USAGE];
		cond_resched();
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
 * Add @val to counter @idx of @cpuusage on @cpu, whose rq->lock is held,
 * which serializes the counter's writers: a plain add, stored whole for
 * readers that READ_ONCE() it; on 32-bit, under ->rq_sync.
 */
static inline void cpuacct_rq_add(struct cpuacct_usage __percpu *cpuusage,
				  int cpu, enum cpuacct_counter idx, u64 val)
{
	struct cpuacct_usage *cu = per_cpu_ptr(cpuusage, cpu);

	u64_stats_update_begin(&cu->rq_sync);
	WRITE_ONCE(cu->own[idx], cu->own[idx] + val);
	u64_stats_update_end(&cu->rq_sync);
}

/*
 * charge this task's execution time to its accounting group.
 *
 * called with rq->lock held.
 *
 * One addition to the root's usage, which counts every task, and one to
 * the task's group, whatever its depth.
 */
void cpuacct_charge(struct task_struct *tsk, u64 cputime)
{
	unsigned int cpu = task_cpu(tsk);
	struct cgroup_subsys_state *css = task_css(tsk, cpuacct_cgrp_id);

	lockdep_assert_rq_held(cpu_rq(cpu));

	cpuacct_rq_add(&root_cpuacct_cpuusage, cpu, CPUACCT_USAGE, cputime);
	if (css != &root_cpuacct.css)
		cpuacct_rq_add(css_ca(css)->cpuusage, cpu, CPUACCT_USAGE,
			       cputime);
}

/*
 * Add user/system time to cpuacct.
 *
 * Note: it's the caller that updates the account of the root cgroup.
 *
 * Called on the CPU that accounts the time, with irqs disabled: one
 * addition to the task's group, whatever its depth.  cpuacct only shows
 * USER + NICE (user) and SYSTEM + IRQ + SOFTIRQ (system): the other
 * indexes are not charged.
 */
void cpuacct_account_field(struct task_struct *tsk, int index, u64 val)
{
	struct cgroup_subsys_state *css = task_css(tsk, cpuacct_cgrp_id);
	struct cpuacct_usage *cu;
	enum cpuacct_counter idx;

	if (css == &root_cpuacct.css)
		return;

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
	cu = this_cpu_ptr(css_ca(css)->cpuusage);
	u64_stats_update_begin(&cu->tick_sync);
	/* The only writer, as in cpuacct_rq_add() */
	WRITE_ONCE(cu->own[idx], cu->own[idx] + val);
	u64_stats_update_end(&cu->tick_sync);
}

struct cgroup_subsys cpuacct_cgrp_subsys = {
	.css_alloc	= cpuacct_css_alloc,
	.css_online	= cpuacct_css_online,
	.css_free	= cpuacct_css_free,
	.legacy_cftypes	= files,
	.early_init	= true,
};
