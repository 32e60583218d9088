/* test_ci.c - the batch-means interval of src/stats/ci.c.
 *
 * First the arithmetic, worked out by hand; then what the method is for:
 * on series with known autocorrelation (AR(1): x_i = mu + phi (x_{i-1} -
 * mu) + e_i), about 95% of the intervals must hold the true mean mu,
 * where the textbook interval of independent samples would hold it far
 * less often.  The simulations are seeded: the test is deterministic.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/ci.h"
#include "core/stats.h"

static void near(double got, double want, double tol, const char *what)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("%s = %.9g, want %.9g (+- %g)", what, got, want, tol);
}

/* Ten values: floor(sqrt(10)) = 3 batches is below the minimum of 5, so
 * B = 5 batches of m = 2, none left out.  Batch means 2, 2, 3, 3, 5: mean
 * 3, squared deviations 1 + 1 + 0 + 0 + 4 = 6, s = sqrt(6 / 4) =
 * 1.22474487, t(0.975, 4) = 2.77644511 (printed tables), half-width
 * 2.77644511 * 1.22474487 / 2.23606798 = 1.5207216, 50.69% of 3. */
static void test_hand_computed(void **state)
{
	static const double x[] = { 1, 3, 2, 2, 4, 2, 3, 3, 5, 5 };
	struct ci c;

	(void)state;
	ci_batch_means(x, 10, &c);
	assert_true(c.known);
	assert_int_equal(5, c.batches);
	assert_int_equal(2, c.per_batch);
	assert_int_equal(10, c.used);
	near(c.mean, 3, 1e-12, "mean");
	near(c.high - c.mean, 2.77644511 * 1.22474487 / sqrt(5), 1e-7, "half");
	near(c.low, 3 - 1.5207216, 1e-6, "low");
	near(c.half_pct, 100 * 1.5207216 / 3, 1e-4, "half_pct");
}

/* A run that swung widely: batch means 1, 1, 1, 1, 46 (mean 10, s =
 * sqrt(4 * 81 + 1296) / 2 = 20.1246118, half-width 2.77644511 *
 * 20.1246118 / sqrt(5) = 24.98776) has a half-width above its mean: the
 * low end is 0, never negative (ops/s cannot be), and the half-width and
 * high end stay the t-interval's. */
static void test_low_not_negative(void **state)
{
	static const double x[] = { 1, 1, 1, 1, 1, 1, 1, 1, 46, 46 };
	struct ci c;

	(void)state;
	ci_batch_means(x, 10, &c);
	assert_true(c.known);
	near(c.mean, 10, 1e-12, "mean");
	near(c.low, 0, 0, "low");
	near(c.high, 10 + 2.77644511 * 20.1246118 / sqrt(5), 1e-5, "high");
	near(c.half_pct, 100 * 2.77644511 * 20.1246118 / sqrt(5) / 10, 1e-3, "half_pct");
}

/* The batch layout: B = floor(sqrt(n)) within [5, 30], m = n / B, the
 * last n - B m intervals left out. */
static void test_layout(void **state)
{
	static double x[10000];
	struct ci c;

	(void)state;
	ci_batch_means(x, 9, &c);
	assert_false(c.known);		/* below CI_MIN_INTERVALS */
	assert_int_equal(0, c.batches);
	ci_batch_means(x, 11, &c);	/* B 5, m 2, one left out */
	assert_int_equal(5, c.batches);
	assert_int_equal(2, c.per_batch);
	assert_int_equal(10, c.used);
	ci_batch_means(x, 100, &c);	/* B 10, m 10 */
	assert_int_equal(10, c.batches);
	assert_int_equal(10, c.per_batch);
	assert_int_equal(100, c.used);
	ci_batch_means(x, 10000, &c);	/* B capped at 30: m 333, 10 out */
	assert_int_equal(30, c.batches);
	assert_int_equal(333, c.per_batch);
	assert_int_equal(9990, c.used);
	/* all zero: a mean of 0 known exactly */
	assert_true(c.known);
	near(c.half_pct, 0, 0, "half_pct of zeros");
}

/* A constant rate is known exactly; a left-out interval does not count,
 * and one more interval past the last batch changes nothing. */
