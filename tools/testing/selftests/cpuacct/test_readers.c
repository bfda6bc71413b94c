// SPDX-License-Identifier: GPL-2.0
/*
 * Reads are exact while the groups' tasks switch and run, and whoever
 * else resets or churns: a read must count each charge once.
 *
 *  - reads_exact_while_switching_groups: a task in a child of P
 *    ping-pongs on CPU 1 with a task outside P, so that every switch goes
 *    into or out of P's subtree, and runs for SPIN_NS every other time; a
 *    reader on CPU 0 reads P between two reads of the task's CPU clock:
 *    each read must lie between them.
 *  - reads_exact_while_other_subtree_resets_and_churns: a task runs in
 *    a leaf, then blocks; for STORM_MS, one process resets another
 *    subtree's counters and creates and removes groups in it, running in
 *    each, while this one reads the leaf's parent: every read must equal
 *    the value before the storm and the leaf's.
 *  - removed_group_reaches_parent: a blocked task is moved into a
 *    child, runs there alone on CPU 1, blocks and is moved out (a design
 *    that defers charges may still hold its last ones); the child is
 *    removed and, once it is freed (/proc/cgroups), the parent must hold exactly
 *    the task's runtime in the child; REMOVALS children in turn.
 *  - reads_of_a_group_being_reset: a task runs in a group that another
 *    process resets as fast as it goes: its usage never exceeds what the
 *    task ran, and its user and system times never wrap below zero.
 *  - reset_under_load_is_not_undone: a group is reset and read while its
 *    task runs: the read never exceeds what the task ran since the reset.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "cpuacct_util.h"

#define PINGPONG_MS	1000
#define STORM_MS	1000
#define SPIN_NS		300000

/* Shared with the children (cg_shared()) */
struct shared {
	int phase;		/* 0: wait, 1: read, 2: stop */
	long reads;
};

static struct shared *sh;

static int wait_ok(pid_t pid)
{
	int status;

	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       !WEXITSTATUS(status) ? 0 : -1;
}

/*
 * Bounce a byte between @in and @out on CPU 1 until told to stop, running
 * @spin_ns of CPU time before every other write: a read that a move
 * would spoil may then start while the task runs.
 */
static void bounce(int in, int out, int first, uint64_t spin_ns)
{
	unsigned long n = 0;
	char c = 'p';

	/* Once the other one exited, a write fails instead */
	signal(SIGPIPE, SIG_IGN);
	if (pin_to_cpu(1))
		_exit(1);
	if (first && write(out, &c, 1) != 1)
		_exit(1);
	while (GET(sh->phase) != 2 && read(in, &c, 1) == 1) {
		if (spin_ns && n++ % 2)
			burn_cpu(spin_ns);
		if (write(out, &c, 1) != 1)
			break;
	}
	_exit(0);
}

/*
 * Take @pid's rq->lock, as setting its affinity (to CPU 1, where it is
 * already) does: each update of its runtime that an earlier read of its
 * clock saw has charged its group by then.  A task's clock is read without
 * that lock when it is not running, and may show runtime whose charge, in
 * the same rq->lock section, is still to come.
 */
