/* test_infile.c - the one rule for every file rebench reads (infile.c).
 *
 * A regular file is read whole up to its byte limit and refused one byte
 * past it (EFBIG); a line of exactly the line limit passes and one byte
 * more is refused (EMSGSIZE), across stdio's buffer refills; a directory,
 * a character device and a FIFO (when the reader does not take streams)
 * are refused at open with the reason; a FIFO is read when it may be, and
 * a stop signal ends a read that waits on a FIFO whose writer never
 * writes (EINTR, with the signal named).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/infile.h"
#include "core/signals.h"

static char dir[] = "/tmp/rebench-infile.XXXXXX";
static char path[4096], why[512];

static const char *in_dir(const char *name)
{
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

/* A file of n bytes: lines of line bytes, each followed by a newline
 * (the last one too when it is complete). */
static const char *make_file(const char *name, size_t n, size_t line)
{
	FILE *f = fopen(in_dir(name), "w");
	size_t i;

	assert_non_null(f);
	for (i = 0; i < n; i++)
		fputc(line && i % (line + 1) == line ? '\n' : 'a', f);
	assert_int_equal(fclose(f), 0);
	return path;
}

/* Read all of f: bytes read, and the errno of a failure (0: none). */
static size_t drain(FILE *f, int *e)
{
	char buf[1000];
	size_t n = 0, r;

	*e = 0;
	while ((r = fread(buf, 1, sizeof(buf), f)) > 0)
		n += r;
	if (ferror(f))
		*e = errno;
	return n;
}

static int setup(void **state)
{
	(void)state;
	signals_init();
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[256];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static void test_byte_limit(void **state)
{
	struct infile_limit lim = { .bytes = 65536 };
	int fds[2], e;
	pid_t pid;
	FILE *f;

	(void)state;
	f = infile_open(make_file("exact", 65536, 0), &lim, why, sizeof(why));
	assert_non_null(f);
	assert_int_equal(drain(f, &e), 65536);
	assert_int_equal(e, 0);
	fclose(f);

	/* a regular file says its size: refused before it is read */
	f = infile_open(make_file("over", 65537, 0), &lim, why, sizeof(why));
	assert_null(f);
	assert_int_equal(errno, EFBIG);
	assert_non_null(strstr(why, "longer than 64 KiB"));

	/* a pipe does not: refused one byte past the limit */
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		char buf[4096] = { 0 };
		int i;

		close(fds[0]);
		for (i = 0; i < 17; i++)
			if (write(fds[1], buf, sizeof(buf)) != sizeof(buf))
				_exit(1);
		_exit(0);
	}
	close(fds[1]);
	f = infile_fdopen(fds[0], &lim, why, sizeof(why));
	assert_non_null(f);
	assert_int_equal(drain(f, &e), 65536);
	assert_int_equal(e, EFBIG);
	fclose(f);
	close(fds[0]);
	waitpid(pid, NULL, 0);
}

static void test_line_limit(void **state)
{
	struct infile_limit lim = { .line = 10000 };
	FILE *f;
	int e;

	(void)state;
	/* ten lines of exactly the limit, across many 4 KiB refills */
	f = infile_open(make_file("lines", 10 * 10001, 10000), &lim, why,
			sizeof(why));
	assert_non_null(f);
	assert_int_equal(drain(f, &e), 10 * 10001);
	assert_int_equal(e, 0);
	fclose(f);

	f = infile_open(make_file("long", 3 * 10002, 10001), &lim, why,
			sizeof(why));
	assert_non_null(f);
	drain(f, &e);
	assert_int_equal(e, EMSGSIZE);
	fclose(f);
}

static void test_refused_kinds(void **state)
{
	struct infile_limit lim = { .stream = true };
	FILE *f;

	(void)state;
	f = infile_open(dir, &lim, why, sizeof(why));
	assert_null(f);
	assert_int_equal(errno, EISDIR);
	assert_non_null(strstr(why, "it is a directory"));

	f = infile_open("/dev/zero", &lim, why, sizeof(why));
	assert_null(f);
	assert_non_null(strstr(why, "it is a character device"));

	assert_int_equal(mkfifo(in_dir("fifo"), 0600), 0);
	lim.stream = false;
	f = infile_open(path, &lim, why, sizeof(why));
	assert_null(f);
	assert_non_null(strstr(why, "it is a FIFO; rebench reads only a regular file"));

	f = infile_open(in_dir("missing"), &lim, why, sizeof(why));
	assert_null(f);
	assert_int_equal(errno, ENOENT);
	f = infile_open("", &lim, why, sizeof(why));
	assert_null(f);
}

/* A FIFO with a writer that writes one line and then nothing: the line
 * is read; then the wait ends at a stop signal, sent by this process to
 * itself before the read (the flag is seen before any wait). */
static void test_fifo_and_stop(void **state)
{
	struct infile_limit lim = { .stream = true };
	char line[64];
	FILE *f;
	int w;

	(void)state;
	unlink(in_dir("fifo2"));
	assert_int_equal(mkfifo(path, 0600), 0);
	f = infile_open(path, &lim, why, sizeof(why));
	assert_non_null(f);	/* O_NONBLOCK: no writer yet, no wait */
	w = open(path, O_WRONLY | O_CLOEXEC);
	assert_true(w >= 0);
	assert_int_equal(write(w, "one\n", 4), 4);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "one\n");
	raise(SIGTERM);
	assert_null(fgets(line, sizeof(line), f));
	assert_true(ferror(f));
	assert_int_equal(errno, EINTR);
	infile_strerror(EINTR, &lim, why, sizeof(why));
	assert_non_null(strstr(why, "stopped by signal 15"));
	fclose(f);
	close(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_byte_limit),
		cmocka_unit_test(test_line_limit),
		cmocka_unit_test(test_refused_kinds),
		cmocka_unit_test(test_fifo_and_stop),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
