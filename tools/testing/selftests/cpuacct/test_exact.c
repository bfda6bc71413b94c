// SPDX-License-Identifier: GPL-2.0
/*
 * Exactness of cpuacct.nr_switches and cpuacct.usage against an
 * independent reference, the tasks' own counts, under concurrent readers,
 * group removal and resets.
 *
 * The workers are pairs of single-threaded processes, A and B, pinned to
 * one CPU, that ping-pong ROUNDS round trips through pipes when told to
 * (a burst), then block.  A worker is only ever moved between groups by
 * this controller while it is blocked, and its counts are only sampled
 * while it is blocked: its switch count (voluntary + nonvoluntary, from
 * /proc/PID/status, what getrusage() reports) and its runtime (its
 * process CPU clock, the se.sum_exec_runtime that cpuacct.usage is
 * charged with, in the same update) are then final, and are exactly what
 * its group was charged since it entered the group.  So, at every sample:
 *
 *	nr_switches(leaf) == sum over its workers of (switches - at entry)
 *	usage(leaf)       == sum over its workers of (runtime - at entry)
 *
 * and every parent's nr_switches_percpu and usage_percpu is exactly the sum
 * of its children's, per CPU.  Meanwhile reader processes read every file
 * of every group all the time: totals that go down (except across a reset)
 * fail the test.  Many short bursts leave groups idle often: a count that
 * a concurrent read or flush failed to propagate stays missing there.
 *
 *  1-4  bursts in four leaves at depths 1 to 3 of a tree;
 *  5-6  children created, used and removed one after another under a
 *       parent that readers watch: the parent ends up with exactly what
 *       its children were charged, never more, at no time less;
 *  7-9  resets of a parent while its child's workers run: the child and
 *       the grandparent stay exact, and a reset at rest reads 0 and then
 *       grows by exactly what the workers use.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "cpuacct_util.h"

#define PAIRS		4
#define BURSTS		40
#define ROUNDS		50
#define CHILDREN	12
#define RESET_BURSTS	30
#define READERS		2
/*
 * Each part stops starting bursts after PART_NS, so that the whole test
 * stays within the kselftest timeout on slow (debug, emulated) kernels;
 * it says how many it ran.
 */
#define PART_NS		(25 * NSEC_PER_SEC)

#define U(x) ((unsigned long long)(x))

struct pair {
	pid_t a, b;
	int go;		/* controller -> A */
	int done;	/* A -> controller */
	uint64_t sw0, rt0;	/* counts of A and B at entry */
};

static struct cg_readers readers = { .nr = READERS, .pin = true };
static int cpus[CG_MAX_CPUS], ncpus;

/* A child: killed with the test, never left running (nor holding stdout) */
static pid_t fork_child(void)
{
	pid_t ppid = getpid(), pid = fork();

	if (!pid && (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != ppid))
		_exit(1);
	return pid;
}

static void wr(int fd, char c)
{
	if (write(fd, &c, 1) != 1)
		_exit(1);
}

static char rd(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		_exit(1);
	return c;
}

/* A: a burst per 'g' on @go, then 'd' on @done; 'q' ends both. */
static void worker_a(int go, int done, int to_b, int from_b)
{
	wr(done, 'r');
	while (rd(go) != 'q') {
		if (pp_rounds(to_b, from_b, ROUNDS, 0, NULL) != ROUNDS)
			_exit(1);
		wr(done, 'd');
	}
	_exit(pp_quit(to_b) ? 1 : 0);
}

static void worker_b(int from_a, int to_a)
{
	_exit(pp_echo(from_a, to_a, false) ? 1 : 0);
}

