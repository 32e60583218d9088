/* stream_synth.c - the synthetic I/O source: operation, size and offset
 * drawn per I/O from the workload's mixes and pattern.
 *
 * The draws come in a fixed order from one seeded generator per thread:
 * the operation (only when the mix has more than one), the size (only with
 * a size mix, and not for a flush), then the offset.  A workload without
 * mixes therefore draws exactly what it always did.
 *
 * A --sync policy's flushes are not drawn: one follows every N-th write
 * (or the last write), so their number is exact and nothing else moves.
 * A sync_file_range covers what was written since the last one, as fio's
 * sync_file_range does: from the lowest offset to the highest end of
 * those writes (holes between them included).  A range longer than its
 * 32-bit span (4 GiB, what an io_uring request holds) becomes "to the end
 * of the file" (nbytes 0), which covers it too.
 */
#include "gen/stream.h"

#include <string.h>

static inline int draw_kind(struct io_stream *s)
{
	uint64_t x;
	unsigned i = 0;

	if (s->nkinds == 1)
		return s->kinds[0];
	x = prng_next(&s->rng) >> 11;
	while (x >= s->below[i])
		i++;
	return s->kinds[i];
}

static inline uint32_t draw_size(struct io_stream *s)
{
	const struct size_table *t = s->sizes;
	uint64_t x, idx;
	unsigned i = 0;

	if (!t)
		return s->len;
	if (t->n) {
		x = prng_next(&s->rng) >> 11;
		while (x >= t->below[i])
			i++;
		s->size_hits[i]++;
		return t->size[i];
	}
	idx = prng_below(&s->rng, t->nsizes);
	s->size_hits[idx / t->per_bin]++;
	return (uint32_t)(t->min + idx * t->step);
}

/* Sequential with sizes that vary: no gaps and no overlaps, wrapping at
 * the region's ends. */
static inline uint64_t next_contiguous(struct io_stream *s, uint32_t len)
{
	uint64_t off;

	if (s->backward) {
		if (s->cursor < s->lo + len)
			s->cursor = s->hi;
		off = s->cursor - len;
		s->cursor = off;
		return off;
	}
	off = s->cursor;
	if (off + len > s->hi)
		off = s->lo;
	s->cursor = off + len;
	return off;
}

static inline bool policy_flush(struct io_stream *s, struct io_req *r)
{
	r->kind = s->flush_kind;
	r->off = 0;
	r->len = 0;
	r->span = 0;
	if (s->track_range) {
		uint64_t n = s->range_hi - s->range_lo;

		r->off = s->range_lo;
		r->span = n > UINT32_MAX ? 0 : (uint32_t)n;
		s->range_lo = UINT64_MAX;
		s->range_hi = 0;
	}
	s->flush_due = false;
	s->since_flush = 0;
	return true;
}

static bool synth_next(struct io_stream *s, struct io_req *r)
{
	int kind;
	uint32_t len;

	if (s->flush_due)
		return policy_flush(s, r);
	if (s->limited && !s->budget) {
		if (s->end_flush && s->since_flush) {
			s->end_flush = false;
			return policy_flush(s, r);
		}
		return false;
	}
	kind = draw_kind(s);
	r->kind = kind;
	if (IO_IS_FLUSH(kind)) {
		r->off = 0;
		r->len = 0;
		r->span = 0;
		return true;
	}
	/* flush_every 0 (no policy flushes) never equals the count, >= 1 */
	if (kind == IO_WRITE && ++s->since_flush == s->flush_every)
		s->flush_due = true;
	len = draw_size(s);
	r->len = len;
	r->off = s->contiguous ? next_contiguous(s, len) :
				 pattern_next(&s->pat, &s->rng);
	r->span = 0;
	if (s->track_range && kind == IO_WRITE) {
		if (r->off < s->range_lo)
			s->range_lo = r->off;
		if (r->off + len > s->range_hi)
			s->range_hi = r->off + len;
	}
	if (s->limited)
		s->budget = s->budget > len ? s->budget - len : 0;
	return true;
}

static void synth_reset_counts(struct io_stream *s)
{
	memset(s->pat.slices, 0, sizeof(s->pat.slices));
	memset(s->pat.rank_slices, 0, sizeof(s->pat.rank_slices));
	memset(s->size_hits, 0, sizeof(s->size_hits));
}

const struct stream_ops stream_synth = {
	.name = "synthetic",
	.next = synth_next,
	.reset_counts = synth_reset_counts,
};

void stream_synth_init(struct io_stream *s, const struct synth_params *p)
{
	double cum = 0;
	unsigned n = 0;
	int k;

	memset(s, 0, sizeof(*s));
	s->ops = &stream_synth;
	pattern_init(&s->pat, p->region_start, p->region_len, p->bs, p->stride,
		     p->random, p->backward, p->thread, p->nthreads);
	if (p->random)
		pattern_set_dist(&s->pat, p->dist);
	prng_seed(&s->rng, p->seed, p->thread);
	for (k = 0; k < IO_KINDS; k++) {
		if (p->ops->pct[k] <= 0)
			continue;
		cum += p->ops->pct[k];
		s->kinds[n] = k;
		s->below[n] = (uint64_t)(cum / 100 * (double)MIX_ONE);
		n++;
	}
	s->nkinds = n;
	s->below[n - 1] = MIX_ONE;	/* the last kind takes the rounding */
	s->len = (uint32_t)p->bs;
	s->sizes = p->sizes && p->sizes->active ? p->sizes : NULL;
	s->backward = p->backward;
	if (p->contiguous) {
		s->contiguous = true;
		s->lo = p->region_start;
		s->hi = p->region_start + (s->pat.slots - 1) * p->stride + p->bs;
		/* each thread starts where the slot pattern would put it */
		s->cursor = p->region_start + s->pat.next * p->stride;
		if (p->backward)
			s->cursor += p->stride;
	}
	s->limited = p->budget != 0;
	s->budget = p->budget;
	s->flush_kind = p->flush_kind;
	s->flush_every = p->flush_every;
	s->end_flush = p->end_flush && s->limited;
	s->track_range = p->flush_kind == IO_SYNC_RANGE && p->flush_every;
	s->range_lo = UINT64_MAX;
	s->range_hi = 0;
	/* no draw of a kind or a size, no flush: synth_next() then draws
	 * only the offset (stream_plain_next) */
	s->plain = n == 1 && !IO_IS_FLUSH(s->kinds[0]) && !s->sizes &&
		   !s->contiguous && !s->flush_every && !s->end_flush &&
		   s->len;
}
