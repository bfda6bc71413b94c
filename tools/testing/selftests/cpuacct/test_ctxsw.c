// SPDX-License-Identifier: GPL-2.0
/*
 * Context switch throughput of a pipe ping-pong between two tasks pinned
 * to one CPU (cpuacct_util.h), in the root group (depth 0) and in groups
 * at depth 1, 3 and 8.  A switch away from a task charges its group and
 * every ancestor, so the cost grows with the depth; it must stay small:
 * depth 8 must keep at least 90% of the depth 0 rate.
 *
 * A round trip is 2 switches.  Each depth is measured REPEAT times for
 * RUN_NS, interleaved in a rotating order, and the best run is reported:
 * noise (other load on a shared or emulated machine) only ever slows a
 * run down, so the best run is the one closest to the cost of the code.  Results are printed as
 * "# bench: ctxsw_depth<N>=<value> switches/s".
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuacct_util.h"

#define RUN_NS		(100 * 1000 * 1000ULL)
#define REPEAT		10
#define MIN_RATIO	0.90

static const int depths[] = { 0, 1, 3, 8 };
#define NR_DEPTHS ARRAY_SIZE(depths)

int main(void)
{
	double best[NR_DEPTHS] = { 0 };
	char *cg[NR_DEPTHS], name[512];
	struct pp_result r;
	unsigned int d, i, rep;
	int level, cpu;
	bool ok = true;

	ksft_print_header();
	if (cg_setup())
		ksft_exit_skip("cgroup v1 cpuacct controller not available\n");
	ksft_set_plan(1);

	/* A chain of 8 groups; depth 0 is the root group itself. */
	snprintf(name, sizeof(name), "%s", cg_test_name("ctxsw"));
	cg[0] = cg_root;
	for (level = 1; level <= 8; level++) {
		char *path = cg_create(name);

		if (!path)
			ksft_exit_fail_msg("cannot create %s\n", name);
		for (d = 0; d < NR_DEPTHS; d++)
			if (depths[d] == level)
				cg[d] = path;
		strncat(name, "/d", sizeof(name) - strlen(name) - 1);
	}

	/* Not the first CPU, if there is another: it takes device interrupts. */
	cpu = allowed_cpu(1);
	for (rep = 0; rep < REPEAT; rep++) {
		for (i = 0; i < NR_DEPTHS; i++) {
			unsigned int d = (i + rep) % NR_DEPTHS;
			struct pp_spec spec = {
				.cg = cg[d], .cpu = cpu,
				.duration_ns = RUN_NS,
			};
			double rate;

			if (pingpong(&spec, &r) || !r.elapsed_ns) {
				ksft_print_msg("depth %d: ping-pong failed\n",
					       depths[d]);
				ok = false;
				continue;
			}
			rate = 2.0 * r.rounds * NSEC_PER_SEC / r.elapsed_ns;
			if (rate > best[d])
				best[d] = rate;
		}
	}

	for (d = 0; d < NR_DEPTHS; d++)
		ksft_print_msg("bench: ctxsw_depth%d=%.0f switches/s\n",
			       depths[d], best[d]);
	ksft_print_msg("depth 8 / depth 0: %.3f (minimum %.2f)\n",
		       best[0] ? best[NR_DEPTHS - 1] / best[0] : 0.0,
		       MIN_RATIO);
	ok = ok && best[0] > 0 &&
	     best[NR_DEPTHS - 1] >= MIN_RATIO * best[0];
	ksft_test_result(ok, "depth8_keeps_90_percent_of_depth0\n");
	ksft_finished();
}
