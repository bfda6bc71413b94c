// SPDX-License-Identifier: GPL-2.0
/*
 * cpuacct hierarchy: a fresh group reads 0 everywhere; after busy tasks
 * in the leaves of a 3-level tree have exited, every parent's counters are
 * exactly the sums of its children's, per CPU, and the files of each group
 * agree with each other.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "cpuacct_util.h"

/* CPU time each leaf task burns */
#define WORK_NS		(200 * 1000 * 1000ULL)
/* Runtime of a task's exit path, after it measured its CPU time */
#define EXIT_SLACK_NS	(50 * 1000 * 1000ULL)
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

static char *cg[NR_GROUPS];
static int cpus[CG_MAX_CPUS], ncpus;
static bool has_sw;

struct snap {
	uint64_t usage, user, sys, sw;
	uint64_t pc_usage[CG_MAX_CPUS], pc_user[CG_MAX_CPUS];
	uint64_t pc_sys[CG_MAX_CPUS], pc_sw[CG_MAX_CPUS];
	uint64_t all_user[CG_MAX_CPUS], all_sys[CG_MAX_CPUS];
	uint64_t stat_user, stat_sys;
};

static struct snap snaps[NR_GROUPS], prev_snaps[NR_GROUPS];

static int read_percpu_n(const char *c, const char *file, uint64_t *vals)
{
	int n = cg_read_percpu(c, file, vals, CG_MAX_CPUS);

	if (n != ncpus) {
		ksft_print_msg("%s/%s: %d values, %d possible CPUs\n",
			       c, file, n, ncpus);
		return -1;
	}
	return 0;
}

/* cpuacct.usage_all: "cpu user system\n", then "<cpu> <user> <sys>\n". */
static int read_usage_all(const char *c, struct snap *s)
{
	char buf[64 * CG_MAX_CPUS], *line, *save;
	unsigned long long u, y;
	int i = 0, cpu, pos;

	if (cg_read(c, "cpuacct.usage_all", buf, sizeof(buf)) <= 0)
		return -1;
	if (strncmp(buf, "cpu user system\n", 16))
		goto bad;
	for (line = strtok_r(buf + 16, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), i++) {
		if (i == ncpus ||
		    sscanf(line, "%d %llu %llu%n", &cpu, &u, &y, &pos) != 3 ||
		    line[pos] || cpu != cpus[i])
			goto bad;
		s->all_user[i] = u;
		s->all_sys[i] = y;
	}
	if (i != ncpus)
		goto bad;
	return 0;
bad:
	ksft_print_msg("%s/cpuacct.usage_all: bad format\n", c);
	return -1;
}

static int read_stat(const char *c, struct snap *s)
{
	unsigned long long u, y;
	char buf[256];
	int pos = -1;

	if (cg_read(c, "cpuacct.stat", buf, sizeof(buf)) <= 0)
		return -1;
	if (sscanf(buf, "user %llu\nsystem %llu\n%n", &u, &y, &pos) != 2 ||
	    pos < 0 || buf[pos]) {
		ksft_print_msg("%s/cpuacct.stat: bad format '%s'\n", c, buf);
		return -1;
	}
	s->stat_user = u;
	s->stat_sys = y;
	return 0;
}

static int read_snap(const char *c, struct snap *s)
{
	memset(s, 0, sizeof(*s));
	if (cg_read_u64(c, "cpuacct.usage", &s->usage) ||
	    cg_read_u64(c, "cpuacct.usage_user", &s->user) ||
	    cg_read_u64(c, "cpuacct.usage_sys", &s->sys) ||
	    read_percpu_n(c, "cpuacct.usage_percpu", s->pc_usage) ||
	    read_percpu_n(c, "cpuacct.usage_percpu_user", s->pc_user) ||
	    read_percpu_n(c, "cpuacct.usage_percpu_sys", s->pc_sys) ||
	    read_usage_all(c, s))
		return -1;
	if (has_sw &&
	    (cg_read_u64(c, "cpuacct.nr_switches", &s->sw) ||
	     read_percpu_n(c, "cpuacct.nr_switches_percpu", s->pc_sw)))
		return -1;
	return 0;
}

