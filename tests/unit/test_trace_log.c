/* test_trace_log.c - the reader of rebench-trace logs (trace_log.c) and
 * their statistics (trace_stats.c, trace_stats_out.c).
 *
 * Every field of a line is decoded (open flags and mode, lseek's whence,
 * preadv2's flags, -ERRNO results, \ooo escapes in paths, "-" for what a
 * call has not); a header of another version, a file that is not a trace
 * and each kind of corrupt line are refused with the line, the field and
 * the reason; the statistics count, share and average as documented.
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
#include <unistd.h>
#include <cmocka.h>

#include "engines/iokind.h"
#include "trace/trace_log.h"
#include "trace/trace_stats.h"

#include "temp_text.h"
#include "trace_text.h"

#define HEAD "# rebench-trace 1\n"

/* The first record of HEAD + line must be refused with want in the
 * message. */
static void expect_corrupt(const char *line, const char *want)
{
	char text[1024];
	struct trace_rec rec;
	int ret;

	snprintf(text, sizeof(text), HEAD "%s", line);
	assert_int_equal(0, open_text(text));
	ret = trace_next(&rd, &rec);
	if (ret != -EINVAL)
		fail_msg("'%s' gave %d, not -EINVAL", line, ret);
	if (!strstr(rd.err, want))
		fail_msg("'%s': want \"%s\" in \"%s\"", line, want, rd.err);
	close_text();
}

static void test_fields(void **state)
{
	struct trace_rec r;

	(void)state;
	assert_int_equal(0, open_text(HEAD
		"# command: sqlite3 t.db\n"
		"100 7/7 openat 3 /tmp/a\\040b - - 3 2500 O_RDWR|O_CREAT|O_CLOEXEC,0644\n"
		"200 7/8 pread64 3 /tmp/a\\040b 4096 4096 4096 1200 -\n"
		"300 7/7 lseek64 3 /tmp/a\\040b -10 - 4086 300 SEEK_CUR\n"
		"# warning 7/7: something\n"
		"400 9/9 preadv2 3 /tmp/c 0 8192 -EAGAIN 100 2,RWF_NOWAIT|0x100\n"
		"500 9/9 open -1 /tmp/missing - - -ENOENT 900 O_RDONLY\n"
		"600 7/7 sync_file_range 3 /tmp/a\\040b 0 0 0 50 SYNC_FILE_RANGE_WRITE\n"
		"700 7/7 fdatasync 3 /tmp/a\\040b - - 0 9000 -\n"));
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(100, r.t_ns);
	assert_int_equal(7, r.pid);
	assert_int_equal(7, r.tid);
	assert_int_equal(TC_openat, r.call);
	assert_int_equal(TT_OPEN, r.type);
	assert_int_equal(3, r.fd);
	assert_string_equal("/tmp/a b", trace_file_name(&rd, r.file));
	assert_true(r.off == TRACE_NONE && r.len == TRACE_NONE);
	assert_int_equal(3, r.result);
	assert_int_equal(2500, r.dur_ns);
	assert_int_equal(O_RDWR | O_CREAT | O_CLOEXEC, r.flags);
	assert_int_equal(0644, r.mode);
	assert_string_equal("sqlite3 t.db", rd.command);

	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(8, r.tid);
	assert_int_equal(TC_pread64, r.call);
	assert_int_equal(0, r.file);	/* the same path, the same id */
	assert_int_equal(4096, r.off);
	assert_int_equal(4096, r.len);
	assert_int_equal(IO_READ, trace_io_kind(&r));

	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(-10, r.off);	/* lseek's offset may be negative */
	assert_int_equal(SEEK_CUR, r.flags);
	assert_int_equal(-1, trace_io_kind(&r));

	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(1, rd.nwarnings);
	assert_string_equal("warning 7/7: something", rd.warnings[0]);
	assert_int_equal(1, r.file);
	assert_int_equal(-EAGAIN, r.result);
	assert_int_equal(2, r.iovcnt);
	assert_int_equal(RWF_NOWAIT | 0x100, r.flags);

	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(-1, r.fd);
	assert_int_equal(-ENOENT, r.result);

	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(SYNC_FILE_RANGE_WRITE, r.flags);

	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(IO_FDATASYNC, trace_io_kind(&r));
	assert_int_equal(0, trace_next(&rd, &r));
	assert_int_equal(3, rd.nnames);
	close_text();
}

