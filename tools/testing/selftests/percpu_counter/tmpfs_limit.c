// SPDX-License-Identifier: GPL-2.0
/*
 * Cost of one page allocated and freed again in a tmpfs, near its size=
 * limit and far from it.
 *
 * tmpfs charges its blocks with percpu_counter_limited_add() on a counter
 * limited to the size of the mount.  Within percpu_counter_batch *
 * num_online_cpus() pages of that limit, every allocation takes the slow
 * path of __percpu_counter_limited_add() (the counter's lock and an exact
 * sum); far from it, the fast path.  The same loop in both mounts, on one
 * CPU: the difference is the cost of the slow path.
 *
 * Usage: tmpfs_limit NEAR_DIR FAR_DIR [duration_ms]	(default 1000)
 *   NEAR_DIR is on a small tmpfs, which the program fills to a few pages
 *   below its limit; FAR_DIR on a large one.
 * Prints: # bench: tmpfs_{near,far}_limit_ns=<n> ns	(per page), and
 *	   # bench: limited_add_slow_path_ns=<near - far> ns
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <time.h>
#include <unistd.h>

/* Pages left free below the limit: far fewer than the batch */
#define MARGIN	4
/* The most a fill may take: the near mount is meant to be small */
#define MAX_FILL	(64ULL << 20)

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* Tenths of nanoseconds per page allocated and freed in DIR, 0 on error */
static uint64_t page_loop(const char *dir, int fill, uint64_t duration_ns)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t start, now, loops = 0;
	struct statvfs sv;
	struct statfs sf;
	char path[4096];
	off_t off = 0;
	int fd, i;

	snprintf(path, sizeof(path), "%s/tmpfs_limit", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || fstatvfs(fd, &sv) || fstatfs(fd, &sf)) {
		perror(path);
		return 0;
	}
	unlink(path);
	/* Never fill anything but a small tmpfs */
	if (sf.f_type != TMPFS_MAGIC) {
		fprintf(stderr, "%s: not a tmpfs\n", dir);
		return 0;
	}
	if (fill) {
		if (sv.f_bfree <= MARGIN ||
		    (sv.f_bfree - MARGIN) * (uint64_t)page > MAX_FILL) {
			fprintf(stderr, "%s: tmpfs empty or over 64 MiB\n", dir);
			return 0;
		}
		off = (off_t)(sv.f_bfree - MARGIN) * page;
		if (fallocate(fd, 0, 0, off)) {
			perror("fallocate (fill)");
			return 0;
		}
	}

	start = now_ns();
	do {
		for (i = 0; i < 64; i++) {
			if (fallocate(fd, 0, off, page) ||
			    fallocate(fd, FALLOC_FL_PUNCH_HOLE |
				      FALLOC_FL_KEEP_SIZE, off, page)) {
				perror("fallocate");
				return 0;
			}
		}
		loops += 64;
		now = now_ns();
	} while (now - start < duration_ns);

	close(fd);
	return (now - start) * 10 / loops;
}

int main(int argc, char **argv)
{
	unsigned long duration_ms = 1000;
	uint64_t near, far;

	if (argc > 3) {
		char *end;

		duration_ms = strtoul(argv[3], &end, 0);
		if (*end || !duration_ms)
			argc = 0;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: %s NEAR_DIR FAR_DIR [duration_ms]\n",
			argv[0]);
		return 2;
	}

	near = page_loop(argv[1], 1, duration_ms * 1000000ULL);
	far = page_loop(argv[2], 0, duration_ms * 1000000ULL);
	if (!near || !far)
		return 1;
	printf("# bench: tmpfs_near_limit_ns=%.1f ns\n", near / 10.0);
	printf("# bench: tmpfs_far_limit_ns=%.1f ns\n", far / 10.0);
	printf("# bench: limited_add_slow_path_ns=%.1f ns\n",
	       ((double)near - (double)far) / 10.0);
	return 0;
}
