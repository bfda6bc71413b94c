// SPDX-License-Identifier: GPL-2.0
/*
 * Context switch throughput of a pipe ping-pong between two tasks pinned
 * to one CPU (cpuacct_util.h), in the root group (depth 0) and in groups
 * at depth 1, 3 and 8: whether what cpuacct charges per switch grows with
 * the depth of the task's group.  With -x, also with the two tasks in
 * different groups: siblings at depth 2, and cousins at depth 4 (their
 * closest common group at depth 1), as a charge that is cheap only
 * within one group would show.
 *
 * A benchmark, not a test (built, not run by kselftest): it reports and
 * never judges; it fails only if a ping-pong does.  A round trip is 2
 * switches.
 * Each depth is measured REPEAT times for RUN_NS, interleaved in a
 * rotating order, and the best run is reported: noise (other load on a
 * shared or emulated machine) only ever slows a run down, so the best run
 * is the one closest to the cost of the code.  Results are printed as
 * "# bench: ctxsw_depth<N>=<value> switches/s", ctxsw_siblings2 and
 * ctxsw_cousins4.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpuacct_util.h"

#define RUN_NS		(100 * 1000 * 1000ULL)
#define REPEAT		10
#define MAX_DEPTH	8
#define MAX_RUNS	(MAX_DEPTH + 3)

static int depths[MAX_DEPTH + 1] = { 0, 1, 3, 8 };
static unsigned int nr_depths = 4;
static bool cross;

/* What one rate measures: the groups of the two tasks, and its name */
struct run {
	char label[32];
	char *cg, *b_cg;
};

/*
 * Options: -t run length in ms, -r number of runs, -d comma-separated
 * depths.  Under -icount one short run per depth is exact.  Without
 * cpuacct, only depth 0 is measured (the floor).
 */
static void parse_args(int argc, char **argv, unsigned long long *run_ns,
		       int *repeat)
{
	char *tok;
	int opt;

	while ((opt = getopt(argc, argv, "t:r:d:x")) != -1) {
		switch (opt) {
		case 't':
			*run_ns = strtoull(optarg, NULL, 0) * 1000 * 1000;
			break;
		case 'r':
			*repeat = atoi(optarg);
			break;
		case 'd':
			nr_depths = 0;
			for (tok = strtok(optarg, ","); tok && nr_depths <= MAX_DEPTH;
			     tok = strtok(NULL, ","))
				depths[nr_depths++] = atoi(tok);
			break;
		case 'x':
			cross = true;
			break;
		default:
			fprintf(stderr, "usage: %s [-t ms] [-r runs] [-d depths] [-x]\n",
				argv[0]);
			exit(2);
		}
	}
	for (unsigned int d = 0; d < nr_depths; d++)
		if (depths[d] < 0 || depths[d] > MAX_DEPTH) {
			fprintf(stderr, "depth %d out of 0..%d\n", depths[d],
				MAX_DEPTH);
			exit(2);
		}
}

/* Each run once, in a rotating order; keeps the best rates. */
static bool measure_all(struct run *runs, unsigned int n, int cpu,
			unsigned long long run_ns, int rep, double *best)
{
	struct pp_result r;
	bool ok = true;

	for (unsigned int i = 0; i < n; i++) {
		unsigned int d = (i + rep) % n;
		struct pp_spec spec = {
			.cg = runs[d].cg, .b_cg = runs[d].b_cg, .cpu = cpu,
			.duration_ns = run_ns,
		};
		double rate;

		if (pingpong(&spec, &r) || !r.elapsed_ns) {
			fprintf(stderr, "%s: ping-pong failed\n", runs[d].label);
			ok = false;
			continue;
		}
		rate = 2.0 * r.rounds * NSEC_PER_SEC / r.elapsed_ns;
		if (rate > best[d])
			best[d] = rate;
	}
	return ok;
}

int main(int argc, char **argv)
{
	double best[MAX_RUNS] = { 0 };
	struct run runs[MAX_RUNS] = { 0 };
	char name[512], top[512];
	unsigned long long run_ns = RUN_NS;
	int repeat = REPEAT;
	unsigned int d, n;
	int level, cpu, rep;
	bool have_cpuacct;
	bool ok = true;

	parse_args(argc, argv, &run_ns, &repeat);
	have_cpuacct = !cg_setup();
	if (!have_cpuacct) {
		nr_depths = 1;
		depths[0] = 0;
		cross = false;
	}
	for (n = 0; n < nr_depths; n++)
		snprintf(runs[n].label, sizeof(runs[n].label), "ctxsw_depth%d",
			 depths[n]);

	/* A chain of 8 groups; depth 0 is the caller's group (the root). */
	snprintf(top, sizeof(top), "%s", cg_test_name("ctxsw"));
	snprintf(name, sizeof(name), "%s", top);
	for (d = 0; d < nr_depths; d++)
		runs[d].cg = have_cpuacct && !depths[d] ? cg_root : NULL;
	for (level = 1; have_cpuacct && level <= MAX_DEPTH; level++) {
		char *path = cg_make(name, "");

		for (d = 0; d < nr_depths; d++)
			if (depths[d] == level)
				runs[d].cg = path;
		strncat(name, "/d", sizeof(name) - strlen(name) - 1);
	}
	if (cross) {
		snprintf(runs[n].label, sizeof(runs[n].label), "ctxsw_siblings2");
		runs[n].cg = cg_make(top, "/sa");
		runs[n++].b_cg = cg_make(top, "/sb");
		snprintf(runs[n].label, sizeof(runs[n].label), "ctxsw_cousins4");
		cg_make(top, "/ca");
		cg_make(top, "/ca/x");
		runs[n].cg = cg_make(top, "/ca/x/y");
		cg_make(top, "/cb");
		cg_make(top, "/cb/x");
		runs[n++].b_cg = cg_make(top, "/cb/x/y");
	}

	/* Not the first CPU, if there is another: it takes device interrupts. */
	cpu = allowed_cpu(1);
	for (rep = 0; rep < repeat; rep++)
		ok &= measure_all(runs, n, cpu, run_ns, rep, best);
	for (d = 0; d < n; d++)
		printf("# bench: %s=%.0f switches/s\n", runs[d].label, best[d]);
	return ok ? 0 : 1;
}
