/* test_outpath.c - the one rule for every path rebench writes (outpath.c)
 * and the memory estimate (memory.c).
 *
 * outpath: a regular file or a new name in an existing directory passes and
 * leaves nothing behind; a directory, a FIFO, a character device, a path
 * through a regular file, a missing directory and a name over NAME_MAX are
 * refused with the reason; outpath_open() replaces a regular file's
 * contents, refuses a FIFO without blocking, and never truncates what is
 * not a regular file.  The temporary directories are made in TMPDIR when
 * it is an absolute path, else in /tmp, and refused with a message when
 * the name does not fit.  memory: the estimate grows as the cases do
 * (-c 64 -g 1ms -d 1h is about 6.3 GB of series), and a budget below it
 * refuses the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "capture.h"
#include "engines/engine.h"
#include "core/memory.h"
#include "core/memory_check.h"
#include "core/outpath.h"
#include "core/workload.h"

static char dir[] = "/tmp/rebench-outpath.XXXXXX";
static char path[4096], err[8192];

static const char *in_dir(const char *name)
{
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void expect_refused(const char *p, const char *why)
{
	err[0] = '\0';
	if (!outpath_check("--output", p, err, sizeof(err)))
		fail_msg("%s passed the check", p);
	if (!strstr(err, why))
		fail_msg("refusal of %s: want \"%s\" in \"%s\"", p, why, err);
}

static void test_new_name_passes_and_leaves_nothing(void **state)
{
	struct stat st;

	(void)state;
	assert_int_equal(0, outpath_check("--output", in_dir("new.tsv"), err, sizeof(err)));
	assert_int_equal(-1, stat(path, &st));
	assert_int_equal(ENOENT, errno);
}

static void test_regular_file_passes_untouched(void **state)
{
	struct stat st;
	FILE *f = fopen(in_dir("old.tsv"), "w");

	(void)state;
	assert_non_null(f);
	fputs("keep me\n", f);
	fclose(f);
	assert_int_equal(0, outpath_check("--output", path, err, sizeof(err)));
	assert_int_equal(0, stat(path, &st));
	assert_int_equal(8, st.st_size);	/* checked, not truncated */
}

static void test_refusals(void **state)
{
	char longname[400];

	(void)state;
	expect_refused(dir, "it is a directory");
	expect_refused("/dev/null", "it is a character device");
	assert_int_equal(0, mkfifo(in_dir("fifo"), 0600));
	expect_refused(path, "it is a FIFO");
	fclose(fopen(in_dir("file"), "w"));
	expect_refused(in_dir("file/x.tsv"), "a part of the path is not a directory");
	expect_refused(in_dir("missing/x.tsv"), "the directory does not exist");
	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	expect_refused(in_dir(longname), "File name too long");
	expect_refused("", "the file name is empty");
}

static void test_open_replaces_a_regular_file(void **state)
{
	char buf[64] = "";
	FILE *f;

	(void)state;
	f = fopen(in_dir("replace.tsv"), "w");
	fputs("old old old old\n", f);
	fclose(f);
	f = outpath_open("--output", path);
	assert_non_null(f);
	fputs("new\n", f);
	assert_int_equal(0, outpath_close("--output", path, f));
	f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal("new\n", buf);
}

static void test_open_refuses_fifo_without_blocking(void **state)
{
	(void)state;
	mkfifo(in_dir("fifo2"), 0600);
	capture_begin();
	assert_null(outpath_open("--output", path));	/* returns: no hang */
	capture_end();
	expect_message("outpath_open on a FIFO", "FIFO", NULL);
	capture_begin();
	assert_null(outpath_open("--plot", "/dev/null"));
	capture_end();
	expect_message("outpath_open on /dev/null",
		       "--plot /dev/null: refusing to write there: it is a character device", NULL);
}

