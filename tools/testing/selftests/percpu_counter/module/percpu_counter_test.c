// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests and benchmarks for lib/percpu_counter.c.
 *
 * Two suites run when the module is loaded:
 *  - percpu_counter: behaviour under concurrency (exactness, the window
 *    percpu_counter_sum() lies in, CPU hotplug, percpu_counter_set() and
 *    __percpu_counter_limited_add() racing with adds, comparisons);
 *  - percpu_counter_bench: throughput and latency figures, reported as
 *    "# bench: name=value unit" diagnostic lines; they never fail.
 *
 * It builds against kernels with and without percpu_counter_scaled_batch():
 * the Makefile defines HAVE_PERCPU_COUNTER_SCALED_BATCH when the kernel's
 * header has it, and the tests that need it are skipped otherwise.  Likewise
 * HAVE_PERCPU_COUNTER_LIMITED_ADD_EXPORT: stock 6.12 does not export
 * __percpu_counter_limited_add(), so a module cannot call it there.
 *
 * Every busy kthread is bound to its CPU (except the ones that must survive
 * CPU hotplug) and calls cond_resched() regularly: the kernel may well be
 * PREEMPT_NONE.
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/percpu_counter.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#ifdef CONFIG_X86_64
#include <asm/apic.h>
/* register_nmi_handler(): <linux/nmi.h> has it only with some watchdogs */
#include "asm/nmi.h"
#endif

static unsigned int bench_ms = 200;
module_param(bench_ms, uint, 0444);
MODULE_PARM_DESC(bench_ms, "Duration of each benchmark in ms, 0 skips them (default: 200)");

static bool bench_only;
module_param(bench_only, bool, 0444);
MODULE_PARM_DESC(bench_only, "Skip the tests, run only the benchmarks (default: false)");

static bool ext_hotplug;
module_param(ext_hotplug, bool, 0444);
MODULE_PARM_DESC(ext_hotplug, "CPUs go offline and online during the run: the tests that hotplug CPUs themselves let it happen instead, and bounds allow a delta on every possible CPU (default: false)");

static unsigned int stress_adds = 1000000;
module_param(stress_adds, uint, 0444);
MODULE_PARM_DESC(stress_adds, "Adds per CPU in the exactness test (default: 1000000)");

static unsigned int stress_ms = 300;
module_param(stress_ms, uint, 0444);
MODULE_PARM_DESC(stress_ms, "Duration of the timed stress phases in ms (default: 300)");

/* How long the runner waits for workers before it gives up */
#define PCT_TIMEOUT_MS		(30 * MSEC_PER_SEC)
/* Operations between two cond_resched() / clock reads in loops */
#define PCT_CHUNK		256
/* Batch the set and limited add tests use, independent of the CPU count */
#define PCT_TEST_BATCH		64

/*
 * One step of a busy wait for another thread.  After a CPU went offline
 * (ext_hotplug) that thread may share our CPU, and on PREEMPT_NONE
 * cond_resched() only lets it run once the tick says our slice is over:
 * a long wait sleeps a jiffy instead.
 */
static void pct_wait_step(unsigned int *n)
{
	cpu_relax();
	if (!(++*n % 1024))
		cond_resched();
	if (!(*n % (64 * 1024)))
		schedule_timeout_uninterruptible(1);
}

struct pct_group;

struct pct_worker {
	struct pct_group *g;
	struct task_struct *task;
	int cpu;			/* bound CPU, or -1 */
	unsigned int idx;
	u64 rnd;			/* xorshift64* state */
	s64 total;			/* sum of the amounts it added */
	s64 local_total;		/* same, for the add_local counter */
	u64 ops;
	u64 ns;
	u64 ran_ns;			/* of which on the CPU (bench) */
	unsigned long csw;		/* context switches (bench) */
	u64 good;			/* limited adds that succeeded */
	/*
	 * Not atomic64_t, a cmpxchg8b loop on 32-bit x86: after one, QEMU's
	 * TCG (7.2) now and then leaves EFLAGS all ones and the guest
	 * double-faults, stock kernels too.  Workers stop at PCT_TRACK_MAX.
	 */
	atomic_long_t started;		/* amounts (or adds) started ... */
	atomic_long_t completed;	/* ... and completed */
};

/* Bound on |started| of a worker: far from overflowing a long */
#define PCT_TRACK_MAX		(LONG_MAX / 4)

struct pct_group {
	struct kunit *test;
	int (*fn)(struct pct_worker *w);
	struct percpu_counter *fbc;
	struct percpu_counter *fbc2;
	u64 __percpu *pcpu;
	unsigned int nr;		/* workers created */
	unsigned int max;		/* room in w[] */
	struct completion start;
	atomic_t running;
	atomic_t remaining;
	struct completion all_done;
	bool started;
	bool stop;
	u64 deadline;			/* ktime_get_ns() workers give up at */
	bool pause;
	atomic_t paused;
	/* test specific */
	u64 iters;
	u64 bench_ns;
	int kind;
	s32 batch;
	s64 limit;
	s64 amount;
	unsigned long round;
	unsigned long go_round;
	atomic_long_t filled;
	atomic_long_t finished;
	struct pct_worker w[];
};

static u64 pct_rand(u64 *state)
{
	u64 x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static void pct_log_bench(struct kunit *test, const char *name, u64 value,
			  const char *unit)
{
	kunit_log(KERN_INFO, test, KUNIT_SUBTEST_INDENT "# bench: %s=%llu %s\n",
		  name, value, unit);
}

/* ---------------------------------------------------------------------- */
/* Worker threads */

/*
 * Whether a worker must give up: the runner said so, kthread_stop() was
 * called (KUnit timed out and cleans up), or it ran out of time.
 */
static bool pct_stopped(struct pct_group *g)
{
	return READ_ONCE(g->stop) || kthread_should_stop() ||
	       ktime_get_ns() > g->deadline;
}

static int pct_thread(void *data)
{
	struct pct_worker *w = data;
	struct pct_group *g = w->g;

	wait_for_completion(&g->start);
	if (!pct_stopped(g)) {
		/* Start together: everyone is on the CPU before anyone runs */
		atomic_inc(&g->running);
		unsigned int n = 0;

		while (atomic_read(&g->running) < g->nr && !pct_stopped(g))
			pct_wait_step(&n);
		if (!pct_stopped(g))
			g->fn(w);
	}
	/* Publishes the worker's results to the runner */
	if (atomic_dec_and_test(&g->remaining))
		complete(&g->all_done);

	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static void pct_group_cleanup(void *data)
{
	struct pct_group *g = data;
	unsigned int i;

	WRITE_ONCE(g->stop, true);
	WRITE_ONCE(g->pause, false);
	complete_all(&g->start);
	for (i = 0; i < g->nr; i++) {
		kthread_stop(g->w[i].task);
		put_task_struct(g->w[i].task);
	}
	g->nr = 0;
}

static struct pct_group *pct_group_alloc(struct kunit *test,
					 int (*fn)(struct pct_worker *w),
					 struct percpu_counter *fbc)
{
	unsigned int max = num_possible_cpus() + 1;
	struct pct_group *g;

	g = kunit_kzalloc(test, struct_size(g, w, max), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, g);
	g->test = test;
	g->fn = fn;
	g->fbc = fbc;
	g->max = max;
	init_completion(&g->start);
	init_completion(&g->all_done);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, pct_group_cleanup, g));
	return g;
}

/* Add a worker bound to @cpu, or an unbound one if @cpu < 0 */
static struct pct_worker *pct_group_add(struct pct_group *g, int cpu)
{
	struct kunit *test = g->test;
	struct pct_worker *w;
	struct task_struct *t;

