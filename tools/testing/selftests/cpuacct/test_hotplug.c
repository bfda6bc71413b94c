// SPDX-License-Identifier: GPL-2.0
/*
 * cpuacct across CPU hotplug: ping-pongs run in the leaves of a 3-level
 * tree while the last online CPU goes offline and online again every
 * INTERVAL ms.  Once they have exited, every parent's counters are still
 * exactly the sums of its children's, per CPU, the offline periods
 * included; each group's files agree; and each leaf counted exactly the
 * switches its tasks saw to their exit (nothing lost or counted twice with
 * a dying CPU's counts; skipped without SCHED_FIFO: see reap_exact()).
 *
 *   test_hotplug [-t RUN_MS] [-i INTERVAL_MS]
 *
 * The defaults (RUN_MS 2000, INTERVAL_MS 100) suit a kselftest run; a
 * stress run can give it minutes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "cpuacct_util.h"

enum { TOP, A, B, A1, A2, B1, NR_GROUPS };
static const char * const names[NR_GROUPS] = {
	"", "/A", "/B", "/A/A1", "/A/A2", "/B/B1",
};

static const int parent_of[NR_GROUPS] = { -1, TOP, TOP, A, A, B };
static const int leaves[] = { A1, A2, B1 };
#define NR_LEAVES 3

static struct cg_tree tree = {
	.n = NR_GROUPS, .names = names, .parent_of = parent_of,
};

struct leaf_report {
	int g;
	int err;
	struct pp_result r;
};

/* The highest online CPU but CPU 0, if it can be taken offline. */
static int hotplug_cpu(char *path, size_t len)
{
	int cpus[CG_MAX_CPUS], n, i;

	n = possible_cpus(cpus, CG_MAX_CPUS);
	for (i = n - 1; i > 0; i--) {
		char buf[8] = "";
		int fd;

		snprintf(path, len, "/sys/devices/system/cpu/cpu%d/online",
			 cpus[i]);
		fd = open(path, O_RDWR);
		if (fd < 0)
			continue;
		if (read(fd, buf, sizeof(buf) - 1) > 0 && buf[0] == '1') {
			close(fd);
			return cpus[i];
		}
		close(fd);
	}
	return -1;
}

static int set_online(const char *path, int on)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0 || write(fd, on ? "1" : "0", 1) != 1)
		ret = -errno;
	if (fd >= 0)
		close(fd);
	return ret;
}

static long run_ms = 2000, interval_ms = 100;
/* The CPU that goes offline and online, and its online file */
static int cpu;
static char online[128];
static struct leaf_report rep[NR_LEAVES];
static int res_pipe[2];
static bool exact;

static void run_leaf(int g, uint64_t run_ns, int res_fd)
{
	struct leaf_report report = { .g = g };
	/*
	 * Unpinned; with exact, they exit on the first allowed CPU, never
	 * the one taken offline (hotplug_cpu()).
	 */
	struct pp_spec spec = {
		.cg = tree.cg[g], .cpu = -1, .duration_ns = run_ns,
		.exact = exact,
	};

	report.err = pingpong(&spec, &report.r);
	if (write(res_fd, &report, sizeof(report)) != sizeof(report))
		_exit(1);
	_exit(0);
}

/*
 * Ping-pongs in the leaves for RUN_MS; meanwhile a CPU goes offline for
 * half an interval, online for the other half, until the end.
 */
static int test_hotplug_transitions(void)
{
	long errs = 0, done[2] = { 0, 0 };	/* offline, online transitions */
	uint64_t end;
	int i, on;

	fflush(stdout);
	if (pipe(res_pipe))
		ksft_exit_fail_perror("pipe");
	for (i = 0; i < NR_LEAVES; i++) {
		pid_t pid = fork();

		if (pid < 0)
			ksft_exit_fail_perror("fork");
		if (!pid)
			run_leaf(leaves[i], run_ms * 1000000ULL, res_pipe[1]);
	}
	close(res_pipe[1]);

	end = now_ns() + run_ms * 1000000ULL;
	while (now_ns() < end) {
		for (on = 0; on <= 1; on++) {
			int ret = set_online(online, on);

			if (ret && !errs++)
				ksft_print_msg("cpu%d %s: %s\n", cpu,
					       on ? "online" : "offline",
					       strerror(-ret));
			done[on] += !ret;
			sleep_ms(on ? interval_ms - interval_ms / 2 :
				 interval_ms / 2);
		}
	}
	/* Leave the CPU online, whatever happened. */
	for (i = 0; i < 50 && set_online(online, 1); i++)
		sleep_ms(100);
	ksft_print_msg("cpu%d: %ld offline, %ld online transitions, %ld errors in %ld ms\n",
		       cpu, done[0], done[1], errs, run_ms);
	return done[0] > 0 && done[1] == done[0] && !errs ?
	       KSFT_PASS : KSFT_FAIL;
}

