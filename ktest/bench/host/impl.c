// SPDX-License-Identifier: GPL-2.0
/*
 * The harness's view of one build of lib/percpu_counter.c: built twice,
 * against the base tree's include/linux/percpu_counter.h and against the
 * series', and linked with that build's percpu_counter.o into one object
 * whose only global symbol is pcc_impl_<PCC_IMPL> (see the Makefile).
 * The header's inline functions (percpu_counter_add(), _read(), ...) are
 * thus those of the tree measured.
 */
#include <linux/percpu_counter.h>
#include <pcc.h>

#define __PCC_NAME(a, b)	a##b
#define PCC_NAME(a, b)		__PCC_NAME(a, b)
#define PCC_STR(x)		#x
#define PCC_XSTR(x)		PCC_STR(x)

extern int (*const pcc_initcall)(void);

#define FBC(c)	((struct percpu_counter *)(c))

static int pcc_startup(void)
{
	return pcc_initcall();
}

static int pcc_init(struct pcc_counter *c, long long amount)
{
	return percpu_counter_init(FBC(c), amount, GFP_KERNEL);
}

static void pcc_destroy(struct pcc_counter *c)
{
	percpu_counter_destroy(FBC(c));
}

static void pcc_add_batch(struct pcc_counter *c, long long amount, int batch)
{
	percpu_counter_add_batch(FBC(c), amount, batch);
}

static void pcc_add(struct pcc_counter *c, long long amount)
{
	percpu_counter_add(FBC(c), amount);
}

static void pcc_add_local(struct pcc_counter *c, long long amount)
{
	percpu_counter_add_local(FBC(c), amount);
}

static long long pcc_sum(struct pcc_counter *c)
{
	return percpu_counter_sum(FBC(c));
}

static long long pcc_read(struct pcc_counter *c)
{
	return percpu_counter_read(FBC(c));
}

static void pcc_set(struct pcc_counter *c, long long amount)
{
	percpu_counter_set(FBC(c), amount);
}

static void pcc_sync(struct pcc_counter *c)
{
	percpu_counter_sync(FBC(c));
}

static int pcc_compare(struct pcc_counter *c, long long rhs)
{
	return percpu_counter_compare(FBC(c), rhs);
}

static int pcc_limited_add(struct pcc_counter *c, long long limit,
			   long long amount, int batch)
{
	return __percpu_counter_limited_add(FBC(c), limit, amount, batch);
}

static int pcc_batch(void)
{
	return READ_ONCE(percpu_counter_batch);
}

/*
 * The benchmark loops, each a function of its own as in the test module
 * (pct_chunk_*): the same code whatever else is built with it.
 */
static noinline void pcc_chunk_add(struct pcc_counter *c, long long amount)
{
	unsigned int i;

	for (i = 0; i < PCC_CHUNK; i++)
		percpu_counter_add(FBC(c), amount);
}

static noinline void pcc_chunk_sum(struct pcc_counter *c, long long *total)
{
	unsigned int i;

	for (i = 0; i < PCC_CHUNK; i++)
		WRITE_ONCE(*total, percpu_counter_sum(FBC(c)));
}

/*
 * Near the limit: +1 towards @limit, then -1 towards -@limit, with the
 * default batch, as percpu_counter_limited_add() does.  The caller makes
 * @limit less than batch * num_online_cpus(): every call takes fbc->lock
 * and an exact sum.
 */
static noinline void pcc_chunk_limited(struct pcc_counter *c, long long limit,
				       unsigned long long *good)
{
	unsigned int i;

	for (i = 0; i < PCC_CHUNK / 2; i++) {
		*good += percpu_counter_limited_add(FBC(c), limit, 1);
		*good += percpu_counter_limited_add(FBC(c), -limit, -1);
	}
}

/* this_cpu_add() on a u64: no percpu_counter, the same in both builds */
static noinline void pcc_chunk_pcpu_u64(unsigned long long *pcpu,
					long long amount)
{
	unsigned int i;

	for (i = 0; i < PCC_CHUNK; i++)
		this_cpu_add(*pcpu, amount);
}

/*
 * percpu_counter_add_scaled() is the series': with the header that has
 * percpu_counter_scaled_batch(), PERCPU_COUNTER_HAS_SCALED is defined
 * by the Makefile (as the test module's HAVE_PERCPU_COUNTER_SCALED_BATCH).
 */
#ifdef PERCPU_COUNTER_HAS_SCALED
static void pcc_add_scaled(struct pcc_counter *c, long long amount,
			   unsigned int unit)
{
	percpu_counter_add_scaled(FBC(c), amount, unit);
}

static int pcc_scaled_batch(unsigned int unit)
{
	return percpu_counter_scaled_batch(unit);
}

static noinline void pcc_chunk_add_scaled(struct pcc_counter *c,
					  long long amount)
{
	unsigned int i;

	for (i = 0; i < PCC_CHUNK; i++)
		percpu_counter_add_scaled(FBC(c), amount, amount);
}
#else
#define pcc_add_scaled		NULL
#define pcc_scaled_batch	NULL
#define pcc_chunk_add_scaled	NULL
#endif

const struct pcc_impl PCC_NAME(pcc_impl_, PCC_IMPL) = {
	.name = PCC_XSTR(PCC_IMPL),
	.size = sizeof(struct percpu_counter),
#ifdef PERCPU_COUNTER_HAS_SCALED
	.has_scaled = 1,
#endif
	.startup = pcc_startup,
	.init = pcc_init,
	.destroy = pcc_destroy,
	.add_batch = pcc_add_batch,
	.add = pcc_add,
	.add_local = pcc_add_local,
	.add_scaled = pcc_add_scaled,
	.sum = pcc_sum,
	.read = pcc_read,
	.set = pcc_set,
	.sync = pcc_sync,
	.compare = pcc_compare,
	.limited_add = pcc_limited_add,
	.batch = pcc_batch,
	.scaled_batch = pcc_scaled_batch,
	.chunk_add = pcc_chunk_add,
	.chunk_add_scaled = pcc_chunk_add_scaled,
	.chunk_sum = pcc_chunk_sum,
	.chunk_limited = pcc_chunk_limited,
	.chunk_pcpu_u64 = pcc_chunk_pcpu_u64,
};