	KUNIT_ASSERT_LT(test, g->nr, g->max);
	KUNIT_ASSERT_FALSE(test, g->started);
	w = &g->w[g->nr];
	w->g = g;
	w->cpu = cpu;
	w->idx = g->nr;
	w->rnd = 0x9E3779B97F4A7C15ULL * (g->nr + 1) + cpu + 2;
	atomic_long_set(&w->started, 0);
	atomic_long_set(&w->completed, 0);
	if (cpu >= 0)
		t = kthread_create_on_cpu(pct_thread, w, cpu, "pct_worker/%u");
	else
		t = kthread_create(pct_thread, w, "pct_worker/u%u", g->nr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	get_task_struct(t);
	w->task = t;
	g->nr++;
	return w;
}

/* One bound worker on every online CPU except @skip_cpu (-1: none) */
static void pct_group_add_online(struct pct_group *g, int skip_cpu)
{
	int cpu;

	for_each_online_cpu(cpu)
		if (cpu != skip_cpu)
			pct_group_add(g, cpu);
}

static void pct_group_start(struct pct_group *g)
{
	unsigned int i;

	g->started = true;
	/* Workers give up a second before the runner stops waiting for them */
	g->deadline = ktime_get_ns() +
		      (u64)(PCT_TIMEOUT_MS - MSEC_PER_SEC) * NSEC_PER_MSEC;
	atomic_set(&g->remaining, g->nr);
	for (i = 0; i < g->nr; i++)
		wake_up_process(g->w[i].task);
	complete_all(&g->start);
}

/* Wait for all workers' functions to return; false on timeout */
static bool pct_group_wait(struct pct_group *g)
{
	if (!g->nr)
		return true;
	return wait_for_completion_timeout(&g->all_done,
				msecs_to_jiffies(PCT_TIMEOUT_MS)) != 0;
}

static void pct_group_stop_wait(struct pct_group *g)
{
	WRITE_ONCE(g->stop, true);
	KUNIT_EXPECT_TRUE_MSG(g->test, pct_group_wait(g),
			      "workers did not finish");
}

/* Ask the workers to pause, and wait until they all have */
static bool pct_group_pause(struct pct_group *g)
{
	unsigned long timeout = jiffies + msecs_to_jiffies(PCT_TIMEOUT_MS);

	WRITE_ONCE(g->pause, true);
	while (atomic_read(&g->paused) < g->nr) {
		if (time_after(jiffies, timeout))
			return false;
		usleep_range(1000, 2000);
	}
	/* Pairs with the barrier before atomic_inc(&g->paused) */
	smp_mb();
	return true;
}

static void pct_group_resume(struct pct_group *g)
{
	WRITE_ONCE(g->pause, false);
}

/* Called by workers between chunks; returns when not paused */
static void pct_worker_maybe_pause(struct pct_worker *w, s64 total)
{
	struct pct_group *g = w->g;

	if (!READ_ONCE(g->pause))
		return;
	WRITE_ONCE(w->total, total);
	/* The total is visible before the pause: pairs with pct_group_pause() */
	smp_mb__before_atomic();
	atomic_inc(&g->paused);
	while (READ_ONCE(g->pause) && !pct_stopped(g))
		usleep_range(1000, 2000);
	atomic_dec(&g->paused);
}

static s64 pct_group_total(struct pct_group *g)
{
	s64 total = 0;
	unsigned int i;

	for (i = 0; i < g->nr; i++)
		total += READ_ONCE(g->w[i].total);
	return total;
}

/* Pin the test thread (KUnit runs each case in its own kthread) */
static int pct_pin_runner(struct kunit *test)
{
	int cpu = cpumask_first(cpu_online_mask);

	KUNIT_ASSERT_EQ(test, 0, set_cpus_allowed_ptr(current, cpumask_of(cpu)));
	return cpu;
}

static void pct_counter_destroy(void *data)
{
	percpu_counter_destroy(data);
}

static struct percpu_counter *pct_counter(struct kunit *test, s64 value)
{
	struct percpu_counter *fbc;

	fbc = kunit_kzalloc(test, sizeof(*fbc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fbc);
	KUNIT_ASSERT_EQ(test, 0, percpu_counter_init(fbc, value, GFP_KERNEL));
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, pct_counter_destroy,
						  fbc));
	return fbc;
}

static void pct_sync_cpu(void *fbc)
{
	percpu_counter_sync(fbc);
}

/* What @cpu holds of @fbc that fbc->count does not */
static s64 pct_cpu_delta(struct percpu_counter *fbc, int cpu)
{
#ifdef PERCPU_COUNTER_LOCKLESS
	return READ_ONCE(per_cpu_ptr(fbc->counters, cpu)->delta);
#else
	return READ_ONCE(*per_cpu_ptr(fbc->counters, cpu));
#endif
}

static void pct_skip_if_bench_only(struct kunit *test)
{
	if (bench_only)
		kunit_skip(test, "bench_only=1");
}

/* CPUs that may hold a pending delta during the test */
static unsigned int pct_nr_cpus(void)
{
	return ext_hotplug ? num_possible_cpus() : num_online_cpus();
}

static s32 pct_max_batch(void)
{
	s32 batch = READ_ONCE(percpu_counter_batch);

#ifdef HAVE_PERCPU_COUNTER_SCALED_BATCH
	batch = max(batch, percpu_counter_scaled_batch(TICK_NSEC));
#endif
	return batch;
}

/*
 * Leave @delta[cpu] pending on each online CPU: a bound thread adds it in
 * steps of 1, so the delta stays per CPU as long as it is below the batch.
 */
static int pct_fill_fn(struct pct_worker *w)
{
	s64 delta = w->g->amount;
	s64 i;

	for (i = 0; i < abs(delta) && !pct_stopped(w->g); i++)
		percpu_counter_add_batch(w->g->fbc, delta > 0 ? 1 : -1,
					 w->g->batch);
	w->total = delta > 0 ? i : -i;
	return 0;
}

static s64 pct_fill_cpu(struct kunit *test, struct percpu_counter *fbc,
			s64 delta, s32 batch, int cpu)
{
	struct pct_group *g = pct_group_alloc(test, pct_fill_fn, fbc);
	s64 total;

	g->amount = delta;
	g->batch = batch;
	if (cpu < 0)
		pct_group_add_online(g, -1);
	else
		pct_group_add(g, cpu);
	pct_group_start(g);
	KUNIT_ASSERT_TRUE(test, pct_group_wait(g));
	total = pct_group_total(g);
	pct_group_cleanup(g);
	return total;
}

static s64 pct_fill(struct kunit *test, struct percpu_counter *fbc,
		    s64 delta, s32 batch)
{
	return pct_fill_cpu(test, fbc, delta, batch, -1);
}

/* ---------------------------------------------------------------------- */
/* Exactness: mixed adds from every CPU add up exactly */

static int pct_exact_fn(struct pct_worker *w)
{
	struct pct_group *g = w->g;
	s32 batch = READ_ONCE(percpu_counter_batch);
	s64 total = 0, local_total = 0;
	u64 i;

	for (i = 0; i < g->iters; i++) {
		u64 r = pct_rand(&w->rnd);
		s64 sign = (r & 0x100) ? -1 : 1;
		s64 amount;

		switch (r & 15) {
		case 0 ... 8:
			/* small: the fast path */
			amount = sign * (s64)(1 + (u32)(r >> 16) % 3);
			percpu_counter_add(g->fbc, amount);
			break;
		case 9:
			amount = sign;
			if (sign > 0)
				percpu_counter_inc(g->fbc);
			else
				percpu_counter_dec(g->fbc);
			break;
		case 10:
			amount = (s64)(1 + (u32)(r >> 16) % 7);
			percpu_counter_sub(g->fbc, amount);
			amount = -amount;
			break;
		case 11:
		case 12:
			/* at least the batch: always folds */
			amount = sign * (batch + (s64)((u32)(r >> 16) % (4 * batch)));
			percpu_counter_add(g->fbc, amount);
			break;
		case 13:
		case 14:
			/* ticks of CPU time, as cpuacct would add */
			amount = sign * ((s64)TICK_NSEC - 500 +
					 (s64)((u32)(r >> 16) % 1000));
#ifdef HAVE_PERCPU_COUNTER_SCALED_BATCH
			percpu_counter_add_scaled(g->fbc, amount, TICK_NSEC);
#else
			percpu_counter_add(g->fbc, amount);
#endif
			break;
		default:
			amount = sign * (s64)((u32)(r >> 16) % 1000);
			percpu_counter_add_local(g->fbc2, amount);
			local_total += amount;
			amount = 0;
			break;
		}
		total += amount;
		if (!(i % PCT_CHUNK)) {
			cond_resched();
			if (pct_stopped(g))
				break;
		}
	}
	w->total = total;
	w->local_total = local_total;
	return 0;
}

static long pct_sync_fn(void *data)
{
	percpu_counter_sync(data);
	return 0;
}

static void pct_test_exact(struct kunit *test)
{
	struct percpu_counter *fbc, *local;
	struct pct_group *g;
	s64 total = 0, local_total = 0, sum, read;
	s64 bound;
	unsigned int i;
	int cpu;

	pct_skip_if_bench_only(test);
	fbc = pct_counter(test, 0);
	local = pct_counter(test, 0);
	g = pct_group_alloc(test, pct_exact_fn, fbc);
	g->fbc2 = local;
	g->iters = stress_adds;
	pct_group_add_online(g, -1);
	pct_group_start(g);
	KUNIT_ASSERT_TRUE_MSG(test, pct_group_wait(g), "adders timed out");

	for (i = 0; i < g->nr; i++) {
		total += g->w[i].total;
		local_total += g->w[i].local_total;
	}
	sum = percpu_counter_sum(fbc);
	read = percpu_counter_read(fbc);
	KUNIT_EXPECT_EQ(test, sum, total);
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(local), local_total);
	KUNIT_EXPECT_EQ(test, percpu_counter_sum_positive(fbc),
			total > 0 ? total : 0);

	/* Each CPU's pending delta is below the largest batch used */
	bound = (s64)(pct_max_batch() - 1) * pct_nr_cpus();
	KUNIT_EXPECT_LE_MSG(test, abs(read - sum), bound,
			    "read %lld sum %lld", read, sum);

	/*
	 * Folding every CPU's delta makes the global count exact, if no CPU
	 * is on its way offline with its delta meanwhile.
	 */
	cpus_read_lock();
	for_each_online_cpu(cpu)
		work_on_cpu(cpu, pct_sync_fn, fbc);
	read = percpu_counter_read(fbc);
	cpus_read_unlock();
	KUNIT_EXPECT_EQ(test, read, total);
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(fbc), total);
}

