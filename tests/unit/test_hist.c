/* test_hist.c - the latency histogram of src/core/hist.c against its header.
 *
 * hist.h promises: exact buckets below 128 ns, relative bucket width <= 1/64
 * above, reported percentiles within 1/128 of the true nearest-rank value,
 * never outside [min, max], the whole 0 .. 2^64-1 range, exact min/max/mean,
 * and merging equal to having recorded everything in one histogram.  Each
 * promise is checked here: bucket geometry over many values and the edges,
 * then percentiles of fixed-seed data sets against a sorted copy.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/hist.h"
#include "gen/prng.h"

#define N_VALUES 200000

static const double pcts[] = { 1, 50, 90, 99, 99.9 };

static struct hist *hist_new(void)
{
	struct hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	hist_init(h);
	return h;
}

/* Bucket of v: must contain v, and be narrow enough for the bound. */
static void check_bucket(uint64_t v)
{
	unsigned idx = hist_index(v);
	uint64_t lo, width;

	if (idx >= HIST_BUCKETS)
		fail_msg("hist_index(%llu) = %u, past the last bucket %u",
			 (unsigned long long)v, idx, HIST_BUCKETS - 1);
	hist_bucket_range(idx, &lo, &width);
	/* 128-bit end: the last bucket ends at 2^64 */
	if (v < lo || (unsigned __int128)v >=
	    (unsigned __int128)lo + width)
		fail_msg("value %llu in bucket %u = [%llu, +%llu)",
			 (unsigned long long)v, idx, (unsigned long long)lo,
			 (unsigned long long)width);
	if (v < 128) {
		if (width != 1 || lo != v)
			fail_msg("value %llu below 128 not exact: bucket [%llu, +%llu)",
				 (unsigned long long)v,
				 (unsigned long long)lo,
				 (unsigned long long)width);
	} else if ((unsigned __int128)width * 64 > lo) {
		fail_msg("bucket %u of %llu: width %llu > lo/64 (lo %llu)",
			 idx, (unsigned long long)v,
			 (unsigned long long)width, (unsigned long long)lo);
	}
}

static void test_bucket_edges(void **state)
{
	uint64_t lo, width;
	int e;

	(void)state;
	check_bucket(0);
	check_bucket(1);
	check_bucket(63);
	check_bucket(64);
	check_bucket(127);
	check_bucket(128);
	check_bucket(129);
	check_bucket(255);
	check_bucket(256);
	check_bucket(1ULL << 63);
	check_bucket((1ULL << 63) - 1);
	check_bucket((1ULL << 63) + 1);
	check_bucket(UINT64_MAX);
	check_bucket(UINT64_MAX - 1);
	for (e = 0; e < 64; e++) {
		uint64_t p = 1ULL << e;

		check_bucket(p);
		check_bucket(p - 1);
		check_bucket(p + 1);
		check_bucket(p + p / 2);
	}
	assert_int_equal(hist_index(127), 127);
	assert_int_equal(hist_index(128), 128);
	assert_int_equal(hist_index(UINT64_MAX), HIST_BUCKETS - 1);
	hist_bucket_range(HIST_BUCKETS - 1, &lo, &width);
	assert_true((unsigned __int128)lo + width ==
		    (unsigned __int128)1 << 64);
}

static void test_bucket_many_values(void **state)
{
	struct prng r;
	uint64_t v;
	int i;

	(void)state;
	for (v = 0; v < 300000; v++)
		check_bucket(v);
	/* random values with a random magnitude: every octave gets hit */
	prng_seed(&r, 42, 0);
	for (i = 0; i < 200000; i++) {
		unsigned bits = (unsigned)prng_below(&r, 64) + 1;

		v = prng_next(&r);
		if (bits < 64)
			v &= (1ULL << bits) - 1;
		check_bucket(v);
	}
}

static void test_buckets_tile_range(void **state)
{
	unsigned __int128 end = 0;
	uint64_t lo, width;
	unsigned i;

	(void)state;
	/* consecutive buckets touch: no gap, no overlap, 0 .. 2^64 */
	for (i = 0; i < HIST_BUCKETS; i++) {
		hist_bucket_range(i, &lo, &width);
		if ((unsigned __int128)lo != end)
			fail_msg("bucket %u starts at %llu, previous ends at %llu",
				 i, (unsigned long long)lo,
				 (unsigned long long)end);
		assert_true(width > 0);
		/* the lowest value of a bucket maps back to it */
		assert_int_equal(hist_index(lo), i);
		assert_int_equal(hist_index(lo + (width - 1)), i);
		end = (unsigned __int128)lo + width;
	}
	assert_true(end == (unsigned __int128)1 << 64);
}

