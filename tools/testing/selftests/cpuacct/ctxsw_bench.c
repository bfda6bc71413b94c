// SPDX-License-Identifier: GPL-2.0
/*
 * Context switch throughput of a pipe ping-pong between two tasks pinned
 * to one CPU (pingpong() in cpuacct_util.h), by where their groups are:
 * whether what is charged per switch grows with the depth of the group,
 * or when the switch crosses groups.  The rows (-h: which ones run):
 *
 *   depth<D>     both tasks in one group at depth D (0: the root)
 *   siblings<D>  in two sibling groups at depth D
 *   cousins<D>   in two groups at depth D whose closest common group is
 *                at depth 1, as a charge that is cheap only within one
 *                group would show
 *   rr<N>        N pairs at once on the one CPU, each in a group of its
 *                own at depth 4, laid out as kubelet lays out pods on
 *                cgroup v1: kubepods/burstable/pod<k>/ctr, this run's top
 *                group standing for kubepods; the round trips of all the
 *                pairs together, over one interval (pingpong_many())
 *   kthread      one group at depth 4, and a workqueue item per round
 *                trip: A writes to /proc/sys/vm/stat_refresh, which runs
 *                a kworker (of the root group) on every CPU, ours included
 *   idle         one group at depth 4, B on another CPU: each CPU goes
 *                idle between its task's switches
 *
 * in the hierarchy that cg_setup() finds: cpuacct alone, cpu and cpuacct
 * co-mounted, or, on a kernel without cpuacct, cpu alone where
 * CPUACCT_CG_ROOT says (the cost of the cpu controller's groups alone).
 * Without a hierarchy, only depth 0 is measured (the floor).
 *
 * A benchmark, not a test (built, not run by kselftest): it reports and
 * never judges; it fails only if a ping-pong does.  A round trip counts as
 * 2 switches, the ping-pong's own: in the kthread and idle rows it takes
 * more (to the kworker and back, to idle and back), so their rates
 * compare kernels, not rows.  Each row is measured REPEAT times for
 * RUN_NS, interleaved in a rotating order, and the best run is reported:
 * noise (other load on a shared or emulated machine) only ever slows a
 * run down, so the best run is the one closest to the cost of the code.
 * Results are printed as "# bench: <prefix><row>=<value> switches/s",
 * e.g. ctxsw_depth4, ctxsw_co_rr64 with -p ctxsw_co_.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpuacct_util.h"

#define RUN_NS		(100 * 1000 * 1000ULL)
#define REPEAT		10
#define MAX_DEPTH	8
#define POD_DEPTH	4
#define MAX_PAIRS	256
#define MAX_LIST	(MAX_DEPTH + 1)
#define MAX_ROWS	(4 * MAX_LIST + 2)
#define STAT_REFRESH	"/proc/sys/vm/stat_refresh"
#define PREFIX		"ctxsw_"

/* A comma-separated list of an option */
struct list {
	int v[MAX_LIST];
	unsigned int n;
};

static struct list depths = { { 0, 1, 3, 8 }, 4 };
static struct list siblings, cousins, pairs;
static bool kthread, idle;
static const char *prefix = PREFIX;

/* What one rate measures, and its name */
struct run {
	char label[64];
	struct pp_spec spec;
	int pairs;		/* if set, that many pairs of pods[] instead */
};

static struct run runs[MAX_ROWS];
static unsigned int nr_runs;
/*
 * The chain of groups at depths 1 to MAX_DEPTH, relative to the root
 * (top, top/d, top/d/d, ...; top is this run's) and in full, the root at 0
 */
static char chain[MAX_DEPTH + 1][256];
static char *chain_cg[MAX_DEPTH + 1];
static struct pp_spec pods[MAX_PAIRS];