/* ---------------------------------------------------------------------- */
/* The window percpu_counter_sum() and percpu_counter_read() lie in */

/*
 * Account an add as started before it is made and as completed after it:
 * whoever sees it completed sees its effect on the counter, and whoever
 * sees its effect sees it started.
 */
static void pct_add_tracked(struct pct_worker *w, s64 amount, s32 batch)
{
	atomic_long_add(amount, &w->started);
	/* "started" before the add: pairs with the 2nd smp_mb() of readers */
	smp_mb__after_atomic();
	percpu_counter_add_batch(w->g->fbc, amount, batch);
	/* The add before "completed": pairs with the 1st smp_mb() of readers */
	smp_mb__before_atomic();
	atomic_long_add(amount, &w->completed);
}

enum pct_window_kind {
	PCT_WINDOW_MIXED,	/* positive amounts, a fold every few adds */
	PCT_WINDOW_DEC,		/* decrements of 1, as a free-space counter */
};

static int pct_window_fn(struct pct_worker *w)
{
	struct pct_group *g = w->g;
	s32 batch = g->batch;
	unsigned int i;

	/* A chunk adds at most PCT_CHUNK * 2 * batch */
	while (!pct_stopped(g) &&
	       abs(atomic_long_read(&w->started)) < PCT_TRACK_MAX) {
		for (i = 0; i < PCT_CHUNK; i++) {
			u64 r = pct_rand(&w->rnd);
			s64 amount;

			if (g->kind == PCT_WINDOW_DEC)
				amount = -1;
			else if (r & 7)
				amount = 1 + (u32)(r >> 8) % 3;
			else
				amount = batch + (u32)(r >> 8) % batch;
			pct_add_tracked(w, amount, batch);
		}
		w->ops += PCT_CHUNK;
		cond_resched();
	}
	return 0;
}

static s64 pct_sum_atomic(struct pct_group *g, bool completed)
{
	s64 sum = 0;
	unsigned int i;

	for (i = 0; i < g->nr; i++)
		sum += atomic_long_read(completed ? &g->w[i].completed :
					     &g->w[i].started);
	return sum;
}

/*
 * Read the counter with @read, and the window the result must lie in:
 * *@c, the adds completed before, and *@s, the adds started after.
 */
static s64 pct_read_window(struct pct_group *g,
			   s64 (*read)(struct percpu_counter *fbc),
			   s64 *c, s64 *s)
{
	s64 r;

	*c = pct_sum_atomic(g, true);
	/* Completed adds are visible to @read: pairs with pct_add_tracked() */
	smp_mb();
	r = read(g->fbc);
	/* What @read saw is seen started: pairs with pct_add_tracked() */
	smp_mb();
	*s = pct_sum_atomic(g, false);
	return r;
}

/*
 * percpu_counter_sum() while other CPUs add: with c the total of the adds
 * completed before the call and s that of the adds started before it
 * returned, the result lies between c and s (each add is in one direction),
 * whatever the folds do meanwhile.  percpu_counter_read() may be off by the
 * pending deltas, less than the batch per CPU.
 */
static void pct_sum_window(struct kunit *test, int kind, s32 batch)
{
	struct percpu_counter *fbc;
	struct pct_group *g;
	u64 deadline, checks = 0, bad_sum = 0, bad_read = 0;
	s64 c, s, r, lo, hi, tol, worst = 0;
	s64 first_c = 0, first_r = 0, first_s = 0;
	unsigned int i;
	int cpu;

	cpu = pct_pin_runner(test);
	fbc = pct_counter(test, 0);
	g = pct_group_alloc(test, pct_window_fn, fbc);
	g->kind = kind;
	g->batch = batch;
	pct_group_add_online(g, cpu);
	if (!g->nr)
		pct_group_add(g, -1);
	tol = (s64)(batch - 1) * pct_nr_cpus();
	/* An amount, up to 2 * batch, fits the long the workers count in */
	KUNIT_ASSERT_LT(test, (s64)batch, (s64)(LONG_MAX / 2));

	pct_group_start(g);
	deadline = ktime_get_ns() + (u64)stress_ms * NSEC_PER_MSEC;
	while (ktime_get_ns() < deadline) {
		r = pct_read_window(g, percpu_counter_sum, &c, &s);
		lo = min(c, s);
		hi = max(c, s);
		if (r < lo || r > hi) {
			worst = max(worst, r < lo ? lo - r : r - hi);
			if (!bad_sum++) {
				first_c = c;
				first_r = r;
				first_s = s;
			}
		}

		r = pct_read_window(g, percpu_counter_read, &c, &s);
		if (r < min(c, s) - tol || r > max(c, s) + tol)
			bad_read++;

		checks++;
		cond_resched();
	}
	pct_group_stop_wait(g);

	kunit_info(test, "%s: %llu sums, %llu outside the window (by up to %lld)\n",
		   kind == PCT_WINDOW_DEC ? "decrements" : "mixed adds", checks,
		   bad_sum, worst);
	KUNIT_EXPECT_EQ_MSG(test, bad_sum, 0,
			    "sum %lld outside [%lld, %lld] (completed, started)",
			    first_r, first_c, first_s);
	KUNIT_EXPECT_EQ(test, bad_read, 0);
	KUNIT_EXPECT_GT(test, checks, 10);
	/* No worker stopped at PCT_TRACK_MAX: every one added until the end */
	for (i = 0; i < g->nr; i++)
		KUNIT_EXPECT_LT(test, abs(atomic_long_read(&g->w[i].started)),
				PCT_TRACK_MAX);
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(fbc), pct_sum_atomic(g, true));
}

static void pct_test_sum_window(struct kunit *test)
{
	pct_skip_if_bench_only(test);
	pct_sum_window(test, PCT_WINDOW_MIXED, READ_ONCE(percpu_counter_batch));
	/* The pattern of __percpu_counter_compare() on a free-space counter */
	pct_sum_window(test, PCT_WINDOW_DEC, READ_ONCE(percpu_counter_batch));
}

/* ---------------------------------------------------------------------- */
/* CPU hotplug in the middle of the stress: nothing is lost */

static int pct_hotplug_fn(struct pct_worker *w)
{
	struct pct_group *g = w->g;
	s64 total = 0;
	unsigned int i;

	while (!pct_stopped(g)) {
		for (i = 0; i < PCT_CHUNK; i++) {
			u64 r = pct_rand(&w->rnd);
			s64 amount = (r & 0x100) ? -1 : 1;

			if (!(r & 7))
				amount *= 64 + (u32)(r >> 16) % 1000;
			else
				amount *= 1 + (u32)(r >> 16) % 3;
			percpu_counter_add(g->fbc, amount);
			total += amount;
		}
		cond_resched();
		pct_worker_maybe_pause(w, total);
	}
	WRITE_ONCE(w->total, total);
	return 0;
}

static void pct_online_cpu1(void *data)
{
	if (!cpu_online(1))
		add_cpu(1);
}

/*
 * With ext_hotplug, CPUs come and go under adders that migrate as they do:
 * whenever the adders pause, and at the end, the sum is exact.
 */
static void pct_hotplug_external(struct kunit *test)
{
	struct percpu_counter *fbc = pct_counter(test, 0);
	struct pct_group *g;
	int i;

	g = pct_group_alloc(test, pct_hotplug_fn, fbc);
	pct_group_add(g, -1);
	pct_group_add(g, -1);
	pct_group_start(g);
	for (i = 0; i < 3; i++) {
		msleep(stress_ms / 3 + 1);
		KUNIT_ASSERT_TRUE(test, pct_group_pause(g));
		KUNIT_EXPECT_EQ(test, percpu_counter_sum(fbc),
				pct_group_total(g));
		pct_group_resume(g);
	}
	pct_group_stop_wait(g);
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(fbc), pct_group_total(g));
}

