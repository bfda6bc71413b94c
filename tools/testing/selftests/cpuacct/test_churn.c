// SPDX-License-Identifier: GPL-2.0
/*
 * Group churn: CYCLES times, create a child group, run a short ping-pong
 * in it and remove it, while another process keeps reading the parent's
 * files (and the child's, which may vanish under it).  Nothing may fail,
 * the parent's counters never go down (they keep what removed children
 * were charged), no group is leaked, and the per-CPU memory of the removed
 * groups is given back: "Percpu:" in /proc/meminfo returns to within
 * 64 KiB of where it started.
 *
 * "Percpu:" counts populated pages, and the percpu allocator keeps pages
 * populated after their areas are freed: a few empty pages
 * (PCPU_EMPTY_POP_PAGES_HIGH), up to a quarter of a chunk's, and a whole
 * fully free chunk.  Groups waiting for their RCU-delayed free pile up
 * during the churn, so the first churn may grow the populated set for
 * good without leaking anything.  A warm-up churn therefore runs before
 * the starting point is taken; a leak, of even one cpuacct group's per-CPU
 * counters per cycle, would still exceed 64 KiB in CYCLES cycles (and a
 * churn cut short by MAX_CHURN_NS is not taken as proof).  Groups
 * are freed asynchronously, after an RCU grace period and from a
 * workqueue, so the end state is polled for a while.
 *
 *   test_churn [-t SECS]
 *
 * With -t, cycles go on for SECS seconds instead of stopping after CYCLES
 * (to run it alongside CPU hotplug, for instance).
 *
 * Forking two processes per cycle is slow on an emulated machine, so one
 * worker process does the cycles: it moves itself into the new child,
 * starts a thread there, ping-pongs with it on one CPU (ROUNDS round trips,
 * at least 2 switches each, as in cpuacct_util.h), lets it exit there,
 * moves itself back to the parent and removes the child.  The exiting
 * thread still holds the child's css_set when it switches out for the last
 * time, typically while the child is being removed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "cpuacct_util.h"

#define CYCLES		1000
#define WARMUP_CYCLES	100
#define ROUNDS		5
/*
 * What the percpu allocator may keep populated after a churn without a
 * leak: no tolerance on a measurement, but a bound that a leak exceeds.
 * A leaked group keeps its per-CPU counters, LEAK_BYTES or more per
 * possible CPU (the series' 64, 6.12's 88): a churn of n cycles is only
 * conclusive if n of them would hold more than the slack (leak_kb()).
 */
#define LEAK_BYTES	64
#define PERCPU_SLACK_KB	64
#define SETTLE_MS	10000
/*
 * Stop early rather than run into the kselftest timeout on slow guests
 * (debug kernels under TCG): how many cycles fit is the host's speed, not
 * the kernel's correctness, so a churn cut short fails nothing, and
 * percpu_memory_returns() skips when too few cycles ran to tell a leak.
 */
#define MAX_CHURN_NS	(40 * NSEC_PER_SEC)

/* Written by the worker, read by the test; accessed with GET and SET. */
struct shared {
	int cycles;
	int worker_failed;
	char worker_why[256];
};

static void *pong_thread(void *p)
{
	const int *fds = p;

	return pp_echo(fds[0], fds[1], true) ? (void *)1 : NULL;
}

/* ROUNDS round trips with a new thread, on one CPU, in the current group */
static int thread_pingpong(int cpu)
{
	int ping[2], pong[2], fds[2], ret = -1;
	pthread_t t;
	void *res;

	/* The CPU may have gone offline (CPU 0 stays). */
	if ((pin_to_cpu(cpu) && pin_to_cpu(0)) || pipe(ping))
		return -1;
	if (pipe(pong))
		goto close_ping;
	fds[0] = ping[0];
	fds[1] = pong[1];
	if (pthread_create(&t, NULL, pong_thread, fds))
		goto close_pong;
	if (!pp_wait_ready(pong[0]) &&
	    pp_rounds(ping[1], pong[0], ROUNDS, 0, NULL) == ROUNDS)
		ret = 0;
	if (pp_quit(ping[1]))
		ret = -1;
	if (pthread_join(t, &res) || res)
		ret = -1;
close_pong:
	close(pong[0]);
	close(pong[1]);
close_ping:
	close(ping[0]);
	close(ping[1]);
	return ret;
}

static void worker_fail(struct shared *sh, int cycle, const char *what)
{
	snprintf(sh->worker_why, sizeof(sh->worker_why), "cycle %d: %s: %s",
		 cycle, what, strerror(errno));
	SET(sh->worker_failed, 1);
}

static struct cg_readers readers = { .n = 1, .nr = 1, .pause_us = 200 };

