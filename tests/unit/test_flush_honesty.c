/* test_flush_honesty.c - the too-fast-flush heuristic (flush_honesty.h):
 * a rotational write-back device whose flushes take a median under one
 * revolution at 15000 rpm (4 ms) is suspect, one at or above it is not; a
 * write-through device is suspect unless it is rotational and as slow as
 * a revolution; non-rotational write-back devices, unknown caches and too
 * few flushes are never judged; the text carries the figures and points
 * to the power-cut test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "target/flush_honesty.h"

#define MS 1000000.0

static void test_fast_spin(void **state)
{
	(void)state;
	assert_int_equal(FLUSH_REVOLUTION_NS, 4000000);	/* 60 s / 15000 */
	assert_int_equal(flush_honesty_judge(1, "write back", 64, 0.31 * MS),
			 FH_FAST_SPIN);
	/* the threshold: just under a revolution is suspect, a revolution
	 * is not */
	assert_int_equal(flush_honesty_judge(1, "write back", 64, 3999999),
			 FH_FAST_SPIN);
	assert_int_equal(flush_honesty_judge(1, "write back", 64, 4000000),
			 FH_NONE);
	assert_int_equal(flush_honesty_judge(1, "write back", 64, 8.3 * MS),
			 FH_NONE);
	/* a non-rotational or unknown device: nothing to compare with */
	assert_int_equal(flush_honesty_judge(0, "write back", 64, 0.02 * MS),
			 FH_NONE);
	assert_int_equal(flush_honesty_judge(-1, "write back", 64, 0.02 * MS),
			 FH_NONE);
}

static void test_write_through(void **state)
{
	(void)state;
	assert_int_equal(flush_honesty_judge(0, "write through", 64, 0.05 * MS),
			 FH_WRITE_THROUGH);
	assert_int_equal(flush_honesty_judge(0, "write through", 64, 9 * MS),
			 FH_WRITE_THROUGH);
	assert_int_equal(flush_honesty_judge(-1, "write through", 64, 9 * MS),
			 FH_WRITE_THROUGH);
	assert_int_equal(flush_honesty_judge(1, "write through", 64, 3999999),
			 FH_WRITE_THROUGH);
	/* a spinning disk as slow as its medium: the claim is plausible */
	assert_int_equal(flush_honesty_judge(1, "write through", 64, 4000000),
			 FH_NONE);
}

static void test_not_judged(void **state)
{
	(void)state;
	/* an unknown cache mode */
	assert_int_equal(flush_honesty_judge(1, "", 64, 0.1 * MS), FH_NONE);
	assert_int_equal(flush_honesty_judge(1, NULL, 64, 0.1 * MS), FH_NONE);
	assert_int_equal(flush_honesty_judge(1, "write-back", 64, 0.1 * MS),
			 FH_NONE);
	/* too few flushes for a median */
	assert_int_equal(FLUSH_HONESTY_MIN_OPS, 10);
	assert_int_equal(flush_honesty_judge(1, "write back", 9, 0.1 * MS),
			 FH_NONE);
	assert_int_equal(flush_honesty_judge(1, "write back", 10, 0.1 * MS),
			 FH_FAST_SPIN);
	assert_int_equal(flush_honesty_judge(0, "write through", 9, 0.1 * MS),
			 FH_NONE);
}

static void test_text(void **state)
{
	char buf[768];

	(void)state;
	flush_honesty_text(FH_FAST_SPIN, "fdatasync", "sdb", 0.31 * MS, buf,
			   sizeof(buf));
	assert_non_null(strstr(buf, "flushes (fdatasync) complete in a median 0.31 ms, under one revolution of a 15000 rpm disk (4 ms): sdb reports itself rotational with a write-back cache, and the drive may acknowledge flushes from its volatile cache; a heuristic: only a power-cut test proves durability"));
	assert_non_null(strstr(buf, "diskchecker.pl"));
	flush_honesty_text(FH_WRITE_THROUGH, "fsync", "nvme0n1", 0.05 * MS,
			   buf, sizeof(buf));
	assert_string_equal(buf, "flushes (fsync) complete in a median 0.05 ms on nvme0n1, which reports a write-through cache, so the kernel sends it no cache flushes: durability rests on the device's claim that its cache is not volatile; a heuristic: only a power-cut test proves durability (write numbered records, cut the power, check which acknowledged ones survived, as diskchecker.pl does)");
	/* three significant digits, however small */
	flush_honesty_text(FH_WRITE_THROUGH, "fsync", "loop2", 4120, buf,
			   sizeof(buf));
	assert_non_null(strstr(buf, "a median 0.00412 ms on loop2"));
	flush_honesty_text(FH_FAST_SPIN, "fsync", "sda", 2.5 * MS, buf,
			   sizeof(buf));
	assert_non_null(strstr(buf, "a median 2.5 ms, under"));
	flush_honesty_text(FH_NONE, "fsync", "sdb", MS, buf, sizeof(buf));
	assert_string_equal(buf, "");
	/* a short buffer truncates, never overruns */
	flush_honesty_text(FH_FAST_SPIN, "fsync", "sdb", MS, buf, 20);
	assert_int_equal(strlen(buf), 19);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fast_spin),
		cmocka_unit_test(test_write_through),
		cmocka_unit_test(test_not_judged),
		cmocka_unit_test(test_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
