// SPDX-License-Identifier: GPL-2.0
/*
 * cpuacct hierarchy: a fresh group reads 0 everywhere; after busy tasks
 * in the leaves of a 3-level tree have exited, each leaf was charged its
 * task's runtime to the exit, every parent's counters are exactly the sums
 * of its children's, per CPU, and the files of each group agree with each
 * other.
 *
 * What the files hold (kernel/sched/cpuacct.c):
 *  - usage, usage_percpu: scheduler runtime (ns), charged by
 *    cpuacct_charge() to the group and all its ancestors from update_curr(),
 *    i.e. the same deltas as the task's sum_exec_runtime.
 *  - usage_user/_sys, usage_percpu_user/_sys, usage_all: the group's
 *    kernel_cpustat, USER+NICE and SYSTEM+IRQ+SOFTIRQ, in ns, charged by
 *    cpuacct_account_field() to the group and its non-root ancestors; with
 *    tick based accounting a whole tick per tick, to the current task.
 *  - stat: cputime_adjust() of (user, system, usage): usage split in the
 *    ratio user:system, so user + system == usage exactly in ns, then each
 *    is converted to USER_HZ by truncation.
 * Hence the exact relations checked here.  usage_user + usage_sys only
 * approximates usage (tick sampling), but each is exactly what the tasks'
 * own ticks add up to.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "cpuacct_util.h"

/* CPU time each leaf task burns */
#define WORK_NS		(200 * 1000 * 1000ULL)

enum { TOP, A, B, A1, A2, B1, E, NR_GROUPS };
static const char * const names[NR_GROUPS] = {
	"", "/A", "/B", "/A/A1", "/A/A2", "/B/B1", "/B/E",
};

static const int parent_of[NR_GROUPS] = { -1, TOP, TOP, A, A, B, B };

/* Leaves that run a task; E stays empty. */
static const int busy[] = { A1, A2, B1 };
#define NR_BUSY 3

static struct cg_tree tree = {
	.n = NR_GROUPS, .names = names, .parent_of = parent_of,
};

static bool has_sw;

struct work_report {
	int g;				/* the task's leaf */
	uint64_t start_ns, end_ns;	/* its CPU time around the work */
};

static struct work_report rep[NR_BUSY];
/*
 * The busy tasks' counts when they entered their leaves, blocked, and at
 * the end of their lives, exits included (reap_exact()), on reap_cpu:
 * final if exact[i].
 */
static struct task_total entry[NR_BUSY], total[NR_BUSY];
static bool exact[NR_BUSY], visible, fifo, has_ticks;
static int reap_cpu;

static bool group_reads_zero(int g)
{
	struct cg_snap s;

	if (cg_snap_read(tree.cg[g], &s) || cg_snap_read_stat(tree.cg[g], &s))
		return false;
	if (!cg_snap_is_zero(&s) || s.stat_user || s.stat_sys) {
		ksft_print_msg("%s: not all 0\n", tree.cg[g]);
		return false;
	}
	return true;
}