static void test_midpoint_error_bound(void **state)
{
	struct prng r;
	uint64_t v, lo, width;
	double mid;
	int i;

	(void)state;
	/* what a percentile reports for v: the midpoint of v's bucket */
	prng_seed(&r, 7, 0);
	for (i = 0; i < 200000; i++) {
		unsigned bits = (unsigned)prng_below(&r, 64) + 1;

		v = prng_next(&r);
		if (bits < 64)
			v &= (1ULL << bits) - 1;
		hist_bucket_range(hist_index(v), &lo, &width);
		mid = (double)lo + (double)(width - 1) / 2.0;
		if (v < 128)
			assert_true(mid == (double)v);
		else if (fabs(mid - (double)v) > (double)v / 128.0)
			fail_msg("value %llu: midpoint %.1f off by more than 1/128",
				 (unsigned long long)v, mid);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest k with k >= p * n / 100, for p as written in
 * decimal.  99.9 is not exact in binary and p / 100 * n lands just above
 * 999 for n = 1000; the tolerance takes the rank the user meant. */
static uint64_t nearest_rank(size_t n, double p)
{
	double x = p / 100.0 * (double)n;

	return (uint64_t)ceil(x - 1e-9 * x);
}

/* Exact nearest-rank percentile of a sorted array, as hist.h defines it. */
static uint64_t exact_pct(const uint64_t *sorted, size_t n, double p)
{
	uint64_t rank = nearest_rank(n, p);

	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

/* Fill a histogram with vals, then check every stated property. */
static void check_against_exact(uint64_t *vals, size_t n, const char *what)
{
	struct hist *h = hist_new();
	unsigned __int128 sum = 0;
	double prev = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		hist_add(h, vals[i]);
		sum += vals[i];
	}
	qsort(vals, n, sizeof(*vals), cmp_u64);
	assert_true(h->count == n);
	assert_true(h->min == vals[0]);
	assert_true(h->max == vals[n - 1]);
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		uint64_t x = exact_pct(vals, n, pcts[i]);
		double got = hist_percentile(h, pcts[i]);

		if (x < 128 ? got != (double)x :
		    fabs(got - (double)x) > (double)x / 128.0)
			fail_msg("%s: p%g = %.1f, exact %llu, error %.4f%% > %.4f%%",
				 what, pcts[i], got, (unsigned long long)x,
				 100.0 * fabs(got - (double)x) / (double)x,
				 100.0 / 128);
	}
	/* never outside [min, max], never decreasing in p */
	for (i = 0; i <= 1000; i++) {
		double p = i / 10.0, got = hist_percentile(h, p);

		assert_true(got >= (double)h->min);
		assert_true(got <= (double)h->max);
		assert_true(got >= prev);
		prev = got;
	}
	assert_true(hist_percentile(h, 0) == (double)vals[0]);
	assert_true(hist_percentile(h, 100) == (double)vals[n - 1]);
	/* the sum is exact, so the mean is the exact mean rounded once */
	if (sum <= UINT64_MAX)
		assert_true(hist_mean(h) ==
			    (double)((long double)(uint64_t)sum / n));
	free(h);
}

static void test_uniform(void **state)
{
	uint64_t *vals = malloc(N_VALUES * sizeof(*vals));
	struct prng r;
	size_t i;

	(void)state;
	assert_non_null(vals);
	prng_seed(&r, 1, 0);
	for (i = 0; i < N_VALUES; i++)
		vals[i] = 1 + prng_below(&r, 1000000);
	check_against_exact(vals, N_VALUES, "uniform 1..1e6 ns");
	free(vals);
}

/* Standard normal by Box-Muller from the project's own generator. */
static double normal(struct prng *r)
{
	double u1 = ((double)(prng_next(r) >> 11) + 1.0) / 9007199254740993.0;
	double u2 = (double)(prng_next(r) >> 11) / 9007199254740992.0;

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

static void test_lognormal(void **state)
{
	uint64_t *vals = malloc(N_VALUES * sizeof(*vals));
	struct prng r;
	size_t i;

	(void)state;
	assert_non_null(vals);
	/* median ~ 80 us, long right tail: typical SSD read latencies */
	prng_seed(&r, 2, 0);
	for (i = 0; i < N_VALUES; i++)
		vals[i] = (uint64_t)exp(log(80000.0) + 0.8 * normal(&r));
	check_against_exact(vals, N_VALUES, "lognormal");
	free(vals);
}

static void test_outliers(void **state)
{
	uint64_t *vals = malloc(N_VALUES * sizeof(*vals));
	struct prng r;
	size_t i;

	(void)state;
	assert_non_null(vals);
	prng_seed(&r, 3, 0);
	for (i = 0; i < N_VALUES; i++)
		vals[i] = 90000 + prng_below(&r, 20000);
	/* a few stalls of seconds to hours, and one at the top of range */
	vals[17] = 3ULL * 1000000000ULL;
	vals[1234] = 45ULL * 1000000000ULL;
	vals[99999] = 3600ULL * 1000000000ULL;
	vals[150000] = 1ULL << 62;
	vals[N_VALUES - 1] = UINT64_MAX;
	check_against_exact(vals, N_VALUES, "outliers");
	free(vals);
}

static void test_small_values_exact(void **state)
{
	uint64_t vals[1000];
	struct prng r;
	size_t i;

	(void)state;
	/* below 128 ns every bucket is one value: percentiles are exact */
	prng_seed(&r, 4, 0);
	for (i = 0; i < 1000; i++)
		vals[i] = prng_below(&r, 128);
	check_against_exact(vals, 1000, "values below 128");
}

static void test_rank_rounding(void **state)
{
	static const size_t ns[] = { 1000, 2000, 10000, 100000 };
	double p999, p99;
	struct hist *h;
	size_t i, k, n;

	(void)state;
	/*
	 * 0.1% stalls of 1 s among 100 us reads: p99.9 is the last fast
	 * read (rank 0.999 * n exactly), not a stall.  Computing the rank
	 * as ceil(99.9 / 100 * n) in binary gives rank + 1, a stall.
	 */
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		n = ns[i];
		h = hist_new();
		for (k = 0; k < n; k++)
			hist_add(h, k < n - n / 1000 ? 100000 : 1000000000);
		p999 = hist_percentile(h, 99.9);
		p99 = hist_percentile(h, 99);
		free(h);
		assert_int_equal(nearest_rank(n, 99.9), n - n / 1000);
		if (p999 != 100000.0)
			fail_msg("n = %zu: p99.9 = %.0f ns, want 100000 (rank %zu of %zu is a fast read)",
				 n, p999, n - n / 1000, n);
		assert_true(p99 == 100000.0);
	}
}

static void test_empty_and_single(void **state)
{
	struct hist *h = hist_new();

	(void)state;
	assert_true(hist_percentile(h, 0) == 0.0);
	assert_true(hist_percentile(h, 50) == 0.0);
	assert_true(hist_percentile(h, 100) == 0.0);
	assert_true(hist_mean(h) == 0.0);
	assert_true(h->count == 0);

	/* one value: every percentile is that value, not a bucket midpoint */
	hist_add(h, 1000003);
	assert_true(hist_percentile(h, 0) == 1000003.0);
	assert_true(hist_percentile(h, 1) == 1000003.0);
	assert_true(hist_percentile(h, 50) == 1000003.0);
	assert_true(hist_percentile(h, 100) == 1000003.0);
	assert_true(hist_mean(h) == 1000003.0);
	/* out-of-range p clamps to min and max */
	hist_add(h, 5);
	assert_true(hist_percentile(h, -1) == 5.0);
	assert_true(hist_percentile(h, 0) == 5.0);
	assert_true(hist_percentile(h, 100) == 1000003.0);
	assert_true(hist_percentile(h, 250) == 1000003.0);
	free(h);
}

static void test_merge(void **state)
{
	struct hist *all = hist_new(), *a = hist_new(), *b = hist_new();
	struct hist *empty = hist_new(), *copy = hist_new();
	struct prng r;
	size_t i;

	(void)state;
	prng_seed(&r, 5, 0);
	for (i = 0; i < N_VALUES; i++) {
		uint64_t v = 1 + prng_below(&r, 5000000);

		if (i == 1000)
			v = 7;		/* the minimum sits in the second half */
		hist_add(all, v);
		hist_add(i % 2 ? b : a, v);
	}
	hist_merge(a, b);
	assert_true(a->count == all->count);
	assert_true(a->min == all->min);
	assert_true(a->max == all->max);
	assert_true(a->sum == all->sum);
	assert_memory_equal(a->buckets, all->buckets, sizeof(a->buckets));
	for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		assert_true(hist_percentile(a, pcts[i]) ==
			    hist_percentile(all, pcts[i]));
	assert_true(hist_mean(a) == hist_mean(all));

	/* merging an empty histogram changes nothing, in either direction */
	memcpy(copy, all, sizeof(*copy));
	hist_merge(copy, empty);
	assert_memory_equal(copy, all, sizeof(*copy));
	hist_merge(empty, all);
	assert_true(empty->count == all->count);
	assert_true(empty->min == all->min);
	assert_true(empty->max == all->max);
	assert_memory_equal(empty->buckets, all->buckets,
			    sizeof(all->buckets));
	free(all);
	free(a);
	free(b);
	free(empty);
	free(copy);
}

static void test_mean_exact(void **state)
{
	struct hist *h = hist_new();
	uint64_t sum = 0;
	int i;

	(void)state;
	/* values chosen so a bucket midpoint would give a different mean */
	for (i = 0; i < 1000; i++) {
		uint64_t v = 1000000007ULL + (uint64_t)i * 13;

		hist_add(h, v);
		sum += v;
	}
	assert_true(h->sum == (long double)sum);
	assert_true(hist_mean(h) == (double)((long double)sum / 1000));
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_edges),
		cmocka_unit_test(test_bucket_many_values),
		cmocka_unit_test(test_buckets_tile_range),
		cmocka_unit_test(test_midpoint_error_bound),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_lognormal),
		cmocka_unit_test(test_outliers),
		cmocka_unit_test(test_small_values_exact),
		cmocka_unit_test(test_rank_rounding),
		cmocka_unit_test(test_empty_and_single),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_mean_exact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
