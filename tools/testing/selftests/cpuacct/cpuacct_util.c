// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers for the cpuacct (cgroup v1 CPU accounting controller) selftests.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <linux/futex.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>

#include "cpuacct_util.h"

char cg_root[PATH_MAX];
static char cg_tmp_mount[PATH_MAX];
static pid_t cg_owner;

/* The groups cg_make() created, for removal at exit, newest last */
static char **cg_created;
static int cg_nr_created;

static bool has_option(const char *opts, const char *opt)
{
	size_t len = strlen(opt);
	const char *p = opts;

	while (p && *p) {
		if (!strncmp(p, opt, len) && (p[len] == ',' || !p[len]))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

static int find_mount(void)
{
	char dev[256], dir[PATH_MAX], type[64], opts[1024];
	FILE *f = fopen("/proc/mounts", "r");
	int ret = -1;

	if (!f)
		return -1;
	while (fscanf(f, "%255s %4095s %63s %1023s %*d %*d",
		      dev, dir, type, opts) == 4) {
		if (!strcmp(type, "cgroup") && has_option(opts, "cpuacct")) {
			snprintf(cg_root, sizeof(cg_root), "%s", dir);
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

static void cg_cleanup(void)
{
	int i;

	if (getpid() != cg_owner)
		return;
	for (i = cg_nr_created - 1; i >= 0; i--) {
		cg_destroy_tree(cg_created[i]);
		free(cg_created[i]);
	}
	free(cg_created);
	cg_created = NULL;
	cg_nr_created = 0;
	if (cg_tmp_mount[0]) {
		umount2(cg_tmp_mount, MNT_DETACH);
		rmdir(cg_tmp_mount);
		cg_tmp_mount[0] = '\0';
	}
}

static void cg_signal_exit(int sig)
{
	exit(128 + sig);
}

/* CPUACCT_CG_ROOT: a cgroup v1 hierarchy, which has a tasks file */
static int cg_use_root(const char *dir)
{
	char tasks[PATH_MAX];

	if (snprintf(cg_root, sizeof(cg_root), "%s", dir) >= (int)sizeof(cg_root) ||
	    snprintf(tasks, sizeof(tasks), "%s/tasks", dir) >= (int)sizeof(tasks) ||
	    access(tasks, F_OK)) {
		cg_root[0] = '\0';
		return -1;
	}
	return 0;
}

int cg_setup(void)
{
	const char *root = getenv("CPUACCT_CG_ROOT");

	cg_owner = getpid();
	atexit(cg_cleanup);
	signal(SIGINT, cg_signal_exit);
	signal(SIGTERM, cg_signal_exit);

	if (root)
		return cg_use_root(root);
	if (!find_mount())
		return 0;

	/* Not mounted: try to mount it ourselves, alone. */
	snprintf(cg_tmp_mount, sizeof(cg_tmp_mount), "/tmp/cpuacct_test.XXXXXX");
	if (!mkdtemp(cg_tmp_mount)) {
		cg_tmp_mount[0] = '\0';
		return -1;
	}
	if (mount("none", cg_tmp_mount, "cgroup", 0, "cpuacct")) {
		rmdir(cg_tmp_mount);
		cg_tmp_mount[0] = '\0';
		return -1;
	}
	snprintf(cg_root, sizeof(cg_root), "%s", cg_tmp_mount);
	return 0;
}

static int cg_file(char *buf, size_t len, const char *cg, const char *file)
{
	int n = snprintf(buf, len, "%s/%s", cg, file);

	if (n < 0 || (size_t)n >= len) {
		buf[0] = '\0';
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

bool cg_has_nr_switches(void)
{
	char path[PATH_MAX];

	if (cg_file(path, sizeof(path), cg_root, "cpuacct.nr_switches"))
		return false;
	return !access(path, F_OK);
}

const char * const cg_files[CG_NR_FILES] = {
	"cpuacct.usage", "cpuacct.usage_percpu", "cpuacct.usage_user",
	"cpuacct.usage_sys", "cpuacct.usage_percpu_user",
	"cpuacct.usage_percpu_sys", "cpuacct.usage_all", "cpuacct.stat",
	"cpuacct.nr_switches", "cpuacct.nr_switches_percpu",
};

bool cg_is_sw_file(const char *file)
{
	return !strncmp(file, "cpuacct.nr_switches", 19);
}

void *cg_shared(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		ksft_exit_fail_perror("mmap of shared memory");
	return p;
}

const char *cg_test_name(const char *what)
{
	static char name[128];

	if (snprintf(name, sizeof(name), "kselftest_cpuacct_%s.%d", what,
		     (int)getpid()) >= (int)sizeof(name))
		ksft_exit_fail_msg("group name %s too long\n", what);
	return name;
}

/* Remember @path for removal at exit. */
static void cg_track(const char *path)
{
	char **p = realloc(cg_created, (cg_nr_created + 1) * sizeof(*p));

	if (p)
		p[cg_nr_created] = strdup(path);
	if (!p || !p[cg_nr_created])
		ksft_exit_fail_msg("out of memory for the groups to remove\n");
	cg_created = p;
	cg_nr_created++;
}

char *cg_make(const char *top, const char *sub)
{
	char *path;

	if (asprintf(&path, "%s/%s%s", cg_root, top, sub) < 0)
		ksft_exit_fail_msg("out of memory for group %s%s\n", top, sub);
	if (mkdir(path, 0755) && errno != EEXIST)
		ksft_exit_fail_msg("cannot create %s: %s\n", path,
				   strerror(errno));
	cg_track(path);
	return path;
}

static void cg_kill_tasks(const char *path)
{
	static char buf[65536];
	char *p;
	int tries;

	for (tries = 0; tries < 100; tries++) {
		if (cg_read(path, "cgroup.procs", buf, sizeof(buf)) || !buf[0])
			return;
		for (p = strtok(buf, "\n"); p; p = strtok(NULL, "\n"))
			kill(atoi(p), SIGKILL);
		/* Reap what is ours; the rest is reaped by its parent. */
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		sleep_ms(10);
	}
}

int cg_destroy_tree(const char *path)
{
	char sub[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int tries;

	d = opendir(path);
	if (!d)
		return errno == ENOENT ? 0 : -1;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") ||
		    !strcmp(de->d_name, ".."))
			continue;
		if (!cg_file(sub, sizeof(sub), path, de->d_name))
			cg_destroy_tree(sub);
	}
	closedir(d);

	cg_kill_tasks(path);
	/* Exiting tasks may keep the group populated for a moment. */
	for (tries = 0; tries < 200; tries++) {
		if (!rmdir(path) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			break;
		sleep_ms(10);
	}
	ksft_print_msg("rmdir %s: %s\n", path, strerror(errno));
	return -1;
}

int cg_read(const char *cg, const char *file, char *buf, size_t len)
{
	char path[PATH_MAX], c;
	ssize_t n, total = 0;
	int fd, ret = 0;

	buf[0] = '\0';
	if (cg_file(path, sizeof(path), cg, file))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	for (;;) {
		/* Once @buf is full, one more byte says if the file is larger */
		if ((size_t)total < len - 1)
			n = read(fd, buf + total, len - 1 - total);
		else
			n = read(fd, &c, 1);
		if (n < 0)
			ret = -errno;
		else if (n && (size_t)total == len - 1)
			ret = -EOVERFLOW;
		if (n <= 0 || ret)
			break;
		total += n;
	}
	close(fd);
	buf[total] = '\0';
	return ret;
}

static int parse_u64(const char *s, const char **end, uint64_t *val)
{
	unsigned long long v;
	char *e;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &e, 10);
	if (errno)
		return -1;
	*val = v;
	*end = e;
	return 0;
}

int cg_read_u64(const char *cg, const char *file, uint64_t *val)
{
	const char *end;
	char buf[64];

	if (cg_read(cg, file, buf, sizeof(buf)))
		return -1;
	if (parse_u64(buf, &end, val) || strcmp(end, "\n")) {
		ksft_print_msg("%s/%s: bad format '%s'\n", cg, file, buf);
		return -1;
	}
	return 0;
}

int cg_read_percpu(const char *cg, const char *file, uint64_t *vals, int max)
{
	char buf[32 * CG_MAX_CPUS];
	const char *p = buf;
	int n = 0;

	if (cg_read(cg, file, buf, sizeof(buf)))
		return -1;
	while (*p != '\n') {
		if (n == max || parse_u64(p, &p, &vals[n]) || *p != ' ')
			goto bad;
		p++;
		n++;
	}
	if (p[1])
		goto bad;
	return n;
bad:
	ksft_print_msg("%s/%s: bad format '%s'\n", cg, file, buf);
	return -1;
}

static int snap_cpus[CG_MAX_CPUS], snap_ncpus;

static int snap_percpu(const char *cg, const char *file, uint64_t *vals)
{
	int n;

	if (!snap_ncpus)
		snap_ncpus = possible_cpus(snap_cpus, CG_MAX_CPUS);
	n = cg_read_percpu(cg, file, vals, CG_MAX_CPUS);
	if (n != snap_ncpus) {
		ksft_print_msg("%s/%s: %d values, %d possible CPUs\n",
			       cg, file, n, snap_ncpus);
		return -1;
	}
	return 0;
}

/* cpuacct.usage_all: "cpu user system\n", then "<cpu> <user> <sys>\n". */
static int snap_usage_all(const char *cg, struct cg_snap *s)
{
	char buf[64 * CG_MAX_CPUS], *line, *save;
	unsigned long long u, y;
	int i = 0, cpu, pos;

	if (cg_read(cg, "cpuacct.usage_all", buf, sizeof(buf)))
		return -1;
	if (strncmp(buf, "cpu user system\n", 16))
		goto bad;
	for (line = strtok_r(buf + 16, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), i++) {
		if (i == snap_ncpus ||
		    sscanf(line, "%d %llu %llu%n", &cpu, &u, &y, &pos) != 3 ||
		    line[pos] || cpu != snap_cpus[i])
			goto bad;
		s->all_user[i] = u;
		s->all_sys[i] = y;
	}
	if (i != snap_ncpus)
		goto bad;
	return 0;
bad:
	ksft_print_msg("%s/cpuacct.usage_all: bad format\n", cg);
	return -1;
}

int cg_snap_read(const char *cg, struct cg_snap *s)
{
	static int has_sw = -1;

	if (has_sw < 0)
		has_sw = cg_has_nr_switches();
	memset(s, 0, sizeof(*s));
	if (cg_read_u64(cg, "cpuacct.usage", &s->usage) ||
	    cg_read_u64(cg, "cpuacct.usage_user", &s->user) ||
	    cg_read_u64(cg, "cpuacct.usage_sys", &s->sys) ||
	    snap_percpu(cg, "cpuacct.usage_percpu", s->pc_usage) ||
	    snap_percpu(cg, "cpuacct.usage_percpu_user", s->pc_user) ||
	    snap_percpu(cg, "cpuacct.usage_percpu_sys", s->pc_sys) ||
	    snap_usage_all(cg, s))
		return -1;
	if (has_sw &&
	    (cg_read_u64(cg, "cpuacct.nr_switches", &s->sw) ||
	     snap_percpu(cg, "cpuacct.nr_switches_percpu", s->pc_sw)))
		return -1;
	return 0;
}

int cg_snap_read_stat(const char *cg, struct cg_snap *s)
{
	unsigned long long u, y;
	char buf[256];
	int pos = -1;

	if (cg_read(cg, "cpuacct.stat", buf, sizeof(buf)))
		return -1;
	if (sscanf(buf, "user %llu\nsystem %llu\n%n", &u, &y, &pos) != 2 ||
	    pos < 0 || buf[pos]) {
		ksft_print_msg("%s/cpuacct.stat: bad format '%s'\n", cg, buf);
		return -1;
	}
	s->stat_user = u;
	s->stat_sys = y;
	return 0;
}

bool cg_snap_is_zero(const struct cg_snap *s)
{
	int i;

	if (s->usage || s->user || s->sys || s->sw)
		return false;
	for (i = 0; i < snap_ncpus; i++)
		if (s->pc_usage[i] || s->pc_user[i] || s->pc_sys[i] ||
		    s->pc_sw[i] || s->all_user[i] || s->all_sys[i])
			return false;
	return true;
}

bool cg_snap_consistent(const char *cg, const struct cg_snap *s)
{
	uint64_t usage = 0, user = 0, sys = 0, sw = 0;
	bool ok = true;
	int i;

	for (i = 0; i < snap_ncpus; i++) {
		usage += s->pc_usage[i];
		user += s->pc_user[i];
		sys += s->pc_sys[i];
		sw += s->pc_sw[i];
		if (s->all_user[i] != s->pc_user[i] ||
		    s->all_sys[i] != s->pc_sys[i]) {
			ksft_print_msg("%s: usage_all cpu %d differs from usage_percpu_user/sys\n",
				       cg, snap_cpus[i]);
			ok = false;
		}
	}
	if (usage != s->usage || user != s->user || sys != s->sys ||
	    sw != s->sw) {
		ksft_print_msg("%s: totals differ from per-CPU sums\n", cg);
		ok = false;
	}
	return ok;
}

/* Counter @which of @s: i == -1 the total, else the i-th possible CPU's */
static uint64_t snap_get(const struct cg_snap *s, int which, int i)
{
	switch (which) {
	case CG_USAGE:
		return i < 0 ? s->usage : s->pc_usage[i];
	case CG_USER:
		return i < 0 ? s->user : s->pc_user[i];
	case CG_SYS:
		return i < 0 ? s->sys : s->pc_sys[i];
	default:
		return i < 0 ? s->sw : s->pc_sw[i];
	}
}

bool cg_snap_sum_ok(const char *cg, const struct cg_snap *parent,
		    const struct cg_snap * const *kids, int n, int which)
{
	static const char * const what[] = {
		"usage", "usage_user", "usage_sys", "nr_switches",
	};
	bool ok = true;
	int f, i, k;

	for (f = 0; f < 4; f++) {
		if (!(which & (1 << f)))
			continue;
		for (i = -1; i < snap_ncpus; i++) {
			uint64_t sum = 0;

			for (k = 0; k < n; k++)
				sum += snap_get(kids[k], 1 << f, i);
			if (snap_get(parent, 1 << f, i) != sum) {
				ksft_print_msg("%s %s cpu idx %d: %llu != children's %llu\n",
					       cg, what[f], i,
					       (unsigned long long)snap_get(parent, 1 << f, i),
					       (unsigned long long)sum);
				ok = false;
			}
		}
	}
	return ok;
}

void cg_tree_create(struct cg_tree *t, const char *what)
{
	int g;

	t->cg = calloc(t->n, sizeof(*t->cg));
	t->snaps = calloc(t->n, sizeof(*t->snaps));
	if (!t->cg || !t->snaps)
		ksft_exit_fail_msg("out of memory\n");
	for (g = 0; g < t->n; g++)
		t->cg[g] = cg_make(cg_test_name(what), t->names[g]);
}

int cg_tree_settle(struct cg_tree *t)
{
	struct cg_snap *prev = calloc(t->n, sizeof(*prev));
	int g, i, stable = 0;

	if (!prev)
		return -1;
	for (i = 0; i < 40 && !stable; i++) {
		memcpy(prev, t->snaps, t->n * sizeof(*prev));
		for (g = 0; g < t->n; g++)
			if (cg_snap_read(t->cg[g], &t->snaps[g]))
				goto out;
		stable = i && !memcmp(prev, t->snaps, t->n * sizeof(*prev));
		if (!stable)
			sleep_ms(50);
	}
out:
	free(prev);
	return stable ? 0 : -1;
}

bool cg_tree_sums_ok(const struct cg_tree *t, int p, int which)
{
	const struct cg_snap **kids = calloc(t->n, sizeof(*kids));
	int g, n = 0;
	bool ok;

	if (!kids)
		return false;
	for (g = 0; g < t->n; g++)
		if (t->parent_of[g] == p)
			kids[n++] = &t->snaps[g];
	ok = cg_snap_sum_ok(t->cg[p], &t->snaps[p], kids, n, which);
	free(kids);
	return ok;
}

int cg_write(const char *cg, const char *file, const char *buf)
{
	size_t len = strlen(buf);
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	if (cg_file(path, sizeof(path), cg, file))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	return (size_t)n == len ? 0 : -EIO;
}

int cg_enter(const char *cg, pid_t pid)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d", (int)pid);
	return cg_write(cg, "cgroup.procs", buf);
}

int possible_cpus(int *cpus, int max)
{
	char buf[4096], *p;
	int n = 0, a, b;
	FILE *f;

	f = fopen("/sys/devices/system/cpu/possible", "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	for (p = strtok(buf, ",\n"); p; p = strtok(NULL, ",\n")) {
		char *end;

		a = strtol(p, &end, 10);
		if (end == p)
			return -1;
		b = *end == '-' ? strtol(end + 1, &end, 10) : a;
		if (*end)
			return -1;
		for (; a <= b; a++) {
			if (n == max)
				return -1;
			cpus[n++] = a;
		}
	}
	return n;
}

int cg_start_nr_switches(int *cpus)
{
	int n;

	ksft_print_header();
	if (cg_setup())
		ksft_exit_skip("cgroup v1 cpuacct controller not available\n");
	if (!cg_has_nr_switches())
		ksft_exit_skip("no cpuacct.nr_switches in this kernel\n");
	n = possible_cpus(cpus, CG_MAX_CPUS);
	if (n <= 0)
		ksft_exit_fail_msg("cannot read possible CPUs\n");
	return n;
}

int allowed_cpu(int n)
{
	cpu_set_t set;
	int cpu, count;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	count = CPU_COUNT(&set);
	if (!count)
		return 0;
	n %= count;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (CPU_ISSET(cpu, &set) && !n--)
			return cpu;
	}
	return 0;
}

int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int task_counts(pid_t pid, struct task_total *t)
{
	unsigned long long v;
	char path[64], line[256];
	struct timespec ts;
	clockid_t clk;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	t->switches = 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %llu", &v) == 1 ||
		    sscanf(line, "nonvoluntary_ctxt_switches: %llu", &v) == 1) {
			t->switches += v;
			found++;
		}
	fclose(f);
	if (found != 2 || clock_getcpuclockid(pid, &clk) ||
	    clock_gettime(clk, &ts))
		return -1;
	t->runtime_ns = (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
	return 0;
}

bool exact_exit_available(void)
{
	char buf[8] = "";
	struct utsname u;
	int status, err;
	FILE *f;
	pid_t pid;

	/* init/Makefile puts it in the version; the RT patch, in sysfs */
	f = fopen("/sys/kernel/realtime", "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	if (buf[0] == '1' || (!uname(&u) && strstr(u.version, "PREEMPT_RT"))) {
		ksft_print_msg("PREEMPT_RT: an exiting task may block\n");
		return false;
	}
	/* In a child: the probe leaves this task as it is. */
	fflush(stdout);
	pid = fork();
	if (!pid)
		_exit(-become_fifo_on(allowed_cpu(0)));
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return false;
	err = WEXITSTATUS(status);
	if (err)
		ksft_print_msg("SCHED_FIFO: %s\n", strerror(err));
	return !err;
}

int become_fifo_on(int cpu)
{
	struct sched_param sp = { .sched_priority = 1 };

	if (pin_to_cpu(cpu) ||
	    sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &sp))
		return -errno;
	return 0;
}

int task_affinity(pid_t pid, cpu_set_t *mask)
{
	int cpus[CG_MAX_CPUS], n, i;
	char path[64], c;
	FILE *f;

	if (sched_getaffinity(pid, sizeof(*mask), mask))
		return -1;
	/* The kernel leaves out the offline CPUs: put them back. */
	n = possible_cpus(cpus, CG_MAX_CPUS);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/online", cpus[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fread(&c, 1, 1, f) == 1 && c == '0')
			CPU_SET(cpus[i], mask);
		fclose(f);
	}
	return 0;
}

int become_normal(const cpu_set_t *mask)
{
	struct sched_param sp = { 0 };

	if (sched_setscheduler(0, SCHED_OTHER, &sp) ||
	    sched_setaffinity(0, sizeof(*mask), mask))
		return -errno;
	return 0;
}

/* Is @pid (0: the calling task) SCHED_FIFO and pinned to @cpu? */
static bool fifo_on(pid_t pid, int cpu)
{
	cpu_set_t set;

	return (sched_getscheduler(pid) & ~SCHED_RESET_ON_FORK) == SCHED_FIFO &&
	       !sched_getaffinity(pid, sizeof(set), &set) &&
	       CPU_COUNT(&set) == 1 && CPU_ISSET(cpu, &set);
}

int reap_exact(pid_t pid, int cpu, struct task_total *t, bool ticks)
{
	siginfo_t si = { 0 };
	int status, ret = 0;

	if (waitid(P_PID, pid, &si, WEXITED | WNOWAIT)) {
		ksft_print_msg("waitid %d: %s\n", (int)pid, strerror(errno));
		return -1;
	}
	if (!fifo_on(pid, cpu) || !fifo_on(0, cpu)) {
		ksft_print_msg("task %d: not both SCHED_FIFO on CPU %d, counts not final\n",
			       (int)pid, cpu);
		ret = 1;
	}
	if (task_counts(pid, t) || (ticks && task_ticks(pid, t))) {
		ksft_print_msg("task %d: no counts\n", (int)pid);
		ret = -1;
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		ksft_print_msg("task %d failed\n", (int)pid);
		ret = -1;
	}
	return ret;
}

char task_state(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	char c = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f)) {
		p = strrchr(buf, ')');
		if (p && p[1] == ' ')
			c = p[2];
	}
	fclose(f);
	return c;
}