static int rq_sync(pid_t pid)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(1, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

static uint64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		return 0;
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static int test_reads_exact_while_switching_groups(void)
{
	const char *top = cg_test_name("switching");
	char *p = cg_make(top, ""), *kid = cg_make(top, "/kid");
	char *out = cg_make(top, "_out");
	uint64_t r0, r1 = 0, v, start, end, final;
	long reads = 0, bad = 0;
	int ab[2], ba[2];
	pid_t a, b;
	clockid_t clk;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		ksft_print_msg("needs 2 CPUs\n");
		return KSFT_SKIP;
	}
	if (!kid || pipe(ab) || pipe(ba) || pin_to_cpu(0))
		return KSFT_FAIL;
	memset(sh, 0, sizeof(*sh));
	a = fork();
	if (!a) {
		close(ab[0]);
		close(ba[1]);
		bounce(ba[0], ab[1], 0, SPIN_NS);
	}
	/* Blocked: all its runtime so far is charged, none of it to P */
	if (a < 0 || wait_blocked_in_read(a, ba[0]) || cg_enter(kid, a) ||
	    clock_getcpuclockid(a, &clk))
		return KSFT_FAIL;
	start = clock_ns(clk);
	if (cg_read_u64(p, "cpuacct.usage", &v) || v)
		return KSFT_FAIL;
	b = fork();
	if (!b) {
		close(ab[1]);
		close(ba[0]);
		if (cg_enter(out, getpid()))
			_exit(1);
		bounce(ab[0], ba[1], 1, 0);
	}
	close(ab[0]);
	close(ba[1]);
	if (b < 0)
		return KSFT_FAIL;
	end = now_ns() + PINGPONG_MS * 1000000ULL;
	while (now_ns() < end) {
		r0 = clock_ns(clk) - start;
		if (rq_sync(a) || cg_read_u64(p, "cpuacct.usage", &v) ||
		    rq_sync(a))
			return KSFT_FAIL;
		r1 = clock_ns(clk) - start;
		reads++;
		if (v < r0 || v > r1) {
			if (bad++ < 5)
				ksft_print_msg("read %llu, the task ran %llu to %llu\n",
					       (unsigned long long)v,
					       (unsigned long long)r0,
					       (unsigned long long)r1);
		}
	}
	/* The first to see it exits, the other reads EOF */
	SET(sh->phase, 2);
	close(ab[1]);
	close(ba[0]);
	if (wait_ok(a) || wait_ok(b))
		return KSFT_FAIL;
	ksft_print_msg("%ld reads while the task switched groups, %ld out of bounds\n",
		       reads, bad);
	if (cg_read_u64(p, "cpuacct.usage", &final))
		return KSFT_FAIL;
	return !bad && reads && final >= r1 ? KSFT_PASS : KSFT_FAIL;
}

/* Reset @y, create, enter, leave and remove a group in it, until stopped */
static void storm(const char *y)
{
	char *z;

	if (asprintf(&z, "%s/z", y) < 0)
		_exit(1);
	while (GET(sh->phase) == 0)
		;
	while (GET(sh->phase) == 1) {
		if (cg_write(y, "cpuacct.usage", "0") ||
		    cg_write(y, "cpuacct.nr_switches", "0"))
			_exit(1);
		if (mkdir(z, 0755) || cg_enter(z, getpid()))
			_exit(1);
		burn_cpu(50000);
		if (cg_enter(y, getpid()) || rmdir(z))
			_exit(1);
		SET(sh->reads, GET(sh->reads) + 1);
	}
	_exit(0);
}

/* A task that runs in @cg for a while, then blocks reading @fd */
static pid_t run_then_block(const char *cg, int fd)
{
	pid_t pid = fork();
	char c;

	if (pid)
		return pid;
	if (cg_enter(cg, getpid()))
		_exit(1);
	burn_cpu(50 * 1000000ULL);
	_exit(read(fd, &c, 1) == 1 ? 0 : 1);
}

static int test_reads_exact_while_other_subtree_resets_and_churns(void)
{
	const char *top = cg_test_name("storm");
	char *t = cg_make(top, ""), *x = cg_make(top, "/x"), *leaf = cg_make(top, "/x/a");
	char *y = cg_make(top, "/y");
	uint64_t before, v, leafv;
	long reads = 0, bad = 0;
	pid_t task, st;
	uint64_t end;
	int fds[2];

	if (!t || pipe(fds))
		return KSFT_FAIL;
	task = run_then_block(leaf, fds[0]);
	if (task < 0 || wait_blocked_in_read(task, fds[0]))
		return KSFT_FAIL;
	if (cg_read_u64(x, "cpuacct.usage", &before) ||
	    cg_read_u64(leaf, "cpuacct.usage", &leafv))
		return KSFT_FAIL;

	memset(sh, 0, sizeof(*sh));
	st = fork();
	if (st < 0)
		return KSFT_FAIL;
	if (!st)
		storm(y);
	SET(sh->phase, 1);
	end = now_ns() + STORM_MS * 1000000ULL;
	while (now_ns() < end) {
		if (cg_read_u64(x, "cpuacct.usage", &v))
			break;
		reads++;
		bad += v != before;
	}
	SET(sh->phase, 2);
	if (wait_ok(st)) {
		ksft_print_msg("the storm failed\n");
		return KSFT_FAIL;
	}
	if (write(fds[1], "q", 1) != 1 || wait_ok(task))
		return KSFT_FAIL;
	ksft_print_msg("%ld reads during %ld storm cycles, %ld wrong; parent %llu, leaf %llu\n",
		       reads, GET(sh->reads), bad,
		       (unsigned long long)before, (unsigned long long)leafv);
	return !bad && reads && GET(sh->reads) && before == leafv && before ?
	       KSFT_PASS : KSFT_FAIL;
}

