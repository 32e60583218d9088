/* test_repeat.c - the statistics of --repeat (src/stats/repeat.c).
 *
 * repeat.h promises, for v[0..n-1]: the median (middle value, or the mean of
 * the two middle ones), the trimmed mean without exactly one lowest and one
 * highest value (n >= 3; the plain mean below), the mean, the sample
 * standard deviation (n - 1), the CV in % (0 when the mean is 0), and the
 * 95% interval on the log scale, exp(m +- t(0.975, n-1) * s / sqrt(n))
 * with m and s the mean and standard deviation of the logs (never below
 * 0; NaN for n < 2 or a value that is not positive);
 * v is left as it was.  Every expected value below is worked out by hand in
 * the comment next to it; the t quantiles are the published table values,
 * checked against GSL as well.
 */
#include <math.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <gsl/gsl_cdf.h>

#include "stats/repeat.h"
#include "core/stats.h"

/* Student's t, two-sided 95% (upper 0.975 quantile), from a printed table. */
#define T_975_1 12.7062047
#define T_975_2 4.30265273
#define T_975_4 2.77644511

/* |got - want| <= rel * max(|want|, 1e-12) */
static void near(double got, double want, double rel, const char *what)
{
	double tol = rel * fmax(fabs(want), 1e-12);

	if (!(fabs(got - want) <= tol))
		fail_msg("%s = %.12g, want %.12g (relative tolerance %g)", what,
			 got, want, rel);
}

#define NEAR(got, want) near((got), (want), 1e-7, #got)
#define EXACT(got, want) do { \
	if ((got) != (want)) \
		fail_msg("%s = %.17g, want exactly %.17g", #got, (double)(got), \
			 (double)(want)); \
} while (0)

static void summarize(const double *v, size_t n, struct repeat_stat *st)
{
	memset(st, 0xa5, sizeof(*st));	/* no field may keep stale garbage */
	assert_int_equal(0, repeat_summarize(v, n, st));
	assert_int_equal(n, st->n);
}

/* The table values are the ones GSL's inverse t CDF gives. */
static void test_t_quantiles_match_gsl(void **state)
{
	(void)state;
	near(gsl_cdf_tdist_Pinv(0.975, 1), T_975_1, 1e-8, "t(0.975, 1)");
	near(gsl_cdf_tdist_Pinv(0.975, 2), T_975_2, 1e-8, "t(0.975, 2)");
	near(gsl_cdf_tdist_Pinv(0.975, 4), T_975_4, 1e-8, "t(0.975, 4)");
	/* large dof tends to the normal quantile 1.959963985 */
	near(gsl_cdf_tdist_Pinv(0.975, 1e6), 1.959963985, 1e-5, "t(0.975, 1e6)");
}

/* n = 1: v = {42}.  median = trimmed = mean = 42; no spread can be
 * estimated from one run: stddev 0, CV 0, CI NaN. */
static void test_n1(void **state)
{
	const double v[] = { 42 };
	struct repeat_stat st;

	(void)state;
	summarize(v, 1, &st);
	EXACT(st.median, 42);
	EXACT(st.trimmed_mean, 42);
	EXACT(st.mean, 42);
	EXACT(st.stddev, 0);
	EXACT(st.cv_pct, 0);
	assert_true(isnan(st.ci_low));
	assert_true(isnan(st.ci_high));
}

/* n = 2: v = {10, 4}.  sorted {4, 10}
 *   median  = (4 + 10) / 2 = 7          (even n: mean of the middle two)
 *   mean    = 14 / 2 = 7
 *   trimmed = mean = 7                  (n < 3: nothing dropped)
 *   ss      = (4-7)^2 + (10-7)^2 = 9 + 9 = 18
 *   s       = sqrt(18 / 1) = 4.242640687119285
 *   CV      = 100 * 4.242640687 / 7 = 60.60915267313264 %
 *   (the plain-mean interval would be 7 +- 12.7062047 * 3 = [-31.1, 45.1]:
 *   below zero, which is why the interval is taken on the log scale)
 *   logs    = 2.302585093, 1.386294361; mean 1.844439727 (log of the
 *             geometric mean 6.32455532), s_log = 0.64791539
 *   half    = 12.7062047 * 0.64791539 / sqrt(2) = 5.82128880
 *   CI      = [exp(1.844439727 - 5.8212888), exp(1.844439727 + 5.8212888)]
 *           = [0.0187446092, 2133.94686]
 */
