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

/* 1-6: a ping-pong in G, under P under T; S is G's sibling. */
static void test_pingpong(const char *top)
{
	char *t = cg_make(top, ""), *p = cg_make(top, "/P");
	char *g = cg_make(top, "/P/G"), *s = cg_make(top, "/P/S");
	char *cgs[4] = { t, p, g, s };
	uint64_t before[4], after[4], root0 = 0, root1 = 0, sum;
	uint64_t pc[CG_MAX_CPUS];
	struct pp_result r;
	struct pp_spec spec = {
		.cg = g, .cpu = allowed_cpu(0), .rounds = N, .exact = exact,
	};
	bool ok;
	int i, n, idx;

	if (stable(cgs, 4, before) ||
	    cg_read_u64(cg_root, "cpuacct.nr_switches", &root0) ||
	    pingpong(&spec, &r) || stable(cgs, 4, after) ||
	    cg_read_u64(cg_root, "cpuacct.nr_switches", &root1)) {
		for (i = 0; i < 7; i++)
			ksft_test_result_fail("pingpong setup failed\n");
		return;
	}
	/* A's and B's switches, all in G, between their samples */
	sum = r.a_sw[3] - r.a_sw[0] + r.b_sw[1] - r.b_sw[0];
	ksft_print_msg("%ld round trips: G +%llu, tasks counted %llu between their samples\n",
		       r.rounds, U(after[2] - before[2]), U(sum));

	ok = equal("fresh G", before[2], 0) && after[2] - before[2] >= 2 * N;
	ksft_test_result(ok, "pingpong_at_least_2N\n");

	ok = in_range("G vs samples", after[2] - before[2], sum, UINT64_MAX);
	if (r.exact) {
		/* B's whole life and A's from its entering G on */
		sum = r.b_total_sw + r.a_total_sw;
		ksft_print_msg("whole lives %llu, A's before entering %llu..%llu\n",
			       U(sum), U(r.a_pre_sw), U(r.a_post_sw));
		ok &= in_range("G vs whole lives", after[2] - before[2],
			       sum - r.a_post_sw, sum - r.a_pre_sw);
	}
	ksft_test_result_report(!ok ? KSFT_FAIL : r.exact ? KSFT_PASS : KSFT_SKIP,
				"pingpong_matches_task_counts\n");

	ok = equal("P", after[1] - before[1], after[2] - before[2]) &&
	     equal("T", after[0] - before[0], after[2] - before[2]);
	ksft_test_result(ok, "ancestors_charged_the_same\n");

	ok = equal("sibling S", after[3], before[3]);
	ksft_test_result(ok, "sibling_unchanged\n");

	/* All of G's switches happened on the CPU both tasks were pinned to. */
	n = cg_read_percpu(g, "cpuacct.nr_switches_percpu", pc, CG_MAX_CPUS);
	idx = cpu_index(spec.cpu);
	ok = n == ncpus && idx >= 0;
	for (i = 0; ok && i < n; i++)
		ok = equal("G per CPU", pc[i], i == idx ? after[2] : 0);
	ksft_test_result(ok, "percpu_charged_on_the_pinned_cpu\n");

	/* The root counts every switch: at least the tree's. */
	ok = root1 - root0 >= after[0] - before[0];
	ksft_test_result(ok, "root_counts_at_least_the_tree\n");

	/*
	 * Removing a child never lowers its parent: P and T were charged
	 * at switch time and keep G's switches once G is gone.
	 */
	if (!cg_destroy(s) && !cg_destroy(g) && !stable(cgs, 2, before)) {
		ok = equal("P after rmdir", before[1], after[1]) &&
		     equal("T after rmdir", before[0], after[0]);
		ksft_test_result(ok, "rmdir_keeps_parent_value\n");
	} else {
		ksft_test_result_fail("rmdir_keeps_parent_value\n");
	}
}

/* 8: root reads rq->nr_switches, i.e. what /proc/stat's ctxt sums. */
static void test_root(void)
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
	ksft_test_result(ok, "root_tracks_proc_stat_ctxt\n");

	/* The root's count is rq->nr_switches: a reset is ignored. */
	c1 = proc_stat_ctxt();
	ok = !cg_write_str(cg_root, "cpuacct.nr_switches", "0") &&
	     !cg_read_u64(cg_root, "cpuacct.nr_switches", &r);
	c2 = proc_stat_ctxt();
	ok = ok && in_range("root after reset", r, c1, c2);
	ksft_test_result(ok, "root_reset_is_ignored\n");
}