static void worker(struct shared *sh, const char *parent, const char *child,
		   bool has_sw, int cycles, uint64_t max_ns)
{
	uint64_t start = now_ns(), v;
	int i, tries;

	if (cg_enter(parent, getpid())) {
		worker_fail(sh, -1, "enter parent");
		_exit(1);
	}
	for (i = 0; i < cycles && !GET(readers.st->failed); i++) {
		if (mkdir(child, 0755)) {
			worker_fail(sh, i, "mkdir");
			break;
		}
		if (cg_enter(child, getpid())) {
			worker_fail(sh, i, "enter child");
			break;
		}
		if (thread_pingpong(allowed_cpu(i))) {
			worker_fail(sh, i, "ping-pong");
			break;
		}
		if (cg_enter(parent, getpid())) {
			worker_fail(sh, i, "leave child");
			break;
		}
		/* Each round trip is at least 2 switches, charged here. */
		if (has_sw && (cg_read_u64(child, "cpuacct.nr_switches", &v) ||
			       v < 2 * ROUNDS)) {
			errno = 0;
			worker_fail(sh, i, "child nr_switches below 2 per round trip");
			break;
		}
		/* The thread may not have left the group yet. */
		for (tries = 0; rmdir(child) && errno == EBUSY &&
		     tries < 2000; tries++)
			usleep(500);
		if (!access(child, F_OK)) {
			worker_fail(sh, i, "rmdir");
			break;
		}
		SET(sh->cycles, i + 1);
		if (now_ns() - start > max_ns)
			break;
	}
	_exit(GET(sh->worker_failed));
}

static struct shared *sh;
static char *parent, child[4096];
static bool has_sw, readers_ok;
static int cycles = CYCLES;
static uint64_t max_ns = MAX_CHURN_NS;
/* Where the warm-up left them; the parent's counters before the churn */
static long percpu0, num0;
static uint64_t u0, sw0;
/* After the parent's removal */
static long percpu = -1, num = -1;

