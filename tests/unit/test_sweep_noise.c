/* test_sweep_noise.c - the heatmap's judgements (src/study/sweep_noise.c) and a
 * sweep's shuffled order (src/core/sweep_order.c).
 *
 * Every expected mark below is worked out by hand in the comment beside it:
 * relative standard errors s = (hi - lo) / (2 * 1.96 * v), a cell tied with
 * the best when |ln(v / v_best)| <= 1.96 * sqrt(s^2 + s_best^2); Tukey's
 * far fences q1 - 3 IQR and q3 + 3 IQR with quartiles interpolated between
 * order statistics.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "study/sweep_noise.h"
#include "core/sweep_order.h"

/* Six cells, best 1000 with +-10% (s = 200 / (2 * 1.96 * 1000) = 0.05102):
 *   950 +-10%:  |ln 0.95| = 0.0513 <= 1.96 * sqrt(2) * 0.0510 = 0.1414: tied
 *   800 +-10%:  |ln 0.8| = 0.2231 > 0.1414: not tied
 *   990 +-0%:   s = 0, bound 1.96 * 0.0510 = 0.1 >= 0.01005: tied
 *   900, no interval: never tied
 *   NaN (no value): nothing
 * Quartiles of {1000, 950, 800, 990, 900} sorted {800, 900, 950, 990,
 * 1000}: q1 = 900, q3 = 990, IQR 90, fences 630 and 1260: no outlier. */
static void test_ties(void **state)
{
	const double v[] = { 1000, 950, 800, 990, 900, NAN };
	const double lo[] = { 900, 855, 720, 990, NAN, NAN };
	const double hi[] = { 1100, 1045, 880, 990, NAN, NAN };
	unsigned m[6];
	struct noise_summary s;

	(void)state;
	noise_judge(v, lo, hi, 6, false, m, &s);
	assert_int_equal(0, s.best);
	assert_int_equal(NOISE_BEST, m[0]);
	assert_int_equal(NOISE_TIED, m[1]);
	assert_int_equal(0, m[2]);
	assert_int_equal(NOISE_TIED, m[3]);
	assert_int_equal(0, m[4]);
	assert_int_equal(0, m[5]);
	assert_int_equal(5, s.n);
	assert_int_equal(4, s.known);
	assert_int_equal(2, s.tied);
	assert_int_equal(0, s.outliers);
	/* half-widths 10, 10, 10, 0 %: median (10 + 10) / 2 = 10 */
	assert_true(fabs(s.median_pct - 10) < 1e-9);
	assert_true(fabs(s.min_pct - 0) < 1e-9);
	assert_true(fabs(s.max_pct - 10) < 1e-9);
	assert_true(s.cb_low == 800 && s.cb_high == 1000);
}

/* Latency: the lowest is best.  {50, 52, 80}: best 50 (+-4%); 52 +-4%:
 * |ln 1.04| = 0.0392, s = 0.02041 each, bound 1.96 * 0.02886 = 0.0566:
 * tied; 80: not. */
static void test_lower_better(void **state)
{
	const double v[] = { 52, 50, 80 };
	const double lo[] = { 49.92, 48, 76.8 };
	const double hi[] = { 54.08, 52, 83.2 };
	unsigned m[3];
	struct noise_summary s;

	(void)state;
	noise_judge(v, lo, hi, 3, true, m, &s);
	assert_int_equal(1, s.best);
	assert_int_equal(NOISE_TIED, m[0]);
	assert_int_equal(NOISE_BEST, m[1]);
	assert_int_equal(0, m[2]);
}

/* One cell far out: {10, 11, 12, 13, 14, 15, 16, 17, 100}: q1 = 12, q3 =
 * 16 (h = 2 and 6), IQR 4, fences 0 and 28: 100 is an outlier, and the
 * colour range is 10..17; the best is still 100, marked as both. */
static void test_outlier(void **state)
{
	const double v[] = { 10, 11, 12, 13, 14, 15, 16, 17, 100 };
	double none[9];
	unsigned m[9];
	struct noise_summary s;
	int i;

	(void)state;
	for (i = 0; i < 9; i++)
		none[i] = NAN;
	noise_judge(v, none, none, 9, false, m, &s);
	assert_int_equal(8, s.best);
	assert_int_equal(NOISE_BEST | NOISE_OUTLIER, m[8]);
	assert_int_equal(1, s.outliers);
	assert_true(s.cb_low == 10 && s.cb_high == 17);
	assert_int_equal(0, s.known);
	assert_true(isnan(s.median_pct));
	for (i = 0; i < 8; i++)
		assert_int_equal(0, m[i]);
}

/* Shuffled: every point exactly once, the same order for the same seed,
 * another for another seed; "given" is the identity. */
static void test_order(void **state)
{
	struct sweep_order o;
	size_t a[64], b[64], seen[64];
	size_t i, moved = 0;

	(void)state;
	assert_int_equal(0, sweep_order_parse("shuffled:42", &o));
	assert_true(o.shuffled);
	assert_true(o.seed == 42);
	sweep_order_fill(&o, a, 64);
	sweep_order_fill(&o, b, 64);
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < 64; i++) {
		assert_true(a[i] < 64);
		seen[a[i]]++;
		assert_int_equal(a[i], b[i]);
		moved += a[i] != i;
	}
	for (i = 0; i < 64; i++)
		assert_int_equal(1, seen[i]);
	assert_true(moved > 32);	/* 63.0 expected of a random order */
	o.seed = 43;
	sweep_order_fill(&o, b, 64);
	assert_true(memcmp(a, b, sizeof(a)) != 0);
	assert_int_equal(0, sweep_order_parse("given", &o));
	assert_false(o.shuffled);
	sweep_order_fill(&o, a, 64);
	for (i = 0; i < 64; i++)
		assert_int_equal(i, a[i]);
	assert_int_equal(0, sweep_order_parse(NULL, &o));
	assert_false(o.shuffled);
	assert_int_equal(0, sweep_order_parse("shuffled", &o));
	assert_true(o.shuffled);
	assert_int_equal(-EINVAL, sweep_order_parse("random", &o));
	assert_int_equal(-EINVAL, sweep_order_parse("shuffled:", &o));
	assert_int_equal(-EINVAL, sweep_order_parse("shuffled:x1", &o));
	assert_int_equal(-EINVAL, sweep_order_parse("shuffledx", &o));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_lower_better),
		cmocka_unit_test(test_outlier),
		cmocka_unit_test(test_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
