/* pattern.h - where each I/O goes.
 *
 * Offsets are generated apart from the I/O itself so they can be tested
 * alone.  Every offset is start + k * stride for some slot k, with
 * 0 <= k < slots, and offset + block size never passes the region end:
 *
 *   slots = (region_len - bs) / stride + 1
 *
 * seq forward visits k = first, first+1, ... and wraps to 0; backward visits
 * k = first, first-1, ... and wraps to slots-1.  Thread t of T starts
 * t * slots / T slots from the beginning (forward) or from the end
 * (backward), so threads begin on distinct parts of the region.
 * rnd draws k from the workload's distribution (dist.h; uniform when none is
 * set) and counts it in one of DIST_SLICES equal slices of the region:
 * slices[] by where the I/O went, ranks[] by the slot before --scatter
 * (the same array when there is no scatter).  Counting is a multiply-high
 * and an increment.
 */
#ifndef REBENCH_PATTERN_H
#define REBENCH_PATTERN_H

#include <stdbool.h>
#include <stdint.h>

#include "gen/dist.h"
#include "gen/prng.h"

struct pattern {
	uint64_t start;		/* region start, also the alignment phase */
	uint64_t stride;
	uint64_t slots;
	uint64_t next;		/* seq: slot of the next I/O */
	bool random;
	bool backward;
	const struct dist *dist;	/* rnd: NULL is plain uniform */
	uint64_t inv;		/* floor(2^64 / slots), for slice_of() */
	uint64_t *ranks;	/* == slices unless scattered */
	uint64_t slices[DIST_SLICES];
	uint64_t rank_slices[DIST_SLICES];
};

/* Use d for random offsets (NULL: uniform). */
void pattern_set_dist(struct pattern *p, const struct dist *d);

/* floor(slot * DIST_SLICES / slots) without a division: slot * 100 fits
 * in 64 bits (slots < 2^57), the estimate is at most one low. */
static inline unsigned slice_of(const struct pattern *p, uint64_t slot)
{
	uint64_t x = slot * DIST_SLICES;
	uint64_t q = (uint64_t)(((unsigned __int128)x * p->inv) >> 64);

	if ((q + 1) * p->slots <= x)
		q++;
	return (unsigned)q;
}

/*
 * Passes a sequential workload made over its region, summed over its
 * threads (each thread walks the whole region from its own start, so with
 * -c 4 and each thread covering half of it, the count is 2: every byte
 * twice).  A pass is one visit of every slot: data I/Os / slots, which for
 * one block size is data bytes / (slots * bs).  With sizes that vary and
 * no -s (a contiguous stream, stream.h) a pass is the span the I/Os tile,
 * (slots - 1) * stride + bs bytes: data bytes / span.  Flushes move no
 * offset and do not count.
 */
struct seq_passes {
	bool known;		/* a sequential workload whose offsets are its
				 * own (not -a, where the file's end decides) */
	double count;
	uint64_t ios;		/* I/Os in one pass: slots; 0 when the stream
				 * is contiguous (sizes vary, no -s) */
	uint64_t bytes;		/* bytes in one pass: slots * bs, or the span
				 * of a contiguous stream; 0 when slots take
				 * sizes that vary (-s with a size mix) */
};

void seq_passes_compute(struct seq_passes *p, uint64_t slots, uint64_t stride,
			uint64_t bs, bool contiguous, bool sizes_vary,
			uint64_t data_ios, uint64_t data_bytes);

/* Number of slots, or 0 when not even one block fits. */
uint64_t pattern_slots(uint64_t region_len, uint64_t bs, uint64_t stride);
void pattern_init(struct pattern *p, uint64_t start, uint64_t region_len,
		  uint64_t bs, uint64_t stride, bool random, bool backward,
		  unsigned thread, unsigned nthreads);

/* A random offset of a pattern without a distribution (p->random,
 * p->dist NULL): pattern_next()'s draw for it, which a caller that knows
 * the pattern is so can make without asking. */
static inline __attribute__((always_inline)) uint64_t
pattern_uniform_next(struct pattern *p, struct prng *r)
{
	uint64_t k = prng_below(r, p->slots);

	p->slices[slice_of(p, k)]++;
	return p->start + k * p->stride;
}

static inline __attribute__((always_inline)) uint64_t
pattern_next(struct pattern *p, struct prng *r)
{
	uint64_t k;

	if (p->random) {
		uint64_t rank;

		if (!p->dist)
			return pattern_uniform_next(p, r);
		k = dist_next(p->dist, r, &rank);
		if (p->ranks != p->slices)
			p->ranks[slice_of(p, rank)]++;
		p->slices[slice_of(p, k)]++;
		return p->start + k * p->stride;
	}
	k = p->next;
	if (p->backward)
		p->next = k ? k - 1 : p->slots - 1;
	else
		p->next = k + 1 < p->slots ? k + 1 : 0;
	return p->start + k * p->stride;
}

#endif