static int test_fresh_group_reads_zero(void)
{
	bool ok = true;
	int g;

	for (g = 0; g < NR_GROUPS; g++)
		ok &= group_reads_zero(g);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/*
 * A busy task, on any CPU of @mask until it exits: it blocks until this
 * task has moved it into its leaf (writes to @go), or enters it itself if
 * this task cannot see it blocked, then works and exits.
 */
static void __noreturn run_leaf(int g, const cpu_set_t *mask, int go,
				int res_fd)
{
	struct work_report r = { .g = g };
	char c;

	if (sched_setaffinity(0, sizeof(*mask), mask) ||
	    dup2(go, STDIN_FILENO) < 0 || read(STDIN_FILENO, &c, 1) != 1 ||
	    (!visible && cg_enter(tree.cg[g], getpid())))
		_exit(1);
	r.start_ns = thread_cputime_ns();
	burn_cpu(WORK_NS);
	r.end_ns = thread_cputime_ns();
	if (fifo)
		become_fifo_on(reap_cpu);
	if (write(res_fd, &r, sizeof(r)) != sizeof(r))
		_exit(1);
	_exit(0);
}

/*
 * Busy tasks in the leaves, not pinned while they work: both CPUs get
 * charged.  Each is moved into its leaf while it is blocked, so that its
 * counts then are exactly what it brings in; they exit on reap_cpu, where
 * this task waits for them from before they may exit.  Once they have
 * exited, their groups' counters settle.
 */
static int test_counters_settle(void)
{
	int go[NR_BUSY], res_pipe[2], ctl[2], i, j, n, status;
	pid_t pid[NR_BUSY];
	cpu_set_t mask;
	bool ok = true;

	fflush(stdout);
	signal(SIGPIPE, SIG_IGN);
	if (pipe(res_pipe) || task_affinity(0, &mask))
		ksft_exit_fail_perror("pipe");
	reap_cpu = allowed_cpu(0);
	for (i = 0; i < NR_BUSY; i++) {
		if (pipe(ctl))
			ksft_exit_fail_perror("pipe");
		pid[i] = fork();
		if (pid[i] < 0)
			ksft_exit_fail_perror("fork");
		if (!pid[i]) {
			/* Only this task may hold the write ends. */
			for (j = 0; j < i; j++)
				close(go[j]);
			close(ctl[1]);
			close(res_pipe[0]);
			run_leaf(busy[i], &mask, ctl[0], res_pipe[1]);
		}
		close(ctl[0]);
		go[i] = ctl[1];
		/* Or it enters by itself, bringing in what it cannot tell */
		if (visible &&
		    (wait_blocked_in_read(pid[i], STDIN_FILENO) ||
		     task_counts(pid[i], &entry[i]) ||
		     (has_ticks && task_ticks(pid[i], &entry[i])) ||
		     cg_enter(tree.cg[busy[i]], pid[i])))
			ksft_exit_fail_msg("busy task %d not in its leaf\n", i);
	}
	close(res_pipe[1]);
	if (fifo)
		become_fifo_on(reap_cpu);
	for (i = 0; i < NR_BUSY; i++)
		if (write(go[i], "g", 1) != 1)
			ksft_exit_fail_perror("write");
	for (i = 0; i < NR_BUSY; i++) {
		if (fifo) {
			n = reap_exact(pid[i], reap_cpu, &total[i], has_ticks);
			exact[i] = !n;
			ok &= n >= 0;
		} else {
			ok &= waitpid(pid[i], &status, 0) == pid[i] &&
			      WIFEXITED(status) && !WEXITSTATUS(status);
		}
		close(go[i]);
	}
	if (become_normal(&mask))
		ksft_exit_fail_perror("SCHED_OTHER");
	for (n = 0; n < NR_BUSY; n++) {
		struct work_report r;

		if (read(res_pipe[0], &r, sizeof(r)) != sizeof(r))
			ksft_exit_fail_msg("missing report\n");
		for (i = 0; i < NR_BUSY; i++)
			if (busy[i] == r.g)
				rep[i] = r;
	}
	close(res_pipe[0]);

	return ok && !cg_tree_settle(&tree) ? KSFT_PASS : KSFT_FAIL;
}

/*
 * Each leaf is charged all the runtime of its task from its entering the
 * leaf to its last switch, exit included: at least the work the task
 * measured, and exactly the runtime it had at the end less what it
 * brought in.  Without final counts (no SCHED_FIFO), only the work is
 * checked, and the test skips.
 */
static int test_leaf_usage_matches_work(void)
{
	bool ok = true, all = true;
	int i;

	for (i = 0; i < NR_BUSY; i++) {
		const struct cg_snap *s = &tree.snaps[busy[i]];
		const struct work_report *r = &rep[i];

		ksft_print_msg("%s: usage %llu ns, work %llu ns\n",
			       tree.cg[busy[i]], (unsigned long long)s->usage,
			       (unsigned long long)(r->end_ns - r->start_ns));
		if (r->g != busy[i] || r->end_ns - r->start_ns < WORK_NS ||
		    s->usage < r->end_ns - r->start_ns) {
			ksft_print_msg("%s: usage below the work, or no report\n",
				       tree.cg[busy[i]]);
			ok = false;
		}
		all &= exact[i];
		if (!exact[i])
			continue;
		ksft_print_msg("%s: task %llu ns at entry, %llu at the end: usage off by %lld ns\n",
			       tree.cg[busy[i]],
			       (unsigned long long)entry[i].runtime_ns,
			       (unsigned long long)total[i].runtime_ns,
			       (long long)(s->usage - (total[i].runtime_ns -
						       entry[i].runtime_ns)));
		ok &= s->usage == total[i].runtime_ns - entry[i].runtime_ns;
	}
	if (!ok)
		return KSFT_FAIL;
	return all ? KSFT_PASS : KSFT_SKIP;
}

static int test_parent_equals_sum_of_children(void)
{
	bool ok = true;
	int g, i;

	for (g = 0; g < NR_GROUPS; g++) {
		bool parent = false;

		for (i = 0; i < NR_GROUPS; i++)
			parent |= parent_of[i] == g;
		if (!parent)
			continue;
		ok &= cg_tree_sums_ok(&tree, g, CG_USAGE | CG_USER | CG_SYS);
	}
	ok &= tree.snaps[TOP].usage >= NR_BUSY * WORK_NS;
	return ok ? KSFT_PASS : KSFT_FAIL;
}

static int test_parent_nr_switches_equals_sum(void)
{
	bool ok;
	int g;

	if (!has_sw) {
		ksft_print_msg("no cpuacct.nr_switches\n");
		return KSFT_SKIP;
	}
	ok = tree.snaps[TOP].sw > 0;
	for (g = TOP; g <= B; g++)
		ok &= cg_tree_sums_ok(&tree, g, CG_SW);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

static int test_totals_percpu_and_usage_all_agree(void)
{
	bool ok = true;
	int g;

	for (g = 0; g < NR_GROUPS; g++)
		ok &= cg_snap_consistent(tree.cg[g], &tree.snaps[g]);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/*
 * usage_user and usage_sys of a leaf are its task's ticks from its
 * entering the leaf to its exit: account_user_time() and
 * account_system_index_time() charge each tick to the task's own utime or
 * stime and to its group alike.  The task's own are taskstats' (raw, not
 * scaled to the runtime as in /proc), at entry and from the zombie, each
 * truncated to a microsecond: their difference is off by less than one.
 */
static bool ticks_match(const char *cg, const char *what, uint64_t have,
			uint64_t at_entry, uint64_t at_end)
{
	int64_t d = (int64_t)have - (int64_t)(at_end - at_entry) * 1000;

	ksft_print_msg("%s: %s %llu ns; task %llu us at entry, %llu at the end\n",
		       cg, what, (unsigned long long)have,
		       (unsigned long long)at_entry, (unsigned long long)at_end);
	if (d > -1000 && d < 1000)
		return true;
	ksft_print_msg("%s: %s off by %lld ns\n", cg, what, (long long)d);
	return false;
}

static int test_user_and_sys_are_the_tasks_ticks(void)
{
	bool ok = true, all = true;
	int i;

	if (!has_ticks)
		return KSFT_SKIP;
	for (i = 0; i < NR_BUSY; i++) {
		const struct cg_snap *s = &tree.snaps[busy[i]];

		all &= exact[i];
		if (!exact[i])
			continue;
		ok &= ticks_match(tree.cg[busy[i]], "user", s->user,
				  entry[i].user_us, total[i].user_us);
		ok &= ticks_match(tree.cg[busy[i]], "system", s->sys,
				  entry[i].sys_us, total[i].sys_us);
	}
	if (!ok)
		return KSFT_FAIL;
	return all ? KSFT_PASS : KSFT_SKIP;
}

/*
 * cpuacct.stat: user + system == usage in ns, each truncated to USER_HZ,
 * so their sum in ticks is floor(usage) or one less.  Not so with
 * CONFIG_VIRT_CPU_ACCOUNTING_NATIVE (no scaling).
 */
static int test_stat_splits_usage(void)
{
#if defined(__powerpc__) || defined(__s390__)
	ksft_print_msg("VIRT_CPU_ACCOUNTING_NATIVE\n");
	return KSFT_SKIP;
#else
	uint64_t clk_tck = sysconf(_SC_CLK_TCK);
	bool ok = true;
	int g;

	for (g = 0; g < NR_GROUPS; g++) {
		uint64_t ticks = tree.snaps[g].usage / (NSEC_PER_SEC / clk_tck);
		struct cg_snap s = tree.snaps[g];
		uint64_t sum;

		if (cg_snap_read_stat(tree.cg[g], &s)) {
			ok = false;
			continue;
		}
		sum = s.stat_user + s.stat_sys;
		if (sum > ticks || sum + 1 < ticks) {
			ksft_print_msg("%s: stat %llu+%llu, usage %llu ns, USER_HZ %llu\n",
				       tree.cg[g], (unsigned long long)s.stat_user,
				       (unsigned long long)s.stat_sys,
				       (unsigned long long)tree.snaps[g].usage,
				       (unsigned long long)clk_tck);
			ok = false;
		}
	}
	return ok ? KSFT_PASS : KSFT_FAIL;
#endif
}

/*
 * The root's usage counts every task, its user and system times are the
 * system-wide kernel_cpustat, charged along with every group's: read after
 * the tree, they are at least the tree's.
 */
static int test_root_covers_tree_and_empty_leaf_stays_zero(void)
{
	struct cg_snap root;
	bool ok;

	ok = !cg_snap_read(cg_root, &root) &&
	     root.usage >= tree.snaps[TOP].usage &&
	     root.user >= tree.snaps[TOP].user &&
	     root.sys >= tree.snaps[TOP].sys &&
	     root.sw >= tree.snaps[TOP].sw &&
	     group_reads_zero(E);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

static const struct cg_test tests[] = {
	CG_TEST(fresh_group_reads_zero),
	CG_TEST(counters_settle),
	CG_TEST(leaf_usage_matches_work),
	CG_TEST(parent_equals_sum_of_children),
	CG_TEST(parent_nr_switches_equals_sum),
	CG_TEST(totals_percpu_and_usage_all_agree),
	CG_TEST(user_and_sys_are_the_tasks_ticks),
	CG_TEST(stat_splits_usage),
	CG_TEST(root_covers_tree_and_empty_leaf_stays_zero),
};

int main(void)
{
	ksft_print_header();
	if (cg_setup())
		ksft_exit_skip("cgroup v1 cpuacct controller not available\n");
	has_sw = cg_has_nr_switches();
	visible = blocked_visible();
	if (!visible)
		ksft_print_msg("cannot see a task blocked (/proc/PID/syscall)\n");
	fifo = visible && exact_exit_available();
	has_ticks = !task_ticks(getpid(), &entry[0]);
	if (!has_ticks)
		ksft_print_msg("taskstats: no TASKSTATS_CMD_GET\n");

	ksft_set_plan(ARRAY_SIZE(tests));
	cg_tree_create(&tree, "hier");
	cg_run_tests(tests, ARRAY_SIZE(tests));
	ksft_finished();
}
