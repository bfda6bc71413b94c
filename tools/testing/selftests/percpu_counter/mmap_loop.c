// SPDX-License-Identifier: GPL-2.0
/*
 * mmap/munmap loop from every online CPU.
 *
 * Each process maps 128 MiB of private anonymous memory and unmaps it again,
 * in a loop, for the given number of milliseconds.  The mapping is writable
 * and private, so every mmap() and munmap() adds 32768 pages to, or removes
 * them from, the committed memory (vm_committed_as, a percpu_counter): with
 * one process pinned to each online CPU this is a fold-heavy percpu_counter
 * workload.  The pages are never touched.
 *
 * Usage: mmap_loop [duration_ms]	(default 1000)
 * Prints: # bench: mmap_munmap_loops_per_cpu=<n> loops/s
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAP_BYTES	(128UL << 20)

struct result {
	uint64_t loops;
	uint64_t ns;
	int error;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void child(int cpu, uint64_t duration_ns, struct result *res)
{
	uint64_t start, now, loops = 0;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		res->error = errno;
		_exit(1);
	}

	start = now_ns();
	do {
		void *p = mmap(NULL, MAP_BYTES, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED || munmap(p, MAP_BYTES)) {
			res->error = errno;
			_exit(1);
		}
		loops++;
		now = now_ns();
	} while (now - start < duration_ns);

	res->loops = loops;
	res->ns = now - start;
	_exit(0);
}

int main(int argc, char **argv)
{
	unsigned long duration_ms = 1000;
	struct result *res;
	cpu_set_t online;
	uint64_t rate = 0;
	int cpu, nr = 0, failed = 0;
	pid_t *pids;

	if (argc > 1) {
		char *end;

		duration_ms = strtoul(argv[1], &end, 0);
		if (*end || !duration_ms) {
			fprintf(stderr, "usage: %s [duration_ms]\n", argv[0]);
			return 2;
		}
	}

	if (sched_getaffinity(0, sizeof(online), &online)) {
		perror("sched_getaffinity");
		return 1;
	}

	res = mmap(NULL, CPU_SETSIZE * sizeof(*res), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pids = calloc(CPU_SETSIZE, sizeof(*pids));
	if (res == MAP_FAILED || !pids) {
		perror("allocating results");
		return 1;
	}

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &online))
			continue;
		pids[cpu] = fork();
		if (pids[cpu] < 0) {
			perror("fork");
			failed = 1;
			break;
		}
		if (!pids[cpu])
			child(cpu, duration_ms * 1000000ULL, &res[cpu]);
		nr++;
	}

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		int status;

		if (pids[cpu] <= 0)
			continue;
		if (waitpid(pids[cpu], &status, 0) < 0 ||
		    !WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "cpu %d: %s\n", cpu,
				res[cpu].error ? strerror(res[cpu].error) :
						 "child failed");
			failed = 1;
			continue;
		}
		if (res[cpu].ns)
			rate += res[cpu].loops * 1000000000ULL / res[cpu].ns;
	}
	if (failed || !nr)
		return 1;

	printf("# bench: mmap_munmap_loops_per_cpu=%llu loops/s\n",
	       (unsigned long long)(rate / nr));
	return 0;
}
