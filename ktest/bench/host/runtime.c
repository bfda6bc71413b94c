// SPDX-License-Identifier: GPL-2.0
/*
 * What the kernel-header shim (include/linux/) calls out of line: the
 * per-CPU area, the CPU masks and hotplug, the queued spinlock's slow
 * path, warnings.  Built against libc, not against the shim.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "include/pcc.h"

__thread int pcc_this_cpu;
__thread unsigned long pcc_this_off;
__thread int pcc_thread_id = -1;
static __thread unsigned int pcc_spins;

unsigned long pcc_cpu_possible_bits[PCC_MASK_LONGS];
unsigned long pcc_cpu_online_bits[PCC_MASK_LONGS];
unsigned long pcc_cpu_dying_bits[PCC_MASK_LONGS];
unsigned int pcc_nr_cpu_ids;
int pcc_num_online;
unsigned long pcc_warnings;

static pthread_mutex_t pcc_lock = PTHREAD_MUTEX_INITIALIZER;

void pcc_warn(const char *file, int line, const char *cond)
{
	__atomic_fetch_add(&pcc_warnings, 1, __ATOMIC_RELAXED);
	fprintf(stderr, "# WARNING: %s:%d: %s\n", file, line, cond);
}

/*
 * cpu_relax(): the CPU's spin-wait hint.  In the kernel whoever is waited
 * for (a fold holding its marker, a lock holder, the next in a lock's
 * queue) runs with interrupts disabled and is soon done; here, with more
 * threads than cores (the correctness pass), it may have been preempted,
 * and only the scheduler brings it back: there, yield every
 * pcc_relax_yield + 1 spins.  The benchmarks never yield (0).
 */
unsigned int pcc_relax_yield;
int pcc_lock_tas;

void pcc_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" : : : "memory");
#endif
	if (pcc_relax_yield && !(++pcc_spins & pcc_relax_yield))
		sched_yield();
}

/* ---------------------------------------------------------------------- */
/*
 * The per-CPU area: PCC_NR_CPUS units of PCC_PCPU_UNIT bytes, reserved
 * before main(), touched as used.  As the kernel's first chunk, each unit
 * starts with a copy of the static per-CPU data (section pcc_percpu), and
 * a per-CPU pointer is an address in that section's image: CPU n's copy is
 * pcc_pcpu_delta + n units past it.  Allocations are offsets into every
 * unit, after the static data; a freed one goes back on a list of its
 * size, to be reused zeroed.
 */
static char *pcc_pcpu_base;
unsigned long pcc_pcpu_delta;
static unsigned long pcc_pcpu_next;
extern char __start_pcc_percpu[], __stop_pcc_percpu[];
/* So that the section exists in a build without DEFINE_PER_CPU() */
static int pcc_pcpu_static_dummy __attribute__((__section__("pcc_percpu"), __used__));
struct pcc_pcpu_free {
	unsigned long off, size;
};
static struct pcc_pcpu_free pcc_pcpu_freed[4096];
static unsigned int pcc_pcpu_nr_freed;
/* Allocated offsets and sizes, to free by pointer */
static struct pcc_pcpu_free pcc_pcpu_used[4096];
static unsigned int pcc_pcpu_nr_used;

