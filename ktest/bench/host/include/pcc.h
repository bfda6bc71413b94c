/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel-header shim (linux/, built with lib/percpu_counter.c),
 * the runtime behind it (runtime.c) and the harness (main.c) share.  No
 * header here: main.c and runtime.c are built with libc's, the shim with
 * none, as glibc's own headers include <linux/...> ones.
 */
#ifndef _PCC_H
#define _PCC_H

#ifndef CONFIG_NR_CPUS
#define CONFIG_NR_CPUS 64
#endif
#define PCC_NR_CPUS		CONFIG_NR_CPUS
#define PCC_BITS_PER_LONG	(8 * __SIZEOF_LONG__)
#define PCC_MASK_LONGS	((PCC_NR_CPUS + PCC_BITS_PER_LONG - 1) / PCC_BITS_PER_LONG)
/* Threads at once: workers, the runner, spare; each has its own MCS nodes */
#define PCC_MAX_THREADS		(2 * PCC_NR_CPUS + 8)
/* Spinlocks a thread holds at once (qspinlock: 4 contexts per CPU) */
#define PCC_MCS_NESTING		4

/*
 * Each "CPU" is a slot of a per-CPU area: its copy of per-CPU data lies
 * PCC_PCPU_UNIT bytes after that of the CPU before it, as the kernel's
 * per-CPU units do.  A thread runs on one slot, pcc_this_cpu.  A per-CPU
 * pointer is CPU 0's copy less pcc_pcpu_delta, as in the kernel an address
 * in the static per-CPU image (section pcc_percpu): see linux/percpu.h.
 */
#define PCC_PCPU_UNIT		(4UL << 20)
extern __thread int pcc_this_cpu;
extern __thread unsigned long pcc_this_off;
extern unsigned long pcc_pcpu_delta;
extern __thread int pcc_thread_id;

extern unsigned long pcc_cpu_possible_bits[PCC_MASK_LONGS];
extern unsigned long pcc_cpu_online_bits[PCC_MASK_LONGS];
extern unsigned long pcc_cpu_dying_bits[PCC_MASK_LONGS];
extern unsigned int pcc_nr_cpu_ids;
extern int pcc_num_online;

void *pcc_alloc_percpu(__SIZE_TYPE__ size, __SIZE_TYPE__ align);
void pcc_free_percpu(void *ptr);

/* CPU hotplug: the callbacks registered, run by pcc_cpu_up()/down() */
int pcc_cpuhp_setup(int state, const char *name, int (*startup)(unsigned int),
		    int (*teardown)(unsigned int), int calls);
void pcc_cpu_up(unsigned int cpu);
void pcc_cpu_down(unsigned int cpu);

void pcc_warn(const char *file, int line, const char *cond);
extern unsigned long pcc_warnings;
void pcc_cpu_relax(void);
extern unsigned int pcc_relax_yield;
/* Spinlocks test-and-set, not queued (runtime.c) */
extern int pcc_lock_tas;

/* queued spinlock: the lock word and the slow path (runtime.c) */
struct pcc_qspinlock {
	union {
		unsigned int val;
		struct {
			unsigned char locked;
			unsigned char pending;	/* unused: straight to the queue */
			unsigned short tail;	/* thread id + 1, nesting level */
		};
	};
};
void pcc_queued_spin_lock_slowpath(struct pcc_qspinlock *lock);

/* Threads of the harness: register first (MCS node id), pick a CPU */
void pcc_thread_register(void);
void pcc_thread_unregister(void);
void pcc_set_cpu(int cpu);

/*
 * One build of lib/percpu_counter.c and its header, base or patched: the
 * harness sees it only through this table (impl.c), as the two builds'
 * struct percpu_counter differ.
 */
struct pcc_counter;
struct pcc_impl {
	const char *name;
	__SIZE_TYPE__ size;		/* sizeof(struct percpu_counter) */
	int has_scaled;			/* percpu_counter_add_scaled() */
	int (*startup)(void);		/* module_init() of percpu_counter.c */
	int (*init)(struct pcc_counter *c, long long amount);
	void (*destroy)(struct pcc_counter *c);
	void (*add_batch)(struct pcc_counter *c, long long amount, int batch);
	void (*add)(struct pcc_counter *c, long long amount);
	void (*add_local)(struct pcc_counter *c, long long amount);
	void (*add_scaled)(struct pcc_counter *c, long long amount,
			   unsigned int unit);
	long long (*sum)(struct pcc_counter *c);
	long long (*read)(struct pcc_counter *c);
	void (*set)(struct pcc_counter *c, long long amount);
	void (*sync)(struct pcc_counter *c);
	int (*compare)(struct pcc_counter *c, long long rhs);
	int (*limited_add)(struct pcc_counter *c, long long limit,
			   long long amount, int batch);
	int (*batch)(void);			/* percpu_counter_batch */
	int (*scaled_batch)(unsigned int unit);
	/* The benchmark loops: PCC_CHUNK calls each, as the module's */
	void (*chunk_add)(struct pcc_counter *c, long long amount);
	void (*chunk_add_scaled)(struct pcc_counter *c, long long amount);
	void (*chunk_sum)(struct pcc_counter *c, long long *total);
	void (*chunk_limited)(struct pcc_counter *c, long long limit,
			      unsigned long long *good);
	void (*chunk_pcpu_u64)(unsigned long long *pcpu, long long amount);
};
#define PCC_CHUNK	256
/* TICK_NSEC at HZ=250 */
#define PCC_TICK_NSEC	((1000000000L + CONFIG_HZ / 2) / CONFIG_HZ)

extern const struct pcc_impl pcc_impl_base, pcc_impl_patched;

#endif