/*
 * A task on CPU 1 that burns BURN_NS each time it reads 'b' from @fd,
 * then writes a byte to @ack, until it reads 'q'.
 */
#define BURN_NS		(2 * 1000000ULL)
#define REMOVALS	20

static pid_t burner(int fd, int ack)
{
	pid_t pid = fork();
	char c;

	if (pid)
		return pid;
	if (pin_to_cpu(1))
		_exit(1);
	while (read(fd, &c, 1) == 1 && c == 'b') {
		burn_cpu(BURN_NS);
		if (write(ack, "d", 1) != 1)
			_exit(1);
	}
	_exit(c == 'q' ? 0 : 1);
}

static int test_removed_group_reaches_parent(void)
{
	const char *top = cg_test_name("removed");
	char *p = cg_make(top, ""), *out = cg_make(top, "_out"), *c;
	uint64_t v = 0, want = 0;
	struct task_total t0, t1;
	int fds[2], ack[2], i, n;
	char d, name[16];
	long before;
	pid_t pid;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		ksft_print_msg("needs 2 CPUs\n");
		return KSFT_SKIP;
	}
	if (!out || pipe(fds) || pipe(ack) || pin_to_cpu(0))
		return KSFT_FAIL;
	pid = burner(fds[0], ack[1]);
	if (pid < 0 || cg_enter(out, pid) || wait_blocked_in_read(pid, fds[0]))
		return KSFT_FAIL;
	/*
	 * A CPU that deferred the child's last charges may keep them only if
	 * nothing else runs there until the child is freed: try REMOVALS
	 * children.
	 */
	for (n = 0; n < REMOVALS; n++) {
		before = proc_cgroups_num();
		snprintf(name, sizeof(name), "/c%d", n);
		c = cg_make(top, name);
		/* Blocked: the move charges nothing */
		if (before < 0 || !c || cg_enter(c, pid) ||
		    task_counts(pid, &t0) || write(fds[1], "b", 1) != 1)
			return KSFT_FAIL;
		if (read(ack[0], &d, 1) != 1 ||
		    wait_blocked_in_read(pid, fds[0]))
			return KSFT_FAIL;
		if (task_counts(pid, &t1) || cg_enter(out, pid) || rmdir(c))
			return KSFT_FAIL;
		for (i = 0; i < 500 && proc_cgroups_num() > before; i++)
			sleep_ms(10);
		if (proc_cgroups_num() > before) {
			ksft_print_msg("child %d was not freed\n", n);
			return KSFT_FAIL;
		}
		want += t1.runtime_ns - t0.runtime_ns;
		if (cg_read_u64(p, "cpuacct.usage", &v) || v != want)
			break;
	}
	if (write(fds[1], "q", 1) != 1 || wait_ok(pid))
		return KSFT_FAIL;
	ksft_print_msg("%d children removed: parent %llu, the task's runtime in them %llu\n",
		       n, (unsigned long long)v, (unsigned long long)want);
	return n == REMOVALS && v == want && v ? KSFT_PASS : KSFT_FAIL;
}

/*
 * A task that runs in @cg (on @cpu, unless it is negative) until the
 * phase is 2.
 */
static pid_t run_until_stopped(const char *cg, int cpu)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	if ((cpu >= 0 && pin_to_cpu(cpu)) || cg_enter(cg, getpid()))
		_exit(1);
	while (GET(sh->phase) != 2)
		burn_cpu(1000000);
	_exit(0);
}

/*
 * A task runs in @g while another process resets @g as fast as it goes:
 * the task's clock, read after the group with its rq->lock taken in
 * between (rq_sync()), covers every charge the read saw, so
 * every read of @g's usage lies between 0 and what the task ran, and no
 * user or system time read wraps below zero (a base above the count).
 * The resetter shares CPU 1 with the task, so that the task is charged
 * at every switch between them, and this reader stays on CPU 0: a read
 * that a reset overtakes then sees a count that grew.
 */