static void test_headers(void **state)
{
	(void)state;
	assert_int_equal(-EINVAL, open_text(""));
	assert_non_null(strstr(rd.err, "LOG: not a rebench trace: the file is empty"));
	close_text();
	assert_int_equal(-EINVAL, open_text("time pid op\n"));
	assert_non_null(strstr(rd.err, "LOG: not a rebench trace: the first line is not '# rebench-trace 1'"));
	close_text();
	assert_int_equal(-EINVAL, open_text("# rebench-trace 2\n"));
	assert_non_null(strstr(rd.err, "LOG: rebench-trace version 2 is unknown: this rebench reads version 1"));
	close_text();
	assert_int_equal(-EINVAL, open_text("# rebench-trace x\n"));
	assert_non_null(strstr(rd.err, "LOG: line 1: corrupt: '# rebench-trace x' has no version number"));
	close_text();
	assert_int_equal(-EINVAL, open_text("# rebench-trace 1"));
	assert_non_null(strstr(rd.err, "not a rebench trace"));
	close_text();
	assert_int_equal(-ENOENT, trace_open(&rd, "/nonexistent/log"));
	assert_string_equal("/nonexistent/log: cannot read the log: No such file or directory",
			    rd.err);
	trace_close(&rd);
	assert_int_equal(-EISDIR, trace_open(&rd, "/tmp"));
	assert_string_equal("/tmp: cannot read the log: it is a directory; rebench reads regular files, pipes and FIFOs",
			    rd.err);
	trace_close(&rd);
}

