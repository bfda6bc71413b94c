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

/* Each written whole (strlen()), "" as a write of 0 bytes */
static const struct write_input {
	const char *name;
	const char *buf;
	int ret;
} inputs[] = {
	{ "one",		"1",			-EINVAL },
	{ "minus_one",		"-1",			-EINVAL },
	{ "abc",		"abc",			-EINVAL },
	{ "empty",		"",			0 },
	{ "newline",		"\n",			-EINVAL },
	{ "2^64",		"18446744073709551616",	-ERANGE },
	{ "2^64-1",		"18446744073709551615",	-EINVAL },
	{ "leading_blank",	" 0",			-EINVAL },
	{ "two_numbers",	"0 0",			-EINVAL },
};

/* The files a write of "0" resets; the others of cg_files[] are read-only */
static const char * const writable[] = {
	"cpuacct.usage", "cpuacct.nr_switches",
};

static bool has_sw;
static char *cg;
static char before[65536], after[65536];

static bool is_writable(const char *file)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(writable); i++)
		if (!strcmp(file, writable[i]))
			return true;
	return false;
}

/* The contents of all the group's files, concatenated. */
static int dump(char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i;
	int n;

	for (i = 0; i < CG_NR_FILES; i++) {
		if (cg_is_sw_file(cg_files[i]) && !has_sw)
			continue;
		if (cg_read(cg, cg_files[i], buf + off, len - off))
			return -1;
		n = strlen(buf + off);
		if (!n)
			return -1;
		off += n;
	}
	return 0;
}

/* Read until two dumps 50 ms apart agree: the last charges have landed. */
static int settle(void)
{
	int i;

	if (dump(before, sizeof(before)))
		return -1;
	for (i = 0; i < 40; i++) {
		sleep_ms(50);
		if (dump(after, sizeof(after)))
			return -1;
		if (!strcmp(before, after))
			return 0;
		memcpy(before, after, sizeof(before));
	}
	return -1;
}

/* The group, with some work done in it so that its values are not 0. */
static void setup(void)
{
	struct pp_spec spec = { .cpu = -1, .rounds = 50 };
	struct pp_result r;
	uint64_t v;

	cg = cg_make(cg_test_name("input"), "");
	spec.cg = cg;
	if (pingpong(&spec, &r))
		ksft_exit_fail_msg("ping-pong failed\n");
	if (settle())
		ksft_exit_fail_msg("cannot read the group\n");
	if (cg_read_u64(cg, "cpuacct.usage", &v) || !v)
		ksft_exit_fail_msg("no usage charged\n");
}

static bool has_file(const char *file)
{
	if (cg_is_sw_file(file) && !has_sw) {
		ksft_print_msg("%s: no such file\n", file);
		return false;
	}
	return true;
}

/*
 * Write @buf to @file; returns 0 or -errno, as the write did, and in
 * *same whether the group's files read the same after it.
 */
static int write_same(const char *file, const char *buf, bool *same)
{
	int ret;

	*same = false;
	if (dump(before, sizeof(before))) {
		ksft_print_msg("cannot read the group\n");
		return 0;
	}
	ret = cg_write(cg, file, buf);
	*same = !dump(after, sizeof(after)) && !strcmp(before, after);
	return ret;
}

/* Writing @in to @file returns its error (or 0) and changes nothing. */
static int test_write_input(const char *file, const struct write_input *in)
{
	bool same;
	int ret;

	if (!has_file(file))
		return KSFT_SKIP;
	ret = write_same(file, in->buf, &same);
	if (ret == in->ret && same)
		return KSFT_PASS;
	ksft_print_msg("%s '%s': %s (expected %s)%s\n", file, in->buf,
		       strerror(-ret), strerror(-in->ret),
		       same ? "" : ", value changed");
	return KSFT_FAIL;
}

/* "0x0" is 0 in base 0: a valid reset. */
static int test_reset_0x0(const char *file)
{
	uint64_t v;

	if (!has_file(file))
		return KSFT_SKIP;
	return !cg_write(cg, file, "0x0") && !cg_read_u64(cg, file, &v) &&
	       v == 0 ? KSFT_PASS : KSFT_FAIL;
}

/* Writing 0 to the root is accepted and resets nothing. */
static int test_root_reset_ignored(const char *file)
{
	uint64_t r0, r1;

	if (!has_file(file))
		return KSFT_SKIP;
	return !cg_read_u64(cg_root, file, &r0) && r0 &&
	       !cg_write(cg_root, file, "0") &&
	       !cg_read_u64(cg_root, file, &r1) && r1 >= r0 ?
	       KSFT_PASS : KSFT_FAIL;
}

/* A write to a read-only file fails and changes nothing. */
static int test_readonly(const char *file)
{
	bool same;
	int ret;

	if (!has_file(file))
		return KSFT_SKIP;
	ret = write_same(file, "0", &same);
	if ((ret == -EACCES || ret == -EINVAL) && same)
		return KSFT_PASS;
	ksft_print_msg("%s: write returned %d%s\n", file, ret,
		       same ? "" : ", value changed");
	return KSFT_FAIL;
}

/* The writable files, and only they, have a write permission bit. */
static int test_file_modes(void)
{
	struct stat st;
	unsigned int i;
	bool ok = true;

	for (i = 0; i < CG_NR_FILES; i++) {
		char path[4096];

		if (cg_is_sw_file(cg_files[i]) && !has_sw)
			continue;
		snprintf(path, sizeof(path), "%s/%s", cg, cg_files[i]);
		if (stat(path, &st) || !!(st.st_mode & 0222) != is_writable(cg_files[i])) {
			ksft_print_msg("%s: mode %o\n", cg_files[i],
				       st.st_mode & 0777);
			ok = false;
		}
	}
	return ok ? KSFT_PASS : KSFT_FAIL;
}

/*
 * The tests are those of the tables: each input written to each writable
 * file, then its resets; a write to each read-only file; the files' modes.
 */
int main(void)
{
	unsigned int f, i;

	ksft_print_header();
	if (cg_setup())
		ksft_exit_skip("cgroup v1 cpuacct controller not available\n");
	has_sw = cg_has_nr_switches();

	ksft_set_plan(ARRAY_SIZE(writable) * (ARRAY_SIZE(inputs) + 2) +
		      CG_NR_FILES - ARRAY_SIZE(writable) + 1);
	setup();

	for (f = 0; f < ARRAY_SIZE(writable); f++) {
		const char *file = writable[f];

		for (i = 0; i < ARRAY_SIZE(inputs); i++)
			cg_report(test_write_input(file, &inputs[i]), "%s_%s",
				  file, inputs[i].name);
		cg_report(test_reset_0x0(file), "%s_reset_0x0", file);
		cg_report(test_root_reset_ignored(file),
			  "%s_root_reset_ignored", file);
	}
	for (i = 0; i < CG_NR_FILES; i++)
		if (!is_writable(cg_files[i]))
			cg_report(test_readonly(cg_files[i]), "readonly %s",
				  cg_files[i]);
	cg_report(test_file_modes(), "file_modes");

	ksft_finished();
}