/* A new parent, and @n cycles in it without a reader. */
static void churn_alone(int n, const char *what)
{
	int status;
	pid_t wk;

	parent = cg_make(cg_test_name("churn"), "");
	snprintf(child, sizeof(child), "%s/c", parent);
	memset(sh, 0, sizeof(*sh));
	memset(readers.st, 0, sizeof(*readers.st));
	fflush(stdout);
	wk = fork();
	if (wk < 0)
		ksft_exit_fail_perror("fork");
	if (!wk)
		worker(sh, parent, child, has_sw, n, MAX_CHURN_NS);
	if (waitpid(wk, &status, 0) != wk || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		ksft_exit_fail_msg("%s failed: %s\n", what, sh->worker_why);
}

/*
 * The parent, and the warm-up: wait until groups and Percpu stop going
 * down, for the starting point.
 */
static void setup(void)
{
	int i;

	sh = cg_shared(sizeof(*sh));
	/* The readers' state, for the worker's warm-up */
	readers.st = cg_shared(sizeof(*readers.st));
	churn_alone(WARMUP_CYCLES, "warm-up");
	percpu0 = meminfo_percpu_kb();
	num0 = proc_cgroups_num();
	for (i = 0; i < SETTLE_MS / 100; i++) {
		sleep_ms(100);
		percpu = meminfo_percpu_kb();
		num = proc_cgroups_num();
		if (percpu == percpu0 && num == num0 && i >= 2)
			break;
		percpu0 = percpu;
		num0 = num;
	}
	if (percpu0 < 0 || num0 < 0)
		ksft_exit_fail_msg("cannot read /proc/meminfo or /proc/cgroups\n");
	memset(sh, 0, sizeof(*sh));

	if (cg_read_u64(parent, "cpuacct.usage", &u0) ||
	    (has_sw && cg_read_u64(parent, "cpuacct.nr_switches", &sw0)))
		ksft_exit_fail_msg("cannot read parent\n");
}

/* The churn, with the reader alongside. */
static int test_churn_cycles_succeed(void)
{
	uint64_t start;
	int status;
	pid_t wk;

	readers.groups = &parent;
	readers.vanishing = child;
	cg_readers_start(&readers);

	start = now_ns();
	wk = fork();
	if (wk < 0)
		ksft_exit_fail_perror("fork");
	if (!wk)
		worker(sh, parent, child, has_sw, cycles, max_ns);
	if (waitpid(wk, &status, 0) != wk || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		SET(sh->worker_failed, 1);

	readers_ok = cg_readers_stop(&readers);
	ksft_print_msg("%d cycles in %llu ms, %ld parent reads, %ld child reads\n",
		       sh->cycles,
		       (unsigned long long)(now_ns() - start) / 1000000,
		       readers.st->reads, readers.st->vanishing_reads);
	if (sh->cycles < CYCLES)
		ksft_print_msg("stopped after %d s\n",
			       (int)(max_ns / NSEC_PER_SEC));

	if (sh->worker_failed)
		ksft_print_msg("worker: %s\n", sh->worker_why);
	return !sh->worker_failed && sh->cycles > 0 ? KSFT_PASS : KSFT_FAIL;
}

/* cg_readers_stop() said why not */
static int test_concurrent_reads_succeed_and_never_decrease(void)
{
	return readers_ok && readers.st->reads > 0 ? KSFT_PASS : KSFT_FAIL;
}

/* The parent kept every removed child's charges. */
static int test_parent_keeps_removed_children(void)
{
	uint64_t sw1 = 0, u1;
	bool ok;

	ok = !cg_read_u64(parent, "cpuacct.usage", &u1) && u1 > u0;
	if (has_sw)
		ok = ok && !cg_read_u64(parent, "cpuacct.nr_switches", &sw1) &&
		     sw1 - sw0 >= 2ULL * ROUNDS * sh->cycles;
	ksft_print_msg("parent: usage +%llu ns, nr_switches +%llu\n",
		       (unsigned long long)(u1 - u0),
		       (unsigned long long)(sw1 - sw0));
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/*
 * Remove the parent, then wait for its groups to be freed and Percpu to
 * return (percpu_memory_returns checks the latter).  One-sided: groups
 * removed by an earlier test may still be freed while this one runs,
 * lowering both below their starting values.
 */
static int test_no_group_leaked(void)
{
	int i;

	if (cg_destroy_tree(parent))
		ksft_exit_fail_msg("cannot remove parent\n");

	for (i = 0; i < SETTLE_MS / 100; i++) {
		num = proc_cgroups_num();
		percpu = meminfo_percpu_kb();
		if (num < num0 && percpu <= percpu0 + PERCPU_SLACK_KB)
			break;
		sleep_ms(100);
	}
	/* num0 counted the parent, which is gone now */
	ksft_print_msg("num_cgroups %ld -> %ld, Percpu %ld -> %ld kB after %d ms\n",
		       num0 - 1, num, percpu0, percpu, i * 100);
	return num < num0 ? KSFT_PASS : KSFT_FAIL;
}

/* The least that a leak of @n groups' per-CPU counters would hold */
static long leak_kb(int n)
{
	int cpus[CG_MAX_CPUS];

	return (long)n * LEAK_BYTES * possible_cpus(cpus, CG_MAX_CPUS) / 1024;
}

/* Would a leak of @n groups show past the slack? */
static bool conclusive(int n)
{
	if (leak_kb(n) > PERCPU_SLACK_KB)
		return true;
	ksft_print_msg("%d cycles: a leak would hold as little as %ld kB, within the %d kB slack\n",
		       n, leak_kb(n), PERCPU_SLACK_KB);
	return false;
}

/*
 * Percpu back where it was.  The percpu allocator may keep some of the
 * pages a churn populated (stock kernels too), but what it keeps does not
 * grow with more churn, while a leak does: past the slack, churn as much
 * again, and that round must add no more than the slack.  A churn cut
 * short (MAX_CHURN_NS) may be too short to tell: the test skips then, as
 * on debug kernels under emulation, where no_group_leaked (num_cgroups)
 * and kmemleak (make check-debug's stress job) still see a leak.
 */
static int test_percpu_memory_returns(void)
{
	long before = percpu, after = -1;
	int i;

	if (!conclusive(sh->cycles))
		return KSFT_SKIP;
	if (percpu <= percpu0 + PERCPU_SLACK_KB)
		return KSFT_PASS;

	churn_alone(CYCLES, "second churn");
	if (!conclusive(sh->cycles))
		return KSFT_SKIP;
	if (cg_destroy_tree(parent))
		ksft_exit_fail_msg("cannot remove parent\n");

	for (i = 0; i < SETTLE_MS / 100; i++) {
		after = meminfo_percpu_kb();
		if (after >= 0 && after <= before + PERCPU_SLACK_KB)
			break;
		sleep_ms(100);
	}
	ksft_print_msg("Percpu %ld -> %ld kB after as many cycles again\n",
		       before, after);
	return after >= 0 && after <= before + PERCPU_SLACK_KB ?
	       KSFT_PASS : KSFT_FAIL;
}

static const struct cg_test tests[] = {
	CG_TEST(churn_cycles_succeed),
	CG_TEST(concurrent_reads_succeed_and_never_decrease),
	CG_TEST(parent_keeps_removed_children),
	CG_TEST(no_group_leaked),
	CG_TEST(percpu_memory_returns),
};

int main(int argc, char **argv)
{
	int o;

	while ((o = getopt(argc, argv, "t:")) != -1) {
		if (o != 't') {
			fprintf(stderr, "usage: %s [-t SECS]\n", argv[0]);
			return KSFT_FAIL;
		}
		max_ns = atol(optarg) * NSEC_PER_SEC;
		cycles = INT_MAX;
	}

	ksft_print_header();
	if (cg_setup())
		ksft_exit_skip("cgroup v1 cpuacct controller not available\n");
	has_sw = cg_has_nr_switches();

	ksft_set_plan(ARRAY_SIZE(tests));
	setup();
	cg_run_tests(tests, ARRAY_SIZE(tests));
	ksft_finished();
}