static void test_corrupt_lines(void **state)
{
	(void)state;
	expect_corrupt("1 2/2 read 3 /f 0 10 10 5\n",
		       "LOG: line 2: corrupt: fewer than the 10 fields");
	expect_corrupt("1 2/2 read 3 /f 0 10 10 5 - x\n",
		       "line 2: corrupt: more than the 10 fields");
	expect_corrupt("1 2/2 read 3 /f  0 10 10 5 -\n",
		       "field 6 (offset) is empty (two spaces in a row, or a space at the end?)");
	expect_corrupt("x 2/2 read 3 /f 0 10 10 5 -\n",
		       "field 1 (time) 'x' is not a number of ns");
	expect_corrupt("1 2 read 3 /f 0 10 10 5 -\n",
		       "field 2 (thread) '2' is not PID/TID");
	expect_corrupt("1 2/0 read 3 /f 0 10 10 5 -\n",
		       "field 2 (thread) '0' is not a thread id");
	expect_corrupt("1 2/2 mmap 3 /f 0 10 10 5 -\n",
		       "field 3 (call) 'mmap' is not a call rebench records");
	expect_corrupt("1 2/2 read x /f 0 10 10 5 -\n",
		       "field 4 (fd) 'x' is not a number");
	expect_corrupt("1 2/2 read 3 /f\\08 0 10 10 5 -\n",
		       "field 5 (file) '/f\\08' is not a path");
	expect_corrupt("1 2/2 read 3 /f\\000 0 10 10 5 -\n",
		       "field 5 (file)");
	expect_corrupt("1 2/2 read 3 /f 1k 10 10 5 -\n",
		       "field 6 (offset) '1k' is neither a number nor '-'");
	expect_corrupt("1 2/2 read 3 /f 0 10 -EWHAT 5 -\n",
		       "field 8 (result) '-EWHAT' is neither a number nor -ERRNO");
	expect_corrupt("1 2/2 read 3 /f 0 10 11 5 -\n",
		       "field 8 (result) says more bytes than the size asked (read)");
	expect_corrupt("1 2/2 read 3 /f 0 10 10 -5 -\n",
		       "field 9 (duration) '-5' is not a number of ns");
	expect_corrupt("1 2/2 read 3 /f 0 10 10 5 O_RDONLY\n",
		       "field 10 (arg) 'O_RDONLY' should be '-': the call has no flags");
	expect_corrupt("1 2/2 open 3 /f - - 3 5 O_BOGUS\n",
		       "field 10 (arg) 'O_BOGUS' is not ACCESS|FLAGS[,MODE]");
	expect_corrupt("1 2/2 open 3 /f - - 4 5 O_RDONLY\n",
		       "field 8 (result) is not the fd of the open");
	expect_corrupt("1 2/2 lseek 3 /f 0 - 0 5 SEEK_NOWHERE\n",
		       "field 10 (arg) 'SEEK_NOWHERE' is not SEEK_SET");
	expect_corrupt("1 2/2 pread64 3 /f - 10 10 5 -\n",
		       "field 6 (offset) is '-': pread64 has an offset");
	expect_corrupt("1 2/2 write 3 /f 0 - 10 5 -\n",
		       "field 7 (size) is '-': write has a size");
	expect_corrupt("1 2/2 readv 3 /f 0 10 10 5 2,RWF_SYNC\n",
		       "field 10 (arg) 'RWF_SYNC' is not what this call takes");
	expect_corrupt("1 2/2 close -3 /f - - 0 5 -\n",
		       "field 4 (fd) is not a descriptor");
	expect_corrupt("\n", "line 2: corrupt: an empty line");
	expect_corrupt("1 2/2 read 3 /f 0 10 10 5 -",
		       "line 2: corrupt: the line has no newline at its end: the log was cut short");
}

/* Failed calls are written with the arguments they were given, which the
 * kernel refused (issue 26, item 9): each line the recorder writes for
 * them reads back, values as written; what succeeded is still checked. */