static void pct_test_hotplug(struct kunit *test)
{
	struct percpu_counter *fbc, *dead;
	struct pct_group *g;
	s64 pre, sum;
	s32 batch;
	int ret, cpu;

	pct_skip_if_bench_only(test);
	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU))
		kunit_skip(test, "needs CONFIG_HOTPLUG_CPU");
	if (ext_hotplug) {
		pct_hotplug_external(test);
		return;
	}
	if (num_online_cpus() < 2 || !cpu_online(1))
		kunit_skip(test, "needs CPU 1 online");
	cpu = pct_pin_runner(test);
	KUNIT_ASSERT_NE(test, cpu, 1);

	fbc = pct_counter(test, 0);
	dead = pct_counter(test, 0);
	batch = READ_ONCE(percpu_counter_batch);
	/* Deltas are pending on every CPU, CPU 1 included */
	pre = pct_fill(test, fbc, batch - 1, batch);
	KUNIT_ASSERT_EQ(test, percpu_counter_sum(fbc), pre);
	/* And on CPU 1 only, for a counter nobody else touches */
	pct_fill_cpu(test, dead, batch - 1, batch, 1);
	KUNIT_EXPECT_EQ(test, percpu_counter_read(dead), 0);
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(dead), batch - 1);

	/* Unbound adders: they migrate off CPU 1 when it goes down */
	g = pct_group_alloc(test, pct_hotplug_fn, fbc);
	pct_group_add(g, -1);
	pct_group_add(g, -1);
	pct_group_start(g);
	msleep(stress_ms / 3 + 1);

	ret = remove_cpu(1);
	if (ret)
		kunit_skip(test, "remove_cpu(1) failed: %d", ret);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, pct_online_cpu1, NULL));
	KUNIT_EXPECT_FALSE(test, cpu_online(1));

	/* The dead CPU's delta went into the global count */
	KUNIT_EXPECT_EQ(test, percpu_counter_read(dead), batch - 1);
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(dead), batch - 1);

	/*
	 * Quiesce while CPU 1 is down: nothing was lost, and once the
	 * online CPUs' deltas are folded too, the global count is exact.
	 */
	KUNIT_ASSERT_TRUE(test, pct_group_pause(g));
	sum = percpu_counter_sum(fbc);
	KUNIT_EXPECT_EQ(test, sum, pre + pct_group_total(g));
	batch = READ_ONCE(percpu_counter_batch);
	KUNIT_EXPECT_LE(test, abs(percpu_counter_read(fbc) - sum),
			(s64)(batch - 1) * num_online_cpus());
	work_on_cpu(cpu, pct_sync_fn, fbc);
	KUNIT_EXPECT_EQ(test, percpu_counter_read(fbc), sum);
	pct_group_resume(g);
	msleep(stress_ms / 3 + 1);

	ret = add_cpu(1);
	KUNIT_EXPECT_EQ(test, ret, 0);
	msleep(stress_ms / 3 + 1);
	pct_group_stop_wait(g);

	KUNIT_EXPECT_TRUE(test, cpu_online(1));
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(fbc), pre + pct_group_total(g));
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(dead), batch - 1);
}

/* ---------------------------------------------------------------------- */
/* percpu_counter_set() racing with folds */

#define PCT_SET_FILL	(PCT_TEST_BATCH / 2 + 1)
#define PCT_SET_FOLDS	64
#define PCT_SET_ROUNDS	1000
/* Rounds stop after this long (slow debug kernels), workers run longer */
#define PCT_SET_MS	(PCT_TIMEOUT_MS / 2)

static bool pct_spin_until(struct pct_group *g, unsigned long *val,
			   unsigned long want)
{
	unsigned int n = 0;

	while (READ_ONCE(*val) < want) {
		if (pct_stopped(g))
			return false;
		pct_wait_step(&n);
	}
	return true;
}

static int pct_set_fn(struct pct_worker *w)
{
	struct pct_group *g = w->g;
	unsigned long round;
	unsigned int i;

	for (round = 1; round <= PCT_SET_ROUNDS; round++) {
		if (!pct_spin_until(g, &g->round, round))
			break;
		/* A delta, not a multiple of the batch, pending on this CPU */
		for (i = 0; i < PCT_SET_FILL; i++)
			percpu_counter_add_batch(g->fbc, 1, PCT_TEST_BATCH);
		/* The fill is done before it is seen: pairs with pct_wait_count() */
		smp_mb__before_atomic();
		atomic_long_inc(&g->filled);

		if (!pct_spin_until(g, &g->go_round, round))
			break;
		/* Adds of the batch: every one of them folds */
		for (i = 0; i < PCT_SET_FOLDS; i++)
			pct_add_tracked(w, PCT_TEST_BATCH, PCT_TEST_BATCH);
		/* The adds are done before it is seen: pairs with pct_wait_count() */
		smp_mb__before_atomic();
		atomic_long_inc(&g->finished);
	}
	return 0;
}

static bool pct_wait_count(atomic_long_t *v, long want)
{
	u64 deadline = ktime_get_ns() + (u64)PCT_TIMEOUT_MS * NSEC_PER_MSEC;
	unsigned int n = 0;

	while (atomic_long_read(v) < want) {
		pct_wait_step(&n);
		if (!(n % 1024) && ktime_get_ns() > deadline)
			return false;
	}
	/* What the workers did is visible: pairs with their atomic_inc() */
	smp_mb();
	return true;
}

static void pct_test_set_race(struct kunit *test)
{
	s64 completed[8], started[8];
	struct percpu_counter *fbc;
	struct pct_group *g;
	unsigned long round;
	unsigned int i, raced = 0, bad = 0, nw;
	s64 set, v, lo, hi, bad_v = 0, bad_lo = 0, bad_hi = 0, filled;
	bool stalled = false;
	u64 deadline;
	int cpu;

	/*
	 * The runner and the workers run at once, on their own CPUs, unless
	 * CPUs went offline (ext_hotplug): then they take turns.
	 */
	pct_skip_if_bench_only(test);
	cpu = pct_pin_runner(test);
	fbc = pct_counter(test, 0);

	/* Quiescent: set discards pending deltas; they may stay on their CPUs */
	filled = pct_fill(test, fbc, 5, PCT_TEST_BATCH);
	percpu_counter_set(fbc, -12345);
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(fbc), -12345);
	KUNIT_EXPECT_LE(test, abs(percpu_counter_read(fbc) + 12345), filled);

	g = pct_group_alloc(test, pct_set_fn, fbc);
	for_each_online_cpu(i) {
		if (i != cpu && g->nr < ARRAY_SIZE(completed))
			pct_group_add(g, i);
	}
	if (!g->nr)
		pct_group_add(g, -1);
	nw = g->nr;
	pct_group_start(g);
	deadline = ktime_get_ns() + (u64)PCT_SET_MS * NSEC_PER_MSEC;

	for (round = 1; round <= PCT_SET_ROUNDS; round++) {
		if (ktime_get_ns() > deadline)
			break;
		/*
		 * Set once the first worker started 0 to 7 adds: its first
		 * fold, which takes the delta pending before the set, is
		 * then in flight or just done.
		 */
		s64 target = (round % 8) * PCT_TEST_BATCH;
		unsigned int spin = (round * 7919) % 37;
		s64 sc = 0, ss = 0;

		atomic_long_set(&g->filled, 0);
		atomic_long_set(&g->finished, 0);
		for (i = 0; i < nw; i++) {
			atomic_long_set(&g->w[i].started, 0);
			atomic_long_set(&g->w[i].completed, 0);
		}
		/* Reset before the workers see the round */
		smp_mb();
		WRITE_ONCE(g->round, round);
		stalled = true;
		if (!pct_wait_count(&g->filled, nw))
			break;

		/* Let the folds go, and set the counter while they run */
		set = (round & 1 ? 1 : -1) * (s64)round * 1000003;
		WRITE_ONCE(g->go_round, round);
		if (!pct_wait_count(&g->w[0].started, target))
			break;
		while (spin--)
			cpu_relax();
		for (i = 0; i < nw; i++)
			completed[i] = atomic_long_read(&g->w[i].completed);
		/* Completed adds precede the set: pairs with pct_add_tracked() */
		smp_mb();
		percpu_counter_set(fbc, set);
		/* Adds seen by the set are seen started: as above */
		smp_mb();
		for (i = 0; i < nw; i++)
			started[i] = atomic_long_read(&g->w[i].started);
		if (!pct_wait_count(&g->finished, nw))
			break;
		stalled = false;

		/*
		 * Adds completed before the set are gone, adds started after
		 * it are counted, adds in between count fully or not at all;
		 * the deltas pending before the set are all gone.
		 */
		v = percpu_counter_sum(fbc);
		lo = set;
		hi = set;
		for (i = 0; i < nw; i++) {
			lo += PCT_SET_FOLDS * PCT_TEST_BATCH - started[i];
			hi += PCT_SET_FOLDS * PCT_TEST_BATCH - completed[i];
			sc += completed[i];
			ss += started[i];
		}
		if (sc < (s64)nw * PCT_SET_FOLDS * PCT_TEST_BATCH && ss > 0)
			raced++;
		if (v < lo || v > hi || ((v - set) & (PCT_TEST_BATCH - 1))) {
			if (!bad++) {
				bad_v = v;
				bad_lo = lo;
				bad_hi = hi;
			}
		}
	}
	pct_group_stop_wait(g);

	KUNIT_EXPECT_FALSE_MSG(test, stalled, "workers stalled in round %lu",
			       round);
	KUNIT_EXPECT_GE(test, round, 10);
	kunit_info(test, "%u of %lu rounds set while folds ran\n", raced,
		   round - 1);
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "sum %lld outside [%lld, %lld]",
			    bad_v, bad_lo, bad_hi);
	/* No fold racing with a set is lost from, or doubled in, the count */
	on_each_cpu(pct_sync_cpu, fbc, 1);
	KUNIT_EXPECT_EQ_MSG(test, percpu_counter_read(fbc),
			    percpu_counter_sum(fbc),
			    "fbc->count after every CPU synced");
}

/* ---------------------------------------------------------------------- */
/* Comparisons */