/*
 * 10-11: A and B ping-pong in G1; A moves alone to G2 and carries on.
 * Each group is charged the switches its tasks counted while in it: A's
 * before its move and all of B's to G1, A's after the move to its exit to
 * G2.  The switches during A's writes to the tasks files go to either.
 */
static void test_move(const char *top)
{
	char *p = cg_make(top, "/M"), *g1 = cg_make(top, "/M/G1");
	char *g2 = cg_make(top, "/M/G2");
	char *cgs[3] = { p, g1, g2 };
	uint64_t v[3];
	struct pp_spec spec = {
		.cg = g1, .cpu = allowed_cpu(1), .rounds = N / 2,
		.move_cg = g2, .rounds2 = N / 2, .exact = exact,
	};
	struct pp_result r;
	bool ok;

	if (pingpong(&spec, &r) || stable(cgs, 3, v)) {
		ksft_test_result_fail("move_charges_each_group_its_own\n");
		ksft_test_result_fail("move_parent_is_the_sum\n");
		return;
	}
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
	ksft_test_result_report(!ok ? KSFT_FAIL : r.exact ? KSFT_PASS : KSFT_SKIP,
				"move_charges_each_group_its_own\n");
	ok = equal("M", v[0], v[1] + v[2]);
	ksft_test_result(ok, "move_parent_is_the_sum\n");
}

/* 12-15: resets zero one group only. */
static void test_reset(const char *top)
{
	char *t = cg_make(top, "/R"), *c1 = cg_make(top, "/R/C1");
	char *c2 = cg_make(top, "/R/C2");
	char *cgs[3] = { t, c1, c2 };
	uint64_t v[3], w[3], u1, u2;
	struct pp_spec spec = { .cpu = allowed_cpu(0), .rounds = N / 5 };
	struct pp_result r;
	bool ok;

	spec.cg = c1;
	ok = !pingpong(&spec, &r);
	spec.cg = c2;
	ok = ok && !pingpong(&spec, &r) && !stable(cgs, 3, v) &&
	     !cg_read_u64(t, "cpuacct.usage", &u1);
	ok = ok && v[1] >= 2 * (N / 5) && v[2] >= 2 * (N / 5) &&
	     v[0] == v[1] + v[2];
	if (!ok) {
		ksft_print_msg("reset setup failed\n");
		ksft_exit_fail();
	}

	/* The parent alone: children keep theirs, usage is untouched. */
	ok = !cg_write_str(t, "cpuacct.nr_switches", "0") &&
	     !stable(cgs, 3, w) && !cg_read_u64(t, "cpuacct.usage", &u2) &&
	     equal("R", w[0], 0) && equal("C1", w[1], v[1]) &&
	     equal("C2", w[2], v[2]) && equal("R usage", u2, u1);
	ksft_test_result(ok, "reset_parent_only\n");

	ok = !cg_write_str(c1, "cpuacct.nr_switches", "0\n") &&
	     !stable(cgs, 3, w) && equal("R", w[0], 0) &&
	     equal("C1", w[1], 0) && equal("C2", w[2], v[2]);
	ksft_test_result(ok, "reset_child_only\n");

	/* Resetting cpuacct.usage leaves nr_switches alone, and back. */
	ok = !cg_write_str(c2, "cpuacct.usage", "0") &&
	     !stable(cgs, 3, w) && !cg_read_u64(c2, "cpuacct.usage", &u2) &&
	     equal("C2 usage", u2, 0) && equal("C2", w[2], v[2]);
	ksft_test_result(ok, "usage_reset_keeps_nr_switches\n");

	/* Counting resumes from 0 in the reset groups. */
	spec.cg = c1;
	ok = !pingpong(&spec, &r) && !stable(cgs, 3, w) &&
	     w[1] >= 2 * (N / 5) && equal("R after reset", w[0], w[1]) &&
	     equal("C2", w[2], v[2]);
	ksft_test_result(ok, "counting_resumes_after_reset\n");
}

int main(void)
{
	const char *top;

	ncpus = cg_start_nr_switches(cpus);
	exact = exact_exit_available();

	ksft_set_plan(15);
	top = strdup(cg_test_name("sw"));
	test_pingpong(top);
	test_root();
	test_move(top);
	test_reset(top);
	ksft_finished();
}
