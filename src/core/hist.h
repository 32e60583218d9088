/* hist.h - log-linear latency histogram.
 *
 * Values are nanoseconds.  Below 2^HIST_SUB_BITS (128 ns) every value has its
 * own bucket.  Above, each power of two [2^e, 2^(e+1)) is split into
 * 2^(HIST_SUB_BITS-1) = 64 equal buckets of width 2^(e-6).
 *
 *   relative bucket width  <= 2^-(HIST_SUB_BITS-1) = 1/64  (1.56%)
 *   reported value          = bucket midpoint, clamped to [min, max]
 *   relative error bound    <= 2^-HIST_SUB_BITS   = 1/128 (0.78%)
 *   range                   = 0 .. 2^64-1 ns (no saturation)
 *   memory                  = HIST_BUCKETS * 8 bytes = 30,208 bytes
 *
 * Adding a value costs one clz, a shift and an increment; no allocation.
 * Min, max and the sum are exact, so the mean is exact.
 */
#ifndef REBENCH_HIST_H
#define REBENCH_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS	7
#define HIST_SUB_HALF	(1U << (HIST_SUB_BITS - 1))
/* highest index: shift 57 (msb 63) -> 57 * 64 + 127 */
#define HIST_BUCKETS	((64 - HIST_SUB_BITS + 1) * HIST_SUB_HALF + HIST_SUB_HALF)

struct hist {
	uint64_t count;
	uint64_t min;
	uint64_t max;
	uint64_t sum;		/* ns; overflows after 584 years of latency */
	uint64_t buckets[HIST_BUCKETS];
};

void hist_init(struct hist *h);

static inline unsigned hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < (1ULL << HIST_SUB_BITS))
		return (unsigned)v;
	msb = 63 - (unsigned)__builtin_clzll(v);
	shift = msb - HIST_SUB_BITS + 1;
	return (shift << (HIST_SUB_BITS - 1)) + (unsigned)(v >> shift);
}

/* Only the owning thread adds; the progress line reads the counts from
 * another thread, so they are stored with relaxed atomic stores (a plain
 * move on x86 and arm64: no lock, no fence). */
#define HIST_SET(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

static inline void hist_add(struct hist *h, uint64_t v)
{
	unsigned i = hist_index(v);

	HIST_SET(h->buckets[i], h->buckets[i] + 1);
	HIST_SET(h->count, h->count + 1);
	h->sum += v;
	if (v < h->min)
		HIST_SET(h->min, v);
	if (v > h->max)
		HIST_SET(h->max, v);
}

/* n values v at once: what n hist_add(h, v) make. */
static inline void hist_add_n(struct hist *h, uint64_t v, uint64_t n)
{
	unsigned i = hist_index(v);

	HIST_SET(h->buckets[i], h->buckets[i] + n);
	HIST_SET(h->count, h->count + n);
	h->sum += v * n;
	if (v < h->min)
		HIST_SET(h->min, v);
	if (v > h->max)
		HIST_SET(h->max, v);
}

/* Lowest value and width of the values that land in bucket idx. */
void hist_bucket_range(unsigned idx, uint64_t *lo, uint64_t *width);
void hist_merge(struct hist *dst, const struct hist *src);
/* Nearest-rank percentile (p in [0,100]); 0 for an empty histogram. */
double hist_percentile(const struct hist *h, double p);
double hist_mean(const struct hist *h);

#endif
