// SPDX-License-Identifier: GPL-2.0
/*
 * pcc-bench: lib/percpu_counter.c of stock 6.12 ("base") and of the series
 * ("patched"), both built unchanged in userspace (include/linux/ is the
 * shim), side by side in one program.
 *
 *   pcc-bench bench [-t 1,2,4] [-r ROUNDS] [-m MS] [-o RUNS.csv] [-s SUMMARY.csv]
 *	the test module's benchmarks (tools/testing/selftests/percpu_counter/
 *	module/), base and patched alternating, at each thread count:
 *	one CSV row per run, then median [min-max] per row on stdout
 *   pcc-bench check [-t THREADS] [-w SECONDS] [-v base|patched]
 *	the module's correctness tests on both builds, as KTAP, on THREADS
 *	CPUs (default: twice the host's cores, at least 8); exit 1 on a
 *	failure.  Counted work, not timed: a race test goes on until its race
 *	happened often enough (SKIP where the host cannot provoke it); a hang
 *	is SECONDS without progress (default 120)
 *   pcc-bench host
 *	the host: cores this process may run on, CPU model, load
 *
 * Each "CPU" of percpu_counter.c is a slot of the shim's per-CPU area; a
 * thread runs on one slot, pinned to one host CPU (slot i on the i-th CPU
 * the process may use, round robin beyond).  A run of T threads has T CPUs
 * online, so percpu_counter_batch is max(32, 2 * T) there, as on a T-CPU
 * machine.  Threads never outnumber cores in the figures: in userspace a
 * preempted fold or lock holder stalls whoever waits for it, which
 * interrupts disabled rule out in the kernel (include/linux/irqflags.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "include/pcc.h"

typedef long long s64;
typedef unsigned long long u64;

static const struct pcc_impl *const impls[] = { &pcc_impl_base, &pcc_impl_patched };
#define NR_IMPLS	2

/* The host CPUs this process may run on, in order */
static int host_cpus[1024];
static int nr_host_cpus;

static void host_setup(void)
{
	cpu_set_t set;
	int i;

	if (sched_getaffinity(0, sizeof(set), &set)) {
		perror("sched_getaffinity");
		exit(2);
	}
	for (i = 0; i < CPU_SETSIZE && nr_host_cpus < 1024; i++)
		if (CPU_ISSET(i, &set))
			host_cpus[nr_host_cpus++] = i;
}

static void host_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');

		if (v && (!strncmp(line, "model name", 10) ||
			  !strncmp(line, "CPU part", 8))) {
			v += 2;
			v[strcspn(v, "\n")] = 0;
			snprintf(buf, len, "%s", v);
			break;
		}
	}
	fclose(f);
}