static void __noreturn usage_exit(const char *prog, int status)
{
	fprintf(status ? stderr : stdout,
		"usage: %s [-t ms] [-r runs] [-d depths] [-s depths] [-c depths]\n"
		"       [-n pairs] [-k] [-i] [-x] [-p prefix]\n"
		"  -t  length of each run, ms (default %llu)\n"
		"  -r  runs of each row, the best reported (default %d)\n"
		"  -d  depths of the depth rows, 0 to %d (default 0,1,3,8)\n"
		"  -s  depths of the siblings rows, 1 to %d (default none)\n"
		"  -c  depths of the cousins rows, 3 to %d (default none)\n"
		"  -n  pairs of the rr rows, 1 to %d (default none)\n"
		"  -k  the kthread row (writes %s)\n"
		"  -i  the idle row (needs two CPUs)\n"
		"  -x  -s 2 -c 4\n"
		"  -p  prefix of the row names (default %s)\n"
		"Lists are comma-separated. Under -icount, one run per row is exact.\n"
		"Without a cgroup hierarchy, only depth 0 is measured.\n",
		prog, RUN_NS / 1000000, REPEAT, MAX_DEPTH, MAX_DEPTH, MAX_DEPTH,
		MAX_PAIRS, STAT_REFRESH, PREFIX);
	exit(status);
}

static void add(struct list *l, int v, int min, int max)
{
	if (v < min || v > max || l->n == MAX_LIST) {
		fprintf(stderr, "%d: out of %d..%d, or more than %d values\n",
			v, min, max, MAX_LIST);
		exit(2);
	}
	l->v[l->n++] = v;
}

static void parse_list(struct list *l, char *arg, int min, int max)
{
	char *tok;

	l->n = 0;
	for (tok = strtok(arg, ","); tok; tok = strtok(NULL, ","))
		add(l, atoi(tok), min, max);
}

static void parse_args(int argc, char **argv, unsigned long long *run_ns,
		       int *repeat)
{
	int opt;

	while ((opt = getopt(argc, argv, "t:r:d:s:c:n:kixp:h")) != -1) {
		switch (opt) {
		case 't':
			*run_ns = strtoull(optarg, NULL, 0) * 1000 * 1000;
			break;
		case 'r':
			*repeat = atoi(optarg);
			break;
		case 'd':
			parse_list(&depths, optarg, 0, MAX_DEPTH);
			break;
		case 's':
			parse_list(&siblings, optarg, 1, MAX_DEPTH);
			break;
		case 'c':
			parse_list(&cousins, optarg, 3, MAX_DEPTH);
			break;
		case 'n':
			parse_list(&pairs, optarg, 1, MAX_PAIRS);
			break;
		case 'k':
			kthread = true;
			break;
		case 'i':
			idle = true;
			break;
		case 'x':
			add(&siblings, 2, 1, MAX_DEPTH);
			add(&cousins, 4, 3, MAX_DEPTH);
			break;
		case 'p':
			prefix = optarg;
			break;
		case 'h':
			usage_exit(argv[0], 0);
		default:
			usage_exit(argv[0], 2);
		}
	}
}

/* A new row, named @prefix and @fmt, of one pair on @cpu for @run_ns */
static __printf(3, 4) struct pp_spec *row(int cpu, unsigned long long run_ns,
					  const char *fmt, ...)
{
	struct run *r = &runs[nr_runs++];
	int n = snprintf(r->label, sizeof(r->label), "%.31s", prefix);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->label + n, sizeof(r->label) - n, fmt, ap);
	va_end(ap);
	r->spec.cpu = cpu;
	r->spec.duration_ns = run_ns;
	return &r->spec;
}

/* Every group of the chain, and chain_cg[0] */
static void make_chain(void)
{
	int d;

	chain_cg[0] = cg_root;
	snprintf(chain[1], sizeof(chain[1]), "%s", cg_test_name("ctxsw"));
	for (d = 1; d <= MAX_DEPTH; d++) {
		/* The parent's path and "/d": no snprintf() between rows (-Wrestrict) */
		if (d > 1) {
			memcpy(chain[d], chain[d - 1], sizeof(chain[d]) - 3);
			chain[d][sizeof(chain[d]) - 3] = '\0';
			strcat(chain[d], "/d");
		}
		chain_cg[d] = cg_make(chain[d], "");
	}
}

/* Group @name, a child of the chain's group at @depth, the root at 0 */
static char *child_of(int depth, const char *name)
{
	char sub[32];

	/* In the root: named after the top group, to be this run's own */
	snprintf(sub, sizeof(sub), "%c%s", depth ? '/' : '.', name);
	return cg_make(chain[depth ? depth : 1], sub);
}

/* top/@name/x/x...: a group at @depth, top its ancestor at depth 1 */
static char *cousin(int depth, const char *name)
{
	char sub[256];
	int d;

	snprintf(sub, sizeof(sub), "/%s", name);
	for (d = 2; d < depth; d++) {
		cg_make(chain[1], sub);
		strncat(sub, "/x", sizeof(sub) - strlen(sub) - 1);
	}
	return cg_make(chain[1], sub);
}

