/* pattern.c - set-up of the offset generators described in pattern.h. */
#include "gen/pattern.h"

#include <string.h>

uint64_t pattern_slots(uint64_t region_len, uint64_t bs, uint64_t stride)
{
	if (!stride || region_len < bs)
		return 0;
	return (region_len - bs) / stride + 1;
}

void pattern_set_dist(struct pattern *p, const struct dist *d)
{
	bool plain = !d || (d->kind == DIST_UNIFORM && !d->scatter);

	p->dist = plain ? NULL : d;
	p->ranks = d && d->scatter ? p->rank_slices : p->slices;
}

void pattern_init(struct pattern *p, uint64_t start, uint64_t region_len,
		  uint64_t bs, uint64_t stride, bool random, bool backward,
		  unsigned thread, unsigned nthreads)
{
	uint64_t first;

	memset(p, 0, sizeof(*p));
	p->start = start;
	p->stride = stride;
	p->slots = pattern_slots(region_len, bs, stride);
	p->random = random;
	p->backward = backward;
	p->ranks = p->slices;
	p->inv = p->slots > 1 ? UINT64_MAX / p->slots : UINT64_MAX;
	if (!nthreads)
		nthreads = 1;
	/* 128-bit product: slots * thread can exceed 64 bits on huge regions */
	first = (uint64_t)((unsigned __int128)p->slots * thread / nthreads);
	p->next = backward ? p->slots - 1 - first : first;
}

void seq_passes_compute(struct seq_passes *p, uint64_t slots, uint64_t stride,
			uint64_t bs, bool contiguous, bool sizes_vary,
			uint64_t data_ios, uint64_t data_bytes)
{
	memset(p, 0, sizeof(*p));
	if (!slots)
		return;
	p->known = true;
	if (contiguous) {
		p->bytes = (slots - 1) * stride + bs;
		p->count = (double)data_bytes / (double)p->bytes;
		return;
	}
	p->ios = slots;
	p->bytes = sizes_vary ? 0 : slots * bs;
	p->count = (double)data_ios / (double)slots;
}