/* TMPDIR: an absolute one is used, a relative one or none is not */
static void test_tmpdir_honours_tmpdir(void **state)
{
	char want[4200], made[OUTPATH_TMPDIR_MAX], tiny[24];
	char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
	struct stat st;

	(void)state;
	setenv("TMPDIR", dir, 1);
	assert_int_equal(0, outpath_make_tmpdir("--plot", "plot", made, sizeof(made)));
	snprintf(want, sizeof(want), "%s/rebench-plot.", dir);
	assert_true(strncmp(made, want, strlen(want)) == 0);
	assert_int_equal(strlen(want) + 6, strlen(made));
	assert_int_equal(0, stat(made, &st));
	assert_true(S_ISDIR(st.st_mode) && (st.st_mode & 07777) == 0700);
	outpath_remove_tmpdir(made);
	assert_int_equal(-1, stat(made, &st));

	setenv("TMPDIR", "relative", 1);
	assert_int_equal(0, outpath_make_tmpdir("--plot", "sweep", made, sizeof(made)));
	assert_true(strncmp(made, "/tmp/rebench-sweep.", 19) == 0);
	outpath_remove_tmpdir(made);
	unsetenv("TMPDIR");
	assert_int_equal(0, outpath_make_tmpdir("--plot", "sweep", made, sizeof(made)));
	assert_true(strncmp(made, "/tmp/rebench-sweep.", 19) == 0);
	outpath_remove_tmpdir(made);

	setenv("TMPDIR", in_dir("none"), 1);
	capture_begin();
	assert_int_equal(-ENOENT, outpath_make_tmpdir("--advise", "advise", made, sizeof(made)));
	capture_end();
	expect_message("TMPDIR missing", "rebench: --advise: cannot make a temporary directory in",
		       "/none (TMPDIR): No such file or directory", NULL);
	setenv("TMPDIR", dir, 1);
	capture_begin();
	assert_int_equal(-ENAMETOOLONG, outpath_make_tmpdir("--plot", "plot", tiny, sizeof(tiny)));
	capture_end();
	expect_message("TMPDIR too long", "cannot make a temporary directory in",
		       "(TMPDIR): the name is too long", NULL);
	if (old)
		setenv("TMPDIR", old, 1);
	else
		unsetenv("TMPDIR");
	free(old);
}

static void make_wl(struct workload *wl, uint64_t threads, uint64_t step_ns,
		    uint64_t time_ns)
{
	memset(wl, 0, sizeof(*wl));
	wl->run.eng = &engine_stateless;
	wl->spec.threads = threads;
	wl->spec.sample_ns = step_ns;
	wl->spec.time_limit_ns = time_ns;
	wl->spec.bs = 4096;
	wl->spec.qd = 1;
}

static void test_memory_estimate(void **state)
{
	struct workload wl;
	uint64_t e;

	(void)state;
	/* the case: 3.6 million 1 ms intervals in each of 64 threads
	 * (and the merged series): 65 x 2^22 entries of 32 bytes (I/Os,
	 * bytes, latency sum and max) */
	make_wl(&wl, 64, 1000000ULL, 3600ULL * 1000000000ULL);
	e = memory_estimate(&wl);
	assert_true(e > 8700000000ULL && e < 9000000000ULL);
	/* a second of 1 s intervals is tiny */
	make_wl(&wl, 1, 1000000000ULL, 1000000000ULL);
	assert_true(memory_estimate(&wl) < 1000000);
	/* buffers: -q 4096 x -b 64k on uring */
	make_wl(&wl, 1, 1000000000ULL, 1000000000ULL);
	wl.run.eng = &engine_paio;
	wl.spec.qd = 4096;
	wl.spec.bs = 65536;
	assert_true(memory_estimate(&wl) >= 4096ULL * 65536);
}

static void test_memory_check_refuses_over_budget(void **state)
{
	struct workload wl;

	(void)state;
	/* the budget is read once, from the environment when set */
	make_wl(&wl, 64, 1000000ULL, 3600ULL * 1000000000ULL);
	capture_begin();
	assert_int_equal(-E2BIG, memory_check(&wl, 1));
	capture_end();
	expect_message("memory_check over budget", "more than rebench's budget of 1 GiB",
		       "of it is the time series, 3600000 intervals of -g 1ms in each of 64 threads", NULL);
	make_wl(&wl, 1, 1000000000ULL, 1000000000ULL);
	assert_int_equal(0, memory_check(&wl, 1));
	/* growth is accounted: the budget is never passed */
	assert_true(memory_take(memory_budget() / 2));
	assert_false(memory_take(memory_budget()));
	memory_give(memory_budget() / 2);
}

static int setup(void **state)
{
	(void)state;
	setenv("REBENCH_MEMORY_BUDGET", "1g", 1);
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[200];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_name_passes_and_leaves_nothing),
		cmocka_unit_test(test_regular_file_passes_untouched),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_open_replaces_a_regular_file),
		cmocka_unit_test(test_open_refuses_fifo_without_blocking),
		cmocka_unit_test(test_tmpdir_honours_tmpdir),
		cmocka_unit_test(test_memory_estimate),
		cmocka_unit_test(test_memory_check_refuses_over_budget),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