int wait_blocked_in_read(pid_t pid, int fd)
{
	char path[64], want[32], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	snprintf(want, sizeof(want), "%ld 0x%x ", (long)SYS_read, fd);
	for (;;) {
		f = fopen(path, "r");
		if (!f)
			return -1;
		/* Not readable (ptrace_may_access(): Yama, an LSM): no answer */
		if (!fgets(line, sizeof(line), f)) {
			fclose(f);
			return -1;
		}
		fclose(f);
		if (!strncmp(line, want, strlen(want)))
			return 0;
		switch (task_state(pid)) {
		case 'S': case 'D': case 'R':
			break;
		default:	/* gone, stopped or traced: it will not read */
			return -1;
		}
	}
}

bool blocked_visible(void)
{
	int p[2], ok;
	pid_t pid;
	char c;

	if (pipe(p))
		return false;
	fflush(stdout);
	pid = fork();
	if (!pid) {
		close(p[1]);
		if (dup2(p[0], STDIN_FILENO) < 0 || read(STDIN_FILENO, &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	close(p[0]);
	ok = pid > 0 && !wait_blocked_in_read(pid, STDIN_FILENO);
	if (write(p[1], "x", 1) != 1)
		ok = false;
	close(p[1]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return ok;
}

/* taskstats over generic netlink, as tools/accounting/getdelays.c asks */
struct nl_msg {
	struct nlmsghdr n;
	struct genlmsghdr g;
	char buf[1024];
};

/* One request of @cmd to genetlink family @family with one attribute. */
static int genl_ask(int fd, __u16 family, __u8 cmd, __u16 type,
		    const void *data, __u16 len, struct nl_msg *ans)
{
	struct nl_msg req = {
		.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN),
		.n.nlmsg_type = family,
		.n.nlmsg_flags = NLM_F_REQUEST,
		.g.cmd = cmd,
		.g.version = 1,
	};
	struct nlattr *na = (void *)((char *)&req + req.n.nlmsg_len);
	ssize_t n;

	na->nla_type = type;
	na->nla_len = NLA_HDRLEN + len;
	memcpy((char *)na + NLA_HDRLEN, data, len);
	req.n.nlmsg_len += NLA_ALIGN(na->nla_len);
	if (send(fd, &req, req.n.nlmsg_len, 0) != req.n.nlmsg_len)
		return -1;
	n = recv(fd, ans, sizeof(*ans), 0);
	if (n < 0 || !NLMSG_OK(&ans->n, n) || ans->n.nlmsg_type == NLMSG_ERROR)
		return -1;
	return 0;
}

/* The attribute @type among those from @na on for @len bytes. */
static struct nlattr *nla_find(struct nlattr *na, int len, int type)
{
	while (len >= NLA_HDRLEN && na->nla_len >= NLA_HDRLEN &&
	       na->nla_len <= len) {
		if ((na->nla_type & NLA_TYPE_MASK) == type)
			return na;
		len -= NLA_ALIGN(na->nla_len);
		na = (void *)((char *)na + NLA_ALIGN(na->nla_len));
	}
	return NULL;
}

#define GENL_ATTRS(m)	((struct nlattr *)((char *)&(m)->g + GENL_HDRLEN))
#define GENL_ATTRLEN(m)	((int)(m)->n.nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN))

/*
 * A socket of this process's own, so that the replies are its own, and
 * open before a query, so that a query is one system call.
 */
static int taskstats_socket(__u16 *family)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	static pid_t owner;
	static __u16 id;
	static int fd = -1;
	struct nl_msg ans;
	struct nlattr *na;

	if (owner == getpid()) {
		*family = id;
		return fd;
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -1;
	na = NULL;
	if (!bind(fd, (struct sockaddr *)&sa, sizeof(sa)) &&
	    !genl_ask(fd, GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
		      CTRL_ATTR_FAMILY_NAME, TASKSTATS_GENL_NAME,
		      sizeof(TASKSTATS_GENL_NAME), &ans))
		na = nla_find(GENL_ATTRS(&ans), GENL_ATTRLEN(&ans),
			      CTRL_ATTR_FAMILY_ID);
	if (!na) {
		close(fd);
		fd = -1;
		return -1;
	}
	memcpy(&id, (char *)na + NLA_HDRLEN, sizeof(id));
	owner = getpid();
	*family = id;
	return fd;
}

int task_ticks(pid_t pid, struct task_total *t)
{
	struct taskstats ts;
	struct nl_msg ans;
	struct nlattr *na;
	__u32 p = pid;
	__u16 family;
	size_t len;
	int fd;

	fd = taskstats_socket(&family);
	if (fd < 0 ||
	    genl_ask(fd, family, TASKSTATS_CMD_GET, TASKSTATS_CMD_ATTR_PID,
		     &p, sizeof(p), &ans))
		return -1;
	na = nla_find(GENL_ATTRS(&ans), GENL_ATTRLEN(&ans),
		      TASKSTATS_TYPE_AGGR_PID);
	if (!na)
		return -1;
	na = nla_find((void *)((char *)na + NLA_HDRLEN),
		      na->nla_len - NLA_HDRLEN, TASKSTATS_TYPE_STATS);
	/* Any version's struct taskstats: the fields only ever grow. */
	len = na ? na->nla_len - NLA_HDRLEN : 0;
	if (len < offsetof(struct taskstats, ac_stime) + sizeof(ts.ac_stime))
		return -1;
	memcpy(&ts, (char *)na + NLA_HDRLEN, len < sizeof(ts) ? len : sizeof(ts));
	t->user_us = ts.ac_utime;
	t->sys_us = ts.ac_stime;
	return 0;
}

uint64_t proc_stat_ctxt(void)
{
	unsigned long long v = 0;
	char line[4096];
	FILE *f = fopen("/proc/stat", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "ctxt %llu", &v) == 1)
			break;
	}
	fclose(f);
	return v;
}

long meminfo_percpu_kb(void)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Percpu: %ld kB", &v) == 1)
			break;
	}
	fclose(f);
	return v;
}