static void test_n2(void **state)
{
	const double v[] = { 10, 4 };
	struct repeat_stat st;

	(void)state;
	summarize(v, 2, &st);
	EXACT(st.median, 7);
	EXACT(st.mean, 7);
	EXACT(st.trimmed_mean, 7);
	NEAR(st.stddev, 4.242640687119285);
	NEAR(st.cv_pct, 60.60915267313264);
	NEAR(st.ci_low, 0.0187446092438968);
	NEAR(st.ci_high, 2133.94685797593);
}

/* n = 3: v = {9, 1, 2}.  sorted {1, 2, 9}
 *   median  = 2                         (odd n: the middle value)
 *   mean    = 12 / 3 = 4
 *   trimmed = (12 - 1 - 9) / 1 = 2      (drop 1 and 9)
 *   ss      = 9 + 4 + 25 = 38, s^2 = 38 / 2 = 19
 *   s       = sqrt(19) = 4.358898943540674
 *   CV      = 100 * 4.358898944 / 4 = 108.97247358851685 %
 *   logs    = 2.197224577, 0, 0.693147181; mean 0.963457253,
 *             s_log = 1.123276285
 *   half    = 4.30265273 * 1.123276285 / sqrt(3) = 2.790372980
 *   CI      = [exp(0.963457253 - 2.79037298), exp(0.963457253 + 2.79037298)]
 *           = [0.160909091, 42.6842599]
 */
static void test_n3(void **state)
{
	const double v[] = { 9, 1, 2 };
	struct repeat_stat st;

	(void)state;
	summarize(v, 3, &st);
	EXACT(st.median, 2);
	EXACT(st.mean, 4);
	EXACT(st.trimmed_mean, 2);
	NEAR(st.stddev, 4.358898943540674);
	NEAR(st.cv_pct, 108.97247358851685);
	NEAR(st.ci_low, 0.160909090710725);
	NEAR(st.ci_high, 42.6842599444395);
}

/* n = 5: v = {5, 1, 4, 2, 8}.  sorted {1, 2, 4, 5, 8}
 *   median  = 4
 *   mean    = 20 / 5 = 4
 *   trimmed = (20 - 1 - 8) / 3 = 11 / 3 = 3.6666666666666667
 *   ss      = 9 + 4 + 0 + 1 + 16 = 30, s^2 = 30 / 4 = 7.5
 *   s       = sqrt(7.5) = 2.7386127875258306
 *   CV      = 100 * 2.738612788 / 4 = 68.46531968814577 %
 *   logs    = 1.609437912, 0, 1.386294361, 0.693147181, 2.079441542;
 *             mean 1.153664199, s_log = 0.815770673
 *   half    = 2.77644511 * 0.815770673 / sqrt(5) = 1.012913078
 *   CI      = [exp(0.140751121), exp(2.166577277)] = [1.15113812, 8.72835810]
 */
static void test_n5(void **state)
{
	const double v[] = { 5, 1, 4, 2, 8 };
	struct repeat_stat st;

	(void)state;
	summarize(v, 5, &st);
	EXACT(st.median, 4);
	EXACT(st.mean, 4);
	NEAR(st.trimmed_mean, 11.0 / 3.0);
	NEAR(st.stddev, 2.7386127875258306);
	NEAR(st.cv_pct, 68.46531968814577);
	NEAR(st.ci_low, 1.15113811866062);
	NEAR(st.ci_high, 8.72835810330812);
}

/* Medians: odd n takes the middle of the sorted values, even n the mean
 * of the two middle ones, whatever the input order. */
static void test_medians(void **state)
{
	/* {7, 1, 3, 5} sorted {1, 3, 5, 7}: (3 + 5) / 2 = 4 */
	const double even4[] = { 7, 1, 3, 5 };
	/* {6, 100, -2, 3, 0, 1} sorted {-2, 0, 1, 3, 6, 100}: (1 + 3) / 2 = 2 */
	const double even6[] = { 6, 100, -2, 3, 0, 1 };
	/* {0.5, 0.25, 0.75, 100, -100, 0.3, 0.4} sorted
	 * {-100, 0.25, 0.3, 0.4, 0.5, 0.75, 100}: 0.4 */
	const double odd7[] = { 0.5, 0.25, 0.75, 100, -100, 0.3, 0.4 };
	/* descending {9, 8, 7}: 8 */
	const double odd3[] = { 9, 8, 7 };
	struct repeat_stat st;

	(void)state;
	summarize(even4, 4, &st);
	EXACT(st.median, 4);
	summarize(even6, 6, &st);
	EXACT(st.median, 2);
	summarize(odd7, 7, &st);
	EXACT(st.median, 0.4);
	summarize(odd3, 3, &st);
	EXACT(st.median, 8);
}