static double host_load1(void)
{
	double l = -1;

	if (getloadavg(&l, 1) != 1)
		return -1;
	return l;
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static u64 rnd(u64 *state)
{
	u64 x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* ---------------------------------------------------------------------- */
/* CPUs and counters */

/* Slots 0 .. nr - 1 possible, all online: the startups see them */
static void cpus_setup(int nr)
{
	int cpu, i;

	for (cpu = 0; cpu < nr; cpu++)
		pcc_cpu_up(cpu);
	pcc_thread_register();
	pcc_set_cpu(0);
	for (i = 0; i < NR_IMPLS; i++)
		impls[i]->startup();
}

/* @nr CPUs online, the others down, as hotplug would leave them */
static void cpus_online(int nr)
{
	int cpu;

	for (cpu = 0; cpu < PCC_NR_CPUS; cpu++) {
		if (cpu < nr)
			pcc_cpu_up(cpu);
		else
			pcc_cpu_down(cpu);
	}
}

static struct pcc_counter *counter_new(const struct pcc_impl *impl, s64 v)
{
	struct pcc_counter *c;
	size_t size = (impl->size + 63) / 64 * 64;

	c = aligned_alloc(64, size);
	if (!c || impl->init(c, v)) {
		fprintf(stderr, "percpu_counter_init() failed\n");
		exit(2);
	}
	return c;
}

static void counter_free(const struct pcc_impl *impl, struct pcc_counter *c)
{
	impl->destroy(c);
	free(c);
}

/* ---------------------------------------------------------------------- */
/* Worker threads, as the module's pct_group */

struct group;

struct worker {
	struct group *g;
	pthread_t thread;
	int idx;
	int cpu;			/* slot */
	u64 rnd;
	s64 total;			/* sum of the amounts it added */
	s64 local_total;		/* same, for the add_local counter */
	u64 ops;
	u64 ns;
	u64 good;			/* limited adds that succeeded */
	s64 started;			/* amounts started ... */
	s64 completed;			/* ... and completed */
} __attribute__((aligned(64)));

struct group {
	const struct pcc_impl *impl;
	void (*fn)(struct worker *w);
	struct pcc_counter *fbc, *fbc2;
	unsigned long long *pcpu;
	int nr;
	int running;
	int stop;
	int pause;
	int paused;
	/* test specific */
	int kind;
	s64 amount;
	s64 limit;
	int batch;
	u64 iters;
	u64 bench_ns;
	struct worker w[PCC_NR_CPUS + 1];
};

static int stopped(struct group *g)
{
	return __atomic_load_n(&g->stop, __ATOMIC_ACQUIRE);
}

static void *worker_thread(void *data)
{
	struct worker *w = data;
	struct group *g = w->g;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(host_cpus[w->cpu % nr_host_cpus], &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	pcc_thread_register();
	pcc_set_cpu(w->cpu);
	/* Start together: everyone is on its CPU before anyone runs */
	__atomic_fetch_add(&g->running, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&g->running, __ATOMIC_SEQ_CST) < g->nr &&
	       !stopped(g))
		pcc_cpu_relax();
	if (!stopped(g))
		g->fn(w);
	pcc_thread_unregister();
	return NULL;
}

static void group_init(struct group *g, const struct pcc_impl *impl,
		       void (*fn)(struct worker *w), struct pcc_counter *fbc)
{
	memset(g, 0, sizeof(*g));
	g->impl = impl;
	g->fn = fn;
	g->fbc = fbc;
}

static void group_add(struct group *g, int cpu)
{
	struct worker *w = &g->w[g->nr];

	memset(w, 0, sizeof(*w));
	w->g = g;
	w->idx = g->nr;
	w->cpu = cpu;
	w->rnd = 0x9E3779B97F4A7C15ULL * (g->nr + 1) + cpu + 2;
	g->nr++;
}

/* One worker on each online CPU from @from on */
static void group_add_online(struct group *g, int from, int nr_cpus)
{
	int cpu;

	for (cpu = from; cpu < nr_cpus; cpu++)
		group_add(g, cpu);
}

static void group_start(struct group *g)
{
	int i;

	for (i = 0; i < g->nr; i++) {
		if (pthread_create(&g->w[i].thread, NULL, worker_thread,
				   &g->w[i])) {
			perror("pthread_create");
			exit(2);
		}
	}
}

static void group_wait(struct group *g)
{
	int i;

	for (i = 0; i < g->nr; i++)
		pthread_join(g->w[i].thread, NULL);
}

static void group_stop_wait(struct group *g)
{
	__atomic_store_n(&g->stop, 1, __ATOMIC_RELEASE);
	group_wait(g);
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ====================================================================== */
/* Benchmarks: tools/testing/selftests/percpu_counter/module's, and more */

enum bench_kind {
	BENCH_ADD,		/* percpu_counter_add(amount) */
	BENCH_ADD_SCALED,	/* percpu_counter_add_scaled(amount, amount) */
	BENCH_SUM,		/* worker 0: percpu_counter_sum(), others fold */
	BENCH_LIMITED,		/* +1 / -1 limited adds near the limit */
	BENCH_PCPU_U64,		/* this_cpu_add() on a u64: the control */
};

struct experiment {
	const char *name;
	const char *unit;
	int kind;
	s64 amount;		/* 0: percpu_counter_batch */
	int workers;		/* 0: one per online CPU, else that many */
	int min_threads;
	int needs_scaled;
	const char *what;
};

static const struct experiment experiments[] = {
	{ "fold_adds_per_cpu", "adds/s", BENCH_ADD, 0, 0, 1, 0,
	  "percpu_counter_add(batch) on every thread: every add folds" },
	{ "add1_adds_per_cpu", "adds/s", BENCH_ADD, 1, 0, 1, 0,
	  "percpu_counter_add(1) on every thread: the fast path" },
	{ "tick_default_adds_per_cpu", "adds/s", BENCH_ADD, PCC_TICK_NSEC, 0, 1, 0,
	  "percpu_counter_add(TICK_NSEC), default batch: every add folds" },
	{ "tick_scaled_adds_per_cpu", "adds/s", BENCH_ADD_SCALED, PCC_TICK_NSEC, 0, 1, 1,
	  "percpu_counter_add_scaled(TICK_NSEC, TICK_NSEC): base has no scaled batch" },
	{ "sum_idle_per_s", "sums/s", BENCH_SUM, 0, 1, 1, 0,
	  "percpu_counter_sum() on one thread, nobody adding (all CPUs online)" },
	{ "sum_busy_per_s", "sums/s", BENCH_SUM, 0, 0, 2, 0,
	  "percpu_counter_sum() on one thread while the others fold" },
	{ "limited_near_limit_per_cpu", "calls/s", BENCH_LIMITED, 0, 0, 1, 0,
	  "percpu_counter_limited_add(+1/-1) within batch * CPUs of the limit: lock and exact sum every call" },
	{ "pcpu_u64_adds_per_cpu", "adds/s", BENCH_PCPU_U64, PCC_TICK_NSEC, 0, 1, 0,
	  "control: this_cpu_add() on a u64, identical code in both builds: must read 1.00" },
};
#define NR_EXPERIMENTS	(int)(sizeof(experiments) / sizeof(experiments[0]))

static void bench_fn(struct worker *w)
{
	struct group *g = w->g;
	const struct pcc_impl *impl = g->impl;
	u64 start, now, deadline, ops = 0;
	s64 sink = 0;
	int kind = g->kind;

	/* The first worker sums while the others fold */
	if (kind == BENCH_SUM && w->idx)
		kind = BENCH_ADD;
	start = now_ns();
	deadline = start + g->bench_ns;
	do {
		switch (kind) {
		case BENCH_ADD:
			impl->chunk_add(g->fbc, g->amount);
			break;
		case BENCH_ADD_SCALED:
			impl->chunk_add_scaled(g->fbc, g->amount);
			break;
		case BENCH_SUM:
			impl->chunk_sum(g->fbc, &sink);
			break;
		case BENCH_LIMITED:
			impl->chunk_limited(g->fbc, g->limit, &w->good);
			break;
		case BENCH_PCPU_U64:
			impl->chunk_pcpu_u64(g->pcpu, g->amount);
			break;
		}
		ops += PCC_CHUNK;
		now = now_ns();
	} while (now < deadline && !stopped(g));
	w->ops = ops;
	w->ns = now - start;
	w->total = sink;
}

struct bench_result {
	double rate;		/* per thread, or the summing thread's */
	u64 failed;		/* limited adds that failed: none expected */
};

static struct bench_result bench_run(const struct pcc_impl *impl,
				     const struct experiment *e, int nr_cpus,
				     unsigned int ms)
{
	static struct group g;
	struct bench_result res = { 0, 0 };
	struct pcc_counter *fbc = counter_new(impl, 0);
	int i, from = 0, to;

	group_init(&g, impl, bench_fn, fbc);
	g.kind = e->kind;
	g.amount = e->amount ? e->amount : impl->batch();
	if (e->kind == BENCH_SUM)
		g.amount = impl->batch();
	/* Within batch * CPUs of both limits: see pcc_chunk_limited() */
	g.limit = (s64)impl->batch() * nr_cpus / 2;
	g.bench_ns = (u64)ms * 1000000;
	if (e->kind == BENCH_PCPU_U64)
		g.pcpu = pcc_alloc_percpu(sizeof(*g.pcpu), sizeof(*g.pcpu));
	group_add_online(&g, 0, e->workers ? e->workers : nr_cpus);
	group_start(&g);
	group_wait(&g);

	to = g.nr;
	if (e->kind == BENCH_SUM)
		to = 1;
	for (i = from; i < to; i++) {
		struct worker *w = &g.w[i];

		res.rate += (double)w->ops * 1e9 / (double)(w->ns ? w->ns : 1);
		if (e->kind == BENCH_LIMITED)
			res.failed += w->ops - w->good;
	}
	res.rate /= to - from;
	if (g.pcpu)
		pcc_free_percpu(g.pcpu);
	counter_free(impl, fbc);
	return res;
}

struct sample {
	int exp, threads, impl;
	double rate;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median (the mean of the middle two for an even count), min, max */
static void stats(double *v, int n, double *med, double *lo, double *hi)
{
	qsort(v, n, sizeof(*v), cmp_double);
	*lo = v[0];
	*hi = v[n - 1];
	*med = n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int parse_threads(const char *s, int *t, int max)
{
	int n = 0;

	while (*s && n < max) {
		char *end;
		long v = strtol(s, &end, 10);

		if (end == s || v < 1 || v > PCC_NR_CPUS)
			return -1;
		t[n++] = v;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return n;
}

/* 1, 2, 4, ... up to the host's cores, and the host's cores */
static int default_threads(int *t)
{
	int n = 0, v;

	for (v = 1; v < nr_host_cpus && v <= PCC_NR_CPUS; v *= 2)
		t[n++] = v;
	t[n++] = nr_host_cpus < PCC_NR_CPUS ? nr_host_cpus : PCC_NR_CPUS;
	return n;
}

static int cmd_bench(int argc, char **argv)
{
	const char *out = NULL, *summary = NULL;
	int threads[64], nr_threads = 0, rounds = 5, opt, r, ti, ei, v, i;
	unsigned int ms = 200;
	int max_threads = 0;
	struct sample *samples;
	int nr_samples = 0;
	FILE *f = NULL, *fs = NULL;
	char model[256];

	while ((opt = getopt(argc, argv, "t:r:m:o:s:")) != -1) {
		switch (opt) {
		case 't':
			nr_threads = parse_threads(optarg, threads, 64);
			if (nr_threads < 1) {
				fprintf(stderr, "-t: thread counts 1..%d, comma separated\n",
					PCC_NR_CPUS);
				return 2;
			}
			break;
		case 'r':
			rounds = atoi(optarg);
			break;
		case 'm':
			ms = atoi(optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 's':
			summary = optarg;
			break;
		default:
			return 2;
		}
	}
	if (rounds < 1 || !ms)
		return 2;
	if (!nr_threads)
		nr_threads = default_threads(threads);
	for (ti = 0; ti < nr_threads; ti++) {
		if (threads[ti] > max_threads)
			max_threads = threads[ti];
		if (threads[ti] > nr_host_cpus)
			fprintf(stderr, "warning: %d threads on %d cores: a preempted lock or fold holder stalls the others; no figure to trust\n",
				threads[ti], nr_host_cpus);
	}
	host_model(model, sizeof(model));
	printf("# host: %d cores (%s), NR_CPUS=%d, load %.2f\n", nr_host_cpus,
	       model, PCC_NR_CPUS, host_load1());
	for (ei = 0; ei < NR_EXPERIMENTS; ei++)
		printf("# experiment %s: %s\n", experiments[ei].name,
		       experiments[ei].what);
	if (out && !(f = fopen(out, "w"))) {
		perror(out);
		return 2;
	}
	if (f)
		fprintf(f, "round,experiment,threads,variant,rate,unit,failed,load1\n");

	cpus_setup(max_threads);
	samples = calloc((size_t)rounds * nr_threads * NR_EXPERIMENTS * NR_IMPLS,
			 sizeof(*samples));
	for (r = 0; r < rounds; r++) {
		double load = host_load1();

		printf("# round %d of %d: load %.2f\n", r + 1, rounds, load);
		fflush(stdout);
		for (ti = 0; ti < nr_threads; ti++) {
			int t = threads[ti];

			cpus_online(t);
			for (ei = 0; ei < NR_EXPERIMENTS; ei++) {
				const struct experiment *e = &experiments[ei];

				if (t < e->min_threads)
					continue;
				/* base first in even rounds, patched first in odd */
				for (i = 0; i < NR_IMPLS; i++) {
					const struct pcc_impl *impl;
					struct bench_result res;

					v = (i + r) % NR_IMPLS;
					impl = impls[v];
					if (e->needs_scaled && !impl->has_scaled)
						continue;
					res = bench_run(impl, e, t, ms);
					samples[nr_samples++] = (struct sample){ ei, t, v, res.rate };
					if (f)
						fprintf(f, "%d,%s,%d,%s,%.0f,%s,%llu,%.2f\n",
							r + 1, e->name, t, impl->name,
							res.rate, e->unit, res.failed,
							load);
				}
			}
		}
	}
	if (f)
		fclose(f);
	if (pcc_warnings) {
		fprintf(stderr, "%lu warnings from lib/percpu_counter.c\n",
			pcc_warnings);
		return 1;
	}

	/* Median [min-max] per variant, and the ratio of the medians */
	if (summary && !(fs = fopen(summary, "w"))) {
		perror(summary);
		return 2;
	}
	if (fs)
		fprintf(fs, "experiment,unit,threads,base,base_min,base_max,patched,patched_min,patched_max,ratio,ratio_min,ratio_max,rounds\n");
	printf("\n| experiment | threads | base | patched | patched/base | per-round ratios |\n");
	printf("|---|---|---|---|---|---|\n");
	for (ei = 0; ei < NR_EXPERIMENTS; ei++) {
		for (ti = 0; ti < nr_threads; ti++) {
			double m[NR_IMPLS] = { 0 }, lo[NR_IMPLS] = { 0 }, hi[NR_IMPLS] = { 0 };
			double *vals = calloc(rounds, sizeof(double));
			double *ratios = calloc(rounds, sizeof(double));
			double rm = 0, rlo = 0, rhi = 0;
			int n[NR_IMPLS] = { 0 }, nr_ratio = 0, k;

			for (v = 0; v < NR_IMPLS; v++) {
				int c = 0;

				for (k = 0; k < nr_samples; k++)
					if (samples[k].exp == ei &&
					    samples[k].threads == threads[ti] &&
					    samples[k].impl == v)
						vals[c++] = samples[k].rate;
				n[v] = c;
				if (c)
					stats(vals, c, &m[v], &lo[v], &hi[v]);
			}
			/* Each round's patched over its base: run side by side */
			for (k = 0; n[0] && n[1] && k < nr_samples; k++) {
				int j;

				if (samples[k].exp != ei ||
				    samples[k].threads != threads[ti] ||
				    samples[k].impl != 1)
					continue;
				for (j = k - 1; j <= k + 1; j += 2)
					if (j >= 0 && j < nr_samples &&
					    samples[j].exp == ei &&
					    samples[j].threads == threads[ti] &&
					    samples[j].impl == 0)
						ratios[nr_ratio++] = samples[k].rate /
								     samples[j].rate;
			}
			if (nr_ratio)
				stats(ratios, nr_ratio, &rm, &rlo, &rhi);
			if (n[0] || n[1]) {
				const struct experiment *e = &experiments[ei];
				char b[64] = "-", p[64] = "-", q[32] = "-", sp[64] = "-";

				if (n[0])
					snprintf(b, sizeof(b), "%.4g [%.4g-%.4g]", m[0], lo[0], hi[0]);
				if (n[1])
					snprintf(p, sizeof(p), "%.4g [%.4g-%.4g]", m[1], lo[1], hi[1]);
				if (n[0] && n[1]) {
					snprintf(q, sizeof(q), "%.2f", m[1] / m[0]);
					snprintf(sp, sizeof(sp), "%.2f-%.2f", rlo, rhi);
				}
				printf("| %s (%s) | %d | %s | %s | %s | %s |\n",
				       e->name, e->unit, threads[ti], b, p, q,
				       n[0] ? sp : "base has no percpu_counter_add_scaled()");
				/* A variant without the row leaves its fields empty */
				if (fs) {
					fprintf(fs, "%s,%s,%d", e->name, e->unit, threads[ti]);
					for (v = 0; v < NR_IMPLS; v++) {
						if (n[v])
							fprintf(fs, ",%.0f,%.0f,%.0f", m[v], lo[v], hi[v]);
						else
							fprintf(fs, ",,,");
					}
					if (n[0] && n[1])
						fprintf(fs, ",%.4f,%.4f,%.4f", m[1] / m[0], rlo, rhi);
					else
						fprintf(fs, ",,,");
					fprintf(fs, ",%d\n", n[1] ? n[1] : n[0]);
				}
			}
			free(vals);
			free(ratios);
		}
	}
	if (fs)
		fclose(fs);
	free(samples);
	return 0;
}

/* ====================================================================== */
/* Correctness: the module's tests, run on both builds, as KTAP */

static int test_nr;
static int test_failed;
static char test_msg[4096];
static char test_skip[256];
static char test_name[64];

/* Record a failure's first message: what "not ok" prints */
static int expect(int cond, const char *fmt, ...)
{
	va_list ap;
	size_t len = strlen(test_msg);

	if (cond)
		return 1;
	test_failed = 1;
	if (len < sizeof(test_msg) - 2) {
		va_start(ap, fmt);
		vsnprintf(test_msg + len, sizeof(test_msg) - len, fmt, ap);
		va_end(ap);
		len = strlen(test_msg);
		if (len < sizeof(test_msg) - 1)
			strcat(test_msg, "\n");
	}
	return 0;
}

/*
 * A test whose race did not happen often enough to mean anything: "ok #
 * SKIP" with the reason, unless it failed anyway.
 */
static void skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(test_skip, sizeof(test_skip), fmt, ap);
	va_end(ap);
}

/* -t: twice the host's cores, at least 8, at most NR_CPUS (cmd_check()) */
static int check_threads;

/*
 * No test is timed: each does a fixed amount of work, or goes on until its
 * race happened often enough, however slow or loaded the host.  The only
 * clock is this watchdog: the runner bumps heartbeat at every step (a
 * sum, a round, a race), and WATCHDOG_S seconds without one is a hang, a
 * lock or a fold never released, not a slow host: it fails the test and
 * bails out.
 */
#define WATCHDOG_S	120
static unsigned int watchdog_s = WATCHDOG_S;
static unsigned long heartbeat;

static void progress(void)
{
	__atomic_fetch_add(&heartbeat, 1, __ATOMIC_RELAXED);
}

static void *watchdog_thread(void *unused)
{
	unsigned long last = 0, now;
	unsigned int idle = 0;

	for (;;) {
		sleep_ms(1000);
		now = __atomic_load_n(&heartbeat, __ATOMIC_RELAXED);
		if (now != last) {
			last = now;
			idle = 0;
			continue;
		}
		if (++idle < watchdog_s)
			continue;
		printf("# %s: watchdog: no progress in %u s: a hang\n",
		       test_name, idle);
		printf("not ok %d %s\n", test_nr + 1, test_name);
		printf("Bail out! %s hangs\n", test_name);
		fflush(stdout);
		_exit(1);
	}
	return NULL;
}

/* Until *@v reaches @want: the watchdog catches a worker that never does */
static void wait_count(s64 *v, s64 want)
{
	while (__atomic_load_n(v, __ATOMIC_ACQUIRE) < want)
		pcc_cpu_relax();
}

/* Leave @delta pending on each CPU of [from, to): adds of 1 from a thread there */
static void fill_fn(struct worker *w)
{
	s64 i, d = w->g->amount;

	for (i = 0; i < (d < 0 ? -d : d); i++)
		w->g->impl->add_batch(w->g->fbc, d > 0 ? 1 : -1, w->g->batch);
	w->total = d;
}

/* percpu_counter_sync() on each of the first @nr_cpus CPUs, back on CPU 0 */
static void sync_all(const struct pcc_impl *impl, struct pcc_counter *fbc,
		     int nr_cpus)
{
	int i;

	for (i = 0; i < nr_cpus; i++) {
		pcc_set_cpu(i);
		impl->sync(fbc);
	}
	pcc_set_cpu(0);
}

static s64 fill(const struct pcc_impl *impl, struct pcc_counter *fbc,
		s64 delta, int batch, int from, int to)
{
	static struct group g;
	s64 total = 0;
	int i;

	group_init(&g, impl, fill_fn, fbc);
	g.amount = delta;
	g.batch = batch;
	group_add_online(&g, from, to);
	group_start(&g);
	group_wait(&g);
	for (i = 0; i < g.nr; i++)
		total += g.w[i].total;
	return total;
}

/* --- exactness: mixed adds from every CPU add up exactly -------------- */

static void exact_fn(struct worker *w)
{
	struct group *g = w->g;
	const struct pcc_impl *impl = g->impl;
	int batch = impl->batch();
	s64 total = 0, local_total = 0;
	u64 i;

	for (i = 0; i < g->iters; i++) {
		u64 r = rnd(&w->rnd);
		s64 sign = (r & 0x100) ? -1 : 1;
		s64 amount;

		switch (r & 15) {
		case 0 ... 9:
			amount = sign * (s64)(1 + (unsigned int)(r >> 16) % 3);
			impl->add(g->fbc, amount);
			break;
		case 10:
		case 11:
		case 12:
			/* at least the batch: always folds */
			amount = sign * (batch + (s64)((unsigned int)(r >> 16) % (4 * batch)));
			impl->add(g->fbc, amount);
			break;
		case 13:
		case 14:
			/* ticks of CPU time, as cpuacct would add */
			amount = sign * ((s64)PCC_TICK_NSEC - 500 +
					 (s64)((unsigned int)(r >> 16) % 1000));
			if (impl->add_scaled)
				impl->add_scaled(g->fbc, amount, PCC_TICK_NSEC);
			else
				impl->add(g->fbc, amount);
			break;
		default:
			amount = sign * (s64)((unsigned int)(r >> 16) % 1000);
			impl->add_local(g->fbc2, amount);
			local_total += amount;
			amount = 0;
			break;
		}
		total += amount;
		if (!(i % PCC_CHUNK) && stopped(g))
			break;
	}
	w->total = total;
	w->local_total = local_total;
}

static void test_exact(const struct pcc_impl *impl, int nr_cpus)
{
	static struct group g;
	struct pcc_counter *fbc = counter_new(impl, 0);
	struct pcc_counter *local = counter_new(impl, 0);
	s64 total = 0, local_total = 0, sum, read, bound;
	int i, max_batch = impl->batch();

	group_init(&g, impl, exact_fn, fbc);
	g.fbc2 = local;
	g.iters = 200000;
	group_add_online(&g, 0, nr_cpus);
	group_start(&g);
	group_wait(&g);
	for (i = 0; i < g.nr; i++) {
		total += g.w[i].total;
		local_total += g.w[i].local_total;
	}
	sum = impl->sum(fbc);
	read = impl->read(fbc);
	expect(sum == total, "sum %lld, added %lld", sum, total);
	expect(impl->sum(local) == local_total, "add_local: sum %lld, added %lld",
	       impl->sum(local), local_total);
	if (impl->scaled_batch)
		max_batch = impl->scaled_batch(PCC_TICK_NSEC);
	bound = (s64)(max_batch - 1) * nr_cpus;
	expect(llabs(read - sum) <= bound, "read %lld sum %lld: beyond %lld",
	       read, sum, bound);
	/* Folding every CPU's delta makes the global count exact */
	sync_all(impl, fbc, nr_cpus);
	expect(impl->read(fbc) == total, "after sync on every CPU: read %lld, added %lld",
	       impl->read(fbc), total);
	expect(impl->sum(fbc) == total, "after sync: sum %lld, added %lld",
	       impl->sum(fbc), total);
	counter_free(impl, fbc);
	counter_free(impl, local);
}

/* --- the window percpu_counter_sum() lies in -------------------------- */

/*
 * An add is counted as started before it is made and as completed after
 * it: a reader that sees it completed sees its effect (the release of
 * "completed", the reader's acquire of it before its sum), and one whose
 * sum sees its effect sees it started (the release fence after "started",
 * the acquire fence after the sum).  On x86 these cost nothing, as the
 * module's smp_mb__after_atomic() there.
 */
static void add_tracked(struct worker *w, s64 amount, int batch)
{
	__atomic_fetch_add(&w->started, amount, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	w->g->impl->add_batch(w->g->fbc, amount, batch);
	__atomic_fetch_add(&w->completed, amount, __ATOMIC_RELEASE);
}

enum { WINDOW_MIXED, WINDOW_DEC };

static void window_fn(struct worker *w)
{
	struct group *g = w->g;
	int batch = g->batch, i;

	while (!stopped(g)) {
		for (i = 0; i < PCC_CHUNK; i++) {
			u64 r = rnd(&w->rnd);
			s64 amount;

			if (g->kind == WINDOW_DEC)
				amount = -1;
			else if (r & 7)
				amount = 1 + (unsigned int)(r >> 8) % 3;
			else
				amount = batch + (unsigned int)(r >> 8) % batch;
			add_tracked(w, amount, batch);
		}
		w->ops += PCC_CHUNK;
	}
}

static s64 sum_tracked(struct group *g, int completed)
{
	s64 sum = 0;
	int i;

	for (i = 0; i < g->nr; i++)
		sum += completed ?
			__atomic_load_n(&g->w[i].completed, __ATOMIC_ACQUIRE) :
			__atomic_load_n(&g->w[i].started, __ATOMIC_RELAXED);
	return sum;
}

/*
 * *@raced: an add started or completed while @read ran, so that some
 * other CPU really ran meanwhile (one preempted in an add leaves it in
 * flight, the window open, for a whole time slice).
 */
static s64 read_window(struct group *g, s64 (*read)(struct pcc_counter *c),
		       s64 *c, s64 *s, int *raced)
{
	s64 r, s0;

	s0 = sum_tracked(g, 0);
	*c = sum_tracked(g, 1);
	r = read(g->fbc);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	*s = sum_tracked(g, 0);
	*raced = *s != s0 || sum_tracked(g, 1) != *c;
	return r;
}

/*
 * Sums until WINDOW_RACED of them raced with adds (read_window()), and
 * WINDOW_SUMS at least; a host on which WINDOW_MAX_SUMS sums did not race
 * that often cannot test the window.
 */
#define WINDOW_SUMS	100000
#define WINDOW_RACED	1000
#define WINDOW_MAX_SUMS	(100 * WINDOW_SUMS)

/*
 * With c the total of the adds completed before the sum and s that of the
 * adds started before it returned, the sum lies between c and s; the read
 * may be off by the deltas pending, less than the batch per CPU.
 */
static void sum_window(const struct pcc_impl *impl, int kind, int nr_cpus)
{
	static struct group g;
	struct pcc_counter *fbc = counter_new(impl, 0);
	u64 checks = 0, raced = 0, bad_sum = 0, bad_read = 0;
	s64 c, s, r, lo, hi, tol, worst = 0, first[3] = { 0, 0, 0 };
	int batch = impl->batch(), in_flight;

	group_init(&g, impl, window_fn, fbc);
	g.kind = kind;
	g.batch = batch;
	/* The runner is CPU 0, the workers the others */
	group_add_online(&g, 1, nr_cpus);
	tol = (s64)(batch - 1) * nr_cpus;
	group_start(&g);
	while ((checks < WINDOW_SUMS || raced < WINDOW_RACED) &&
	       checks < WINDOW_MAX_SUMS) {
		r = read_window(&g, impl->sum, &c, &s, &in_flight);
		raced += in_flight;
		lo = c < s ? c : s;
		hi = c < s ? s : c;
		if (r < lo || r > hi) {
			s64 d = r < lo ? lo - r : r - hi;

			worst = d > worst ? d : worst;
			if (!bad_sum++) {
				first[0] = r;
				first[1] = c;
				first[2] = s;
			}
		}
		r = read_window(&g, impl->read, &c, &s, &in_flight);
		if (r < (c < s ? c : s) - tol || r > (c < s ? s : c) + tol)
			bad_read++;
		checks++;
		progress();
	}
	group_stop_wait(&g);
	printf("# %s: %s: %llu sums, %llu raced with adds, %llu outside the window (by up to %lld)\n",
	       impl->name, kind == WINDOW_DEC ? "decrements" : "mixed adds",
	       checks, raced, bad_sum, worst);
	expect(!bad_sum, "%s: %llu of %llu sums outside the window, first %lld outside [%lld, %lld] (completed, started)",
	       kind == WINDOW_DEC ? "decrements" : "mixed adds", bad_sum,
	       checks, first[0], first[1], first[2]);
	expect(!bad_read, "%llu reads beyond the deltas' bound", bad_read);
	if (raced < WINDOW_RACED)
		skip("%s: %llu of %llu sums raced with adds, want %d: the other CPUs hardly ran meanwhile",
		     kind == WINDOW_DEC ? "decrements" : "mixed adds", raced,
		     checks, WINDOW_RACED);
	expect(impl->sum(fbc) == sum_tracked(&g, 1), "after the adders: sum %lld, added %lld",
	       impl->sum(fbc), sum_tracked(&g, 1));
	counter_free(impl, fbc);
}

static void test_sum_window(const struct pcc_impl *impl, int nr_cpus)
{
	sum_window(impl, WINDOW_MIXED, nr_cpus);
	/* The pattern of __percpu_counter_compare() on a free-space counter */
	sum_window(impl, WINDOW_DEC, nr_cpus);
}

/* --- __percpu_counter_limited_add() ----------------------------------- */

#define TEST_BATCH	64

static void test_limited_add(const struct pcc_impl *impl, int nr_cpus)
{
	struct pcc_counter *fbc = counter_new(impl, 0);
	const int b = TEST_BATCH;
	s64 exact, limit, lower, big;

	/* Pending deltas, so that only an exact sum can decide */
	fill(impl, fbc, b - 1, b, 0, nr_cpus);
	exact = impl->sum(fbc);
	limit = exact + 10;
#define LA(lim, amount)	impl->limited_add(fbc, (lim), (amount), b)
#define SUM_IS(v)	expect(impl->sum(fbc) == (v), "line %d: sum %lld, want %lld", \
			       __LINE__, impl->sum(fbc), (s64)(v))
	expect(LA(limit, 0), "amount 0 refused");
	expect(!LA(limit, 11), "11 to 10 below the limit accepted");
	SUM_IS(exact);
	expect(LA(limit, 10), "10 to 10 below the limit refused");
	SUM_IS(limit);
	expect(!LA(limit, 1), "1 at the limit accepted");
	SUM_IS(limit);

	/* Negative amounts: the limit is a floor */
	lower = limit - 7;
	expect(!LA(lower, -8), "-8 to 7 above the floor accepted");
	expect(LA(lower, -7), "-7 to 7 above the floor refused");
	SUM_IS(lower);
	expect(!LA(lower, -1), "-1 at the floor accepted");
	SUM_IS(lower);

	/* Far from the limit, with the default batch */
	expect(impl->limited_add(fbc, lower + 1000000, 1, impl->batch()),
	       "1 far from the limit refused");
	SUM_IS(lower + 1);

	/* Amounts beyond the deviation bound, exactly to the limit */
	exact = impl->sum(fbc);
	big = 1000LL * b * nr_cpus;
	expect(LA(exact + big, big), "an amount exactly to the limit refused");
	SUM_IS(exact + big);
	expect(!LA(exact + big, 1), "1 at the limit accepted");
	SUM_IS(exact + big);
#undef LA
#undef SUM_IS
	counter_free(impl, fbc);
}

/*
 * Limited adds until the limit is reached.  Odd workers also fold a batch
 * towards the limit and back around each of them (the ABA pattern), as in
 * the module's pct_limited_fn().
 */
static void limited_fn(struct worker *w)
{
	struct group *g = w->g;
	const struct pcc_impl *impl = g->impl;
	s64 noise = g->amount > 0 ? TEST_BATCH : -TEST_BATCH;

	if (!(w->idx & 1))
		noise = 0;
	for (;;) {
		int good;

		if (noise)
			impl->add_batch(g->fbc, noise, TEST_BATCH);
		good = impl->limited_add(g->fbc, g->limit, g->amount, TEST_BATCH);
		if (noise)
			impl->add_batch(g->fbc, -noise, TEST_BATCH);
		if (!good)
			break;
		w->good++;
		if (!(w->good % 64) && stopped(g))
			break;
	}
	__atomic_store_n(&w->ops, 1, __ATOMIC_RELEASE);
}

static int group_done(struct group *g)
{
	int i;

	for (i = 0; i < g->nr; i++)
		if (!__atomic_load_n(&g->w[i].ops, __ATOMIC_ACQUIRE))
			return 0;
	return 1;
}

/*
 * Concurrent limited adds never overshoot and use all the room: the sum
 * never goes beyond the limit but for the noise in flight, and ends within
 * one amount of it (plus the noise, which may stop a worker early).
 * Returns whether every CPU made a fair share of the adds (a quarter of
 * one): they raced for the room, rather than one after the other.
 */
static int limited_race(const struct pcc_impl *impl, struct pcc_counter *fbc,
			s64 limit, s64 amount, int nr_cpus)
{
	static struct group g;
	s64 before, after, v, good = 0, over = 0, noise;
	int i, all = 1;

	before = impl->sum(fbc);
	group_init(&g, impl, limited_fn, fbc);
	g.limit = limit;
	g.amount = amount;
	/* Every CPU adds, the runner's (0) too: the runner sums meanwhile */
	group_add_online(&g, 0, nr_cpus);
	noise = (s64)(g.nr / 2) * TEST_BATCH;
	group_start(&g);
	/* A limited add that never refuses: the watchdog */
	while (!group_done(&g)) {
		v = impl->sum(fbc);
		v = amount > 0 ? v - noise - limit : limit - (v + noise);
		over = v > over ? v : over;
		/* Beyond it: adds that never refuse would go on for ever */
		if (over > 0)
			__atomic_store_n(&g.stop, 1, __ATOMIC_RELEASE);
		progress();
	}
	group_stop_wait(&g);
	for (i = 0; i < g.nr; i++)
		good += g.w[i].good;
	for (i = 0; i < g.nr; i++)
		all &= 4 * g.nr * (s64)g.w[i].good >= good;
	after = impl->sum(fbc);
	expect(over <= 0, "limit %lld, amount %lld: the sum went %lld beyond the limit",
	       limit, amount, over);
	expect(after == before + good * amount, "%lld limited adds of %lld from %lld: sum %lld",
	       good, amount, before, after);
	if (amount > 0)
		expect(after <= limit && after + amount + noise > limit,
		       "sum %lld at the end, limit %lld, amount %lld", after, limit, amount);
	else
		expect(after >= limit && after + amount - noise < limit,
		       "sum %lld at the end, limit %lld, amount %lld", after, limit, amount);
	return all;
}

/*
 * Adds overshoot only where they race for the last room: races for
 * LIMITED_ROOM adds' room, each way, until LIMITED_RACED of them each way
 * had every CPU adding its share, and LIMITED_RACES at least; a host on
 * which LIMITED_MAX_RACES did not race that often cannot test the race.
 */
#define LIMITED_ROOM		200
#define LIMITED_RACES		8
#define LIMITED_RACED		8
#define LIMITED_MAX_RACES	(64 * LIMITED_RACES)

static void test_limited_add_race(const struct pcc_impl *impl, int nr_cpus)
{
	/* Beyond the batch: every limited add has to look at the total */
	const s64 a = 3 * TEST_BATCH + 1;
	struct pcc_counter *fbc = counter_new(impl, 0);
	int i, up = 0, down = 0;

	/* All the room, up from 0, then down across it */
	limited_race(impl, fbc, 2000 * a + a / 2, a, nr_cpus);
	limited_race(impl, fbc, a / 3, -a, nr_cpus);
	/* A wrong race repeats itself: one is enough */
	for (i = 0; (i < LIMITED_RACES || up < LIMITED_RACED ||
		     down < LIMITED_RACED) && i < LIMITED_MAX_RACES &&
		    !test_failed; i++) {
		up += limited_race(impl, fbc, impl->sum(fbc) + LIMITED_ROOM * a + a / 2,
				   a, nr_cpus);
		down += limited_race(impl, fbc, impl->sum(fbc) - LIMITED_ROOM * a - a / 3,
				     -a, nr_cpus);
	}
	printf("# %s: limited_add_race: %d races each way, %d up and %d down with every CPU adding\n",
	       impl->name, i, up, down);
	if (!test_failed && (up < LIMITED_RACED || down < LIMITED_RACED))
		skip("%d and %d of %d races up and down had every CPU adding, want %d: the CPUs hardly ran together",
		     up, down, i, LIMITED_RACED);
	counter_free(impl, fbc);
}

/* --- percpu_counter_set() racing with folds ---------------------------- */

#define SET_FILL	(TEST_BATCH / 2 + 1)
#define SET_FOLDS	64
/*
 * Rounds until SET_RACED of them set while folds ran, and at least
 * SET_ROUNDS; a host on which SET_MAX_ROUNDS rounds did not race that
 * often cannot test the set.
 */
#define SET_ROUNDS	256
#define SET_RACED	64
#define SET_MAX_ROUNDS	(64 * SET_ROUNDS)

struct set_race {
	unsigned long round, go_round;
	s64 filled, finished;
};
static struct set_race set_race;

static int spin_until(struct group *g, unsigned long *val, unsigned long want)
{
	while (__atomic_load_n(val, __ATOMIC_ACQUIRE) < want) {
		if (stopped(g))
			return 0;
		pcc_cpu_relax();
	}
	return 1;
}

static void set_fn(struct worker *w)
{
	struct group *g = w->g;
	unsigned long round;
	int i;

	for (round = 1; ; round++) {
		if (!spin_until(g, &set_race.round, round))
			break;
		/* A delta, not a multiple of the batch, pending on this CPU */
		for (i = 0; i < SET_FILL; i++)
			g->impl->add_batch(g->fbc, 1, TEST_BATCH);
		__atomic_fetch_add(&set_race.filled, 1, __ATOMIC_RELEASE);
		if (!spin_until(g, &set_race.go_round, round))
			break;
		/* Adds of the batch: every one of them folds */
		for (i = 0; i < SET_FOLDS; i++)
			add_tracked(w, TEST_BATCH, TEST_BATCH);
		__atomic_fetch_add(&set_race.finished, 1, __ATOMIC_RELEASE);
	}
}

/*
 * The module's pct_test_set_race(): each round, every worker leaves a
 * delta pending, then folds; the runner sets the counter while the first
 * worker's folds run.  Adds completed before the set are gone, adds
 * started after it are counted, adds in between count fully or not at
 * all; the deltas pending before the set are all gone.
 */
static void test_set_race(const struct pcc_impl *impl, int nr_cpus)
{
	static struct group g;
	struct pcc_counter *fbc = counter_new(impl, 0);
	s64 completed[8], started[8], set, v, lo, hi, bad_v = 0, bad_lo = 0, bad_hi = 0;
	s64 filled;
	unsigned long round;
	unsigned int raced = 0, bad = 0;
	int i, nw;

	/* Quiescent: set discards pending deltas; they may stay on their CPUs */
	filled = fill(impl, fbc, 5, TEST_BATCH, 0, nr_cpus);
	impl->set(fbc, -12345);
	expect(impl->sum(fbc) == -12345 && llabs(impl->read(fbc) + 12345) <= filled,
	       "after set(-12345) of %lld pending: sum %lld read %lld", filled,
	       impl->sum(fbc), impl->read(fbc));

	memset(&set_race, 0, sizeof(set_race));
	group_init(&g, impl, set_fn, fbc);
	group_add_online(&g, 1, nr_cpus < 9 ? nr_cpus : 9);
	nw = g.nr;
	group_start(&g);
	for (round = 1; (round <= SET_ROUNDS || raced < SET_RACED) &&
	     round <= SET_MAX_ROUNDS; round++) {
		/* Set once the first worker started 0 to 7 adds */
		s64 target = (round % 8) * TEST_BATCH, sc = 0, ss = 0;
		unsigned int spin = (round * 7919) % 37;

		__atomic_store_n(&set_race.filled, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&set_race.finished, 0, __ATOMIC_RELAXED);
		for (i = 0; i < nw; i++) {
			__atomic_store_n(&g.w[i].started, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&g.w[i].completed, 0, __ATOMIC_RELAXED);
		}
		/* The resets before the round: the workers acquire it */
		__atomic_store_n(&set_race.round, round, __ATOMIC_RELEASE);
		wait_count(&set_race.filled, nw);
		set = (round & 1 ? 1 : -1) * (s64)round * 1000003;
		__atomic_store_n(&set_race.go_round, round, __ATOMIC_RELEASE);
		wait_count(&g.w[0].started, target);
		while (spin--)
			__asm__ __volatile__("" : : : "memory");
		/* As read_window(): completed before, started after the set */
		for (i = 0; i < nw; i++)
			completed[i] = __atomic_load_n(&g.w[i].completed, __ATOMIC_ACQUIRE);
		impl->set(fbc, set);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		for (i = 0; i < nw; i++)
			started[i] = __atomic_load_n(&g.w[i].started, __ATOMIC_RELAXED);
		wait_count(&set_race.finished, nw);
		progress();

		v = impl->sum(fbc);
		lo = hi = set;
		for (i = 0; i < nw; i++) {
			lo += SET_FOLDS * TEST_BATCH - started[i];
			hi += SET_FOLDS * TEST_BATCH - completed[i];
			sc += completed[i];
			ss += started[i];
		}
		if (sc < (s64)nw * SET_FOLDS * TEST_BATCH && ss > 0)
			raced++;
		if (v < lo || v > hi || ((v - set) & (TEST_BATCH - 1))) {
			if (!bad++) {
				bad_v = v;
				bad_lo = lo;
				bad_hi = hi;
			}
		}
	}
	group_stop_wait(&g);
	printf("# %s: set_race: %u of %lu rounds set while folds ran\n",
	       impl->name, raced, round - 1);
	expect(!bad, "%u rounds wrong, first: sum %lld outside [%lld, %lld] or a pending delta kept",
	       bad, bad_v, bad_lo, bad_hi);
	/* No fold racing with a set is lost from, or doubled in, the count */
	sync_all(impl, fbc, nr_cpus);
	expect(impl->read(fbc) == impl->sum(fbc),
	       "after sync on every CPU: read %lld, sum %lld",
	       impl->read(fbc), impl->sum(fbc));
	if (raced < SET_RACED)
		skip("%u of %lu rounds set while folds ran, want %d: the other CPUs hardly ran meanwhile",
		     raced, round - 1, SET_RACED);
	counter_free(impl, fbc);
}

/* --- CPU hotplug: a dead CPU's delta is folded, under adders ---------- */

static void hotplug_fn(struct worker *w)
{
	struct group *g = w->g;
	s64 total = 0;
	int i;

	while (!stopped(g)) {
		for (i = 0; i < PCC_CHUNK; i++) {
			u64 r = rnd(&w->rnd);
			s64 amount = (r & 0x100) ? -1 : 1;

			if (!(r & 7))
				amount *= 64 + (unsigned int)(r >> 16) % 1000;
			else
				amount *= 1 + (unsigned int)(r >> 16) % 3;
			g->impl->add(g->fbc, amount);
			total += amount;
		}
		__atomic_store_n(&w->ops, w->ops + PCC_CHUNK, __ATOMIC_RELEASE);
	}
	w->total = total;
}

/* Each phase of the hotplug test: every adder makes that many more adds */
#define HOTPLUG_ADDS	(256 * PCC_CHUNK)

static void hotplug_phase(struct group *g, int phase)
{
	int i;

	for (i = 0; i < g->nr; i++)
		wait_count((s64 *)&g->w[i].ops, (s64)phase * HOTPLUG_ADDS);
	progress();
}

/*
 * CPU 1 goes down and comes back while CPUs 2.. add (its own adders are
 * gone: tasks migrate off a dying CPU): the dead CPU's delta goes into
 * the global count, nothing is lost, percpu_counter_batch follows.
 */
static void test_hotplug(const struct pcc_impl *impl, int nr_cpus)
{
	static struct group g;
	struct pcc_counter *fbc = counter_new(impl, 0);
	struct pcc_counter *dead = counter_new(impl, 0);
	int batch = impl->batch(), i, want;
	s64 pre, total = 0;

	pre = fill(impl, fbc, batch - 1, batch, 0, nr_cpus);
	fill(impl, dead, batch - 1, batch, 1, 2);
	expect(impl->read(dead) == 0 && impl->sum(dead) == batch - 1,
	       "CPU 1's delta: read %lld sum %lld", impl->read(dead), impl->sum(dead));

	group_init(&g, impl, hotplug_fn, fbc);
	group_add_online(&g, 2, nr_cpus);
	group_start(&g);
	hotplug_phase(&g, 1);
	pcc_cpu_down(1);
	expect(impl->read(dead) == batch - 1 && impl->sum(dead) == batch - 1,
	       "CPU 1 dead: read %lld sum %lld, want %d", impl->read(dead),
	       impl->sum(dead), batch - 1);
	want = 2 * (nr_cpus - 1) > 32 ? 2 * (nr_cpus - 1) : 32;
	expect(impl->batch() == want, "%d CPUs online: batch %d, want %d",
	       nr_cpus - 1, impl->batch(), want);
	hotplug_phase(&g, 2);
	pcc_cpu_up(1);
	hotplug_phase(&g, 3);
	group_stop_wait(&g);
	for (i = 0; i < g.nr; i++)
		total += g.w[i].total;
	expect(impl->sum(fbc) == pre + total, "sum %lld, added %lld",
	       impl->sum(fbc), pre + total);
	expect(impl->sum(dead) == batch - 1, "dead counter: sum %lld", impl->sum(dead));
	counter_free(impl, fbc);
	counter_free(impl, dead);
}

struct test {
	const char *name;
	void (*fn)(const struct pcc_impl *impl, int nr_cpus);
	int per_core;
	int races;		/* means nothing unless CPUs run at once */
};

/*
 * Most tests run on all the -t CPUs, more threads than cores: preemption
 * anywhere, spinlocks test-and-set.  The race for the last room under the
 * limit runs as the module's, one CPU per core, with the kernel's queued
 * spinlock: only a queue makes a CPU that drops the lock and takes it
 * again wait for one that waited meanwhile.
 */
static const struct test tests[] = {
	{ "exact", test_exact, 0, 0 },
	{ "sum_window", test_sum_window, 0, 1 },
	{ "set_race", test_set_race, 0, 1 },
	{ "limited_add", test_limited_add, 0, 0 },
	{ "limited_add_race", test_limited_add_race, 1, 1 },
	{ "hotplug", test_hotplug, 0, 0 },
};
#define NR_TESTS	(int)(sizeof(tests) / sizeof(tests[0]))

static int cmd_check(int argc, char **argv)
{
	const char *only = NULL;
	int opt, i, v, failed = 0, per_core;
	unsigned long warnings;
	pthread_t watchdog;

	while ((opt = getopt(argc, argv, "t:w:v:")) != -1) {
		switch (opt) {
		case 't':
			check_threads = atoi(optarg);
			break;
		case 'w':
			watchdog_s = atoi(optarg);
			break;
		case 'v':
			only = optarg;
			break;
		default:
			return 2;
		}
	}
	if (!check_threads) {
		check_threads = 2 * nr_host_cpus < 8 ? 8 : 2 * nr_host_cpus;
		if (check_threads > PCC_NR_CPUS)
			check_threads = PCC_NR_CPUS;
	}
	if (check_threads < 3 || check_threads > PCC_NR_CPUS) {
		fprintf(stderr, "-t: 3..%d threads\n", PCC_NR_CPUS);
		return 2;
	}
	if (!watchdog_s) {
		fprintf(stderr, "-w: seconds without progress that make a hang, at least 1\n");
		return 2;
	}
	/* Oversubscribed: waiters yield to whoever they wait for (runtime.c) */
	if (check_threads > nr_host_cpus)
		pcc_relax_yield = 63;
	cpus_setup(check_threads);
	per_core = nr_host_cpus < 2 ? 2 : nr_host_cpus;
	per_core = per_core < check_threads ? per_core : check_threads;
	if (pthread_create(&watchdog, NULL, watchdog_thread, NULL)) {
		perror("pthread_create");
		return 2;
	}
	printf("KTAP version 1\n");
	printf("# %d threads (CPUs) on %d host cores (the race: %d), no timed phase, watchdog %u s\n",
	       check_threads, nr_host_cpus, per_core, watchdog_s);
	printf("1..%d\n", (only ? 1 : NR_IMPLS) * NR_TESTS + 1);
	for (v = 0; v < NR_IMPLS; v++) {
		if (only && strcmp(only, impls[v]->name))
			continue;
		for (i = 0; i < NR_TESTS; i++) {
			int nr = tests[i].per_core ? per_core : check_threads;
			u64 start = now_ns();

			test_failed = 0;
			test_msg[0] = 0;
			test_skip[0] = 0;
			snprintf(test_name, sizeof(test_name), "%s: %s",
				 impls[v]->name, tests[i].name);
			progress();
			pcc_lock_tas = nr > nr_host_cpus;
			cpus_online(nr);
			if (tests[i].races && nr_host_cpus < 2)
				skip("one host core: no two CPUs ever run at once");
			else
				tests[i].fn(impls[v], nr);
			if (test_failed) {
				char *line = strtok(test_msg, "\n");

				for (; line; line = strtok(NULL, "\n"))
					printf("# %s: %s\n", test_name, line);
				failed++;
			}
			printf("# %s: %.2f s\n", test_name,
			       (double)(now_ns() - start) / 1e9);
			if (!test_failed && test_skip[0])
				printf("ok %d %s # SKIP %s\n", ++test_nr,
				       test_name, test_skip);
			else
				printf("%sok %d %s\n", test_failed ? "not " : "",
				       ++test_nr, test_name);
			fflush(stdout);
		}
	}
	warnings = __atomic_load_n(&pcc_warnings, __ATOMIC_RELAXED);
	if (warnings)
		failed++;
	printf("%sok %d no WARN from lib/percpu_counter.c (%lu)\n",
	       warnings ? "not " : "", ++test_nr, warnings);
	printf("# %d failed\n", failed);
	return failed ? 1 : 0;
}

static int cmd_host(void)
{
	char model[256];
	double l[3] = { -1, -1, -1 };

	host_model(model, sizeof(model));
	getloadavg(l, 3);
	printf("cores=%d\nmodel=%s\nload=%.2f %.2f %.2f\nnr_cpus=%d\n",
	       nr_host_cpus, model, l[0], l[1], l[2], PCC_NR_CPUS);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: pcc-bench bench [-t 1,2,4] [-r ROUNDS] [-m MS] [-o RUNS.csv] [-s SUMMARY.csv]\n"
		"       pcc-bench check [-t THREADS] [-w SECONDS] [-v base|patched]\n"
		"       pcc-bench host\n");
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	host_setup();
	if (argc < 2) {
		usage();
		return 2;
	}
	if (!strcmp(argv[1], "bench"))
		return cmd_bench(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check"))
		return cmd_check(argc - 1, argv + 1);
	if (!strcmp(argv[1], "host"))
		return cmd_host();
	usage();
	return 2;
}