static void test_failed_calls(void **state)
{
	struct trace_rec r;

	(void)state;
	assert_int_equal(0, open_text(HEAD
		/* pwrite(fd, b, 100, -1) */
		"1 2/2 pwrite 3 /f -1 100 -EINVAL 5 -\n"
		/* ftruncate(fd, -5) */
		"2 2/2 ftruncate 3 /f -5 - -EINVAL 5 -\n"
		/* posix_fallocate(fd, 0, -1) */
		"3 2/2 posix_fallocate 3 /f 0 -1 -EINVAL 5 -\n"
		/* pwritev(fd, iov, -1, 0), as written now and before */
		"4 2/2 pwritev 3 /f 0 - -EINVAL 5 -1\n"
		"5 2/2 pwritev 3 /f 0 - -EINVAL 5 18446744073709551615\n"
		/* read(fd, b, SIZE_MAX), pread at -2^63 */
		"6 2/2 read 3 /f 0 -1 -EFAULT 5 -\n"
		"7 2/2 pread64 3 /f - 10 -EINVAL 5 -\n"
		"8 2/2 pread 3 /f -9223372036854775808 10 -EINVAL 5 -\n"
		/* lseek with a whence of -1, as written now and before */
		"9 2/2 lseek 3 /f 0 - -EINVAL 5 -1\n"
		"10 2/2 lseek64 3 /f 0 - -EINVAL 5 18446744073709551615\n"
		/* any mode an open may be given, any flags */
		"11 2/2 open -1 /g - - -EINVAL 5 O_RDONLY|O_CREAT|0xffff0000,037777777777\n"
		/* readv of 0 buffers succeeds; an older recorder wrote '-' */
		"12 2/2 readv 3 /f 0 0 0 5 0\n"
		"13 2/2 readv 3 /f 0 - 0 5 0\n"
		"14 2/2 preadv2 3 /f 0 - -EINVAL 5 2000,RWF_SYNC\n"
		/* lseek at -2^63 that succeeded: /dev/null's lseek ignores
		 * its offset, and a sibling thread's dup2 can put it under a
		 * followed descriptor mid-call */
		"15 2/2 lseek 3 /f - - 0 5 SEEK_SET\n"));
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(TC_pwrite, r.call);
	assert_int_equal(-1, r.off);
	assert_int_equal(100, r.len);
	assert_int_equal(-EINVAL, r.result);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(-5, r.off);
	assert_true(r.len == TRACE_NONE);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(0, r.off);
	assert_int_equal(-1, r.len);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_true(r.len == TRACE_NONE);
	assert_int_equal(-1, r.iovcnt);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(-1, r.iovcnt);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(-1, r.len);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_true(r.off == TRACE_NONE);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_true(r.off == INT64_MIN);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(-1, (int64_t)r.flags);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(-1, (int64_t)r.flags);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(037777777777u, r.mode);
	assert_int_equal(O_CREAT | 0xffff0000u, r.flags);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(0, r.len);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(0, r.len);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(2000, r.iovcnt);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(TC_lseek, r.call);
	assert_true(r.off == TRACE_NONE);
	assert_int_equal(0, r.result);
	assert_int_equal(0, trace_next(&rd, &r));
	close_text();

	/* what succeeded must still make sense */
	expect_corrupt("1 2/2 pwrite 3 /f -1 100 100 5 -\n",
		       "field 6 (offset) is negative, and pwrite succeeded");
	expect_corrupt("1 2/2 posix_fallocate 3 /f 0 -1 0 5 -\n",
		       "field 7 (size) is negative, and posix_fallocate succeeded");
	expect_corrupt("1 2/2 readv 3 /f 0 16 16 5 2000\n",
		       "field 10 (arg) '2000' is not a count of buffers");
	expect_corrupt("1 2/2 readv 3 /f 0 16 -EINVAL 5 4294967296\n",
		       "field 10 (arg) '4294967296' is not a count of buffers");
	expect_corrupt("1 2/2 lseek 3 /f 0 - 0 5 2147483648\n",
		       "is not SEEK_SET, SEEK_CUR, SEEK_END, SEEK_DATA, SEEK_HOLE or a number");
	expect_corrupt("1 2/2 open -1 /g - - -EINVAL 5 O_RDONLY,040000000000\n",
		       "field 10 (arg) 'O_RDONLY' is not ACCESS|FLAGS[,MODE]");
}

/* The status line of --record (trace_log.h): its word and text; in a log
 * that is not complete a line that cannot be read is skipped and counted,
 * in a complete one (or one without a status) it is an error. */