static void pct_test_compare(struct kunit *test)
{
	struct percpu_counter *fbc;
	s64 exact, far;
	s32 batch;

	pct_skip_if_bench_only(test);
	pct_pin_runner(test);
	fbc = pct_counter(test, 1000);
	batch = READ_ONCE(percpu_counter_batch);
	/* Pending deltas the global count does not show */
	exact = 1000 + pct_fill(test, fbc, batch - 1, batch);
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(fbc), exact);
	KUNIT_EXPECT_NE(test, percpu_counter_read(fbc), exact);

	KUNIT_EXPECT_EQ(test, percpu_counter_compare(fbc, exact), 0);
	KUNIT_EXPECT_EQ(test, percpu_counter_compare(fbc, exact - 1), 1);
	KUNIT_EXPECT_EQ(test, percpu_counter_compare(fbc, exact + 1), -1);
	KUNIT_EXPECT_EQ(test, __percpu_counter_compare(fbc, exact, batch), 0);
	KUNIT_EXPECT_EQ(test, __percpu_counter_compare(fbc, exact - 1, batch),
			1);
	KUNIT_EXPECT_EQ(test, __percpu_counter_compare(fbc, exact + 1, batch),
			-1);
	/* Far away: the rough count decides */
	far = 10LL * batch * num_online_cpus();
	KUNIT_EXPECT_EQ(test, percpu_counter_compare(fbc, exact + far), -1);
	KUNIT_EXPECT_EQ(test, percpu_counter_compare(fbc, exact - far), 1);
	/* A large batch, as a scaled batch can be */
	KUNIT_EXPECT_EQ(test, __percpu_counter_compare(fbc, exact, INT_MAX / 4),
			0);
	KUNIT_EXPECT_EQ(test,
			__percpu_counter_compare(fbc, exact + 1, INT_MAX / 4),
			-1);

	percpu_counter_set(fbc, -5);
	KUNIT_EXPECT_EQ(test, percpu_counter_sum_positive(fbc), 0);
	KUNIT_EXPECT_EQ(test, percpu_counter_read_positive(fbc), 0);
	KUNIT_EXPECT_EQ(test, percpu_counter_compare(fbc, -5), 0);
}

/* ---------------------------------------------------------------------- */
/* __percpu_counter_limited_add() */

#ifdef HAVE_PERCPU_COUNTER_LIMITED_ADD_EXPORT
static void pct_test_limited_add(struct kunit *test)
{
	struct percpu_counter *fbc;
	s64 exact, limit, lower, big;
	const s32 b = PCT_TEST_BATCH;
	int cpu, i;

	pct_skip_if_bench_only(test);
	cpu = pct_pin_runner(test);
	fbc = pct_counter(test, 0);
	/* Pending deltas, so that only an exact sum can decide */
	pct_fill(test, fbc, b - 1, b);
	exact = percpu_counter_sum(fbc);
	limit = exact + 10;

	KUNIT_EXPECT_TRUE(test, __percpu_counter_limited_add(fbc, limit, 0, b));
	KUNIT_EXPECT_FALSE(test, __percpu_counter_limited_add(fbc, limit, 11, b));
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(fbc), exact);
	KUNIT_EXPECT_TRUE(test, __percpu_counter_limited_add(fbc, limit, 10, b));
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(fbc), limit);
	KUNIT_EXPECT_FALSE(test, __percpu_counter_limited_add(fbc, limit, 1, b));
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(fbc), limit);

	/* Negative amounts: the limit is a floor */
	lower = limit - 7;
	KUNIT_EXPECT_FALSE(test, __percpu_counter_limited_add(fbc, lower, -8, b));
	KUNIT_EXPECT_TRUE(test, __percpu_counter_limited_add(fbc, lower, -7, b));
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(fbc), lower);
	KUNIT_EXPECT_FALSE(test, __percpu_counter_limited_add(fbc, lower, -1, b));
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(fbc), lower);

	/* Far from the limit, with the default batch */
	KUNIT_EXPECT_TRUE(test,
			  percpu_counter_limited_add(fbc, lower + 1000000, 1));
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(fbc), lower + 1);

	/* Amounts beyond the deviation bound, exactly to the limit */
	exact = percpu_counter_sum(fbc);
	big = 1000LL * b * num_online_cpus();
	KUNIT_EXPECT_TRUE(test,
			  __percpu_counter_limited_add(fbc, exact + big, big, b));
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(fbc), exact + big);
	KUNIT_EXPECT_FALSE(test,
			   __percpu_counter_limited_add(fbc, exact + big, 1, b));
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(fbc), exact + big);

	/*
	 * Far from the limit, the add that finds this CPU's delta full takes
	 * the slow path and moves the delta too, as in 6.12; one that left it
	 * full would send every later add of this CPU to fbc->lock.
	 */
	fbc = pct_counter(test, 0);
	for (i = 0; i <= b; i++)
		KUNIT_EXPECT_TRUE(test,
				  __percpu_counter_limited_add(fbc, S64_MAX / 2,
							       1, b));
	KUNIT_EXPECT_EQ_MSG(test, pct_cpu_delta(fbc, cpu), 0,
			    "the slow path left the delta of CPU %d full", cpu);
	KUNIT_EXPECT_EQ(test, percpu_counter_read(fbc), b + 1);
}

/*
 * Limited adds until the limit is reached.  Odd workers also fold a batch
 * towards the limit and back around each of them, which moves fbc->count
 * back and forth under the others' feet (the ABA pattern).  Towards the
 * limit: while the noise is in, the room only looks smaller.
 */
static int pct_limited_fn(struct pct_worker *w)
{
	struct pct_group *g = w->g;
	s64 noise = g->amount > 0 ? PCT_TEST_BATCH : -PCT_TEST_BATCH;
	u64 n = 0;

	if (!(w->idx & 1))
		noise = 0;
	for (;;) {
		bool good;

		if (noise)
			percpu_counter_add_batch(g->fbc, noise, PCT_TEST_BATCH);
		good = __percpu_counter_limited_add(g->fbc, g->limit,
						    g->amount, PCT_TEST_BATCH);
		if (noise)
			percpu_counter_add_batch(g->fbc, -noise,
						 PCT_TEST_BATCH);
		if (!good)
			break;
		w->good++;
		if (!(++n % 64)) {
			cond_resched();
			if (pct_stopped(g))
				break;
		}
	}
	return 0;
}

/*
 * Concurrent limited adds never overshoot, and use all the room: the exact
 * sum never goes beyond the limit, but for the noise in flight, and ends
 * within one amount of it (plus the noise, which may stop a worker early).
 */
static void pct_limited_race(struct kunit *test, struct percpu_counter *fbc,
			     s64 limit, s64 amount)
{
	struct pct_group *g;
	s64 before, after, v, good = 0, over = 0, noise;
	u64 sums = 0;
	unsigned int i;

	before = percpu_counter_sum(fbc);
	g = pct_group_alloc(test, pct_limited_fn, fbc);
	g->limit = limit;
	g->amount = amount;
	pct_group_add_online(g, -1);
	if (!g->nr)
		pct_group_add(g, -1);
	noise = (s64)(g->nr / 2) * PCT_TEST_BATCH;
	pct_group_start(g);
	while (!completion_done(&g->all_done) && !pct_stopped(g)) {
		v = percpu_counter_sum(fbc);
		if (amount > 0)
			over = max(over, v - noise - limit);
		else
			over = max(over, limit - (v + noise));
		sums++;
		cond_resched();
	}
	KUNIT_ASSERT_TRUE(test, pct_group_wait(g));
	for (i = 0; i < g->nr; i++)
		good += g->w[i].good;
	after = percpu_counter_sum(fbc);

	kunit_info(test, "%u CPUs, %lld limited adds, %llu sums meanwhile\n",
		   g->nr, good, sums);
	/* The threads now, not at the end of the case: it makes many groups */
	pct_group_cleanup(g);
	KUNIT_EXPECT_LE_MSG(test, over, 0, "the sum went %lld beyond the limit",
			    over);
	KUNIT_EXPECT_EQ(test, after, before + good * amount);
	if (amount > 0) {
		KUNIT_EXPECT_LE(test, after, limit);
		KUNIT_EXPECT_GT(test, after + amount + noise, limit);
	} else {
		KUNIT_EXPECT_GE(test, after, limit);
		KUNIT_EXPECT_LT(test, after + amount - noise, limit);
	}
}

static void pct_test_limited_add_race(struct kunit *test)
{
	/* Beyond the batch: every limited add has to look at the total */
	const s64 a = 3 * PCT_TEST_BATCH + 1;
	struct percpu_counter *fbc;
	int i;

	pct_skip_if_bench_only(test);
	fbc = pct_counter(test, 0);
	pct_limited_race(test, fbc, 20000 * a + a / 2, a);
	pct_limited_race(test, fbc, a / 3, -a);
	/*
	 * Adds can only overshoot where they race for the last room: reach
	 * the limit a few more times, in both directions.
	 */
	for (i = 0; i < 8; i++) {
		pct_limited_race(test, fbc,
				 percpu_counter_sum(fbc) + 200 * a + a / 2, a);
		pct_limited_race(test, fbc,
				 percpu_counter_sum(fbc) - 200 * a - a / 3, -a);
	}
}
#else
static void pct_test_limited_add(struct kunit *test)
{
	kunit_skip(test, "kernel does not export __percpu_counter_limited_add()");
}

