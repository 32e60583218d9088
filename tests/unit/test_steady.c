/* test_steady.c - the SNIA steady-state criteria (src/stats/steady.c), on
 * series worked out by hand: the window is the last 5 rounds, x = 0..4
 * (mean 2, sum of squared deviations 10), slope = sum((x - 2)(y - ybar))
 * / 10, excursion |slope| * 4. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/steady.h"

static void near(double got, double want, const char *what)
{
	if (!(fabs(got - want) <= 1e-9 * fmax(1, fabs(want))))
		fail_msg("%s = %.12g, want %.12g", what, got, want);
}

/* The window 100 102 98 101 99 (rounds 3-7): ybar 100, range 4 = 4%;
 * slope ((-2)(0) + (-1)(2) + 0 + (1)(1) + (2)(-1)) / 10 = -0.3, excursion
 * 1.2 = 1.2%: steady. */
static void test_both_pass(void **state)
{
	const double y[] = { 50, 70, 100, 102, 98, 101, 99 };
	struct steady_verdict v;

	(void)state;
	steady_judge(y, 7, &v);
	assert_true(v.judged && v.steady && v.range_ok && v.slope_ok);
	assert_int_equal(3, v.first);
	assert_int_equal(7, v.last);
	near(v.mean, 100, "mean");
	near(v.range_pct, 4, "range");
	near(v.slope_pct, 1.2, "slope");
}

/* 90 115 90 90 115: ybar 100, range 25
 * = 25% > 20%; slope ((-2)(-10) + (-1)(15) + 0 + (1)(-10) + (2)(15)) / 10
 * = (20 - 15 - 10 + 30) / 10 = 2.5, excursion 10 = 10% <= 10%: only the
 * range fails. */
static void test_range_fails(void **state)
{
	const double y[] = { 90, 115, 90, 90, 115 };
	struct steady_verdict v;

	(void)state;
	steady_judge(y, 5, &v);
	near(v.range_pct, 25, "range");
	near(v.slope_pct, 10, "slope");
	assert_false(v.range_ok);
	assert_true(v.slope_ok);
	assert_false(v.steady);
}

/* 92 96 100 104 108: ybar 100, range 16% <= 20%; slope 4, excursion 16
 * = 16% > 10%: only the slope fails (a device still slowing or speeding
 * up within the range). */
static void test_slope_fails(void **state)
{
	const double y[] = { 92, 96, 100, 104, 108 };
	struct steady_verdict v;

	(void)state;
	steady_judge(y, 5, &v);
	near(v.range_pct, 16, "range");
	near(v.slope_pct, 16, "slope");
	assert_true(v.range_ok);
	assert_false(v.slope_ok);
	assert_false(v.steady);
}

/* 60 80 100 120 140: range 80%, slope 20 * 4 = 80%: both fail. */
static void test_both_fail(void **state)
{
	const double y[] = { 60, 80, 100, 120, 140 };
	struct steady_verdict v;

	(void)state;
	steady_judge(y, 5, &v);
	near(v.range_pct, 80, "range");
	near(v.slope_pct, 80, "slope");
	assert_false(v.range_ok || v.slope_ok || v.steady);
}

/* Fewer than 5 rounds: not judged; none measured: never steady. */
static void test_too_few(void **state)
{
	const double y[] = { 100, 100, 100, 100, 0, 0, 0, 0, 0 };
	struct steady_verdict v;

	(void)state;
	steady_judge(y, 4, &v);
	assert_false(v.judged || v.steady);
	steady_judge(y + 4, 5, &v);
	assert_true(v.judged);
	assert_false(v.steady);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_both_pass),
		cmocka_unit_test(test_range_fails),
		cmocka_unit_test(test_slope_fails),
		cmocka_unit_test(test_both_fail),
		cmocka_unit_test(test_too_few),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
