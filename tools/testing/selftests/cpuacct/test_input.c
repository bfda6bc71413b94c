// SPDX-License-Identifier: GPL-2.0
/*
 * Writes to cpuacct files: only "0" resets cpuacct.usage and
 * cpuacct.nr_switches; anything else is rejected and changes nothing;
 * the other files are read-only.
 *
 * What the kernel does with a write (kernel/cgroup/cgroup.c,
 * cgroup_file_write()):
 *  - a write of 0 bytes returns 0 before any parsing: accepted, ignored;
 *  - otherwise the buffer goes to kstrtoull(buf, 0, &v) as is (no
 *    strstrip()): an optional '+', a number in base 0 (0x.. hex, 0..
 *    octal), one optional trailing newline and nothing else; no sign, no
 *    blanks: EINVAL; more than 64 bits: ERANGE (2^64 is ERANGE, not
 *    EINVAL);
 *  - then the file's write_u64() rejects any value but 0 with EINVAL.
 * Read-only files (no write handler) are mode 0444, but the cgroup
 * file system does not set KERNFS_ROOT_EXTRA_OPEN_PERM_CHECK, so root,
 * with CAP_DAC_OVERRIDE, may open them for writing; the write then fails
 * in cgroup_file_write() with EINVAL.  Without that capability the open
 * fails with EACCES.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cpuacct_util.h"

static const struct {
	const char *name;
	const char *buf;
	size_t len;
	int ret;
} inputs[] = {
	{ "one",		"1",			1,	-EINVAL },
	{ "minus_one",		"-1",			2,	-EINVAL },
	{ "abc",		"abc",			3,	-EINVAL },
	{ "empty",		"",			0,	0 },
	{ "newline",		"\n",			1,	-EINVAL },
	{ "2^64",		"18446744073709551616",	20,	-ERANGE },
	{ "2^64-1",		"18446744073709551615",	20,	-EINVAL },
	{ "leading_blank",	" 0",			2,	-EINVAL },
	{ "two_numbers",	"0 0",			3,	-EINVAL },
};

static const char * const values[] = {
	"cpuacct.usage", "cpuacct.usage_percpu", "cpuacct.usage_user",
	"cpuacct.usage_sys", "cpuacct.usage_percpu_user",
	"cpuacct.usage_percpu_sys", "cpuacct.usage_all", "cpuacct.stat",
	"cpuacct.nr_switches", "cpuacct.nr_switches_percpu",
};

#define NR_VALUES ARRAY_SIZE(values)

static const char * const readonly[] = {
	"cpuacct.usage_percpu", "cpuacct.usage_user", "cpuacct.usage_sys",
	"cpuacct.usage_percpu_user", "cpuacct.usage_percpu_sys",
	"cpuacct.usage_all", "cpuacct.stat", "cpuacct.nr_switches_percpu",
};

#define NR_READONLY ARRAY_SIZE(readonly)

static bool has_sw;

static bool is_sw_file(const char *file)
{
	return !strncmp(file, "cpuacct.nr_switches", 19);
}

/* The contents of all the group's files, concatenated. */
static int dump(const char *cg, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i;
	int n;

	for (i = 0; i < NR_VALUES; i++) {
		if (is_sw_file(values[i]) && !has_sw)
			continue;
		n = cg_read(cg, values[i], buf + off, len - off);
		if (n <= 0)
			return -1;
		off += n;
	}
	return 0;
}

/* Read until two dumps 50 ms apart agree: the last charges have landed. */
static int settle(const char *cg, char *buf, char *tmp, size_t len)
{
	int i;

	if (dump(cg, buf, len))
		return -1;
	for (i = 0; i < 40; i++) {
		sleep_ms(50);
		if (dump(cg, tmp, len))
			return -1;
		if (!strcmp(buf, tmp))
			return 0;
		memcpy(buf, tmp, len);
	}
	return -1;
}