static void test_constant(void **state)
{
	double x[21];
	struct ci c;
	int i;

	(void)state;
	for (i = 0; i < 21; i++)
		x[i] = 5000;
	x[20] = 1;	/* 21 values: B 5, m 4, x[20] left out */
	ci_batch_means(x, 21, &c);
	assert_int_equal(20, c.used);
	near(c.half_pct, 0, 0, "half_pct without the odd one");
	x[0] = 1;	/* now in the first batch */
	ci_batch_means(x, 21, &c);
	assert_true(c.half_pct > 0);
	x[0] = 5000;
	ci_batch_means(x, 20, &c);
	near(c.mean, 5000, 0, "mean");
	near(c.low, 5000, 0, "low");
	near(c.high, 5000, 0, "high");
}

/* A result's intervals in ops/s: counts over a 100 ms step. */
static void test_of_result(void **state)
{
	uint64_t ops[12];
	struct result res;
	struct ci c;
	int i;

	(void)state;
	memset(&res, 0, sizeof(res));
	for (i = 0; i < 12; i++)
		ops[i] = 100;
	res.iv_ops = ops;
	res.step_ns = 100000000ULL;
	res.n_full = 12;
	ci_of_result(&res, 0, &c);
	assert_true(c.known);
	near(c.mean, 1000, 1e-9, "ops/s");
	assert_int_equal(10, c.used);	/* B 5, m 2 of 12 */
	ops[0] = 300;	/* the first interval counts ... */
	ci_of_result(&res, 0, &c);
	near(c.mean, 1200, 1e-9, "ops/s with the first at 3000: (9000 + 3000) / 10");
	ci_of_result(&res, 11, &c);	/* ... within a limit too */
	near(c.mean, 1200, 1e-9, "ops/s of the first 11");
	res.n_full = 9;
	ci_of_result(&res, 0, &c);
	assert_false(c.known);
	res.n_full = 12;
	ci_of_result(&res, 9, &c);	/* the first 9: too few */
	assert_false(c.known);
}

/* Share of nsim AR(1) series of n values whose interval holds mu; naive:
 * the textbook interval of n independent values instead. */
static double coverage(double phi, size_t n, int nsim, bool naive)
{
	const double mu = 1000, sd = 50;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double *x = malloc(n * sizeof(*x));
	int s, hit = 0;
	size_t i;

	assert_non_null(rng);
	assert_non_null(x);
	gsl_rng_set(rng, 20261124);
	for (s = 0; s < nsim; s++) {
		/* start from the stationary distribution: no transient */
		double prev = mu + gsl_ran_gaussian(rng, sd / sqrt(1 - phi * phi));

		for (i = 0; i < n; i++) {
			prev = mu + phi * (prev - mu) + gsl_ran_gaussian(rng, sd);
			x[i] = prev;
		}
		if (naive) {
			double m = 0, ss = 0, half;

			for (i = 0; i < n; i++)
				m += x[i];
			m /= (double)n;
			for (i = 0; i < n; i++)
				ss += (x[i] - m) * (x[i] - m);
			half = gsl_cdf_tdist_Pinv(0.975, (double)n - 1) *
			       sqrt(ss / (double)(n - 1) / (double)n);
			hit += m - half <= mu && mu <= m + half;
		} else {
			struct ci c;

			ci_batch_means(x, n, &c);
			hit += c.low <= mu && mu <= c.high;
		}
	}
	free(x);
	gsl_rng_free(rng);
	return (double)hit / nsim;
}

/* 1,000 intervals: the share that holds mu has a binomial spread of
 * sqrt(0.95 * 0.05 / 1000) = 0.7%, so +-2.5% is over three of them. */
static void test_coverage_correlated(void **state)
{
	double c5, c8, naive;

	(void)state;
	c5 = coverage(0.5, 400, 1000, false);
	c8 = coverage(0.8, 900, 1000, false);
	naive = coverage(0.8, 900, 1000, true);
	print_message("coverage: phi 0.5, 400 intervals: %.3f; phi 0.8, 900 intervals: %.3f; the independent-samples interval at phi 0.8: %.3f\n",
		      c5, c8, naive);
	near(c5, 0.95, 0.025, "coverage at phi 0.5");
	near(c8, 0.95, 0.025, "coverage at phi 0.8");
	/* the reason for batches: the naive interval is about a third as
	 * wide as it should be, (1 + phi) / (1 - phi) = 9 in variance */
	assert_true(naive < 0.7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_computed),
		cmocka_unit_test(test_low_not_negative),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_constant),
		cmocka_unit_test(test_of_result),
		cmocka_unit_test(test_coverage_correlated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