/* Ties: exactly one lowest and one highest value go, not every copy.
 *   {10, 1, 4, 1, 10} sorted {1, 1, 4, 10, 10}
 *   trimmed = (1 + 4 + 10) / 3 = 5      (dropping all 1s and 10s would give 4)
 *   mean    = 26 / 5 = 5.2, median = 4
 *   {1, 1, 1, 5}: trimmed = (1 + 1) / 2 = 1; mean = 8 / 4 = 2
 *   {3, 3, 3}: trimmed = 3 (one value left, not a division by zero)
 */
static void test_trimmed_ties(void **state)
{
	const double a[] = { 10, 1, 4, 1, 10 };
	const double b[] = { 1, 1, 1, 5 };
	const double c[] = { 3, 3, 3 };
	struct repeat_stat st;

	(void)state;
	summarize(a, 5, &st);
	EXACT(st.trimmed_mean, 5);
	NEAR(st.mean, 5.2);
	EXACT(st.median, 4);
	summarize(b, 4, &st);
	EXACT(st.trimmed_mean, 1);
	EXACT(st.mean, 2);
	EXACT(st.median, 1);
	summarize(c, 3, &st);
	EXACT(st.trimmed_mean, 3);
}

/* n = 3: the trimmed mean is the middle value itself, the median.
 *   {13.2475, 13.3755, 13.3755} (p50 of three real runs, in us) sorted
 *   {13.2475, 13.3755, 13.3755}: drop 13.2475 and one 13.3755, 13.3755
 *   is left.  Taken as (sum - min - max) / 1 in doubles it comes out as
 *   13.375499999999997, and -n prints median 13.376 next to trimmed
 *   mean 13.375 for the same three runs. */
static void test_trimmed_n3_is_median(void **state)
{
	const double a[] = { 13.2475, 13.3755, 13.3755 };
	const double b[] = { 29.0555, 28.2875, 27.2635 };
	struct repeat_stat st;

	(void)state;
	summarize(a, 3, &st);
	EXACT(st.median, 13.3755);
	EXACT(st.trimmed_mean, 13.3755);
	summarize(b, 3, &st);
	EXACT(st.median, 28.2875);
	EXACT(st.trimmed_mean, 28.2875);
}

/* The caller's array is sorted on a copy, never in place. */
static void test_input_not_modified(void **state)
{
	double v[] = { 5, 1, 4, 2, 8, 3, 7 };
	double copy[sizeof(v) / sizeof(v[0])];
	struct repeat_stat st;

	(void)state;
	memcpy(copy, v, sizeof(v));
	summarize(v, 7, &st);
	assert_memory_equal(v, copy, sizeof(v));
	EXACT(st.median, 4);
}

/* All equal: no spread.  {3.5 x 4}: mean 3.5, ss 0, s 0, CV 0,
 * half = t * 0 / 2 = 0, CI [3.5, 3.5]. */
static void test_all_equal(void **state)
{
	const double v[] = { 3.5, 3.5, 3.5, 3.5 };
	struct repeat_stat st;

	(void)state;
	summarize(v, 4, &st);
	EXACT(st.median, 3.5);
	EXACT(st.trimmed_mean, 3.5);
	EXACT(st.mean, 3.5);
	EXACT(st.stddev, 0);
	EXACT(st.cv_pct, 0);
	EXACT(st.ci_low, 3.5);
	EXACT(st.ci_high, 3.5);
	/* two equal runs as well: t(0.975, 1) * 0 = 0 */
	summarize(v, 2, &st);
	EXACT(st.stddev, 0);
	EXACT(st.ci_low, 3.5);
	EXACT(st.ci_high, 3.5);
	/* all zero (no I/O in any run): everything 0, not NaN */
	{
		const double z[] = { 0, 0, 0 };

		summarize(z, 3, &st);
		EXACT(st.mean, 0);
		EXACT(st.stddev, 0);
		EXACT(st.cv_pct, 0);
		EXACT(st.ci_low, 0);
		EXACT(st.ci_high, 0);
	}
}