static void pct_test_limited_add_race(struct kunit *test)
{
	kunit_skip(test, "kernel does not export __percpu_counter_limited_add()");
}
#endif

/* ---------------------------------------------------------------------- */
/* init_many / destroy_many, add_local */

static void pct_test_init_many(struct kunit *test)
{
	struct percpu_counter *fbc;
	int i;

	pct_skip_if_bench_only(test);
	fbc = kunit_kcalloc(test, 4, sizeof(*fbc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fbc);
	KUNIT_ASSERT_EQ(test, 0,
			percpu_counter_init_many(fbc, 77, GFP_KERNEL, 4));
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_TRUE(test, percpu_counter_initialized(&fbc[i]));
		percpu_counter_add(&fbc[i], i * 1000);
		percpu_counter_add_local(&fbc[i], i);
		percpu_counter_sub_local(&fbc[i], 2 * i);
	}
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, percpu_counter_sum(&fbc[i]),
				77 + i * 1000 - i);
		KUNIT_EXPECT_EQ(test, percpu_counter_read(&fbc[i]),
				77 + (i ? i * 1000 : 0));
	}
	percpu_counter_destroy_many(fbc, 4);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_FALSE(test, percpu_counter_initialized(&fbc[i]));
}

/* ---------------------------------------------------------------------- */
/* Scaled batch */

#ifdef HAVE_PERCPU_COUNTER_SCALED_BATCH
static void pct_expect_scaled(struct kunit *test, u32 unit)
{
	s64 want = min_t(s64, (s64)READ_ONCE(percpu_counter_batch) * unit,
			 INT_MAX);

	KUNIT_EXPECT_EQ_MSG(test, (s64)percpu_counter_scaled_batch(unit), want,
			    "unit %u", unit);
}

static void pct_expect_batch_formula(struct kunit *test)
{
	int want = max_t(int, 32, num_online_cpus() * 2);

	KUNIT_EXPECT_EQ(test, READ_ONCE(percpu_counter_batch), want);
	pct_expect_scaled(test, 1);
	pct_expect_scaled(test, TICK_NSEC);
	pct_expect_scaled(test, INT_MAX / READ_ONCE(percpu_counter_batch) + 1);
}
#endif

static void pct_test_scaled_batch(struct kunit *test)
{
#ifdef HAVE_PERCPU_COUNTER_SCALED_BATCH
	struct percpu_counter *fbc;
	s32 b, sb;
	u32 unit, n, i;

	pct_skip_if_bench_only(test);
	pct_pin_runner(test);
	b = READ_ONCE(percpu_counter_batch);

	KUNIT_EXPECT_EQ(test, percpu_counter_scaled_batch(1), b);
	/* Never below the default: a smaller batch would fold more often */
	KUNIT_EXPECT_EQ(test, percpu_counter_scaled_batch(0), b);
	KUNIT_EXPECT_EQ(test, percpu_counter_scaled_batch(U32_MAX), INT_MAX);
	unit = INT_MAX / b;
	KUNIT_EXPECT_EQ(test, (s64)percpu_counter_scaled_batch(unit),
			(s64)b * unit);
	KUNIT_EXPECT_EQ(test, percpu_counter_scaled_batch(unit + 1), INT_MAX);
	pct_expect_scaled(test, TICK_NSEC);

	/* Adds of about one unit stay per CPU until the scaled batch */
	fbc = pct_counter(test, 0);
	unit = TICK_NSEC;
	sb = percpu_counter_scaled_batch(unit);
	n = (sb - 1) / unit;
	for (i = 0; i < n; i++)
		percpu_counter_add_scaled(fbc, unit, unit);
	KUNIT_EXPECT_EQ(test, percpu_counter_read(fbc), 0);
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(fbc), (s64)n * unit);
	percpu_counter_add_scaled(fbc, unit, unit);
	KUNIT_EXPECT_EQ(test, percpu_counter_read(fbc), (s64)(n + 1) * unit);

	/* Capped at INT_MAX: the s32 delta cannot overflow */
	percpu_counter_set(fbc, 0);
	percpu_counter_add_scaled(fbc, 2000000000, U32_MAX);
	KUNIT_EXPECT_EQ(test, percpu_counter_read(fbc), 0);
	percpu_counter_add_scaled(fbc, 2000000000, U32_MAX);
	KUNIT_EXPECT_EQ(test, percpu_counter_read(fbc), 4000000000LL);
	percpu_counter_add_scaled(fbc, -2000000000, U32_MAX);
	percpu_counter_add_scaled(fbc, -2000000000, U32_MAX);
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(fbc), 0);
#else
	kunit_skip(test, "kernel has no percpu_counter_scaled_batch()");
#endif
}

static void pct_test_scaled_batch_hotplug(struct kunit *test)
{
#ifdef HAVE_PERCPU_COUNTER_SCALED_BATCH
	int saved, ret;

	pct_skip_if_bench_only(test);
	/* Computed at each call: it follows percpu_counter_batch */
	saved = READ_ONCE(percpu_counter_batch);
	WRITE_ONCE(percpu_counter_batch, saved + 1000);
	pct_expect_scaled(test, 1000);
	KUNIT_EXPECT_EQ(test, percpu_counter_scaled_batch(1000),
			(saved + 1000) * 1000);
	WRITE_ONCE(percpu_counter_batch, saved);
	pct_expect_scaled(test, 1000);

	/* And percpu_counter_batch follows CPU hotplug */
	pct_expect_batch_formula(test);
	/* With ext_hotplug, the stress job takes CPUs offline and online */
	if (ext_hotplug)
		return;
	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || num_online_cpus() < 2 ||
	    !cpu_online(1))
		kunit_skip(test, "needs CPU 1 online and CONFIG_HOTPLUG_CPU");
	pct_pin_runner(test);
	ret = remove_cpu(1);
	if (ret)
		kunit_skip(test, "remove_cpu(1) failed: %d", ret);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, pct_online_cpu1, NULL));
	pct_expect_batch_formula(test);
	kunit_info(test, "%u CPUs online: batch %d\n", num_online_cpus(),
		   READ_ONCE(percpu_counter_batch));
	KUNIT_EXPECT_EQ(test, add_cpu(1), 0);
	pct_expect_batch_formula(test);
	kunit_info(test, "%u CPUs online: batch %d\n", num_online_cpus(),
		   READ_ONCE(percpu_counter_batch));
#else
	kunit_skip(test, "kernel has no percpu_counter_scaled_batch()");
#endif
}

/* ---------------------------------------------------------------------- */
/* NMIs in the middle of folds */

#if defined(CONFIG_X86_64) && defined(PERCPU_COUNTER_LOCKLESS)
/*
 * Real NMIs, sent by one CPU to another that folds on every add: each NMI
 * sums and adds 1, folding or into the delta in turn.  Under QEMU's TCG an
 * interrupt is taken between translation blocks, so an NMI lands in a fold
 * only where it branches: the test reports how many landed in
 * lib/percpu_counter.c.  Then every CPU syncs: fbc->count must hold every
 * add once.
 */
static struct {
	struct percpu_counter *fbc;
	int cpu;
	bool active;
	atomic_t nmis;
	atomic_t in_fold;
} pct_real_nmi;

static int pct_real_nmi_handler(unsigned int cmd, struct pt_regs *regs)
{
	struct percpu_counter *fbc = pct_real_nmi.fbc;
	char sym[KSYM_SYMBOL_LEN];
	s32 batch;

	if (!READ_ONCE(pct_real_nmi.active) ||
	    smp_processor_id() != pct_real_nmi.cpu)
		return NMI_DONE;
	sprint_symbol_no_offset(sym, instruction_pointer(regs));
	if (str_has_prefix(sym, "percpu_counter_"))
		atomic_inc(&pct_real_nmi.in_fold);
	/* Must return, whatever it interrupted */
	(void)percpu_counter_sum(fbc);
	/* Every other add stays in the delta that the task's fold moves */
	batch = atomic_read(&pct_real_nmi.nmis) & 1 ? INT_MAX : 1;
	percpu_counter_add_batch(fbc, 1, batch);
	atomic_inc(&pct_real_nmi.nmis);
	return NMI_HANDLED;
}

static int pct_real_nmi_fn(struct pct_worker *w)
{
	struct pct_group *g = w->g;
	unsigned int n = 0;
	int seen;

	if (w->idx == 0) {	/* folds on every add, on pct_real_nmi.cpu */
		while (!pct_stopped(g)) {
			percpu_counter_add_batch(g->fbc, 1, 1);
			w->total++;
			if (!(++n % PCT_CHUNK))
				cond_resched();
		}
		return 0;
	}
	while (!pct_stopped(g)) {	/* one NMI at a time */
		seen = atomic_read(&pct_real_nmi.nmis);
		apic->send_IPI(pct_real_nmi.cpu, NMI_VECTOR);
		w->ops++;
		while (atomic_read(&pct_real_nmi.nmis) == seen &&
		       !pct_stopped(g))
			pct_wait_step(&n);
	}
	return 0;
}

