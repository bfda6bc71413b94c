// SPDX-License-Identifier: GPL-2.0
/*
 * Group creation under allocation failure: NR_MKDIRS mkdirs of children of
 * a group P while failslab and fail_page_alloc fail some of the
 * allocations of this task, and of this task only (task-filter and
 * /proc/self/make-it-fail, set just around each mkdir).  Every mkdir either
 * succeeds, and the new group reads 0, or fails with ENOMEM; P's counters
 * never change; no group is left behind; and the populated per-CPU memory
 * ("Percpu:") returns to where a warm-up without failures left it.
 *
 * The failure probability cycles from 1% to MAX_PERCENT, so that both
 * outcomes occur: a mkdir makes dozens of allocations.  Skips on kernels
 * without CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC and their debugfs files.
 * Leaks that do not show in "Percpu:" are for kmemleak: run a scan
 * afterwards on a kernel with CONFIG_DEBUG_KMEMLEAK.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cpuacct_util.h"

#define NR_MKDIRS	200
#define MAX_PERCENT	10
#define SETTLE_MS	10000

static const char * const attrs[] = {
	"/sys/kernel/debug/failslab",
	"/sys/kernel/debug/fail_page_alloc",
};

static int attr_write(const char *dir, const char *name, const char *val)
{
	char path[256];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	if (write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		ret = -1;
	close(fd);
	return ret;
}

/* Aim both at this task (make-it-fail), at any allocation; -1 on error. */
static int inject_setup(void)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		ret |= attr_write(attrs[i], "task-filter", "Y");
		ret |= attr_write(attrs[i], "interval", "1");
		ret |= attr_write(attrs[i], "times", "-1");
		/* verbose > 0 prints a stack trace per injected failure */
		ret |= attr_write(attrs[i], "verbose", "0");
		/* GFP_KERNEL allocations are exempt by default */
		ret |= attr_write(attrs[i], "ignore-gfp-wait", "N");
	}
	ret |= attr_write(attrs[1], "min-order", "0");
	return ret;
}

/* Fail @percent of the allocations aimed at (0: none), or -1 on error. */
static int inject(int percent)
{
	char p[8];
	unsigned int i;
	int ret = 0;

	snprintf(p, sizeof(p), "%d", percent);
	for (i = 0; i < ARRAY_SIZE(attrs); i++)
		ret |= attr_write(attrs[i], "probability", p);
	return ret;
}

static void cleanup(void)
{
	inject(0);
}

/* The populated per-CPU memory, once it stops going down. */
static long settled_percpu_kb(long limit)
{
	long kb = meminfo_percpu_kb(), prev = -1;
	int i;

	for (i = 0; i < SETTLE_MS / 100 && (kb != prev || kb > limit); i++) {
		sleep_ms(100);
		prev = kb;
		kb = meminfo_percpu_kb();
	}
	return kb;
}

static char *parent, child[4096];
static long percpu0, num0;
static int created, enomem, other, fd;
static bool zero = true, unchanged = true;
/* The parent's counters when it was created */
static struct cg_snap before;

/* The mkdirs under fault injection; the tests below report what they did */
static int test_mkdir_succeeds_or_enomem(void)
{
	struct cg_snap after, kid;
	int i;

	atexit(cleanup);
	if (inject_setup())
		ksft_exit_fail_msg("cannot set up fault injection\n");
	for (i = 0; i < NR_MKDIRS; i++) {
		int ret, err;

		if (inject(1 + i % MAX_PERCENT))
			ksft_exit_fail_msg("cannot set up fault injection\n");
		if (pwrite(fd, "1", 1, 0) != 1)
			ksft_exit_fail_perror("make-it-fail");
		ret = mkdir(child, 0755);
		err = errno;
		if (pwrite(fd, "0", 1, 0) != 1)
			ksft_exit_fail_perror("make-it-fail");
		if (!ret) {
			created++;
			if (cg_snap_read(child, &kid) || !cg_snap_is_zero(&kid)) {
				ksft_print_msg("mkdir %d: new group not all 0\n", i);
				zero = false;
			}
			if (rmdir(child))
				ksft_exit_fail_perror("rmdir");
		} else if (err == ENOMEM) {
			enomem++;
		} else {
			ksft_print_msg("mkdir %d: %s\n", i, strerror(err));
			other++;
		}
		if (cg_snap_read(parent, &after) ||
		    memcmp(&before, &after, sizeof(before)))
			unchanged = false;
	}
	inject(0);
	ksft_print_msg("%d mkdirs: %d created, %d ENOMEM, %d other errors\n",
		       NR_MKDIRS, created, enomem, other);
	return !other ? KSFT_PASS : KSFT_FAIL;
}

static int test_both_outcomes_occur(void)
{
	return created > 0 && enomem > 0 ? KSFT_PASS : KSFT_FAIL;
}

static int test_created_groups_read_zero(void)
{
	return zero ? KSFT_PASS : KSFT_FAIL;
}

static int test_parent_unchanged(void)
{
	return unchanged ? KSFT_PASS : KSFT_FAIL;
}

/* Removed groups are freed after an RCU grace period. */
static int test_nothing_leaked(void)
{
	long percpu, num;
	int i;

	for (i = 0; i < SETTLE_MS / 100; i++) {
		num = proc_cgroups_num();
		if (num <= num0)
			break;
		sleep_ms(100);
	}
	percpu = settled_percpu_kb(percpu0);
	ksft_print_msg("num_cgroups %ld -> %ld, Percpu %ld -> %ld kB\n",
		       num0, num, percpu0, percpu);
	return num <= num0 && percpu <= percpu0 ? KSFT_PASS : KSFT_FAIL;
}

static const struct cg_test tests[] = {
	CG_TEST(mkdir_succeeds_or_enomem),
	CG_TEST(both_outcomes_occur),
	CG_TEST(created_groups_read_zero),
	CG_TEST(parent_unchanged),
	CG_TEST(nothing_leaked),
};

int main(void)
{
	int i;

	ksft_print_header();
	if (cg_setup())
		ksft_exit_skip("cgroup v1 cpuacct controller not available\n");
	for (i = 0; i < (int)ARRAY_SIZE(attrs); i++)
		if (access(attrs[i], F_OK))
			ksft_exit_skip("no %s (CONFIG_FAULT_INJECTION_DEBUG_FS)\n",
				       attrs[i]);
	fd = open("/proc/self/make-it-fail", O_WRONLY);
	if (fd < 0)
		ksft_exit_skip("no /proc/self/make-it-fail\n");
	ksft_set_plan(ARRAY_SIZE(tests));

	parent = cg_make(cg_test_name("mkdir_fail"), "");
	if (cg_snap_read(parent, &before))
		ksft_exit_fail_msg("cannot read parent\n");
	snprintf(child, sizeof(child), "%s/c", parent);

	/* Warm-up: the per-CPU areas NR_MKDIRS groups need get populated. */
	for (i = 0; i < NR_MKDIRS; i++) {
		if (mkdir(child, 0755) || rmdir(child))
			ksft_exit_fail_perror("warm-up mkdir/rmdir");
	}
	num0 = proc_cgroups_num();
	percpu0 = settled_percpu_kb(LONG_MAX);

	cg_run_tests(tests, ARRAY_SIZE(tests));
	ksft_finished();
}
