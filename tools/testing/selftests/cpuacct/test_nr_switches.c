// SPDX-License-Identifier: GPL-2.0
/*
 * cpuacct.nr_switches: context switches away from the tasks of a group
 * and its descendants, counted where __schedule() counts rq->nr_switches.
 *
 * The workload is a pipe ping-pong between two tasks pinned to one CPU
 * (see pingpong() in cpuacct_util.h): N round trips are at least 2N
 * switches away from the two tasks.  More come from preemptions by other
 * tasks (kernel threads, timers), from the two tasks preempting each other
 * on wakeup and from their start and exit: how many depends on the host.
 *
 * The tasks' own switch counts (nvcsw + nivcsw), which the kernel
 * increments exactly when it counts a switch away from them, are the
 * exact reference: a group is charged every switch its tasks counted
 * while in it.  Their samples give lower bounds; their whole lives, last
 * switch included (reap_exact(), where SCHED_FIFO is available), give the
 * exact count, but for the switches during A's own write to the group's
 * tasks file (sampled right before and after it), which go to either
 * side.
 *
 * Skipped on kernels without cpuacct.nr_switches.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpuacct_util.h"

#define N		1000

static int cpus[CG_MAX_CPUS], ncpus;
static bool exact;

#define U(x) ((unsigned long long)(x))

static bool in_range(const char *what, uint64_t val, uint64_t lo,
		     uint64_t hi)
{
	if (val >= lo && val <= hi)
		return true;
	ksft_print_msg("%s: %llu not in [%llu, %llu]\n", what, U(val), U(lo),
		       U(hi));
	return false;
}

static bool equal(const char *what, uint64_t a, uint64_t b)
{
	if (a == b)
		return true;
	ksft_print_msg("%s: %llu != %llu\n", what, U(a), U(b));
	return false;
}

static int cpu_index(int cpu)
{
	int i;

	for (i = 0; i < ncpus; i++)
		if (cpus[i] == cpu)
			return i;
	return -1;
}

static int stable(char **cgs, int n, uint64_t *vals)
{
	int ret = cg_read_stable(cgs, n, "cpuacct.nr_switches", vals, 40, 50);

	if (ret)
		ksft_print_msg("nr_switches do not settle\n");
	return ret;
}

static const char *top;

/* 1-7: a ping-pong in G, under P under T; S is G's sibling. */
static char *pp_cgs[4];		/* T, P, G, S */
static uint64_t before[4], after[4], root0, root1;
static struct pp_spec pp_args;
static struct pp_result pp;
static bool pp_ok;

static int test_pingpong_at_least_2N(void)
{
	char *t = cg_make(top, ""), *p = cg_make(top, "/P");
	char *g = cg_make(top, "/P/G"), *s = cg_make(top, "/P/S");
	uint64_t sum;
	bool ok;

	pp_cgs[0] = t;
	pp_cgs[1] = p;
	pp_cgs[2] = g;
	pp_cgs[3] = s;
	pp_args = (struct pp_spec){
		.cg = g, .cpu = allowed_cpu(0), .rounds = N, .exact = exact,
	};
	pp_ok = !stable(pp_cgs, 4, before) &&
		!cg_read_u64(cg_root, "cpuacct.nr_switches", &root0) &&
		!pingpong(&pp_args, &pp) && !stable(pp_cgs, 4, after) &&
		!cg_read_u64(cg_root, "cpuacct.nr_switches", &root1);
	if (!pp_ok) {
		ksft_print_msg("pingpong setup failed\n");
		return KSFT_FAIL;
	}
	/* A's and B's switches, all in G, between their samples */
	sum = pp.a_sw[3] - pp.a_sw[0] + pp.b_sw[1] - pp.b_sw[0];
	ksft_print_msg("%ld round trips: G +%llu, tasks counted %llu between their samples\n",
		       pp.rounds, U(after[2] - before[2]), U(sum));

	ok = equal("fresh G", before[2], 0) && after[2] - before[2] >= 2 * N;
	return ok ? KSFT_PASS : KSFT_FAIL;
}

static int test_pingpong_matches_task_counts(void)
{
	uint64_t sum;
	bool ok;

	if (!pp_ok)
		return KSFT_FAIL;
	sum = pp.a_sw[3] - pp.a_sw[0] + pp.b_sw[1] - pp.b_sw[0];
	ok = in_range("G vs samples", after[2] - before[2], sum, UINT64_MAX);
	if (pp.exact) {
		/* B's whole life and A's from its entering G on */
		sum = pp.b_total_sw + pp.a_total_sw;
		ksft_print_msg("whole lives %llu, A's before entering %llu..%llu\n",
			       U(sum), U(pp.a_pre_sw), U(pp.a_post_sw));
		ok &= in_range("G vs whole lives", after[2] - before[2],
			       sum - pp.a_post_sw, sum - pp.a_pre_sw);
	}
	return !ok ? KSFT_FAIL : pp.exact ? KSFT_PASS : KSFT_SKIP;
}

