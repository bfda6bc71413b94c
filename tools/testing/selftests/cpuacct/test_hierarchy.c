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
 * Hence the exact relations checked here, and one with a tolerance:
 * usage_user + usage_sys only approximates usage (tick sampling).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "cpuacct_util.h"

/* CPU time each leaf task burns */
#define WORK_NS		(200 * 1000 * 1000ULL)
/* Longest tick: HZ >= 100 */
#define TICK_MAX_NS	(10 * 1000 * 1000ULL)

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
	int err;			/* of exit_as_fifo() */
	uint64_t pre_ns, start_ns;	/* its CPU time around entering it */
	uint64_t end_ns;		/* and after the work */
};

static struct work_report rep[NR_BUSY];
static struct task_total total[NR_BUSY];
/* Where the busy tasks exit and are reaped (reap_final()) */
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

/* A busy task in leaf @g, on any CPU of @mask until it exits */
static void __attribute__((noreturn))
run_leaf(int g, const cpu_set_t *mask, int res_fd)
{
	struct work_report r = { .g = g };

	if (sched_setaffinity(0, sizeof(*mask), mask))
		_exit(1);
	r.pre_ns = thread_cputime_ns();
	if (cg_enter(tree.cg[g], getpid()))
		_exit(1);
	r.start_ns = thread_cputime_ns();
	burn_cpu(WORK_NS);
	r.end_ns = thread_cputime_ns();
	r.err = exit_as_fifo(reap_cpu);
	if (write(res_fd, &r, sizeof(r)) != sizeof(r))
		_exit(1);
	_exit(0);
}

/*
 * Busy tasks in the leaves, not pinned while they work: both CPUs get
 * charged.  They exit on reap_cpu, where this task, pinned there before
 * it forks them, reaps them.  Once they have exited, their groups'
 * counters settle.
 */
static int test_counters_settle(void)
{
	int res_pipe[2], i, n;
	pid_t pid[NR_BUSY];
	cpu_set_t mask;

	fflush(stdout);
	if (pipe(res_pipe))
		ksft_exit_fail_perror("pipe");
	reap_cpu = allowed_cpu(0);
	if (sched_getaffinity(0, sizeof(mask), &mask) || pin_to_cpu(reap_cpu))
		ksft_exit_fail_perror("sched_setaffinity");
	for (i = 0; i < NR_BUSY; i++) {
		pid[i] = fork();
		if (pid[i] < 0)
			ksft_exit_fail_perror("fork");
		if (!pid[i])
			run_leaf(busy[i], &mask, res_pipe[1]);
	}
	close(res_pipe[1]);
	for (i = 0; i < NR_BUSY; i++)
		if (reap_final(pid[i], &total[i]))
			ksft_exit_fail_msg("busy task failed\n");
	if (sched_setaffinity(0, sizeof(mask), &mask))
		ksft_exit_fail_perror("sched_setaffinity");
	for (n = 0; n < NR_BUSY; n++) {
		struct work_report r;

		if (read(res_pipe[0], &r, sizeof(r)) != sizeof(r))
			ksft_exit_fail_msg("missing report\n");
		for (i = 0; i < NR_BUSY; i++)
			if (busy[i] == r.g)
				rep[i] = r;
	}
	close(res_pipe[0]);

	return cg_tree_settle(&tree) ? KSFT_FAIL : KSFT_PASS;
}

/*
 * Each leaf is charged all the runtime of its task from the moment it
 * entered the leaf to its last switch, exit included; the task's CPU
 * clock, sampled around its entering (each sample runs update_curr()),
 * and its whole runtime from wait4() bound that exactly:
 *
 *	total - start_ns <= usage <= total - pre_ns
 *
 * with total known to RUSAGE_ROUND_NS.
 */
static int test_leaf_usage_matches_work(void)
{
	bool ok = true;
	int i;

	for (i = 0; i < NR_BUSY; i++) {
		const struct cg_snap *s = &tree.snaps[busy[i]];
		uint64_t lo = total[i].runtime_ns - rep[i].start_ns;
		uint64_t hi = total[i].runtime_ns + RUSAGE_ROUND_NS - rep[i].pre_ns;

		if (rep[i].err) {
			ksft_print_msg("SCHED_FIFO: %s\n", strerror(-rep[i].err));
			return KSFT_SKIP;
		}
		ksft_print_msg("%s: usage %llu ns, task: %llu before entering, %llu after, %llu at the end of its work, %llu in all (wait4)\n",
			       tree.cg[busy[i]], (unsigned long long)s->usage,
			       (unsigned long long)rep[i].pre_ns,
			       (unsigned long long)rep[i].start_ns,
			       (unsigned long long)rep[i].end_ns,
			       (unsigned long long)total[i].runtime_ns);
		if (rep[i].g != busy[i] || rep[i].end_ns - rep[i].start_ns < WORK_NS ||
		    s->usage < lo || s->usage > hi) {
			ksft_print_msg("%s: usage not in [%llu, %llu]\n",
				       tree.cg[busy[i]], (unsigned long long)lo,
				       (unsigned long long)hi);
			ok = false;
		}
	}
	return ok ? KSFT_PASS : KSFT_FAIL;
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
 * usage_user + usage_sys vs usage: no exact relation, and no exact
 * reference: the tick-based task utime and stime they are charged with
 * alongside are only shown scaled to the runtime.  Ticks sample the
 * current task, so for busy tasks the sum tracks the runtime; it is an
 * overestimate by at most the sampling error (tolerated here: 50% plus two
 * of the longest ticks), and an underestimate when ticks are lost, e.g.
 * when an emulated CPU is descheduled by its host: hrtimer_forward() skips
 * the missed periods, and account_process_tick() charges one tick only,
 * while the runtime (sched_clock) counts it all; on a loaded host that can
 * be most of them (a fifth of the runtime was seen at a host load of 13
 * on 2 CPUs).  So only some ticks are required.  A user space busy loop shows user time, though not
 * necessarily mostly: a tick that lands in the kernel counts as system
 * time, and on a slow kernel (debug options under emulation) the interrupt
 * path, where ticks land, is a large part of the time.
 */
static int test_user_plus_sys_tracks_usage(void)
{
	bool ok = true;
	int i;

	for (i = 0; i < NR_BUSY; i++) {
		const struct cg_snap *s = &tree.snaps[busy[i]];
		uint64_t ticks = s->user + s->sys;

		ksft_print_msg("%s: usage %llu user %llu sys %llu ns\n",
			       tree.cg[busy[i]], (unsigned long long)s->usage,
			       (unsigned long long)s->user,
			       (unsigned long long)s->sys);
		if (ticks > s->usage / 2 * 3 + 2 * TICK_MAX_NS || !s->user)
			ok = false;
	}
	return ok ? KSFT_PASS : KSFT_FAIL;
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
	CG_TEST(user_plus_sys_tracks_usage),
	CG_TEST(stat_splits_usage),
	CG_TEST(root_covers_tree_and_empty_leaf_stays_zero),
};

int main(void)
{
	ksft_print_header();
	if (cg_setup())
		ksft_exit_skip("cgroup v1 cpuacct controller not available\n");
	has_sw = cg_has_nr_switches();

	ksft_set_plan(ARRAY_SIZE(tests));
	cg_tree_create(&tree, "hier");
	cg_run_tests(tests, ARRAY_SIZE(tests));
	ksft_finished();
}