/* All equal, with values a double cannot hold exactly (latency percentiles
 * from the histogram are often identical over runs: 12.288 us three times).
 * The promise is the same: mean = x, stddev 0, CV 0, CI [x, x].
 *   {0.1, 0.1, 0.1}: sum/n in doubles is 0.1 + 1.4e-17, above the max
 *   {12.288 x 3}: sum/n is 12.288 + 1.8e-15
 *   {1234.567 x 7}: sum/n is 1234.567 + 2.3e-13
 * so a mean taken as sum / n leaves a stddev of about 1e-17..1e-13 and a
 * CI that is not [x, x]; the mean must never leave [min, max]. */
static void check_all_equal(double x, size_t n)
{
	double v[8];
	struct repeat_stat st;
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = x;
	summarize(v, n, &st);
	if (st.mean != x || st.trimmed_mean != x || st.median != x ||
	    st.stddev != 0 || st.cv_pct != 0 || st.ci_low != x || st.ci_high != x)
		fail_msg("%zu x %.17g: mean %.17g, trimmed %.17g, median %.17g, stddev %.17g, CV %.17g, CI [%.17g, %.17g]; want mean = trimmed = median = x, stddev 0, CV 0, CI [x, x]",
			 n, x, st.mean, st.trimmed_mean, st.median, st.stddev,
			 st.cv_pct, st.ci_low, st.ci_high);
}

static void test_all_equal_inexact(void **state)
{
	(void)state;
	check_all_equal(0.1, 3);
	check_all_equal(12.288, 3);
	check_all_equal(57.344, 5);
	check_all_equal(1234.567, 7);
}

/* Mean 0 with a spread: CV is 0, not inf or NaN.
 *   {-2, 0, 2}: mean 0, ss = 4 + 0 + 4 = 8, s = sqrt(8 / 2) = 2
 * and no interval: a value that is not positive has no log (the figures
 * of a run never are; a run without I/O would be). */
static void test_mean_zero(void **state)
{
	const double v[] = { 2, -2, 0 };
	struct repeat_stat st;

	(void)state;
	summarize(v, 3, &st);
	EXACT(st.mean, 0);
	EXACT(st.stddev, 2);
	EXACT(st.cv_pct, 0);
	assert_true(isnan(st.ci_low));
	assert_true(isnan(st.ci_high));
	{
		const double z[] = { 0, 5, 6 };	/* one run did nothing */

		summarize(z, 3, &st);
		assert_true(isnan(st.ci_low));
		assert_true(isnan(st.ci_high));
	}
}

/* A negative mean: CV uses |mean|, it is never negative.
 *   {-10, -4}: mean -7, s = 4.242640687, CV = 60.60915267 % */
static void test_negative_mean_cv(void **state)
{
	const double v[] = { -10, -4 };
	struct repeat_stat st;

	(void)state;
	summarize(v, 2, &st);
	EXACT(st.mean, -7);
	NEAR(st.cv_pct, 60.60915267313264);
}

/* REPEAT_MAX runs of 1..1000:
 *   median  = (500 + 501) / 2 = 500.5, mean = 500500 / 1000 = 500.5
 *   trimmed = (500500 - 1 - 1000) / 998 = 499499 / 998 = 500.5
 *   s^2     = n (n + 1) / 12 = 1000 * 1001 / 12 = 83416.666...
 *             (sample variance of 1..n), s = 288.8194360...
 *   the interval: on the logs of 1..1000, t(0.975, 999) from GSL */
static void test_max_runs(void **state)
{
	double *v = malloc(REPEAT_MAX * sizeof(*v));
	double s = sqrt(1000.0 * 1001.0 / 12.0);
	double half = gsl_cdf_tdist_Pinv(0.975, 999) * s / sqrt(1000.0);
	double lm = 0, lss = 0, lhalf;
	struct repeat_stat st;
	size_t i;

	for (i = 1; i <= 1000; i++)
		lm += log((double)i) / 1000;
	for (i = 1; i <= 1000; i++)
		lss += (log((double)i) - lm) * (log((double)i) - lm);
	lhalf = gsl_cdf_tdist_Pinv(0.975, 999) * sqrt(lss / 999) / sqrt(1000.0);

	(void)state;
	assert_non_null(v);
	assert_int_equal(1000, REPEAT_MAX);
	for (i = 0; i < REPEAT_MAX; i++)	/* shuffled: 1..1000 in a cycle */
		v[i] = (double)((i * 7 + 3) % 1000 + 1);
	summarize(v, REPEAT_MAX, &st);
	EXACT(st.median, 500.5);
	EXACT(st.mean, 500.5);
	EXACT(st.trimmed_mean, 500.5);
	NEAR(st.stddev, s);
	NEAR(st.ci_low, exp(lm - lhalf));
	NEAR(st.ci_high, exp(lm + lhalf));
	/* t(0.975, 999) is 1.962341 (table) */
	near(half * sqrt(1000.0) / s, 1.962341, 1e-6, "t(0.975, 999)");
	free(v);
}

