/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __CPUACCT_UTIL_H
#define __CPUACCT_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <sched.h>
#include <sys/types.h>

#include "../kselftest.h"

#define CG_MAX_CPUS	1024
#define NSEC_PER_SEC	1000000000ULL

/*
 * One test of a program's table, as in selftests/cgroup/test_cpu.c:
 * test_<name>() returns KSFT_PASS, KSFT_FAIL or KSFT_SKIP (saying why
 * with ksft_print_msg()) and is reported as <name>.  The tests of a table
 * run in order, and a test may build on what the ones before it did.
 */
struct cg_test {
	int (*fn)(void);
	const char *name;
};

#define CG_TEST(name)	{ test_##name, #name }

/* Shared memory between a test and its children (cg_shared()) */
#define GET(x)		__atomic_load_n(&(x), __ATOMIC_SEQ_CST)
#define SET(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_SEQ_CST)
#define INC(x)		__atomic_add_fetch(&(x), 1, __ATOMIC_SEQ_CST)

/* @size bytes of zeroed MAP_SHARED memory; exits the test on failure. */
void *cg_shared(size_t size);

/*
 * Report @ret (KSFT_PASS, KSFT_SKIP; anything else fails) as @fmt.
 * Inline, as is cg_run_tests(): kselftest.h's counters are static, so a
 * result must be reported from the test program's own file, where
 * ksft_finished() reads them.
 */