static int test_reads_of_a_group_being_reset(void)
{
	const char *top = cg_test_name("reset");
	char *g = cg_make(top, "");
	uint64_t v, u, s, r1, end;
	long reads = 0, bad = 0;
	pid_t task, st;
	clockid_t clk;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		ksft_print_msg("needs 2 CPUs\n");
		return KSFT_SKIP;
	}
	if (!g || pin_to_cpu(0))
		return KSFT_FAIL;
	memset(sh, 0, sizeof(*sh));
	/* Runs in @g for as long as the resets go on */
	task = run_until_stopped(g, -1);
	if (task < 0 || clock_getcpuclockid(task, &clk))
		return KSFT_FAIL;
	st = fork();
	if (st < 0)
		return KSFT_FAIL;
	if (!st) {
		if (pin_to_cpu(1))
			_exit(1);
		while (GET(sh->phase) == 0)
			;
		while (GET(sh->phase) == 1) {
			if (cg_write(g, "cpuacct.usage", "0"))
				_exit(1);
			SET(sh->reads, GET(sh->reads) + 1);
		}
		_exit(0);
	}
	SET(sh->phase, 1);
	end = now_ns() + STORM_MS * 1000000ULL;
	while (now_ns() < end) {
		if (cg_read_u64(g, "cpuacct.usage", &v) ||
		    cg_read_u64(g, "cpuacct.usage_user", &u) ||
		    cg_read_u64(g, "cpuacct.usage_sys", &s) || rq_sync(task))
			break;
		r1 = clock_ns(clk);
		reads++;
		if (v > r1 || u >= 1ULL << 62 || s >= 1ULL << 62) {
			if (bad++ < 5)
				ksft_print_msg("usage %llu (ran %llu), user %llu, sys %llu\n",
					       (unsigned long long)v,
					       (unsigned long long)r1,
					       (unsigned long long)u,
					       (unsigned long long)s);
		}
	}
	SET(sh->phase, 2);
	if (wait_ok(st)) {
		ksft_print_msg("the resets failed\n");
		return KSFT_FAIL;
	}
	if (wait_ok(task))
		return KSFT_FAIL;
	ksft_print_msg("%ld reads during %ld resets, %ld out of bounds\n",
		       reads, GET(sh->reads), bad);
	return !bad && reads && GET(sh->reads) ? KSFT_PASS : KSFT_FAIL;
}

/*
 * A task runs in @g on CPU 1 while this process resets @g and reads it
 * right away, with the task's clock read before the reset and after the
 * read (each after rq_sync()): the read shows only what was charged after
 * the reset, so no more than the task ran in between.  A reset that a
 * racing charge undid (6.12 stored 0 under the charging CPU's addition)
 * shows what the group had before.
 */
static int test_reset_under_load_is_not_undone(void)
{
	const char *top = cg_test_name("undo");
	char *g = cg_make(top, "");
	uint64_t v, r0, r1, end;
	long resets = 0, bad = 0;
	clockid_t clk;
	pid_t task;

	if (!g)
		return KSFT_FAIL;
	memset(sh, 0, sizeof(*sh));
	task = run_until_stopped(g, 1);
	if (task < 0 || clock_getcpuclockid(task, &clk))
		return KSFT_FAIL;
	end = now_ns() + STORM_MS * 1000000ULL;
	while (now_ns() < end) {
		if (rq_sync(task))
			break;
		r0 = clock_ns(clk);
		if (cg_write(g, "cpuacct.usage", "0") ||
		    cg_read_u64(g, "cpuacct.usage", &v) || rq_sync(task))
			break;
		r1 = clock_ns(clk);
		resets++;
		if (v > r1 - r0 && bad++ < 5)
			ksft_print_msg("usage %llu after a reset, ran %llu since\n",
				       (unsigned long long)v,
				       (unsigned long long)(r1 - r0));
	}
	SET(sh->phase, 2);
	if (wait_ok(task))
		return KSFT_FAIL;
	ksft_print_msg("%ld resets under load, %ld undone\n", resets, bad);
	return !bad && resets ? KSFT_PASS : KSFT_FAIL;
}

static const struct cg_test tests[] = {
	CG_TEST(reads_exact_while_switching_groups),
	CG_TEST(reads_exact_while_other_subtree_resets_and_churns),
	CG_TEST(removed_group_reaches_parent),
	CG_TEST(reads_of_a_group_being_reset),
	CG_TEST(reset_under_load_is_not_undone),
};

int main(void)
{
	ksft_print_header();
	if (cg_setup())
		ksft_exit_skip("cgroup v1 cpuacct controller not available\n");
	sh = cg_shared(sizeof(*sh));
	ksft_set_plan(ARRAY_SIZE(tests));
	cg_run_tests(tests, ARRAY_SIZE(tests));
	ksft_finished();
}