static int pair_start(struct pair *p, int cpu)
{
	int go[2], done[2], ab[2], ba[2];

	if (pipe(go) || pipe(done) || pipe(ab) || pipe(ba))
		return -1;
	p->b = fork_child();
	if (!p->b) {
		pin_to_cpu(cpu);
		worker_b(ab[0], ba[1]);
	}
	p->a = fork_child();
	if (!p->a) {
		pin_to_cpu(cpu);
		worker_a(go[0], done[1], ab[1], ba[0]);
	}
	close(go[0]);
	close(done[1]);
	close(ab[0]);
	close(ab[1]);
	close(ba[0]);
	close(ba[1]);
	p->go = go[1];
	p->done = done[0];
	if (p->a < 0 || p->b < 0 || rd(p->done) != 'r')
		return -1;
	return 0;
}

static void pair_stop(struct pair *p)
{
	wr(p->go, 'q');
	close(p->go);
	close(p->done);
	waitpid(p->a, NULL, 0);
	waitpid(p->b, NULL, 0);
}

/* Returns whether both were asleep around the reading of their counts */
static bool pair_counts(struct pair *p, uint64_t *sw, uint64_t *rt)
{
	bool asleep = task_state(p->a) == 'S' && task_state(p->b) == 'S';
	struct task_total a = { 0 }, b = { 0 };

	asleep &= !task_counts(p->a, &a) && !task_counts(p->b, &b);
	*sw = a.switches + b.switches;
	*rt = a.runtime_ns + b.runtime_ns;
	return asleep && task_state(p->a) == 'S' && task_state(p->b) == 'S';
}

/*
 * Wait until the pair is blocked for good: A has reported, but A and B may
 * still be on their way to blocking, or preempted on the way (runnable,
 * their counts unchanged for a while).  Asleep, with the same counts, in
 * two readings 10 ms apart: a task that sets itself asleep in the pipe's
 * wait loop gets to schedule() within microseconds, and is switched out
 * there (unless a preemptible kernel preempts it in between, and it then
 * waits 10 ms to run again).
 */
static void pair_settle(struct pair *p, uint64_t *sw, uint64_t *rt)
{
	uint64_t sw2, rt2;
	bool asleep, asleep2;
	int i;

	asleep = pair_counts(p, sw, rt);
	for (i = 0; i < 200; i++) {
		sleep_ms(10);
		asleep2 = pair_counts(p, &sw2, &rt2);
		if (asleep && asleep2 && sw2 == *sw && rt2 == *rt)
			return;
		asleep = asleep2;
		*sw = sw2;
		*rt = rt2;
	}
	ksft_print_msg("workers %d and %d do not settle\n", p->a, p->b);
}

/* Move a blocked pair into @cg and take its counts at entry. */
static int pair_enter(struct pair *p, const char *cg)
{
	uint64_t sw, rt;

	pair_settle(p, &sw, &rt);
	if (cg_enter(cg, p->a) || cg_enter(cg, p->b))
		return -1;
	pair_settle(p, &p->sw0, &p->rt0);
	return 0;
}

static void pair_burst_start(struct pair *p)
{
	wr(p->go, 'g');
}

static void pair_burst_wait(struct pair *p)
{
	if (rd(p->done) != 'd')
		ksft_exit_fail_msg("worker failed\n");
}

/* Readers of @n groups: totals must never go down (cg_readers_start()) */
static void readers_start(char * const *cgs, int n)
{
	readers.groups = cgs;
	readers.n = n;
	cg_readers_start(&readers);
}

static bool readers_stop(const char *what)
{
	bool ok = cg_readers_stop(&readers);

	ksft_print_msg("%s: %ld reader passes\n", what, readers.st->reads);
	return ok;
}

static bool sums_ok(const char *p, char * const *kids, int n,
		    const char *file)
{
	uint64_t pv[CG_MAX_CPUS], kv[CG_MAX_CPUS], sum[CG_MAX_CPUS] = { 0 };
	int i, c;

	if (cg_read_percpu(p, file, pv, CG_MAX_CPUS) != ncpus)
		return false;
	for (i = 0; i < n; i++) {
		if (cg_read_percpu(kids[i], file, kv, CG_MAX_CPUS) != ncpus)
			return false;
		for (c = 0; c < ncpus; c++)
			sum[c] += kv[c];
	}
	for (c = 0; c < ncpus; c++) {
		if (pv[c] != sum[c]) {
			ksft_print_msg("%s/%s: cpu %d: %llu, children %llu\n",
				       p, file, cpus[c], U(pv[c]), U(sum[c]));
			return false;
		}
	}
	return true;
}