static void pct_test_real_nmi(struct kunit *test)
{
	struct pct_group *g;
	int ret, other;

	pct_skip_if_bench_only(test);
	if (ext_hotplug)
		kunit_skip(test, "not under CPU hotplug: NMIs go to one CPU");
	pct_real_nmi.cpu = pct_pin_runner(test);
	other = cpumask_next(pct_real_nmi.cpu, cpu_online_mask);
	if (other >= nr_cpu_ids)
		kunit_skip(test, "needs two CPUs");
	pct_real_nmi.fbc = pct_counter(test, 0);
	atomic_set(&pct_real_nmi.nmis, 0);
	atomic_set(&pct_real_nmi.in_fold, 0);
	ret = register_nmi_handler(NMI_LOCAL, pct_real_nmi_handler, 0, "pct");
	KUNIT_ASSERT_EQ(test, ret, 0);
	g = pct_group_alloc(test, pct_real_nmi_fn, pct_real_nmi.fbc);
	pct_group_add(g, pct_real_nmi.cpu);
	pct_group_add(g, other);
	WRITE_ONCE(pct_real_nmi.active, true);
	pct_group_start(g);
	msleep(stress_ms);
	pct_group_stop_wait(g);
	/* The last NMI sent may still be on its way: claim it */
	msleep(20);
	WRITE_ONCE(pct_real_nmi.active, false);
	unregister_nmi_handler(NMI_LOCAL, "pct");

	kunit_info(test, "%u NMIs sent, %d taken, %d inside a fold, %lld adds\n",
		   (unsigned int)g->w[1].ops, atomic_read(&pct_real_nmi.nmis),
		   atomic_read(&pct_real_nmi.in_fold), g->w[0].total);
	KUNIT_EXPECT_GT(test, atomic_read(&pct_real_nmi.nmis), 0);
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(pct_real_nmi.fbc),
			g->w[0].total + atomic_read(&pct_real_nmi.nmis));
	on_each_cpu(pct_sync_cpu, pct_real_nmi.fbc, 1);
	KUNIT_EXPECT_EQ_MSG(test, percpu_counter_read(pct_real_nmi.fbc),
			    percpu_counter_sum(pct_real_nmi.fbc),
			    "fbc->count after every CPU synced");
}
#else
static void pct_test_real_nmi(struct kunit *test)
{
	kunit_skip(test, "NMIs are sent on x86-64 only");
}
#endif

/*
 * A counter fed with percpu_counter_add_scaled() holds deltas up to the
 * scaled batch: compare and limited add with the default batch must still
 * decide on the exact sum near the limit.
 */
static void pct_test_scaled_margin(struct kunit *test)
{
#ifdef HAVE_PERCPU_COUNTER_SCALED_BATCH
	struct percpu_counter *fbc;
	u32 unit = 1000, n = 0;
	s64 exact;
	int cpu;

	pct_skip_if_bench_only(test);
	fbc = pct_counter(test, 0);
	/* One scaled add per CPU, each below the scaled batch */
	for_each_online_cpu(cpu) {
		if (set_cpus_allowed_ptr(current, cpumask_of(cpu)))
			continue;	/* gone offline (ext_hotplug) */
		percpu_counter_add_scaled(fbc, 10 * unit, unit);
		n++;
	}
	exact = percpu_counter_sum(fbc);
	KUNIT_EXPECT_EQ(test, exact, 10LL * unit * n);
	if (n < 2)
		kunit_skip(test, "%s", ext_hotplug ?
			   "not under CPU hotplug: a CPU was offline" :
			   "needs two CPUs");
	KUNIT_EXPECT_EQ(test, percpu_counter_compare(fbc, exact), 0);
	KUNIT_EXPECT_EQ(test, percpu_counter_compare(fbc, exact - 1), 1);
#ifdef HAVE_PERCPU_COUNTER_LIMITED_ADD_EXPORT
	KUNIT_EXPECT_FALSE(test, percpu_counter_limited_add(fbc, exact, 1));
	KUNIT_EXPECT_TRUE(test, percpu_counter_limited_add(fbc, exact + 1, 1));
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(fbc), exact + 1);
#endif
#else
	kunit_skip(test, "kernel has no percpu_counter_scaled_batch()");
#endif
}

static struct kunit_case pct_cases[] = {
	KUNIT_CASE(pct_test_init_many),
	KUNIT_CASE(pct_test_compare),
	KUNIT_CASE(pct_test_limited_add),
	KUNIT_CASE(pct_test_scaled_batch),
	KUNIT_CASE(pct_test_scaled_margin),
	KUNIT_CASE_SLOW(pct_test_real_nmi),
	KUNIT_CASE_SLOW(pct_test_exact),
	KUNIT_CASE_SLOW(pct_test_sum_window),
	KUNIT_CASE_SLOW(pct_test_set_race),
	KUNIT_CASE_SLOW(pct_test_limited_add_race),
	KUNIT_CASE_SLOW(pct_test_hotplug),
	KUNIT_CASE_SLOW(pct_test_scaled_batch_hotplug),
	{}
};

static struct kunit_suite pct_suite = {
	.name = "percpu_counter",
	.test_cases = pct_cases,
};

/* ---------------------------------------------------------------------- */
/* Benchmarks */

enum pct_bench_kind {
	PCT_BENCH_ADD,		/* percpu_counter_add(g->amount) */
	PCT_BENCH_ADD_BATCH,	/* percpu_counter_add_batch(g->amount, g->batch) */
	PCT_BENCH_SUM,		/* percpu_counter_sum() */
	PCT_BENCH_PCPU_U64,	/* this_cpu_add() on a u64: the floor */
	PCT_BENCH_ADD_SCALED,	/* percpu_counter_add_scaled(g->amount, g->amount) */
	PCT_BENCH_READ,		/* percpu_counter_read() */
};

/*
 * One chunk of each benchmark, each in a function of its own: a loop then
 * compiles to the same code whatever else the module holds, so that the
 * plain per-CPU u64 row runs identical code on every kernel.  (Inlined
 * into one function, the loops were register-allocated differently on the
 * two kernels, which alone made that row read 0.81x under icount.)
 */
static noinline void pct_chunk_add(struct percpu_counter *fbc, s64 amount)
{
	unsigned int i;

	for (i = 0; i < PCT_CHUNK; i++)
		percpu_counter_add(fbc, amount);
}

static noinline void pct_chunk_add_batch(struct percpu_counter *fbc,
					 s64 amount, s32 batch)
{
	unsigned int i;

	for (i = 0; i < PCT_CHUNK; i++)
		percpu_counter_add_batch(fbc, amount, batch);
}

static noinline void pct_chunk_sum(struct percpu_counter *fbc, s64 *total)
{
	unsigned int i;

	for (i = 0; i < PCT_CHUNK; i++)
		WRITE_ONCE(*total, percpu_counter_sum(fbc));
}

static noinline void pct_chunk_read(struct percpu_counter *fbc, s64 *total)
{
	unsigned int i;

	/* The barrier: one load of the count per read, on every kernel */
	for (i = 0; i < PCT_CHUNK; i++) {
		WRITE_ONCE(*total, percpu_counter_read(fbc));
		barrier();
	}
}

static noinline void pct_chunk_pcpu_u64(u64 __percpu *pcpu, s64 amount)
{
	unsigned int i;

	for (i = 0; i < PCT_CHUNK; i++)
		this_cpu_add(*pcpu, amount);
}

static noinline void pct_chunk_add_scaled(struct percpu_counter *fbc,
					  s64 amount)
{
#ifdef HAVE_PERCPU_COUNTER_SCALED_BATCH
	unsigned int i;

	for (i = 0; i < PCT_CHUNK; i++)
		percpu_counter_add_scaled(fbc, amount, amount);
#endif
}

static int pct_bench_fn(struct pct_worker *w)
{
	struct pct_group *g = w->g;
	struct percpu_counter *fbc = g->fbc;
	u64 start, now, deadline, ran, ops = 0;
	unsigned long csw;
	int kind = g->kind;

	/* The first worker sums or reads while the others add, in those benches */
	if ((kind == PCT_BENCH_SUM || kind == PCT_BENCH_READ) && w->idx)
		kind = PCT_BENCH_ADD;

	ran = current->se.sum_exec_runtime;
	csw = current->nvcsw + current->nivcsw;
	start = ktime_get_ns();
	deadline = start + g->bench_ns;
	do {
		switch (kind) {
		case PCT_BENCH_ADD:
			pct_chunk_add(fbc, g->amount);
			break;
		case PCT_BENCH_ADD_BATCH:
			pct_chunk_add_batch(fbc, g->amount, g->batch);
			break;
		case PCT_BENCH_SUM:
			pct_chunk_sum(fbc, &w->total);
			break;
		case PCT_BENCH_PCPU_U64:
			pct_chunk_pcpu_u64(g->pcpu, g->amount);
			break;
		case PCT_BENCH_ADD_SCALED:
			pct_chunk_add_scaled(fbc, g->amount);
			break;
		case PCT_BENCH_READ:
			pct_chunk_read(fbc, &w->total);
			break;
		}
		ops += PCT_CHUNK;
		cond_resched();
		now = ktime_get_ns();
	} while (now < deadline && !READ_ONCE(g->stop) &&
		 !kthread_should_stop());
	w->ops = ops;
	w->ns = now - start;
	/* What else ran on this CPU meanwhile: reported, see pct_bench_run() */
	schedule_timeout_uninterruptible(1);
	w->ran_ns = current->se.sum_exec_runtime - ran;
	w->csw = current->nvcsw + current->nivcsw - csw - 1;
	return 0;
}