static void test_status(void **state)
{
	static const char cut[] = "1 2/2 fsync 3 /f - - 0 5 -\n"
				  "2 2/2 fsy3 2/2 fsync 3 /f - - 0 5 -\n"
				  "4 2/2 fsync 3 /f - - 0 5 -\n"
				  "5 2/2 write 3 /f 0 10";
	char text[1024];
	struct trace_rec r;
	int n;

	(void)state;
	assert_int_equal(0, open_text(HEAD "# status: complete          \n"
				      "1 2/2 fsync 3 /f - - 0 5 -\n"));
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(TRACE_STATUS_COMPLETE, rd.status);
	assert_string_equal("complete", rd.status_text);
	close_text();

	snprintf(text, sizeof(text), HEAD "# status: incomplete: 3 lines lost (ENOSPC), 1 cut short   \n%s",
		 cut);
	assert_int_equal(0, open_text(text));
	for (n = 0; trace_next(&rd, &r) == 1; n++)
		;
	assert_int_equal(2, n);		/* the first and the fourth */
	assert_int_equal(TRACE_STATUS_INCOMPLETE, rd.status);
	assert_string_equal("incomplete: 3 lines lost (ENOSPC), 1 cut short",
			    rd.status_text);
	assert_int_equal(2, rd.damaged);	/* merged, and cut at the end */
	close_text();

	snprintf(text, sizeof(text), HEAD "# status: " TRACE_STATUS_UNFINISHED_TEXT "\n%s",
		 cut);
	assert_int_equal(0, open_text(text));
	for (n = 0; trace_next(&rd, &r) == 1; n++)
		;
	assert_int_equal(2, n);
	assert_int_equal(TRACE_STATUS_UNFINISHED, rd.status);
	assert_int_equal(2, rd.damaged);
	close_text();

	/* complete, or no status: a damaged line is an error, as ever */
	snprintf(text, sizeof(text), HEAD "# status: complete\n%s", cut);
	assert_int_equal(0, open_text(text));
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(-EINVAL, trace_next(&rd, &r));
	assert_non_null(strstr(rd.err, "LOG: line 4: corrupt"));
	close_text();
	snprintf(text, sizeof(text), HEAD "%s", cut);
	assert_int_equal(0, open_text(text));
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(-EINVAL, trace_next(&rd, &r));
	assert_int_equal(TRACE_STATUS_UNKNOWN, rd.status);
	assert_null(rd.status_text);
	close_text();

	/* a word this rebench does not know says nothing either way */
	assert_int_equal(0, open_text(HEAD "# status: completed\n\n"));
	assert_int_equal(-EINVAL, trace_next(&rd, &r));
	assert_int_equal(TRACE_STATUS_UNKNOWN, rd.status);
	close_text();
}

static void test_parse_u64(void **state)
{
	uint64_t v;

	(void)state;
	assert_true(trace_parse_u64("18446744073709551615", &v));
	assert_true(v == UINT64_MAX);
	assert_false(trace_parse_u64("18446744073709551616", &v));
	assert_false(trace_parse_u64("99999999999999999999", &v));
	assert_true(trace_parse_u64("18446744073709551609", &v));
	assert_false(trace_parse_u64("-1", &v));
	assert_false(trace_parse_u64("", &v));
}

static void test_error_names_the_line(void **state)
{
	struct trace_rec r;

	(void)state;
	assert_int_equal(0, open_text(HEAD "# a comment\n"
				      "1 2/2 fsync 3 /f - - 0 5 -\n"
				      "1 2/2 fsync 3 /f - - 0 5\n"));
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(-EINVAL, trace_next(&rd, &r));
	assert_non_null(strstr(rd.err, "LOG: line 4: corrupt"));
	close_text();
}

static void test_flags(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(0, trace_parse_flags("O_WRONLY|O_SYNC|O_DIRECT",
					      trace_open_modes,
					      trace_open_flags, &v));
	assert_int_equal(O_WRONLY | O_SYNC | O_DIRECT, v);
	assert_int_equal(0, trace_parse_flags("0", trace_falloc_flags, NULL, &v));
	assert_int_equal(0, v);
	assert_int_equal(0, trace_parse_flags("FALLOC_FL_KEEP_SIZE|0x400",
					      trace_falloc_flags, NULL, &v));
	assert_int_equal(FALLOC_FL_KEEP_SIZE | 0x400, v);
	assert_int_equal(-EINVAL, trace_parse_flags("", trace_falloc_flags, NULL, &v));
	assert_int_equal(-EINVAL, trace_parse_flags("A||B", trace_falloc_flags, NULL, &v));
	assert_int_equal(-EINVAL, trace_parse_flags("0xz", trace_falloc_flags, NULL, &v));
}

