/* hist.c - merge and percentile queries for the log-linear histogram. */
#include "core/hist.h"

#include <math.h>
#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_bucket_range(unsigned idx, uint64_t *lo, uint64_t *width)
{
	unsigned shift;

	if (idx < (1U << HIST_SUB_BITS)) {
		*lo = idx;
		*width = 1;
		return;
	}
	shift = (idx >> (HIST_SUB_BITS - 1)) - 1;
	*lo = (uint64_t)(idx - (shift << (HIST_SUB_BITS - 1))) << shift;
	*width = 1ULL << shift;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned i;

	if (!src->count)
		return;
	for (i = 0; i < HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

double hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0, lo, width;
	double v, x;
	unsigned i;

	if (!h->count)
		return 0.0;
	if (p <= 0.0)
		return (double)h->min;
	if (p >= 100.0)
		return (double)h->max;
	/* p/100*count in binary floating point can land just above an integer
	 * (99.9% of 1000 is 999.0000000000001): take off a relative epsilon so
	 * the rank is not one too high. */
	x = p / 100.0 * (double)h->count;
	rank = (uint64_t)ceil(x - x * 1e-12);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			break;
	}
	hist_bucket_range(i, &lo, &width);
	v = (double)lo + (double)(width - 1) / 2.0;
	if (v < (double)h->min)
		v = (double)h->min;
	if (v > (double)h->max)
		v = (double)h->max;
	return v;
}