static int read_all(struct snap *s)
{
	int g;

	for (g = 0; g < NR_GROUPS; g++)
		if (read_snap(cg[g], &s[g]))
			return -1;
	return 0;
}

static bool snap_is_zero(const struct snap *s)
{
	int i;

	if (s->usage || s->user || s->sys || s->sw)
		return false;
	for (i = 0; i < ncpus; i++)
		if (s->pc_usage[i] || s->pc_user[i] || s->pc_sys[i] ||
		    s->pc_sw[i] || s->all_user[i] || s->all_sys[i])
			return false;
	return true;
}

static bool fresh_group_zero(int g)
{
	struct snap s;

	if (read_snap(cg[g], &s) || read_stat(cg[g], &s))
		return false;
	if (!snap_is_zero(&s) || s.stat_user || s.stat_sys) {
		ksft_print_msg("%s: not all 0\n", cg[g]);
		return false;
	}
	return true;
}

struct work_report {
	int g;				/* the task's leaf */
	uint64_t start_ns, end_ns;	/* its CPU time around the work */
};

static int run_leaf(int g, int res_fd)
{
	pid_t pid = fork();
	struct work_report r = { .g = g };

	if (pid)
		return pid < 0 ? -1 : 0;
	if (cg_enter(cg[g], getpid()))
		_exit(1);
	r.start_ns = thread_cputime_ns();
	burn_cpu(WORK_NS);
	r.end_ns = thread_cputime_ns();
	if (write(res_fd, &r, sizeof(r)) != sizeof(r))
		_exit(1);
	_exit(0);
}

static bool sums_ok(int p, const char *what,
		    uint64_t (*get)(const struct snap *, int))
{
	bool ok = true;
	int i, g;

	for (i = -1; i < ncpus; i++) {
		uint64_t sum = 0;

		for (g = 0; g < NR_GROUPS; g++)
			if (parent_of[g] == p)
				sum += get(&snaps[g], i);
		if (get(&snaps[p], i) != sum) {
			ksft_print_msg("%s %s cpu idx %d: %llu != children's %llu\n",
				       cg[p], what, i,
				       (unsigned long long)get(&snaps[p], i),
				       (unsigned long long)sum);
			ok = false;
		}
	}
	return ok;
}

/* i == -1: the total; else the value of the i-th possible CPU */
static uint64_t get_usage(const struct snap *s, int i)
{
	return i < 0 ? s->usage : s->pc_usage[i];
}

static uint64_t get_user(const struct snap *s, int i)
{
	return i < 0 ? s->user : s->pc_user[i];
}

static uint64_t get_sys(const struct snap *s, int i)
{
	return i < 0 ? s->sys : s->pc_sys[i];
}

static uint64_t get_sw(const struct snap *s, int i)
{
	return i < 0 ? s->sw : s->pc_sw[i];
}

static bool files_agree(int g)
{
	const struct snap *s = &snaps[g];
	uint64_t usage = 0, user = 0, sys = 0, sw = 0;
	bool ok = true;
	int i;

	for (i = 0; i < ncpus; i++) {
		usage += s->pc_usage[i];
		user += s->pc_user[i];
		sys += s->pc_sys[i];
		sw += s->pc_sw[i];
		if (s->all_user[i] != s->pc_user[i] ||
		    s->all_sys[i] != s->pc_sys[i]) {
			ksft_print_msg("%s: usage_all cpu %d differs from usage_percpu_user/sys\n",
				       cg[g], cpus[i]);
			ok = false;
		}
	}
	if (usage != s->usage || user != s->user || sys != s->sys ||
	    sw != s->sw) {
		ksft_print_msg("%s: totals differ from per-CPU sums\n", cg[g]);
		ok = false;
	}
	return ok;
}