/* Pair k's group, kubepods/burstable/pod<k>/ctr with top as kubepods */
static void make_pods(int n, int cpu)
{
	char sub[64];
	int k;

	if (n)
		cg_make(chain[1], "/burstable");
	for (k = 0; k < n; k++) {
		snprintf(sub, sizeof(sub), "/burstable/pod%d", k + 1);
		cg_make(chain[1], sub);
		strncat(sub, "/ctr", sizeof(sub) - strlen(sub) - 1);
		pods[k].cg = cg_make(chain[1], sub);
		pods[k].cpu = cpu;
	}
}

/* The rows the options ask for, the pairs on @cpu, in this run's groups. */
static void make_rows(int cpu, unsigned long long run_ns)
{
	int other = allowed_cpu(0);
	struct pp_spec *s;
	unsigned int i;
	int most = 0;

	make_chain();
	for (i = 0; i < depths.n; i++)
		row(cpu, run_ns, "depth%d", depths.v[i])->cg =
			chain_cg[depths.v[i]];
	for (i = 0; i < siblings.n; i++) {
		s = row(cpu, run_ns, "siblings%d", siblings.v[i]);
		s->cg = child_of(siblings.v[i] - 1, "sa");
		s->b_cg = child_of(siblings.v[i] - 1, "sb");
	}
	for (i = 0; i < cousins.n; i++) {
		s = row(cpu, run_ns, "cousins%d", cousins.v[i]);
		s->cg = cousin(cousins.v[i], "ca");
		s->b_cg = cousin(cousins.v[i], "cb");
	}
	for (i = 0; i < pairs.n; i++) {
		row(cpu, run_ns, "rr%d", pairs.v[i]);
		runs[nr_runs - 1].pairs = pairs.v[i];
		if (pairs.v[i] > most)
			most = pairs.v[i];
	}
	make_pods(most, cpu);
	if (kthread && access(STAT_REFRESH, W_OK)) {
		fprintf(stderr, "%skthread: cannot write %s, not measured\n",
			prefix, STAT_REFRESH);
	} else if (kthread) {
		s = row(cpu, run_ns, "kthread");
		s->cg = chain_cg[POD_DEPTH];
		s->kick = STAT_REFRESH;
	}
	if (idle && other == cpu) {
		fprintf(stderr, "%sidle: one CPU only, not measured\n", prefix);
	} else if (idle) {
		s = row(cpu, run_ns, "idle");
		s->cg = chain_cg[POD_DEPTH];
		s->b_apart = true;
		s->b_cpu = other;
	}
}

/* Each run once, in a rotating order; keeps the best rates. */
static bool measure_all(int rep, double *best)
{
	struct pp_result r;
	bool ok = true;

	for (unsigned int i = 0; i < nr_runs; i++) {
		struct run *run = &runs[(i + rep) % nr_runs];
		uint64_t ns;
		double rate;
		long rounds;
		int err;

		if (run->pairs) {
			err = pingpong_many(pods, run->pairs,
					    run->spec.duration_ns, &rounds, &ns);
		} else {
			err = pingpong(&run->spec, &r);
			rounds = r.rounds;
			ns = r.elapsed_ns;
		}
		if (err || !ns) {
			fprintf(stderr, "%s: ping-pong failed\n", run->label);
			ok = false;
			continue;
		}
		rate = 2.0 * rounds * NSEC_PER_SEC / ns;
		if (rate > best[run - runs])
			best[run - runs] = rate;
	}
	return ok;
}

int main(int argc, char **argv)
{
	double best[MAX_ROWS] = { 0 };
	unsigned long long run_ns = RUN_NS;
	int repeat = REPEAT;
	bool ok = true;
	unsigned int i;
	int cpu, rep;

	parse_args(argc, argv, &run_ns, &repeat);
	/* Not the first CPU, if there is another: it takes device interrupts. */
	cpu = allowed_cpu(1);
	if (!cg_setup())
		make_rows(cpu, run_ns);
	else
		row(cpu, run_ns, "depth0");
	for (rep = 0; rep < repeat; rep++)
		ok &= measure_all(rep, best);
	for (i = 0; i < nr_runs; i++)
		printf("# bench: %s=%.0f switches/s\n", runs[i].label, best[i]);
	return ok ? 0 : 1;
}
