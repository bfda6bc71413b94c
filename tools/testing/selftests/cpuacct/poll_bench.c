// SPDX-License-Identifier: GPL-2.0
/*
 * Cost of reading cpuacct the way a monitoring agent does, at scale.
 *
 *   poll_bench [-m ACTIVE_MS] [-n LEAVES] PARENT
 *
 * PARENT holds a hierarchy of groups (every directory below it).  After
 * an untimed poll (below) that looks every file up once, ACTIVE_MS
 * (default 1000) of activity in LEAVES (default 200) of its leaves,
 * evenly spread: a task on the last online CPU enters each in turn and
 * runs there.  Then, on CPU 0, one read of PARENT's cpuacct.usage (the
 * first since the activity), and the same read again with nothing run in
 * between.  Activity once more, then one poll: cpuacct.usage,
 * cpuacct.usage_percpu and cpuacct.stat of every group read once; and the
 * poll again with nothing run in between.  Last, a read of one leaf's
 * cpuacct.usage.  It prints
 *   # bench: NAME=VALUE UNIT
 * NAME: reads_parent_active, reads_parent_idle, reads_poll,
 * reads_poll_idle and reads_leaf, with, for the first read,
 * reads_parent_active_pairs: the number of (group, CPU) pairs the
 * activity updated (LEAVES on one CPU).  Under QEMU's -icount shift=0,
 * guest nanoseconds count instructions.  A benchmark program, not a test:
 * it is built, not run by kselftest.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpuacct_util.h"

#define MAX_GROUPS	8192
#define REPEATS		20

static char *groups[MAX_GROUPS];
static int nr_groups, nr_leaves;
static int leaf[MAX_GROUPS];	/* indices into groups[] of the leaves */

/* Every directory below @dir, parents before children; @self: @dir's index */
static int collect(const char *dir, int self)
{
	struct dirent *de;
	char path[PATH_MAX];
	DIR *d = opendir(dir);
	int start = nr_groups, end, i;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if (nr_groups == MAX_GROUPS) {
			fprintf(stderr, "poll_bench: more than %d groups\n",
				MAX_GROUPS);
			exit(1);
		}
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		groups[nr_groups++] = strdup(path);
	}
	closedir(d);
	end = nr_groups;
	if (end == start && self >= 0)
		leaf[nr_leaves++] = self;
	for (i = start; i < end; i++)
		if (collect(groups[i], i))
			return -1;
	return 0;
}

static void read_file(const char *dir, const char *file)
{
	static char buf[65536];
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf)) <= 0) {
		perror(path);
		exit(1);
	}
	close(fd);
}

static uint64_t timed_read(const char *dir, const char *file)
{
	uint64_t start = now_ns();

	read_file(dir, file);
	return now_ns() - start;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static uint64_t median_read(const char *dir, const char *file)
{
	uint64_t ns[REPEATS];
	int i;

	for (i = 0; i < REPEATS; i++)
		ns[i] = timed_read(dir, file);
	qsort(ns, REPEATS, sizeof(ns[0]), cmp_u64);
	return ns[REPEATS / 2];
}

/* @ms of running in @n leaves, one after the other, on @cpu */
static void activity(int cpu, int n, long ms)
{
	pid_t pid = fork();
	int i, status;

	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (!pid) {
		if (pin_to_cpu(cpu))
			_exit(1);
		for (i = 0; i < n; i++) {
			uint64_t end;

			if (cg_enter(groups[leaf[i * nr_leaves / n]], 0))
				_exit(1);
			end = now_ns() + ms * 1000000 / n;
			while (now_ns() < end)
				;
		}
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "poll_bench: the running task failed\n");
		exit(1);
	}
}

static uint64_t poll(void)
{
	static const char * const files[] = {
		"cpuacct.usage", "cpuacct.usage_percpu", "cpuacct.stat",
	};
	uint64_t start = now_ns();
	int i, f;

	for (i = 0; i < nr_groups; i++)
		for (f = 0; f < 3; f++)
			read_file(groups[i], files[f]);
	return now_ns() - start;
}

int main(int argc, char **argv)
{
	static int cpus[CG_MAX_CPUS];
	long ms = 1000;
	int n = 200, o, cpu;
	const char *parent;
	uint64_t ns;

	while ((o = getopt(argc, argv, "m:n:")) != -1) {
		switch (o) {
		case 'm':
			ms = atol(optarg);
			break;
		case 'n':
			n = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1 || ms <= 0 || n <= 0)
		goto usage;
	parent = argv[optind];
	if (collect(parent, -1)) {
		perror(parent);
		return 1;
	}
	/* In the order of groups[], parents before children */
	qsort(leaf, nr_leaves, sizeof(leaf[0]), cmp_int);
	if (nr_leaves < n) {
		fprintf(stderr, "poll_bench: %d leaves, fewer than %d\n",
			nr_leaves, n);
		return 1;
	}
	cpu = sysconf(_SC_NPROCESSORS_ONLN) - 1;
	if (pin_to_cpu(0)) {
		perror("poll_bench");
		return 1;
	}
	/* Look every file up once: the figures are reads, not first opens */
	poll();
	read_file(parent, "cpuacct.usage");
	printf("# bench: reads_groups=%d groups\n", nr_groups);
	printf("# bench: reads_possible_cpus=%d cpus\n",
	       possible_cpus(cpus, CG_MAX_CPUS));

	activity(cpu, n, ms);
	ns = timed_read(parent, "cpuacct.usage");
	printf("# bench: reads_parent_active=%llu ns\n",
	       (unsigned long long)ns);
	printf("# bench: reads_parent_active_pairs=%d pairs\n", n);
	printf("# bench: reads_parent_idle=%llu ns\n",
	       (unsigned long long)median_read(parent, "cpuacct.usage"));

	activity(cpu, n, ms);
	printf("# bench: reads_poll=%llu ns\n", (unsigned long long)poll());
	printf("# bench: reads_poll_idle=%llu ns\n",
	       (unsigned long long)poll());
	printf("# bench: reads_leaf=%llu ns\n",
	       (unsigned long long)median_read(groups[leaf[0]],
					       "cpuacct.usage"));
	return 0;
usage:
	fprintf(stderr, "usage: %s [-m ACTIVE_MS] [-n LEAVES] PARENT\n",
		argv[0]);
	return 2;
}