/* The interval is never below zero, holds the geometric mean g at its
 * centre on the log scale (g / low = high / g), and its log half-width is
 * t(0.975, n - 1) * s_log / sqrt(n). */
static void test_ci_log_scale(void **state)
{
	const double v[] = { 1000, 1100, 950, 1020, 990, 1005 };
	struct repeat_stat st;
	size_t n, i;

	(void)state;
	for (n = 2; n <= 6; n++) {
		double lm = 0, lss = 0;

		for (i = 0; i < n; i++)
			lm += log(v[i]) / (double)n;
		for (i = 0; i < n; i++)
			lss += (log(v[i]) - lm) * (log(v[i]) - lm);
		summarize(v, n, &st);
		assert_true(st.ci_low > 0);
		assert_true(st.ci_low <= exp(lm) && exp(lm) <= st.ci_high);
		NEAR(exp(lm) / st.ci_low, st.ci_high / exp(lm));
		NEAR(log(st.ci_high / exp(lm)) * sqrt((double)n) /
		     sqrt(lss / (double)(n - 1)),
		     gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)));
	}
}

static void test_names(void **state)
{
	static const char *const keys[RM_COUNT] = {
		"ops_per_s", "mib_per_s", "lat_avg_us", "lat_p50_us",
		"lat_p90_us", "lat_p99_us", "lat_p999_us",
	};
	static const char *const labels[RM_COUNT] = {
		"ops/s", "MiB/s", "avg (us)", "p50 (us)", "p90 (us)",
		"p99 (us)", "p99.9 (us)",
	};
	int m;

	(void)state;
	assert_int_equal(7, RM_COUNT);
	assert_int_equal(0, RM_OPS);
	for (m = 0; m < RM_COUNT; m++) {
		assert_string_equal(keys[m], repeat_key((enum repeat_metric)m));
		assert_string_equal(labels[m], repeat_label((enum repeat_metric)m));
	}
	assert_string_equal("ops_per_s", repeat_key(RM_OPS));
	assert_string_equal("mib_per_s", repeat_key(RM_MBPS));
	assert_string_equal("lat_avg_us", repeat_key(RM_LAT_AVG));
	assert_string_equal("lat_p50_us", repeat_key(RM_P50));
	assert_string_equal("lat_p90_us", repeat_key(RM_P90));
	assert_string_equal("lat_p99_us", repeat_key(RM_P99));
	assert_string_equal("lat_p999_us", repeat_key(RM_P999));
	assert_string_equal("p99.9 (us)", repeat_label(RM_P999));
}

/* --warmup: thread_stats_reset() forgets what the warm-up recorded and, as
 * stats.h says, keeps the allocations.  With -g 0 the per-I/O log is a
 * chain of chunks; after the reset the measured run must refill the same
 * chain.  Here the warm-up logs 2 chunks and a bit (3 chunks: A -> B -> C),
 * the measured run 1 chunk and 5 records: they belong in A and B, the chain
 * still A -> B -> C, and thread_stats_free() frees all three.  A reset that
 * only rewinds log_tail to A makes the next chunk a new D linked as A -> D,
 * and B and C are lost (LeakSanitizer reports them at exit as well). */