int main(void)
{
	static char before[65536], after[65536];
	static const char * const files[] = {
		"cpuacct.usage", "cpuacct.nr_switches",
	};
	struct pp_spec spec = { .cpu = -1, .rounds = 50 };
	uint64_t v, r0, r1;
	struct pp_result r;
	unsigned int f, i;
	struct stat st;
	char *cg;
	bool ok;
	int ret;

	ksft_print_header();
	if (cg_setup())
		ksft_exit_skip("cgroup v1 cpuacct controller not available\n");
	has_sw = cg_has_nr_switches();

	ksft_set_plan(2 * (ARRAY_SIZE(inputs) + 2) +
		      NR_READONLY + 1);

	cg = cg_create(cg_test_name("input"));
	if (!cg)
		ksft_exit_fail_msg("cannot create group\n");
	/* Some work in the group, so that its values are not 0. */
	spec.cg = cg;
	if (pingpong(&spec, &r))
		ksft_exit_fail_msg("ping-pong failed\n");
	if (settle(cg, before, after, sizeof(before)))
		ksft_exit_fail_msg("cannot read the group\n");
	if (cg_read_u64(cg, "cpuacct.usage", &v) || !v)
		ksft_exit_fail_msg("no usage charged\n");

	for (f = 0; f < 2; f++) {
		bool skip = is_sw_file(files[f]) && !has_sw;

		for (i = 0; i < ARRAY_SIZE(inputs); i++) {
			if (skip) {
				ksft_test_result_skip("%s_%s: no such file\n",
						      files[f], inputs[i].name);
				continue;
			}
			ret = cg_write(cg, files[f], inputs[i].buf,
				       inputs[i].len);
			ok = ret == inputs[i].ret &&
			     !dump(cg, after, sizeof(after)) &&
			     !strcmp(before, after);
			if (!ok)
				ksft_print_msg("%s '%s': %s (expected %s)%s\n",
					       files[f], inputs[i].buf,
					       strerror(-ret),
					       strerror(-inputs[i].ret),
					       strcmp(before, after) ?
					       ", value changed" : "");
			ksft_test_result(ok, "%s_%s\n", files[f],
					 inputs[i].name);
		}

		if (skip) {
			ksft_test_result_skip("%s_reset_0x0: no such file\n",
					      files[f]);
			ksft_test_result_skip("%s_root_reset_ignored: no such file\n",
					      files[f]);
			continue;
		}

		/* "0x0" is 0 in base 0: a valid reset. */
		ok = !cg_write_str(cg, files[f], "0x0") &&
		     !cg_read_u64(cg, files[f], &v) && v == 0;
		ksft_test_result(ok, "%s_reset_0x0\n", files[f]);

		/* Writing 0 to the root is accepted and resets nothing. */
		ok = !cg_read_u64(cg_root, files[f], &r0) && r0 &&
		     !cg_write_str(cg_root, files[f], "0") &&
		     !cg_read_u64(cg_root, files[f], &r1) && r1 >= r0;
		ksft_test_result(ok, "%s_root_reset_ignored\n", files[f]);
		/* Later inputs compare against the reset state. */
		if (dump(cg, before, sizeof(before)))
			ksft_exit_fail_msg("cannot read the group\n");
	}

	for (i = 0; i < NR_READONLY; i++) {
		if (is_sw_file(readonly[i]) && !has_sw) {
			ksft_test_result_skip("readonly %s: no such file\n",
					      readonly[i]);
			continue;
		}
		if (dump(cg, before, sizeof(before)))
			ksft_exit_fail_msg("cannot read the group\n");
		ret = cg_write_str(cg, readonly[i], "0");
		ok = (ret == -EACCES || ret == -EINVAL) &&
		     !dump(cg, after, sizeof(after)) && !strcmp(before, after);
		if (!ok)
			ksft_print_msg("%s: write returned %d\n", readonly[i],
				       ret);
		ksft_test_result(ok, "readonly %s\n", readonly[i]);
	}

	/* The writable files, and only they, have a write permission bit. */
	ok = true;
	for (i = 0; i < NR_VALUES; i++) {
		char path[4096];
		bool writable = !strcmp(values[i], "cpuacct.usage") ||
				!strcmp(values[i], "cpuacct.nr_switches");

		if (is_sw_file(values[i]) && !has_sw)
			continue;
		snprintf(path, sizeof(path), "%s/%s", cg, values[i]);
		if (stat(path, &st) || !!(st.st_mode & 0222) != writable) {
			ksft_print_msg("%s: mode %o\n", values[i],
				       st.st_mode & 0777);
			ok = false;
		}
	}
	ksft_test_result(ok, "file_modes\n");

	ksft_finished();
}
