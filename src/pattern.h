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
 * rnd draws k uniformly from [0, slots) (later: other distributions).
 */
#ifndef REBENCH_PATTERN_H
#define REBENCH_PATTERN_H

#include <stdbool.h>
#include <stdint.h>

#include "prng.h"

struct pattern {
	uint64_t start;		/* region start, also the alignment phase */
	uint64_t stride;
	uint64_t slots;
	uint64_t next;		/* seq: slot of the next I/O */
	bool random;
	bool backward;
};

/* Number of slots, or 0 when not even one block fits. */
uint64_t pattern_slots(uint64_t region_len, uint64_t bs, uint64_t stride);
void pattern_init(struct pattern *p, uint64_t start, uint64_t region_len,
		  uint64_t bs, uint64_t stride, bool random, bool backward,
		  unsigned thread, unsigned nthreads);

static inline uint64_t pattern_next(struct pattern *p, struct prng *r)
{
	uint64_t k;

	if (p->random)
		return p->start + prng_below(r, p->slots) * p->stride;
	k = p->next;
	if (p->backward)
		p->next = k ? k - 1 : p->slots - 1;
	else
		p->next = k + 1 < p->slots ? k + 1 : 0;
	return p->start + k * p->stride;
}

#endif