static void test_calls_table(void **state)
{
	int c;

	(void)state;
	/* every name once, every type in range */
	for (c = 0; c < TC_COUNT; c++) {
		assert_true(trace_call_types[c] < TT_TYPES);
		for (int d = c + 1; d < TC_COUNT; d++)
			assert_string_not_equal(trace_call_names[c],
						trace_call_names[d]);
	}
	assert_string_equal("pread64", trace_call_names[TC_pread64]);
	assert_int_equal(TT_READ, trace_call_types[TC___pread64_chk]);
	assert_int_equal(TT_WRITE, trace_call_types[TC_pwritev64v2]);
}

static void test_stats(void **state)
{
	char path[] = "/tmp/rebench-trace.XXXXXX", err[4200];
	struct trace_stats st;
	FILE *f;

	(void)state;
	write_temp_text(path, HEAD
	      "1000 5/5 open 3 /d/a - - 3 100 O_RDWR\n"
	      "2000 5/5 pread64 3 /d/a 0 4096 4096 100 -\n"
	      "3000 5/7 pread64 3 /d/a 4096 4096 2048 100 -\n"
	      "4000 5/5 pwrite64 3 /d/a 0 1024 1024 100 -\n"
	      "5000 6/6 write 4 /d/b 0 512 -ENOSPC 100 -\n"
	      "6000 6/6 fsync 4 /d/b - - 0 5000 -\n"
	      "7000 5/5 close 3 /d/a - - 0 100 -\n");
	assert_int_equal(0, trace_stats_load(path, &st, err, sizeof(err)));
	assert_int_equal(7, st.ops);
	assert_int_equal(4096 + 2048 + 1024, st.bytes);
	assert_int_equal(2, st.processes);
	assert_int_equal(3, st.threads);
	assert_int_equal(1000, st.first_ns);
	assert_int_equal(11000, st.end_ns);	/* the fsync's end */
	assert_int_equal(2, st.type[TT_READ].count);
	assert_int_equal(6144, st.type[TT_READ].bytes);
	assert_int_equal(2, st.type[TT_WRITE].count);
	assert_int_equal(1, st.type[TT_WRITE].failed);
	assert_int_equal(1024, st.type[TT_WRITE].bytes);
	assert_int_equal(2, st.calls[TC_pread64]);
	assert_int_equal(2, st.nfiles);
	assert_string_equal("/d/a", st.files[0].path);
	assert_int_equal(5, st.files[0].ops);
	assert_int_equal(2, st.files[0].reads);
	assert_int_equal(6144, st.files[0].bytes_read);
	assert_int_equal(1, st.files[1].syncs);
	assert_int_equal(0, st.files[1].bytes_written);
	trace_stats_free(&st);

	/* a corrupt line: nothing but the error */
	f = fopen(path, "a");
	assert_non_null(f);
	fputs("8000 5/5 bogus 3 /d/a - - 0 100 -\n", f);
	fclose(f);
	assert_int_equal(-EINVAL, trace_stats_load(path, &st, err, sizeof(err)));
	assert_non_null(strstr(err, ": line 9: corrupt: field 3 (call) 'bogus'"));
	assert_int_equal(0, st.ops);
	unlink(path);

	/* an incomplete log: its status and its damaged lines */
	strcpy(path, "/tmp/rebench-trace.XXXXXX");
	write_temp_text(path, HEAD "# status: incomplete: 2 lines lost (EIO)\n"
			"1000 5/5 fsync 3 /d/a - - 0 100 -\n"
			"1000 5/5 fsync 3 /d/a - -\n");
	assert_int_equal(0, trace_stats_load(path, &st, err, sizeof(err)));
	assert_int_equal(1, st.ops);
	assert_int_equal(TRACE_STATUS_INCOMPLETE, st.status);
	assert_string_equal("incomplete: 2 lines lost (EIO)", st.status_text);
	assert_int_equal(1, st.damaged);
	trace_stats_free(&st);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_corrupt_lines),
		cmocka_unit_test(test_failed_calls),
		cmocka_unit_test(test_status),
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_error_names_the_line),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_calls_table),
		cmocka_unit_test(test_stats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