/* Once the ping-pongs have exited, their groups' counters settle. */
static int test_counters_settle(void)
{
	int i, status;
	bool ok = true;

	for (i = 0; i < NR_LEAVES; i++) {
		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) ||
		    read(res_pipe[0], &rep[i], sizeof(rep[i])) != sizeof(rep[i]) ||
		    rep[i].err) {
			ksft_print_msg("ping-pong %d failed\n", i);
			ok = false;
		}
	}
	close(res_pipe[0]);
	if (!ok)
		ksft_exit_fail_msg("ping-pongs failed\n");

	return cg_tree_settle(&tree) ? KSFT_FAIL : KSFT_PASS;
}

static int test_parent_equals_sum_of_children(void)
{
	bool ok = tree.snaps[TOP].usage > 0;
	int g;

	for (g = TOP; g <= B; g++)
		ok &= cg_tree_sums_ok(&tree, g,
				      CG_USAGE | CG_USER | CG_SYS | CG_SW);
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

static int test_leaf_nr_switches_cover_tasks(void)
{
	bool ok = true, all_exact = true;
	int i;

	if (!cg_has_nr_switches()) {
		ksft_print_msg("no cpuacct.nr_switches\n");
		return KSFT_SKIP;
	}
	for (i = 0; i < NR_LEAVES; i++) {
		const struct pp_result *r = &rep[i].r;
		uint64_t sum = r->a_sw[3] - r->a_sw[0] + r->b_sw[1] - r->b_sw[0];
		/* B's whole life and A's from its entering the leaf on */
		uint64_t lo = r->b_total_sw + r->a_total_sw - r->a_post_sw;
		uint64_t hi = r->b_total_sw + r->a_total_sw - r->a_pre_sw;
		uint64_t have = tree.snaps[rep[i].g].sw;

		ksft_print_msg("%s: %ld round trips, group %llu switches, %llu between samples\n",
			       tree.cg[rep[i].g], r->rounds,
			       (unsigned long long)have, (unsigned long long)sum);
		ok &= have >= sum;
		all_exact &= r->exact;
		if (!r->exact)
			continue;
		ksft_print_msg("%s: %llu to %llu in their whole lives\n",
			       tree.cg[rep[i].g], (unsigned long long)lo,
			       (unsigned long long)hi);
		ok &= have >= lo && have <= hi;
	}
	if (!ok)
		return KSFT_FAIL;
	return all_exact ? KSFT_PASS : KSFT_SKIP;
}

static const struct cg_test tests[] = {
	CG_TEST(hotplug_transitions),
	CG_TEST(counters_settle),
	CG_TEST(parent_equals_sum_of_children),
	CG_TEST(totals_percpu_and_usage_all_agree),
	CG_TEST(leaf_nr_switches_cover_tasks),
};

int main(int argc, char **argv)
{
	int o;

	while ((o = getopt(argc, argv, "t:i:")) != -1) {
		switch (o) {
		case 't':
			run_ms = atol(optarg);
			break;
		case 'i':
			interval_ms = atol(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-t RUN_MS] [-i INTERVAL_MS]\n",
				argv[0]);
			return KSFT_FAIL;
		}
	}

	ksft_print_header();
	if (cg_setup())
		ksft_exit_skip("cgroup v1 cpuacct controller not available\n");
	exact = exact_exit_available();
	cpu = hotplug_cpu(online, sizeof(online));
	if (cpu < 0)
		ksft_exit_skip("no CPU that can be taken offline\n");

	ksft_set_plan(ARRAY_SIZE(tests));
	cg_tree_create(&tree, "hotplug");
	cg_run_tests(tests, ARRAY_SIZE(tests));
	ksft_finished();
}