long proc_cgroups_num(void)
{
	char line[256], name[64];
	long hier, num = -1, enabled;
	FILE *f = fopen("/proc/cgroups", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %ld %ld %ld", name, &hier, &num,
			   &enabled) == 4 && !strcmp(name, "cpuacct"))
			break;
		num = -1;
	}
	fclose(f);
	return num;
}

uint64_t task_switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return 0;
	return (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

uint64_t thread_cputime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

void sleep_ms(long ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (ms % 1000) * 1000000L,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

void burn_cpu(uint64_t cpu_ns)
{
	uint64_t start = thread_cputime_ns();
	unsigned long i, sink = 0;

	/*
	 * Reading the CPU clock is a system call: do it rarely, so that the
	 * work is nearly all user time.
	 */
	do {
		for (i = 0; i < (1UL << 16); i++) {
			sink += i;
			/* keep the loop */
			asm volatile("" : "+r" (sink));
		}
	} while (thread_cputime_ns() - start < cpu_ns);
}

#define CG_STABLE_MAX	64

int cg_read_stable(char **cgs, int n, const char *file, uint64_t *vals,
		   int tries, int ms)
{
	uint64_t prev[CG_STABLE_MAX];
	int i, t;

	if (n > CG_STABLE_MAX)
		ksft_exit_fail_msg("%s(): %d groups, at most %d\n", __func__,
				   n, CG_STABLE_MAX);
	for (t = 0; t < tries; t++) {
		bool same = t > 0;

		for (i = 0; i < n; i++) {
			if (cg_read_u64(cgs[i], file, &vals[i]))
				return -1;
			if (t && vals[i] != prev[i])
				same = false;
			prev[i] = vals[i];
		}
		if (same)
			return 0;
		sleep_ms(ms);
	}
	return -1;
}

/* Ping-pong protocol, see cpuacct_util.h. */
#define PP_READY	'R'
#define PP_PING		'm'
#define PP_PONG		'r'
#define PP_QUIT		'q'

struct pp_report {
	char who;
	int err;		/* enum pp_error */
	uint64_t sw[4];
	uint64_t pre_sw, post_sw;	/* A: around entering its group */
	uint64_t b_total_sw;	/* A: B's, from reap_exact() */
	int b_reaped;		/* A: what reap_exact() of B returned */
	long rounds, rounds2;
	uint64_t elapsed_ns;
};

static const char * const pp_errors[PP_E_NR] = {
	[PP_E_NONE]	= "no error",
	[PP_E_READY]	= "B: cannot send its ready byte",
	[PP_E_READ]	= "B: cannot read a ping",
	[PP_E_PONG]	= "B: bad ping, or cannot answer it",
	[PP_E_PIN]	= "cannot pin to the CPU",
	[PP_E_ENTER]	= "cannot enter the group",
	[PP_E_PIPE]	= "A: cannot create the pipes",
	[PP_E_FORK]	= "A: cannot fork B",
	[PP_E_B_READY]	= "A: no ready byte from B",
	[PP_E_PING]	= "A: a round trip failed",
	[PP_E_MOVE]	= "A: cannot move to the second group",
	[PP_E_PING2]	= "A: a round trip after the move failed",
	[PP_E_QUIT]	= "A: cannot tell B to quit",
	[PP_E_REAP_B]	= "A: B failed, or cannot be reaped",
	[PP_E_KICK]	= "A: cannot open the file to kick",
};

const char *pp_strerror(int err)
{
	if (err < 0 || err >= PP_E_NR || !pp_errors[err])
		return "unknown error";
	return pp_errors[err];
}

/* Without SCHED_FIFO, only the totals are inexact (reap_exact()). */

static int pp_xfer(int wfd, int rfd, char out, char expect)
{
	char c;

	if (wfd >= 0 && write(wfd, &out, 1) != 1)
		return -1;
	if (rfd >= 0 && (read(rfd, &c, 1) != 1 || c != expect))
		return -1;
	return 0;
}

int pp_echo(int rfd, int wfd, bool ready)
{
	char c;

	if (ready && pp_xfer(wfd, -1, PP_READY, 0))
		return PP_E_READY;
	for (;;) {
		if (read(rfd, &c, 1) != 1)
			return PP_E_READ;
		if (c == PP_QUIT)
			return PP_E_NONE;
		if (c != PP_PING || pp_xfer(wfd, -1, PP_PONG, 0))
			return PP_E_PONG;
	}
}

int pp_wait_ready(int rfd)
{
	return pp_xfer(-1, rfd, 0, PP_READY);
}

int pp_quit(int wfd)
{
	return pp_xfer(wfd, -1, PP_QUIT, 0);
}

static void pp_send(int fd, struct pp_report *r)
{
	if (write(fd, r, sizeof(*r)) != sizeof(*r))
		_exit(1);
}

/* B: with @xcpu >= 0, exits where A waits for it (reap_exact()) */
static void pp_task_b(const struct pp_spec *spec, int ping_rd, int pong_wr,
		      int res_wr, int xcpu)
{
	struct pp_report r = { .who = 'B' };
	int cpu = spec->b_apart ? spec->b_cpu : spec->cpu;

	/* In a group of its own: pinned again, as A is */
	if (spec->b_cg && cg_enter(spec->b_cg, getpid()))
		r.err = PP_E_ENTER;
	else if ((spec->b_cg || spec->b_apart) && cpu >= 0 && pin_to_cpu(cpu))
		r.err = PP_E_PIN;
	r.sw[0] = task_switches();
	if (!r.err)
		r.err = pp_echo(ping_rd, pong_wr, true);
	r.sw[1] = task_switches();
	if (xcpu >= 0)
		become_fifo_on(xcpu);
	pp_send(res_wr, &r);
	_exit(0);
}

/* Shared by the pairs of pingpong_many() and their caller */
struct pp_pairs {
	int ready;		/* A's at the start line (a futex) */
	int go;			/* set once all are (a futex) */
	int stop;
	long rounds[];		/* pair i's round trips so far */
};

/* Sleep if *@word is still @val, until woken (a futex of shared memory) */
static void futex_wait(int *word, int val)
{
	syscall(SYS_futex, word, FUTEX_WAIT, val, NULL, NULL, 0);
}

static void futex_wake_all(int *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* A of a run of pairs at the start line; with @wait, waits for the start. */
static void pp_arrive(struct pp_pairs *run, bool wait)
{
	INC(run->ready);
	futex_wake_all(&run->ready);
	while (wait && !GET(run->go))
		futex_wait(&run->go, 0);
}

/*
 * A's round trips, as pp_rounds() runs them; with @kick_fd >= 0, each
 * after a write of "1" to it; in a run of pairs (@run), until @run->stop,
 * counted as they go in @run->rounds[@id].
 */
static long pp_loop(int ping_wr, int pong_rd, long rounds,
		    uint64_t duration_ns, uint64_t *elapsed_ns, int kick_fd,
		    struct pp_pairs *run, int id)
{
	uint64_t start = 0, now = 0;
	long i;

	if (elapsed_ns || duration_ns)
		start = now_ns();
	now = start;
	for (i = 0; run || duration_ns || i < rounds; i++) {
		if (run) {
			if (GET(run->stop))
				break;
			/* Its one reader only adds them up: a plain store */
			__atomic_store_n(&run->rounds[id], i, __ATOMIC_RELAXED);
		}
		/* Check the clock rarely: it may be a slow system call. */
		if (duration_ns && !(i & 63)) {
			now = now_ns();
			if (now - start >= duration_ns)
				break;
		}
		if (kick_fd >= 0 && write(kick_fd, "1", 1) != 1)
			return -1;
		if (pp_xfer(ping_wr, pong_rd, PP_PING, PP_PONG))
			return -1;
	}
	if (!elapsed_ns)
		return i;
	if (!duration_ns)
		now = now_ns();
	*elapsed_ns = now - start;
	return i;
}

long pp_rounds(int ping_wr, int pong_rd, long rounds, uint64_t duration_ns,
	       uint64_t *elapsed_ns)
{
	return pp_loop(ping_wr, pong_rd, rounds, duration_ns, elapsed_ns, -1,
		       NULL, 0);
}

/*
 * A, forked with the caller's affinity, @mask its own; with @xcpu >= 0,
 * it and B exit on @xcpu, where the caller waits for A (reap_exact()).
 * In a run of pairs (pingpong_many()), pair @id of @run.
 */
static void pp_task_a(const struct pp_spec *spec, const cpu_set_t *mask,
		      int xcpu, int res_wr, struct pp_pairs *run, int id)
{
	struct pp_report r = { .who = 'A' };
	struct task_total bt = { 0 };
	int ping[2], pong[2], status, kick = -1;
	bool arrived = false;
	uint64_t elapsed;
	pid_t b;

	/*
	 * Pin before entering the group, so that no switch is charged to it
	 * on another CPU, and again after: entering a cpuset co-mounted with
	 * cpuacct would reset the affinity (a no-op otherwise).
	 */
	if (sched_setaffinity(0, sizeof(*mask), mask) ||
	    (spec->cpu >= 0 && pin_to_cpu(spec->cpu))) {
		ksft_print_msg("pin to CPU %d: %s\n", spec->cpu,
			       strerror(errno));
		r.err = PP_E_PIN;
		goto out;
	}
	r.pre_sw = task_switches();
	if (spec->cg && cg_enter(spec->cg, getpid())) {
		ksft_print_msg("enter %s failed\n", spec->cg);
		r.err = PP_E_ENTER;
		goto out;
	}
	r.post_sw = task_switches();
	if (spec->cpu >= 0 && pin_to_cpu(spec->cpu)) {
		r.err = PP_E_PIN;
		goto out;
	}
	if (spec->kick) {
		kick = open(spec->kick, O_WRONLY);
		if (kick < 0) {
			ksft_print_msg("open %s: %s\n", spec->kick,
				       strerror(errno));
			r.err = PP_E_KICK;
			goto out;
		}
	}
	if (pipe(ping) || pipe(pong)) {
		r.err = PP_E_PIPE;
		goto out;
	}
	b = fork();
	if (b < 0) {
		r.err = PP_E_FORK;
		goto out;
	}
	if (!b) {
		close(ping[1]);
		close(pong[0]);
		pp_task_b(spec, ping[0], pong[1], res_wr, xcpu);
	}
	close(ping[0]);
	close(pong[1]);

	r.sw[0] = task_switches();
	if (pp_wait_ready(pong[0])) {
		r.err = PP_E_B_READY;
		goto quit;
	}
	if (run) {
		pp_arrive(run, true);
		arrived = true;
	}
	r.rounds = pp_loop(ping[1], pong[0], spec->rounds, spec->duration_ns,
			   &r.elapsed_ns, kick, run, id);
	if (r.rounds < 0) {
		r.err = PP_E_PING;
		goto quit;
	}
	r.sw[1] = task_switches();
	if (spec->move_cg) {
		if (cg_enter(spec->move_cg, getpid())) {
			r.err = PP_E_MOVE;
			goto quit;
		}
		r.sw[2] = task_switches();
		if (spec->cpu >= 0 && pin_to_cpu(spec->cpu)) {
			r.err = PP_E_PIN;
			goto quit;
		}
		r.rounds2 = pp_rounds(ping[1], pong[0], spec->rounds2, 0,
				      &elapsed);
		if (r.rounds2 < 0) {
			r.err = PP_E_PING2;
			goto quit;
		}
	} else {
		r.sw[2] = r.sw[1];
	}
	r.sw[3] = task_switches();
quit:
	/* B exits where A, to wait for it, already is. */
	if (xcpu >= 0)
		become_fifo_on(xcpu);
	if (pp_quit(ping[1]))
		r.err = r.err ?: PP_E_QUIT;
	close(ping[1]);
	if (xcpu >= 0)
		r.b_reaped = reap_exact(b, xcpu, &bt, false);
	else if (waitpid(b, &status, 0) != b || !WIFEXITED(status) ||
		 WEXITSTATUS(status))
		r.b_reaped = -1;
	if (r.b_reaped < 0)
		r.err = r.err ?: PP_E_REAP_B;
	r.b_total_sw = bt.switches;
out:
	/* Failed before the start line: the others must not wait for it */
	if (run && !arrived)
		pp_arrive(run, false);
	if (xcpu >= 0)
		become_fifo_on(xcpu);
	pp_send(res_wr, &r);
	/* Only A's own messages: the caller flushed before forking. */
	fflush(stdout);
	_exit(0);
}

int pingpong(const struct pp_spec *spec, struct pp_result *res)
{
	int xcpu = -1, res_pipe[2], status, got = 0, err = 0, reaped;
	int b_reaped = -1;
	struct task_total at = { 0 };
	struct pp_report r;
	cpu_set_t mask;
	pid_t a;

	memset(res, 0, sizeof(*res));
	if (task_affinity(0, &mask) || pipe(res_pipe))
		return -1;
	/* Waiting for A on xcpu, from before A can exit */
	if (spec->exact) {
		xcpu = spec->cpu >= 0 ? spec->cpu : allowed_cpu(0);
		become_fifo_on(xcpu);
	}
	/* Or the children would inherit, and might print, our buffer. */
	fflush(stdout);
	a = fork();
	if (a < 0) {
		err = -1;
		goto out;
	}
	if (!a) {
		close(res_pipe[0]);
		pp_task_a(spec, &mask, xcpu, res_pipe[1], NULL, 0);
	}
	close(res_pipe[1]);
	res_pipe[1] = -1;

	while (read(res_pipe[0], &r, sizeof(r)) == sizeof(r)) {
		got |= r.who == 'A' ? 1 : 2;
		if (r.err) {
			ksft_print_msg("ping-pong task %c: %s\n",
				       r.who, pp_strerror(r.err));
			err = -1;
		}
		if (r.who == 'A') {
			memcpy(res->a_sw, r.sw, sizeof(res->a_sw));
			res->a_pre_sw = r.pre_sw;
			res->a_post_sw = r.post_sw;
			res->b_total_sw = r.b_total_sw;
			b_reaped = r.b_reaped;
			res->rounds = r.rounds;
			res->rounds2 = r.rounds2;
			res->elapsed_ns = r.elapsed_ns;
		} else {
			res->b_sw[0] = r.sw[0];
			res->b_sw[1] = r.sw[1];
		}
	}
	if (spec->exact)
		reaped = reap_exact(a, xcpu, &at, false);
	else
		reaped = waitpid(a, &status, 0) != a || !WIFEXITED(status) ||
			 WEXITSTATUS(status) ? -1 : 1;
	if (reaped < 0 || got != 3)
		err = -1;
	res->a_total_sw = at.switches;
	res->exact = !reaped && !b_reaped;
out:
	close(res_pipe[0]);
	if (res_pipe[1] >= 0)
		close(res_pipe[1]);
	if (spec->exact && become_normal(&mask))
		err = -1;
	return err;
}

/* The round trips of the @n pairs of @run so far */
static long pp_pairs_rounds(struct pp_pairs *run, int n)
{
	long sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += __atomic_load_n(&run->rounds[i], __ATOMIC_RELAXED);
	return sum;
}

int pingpong_many(const struct pp_spec *specs, int n, uint64_t duration_ns,
		  long *rounds, uint64_t *elapsed_ns)
{
	size_t size = sizeof(struct pp_pairs) + n * sizeof(long);
	int res_pipe[2], i, started, ready, status, got = 0, err = 0;
	struct pp_pairs *run;
	struct pp_report r;
	cpu_set_t mask;
	uint64_t start;
	pid_t *pids;
	long first;

	*rounds = 0;
	*elapsed_ns = 0;
	pids = calloc(n, sizeof(*pids));
	if (!pids || task_affinity(0, &mask) || pipe(res_pipe)) {
		free(pids);
		return -1;
	}
	run = cg_shared(size);
	/* Or the children would inherit, and might print, our buffer. */
	fflush(stdout);
	for (started = 0; started < n; started++) {
		pids[started] = fork();
		if (pids[started] < 0) {
			err = -1;
			break;
		}
		if (!pids[started]) {
			close(res_pipe[0]);
			pp_task_a(&specs[started], &mask, -1, res_pipe[1], run,
				  started);
		}
	}
	close(res_pipe[1]);

	/* Every B ready and every A at the start line: go */
	while ((ready = GET(run->ready)) < started)
		futex_wait(&run->ready, ready);
	SET(run->go, 1);
	futex_wake_all(&run->go);
	/*
	 * Counted after a warm-up: the round trips under way when the count
	 * starts, which it counts, are then about as many as those under way
	 * when it ends, which it does not.
	 */
	sleep_ms(duration_ns / 10 / 1000000);
	start = now_ns();
	first = pp_pairs_rounds(run, started);
	sleep_ms(duration_ns / 1000000);
	*rounds = pp_pairs_rounds(run, started) - first;
	*elapsed_ns = now_ns() - start;
	SET(run->stop, 1);

	while (read(res_pipe[0], &r, sizeof(r)) == sizeof(r)) {
		got++;
		if (r.err) {
			ksft_print_msg("ping-pong task %c: %s\n",
				       r.who, pp_strerror(r.err));
			err = -1;
		}
	}
	close(res_pipe[0]);
	for (i = 0; i < started; i++)
		if (waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			err = -1;
	if (got != 2 * started)
		err = -1;
	free(pids);
	munmap(run, size);
	return err;
}

static __printf(2, 3) void reader_fail(struct cg_readers_state *st,
				       const char *fmt, ...)
{
	va_list ap;

	if (GET(st->failed))
		return;
	va_start(ap, fmt);
	vsnprintf(st->why, sizeof(st->why), fmt, ap);
	va_end(ap);
	SET(st->failed, 1);
}

/* The totals that must never go down */
static const char * const reader_totals[] = {
	"cpuacct.usage", "cpuacct.nr_switches",
};

static void __noreturn reader(const struct cg_readers *r, bool has_sw)
{
	uint64_t last[CG_READERS_MAX_GROUPS][ARRAY_SIZE(reader_totals)] = { 0 };
	struct cg_readers_state *st = r->st;
	static uint64_t pc[CG_MAX_CPUS];
	static char buf[65536];
	unsigned int f;
	uint64_t v;
	int g, ret;

	while (!GET(st->stop)) {
		for (g = 0; g < r->n; g++) {
			const char *cg = r->groups[g];

			for (f = 0; f < CG_NR_FILES; f++) {
				if (!has_sw && cg_is_sw_file(cg_files[f]))
					continue;
				ret = cg_read(cg, cg_files[f], buf, sizeof(buf));
				if (ret || !buf[0])
					reader_fail(st, "%s/%s: %s", cg,
						    cg_files[f], ret ?
						    strerror(-ret) : "empty");
			}
			if (cg_read_percpu(cg, "cpuacct.usage_percpu", pc,
					   CG_MAX_CPUS) <= 0)
				reader_fail(st, "%s/cpuacct.usage_percpu: bad format",
					    cg);
			for (f = 0; f < ARRAY_SIZE(reader_totals); f++) {
				if (!has_sw && cg_is_sw_file(reader_totals[f]))
					continue;
				if (cg_read_u64(cg, reader_totals[f], &v)) {
					reader_fail(st, "%s/%s: bad format", cg,
						    reader_totals[f]);
					continue;
				}
				if (v < last[g][f])
					reader_fail(st, "%s/%s: %llu after %llu",
						    cg, reader_totals[f],
						    (unsigned long long)v,
						    (unsigned long long)last[g][f]);
				last[g][f] = v;
			}
		}
		INC(st->reads);
		/* It comes and goes: only a successful read counts. */
		if (r->vanishing &&
		    !cg_read(r->vanishing, "cpuacct.usage_all", buf, sizeof(buf))) {
			if (strncmp(buf, "cpu user system\n", 16))
				reader_fail(st, "%s/cpuacct.usage_all: bad format",
					    r->vanishing);
			INC(st->vanishing_reads);
		}
		if (r->pause_us)
			usleep(r->pause_us);
	}
	_exit(0);
}

void cg_readers_start(struct cg_readers *r)
{
	pid_t ppid = getpid();
	bool has_sw = cg_has_nr_switches();
	int i;

	if (r->nr < 1 || r->nr > CG_MAX_READERS || r->n < 1 ||
	    r->n > CG_READERS_MAX_GROUPS)
		ksft_exit_fail_msg("readers: %d of %d groups, at most %d of %d\n",
				   r->nr, r->n, CG_MAX_READERS,
				   CG_READERS_MAX_GROUPS);
	if (!r->st)
		r->st = cg_shared(sizeof(*r->st));
	memset(r->st, 0, sizeof(*r->st));
	/* Or the children would inherit, and might print, our buffer. */
	fflush(stdout);
	for (i = 0; i < r->nr; i++) {
		r->pids[i] = fork();
		if (r->pids[i] < 0)
			ksft_exit_fail_perror("fork of a reader");
		if (r->pids[i])
			continue;
		/* Killed with the test, never left running */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != ppid)
			_exit(1);
		if (r->pin)
			pin_to_cpu(allowed_cpu(i));
		reader(r, has_sw);
	}
}

bool cg_readers_stop(struct cg_readers *r)
{
	int i, status;

	SET(r->st->stop, 1);
	for (i = 0; i < r->nr; i++)
		if (waitpid(r->pids[i], &status, 0) != r->pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			reader_fail(r->st, "reader %d failed", (int)r->pids[i]);
	if (GET(r->st->failed))
		ksft_print_msg("reader: %s\n", r->st->why);
	return !GET(r->st->failed);
}
