/* characterize_cache.c - the drive's read cache (characterize.h).
 *
 * Working sets of 256 KiB x 4^k at the target's start: one sequential pass
 * over the set, then CHAR_CACHE_READS random reads of the unit inside it
 * at depth 1.  A cache that holds the set answers them all; one of C
 * bytes that does not holds C of the W bytes, and with least-recently-used
 * replacement under uniform random reads answers the share C / W of them
 * (the pass leaves the last C bytes in it, so the share holds from the
 * first read).  A hit is a read faster than the geometric mean of the
 * smallest set's fastest tenth and a read across the whole target (the
 * queue-depth test's median at depth 1): the cache's time and the
 * media's are CHAR_CACHE_GAP apart at least, or no cache is seen.  On a
 * spinning drive a hit is also under a twentieth of a revolution: a miss
 * inside one track waits for the rotation only, and some are fast by luck
 * (a set of a few tracks or more adds a seek to every miss).  The
 * sets grow until hits fall under half, then C = share x W, its interval
 * the share's (Wilson) times W.
 */
#include "characterize/characterize_measure.h"

#include <math.h>
#include <stdio.h>

#include "core/units.h"

static int fill(struct char_ctx *c, uint64_t set, uint64_t off)
{
	char b[24], o[24], l[24], d[32];
	const char *const sync_set[] = {
		"operation", "read", "workload", "seq", "block-size", b,
		"offset", o, "length", l, "duration", d, NULL
	};
	uint64_t bs = set < 128 * 1024 ? set : 128 * 1024;
	struct char_run m;

	char_fmt_u64(b, sizeof(b), bs);
	char_fmt_u64(o, sizeof(o), off);
	char_fmt_u64(l, sizeof(l), set);
	snprintf(d, sizeof(d), "%llub", (unsigned long long)set);
	return char_measure(c, sync_set, false, &m, NULL);
}

static int one_set(struct char_ctx *c, struct char_cacheset *s)
{
	struct characterize_result *r = c->r;
	uint64_t off = char_drive_offset(r, 1024 * 1024, 0);
	char b[24], o[24], l[24], d[32], sd[16];
	const char *const set[] = {
		"operation", "read", "workload", "rnd", "block-size", b,
		"stride", b, "offset", o, "length", l, "duration", d,
		"seed", char_seed(c, sd, sizeof(sd)), NULL
	};
	struct char_run m;
	const struct hist *h;
	int status = fill(c, s->bytes, off);

	if (status)
		return status;
	char_fmt_u64(b, sizeof(b), r->qd_bytes);
	char_fmt_u64(o, sizeof(o), off);
	char_fmt_u64(l, sizeof(l), s->bytes);
	snprintf(d, sizeof(d), "%llub",
		 (unsigned long long)(CHAR_CACHE_READS * r->qd_bytes));
	status = char_measure(c, set, false, &m, NULL);
	if (status)
		return status;
	h = &m.wl->result.stats->hist;
	if (!r->hit_below_us) {
		double fast = hist_percentile(h, 10) / 1000;

		r->hit_below_us = r->nq && fast * CHAR_CACHE_GAP < r->q[0].p50_us ?
				  sqrt(fast * r->q[0].p50_us) : -1;
		/* on a platter, reads of a small set wait for the
		 * rotation only, uniform over a revolution: some are fast
		 * by luck; a hit is faster than a twentieth of one */
		if (r->spins && r->hit_below_us > r->rev_us / 20)
			r->hit_below_us = r->rev_us / 20;
	}
	s->reads = h->count;
	s->fast = r->hit_below_us > 0 ?
		  char_count_below(h, (uint64_t)(r->hit_below_us * 1000)) : 0;
	s->share = (double)s->fast / (double)s->reads;
	char_wilson(s->fast, s->reads, &s->low, &s->high);
	s->p50_us = m.p50;
	return EXIT_OK;
}

int char_test_cache(struct char_ctx *c)
{
	struct characterize_result *r = c->r;
	uint64_t w, most = r->tgt.size / 2;
	int status;

	if (!r->nq) {
		snprintf(r->read_cache.basis, sizeof(r->read_cache.basis),
			 "not measured: it needs the queue-depth test's reads across the target, as the misses' time");
		return EXIT_OK;
	}
	if (most > CHAR_CACHE_MAX)
		most = CHAR_CACHE_MAX;
	for (w = CHAR_CACHE_FIRST; w <= most && r->ncs < CHAR_CACHE_SETS; w *= 4) {
		struct char_cacheset *s = &r->cs[r->ncs];

		if (!char_time_for(c, r->ncs ? NULL : &r->read_cache))
			break;
		s->bytes = w;
		status = one_set(c, s);
		if (status)
			return status;
		r->ncs++;
		if (r->hit_below_us < 0 || s->high < 0.5)
			break;	/* no cache, or twice the cache at least */
	}
	return EXIT_OK;
}

/* The first set the cache no longer holds (hits under 90%) gives C: its
 * share is the largest, so its interval the narrowest relative to C. */
void char_judge_cache(struct characterize_result *r)
{
	struct char_figure *g = &r->read_cache;
	const struct char_cacheset *s = NULL;
	char a[32], b[32];
	size_t i;

	if (!r->ncs)
		return;		/* the basis says why */
	if (r->hit_below_us < 0) {
		g->known = true;
		g->value = g->low = 0;
		g->high = CHAR_CACHE_FIRST / 10.0;
		snprintf(g->basis, sizeof(g->basis),
			 "none seen: random reads over %s again and again, their fastest tenth included, cost what reads across the whole target do (%.1f us): a cache would answer at least %.0fx faster; one smaller than a tenth of the set would not show",
			 fmt_size_exact(a, sizeof(a), r->cs[0].bytes),
			 r->q[0].p50_us, CHAR_CACHE_GAP);
		return;
	}
	for (i = 0; i < r->ncs && !s; i++)
		if (r->cs[i].high < 0.9)
			s = &r->cs[i];
	if (!s) {
		snprintf(g->basis, sizeof(g->basis),
			 "at least %s: random reads over every set up to that were answered from a cache (faster than %.1f us), the largest tried",
			 fmt_size_exact(a, sizeof(a), r->cs[r->ncs - 1].bytes),
			 r->hit_below_us);
		return;
	}
	g->known = true;
	g->value = s->share * (double)s->bytes;
	g->low = s->low * (double)s->bytes;
	g->high = s->high * (double)s->bytes;
	if (s == &r->cs[0])
		snprintf(b, sizeof(b), "none smaller was tried");
	else
		snprintf(b, sizeof(b), "%s was held",
			 fmt_size_exact(a, sizeof(a), s[-1].bytes));
	snprintf(g->basis, sizeof(g->basis),
		 "%.0f%% of random reads over %s were answered as fast as a cache does (under %.1f us, against %.1f us across the target): it holds that share of the set (least-recently-used under uniform reads); %s",
		 s->share * 100, fmt_size_exact(a, sizeof(a), s->bytes),
		 r->hit_below_us, r->q[0].p50_us, b);
}