static bool group_exact(const char *cg, uint64_t sw, uint64_t rt)
{
	uint64_t v, u;

	if (cg_read_u64(cg, "cpuacct.nr_switches", &v) ||
	    cg_read_u64(cg, "cpuacct.usage", &u))
		return false;
	if (v == sw && u == rt)
		return true;
	ksft_print_msg("%s: nr_switches %llu, tasks %llu; usage %llu, tasks %llu\n",
		       cg, U(v), U(sw), U(u), U(rt));
	return false;
}

/*
 * T -+- P1 -+- L1		four pairs, one per leaf, on alternating CPUs
 *    |      +- L2
 *    +- P2 --- Q --- L3
 *    +- L4
 */
static const char *top;
/* What each part saw, for the tests that report it */
static int tree_bad_sum;
static bool tree_readers_ok, removal_readers_ok, reset_readers_ok;
static long tree_reads;
/* The pair of the reset part, and its groups, for the reset at rest */
static struct pair reset_pair;
static char *reset_g, *reset_s;

static int test_leaves_exact_vs_tasks_switches_and_runtime(void)
{
	char *t = cg_make(top, "/T"), *p1 = cg_make(top, "/T/P1");
	char *l1 = cg_make(top, "/T/P1/L1"), *l2 = cg_make(top, "/T/P1/L2");
	char *p2 = cg_make(top, "/T/P2"), *q = cg_make(top, "/T/P2/Q");
	char *l3 = cg_make(top, "/T/P2/Q/L3"), *l4 = cg_make(top, "/T/L4");
	char * const all[] = { t, p1, l1, l2, p2, q, l3, l4 };
	char * const leaves[PAIRS] = { l1, l2, l3, l4 };
	char * const t_kids[] = { p1, p2, l4 };
	char * const p1_kids[] = { l1, l2 };
	struct pair pairs[PAIRS];
	int i, b, bad_sw = 0, bad_sum = 0, first = -1;
	uint64_t sw, rt, end;
	bool ok;

	for (i = 0; i < PAIRS; i++)
		if (pair_start(&pairs[i], allowed_cpu(i)) ||
		    pair_enter(&pairs[i], leaves[i]))
			ksft_exit_fail_msg("cannot start workers\n");
	readers_start(all, 8);
	end = now_ns() + PART_NS;
	for (b = 0; b < BURSTS && now_ns() < end; b++) {
		for (i = 0; i < PAIRS; i++)
			pair_burst_start(&pairs[i]);
		for (i = 0; i < PAIRS; i++)
			pair_burst_wait(&pairs[i]);
		for (i = 0; i < PAIRS; i++) {
			pair_settle(&pairs[i], &sw, &rt);
			if (!group_exact(leaves[i], sw - pairs[i].sw0,
					 rt - pairs[i].rt0)) {
				bad_sw++;
				if (first < 0)
					first = b;
			}
		}
		ok = true;
		for (i = 0; i < 2; i++) {
			const char *f = i ? "cpuacct.usage_percpu" :
					    "cpuacct.nr_switches_percpu";

			ok = ok && sums_ok(t, t_kids, 3, f) &&
			     sums_ok(p1, p1_kids, 2, f) &&
			     sums_ok(p2, &q, 1, f) && sums_ok(q, &l3, 1, f);
		}
		bad_sum += !ok;
	}
	ok = readers_stop("tree");
	for (i = 0; i < PAIRS; i++)
		pair_stop(&pairs[i]);

	ksft_print_msg("%d bursts of %d round trips in %d leaves\n", b,
		       ROUNDS, PAIRS);
	ksft_print_msg("%d inexact samples (first in burst %d), %d bad sums\n",
		       bad_sw, first, bad_sum);
	tree_bad_sum = bad_sum;
	tree_readers_ok = ok;
	tree_reads = readers.st->reads;
	return !bad_sw ? KSFT_PASS : KSFT_FAIL;
}