static void test_warmup_reset_keeps_log_chain(void **state)
{
	struct thread_stats st;
	struct io_log_chunk *a, *b, *c, *k;
	const uint64_t step = 1000000;	/* 1 ms intervals */
	size_t i, total, chunks;

	(void)state;
	assert_int_equal(0, thread_stats_init(&st, step, 0, true));
	for (i = 0; i < 2 * IO_LOG_CHUNK + 10; i++)	/* the warm-up */
		assert_int_equal(0, stats_record(&st, IO_READ, i * 512, 512,
						 i * 1000, 20000 + i % 7));
	a = st.log_head;
	assert_non_null(a);
	b = a->next;
	assert_non_null(b);
	c = b->next;
	assert_non_null(c);
	assert_null(c->next);

	thread_stats_reset(&st);
	assert_int_equal(0, thread_stats_count(&st));
	assert_int_equal(0, thread_stats_ops(&st, IO_READ));
	assert_int_equal(0, st.cur);
	for (i = 0; i < st.cap; i++)
		if (st.iv[i].ops || st.iv[i].lat_sum || st.iv[i].lat_max)
			fail_msg("interval %zu keeps warm-up data after the reset", i);

	for (i = 0; i < IO_LOG_CHUNK + 5; i++)		/* the measured run */
		assert_int_equal(0, stats_record(&st, IO_READ, i * 4096, 512,
						 i * 1000, 30000));
	assert_int_equal(IO_LOG_CHUNK + 5, st.hist[IO_READ].count);
	assert_int_equal(IO_LOG_CHUNK + 5, thread_stats_ops(&st, IO_READ));
	for (total = 0, chunks = 0, k = st.log_head; k; k = k->next, chunks++)
		total += k->n;
	if (a->next != b) {
		/* free all of it first, so the failure is the only report */
		bool b_linked = false;

		for (k = st.log_head; k; k = k->next)
			b_linked |= k == b;
		k = a->next;
		thread_stats_free(&st);
		if (!b_linked) {
			free(c);
			free(b);
		}
		fail_msg("after the reset the log went on in a new chunk %p instead of the kept %p: the warm-up's chunks B (%p) and C (%p) are no longer linked and leak",
			 (void *)k, (void *)b, (void *)b, (void *)c);
	}
	assert_int_equal(IO_LOG_CHUNK + 5, total);
	assert_ptr_equal(a, st.log_head);
	assert_int_equal(3, chunks);
	assert_int_equal(0, a->recs[0].t_ns);	/* times from the measured start */
	assert_int_equal(0, a->recs[0].off);
	assert_int_equal(5, b->n);
	assert_int_equal(0, c->n);
	thread_stats_free(&st);
}

/* The run --repeat shows: rank (n - 1) / 2 by ops/s, ties in run order. */
static void test_median_run(void **state)
{
	/* sorted: 2699 (run 2), 3187 (4), 3634 (1), 4939 (3), 13478 (0) */
	const double five[] = { 13478, 3634, 2699, 4939, 3187 };
	/* sorted: 10 (1), 20 (3), 30 (2), 40 (0): the lower middle, 20 */
	const double four[] = { 40, 10, 30, 20 };
	const double ties[] = { 5, 5, 5 };
	const double one[] = { 7 };

	(void)state;
	assert_int_equal(1, repeat_median_run(five, 5));
	assert_int_equal(3, repeat_median_run(four, 4));
	assert_int_equal(1, repeat_median_run(ties, 3));
	assert_int_equal(0, repeat_median_run(one, 1));
}

/* Every sequence of n <= 7 runs of ops/s from {0, 1, 2, 3} (ties
 * included): the final median run may be the median after every prefix
 * that holds it (nothing it needs is thrown away), and at most n / 2 + 1
 * runs may be after any prefix (what is kept stays about half). */
static void test_may_be_median(void **state)
{
	double v[7];
	size_t n, c, i, code, codes, kept, med;

	(void)state;
	for (n = 1; n <= 7; n++) {
		for (codes = 1, i = 0; i < n; i++)
			codes *= 4;
		for (code = 0; code < codes; code++) {
			size_t x = code;

			for (i = 0; i < n; i++, x /= 4)
				v[i] = (double)(x % 4);
			med = repeat_median_run(v, n);
			for (c = 1; c <= n; c++) {
				for (kept = 0, i = 0; i < c; i++)
					kept += repeat_may_be_median(v, c, n, i);
				assert_true(kept <= n / 2 + 1);
				assert_true(kept >= 1);
				if (med < c)
					assert_true(repeat_may_be_median(v, c, n, med));
			}
			assert_int_equal(1, kept);	/* c == n: the median only */
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_quantiles_match_gsl),
		cmocka_unit_test(test_n1),
		cmocka_unit_test(test_n2),
		cmocka_unit_test(test_n3),
		cmocka_unit_test(test_n5),
		cmocka_unit_test(test_medians),
		cmocka_unit_test(test_trimmed_ties),
		cmocka_unit_test(test_trimmed_n3_is_median),
		cmocka_unit_test(test_input_not_modified),
		cmocka_unit_test(test_all_equal),
		cmocka_unit_test(test_all_equal_inexact),
		cmocka_unit_test(test_mean_zero),
		cmocka_unit_test(test_negative_mean_cv),
		cmocka_unit_test(test_max_runs),
		cmocka_unit_test(test_ci_log_scale),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_warmup_reset_keeps_log_chain),
		cmocka_unit_test(test_median_run),
		cmocka_unit_test(test_may_be_median),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
