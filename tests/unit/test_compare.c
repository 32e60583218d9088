/* test_compare.c - the ratio B/A and its interval of --compare
 * (src/study/compare.c), against hand computations.
 *
 * Only the t quantile at a fractional df comes from GSL; everything before
 * it (standard errors, Welch-Satterthwaite df) is worked out below, and the
 * quantile lies between the printed table's neighbours.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <gsl/gsl_cdf.h>

#include "study/compare.h"

static void near(double got, double want, double tol, const char *what)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("%s = %.10g, want %.10g (+- %g)", what, got, want, tol);
}

/* Batch means.  A: 1000 ops/s, interval 900..1100 on 4 dof (5 batches):
 * s_A = (200 / 2 / 1000) / t(0.975, 4) = 0.1 / 2.7764451 = 0.0360173.
 * B: 1200 ops/s, 1140..1260 on 9 dof: s_B = 0.05 / 2.2621572 = 0.0221028.
 * se = sqrt(0.0360173^2 + 0.0221028^2) = 0.0422585;
 * df = se^4 / (s_A^4 / 4 + s_B^4 / 9) = 7.13058;
 * t(0.975, 7.13) lies between the table's 2.3646 (7) and 2.3060 (8);
 * ratio 1.2, interval exp(ln 1.2 +- t * se) = about 1.086..1.326: faster. */
static void test_batch_means(void **state)
{
	struct cmp_side a = { 1000, NULL, 0, 1000, 900, 1100, 4 };
	struct cmp_side b = { 1200, NULL, 0, 1200, 1140, 1260, 9 };
	struct cmp_result r;
	double t;

	(void)state;
	compare_ratio(&a, &b, false, &r);
	assert_int_equal(CMP_BATCH, r.method);
	near(r.ratio, 1.2, 1e-12, "ratio");
	near(r.df, 7.130580, 1e-5, "df");
	t = gsl_cdf_tdist_Pinv(0.975, r.df);
	assert_true(t > 2.3060 && t < 2.3646);
	near(r.low, exp(log(1.2) - t * 0.0422585), 1e-6, "low");
	near(r.high, exp(log(1.2) + t * 0.0422585), 1e-6, "high");
	assert_true(r.low > 1.08 && r.low < 1.09 && r.high > 1.32 && r.high < 1.33);
	assert_int_equal(CMP_FASTER, r.verdict);
	/* the other way round: slower, the interval inverted */
	compare_ratio(&b, &a, false, &r);
	assert_int_equal(CMP_SLOWER, r.verdict);
	near(r.ratio, 1 / 1.2, 1e-12, "ratio A/B");
}

/* --repeat.  A runs 100, 110, 90: logs 4.605170, 4.700480, 4.499810,
 * mean 4.601820, variance 0.0100756; B runs 120, 130: logs 4.787492,
 * 4.867534, mean 4.827513, variance 0.0032034.  se = sqrt(0.0100756 / 3
 * + 0.0032034 / 2) = 0.0704290; df = se^4 / ((0.0033585)^2 / 2 +
 * (0.0016017)^2 / 1) = 2.99853; ratio of geometric means
 * exp(4.827513 - 4.601820) = 1.253191; t(0.975, 3.0) = 3.1824 (table). */
static void test_repeat(void **state)
{
	const double ra[] = { 100, 110, 90 }, rb[] = { 120, 130 };
	struct cmp_side a = { 100, ra, 3, 0, 0, 0, 0 };
	struct cmp_side b = { 125, rb, 2, 0, 0, 0, 0 };
	struct cmp_result r;

	(void)state;
	compare_ratio(&a, &b, false, &r);
	assert_int_equal(CMP_REPEAT, r.method);
	near(r.ratio, 1.2531909, 1e-6, "ratio of geometric means");
	near(r.df, 2.9985338, 1e-6, "df");
	near(log(r.high / r.ratio), gsl_cdf_tdist_Pinv(0.975, r.df) * 0.0704290,
	     1e-6, "log half-width");
	near(gsl_cdf_tdist_Pinv(0.975, 3.0), 3.1824463, 1e-6, "t(0.975, 3)");
	near(r.low * r.high, r.ratio * r.ratio, 1e-9, "symmetric on the log scale");
}

/* Latency: lower is better, so B/A below 1 throughout is faster. */
static void test_latency_direction(void **state)
{
	const double ra[] = { 100, 102, 98 }, rb[] = { 50, 51, 49 };
	struct cmp_side a = { 100, ra, 3, 0, 0, 0, 0 };
	struct cmp_side b = { 50, rb, 3, 0, 0, 0, 0 };
	struct cmp_result r;

	(void)state;
	compare_ratio(&a, &b, true, &r);
	assert_true(r.high < 1);
	assert_int_equal(CMP_FASTER, r.verdict);
	compare_ratio(&b, &a, true, &r);
	assert_int_equal(CMP_SLOWER, r.verdict);
	/* two identical sets: ratio 1 inside its interval */
	compare_ratio(&a, &a, true, &r);
	near(r.ratio, 1, 1e-12, "ratio of equals");
	assert_int_equal(CMP_SAME, r.verdict);
}

/* Nothing to build an interval from: the ratio alone; one side with runs
 * and one without is the same. */
static void test_no_interval(void **state)
{
	const double ra[] = { 100, 110 };
	struct cmp_side a = { 100, NULL, 0, 0, 0, 0, 0 };
	struct cmp_side b = { 150, NULL, 0, 0, 0, 0, 0 };
	struct cmp_side c = { 105, ra, 2, 0, 0, 0, 0 };
	struct cmp_result r;

	(void)state;
	compare_ratio(&a, &b, false, &r);
	near(r.ratio, 1.5, 1e-12, "ratio");
	assert_true(isnan(r.low) && isnan(r.high));
	assert_int_equal(CMP_NONE, r.method);
	assert_int_equal(CMP_NO_INTERVAL, r.verdict);
	compare_ratio(&c, &b, false, &r);
	assert_int_equal(CMP_NO_INTERVAL, r.verdict);
	assert_string_equal("no-interval", compare_verdict_name(r.verdict));
	assert_string_equal("none", compare_method_name(r.method));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batch_means),
		cmocka_unit_test(test_repeat),
		cmocka_unit_test(test_latency_direction),
		cmocka_unit_test(test_no_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