static int test_parents_are_percpu_sums_of_children(void)
{
	return !tree_bad_sum ? KSFT_PASS : KSFT_FAIL;
}

static int test_totals_never_decrease_under_readers(void)
{
	return tree_readers_ok ? KSFT_PASS : KSFT_FAIL;
}

static int test_readers_ran_throughout(void)
{
	return tree_reads > 0 ? KSFT_PASS : KSFT_FAIL;
}

/*
 * 5-6: under R, create a child, run a pair in it, stop the pair, note the
 * child's final counts and remove it, CHILDREN times, while readers watch
 * R.  What a CPU still holds pending for the child reaches R
 * asynchronously (css_free, after a grace period), so it races with the
 * readers and with the next child's work.
 */
static int test_removed_children_reach_parent_exactly_once(void)
{
	char *r = cg_make(top, "/R");
	char * const watch[] = { r };
	uint64_t sum_sw = 0, sum_us = 0, v = 0, u = 0, sw, rt, last_v, last_u;
	uint64_t end = now_ns() + PART_NS;
	int k, tries, bad = 0;
	bool ok;

	readers_start(watch, 1);
	for (k = 0; k < CHILDREN && now_ns() < end; k++) {
		char sub[32], *c;
		struct pair p;

		snprintf(sub, sizeof(sub), "/R/c%d", k);
		c = cg_make(top, sub);
		if (pair_start(&p, allowed_cpu(k)) || pair_enter(&p, c))
			ksft_exit_fail_msg("cannot start workers\n");
		pair_burst_start(&p);
		pair_burst_wait(&p);
		pair_settle(&p, &sw, &rt);
		bad += !group_exact(c, sw - p.sw0, rt - p.rt0);
		pair_stop(&p);
		/* Their exit switches: read the child until it settles */
		last_v = ~0ULL;
		last_u = ~0ULL;
		for (tries = 0; tries < 100; tries++) {
			if (cg_read_u64(c, "cpuacct.nr_switches", &v) ||
			    cg_read_u64(c, "cpuacct.usage", &u))
				break;
			if (v == last_v && u == last_u)
				break;
			last_v = v;
			last_u = u;
			sleep_ms(20);
		}
		sum_sw += v;
		sum_us += u;
		if (rmdir(c)) {
			ksft_print_msg("rmdir %s: %s\n", c, strerror(errno));
			bad++;
		}
	}
	/* The last css_free, then R must hold exactly the children's */
	for (tries = 0; tries < 100; tries++) {
		if (cg_read_u64(r, "cpuacct.nr_switches", &v) ||
		    cg_read_u64(r, "cpuacct.usage", &u))
			break;
		if (v == sum_sw && u == sum_us)
			break;
		sleep_ms(20);
	}
	ok = readers_stop("removal");
	ksft_print_msg("%d children removed\n", k);
	if (v != sum_sw || u != sum_us) {
		ksft_print_msg("R: nr_switches %llu, children %llu; usage %llu, children %llu\n",
			       U(v), U(sum_sw), U(u), U(sum_us));
		bad++;
	}
	removal_readers_ok = ok;
	return !bad ? KSFT_PASS : KSFT_FAIL;
}

static int test_parent_never_decreases_during_removals(void)
{
	return removal_readers_ok ? KSFT_PASS : KSFT_FAIL;
}