static int test_ancestors_charged_the_same(void)
{
	return pp_ok &&
	       equal("P", after[1] - before[1], after[2] - before[2]) &&
	       equal("T", after[0] - before[0], after[2] - before[2]) ?
	       KSFT_PASS : KSFT_FAIL;
}

static int test_sibling_unchanged(void)
{
	return pp_ok && equal("sibling S", after[3], before[3]) ?
	       KSFT_PASS : KSFT_FAIL;
}

/* All of G's switches happened on the CPU both tasks were pinned to. */
static int test_percpu_charged_on_the_pinned_cpu(void)
{
	uint64_t pc[CG_MAX_CPUS];
	int i, n, idx;
	bool ok;

	if (!pp_ok)
		return KSFT_FAIL;
	n = cg_read_percpu(pp_cgs[2], "cpuacct.nr_switches_percpu", pc,
			   CG_MAX_CPUS);
	idx = cpu_index(pp_args.cpu);
	ok = n == ncpus && idx >= 0;
	for (i = 0; ok && i < n; i++)
		ok = equal("G per CPU", pc[i], i == idx ? after[2] : 0);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/* The root counts every switch: at least the tree's. */
static int test_root_counts_at_least_the_tree(void)
{
	return pp_ok && root1 - root0 >= after[0] - before[0] ?
	       KSFT_PASS : KSFT_FAIL;
}

/*
 * Removing a child never lowers its parent: P and T were charged at
 * switch time and keep G's switches once G is gone.
 */
static int test_rmdir_keeps_parent_value(void)
{
	if (!pp_ok)
		return KSFT_FAIL;
	if (cg_destroy_tree(pp_cgs[3]) || cg_destroy_tree(pp_cgs[2]) ||
	    stable(pp_cgs, 2, before))
		return KSFT_FAIL;
	return equal("P after rmdir", before[1], after[1]) &&
	       equal("T after rmdir", before[0], after[0]) ?
	       KSFT_PASS : KSFT_FAIL;
}

/* 8: root reads rq->nr_switches, i.e. what /proc/stat's ctxt sums. */
static int test_root_tracks_proc_stat_ctxt(void)
{
	uint64_t c1, c2, r, r1, r2, pc[CG_MAX_CPUS], sum = 0;
	bool ok;
	int i, n;

	c1 = proc_stat_ctxt();
	ok = !cg_read_u64(cg_root, "cpuacct.nr_switches", &r);
	c2 = proc_stat_ctxt();
	ok = ok && in_range("root vs ctxt", r, c1, c2);

	ok = ok && !cg_read_u64(cg_root, "cpuacct.nr_switches", &r1);
	n = cg_read_percpu(cg_root, "cpuacct.nr_switches_percpu", pc,
			   CG_MAX_CPUS);
	ok = ok && !cg_read_u64(cg_root, "cpuacct.nr_switches", &r2);
	ok = ok && n == ncpus;
	for (i = 0; ok && i < n; i++)
		sum += pc[i];
	ok = ok && in_range("root per-CPU sum", sum, r1, r2);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/* 9: the root's count is rq->nr_switches: a reset is ignored. */
static int test_root_reset_is_ignored(void)
{
	uint64_t c1, c2, r;
	bool ok;

	c1 = proc_stat_ctxt();
	ok = !cg_write(cg_root, "cpuacct.nr_switches", "0") &&
	     !cg_read_u64(cg_root, "cpuacct.nr_switches", &r);
	c2 = proc_stat_ctxt();
	ok = ok && in_range("root after reset", r, c1, c2);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/*
 * 10-11: A and B ping-pong in G1; A moves alone to G2 and carries on.
 * Each group is charged the switches its tasks counted while in it: A's
 * before its move and all of B's to G1, A's after the move to its exit to
 * G2.  The switches during A's writes to the tasks files go to either.
 */
static uint64_t move_v[3];	/* M, G1, G2 */
static bool move_ok;

static int test_move_charges_each_group_its_own(void)
{
	char *p = cg_make(top, "/M"), *g1 = cg_make(top, "/M/G1");
	char *g2 = cg_make(top, "/M/G2");
	char *cgs[3] = { p, g1, g2 };
	uint64_t *v = move_v;
	struct pp_spec spec = {
		.cg = g1, .cpu = allowed_cpu(1), .rounds = N / 2,
		.move_cg = g2, .rounds2 = N / 2, .exact = exact,
	};
	struct pp_result r;
	bool ok;

	move_ok = !pingpong(&spec, &r) && !stable(cgs, 3, v);
	if (!move_ok)
		return KSFT_FAIL;
	/* B: >= 1 per round trip, A: >= 1 per round trip, in each phase */
	ok = in_range("G1", v[1], r.a_sw[1] - r.a_sw[0] + r.b_sw[1] - r.b_sw[0],
		      UINT64_MAX) &&
	     in_range("G2", v[2], r.a_sw[3] - r.a_sw[2], UINT64_MAX) &&
	     v[1] >= (uint64_t)(N / 2 + N) && v[2] >= (uint64_t)(N / 2);
	/* B's whole life, and A's, split at its move, from its entering on */
	if (r.exact)
		ok &= in_range("G1 whole", v[1],
			       r.b_total_sw + r.a_sw[1] - r.a_post_sw,
			       r.b_total_sw + r.a_sw[2] - r.a_pre_sw) &&
		      in_range("G2 whole", v[2], r.a_total_sw - r.a_sw[2],
			       r.a_total_sw - r.a_sw[1]);
	return !ok ? KSFT_FAIL : r.exact ? KSFT_PASS : KSFT_SKIP;
}

static int test_move_parent_is_the_sum(void)
{
	return move_ok && equal("M", move_v[0], move_v[1] + move_v[2]) ?
	       KSFT_PASS : KSFT_FAIL;
}

/* 12-15: resets zero one group only. */
static char *reset_cgs[3];	/* R, C1, C2 */
static uint64_t reset_v[3], reset_u1;
static struct pp_spec reset_spec;

/* The parent alone: children keep theirs, usage is untouched. */
static int test_reset_parent_only(void)
{
	char *t = cg_make(top, "/R"), *c1 = cg_make(top, "/R/C1");
	char *c2 = cg_make(top, "/R/C2");
	uint64_t *v = reset_v, w[3], u2;
	struct pp_result r;
	bool ok;

	reset_cgs[0] = t;
	reset_cgs[1] = c1;
	reset_cgs[2] = c2;
	reset_spec = (struct pp_spec){ .cpu = allowed_cpu(0), .rounds = N / 5 };
	reset_spec.cg = c1;
	ok = !pingpong(&reset_spec, &r);
	reset_spec.cg = c2;
	ok = ok && !pingpong(&reset_spec, &r) && !stable(reset_cgs, 3, v) &&
	     !cg_read_u64(t, "cpuacct.usage", &reset_u1);
	ok = ok && v[1] >= 2 * (N / 5) && v[2] >= 2 * (N / 5) &&
	     v[0] == v[1] + v[2];
	if (!ok)
		ksft_exit_fail_msg("reset setup failed\n");

	ok = !cg_write(t, "cpuacct.nr_switches", "0") &&
	     !stable(reset_cgs, 3, w) && !cg_read_u64(t, "cpuacct.usage", &u2) &&
	     equal("R", w[0], 0) && equal("C1", w[1], v[1]) &&
	     equal("C2", w[2], v[2]) && equal("R usage", u2, reset_u1);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

static int test_reset_child_only(void)
{
	uint64_t *v = reset_v, w[3];
	bool ok;

	ok = !cg_write(reset_cgs[1], "cpuacct.nr_switches", "0\n") &&
	     !stable(reset_cgs, 3, w) && equal("R", w[0], 0) &&
	     equal("C1", w[1], 0) && equal("C2", w[2], v[2]);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/* Resetting cpuacct.usage leaves nr_switches alone, and back. */
static int test_usage_reset_keeps_nr_switches(void)
{
	uint64_t *v = reset_v, w[3], u2;
	char *c2 = reset_cgs[2];
	bool ok;

	ok = !cg_write(c2, "cpuacct.usage", "0") &&
	     !stable(reset_cgs, 3, w) && !cg_read_u64(c2, "cpuacct.usage", &u2) &&
	     equal("C2 usage", u2, 0) && equal("C2", w[2], v[2]);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/* Counting resumes from 0 in the reset groups. */
static int test_counting_resumes_after_reset(void)
{
	uint64_t *v = reset_v, w[3];
	struct pp_result r;
	bool ok;

	reset_spec.cg = reset_cgs[1];
	ok = !pingpong(&reset_spec, &r) && !stable(reset_cgs, 3, w) &&
	     w[1] >= 2 * (N / 5) && equal("R after reset", w[0], w[1]) &&
	     equal("C2", w[2], v[2]);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/* In this order: each part's tests build on its first one. */
static const struct cg_test tests[] = {
	CG_TEST(pingpong_at_least_2N),
	CG_TEST(pingpong_matches_task_counts),
	CG_TEST(ancestors_charged_the_same),
	CG_TEST(sibling_unchanged),
	CG_TEST(percpu_charged_on_the_pinned_cpu),
	CG_TEST(root_counts_at_least_the_tree),
	CG_TEST(rmdir_keeps_parent_value),
	CG_TEST(root_tracks_proc_stat_ctxt),
	CG_TEST(root_reset_is_ignored),
	CG_TEST(move_charges_each_group_its_own),
	CG_TEST(move_parent_is_the_sum),
	CG_TEST(reset_parent_only),
	CG_TEST(reset_child_only),
	CG_TEST(usage_reset_keeps_nr_switches),
	CG_TEST(counting_resumes_after_reset),
};

int main(void)
{
	ncpus = cg_start_nr_switches(cpus);
	exact = exact_exit_available();

	ksft_set_plan(ARRAY_SIZE(tests));
	top = strdup(cg_test_name("sw"));
	cg_run_tests(tests, ARRAY_SIZE(tests));
	ksft_finished();
}