static inline __printf(2, 3) void cg_report(int ret, const char *fmt, ...)
{
	char name[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	switch (ret) {
	case KSFT_PASS:
		ksft_test_result_pass("%s\n", name);
		break;
	case KSFT_SKIP:
		ksft_test_result_skip("%s\n", name);
		break;
	default:
		ksft_test_result_fail("%s\n", name);
		break;
	}
}

/* Run the @n @tests in order and report each one. */
static inline void cg_run_tests(const struct cg_test *tests, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		cg_report(tests[i].fn(), "%s", tests[i].name);
}

/* Mount point of the cgroup v1 hierarchy that has cpuacct attached. */
extern char cg_root[];

/*
 * Find the cgroup v1 hierarchy with cpuacct in /proc/mounts, or mount one
 * on a temporary directory (unmounted at exit).  Returns 0 on success, -1
 * if cpuacct is unavailable.
 *
 * With CPUACCT_CG_ROOT set in the environment, the cgroup v1 hierarchy
 * mounted there instead, whatever its controllers (-1 if it is not one):
 * for a benchmark's groups in another layout, such as the cpu controller
 * alone on a kernel without cpuacct, where no cpuacct file exists.  The
 * tests expect cpuacct's files in it.
 */
int cg_setup(void);
/* Does the kernel have cpuacct.nr_switches? */
bool cg_has_nr_switches(void);

/*
 * The names below that ../cgroup/cgroup_util.h also declares (cg_read(),
 * cg_write(), cg_enter()) keep its contracts: 0 on success or -errno.
 * Those whose contracts differ have other names (cg_make(),
 * cg_destroy_tree()).
 */

/*
 * Create the group @top followed by @sub ("" or "/a/b"), a path relative
 * to cg_root, parents first, and remember it for removal at exit; returns
 * its malloc()ed full path.  Fails the test if it cannot be created.
 */
char *cg_make(const char *top, const char *sub);
/*
 * Kill the tasks of the group tree @path, then remove it bottom-up; 0 if
 * it is gone, -1 (and says why) if a group stays busy.
 */
int cg_destroy_tree(const char *path);
/* Name unique to this test run, for the top group of a test. */
const char *cg_test_name(const char *what);

/*
 * Read all of @file of @cg into @buf, NUL-terminated: 0, or -errno
 * (-EOVERFLOW if it does not fit in @len bytes).
 */
int cg_read(const char *cg, const char *file, char *buf, size_t len);
/* A u64 file: one decimal number and a newline, nothing else. */
int cg_read_u64(const char *cg, const char *file, uint64_t *val);
/*
 * A per-CPU file: one number per possible CPU, each followed by a space,
 * then a newline (the format of cpuacct.usage_percpu).  Returns the number
 * of values, -1 on a read or format error.
 */
int cg_read_percpu(const char *cg, const char *file, uint64_t *vals, int max);
/* Write the string @buf to @file of @cg: 0, or -errno. */
int cg_write(const char *cg, const char *file, const char *buf);
/* Move @pid to @cg: 0, or -errno. */
int cg_enter(const char *cg, pid_t pid);

/* Every file of a cpuacct group, cpuacct.nr_switches* last */
#define CG_NR_FILES	10
extern const char * const cg_files[CG_NR_FILES];
/* Is @file cpuacct.nr_switches or cpuacct.nr_switches_percpu? */
bool cg_is_sw_file(const char *file);

/* Number of possible CPUs and their numbers, from .../cpu/possible. */
int possible_cpus(int *cpus, int max);
/*
 * Start a kselftest of nr_switches: print the header, skip without cpuacct
 * or nr_switches, fill @cpus (CG_MAX_CPUS) and return how many CPUs.
 */
int cg_start_nr_switches(int *cpus);
/* A CPU the calling task may run on, the @n-th (modulo their number). */
int allowed_cpu(int n);
int pin_to_cpu(int cpu);

uint64_t proc_stat_ctxt(void);
long meminfo_percpu_kb(void);
/* num_cgroups of cpuacct's hierarchy in /proc/cgroups, -1 on error. */
long proc_cgroups_num(void);
uint64_t task_switches(void);	/* ru_nvcsw + ru_nivcsw of this thread */
uint64_t now_ns(void);
void sleep_ms(long ms);

/*
 * Every counter of one group, as its cpuacct files show it.  Per-CPU
 * arrays are indexed like possible_cpus(); sw and pc_sw stay 0 on kernels
 * without cpuacct.nr_switches.
 */
struct cg_snap {
	uint64_t usage, user, sys, sw;
	uint64_t pc_usage[CG_MAX_CPUS], pc_user[CG_MAX_CPUS];
	uint64_t pc_sys[CG_MAX_CPUS], pc_sw[CG_MAX_CPUS];
	uint64_t all_user[CG_MAX_CPUS], all_sys[CG_MAX_CPUS];
	uint64_t stat_user, stat_sys;
};

/* Counters cg_snap_sum_ok() compares */
#define CG_USAGE	0x1
#define CG_USER		0x2
#define CG_SYS		0x4
#define CG_SW		0x8

/* Every file but cpuacct.stat, each checked for its exact format. */
int cg_snap_read(const char *cg, struct cg_snap *s);
/* cpuacct.stat, in USER_HZ, into stat_user and stat_sys. */
int cg_snap_read_stat(const char *cg, struct cg_snap *s);
bool cg_snap_is_zero(const struct cg_snap *s);
/* Totals are the per-CPU sums; usage_all is usage_percpu_user/sys. */
bool cg_snap_consistent(const char *cg, const struct cg_snap *s);
/*
 * Are @which counters of @parent, the totals and each CPU's, exactly the
 * sums of the @n @kids'?  Says which is not on the test output.
 */
bool cg_snap_sum_ok(const char *cg, const struct cg_snap *parent,
		    const struct cg_snap * const *kids, int n, int which);

/*
 * A test's tree of @n groups: @names[i] is group i's path below the
 * test's top group (cg_test_name(@what)), "" for the top group itself,
 * parents first; @parent_of[i] is the index of its parent, -1 for the top.
 */
struct cg_tree {
	int n;
	const char * const *names;
	const int *parent_of;
	char **cg;		/* full paths, filled by cg_tree_create() */
	struct cg_snap *snaps;	/* filled by cg_tree_settle() */
};

/* Create the groups; exits the test on failure. */
void cg_tree_create(struct cg_tree *t, const char *what);
/*
 * Snapshot every group until two snapshots 50 ms apart are identical:
 * tasks that were charged to them are reaped, but their final switch or
 * tick may still be charging.  Returns 0 once stable.
 */
int cg_tree_settle(struct cg_tree *t);
/* Is every @which counter of group @p the sum of its children's? */
bool cg_tree_sums_ok(const struct cg_tree *t, int p, int which);

/*
 * Read the u64 @file of @n groups until two reads @ms apart agree, at most
 * @tries times: the tasks that were charged to them have exited, but their
 * last switch or tick may still be in flight.  Returns 0 once stable.
 */
int cg_read_stable(char **cgs, int n, const char *file, uint64_t *vals,
		   int tries, int ms);

/*
 * Pipe ping-pong between two processes A and B pinned to the same CPU.
 *
 * A pins itself to @cpu, enters @cg and forks B, which inherits both.  B
 * writes a ready byte, then answers every byte A sends until A sends 'q'.
 * A waits for the ready byte, runs @rounds round trips (or as many as fit
 * in @duration_ns, if set), then, if @move_cg is set, moves itself (alone)
 * to @move_cg and runs @rounds2 more round trips there.
 *
 * Since A and B share one CPU, A is switched away at least once per round
 * trip (B must run to answer) and so is B (A must run to send the next
 * byte, the first one included thanks to the ready byte): a round trip is
 * at least 2 switches, 1 charged to A and 1 to B.
 *
 * Each task samples its own switch count (task_switches()) right after
 * entering its group and at the end; A also samples right before and
 * after entering, and around its move.  The switches between the samples
 * are exactly those the kernel charged to the task's group, as a task's
 * nvcsw/nivcsw are incremented where the scheduler counts
 * rq->nr_switches.  With @exact, both tasks exit on one CPU (@cpu, or the
 * first allowed one), where they are waited for with reap_exact(), so
 * their whole lives' switches are known too: with B born in the group,
 * the group was charged all of B's and A's from its entering on.
 *
 * For the benchmarks, other switches in between: with @b_apart, B pins
 * itself to @b_cpu instead (before its ready byte), so that each CPU goes
 * idle between its task's switches; with @kick, A writes "1" to that file
 * before each round trip (/proc/sys/vm/stat_refresh queues a work item on
 * every CPU and waits for it: a kworker runs on @cpu in between).
 */
struct pp_spec {
	const char *cg;		/* NULL: stay in the caller's group */
	const char *b_cg;	/* B's group; NULL: A's */
	int cpu;		/* -1: do not pin */
	bool b_apart;		/* B on @b_cpu, not on @cpu */
	int b_cpu;
	long rounds;
	uint64_t duration_ns;	/* if set, run for this long instead */
	const char *kick;
	const char *move_cg;
	long rounds2;
	bool exact;		/* the totals of pp_result (exact_exit_available()) */
};

struct pp_result {
	/* A: at start, before the move, after the move, at the end */
	uint64_t a_sw[4];
	/* B: at start, at the end */
	uint64_t b_sw[2];
	uint64_t a_pre_sw, a_post_sw;	/* A: around entering @cg */
	/* With @exact: whole lives, exits included (reap_exact()) */
	uint64_t a_total_sw, b_total_sw;
	bool exact;		/* and they are final */
	long rounds;		/* round trips before the move */
	long rounds2;		/* round trips after the move */
	uint64_t elapsed_ns;	/* of the round trips before the move */
};

/* Runs the ping-pong and reaps both tasks; returns 0 if all went well. */
int pingpong(const struct pp_spec *spec, struct pp_result *res);
/*
 * @n ping-pongs at once, pair i as pingpong() would run @specs[i] (without
 * @exact, @move_cg, @rounds or @duration_ns): every A waits for its B and
 * then for the others, all start together and all stop together, after a
 * tenth of @duration_ns of warm-up and @duration_ns of run.  *@rounds: the
 * round trips of all the pairs together in the run, which took
 * *@elapsed_ns.  Returns 0 if all went well.
 */
int pingpong_many(const struct pp_spec *specs, int n, uint64_t duration_ns,
		  long *rounds, uint64_t *elapsed_ns);

/*
 * The two sides of every ping-pong of these tests, one byte each way per
 * round trip.  pp_echo(): B, answers each ping on @rfd on @wfd until told
 * to quit (after a ready byte first, if @ready): 0, or a PP_E_* error.
 * pp_wait_ready(): A, waits for that ready byte: 0 or -1.  pp_rounds():
 * A, @rounds round trips, or as many as fit in @duration_ns if set, timed
 * into *@elapsed_ns (unless NULL, duration_ns 0): how many, -1 on an
 * error.  pp_quit(): A, tells B to quit: 0 or -1.
 */
int pp_echo(int rfd, int wfd, bool ready);
int pp_wait_ready(int rfd);
long pp_rounds(int wfd, int rfd, long rounds, uint64_t duration_ns,
	       uint64_t *elapsed_ns);
int pp_quit(int wfd);

/* What went wrong in a ping-pong task; pp_strerror() says it in words. */
enum pp_error {
	PP_E_NONE, PP_E_READY, PP_E_READ, PP_E_PONG, PP_E_PIN,
	PP_E_ENTER, PP_E_PIPE, PP_E_FORK, PP_E_B_READY, PP_E_PING,
	PP_E_MOVE, PP_E_PING2, PP_E_QUIT, PP_E_REAP_B, PP_E_KICK, PP_E_NR
};

const char *pp_strerror(int err);

/*
 * Reader processes that watch groups while a test works in them: each
 * reads every cpuacct file of each of @groups over and over, until
 * cg_readers_stop(), and fails if a read fails or comes back empty, if
 * cpuacct.usage or cpuacct.usage_percpu does not parse, or if
 * cpuacct.usage or cpuacct.nr_switches of a group ever goes down.  After
 * each pass, @vanishing (a group that may come and go), if set, is read
 * too: its cpuacct.usage_all need only be well formed when it reads.
 */
#define CG_MAX_READERS		4
#define CG_READERS_MAX_GROUPS	16

struct cg_readers_state {	/* shared with the readers */
	int stop;
	int failed;
	long reads;		/* passes over @groups */
	long vanishing_reads;	/* reads of @vanishing that succeeded */
	char why[256];		/* the first failure */
};

struct cg_readers {
	char * const *groups;
	int n;			/* of @groups */
	int nr;			/* reader processes */
	bool pin;		/* reader i on allowed_cpu(i) */
	long pause_us;		/* between passes */
	const char *vanishing;
	struct cg_readers_state *st;	/* cg_readers_start() */
	pid_t pids[CG_MAX_READERS];
};

/* Start them (limits exceeded fail the test); resets st's counts. */
void cg_readers_start(struct cg_readers *r);
/* Stop them and wait for them: true if none failed, else says why. */
bool cg_readers_stop(struct cg_readers *r);

/*
 * A task's runtime (its CPU clock: the se.sum_exec_runtime cpuacct.usage
 * is charged with) and switch count (voluntary + nonvoluntary from
 * /proc/PID/status, what getrusage() reports), which are final while it
 * is blocked, or once it can no longer run.
 */
struct task_total {
	uint64_t runtime_ns;
	uint64_t switches;
	/*
	 * Its tick-sampled user and system time as account_user_time() and
	 * account_system_index_time() charge it, the same ticks as to its
	 * cpuacct group (not the runtime-scaled values of /proc or
	 * getrusage()); from taskstats, truncated to a microsecond each.
	 */
	uint64_t user_us, sys_us;
};

/* @pid's state letter in /proc/PID/stat ('S', 'Z', ...), 0 if it is gone */
char task_state(pid_t pid);
/* runtime_ns and switches; returns 0, or -1 if @pid is gone. */
int task_counts(pid_t pid, struct task_total *t);
/* user_us and sys_us; returns 0, or -1 without taskstats. */
int task_ticks(pid_t pid, struct task_total *t);

/*
 * A task's counts are final while it is blocked.  Wait until @pid is
 * blocked in read(@fd): /proc/PID/syscall shows a task's system call only
 * once wait_task_inactive() has seen it off its CPU, its last switch
 * accounted.  Returns 0, or -1 if @pid exited.
 */
int wait_blocked_in_read(pid_t pid, int fd);
/* Can this task see a child blocked (/proc/PID/syscall, ptrace access)? */
bool blocked_visible(void);

/*
 * A child's whole life, its exit included: the exact reference for what
 * its group was charged.
 *
 * A parent may be told that a child exited while the child still runs,
 * and is still charged to its group, until its last switch: do_exit()
 * wakes the parent in exit_notify(), then runs on to do_task_dead().  So
 * the child ends as a SCHED_FIFO task on the CPU where its parent, also a
 * SCHED_FIFO task of the same priority, waits for it (become_fifo_on()
 * in both): woken there, the parent runs after the child's last switch (a
 * woken FIFO task queues behind the running one, a preempted one stays
 * first in line, throttling and the deadline fair server do not tell them
 * apart), when reap_exact() reads the zombie's counts.  Not so if the
 * child may block on its way out (PREEMPT_RT's sleeping spinlocks), or if
 * either is not SCHED_FIFO there (no privilege, RT group bandwidth, a
 * hotplug or cpuset moved it): reap_exact() says so.
 */

/*
 * Can this task use become_fifo_on() here (privilege, RT bandwidth,
 * PREEMPT_RT)?  If not, says why; tests skip what needs it.
 */
bool exact_exit_available(void);
/*
 * Pin the calling task to @cpu as SCHED_FIFO, its children to be forked
 * SCHED_NORMAL; returns 0 or -errno.
 */
int become_fifo_on(int cpu);
/* @pid's affinity (0: the caller's), its CPUs now offline included */
int task_affinity(pid_t pid, cpu_set_t *mask);
/* Back to SCHED_NORMAL on the CPUs of @mask. */
int become_normal(const cpu_set_t *mask);
/*
 * In the parent, become_fifo_on(@cpu) before @pid could exit there: wait
 * for @pid, which must exit with status 0, fill @t with its counts (user_us
 * and sys_us only if @ticks), and reap it.  Returns 0 if they are final, 1
 * if they may not be (either task was not SCHED_FIFO on @cpu at the end),
 * -1 on an error; says which on the test output.
 */
int reap_exact(pid_t pid, int cpu, struct task_total *t, bool ticks);

/* Busy loop in user space for @cpu_ns of this thread's CPU time. */
void burn_cpu(uint64_t cpu_ns);
uint64_t thread_cputime_ns(void);

#endif /* __CPUACCT_UTIL_H */
