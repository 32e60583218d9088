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
#include <stdlib.h>

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

/* One more run of CHAR_CACHE_READS random reads over the set at off;
 * its latencies into h. */
static int set_reads(struct char_ctx *c, struct char_cacheset *s,
		     uint64_t off, struct char_run *m, struct hist *h)
{
	struct characterize_result *r = c->r;
	char b[24], o[24], l[24], d[32], sd[16];
	const char *const set[] = {
		"operation", "read", "workload", "rnd", "block-size", b,
		"stride", b, "offset", o, "length", l, "duration", d,
		"seed", char_seed(c, sd, sizeof(sd)), NULL
	};

	char_fmt_u64(b, sizeof(b), r->qd_bytes);
	char_fmt_u64(o, sizeof(o), off);
	char_fmt_u64(l, sizeof(l), s->bytes);
	snprintf(d, sizeof(d), "%llub",
		 (unsigned long long)(CHAR_CACHE_READS * r->qd_bytes));
	return char_measure(c, set, false, m, h);
}

/* Does the share's interval leave the set's verdict open: held (90%) or
 * not, and worth a larger set (50%) or not? */
static bool undecided(const struct char_cacheset *s)
{
	return (s->low < 0.9 && s->high >= 0.9) ||
	       (s->low < 0.5 && s->high >= 0.5);
}

static int one_set(struct char_ctx *c, struct char_cacheset *s)
{
	struct characterize_result *r = c->r;
	uint64_t off = char_drive_offset(r, 1024 * 1024, 0);
	struct char_run m;
	struct hist *h = malloc(sizeof(*h));
	int status = h ? fill(c, s->bytes, off) : EXIT_PREP_FAILED;

	if (!h)
		fprintf(stderr, "rebench: --characterize: out of memory\n");
	if (status) {
		free(h);
		return status;
	}
	hist_init(h);
	do {
		status = set_reads(c, s, off, &m, h);
		if (status)
			break;
		if (!r->hit_below_us) {
			double fast = hist_percentile(h, 10) / 1000;

			r->hit_below_us = r->nq && fast * CHAR_CACHE_GAP < r->q[0].p50_us ?
					  sqrt(fast * r->q[0].p50_us) : -1;
			/* on a platter, reads of a small set wait for the
			 * rotation only, uniform over a revolution: some are
			 * fast by luck; a hit is faster than a twentieth of
			 * one */
			if (r->spins && r->hit_below_us > r->rev_us / 20)
				r->hit_below_us = r->rev_us / 20;
		}
		s->reads = h->count;
		s->fast = r->hit_below_us > 0 ?
			  char_count_below(h, (uint64_t)(r->hit_below_us * 1000)) : 0;
		s->share = (double)s->fast / (double)s->reads;
		char_wilson(s->fast, s->reads, &s->low, &s->high);
	} while (r->hit_below_us > 0 && undecided(s) &&
		 s->reads + CHAR_CACHE_READS <= CHAR_CACHE_MAX_READS &&
		 char_time_for(c, NULL));
	if (!status)
		s->p50_us = hist_percentile(h, 50) / 1000;
	free(h);
	return status;
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