int main(void)
{
	struct work_report rep[NR_BUSY] = { };
	int res_pipe[2], g, i, n, status, stable;
	uint64_t clk_tck;
	bool ok;

	ksft_print_header();
	if (cg_setup())
		ksft_exit_skip("cgroup v1 cpuacct controller not available\n");
	has_sw = cg_has_nr_switches();
	ncpus = possible_cpus(cpus, CG_MAX_CPUS);
	if (ncpus <= 0)
		ksft_exit_fail_msg("cannot read possible CPUs\n");
	clk_tck = sysconf(_SC_CLK_TCK);

	ksft_set_plan(9);

	for (g = 0; g < NR_GROUPS; g++) {
		char name[256];

		snprintf(name, sizeof(name), "%s%s", cg_test_name("hier"),
			 names[g]);
		cg[g] = cg_create(name);
		if (!cg[g])
			ksft_exit_fail_msg("cannot create groups\n");
	}

	ok = true;
	for (g = 0; g < NR_GROUPS; g++)
		ok &= fresh_group_zero(g);
	ksft_test_result(ok, "fresh_group_reads_zero\n");

	/* Busy tasks in the leaves, not pinned: both CPUs get charged. */
	fflush(stdout);
	if (pipe(res_pipe))
		ksft_exit_fail_perror("pipe");
	for (i = 0; i < NR_BUSY; i++)
		if (run_leaf(busy[i], res_pipe[1]))
			ksft_exit_fail_perror("fork");
	close(res_pipe[1]);
	for (i = 0; i < NR_BUSY; i++) {
		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			ksft_exit_fail_msg("busy task failed\n");
	}
	for (n = 0; n < NR_BUSY; n++) {
		struct work_report r;

		if (read(res_pipe[0], &r, sizeof(r)) != sizeof(r))
			ksft_exit_fail_msg("missing report\n");
		for (i = 0; i < NR_BUSY; i++)
			if (busy[i] == r.g)
				rep[i] = r;
	}
	close(res_pipe[0]);

	/*
	 * The tasks are reaped, but their final switch and exit may still
	 * be charging: wait until two snapshots 50 ms apart are identical.
	 */
	stable = 0;
	for (i = 0; i < 40 && !stable; i++) {
		memcpy(prev_snaps, snaps, sizeof(snaps));
		if (read_all(snaps))
			ksft_exit_fail_msg("cannot read the groups\n");
		stable = i && !memcmp(prev_snaps, snaps, sizeof(snaps));
		if (!stable)
			sleep_ms(50);
	}
	ksft_test_result(stable, "counters_settle\n");

	/*
	 * Each leaf is charged all the runtime of its task from the moment
	 * it entered the leaf, which includes the work the task measured
	 * after entering, and at most the task's whole runtime: what it
	 * measured at the end plus its exit.
	 */
	ok = true;
	for (i = 0; i < NR_BUSY; i++) {
		const struct snap *s = &snaps[busy[i]];
		uint64_t work = rep[i].end_ns - rep[i].start_ns;

		if (rep[i].g != busy[i] || work < WORK_NS || s->usage < work ||
		    s->usage > rep[i].end_ns + EXIT_SLACK_NS) {
			ksft_print_msg("%s: usage %llu, work %llu, task total %llu ns\n",
				       cg[busy[i]],
				       (unsigned long long)s->usage,
				       (unsigned long long)work,
				       (unsigned long long)rep[i].end_ns);
			ok = false;
		}
	}
	ksft_test_result(ok, "leaf_usage_matches_work\n");

	ok = true;
	for (g = 0; g < NR_GROUPS; g++) {
		bool parent = false;

		for (i = 0; i < NR_GROUPS; i++)
			parent |= parent_of[i] == g;
		if (!parent)
			continue;
		ok &= sums_ok(g, "usage", get_usage);
		ok &= sums_ok(g, "usage_user", get_user);
		ok &= sums_ok(g, "usage_sys", get_sys);
	}
	ok &= snaps[TOP].usage >= NR_BUSY * WORK_NS;
	ksft_test_result(ok, "parent_equals_sum_of_children\n");

	if (has_sw) {
		ok = snaps[TOP].sw > 0;
		for (g = TOP; g <= B; g++)
			ok &= sums_ok(g, "nr_switches", get_sw);
		ksft_test_result(ok, "parent_nr_switches_equals_sum\n");
	} else {
		ksft_test_result_skip("parent_nr_switches_equals_sum: no cpuacct.nr_switches\n");
	}

	ok = true;
	for (g = 0; g < NR_GROUPS; g++)
		ok &= files_agree(g);
	ksft_test_result(ok, "totals_percpu_and_usage_all_agree\n");

	/*
	 * usage_user + usage_sys vs usage: no exact relation.  Ticks sample
	 * the current task, so for busy tasks the sum tracks the runtime;
	 * it is an overestimate by at most the sampling error (tolerated
	 * here: 50% plus two of the longest ticks), and an underestimate
	 * when ticks are lost, e.g. when an emulated CPU is descheduled by
	 * its host: hrtimer_forward() skips the missed periods, and
	 * account_process_tick() charges one tick only, while the runtime
	 * (sched_clock) counts it all.  So only a quarter is required.
	 * A user space busy loop is mostly user time.
	 */
	ok = true;
	for (i = 0; i < NR_BUSY; i++) {
		const struct snap *s = &snaps[busy[i]];
		uint64_t ticks = s->user + s->sys;

		ksft_print_msg("%s: usage %llu user %llu sys %llu ns\n",
			       cg[busy[i]], (unsigned long long)s->usage,
			       (unsigned long long)s->user,
			       (unsigned long long)s->sys);
		if (ticks < s->usage / 4 ||
		    ticks > s->usage / 2 * 3 + 2 * TICK_MAX_NS ||
		    s->user < s->sys)
			ok = false;
	}
	ksft_test_result(ok, "user_plus_sys_tracks_usage\n");

	/*
	 * cpuacct.stat: user + system == usage in ns, each truncated to
	 * USER_HZ, so their sum in ticks is floor(usage) or one less.  Not
	 * so with CONFIG_VIRT_CPU_ACCOUNTING_NATIVE (no scaling).
	 */
#if defined(__powerpc__) || defined(__s390__)
	ksft_test_result_skip("stat_splits_usage: VIRT_CPU_ACCOUNTING_NATIVE\n");
#else
	ok = true;
	for (g = 0; g < NR_GROUPS; g++) {
		uint64_t ticks = snaps[g].usage / (NSEC_PER_SEC / clk_tck);
		struct snap s = snaps[g];
		uint64_t sum;

		if (read_stat(cg[g], &s)) {
			ok = false;
			continue;
		}
		sum = s.stat_user + s.stat_sys;
		if (sum > ticks || sum + 1 < ticks) {
			ksft_print_msg("%s: stat %llu+%llu, usage %llu ns, USER_HZ %llu\n",
				       cg[g], (unsigned long long)s.stat_user,
				       (unsigned long long)s.stat_sys,
				       (unsigned long long)snaps[g].usage,
				       (unsigned long long)clk_tck);
			ok = false;
		}
	}
	ksft_test_result(ok, "stat_splits_usage\n");
#endif

	/*
	 * The root's usage counts every task, its user and system times are
	 * the system-wide kernel_cpustat, charged along with every group's:
	 * read after the tree, they are at least the tree's.
	 */
	{
		struct snap root;

		ok = !read_snap(cg_root, &root) &&
		     root.usage >= snaps[TOP].usage &&
		     root.user >= snaps[TOP].user &&
		     root.sys >= snaps[TOP].sys &&
		     root.sw >= snaps[TOP].sw &&
		     fresh_group_zero(E);
		ksft_test_result(ok, "root_covers_tree_and_empty_leaf_stays_zero\n");
	}

	ksft_finished();
}
