/* ci.c - batch means (ci.h says why and how). */
#include "stats/ci.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "core/stats.h"
#include "core/units.h"

/* The mean of x(0..n-1) by batches; at() reads value i of src, so a
 * result's counts need no copy. */
static void batch_means(double (*at)(const void *, size_t), const void *src,
			size_t n, struct ci *out)
{
	double sum = 0, ss = 0, half;
	size_t b, i, B, m;

	memset(out, 0, sizeof(*out));
	if (n < CI_MIN_INTERVALS)
		return;
	B = (size_t)floor(sqrt((double)n));
	if (B < CI_MIN_BATCHES)
		B = CI_MIN_BATCHES;
	if (B > CI_MAX_BATCHES)
		B = CI_MAX_BATCHES;
	m = n / B;
	out->known = true;
	out->batches = B;
	out->per_batch = m;
	out->used = B * m;
	for (i = 0; i < B * m; i++)
		sum += at(src, i);
	out->mean = sum / (double)(B * m);
	for (b = 0; b < B; b++) {
		double bm = 0;

		for (i = 0; i < m; i++)
			bm += at(src, b * m + i);
		bm = bm / (double)m - out->mean;
		ss += bm * bm;
	}
	half = gsl_cdf_tdist_Pinv(0.975, (double)(B - 1)) *
	       sqrt(ss / (double)(B - 1)) / sqrt((double)B);
	/* Ops/s is never negative: a run that swung widely (ops/s 2130 to
	 * 78820 between intervals) has a half-width above its mean, and a
	 * low end below 0 would be an impossible interval.  The half-width
	 * (what --precision judges) stays the t-interval's. */
	out->low = out->mean > half ? out->mean - half : 0;
	out->high = out->mean + half;
	if (out->mean > 0)
		out->half_pct = 100.0 * half / out->mean;
	else
		out->half_pct = half > 0 ? INFINITY : 0;
}

static double double_at(const void *src, size_t i)
{
	return ((const double *)src)[i];
}

void ci_batch_means(const double *x, size_t n, struct ci *out)
{
	batch_means(double_at, x, n, out);
}

/* Interval i of a result in ops/s. */
static double ops_at(const void *src, size_t i)
{
	const struct result *res = src;

	return (double)res->iv_ops[i] * (double)NSEC_PER_SEC /
	       (double)res->step_ns;
}

void ci_of_result(const struct result *res, size_t upto, struct ci *out)
{
	size_t n = upto && upto < res->n_full ? upto : res->n_full;

	memset(out, 0, sizeof(*out));
	if (res->step_ns && res->iv_ops)
		batch_means(ops_at, res, n, out);
}
