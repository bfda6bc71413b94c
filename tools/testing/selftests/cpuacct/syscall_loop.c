// SPDX-License-Identifier: GPL-2.0
/*
 * An invalid system call in a loop, on one CPU: the microbenchmark of Rik
 * van Riel's "sched,time: remove non-power-of-two divides from
 * __acct_update_integrals" (2016).
 *
 *   syscall_loop [-c CPU] [-t RUN_MS] [NAME]
 *
 * Pins itself to CPU (default: the last one it may run on), calls a system
 * call number no kernel has for RUN_MS ms (default 500) and prints
 *   # bench: NAME=<ns per call> ns
 * Under QEMU's -icount shift=0, guest nanoseconds count instructions.  On
 * a nohz_full CPU every call accounts the time since the last kernel entry
 * or exit (vtime), which is where cpuacct could add cost.  A benchmark
 * program, not a test: it is built, not run by kselftest.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "cpuacct_util.h"

#define NR_INVALID	100000
/* Calls between two clock reads */
#define CHUNK		1000

int main(int argc, char **argv)
{
	const char *name = "syscall_ns";
	uint64_t start, ns, calls = 0;
	long run_ms = 500;
	int cpu = -1, o, i;
	cpu_set_t set;

	while ((o = getopt(argc, argv, "c:t:")) != -1) {
		switch (o) {
		case 'c':
			cpu = atoi(optarg);
			break;
		case 't':
			run_ms = atol(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-c CPU] [-t RUN_MS] [NAME]\n",
				argv[0]);
			return 2;
		}
	}
	if (optind < argc)
		name = argv[optind];
	if (cpu < 0) {
		if (sched_getaffinity(0, sizeof(set), &set))
			return 1;
		for (i = 0; i < CPU_SETSIZE; i++)
			if (CPU_ISSET(i, &set))
				cpu = i;
	}
	if (pin_to_cpu(cpu)) {
		perror("sched_setaffinity");
		return 1;
	}

	start = now_ns();
	do {
		for (i = 0; i < CHUNK; i++)
			if (syscall(NR_INVALID) != -1) {
				fprintf(stderr, "syscall %d did not fail\n",
					NR_INVALID);
				return 1;
			}
		calls += CHUNK;
		ns = now_ns() - start;
	} while (ns < run_ms * 1000000ULL);
	printf("# bench: %s=%.1f ns\n", name, (double)ns / calls);
	return 0;
}