static void pct_free_percpu(void *data)
{
	free_percpu((void __percpu __force *)data);
}

/*
 * Run @kind on @nr_cpus online CPUs (all if 0) for bench_ms; return the
 * average rate per CPU in operations per second, over workers [from, nr).
 */
static u64 pct_bench_run(struct kunit *test, int kind, s64 amount, s32 batch,
			 unsigned int nr_cpus, unsigned int from,
			 struct pct_group **gp)
{
	struct percpu_counter *fbc = pct_counter(test, 0);
	struct pct_group *g;
	u64 rate = 0;
	unsigned int i;
	int cpu;

	g = pct_group_alloc(test, pct_bench_fn, fbc);
	g->kind = kind;
	g->amount = amount;
	g->batch = batch;
	g->bench_ns = (u64)bench_ms * NSEC_PER_MSEC;
	if (kind == PCT_BENCH_PCPU_U64) {
		g->pcpu = alloc_percpu(u64);
		KUNIT_ASSERT_TRUE(test, !!g->pcpu);
		KUNIT_ASSERT_EQ(test, 0,
				kunit_add_action_or_reset(test, pct_free_percpu,
							  (void __force *)g->pcpu));
	}
	for_each_online_cpu(cpu) {
		if (nr_cpus && g->nr == nr_cpus)
			break;
		pct_group_add(g, cpu);
	}
	pct_group_start(g);
	if (!pct_group_wait(g)) {
		pct_group_cleanup(g);
		/* Aborts the case: its caller must not read @g's figures */
		KUNIT_ASSERT_TRUE_MSG(test, false, "benchmark workers timed out");
	}
	for (i = from; i < g->nr; i++) {
		struct pct_worker *w = &g->w[i];

		rate += mul_u64_u64_div_u64(w->ops, NSEC_PER_SEC,
					    max_t(u64, w->ns, 1));
		kunit_info(test, "kind %d, CPU %d: %llu ns, %llu ns on the CPU, %lu context switches\n",
			   kind, w->cpu, w->ns, min(w->ran_ns, w->ns), w->csw);
	}
	if (g->nr > from)
		rate = div_u64(rate, g->nr - from);
	pct_group_cleanup(g);
	if (gp)
		*gp = g;
	return rate;
}

static void pct_skip_if_no_bench(struct kunit *test)
{
	if (!bench_ms)
		kunit_skip(test, "bench_ms=0");
}

/* Every add reaches the batch: fold-heavy, from all CPUs */
static void pct_bench_fold(struct kunit *test)
{
	s32 batch = READ_ONCE(percpu_counter_batch);

	pct_skip_if_no_bench(test);
	pct_log_bench(test, "fold_adds_per_cpu",
		      pct_bench_run(test, PCT_BENCH_ADD, batch, 0, 0, 0, NULL),
		      "adds/s");
}

/* Adds of 1 from all CPUs: the fast path */
static void pct_bench_add1(struct kunit *test)
{
	pct_skip_if_no_bench(test);
	pct_log_bench(test, "add1_adds_per_cpu",
		      pct_bench_run(test, PCT_BENCH_ADD, 1, 0, 0, 0, NULL),
		      "adds/s");
}

/* Cost of one add on one CPU, nobody else touching the counter */
static void pct_bench_uncontended(struct kunit *test)
{
	s32 batch = READ_ONCE(percpu_counter_batch);
	u64 rate;

	pct_skip_if_no_bench(test);
	rate = pct_bench_run(test, PCT_BENCH_ADD, 1, 0, 1, 0, NULL);
	pct_log_bench(test, "add1_uncontended_ns",
		      rate ? div64_u64(NSEC_PER_SEC, rate) : 0, "ns");
	rate = pct_bench_run(test, PCT_BENCH_ADD, batch, 0, 1, 0, NULL);
	pct_log_bench(test, "fold_uncontended_ns",
		      rate ? div64_u64(NSEC_PER_SEC, rate) : 0, "ns");
}

/*
 * @kind by the first worker, alone on one CPU (@names[0]), then while the
 * other CPUs fold (@names[1]): logged in ns per call, or with @per_s in
 * calls per second.
 */
static void pct_bench_first(struct kunit *test, int kind,
			    const char *const names[2], bool per_s)
{
	s32 batch = READ_ONCE(percpu_counter_batch);
	struct pct_group *g;
	struct pct_worker *w;
	int busy;

	pct_skip_if_no_bench(test);
	for (busy = 0; busy < 2 && (!busy || num_online_cpus() >= 2); busy++) {
		pct_bench_run(test, kind, batch, 0, busy ? 0 : 1, 0, &g);
		/*
		 * A CPU went offline before the group was made: no busy run.
		 * (The group is cleaned up, g->nr is 0; its workers' tasks stay.)
		 */
		if (busy && !g->w[1].task) {
			kunit_info(test, "%s: one CPU online\n", names[busy]);
			break;
		}
		w = &g->w[0];
		if (per_s)
			pct_log_bench(test, names[busy],
				      mul_u64_u64_div_u64(w->ops, NSEC_PER_SEC,
							  max_t(u64, w->ns, 1)),
				      "calls/s");
		else
			pct_log_bench(test, names[busy],
				      div64_u64(w->ns, max_t(u64, w->ops, 1)),
				      "ns");
	}
}

/* Latency of percpu_counter_sum(), alone and while the other CPUs fold */
static void pct_bench_sum(struct kunit *test)
{
	static const char *const names[] = { "sum_idle_ns", "sum_busy_ns" };

	pct_bench_first(test, PCT_BENCH_SUM, names, false);
}

/*
 * percpu_counter_read() in a loop, alone and while the other CPUs fold:
 * one load of the count, an atomic64_read() where folds are lockless (on
 * 32-bit that would be a locked cmpxchg8b, which is why the series keeps
 * the plain s64 there).
 */
static void pct_bench_read(struct kunit *test)
{
	static const char *const names[] = { "read_idle_per_s",
					     "read_busy_per_s" };

	pct_bench_first(test, PCT_BENCH_READ, names, true);
}

/*
 * The case of Anton Blanchard's "sched: cpuacct: Use bigger percpu counter
 * batch values for stats counters" (2010), in nanoseconds: a counter of
 * CPU time added a tick at a time from all CPUs, with the default batch,
 * with the batch scaled to the tick, and into a plain per-CPU u64.
 */
static void pct_bench_tick(struct kunit *test)
{
	pct_skip_if_no_bench(test);
	pct_log_bench(test, "tick_default_adds_per_cpu",
		      pct_bench_run(test, PCT_BENCH_ADD, TICK_NSEC, 0, 0, 0,
				    NULL),
		      "adds/s");
#ifdef HAVE_PERCPU_COUNTER_SCALED_BATCH
	pct_log_bench(test, "tick_scaled_adds_per_cpu",
		      pct_bench_run(test, PCT_BENCH_ADD_SCALED, TICK_NSEC, 0,
				    0, 0, NULL),
		      "adds/s");
#else
	kunit_info(test, "no percpu_counter_scaled_batch(): tick_scaled_adds_per_cpu not measured\n");
#endif
	pct_log_bench(test, "tick_pcpu_u64_adds_per_cpu",
		      pct_bench_run(test, PCT_BENCH_PCPU_U64, TICK_NSEC, 0, 0,
				    0, NULL),
		      "adds/s");
}

static struct kunit_case pct_bench_cases[] = {
	KUNIT_CASE_SLOW(pct_bench_fold),
	KUNIT_CASE_SLOW(pct_bench_add1),
	KUNIT_CASE_SLOW(pct_bench_uncontended),
	KUNIT_CASE_SLOW(pct_bench_sum),
	KUNIT_CASE_SLOW(pct_bench_read),
	KUNIT_CASE_SLOW(pct_bench_tick),
	{}
};

static struct kunit_suite pct_bench_suite = {
	.name = "percpu_counter_bench",
	.test_cases = pct_bench_cases,
};

kunit_test_suites(&pct_suite, &pct_bench_suite);

#ifdef HAVE_PERCPU_COUNTER_LIMITED_ADD_EXPORT
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
#endif
MODULE_DESCRIPTION("KUnit tests and benchmarks for percpu_counter");
MODULE_LICENSE("GPL");
