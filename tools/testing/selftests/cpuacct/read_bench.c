// SPDX-License-Identifier: GPL-2.0
/*
 * Cost of reading cpuacct files.
 *
 *   read_bench [-n READS] NAME=PATH...
 *
 * Pins itself to CPU 0, reads each PATH (a whole file, from offset 0)
 * READS times (default 200) after a few warm-up reads, and prints
 *   # bench: read_NAME=<ns per read> ns
 * Under QEMU's -icount shift=0, guest nanoseconds count instructions: the
 * cost of the system call, of kernfs and of cpuacct's summing together.
 * A PATH that does not exist (cpuacct.nr_switches on a stock kernel) is
 * skipped.  A benchmark program, not a test: it is built, not run by
 * kselftest.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpuacct_util.h"

#define WARMUP	5

int main(int argc, char **argv)
{
	static char buf[65536];
	uint64_t start, ns;
	long reads = 200, i;
	int o, fd;

	while ((o = getopt(argc, argv, "n:")) != -1) {
		switch (o) {
		case 'n':
			reads = atol(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-n READS] NAME=PATH...\n",
				argv[0]);
			return 2;
		}
	}
	if (reads <= 0 || pin_to_cpu(0)) {
		perror("read_bench");
		return 1;
	}
	for (; optind < argc; optind++) {
		char *name = argv[optind], *path = strchr(name, '=');

		if (!path)
			return 2;
		*path++ = '\0';
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		for (i = 0; i < WARMUP; i++)
			if (pread(fd, buf, sizeof(buf), 0) <= 0)
				return 1;
		start = now_ns();
		for (i = 0; i < reads; i++)
			if (pread(fd, buf, sizeof(buf), 0) <= 0)
				return 1;
		ns = now_ns() - start;
		close(fd);
		printf("# bench: read_%s=%.1f ns\n", name, (double)ns / reads);
	}
	return 0;
}
