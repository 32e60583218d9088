/* test_trace_fio.c - fio iologs and blkparse's text read as records
 * (trace_fio.c, trace_blkparse.c, through trace_next): every action's
 * record, v2's wait and v3's times, blkparse's issued requests, and the
 * corrupt lines refused with the line and why.
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
#include <cmocka.h>

#include "trace/trace_fio.h"
#include "trace/trace_log.h"

#include "trace_text.h"

static void test_v3_records(void **state)
{
	struct trace_rec r;

	(void)state;
	assert_int_equal(0, open_text("fio version 3 iolog\n"
				      "10 /a add\n"
				      "20 /a open\n"
				      "30 /a read 4096 512\n"
				      "\n"
				      "40 /a write 0 8192\n"
				      "50 /a sync 0 0\n"
				      "60 /a datasync 8192 0\n"
				      "70 /a trim 0 4096\n"
				      "80 /a close\n"));
	assert_int_equal(3, rd.version);
	assert_string_equal("fio iolog", trace_format_name(&rd));
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(TC_open, r.call);
	assert_int_equal(TT_OPEN, r.type);
	assert_int_equal(20000, r.t_ns);
	assert_int_equal(r.fd, r.result);
	assert_string_equal("/a", trace_file_name(&rd, r.file));
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(TC_pread, r.call);
	assert_int_equal(4096, r.off);
	assert_int_equal(512, r.len);
	assert_int_equal(512, r.result);
	assert_int_equal(1, trace_next(&rd, &r));	/* the empty line skipped */
	assert_int_equal(TC_pwrite, r.call);
	assert_int_equal(40000, r.t_ns);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(TT_FSYNC, r.type);
	assert_true(r.off == TRACE_NONE && r.len == TRACE_NONE);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(TT_FDATASYNC, r.type);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(TT_FALLOCATE, r.type);
	assert_int_equal(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, r.flags);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(TT_CLOSE, r.type);
	assert_int_equal(0, trace_next(&rd, &r));
	close_text();
}

static void test_v2_wait(void **state)
{
	struct trace_rec r;

	(void)state;
	assert_int_equal(0, open_text("fio version 2 iolog\n"
				      "/b add\n/b open\n"
				      "/b wait 250 0\n"
				      "/b read 0 4096\n"
				      "/b wait 750 0\n"
				      "/b write 0 4096\n"));
	assert_int_equal(2, rd.version);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(0, r.t_ns);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(250000, r.t_ns);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(1000000, r.t_ns);
	assert_int_equal(0, trace_next(&rd, &r));
	close_text();
}

static void test_v3_wait_is_a_warning(void **state)
{
	struct trace_rec r;

	(void)state;
	assert_int_equal(0, open_text("fio version 3 iolog\n0 /c add\n5 /c wait 100 0\n"));
	assert_int_equal(0, trace_next(&rd, &r));
	assert_int_equal(1, rd.nwarnings);
	close_text();
}

static void expect(const char *text, const char *want)
{
	struct trace_rec r;
	int ret;

	ret = open_text(text);
	if (!ret)
		while ((ret = trace_next(&rd, &r)) > 0)
			;
	if (ret != -EINVAL || !strstr(rd.err, want))
		fail_msg("gave %d '%s', not -EINVAL with '%s'", ret, rd.err, want);
	close_text();
}

static void test_refused(void **state)
{
	char text[512];

	(void)state;
	expect("fio version 9 iolog\n", "LOG: fio iolog version 9 is unknown");
	expect("fio version 3 iolog\n0 /a add\n1 /a\n",
	       "LOG: line 3: corrupt: 2 fields; a fio version 3 iolog line is 'TIME FILE ACTION'");
	expect("fio version 2 iolog\n/a add\n/a open 0\n",
	       "LOG: line 3: corrupt: 3 fields");
	expect("fio version 3 iolog\n0 /a add\n0 /a remove\n",
	       "LOG: line 3: corrupt: 'remove' is not a file action");
	expect("fio version 3 iolog\n0 /a open\n",
	       "LOG: line 2: corrupt: open before the file's 'add' line");
	expect("fio version 3 iolog\n0 /a add\n1 /a read x 4096\n",
	       "LOG: line 3: corrupt: the offset 'x' is not a number of bytes");
	expect("fio version 3 iolog\n0 /a add\n1 /a read 0 4294967296\n",
	       "LOG: line 3: corrupt: the length '4294967296' is not a number of bytes below 2^32");
	expect("fio version 3 iolog\n-1 /a add\n",
	       "LOG: line 2: corrupt: the time '-1' is not a number of microseconds");
	expect("fio version 3 iolog\n0 /a add\n1 /a read 0 1 2\n",
	       "LOG: line 3: corrupt: more than 5 fields");
	snprintf(text, sizeof(text), "fio version 2 iolog\n/%0300d add\n", 0);
	expect(text, "LOG: line 2: corrupt: the file name has more than the 256 bytes");
}

static void test_blkparse(void **state)
{
	struct trace_rec r;

	(void)state;
	assert_int_equal(0, open_text(
		"  8,16   1        1     1.000000500  4162  D   W 16 + 8 [dd]\n"
		"  8,16   1        2     1.000100000     0  C   W 16 + 8 [0]\n"
		"  8,16   0        3     2.000000000     0  D  FN [kworker]\n"
		"  8,16   0        4     2.500000000    77  D  RA 0 + 1 [cat]\n"
		"  8,16   0        5     2.600000000    77  D   N [cat]\n"
		"CPU0 (8,16):\n"
		" Reads Queued:           1,        8KiB\n"));
	assert_string_equal("blkparse", trace_format_name(&rd));
	assert_int_equal(1, trace_next(&rd, &r));	/* the first line */
	assert_int_equal(TC_pwrite, r.call);
	assert_int_equal(8192, r.off);
	assert_int_equal(4096, r.len);
	assert_int_equal(1000000500, r.t_ns);
	assert_int_equal(4162, r.pid);
	assert_string_equal("/dev/block/8:16", trace_file_name(&rd, r.file));
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(TC_fsync, r.call);
	assert_int_equal(1, r.pid);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(TC_pread, r.call);
	assert_int_equal(512, r.len);
	assert_int_equal(0, trace_next(&rd, &r));
	close_text();
	expect("  8,16   1        1     1.000000500  4162  D   W 16 + 8 [dd]\n"
	       "  8,16   1        2     1.000000500  4162  D   R [dd]\n",
	       "LOG: line 2: corrupt: an issued read, write or discard without 'SECTOR + COUNT'");
	expect("  8,16   1        1     1.000000500  4162  D   W 16 + 8 [dd]\n"
	       "garbage\n", "LOG: line 2: corrupt: not a blkparse event");
}

static void test_names(void **state)
{
	(void)state;
	assert_true(trace_fio_name_ok("/tmp/a.db"));
	assert_false(trace_fio_name_ok("/tmp/a b"));
	assert_false(trace_fio_name_ok("/tmp/a\tb"));
	assert_false(trace_fio_name_ok(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v3_records),
		cmocka_unit_test(test_v2_wait),
		cmocka_unit_test(test_v3_wait_is_a_warning),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_blkparse),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