/*
 * 7-9: G -- S -- C, a pair in C; S is reset over and over while the pair
 * runs bursts.  C and G must stay exact; at rest, a reset of S reads 0,
 * and the next burst adds exactly the pair's counts to it.
 */
static int test_reset_under_load_keeps_child_and_ancestor_exact(void)
{
	char *g = cg_make(top, "/G"), *s = cg_make(top, "/G/S");
	char *c = cg_make(top, "/G/S/C");
	char *watch[2];
	struct pair *p = &reset_pair;
	uint64_t sw, rt, end;
	int b, bad = 0;
	pid_t resetter;

	reset_g = g;
	reset_s = s;
	watch[0] = g;
	watch[1] = c;
	if (pair_start(p, allowed_cpu(0)) || pair_enter(p, c))
		ksft_exit_fail_msg("cannot start workers\n");
	readers_start(watch, 2);
	resetter = fork_child();
	if (!resetter) {
		while (!GET(readers.st->stop)) {
			cg_write(s, "cpuacct.nr_switches", "0");
			cg_write(s, "cpuacct.usage", "0");
		}
		_exit(0);
	}
	end = now_ns() + PART_NS;
	for (b = 0; b < RESET_BURSTS && now_ns() < end; b++) {
		pair_burst_start(p);
		pair_burst_wait(p);
		pair_settle(p, &sw, &rt);
		bad += !group_exact(c, sw - p->sw0, rt - p->rt0);
		bad += !group_exact(g, sw - p->sw0, rt - p->rt0);
	}
	reset_readers_ok = readers_stop("reset");
	waitpid(resetter, NULL, 0);
	ksft_print_msg("%d bursts under resets\n", b);
	return !bad ? KSFT_PASS : KSFT_FAIL;
}

static int test_reset_under_load_ancestor_never_decreases(void)
{
	return reset_readers_ok ? KSFT_PASS : KSFT_FAIL;
}

/* At rest: zero, then exactly the next burst */
static int test_reset_at_rest_reads_0_then_exact(void)
{
	char *g = reset_g, *s = reset_s;
	uint64_t sw, rt, sw1, rt1, v = 0, u = 0;
	struct pair *p = &reset_pair;
	bool ok;

	ok = !cg_write(s, "cpuacct.nr_switches", "0") &&
	     !cg_write(s, "cpuacct.usage", "0") &&
	     !cg_read_u64(s, "cpuacct.nr_switches", &v) &&
	     !cg_read_u64(s, "cpuacct.usage", &u) && v == 0 && u == 0;
	if (!ok)
		ksft_print_msg("S after reset at rest: %llu switches, %llu ns\n",
			       U(v), U(u));
	pair_settle(p, &sw, &rt);
	pair_burst_start(p);
	pair_burst_wait(p);
	pair_settle(p, &sw1, &rt1);
	ok = ok && group_exact(s, sw1 - sw, rt1 - rt) &&
	     group_exact(g, sw1 - p->sw0, rt1 - p->rt0);
	pair_stop(p);
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/* In this order: each part builds on the groups of the one before. */
static const struct cg_test tests[] = {
	CG_TEST(leaves_exact_vs_tasks_switches_and_runtime),
	CG_TEST(parents_are_percpu_sums_of_children),
	CG_TEST(totals_never_decrease_under_readers),
	CG_TEST(readers_ran_throughout),
	CG_TEST(removed_children_reach_parent_exactly_once),
	CG_TEST(parent_never_decreases_during_removals),
	CG_TEST(reset_under_load_keeps_child_and_ancestor_exact),
	CG_TEST(reset_under_load_ancestor_never_decreases),
	CG_TEST(reset_at_rest_reads_0_then_exact),
};

int main(void)
{
	ncpus = cg_start_nr_switches(cpus);

	ksft_set_plan(ARRAY_SIZE(tests));
	top = strdup(cg_test_name("exact"));
	cg_make(top, "");
	cg_run_tests(tests, ARRAY_SIZE(tests));
	ksft_finished();
}
