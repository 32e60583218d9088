/* test_load_curve.c - the knee of a --rate sweep (src/report/
 * load_curve.c): below the lowest rate not met, the highest whose p99
 * from the intended start is within 2x the least p99 of a rate met; the
 * rate above it gave way.  Points in any order, points that did not run
 * left out, a noisy low rate that does not end the search, no rate met,
 * every rate met; and the -n knee line and the human Knee line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/load_curve.h"

#define P(a, ach, m, p) { true, a, ach, m, p }

static struct load_curve judge(const struct load_point *p, size_t n)
{
	struct load_curve c = { .on = true };

	load_curve_judge(&c, p, n);
	return c;
}

static void test_knee(void **state)
{
	/* out of order; 800 not met; 400's p99 within 2x of 1000 us */
	const struct load_point p[] = {
		P(800, 480, false, 90000), P(100, 100, true, 1100),
		P(400, 399, true, 1900), P(200, 200, true, 1000),
	};
	struct load_curve c = judge(p, 4);

	(void)state;
	assert_int_equal(c.points, 4);
	assert_true(c.base_p99_us == 1000);
	assert_true(c.have_knee);
	assert_true(c.knee.asked == 400);
	assert_true(c.have_next);
	assert_true(c.next.asked == 800 && !c.next.met);
}

static void test_p99_bound(void **state)
{
	/* every rate met, but 400's p99 is past 2x: the knee is 200, and
	 * 400 gave way with its rate met */
	const struct load_point p[] = {
		P(100, 100, true, 1000), P(200, 200, true, 1500),
		P(400, 399, true, 2500),
	};
	struct load_curve c = judge(p, 3);

	(void)state;
	assert_true(c.have_knee && c.knee.asked == 200);
	assert_true(c.have_next && c.next.asked == 400 && c.next.met);
}

static void test_noisy_low_rate(void **state)
{
	/* the lowest rate's p99 carries a stall: it does not end the search */
	const struct load_point p[] = {
		P(100, 100, true, 9000), P(200, 200, true, 1000),
		P(400, 400, true, 1200), P(800, 500, false, 50000),
		{ false, 1600, 0, false, 0 },	/* did not run */
	};
	struct load_curve c = judge(p, 5);

	(void)state;
	assert_int_equal(c.points, 4);
	assert_true(c.have_knee && c.knee.asked == 400);
	assert_true(c.next.asked == 800);
}

static void test_none_and_all(void **state)
{
	const struct load_point none[] = {
		P(100, 90, false, 50000), P(200, 95, false, 90000),
	};
	const struct load_point all[] = {
		P(100, 100, true, 1000), P(200, 200, true, 1100),
	};
	struct load_curve c = judge(none, 2);
	char buf[512];
	FILE *f;

	(void)state;
	assert_false(c.have_knee);
	assert_true(c.have_next && c.next.asked == 100);
	f = fmemopen(buf, sizeof(buf), "w");
	load_curve_terse(f, &c);
	fclose(f);
	assert_string_equal(buf, "knee - - - - 100.00 90.00 50000.000 not-met\n");
	f = fmemopen(buf, sizeof(buf), "w");
	load_curve_human(f, &c);
	fclose(f);
	assert_non_null(strstr(buf, "Knee: none: no rate below the first not met kept its p99; 100 asked: achieved 90.0, not met, p99 50000.0 us (no rate was met: sweep lower)"));

	c = judge(all, 2);
	assert_true(c.have_knee && c.knee.asked == 200);
	assert_false(c.have_next);
	f = fmemopen(buf, sizeof(buf), "w");
	load_curve_human(f, &c);
	fclose(f);
	assert_non_null(strstr(buf, "Knee: 200 ops/s (achieved 200.0, p99 from the intended start 1100.0 us); every rate held: sweep higher"));
	f = fmemopen(buf, sizeof(buf), "w");
	load_curve_terse(f, &c);
	fclose(f);
	assert_string_equal(buf, "knee 200.00 200.00 1100.000 1000.000 - - - -\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knee),
		cmocka_unit_test(test_p99_bound),
		cmocka_unit_test(test_noisy_low_rate),
		cmocka_unit_test(test_none_and_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