static __attribute__((__constructor__)) void pcc_pcpu_setup(void)
{
	unsigned long size = __stop_pcc_percpu - __start_pcc_percpu;
	void *p = mmap(NULL, PCC_NR_CPUS * PCC_PCPU_UNIT,
		       PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	int cpu;

	if (p == MAP_FAILED) {
		perror("mmap per-CPU area");
		exit(2);
	}
	if (size > PCC_PCPU_UNIT) {
		fprintf(stderr, "static per-CPU data beyond a unit\n");
		exit(2);
	}
	pcc_pcpu_base = p;
	pcc_pcpu_delta = (unsigned long)pcc_pcpu_base - (unsigned long)__start_pcc_percpu;
	for (cpu = 0; cpu < PCC_NR_CPUS; cpu++)
		memcpy(pcc_pcpu_base + cpu * PCC_PCPU_UNIT, __start_pcc_percpu, size);
	pcc_pcpu_next = size;
	pcc_set_cpu(0);
}

void *pcc_alloc_percpu(size_t size, size_t align)
{
	unsigned long off = ~0UL;
	unsigned int i;
	int cpu;

	pthread_mutex_lock(&pcc_lock);
	for (i = 0; i < pcc_pcpu_nr_freed; i++) {
		if (pcc_pcpu_freed[i].size == size &&
		    !(pcc_pcpu_freed[i].off % align)) {
			off = pcc_pcpu_freed[i].off;
			pcc_pcpu_freed[i] = pcc_pcpu_freed[--pcc_pcpu_nr_freed];
			break;
		}
	}
	if (off == ~0UL) {
		off = (pcc_pcpu_next + align - 1) / align * align;
		if (off + size > PCC_PCPU_UNIT ||
		    pcc_pcpu_nr_used == sizeof(pcc_pcpu_used) / sizeof(pcc_pcpu_used[0])) {
			pthread_mutex_unlock(&pcc_lock);
			return NULL;
		}
		pcc_pcpu_next = off + size;
	}
	pcc_pcpu_used[pcc_pcpu_nr_used++] = (struct pcc_pcpu_free){ off, size };
	for (cpu = 0; cpu < PCC_NR_CPUS; cpu++)
		memset(pcc_pcpu_base + cpu * PCC_PCPU_UNIT + off, 0, size);
	pthread_mutex_unlock(&pcc_lock);
	return (void *)((unsigned long)__start_pcc_percpu + off);
}

void pcc_free_percpu(void *ptr)
{
	unsigned long off = (unsigned long)ptr - (unsigned long)__start_pcc_percpu;
	unsigned int i;

	if (!ptr)
		return;
	pthread_mutex_lock(&pcc_lock);
	for (i = 0; i < pcc_pcpu_nr_used; i++) {
		if (pcc_pcpu_used[i].off == off) {
			if (pcc_pcpu_nr_freed < sizeof(pcc_pcpu_freed) / sizeof(pcc_pcpu_freed[0]))
				pcc_pcpu_freed[pcc_pcpu_nr_freed++] = pcc_pcpu_used[i];
			pcc_pcpu_used[i] = pcc_pcpu_used[--pcc_pcpu_nr_used];
			pthread_mutex_unlock(&pcc_lock);
			return;
		}
	}
	pthread_mutex_unlock(&pcc_lock);
	pcc_warn(__FILE__, __LINE__, "free_percpu() of an unknown pointer");
}

/* ---------------------------------------------------------------------- */
/* CPU hotplug: the states registered, in the order they were */

#define PCC_CPUHP_MAX	16
/* What the enum of include/linux/cpu.h names */
#define PCC_CPUHP_DEAD_STATE	1
#define PCC_CPUHP_DYN		2

struct pcc_cpuhp {
	int state;
	int (*startup)(unsigned int cpu);
	int (*teardown)(unsigned int cpu);
};
static struct pcc_cpuhp pcc_cpuhp[PCC_CPUHP_MAX];
static int pcc_nr_cpuhp;

static void pcc_mask_set(unsigned long *mask, unsigned int cpu, int on)
{
	unsigned long bit = 1UL << (cpu % PCC_BITS_PER_LONG);

	if (on)
		__atomic_fetch_or(&mask[cpu / PCC_BITS_PER_LONG], bit, __ATOMIC_SEQ_CST);
	else
		__atomic_fetch_and(&mask[cpu / PCC_BITS_PER_LONG], ~bit, __ATOMIC_SEQ_CST);
}

static int pcc_mask_test(const unsigned long *mask, unsigned int cpu)
{
	return (mask[cpu / PCC_BITS_PER_LONG] >> (cpu % PCC_BITS_PER_LONG)) & 1;
}

int pcc_cpuhp_setup(int state, const char *name, int (*startup)(unsigned int),
		    int (*teardown)(unsigned int), int calls)
{
	unsigned int cpu;
	int ret = 0;

	(void)name;
	if (pcc_nr_cpuhp == PCC_CPUHP_MAX)
		return -28;
	pcc_cpuhp[pcc_nr_cpuhp++] = (struct pcc_cpuhp){ state, startup, teardown };
	/* A dynamic state returns the number it got, as the kernel's */
	if (state == PCC_CPUHP_DYN)
		ret = 100 + pcc_nr_cpuhp;
	if (calls && startup) {
		for (cpu = 0; cpu < PCC_NR_CPUS; cpu++)
			if (pcc_mask_test(pcc_cpu_online_bits, cpu))
				startup(cpu);
	}
	return ret;
}

/* Bring a CPU slot up: out of dying, into online, then the startups */
void pcc_cpu_up(unsigned int cpu)
{
	int i;

	if (pcc_mask_test(pcc_cpu_online_bits, cpu))
		return;
	pcc_mask_set(pcc_cpu_possible_bits, cpu, 1);
	if (cpu >= pcc_nr_cpu_ids)
		__atomic_store_n(&pcc_nr_cpu_ids, cpu + 1, __ATOMIC_SEQ_CST);
	pcc_mask_set(pcc_cpu_dying_bits, cpu, 0);
	pcc_mask_set(pcc_cpu_online_bits, cpu, 1);
	__atomic_fetch_add(&pcc_num_online, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < pcc_nr_cpuhp; i++)
		if (pcc_cpuhp[i].startup)
			pcc_cpuhp[i].startup(cpu);
}

/*
 * Take a CPU slot down, its threads gone: dying, then out of the online
 * mask, then the teardowns in reverse (the dead states', here all of
 * them, run by the caller, another CPU).  It stays dying until it comes up.
 */
void pcc_cpu_down(unsigned int cpu)
{
	int i;

	if (!pcc_mask_test(pcc_cpu_online_bits, cpu))
		return;
	pcc_mask_set(pcc_cpu_dying_bits, cpu, 1);
	pcc_mask_set(pcc_cpu_online_bits, cpu, 0);
	__atomic_fetch_sub(&pcc_num_online, 1, __ATOMIC_SEQ_CST);
	for (i = pcc_nr_cpuhp - 1; i >= 0; i--)
		if (pcc_cpuhp[i].teardown)
			pcc_cpuhp[i].teardown(cpu);
}

/* ---------------------------------------------------------------------- */
/* Threads: an id for the MCS nodes, a CPU slot */

struct pcc_mcs_node {
	struct pcc_mcs_node *next;
	int locked;
	int count;
} __attribute__((aligned(64)));

static struct pcc_mcs_node pcc_mcs_nodes[PCC_MAX_THREADS][PCC_MCS_NESTING];
static unsigned char pcc_thread_used[PCC_MAX_THREADS];

void pcc_thread_register(void)
{
	int i;

	pthread_mutex_lock(&pcc_lock);
	for (i = 0; i < PCC_MAX_THREADS && pcc_thread_used[i]; i++)
		;
	if (i == PCC_MAX_THREADS) {
		fprintf(stderr, "more than %d threads\n", PCC_MAX_THREADS);
		exit(2);
	}
	pcc_thread_used[i] = 1;
	pthread_mutex_unlock(&pcc_lock);
	pcc_thread_id = i;
}

void pcc_thread_unregister(void)
{
	pthread_mutex_lock(&pcc_lock);
	pcc_thread_used[pcc_thread_id] = 0;
	pthread_mutex_unlock(&pcc_lock);
	pcc_thread_id = -1;
}

void pcc_set_cpu(int cpu)
{
	pcc_this_cpu = cpu;
	pcc_this_off = pcc_pcpu_delta + (unsigned long)cpu * PCC_PCPU_UNIT;
}

/* ---------------------------------------------------------------------- */
/*
 * The queued spinlock's slow path, as kernel/locking/qspinlock.c without
 * the pending bit: queue on the tail (the previous tail's node points to
 * ours), wait to be the head, wait for the owner to go, take the lock,
 * clearing the tail if ours is still the last, and make the next node the
 * head.  Tail: thread id + 1 in the high bits, nesting level in the low 2.
 */
static unsigned short pcc_encode_tail(int id, int idx)
{
	return (unsigned short)(((id + 1) << 2) | idx);
}

static struct pcc_mcs_node *pcc_decode_tail(unsigned short tail)
{
	return &pcc_mcs_nodes[(tail >> 2) - 1][tail & 3];
}

void pcc_queued_spin_lock_slowpath(struct pcc_qspinlock *lock)
{
	struct pcc_mcs_node *node, *prev, *next;
	unsigned short tail, old;
	unsigned int val;
	int idx;

	if (pcc_thread_id < 0) {
		fprintf(stderr, "spinlock taken by an unregistered thread\n");
		abort();
	}
	/*
	 * More threads than cores: a queue would hand the lock to waiters
	 * that are not running.  Test-and-set instead, as the kernel's
	 * virt_spin_lock() does on a hypervisor without paravirt spinlocks.
	 */
	if (pcc_lock_tas) {
		for (;;) {
			val = __atomic_load_n(&lock->val, __ATOMIC_RELAXED);
			if (!val && __atomic_compare_exchange_n(&lock->val, &val, 1, 0,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
				return;
			pcc_cpu_relax();
		}
	}
	node = &pcc_mcs_nodes[pcc_thread_id][0];
	idx = node->count++;
	if (idx >= PCC_MCS_NESTING) {
		fprintf(stderr, "spinlocks nested too deep\n");
		abort();
	}
	node += idx;
	tail = pcc_encode_tail(pcc_thread_id, idx);
	node->locked = 0;
	node->next = NULL;

	/* Our node is initialised before it is seen: release */
	old = __atomic_exchange_n(&lock->tail, tail, __ATOMIC_ACQ_REL);
	if (old) {
		prev = pcc_decode_tail(old);
		__atomic_store_n(&prev->next, node, __ATOMIC_RELEASE);
		while (!__atomic_load_n(&node->locked, __ATOMIC_ACQUIRE))
			pcc_cpu_relax();
	}

	/* The head: wait for the owner; acquire, as the kernel's cond_read */
	while ((val = __atomic_load_n(&lock->val, __ATOMIC_ACQUIRE)) & 0xff)
		pcc_cpu_relax();

	if ((val >> 16) == tail &&
	    __atomic_compare_exchange_n(&lock->val, &val, 1, 0,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		goto release;
	/* Someone queued behind us: only the head takes the lock, set it */
	__atomic_store_n(&lock->locked, 1, __ATOMIC_RELAXED);
	while (!(next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE)))
		pcc_cpu_relax();
	__atomic_store_n(&next->locked, 1, __ATOMIC_RELEASE);
release:
	pcc_mcs_nodes[pcc_thread_id][0].count--;
}
