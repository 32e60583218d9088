/* characterize_disk.c - a spinning disk's rotation, seeks and zones
 * (characterize.h).
 *
 * Rotation: one-sector reads going backward at depth 1, 8 KiB apart and
 * then 32 KiB apart.  On a platter the next one has just passed under the
 * head when the last is done, so each waits a revolution less the
 * stride's share of the track: L(s) = rev - (s - len) x rev / T.  Two
 * strides give the slope rev / T and so the revolution without knowing
 * the track's size T: rev = L1 + (s1 - len) (L1 - L2) / (s2 - s1).  A
 * read-ahead buffer, which holds what follows, does not serve them, nor
 * does a read cache of lines under 8 KiB (each read is in a line of its
 * own).  One-sector reads going forward, two sectors apart, are served from
 * the buffer or a moment later.  Flash and memory answer all alike.  The
 * reverse-read cousin of Skippy's write test (Talagala, Arpaci-Dusseau and
 * Patterson, 1999).
 *
 * Seeks: random reads at depth 1 across the target and across its first
 * 32 MiB, every I/O's offset and latency kept; the distance from one to
 * the next, in bins of 1 MiB x 2^k (nearer ones may come from a buffer or
 * the same track).  A read's time is the seek, a rotational wait uniform
 * over a revolution, and the transfer; the median of a bin less half the
 * measured revolution is the seek at that distance (the 4 KiB transfer and
 * the host's time stay in it).
 *
 * Zones: 1 MiB sequential reads at eight positions; MB/s from the median
 * read (the first one's seek does not count).
 */
#include "characterize/characterize_measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"

#define MIB (1024ULL * 1024)

/* CHAR_SPIN_READS one-sector reads going dir, stride apart, in the
 * target's first 4 MiB. */
static int spin_reads(struct char_ctx *c, const char *dir, uint64_t stride,
		      struct char_run *m)
{
	const struct characterize_result *r = c->r;
	char b[24], s[24], o[24], d[32];
	const char *const set[] = {
		"operation", "read", "workload", "seq", "direction", dir,
		"block-size", b, "stride", s, "offset", o, "length", "4m",
		"duration", d, "sample-step", "1s", NULL
	};

	char_fmt_u64(b, sizeof(b), r->tgt.logical);
	char_fmt_u64(s, sizeof(s), stride);
	char_fmt_u64(o, sizeof(o), char_drive_offset(r, MIB, 0));
	snprintf(d, sizeof(d), "%llub",
		 (unsigned long long)(CHAR_SPIN_READS * r->tgt.logical));
	return char_measure(c, set, false, m, NULL);
}

/* The distance between consecutive reads of a logged run, and each
 * read's latency (ns), appended to d[] and lat[]. */
static size_t log_pairs(const struct char_run *m, uint64_t *d, uint64_t *lat,
			size_t n, size_t cap)
{
	const struct io_log_chunk *ch = m->wl->run.workers[0].st.log_head;
	uint64_t prev = UINT64_MAX;
	size_t i;

	for (; ch; ch = ch->next)
		for (i = 0; i < ch->n && n < cap; i++) {
			const struct io_rec *x = &ch->recs[i];

			if (prev != UINT64_MAX) {
				d[n] = x->off > prev ? x->off - prev : prev - x->off;
				lat[n++] = x->lat_ns;
			}
			prev = x->off;
		}
	return n;
}

static int seek_run(struct char_ctx *c, uint64_t length, uint64_t reads,
		    struct char_run *m)
{
	char o[24], l[24], d[32], sd[16];
	const char *const set[] = {
		"operation", "read", "workload", "rnd", "block-size", "4096",
		"stride", "4096", "offset", o, "length", l, "duration", d,
		"seed", char_seed(c, sd, sizeof(sd)), NULL
	};

	char_fmt_u64(o, sizeof(o), char_drive_offset(c->r, 4096, 0));
	char_fmt_u64(l, sizeof(l), length);
	snprintf(d, sizeof(d), "%llub", (unsigned long long)(reads * 4096));
	return char_measure(c, set, true, m, NULL);
}

/* Bin the pairs by distance; each bin's median with its interval, by
 * the rule of every other median here (char_median), h a scratch
 * histogram. */
static void seek_bins(struct characterize_result *r, const uint64_t *d,
		      const uint64_t *lat, size_t n, struct hist *h)
{
	size_t k, i;

	for (k = 0; k < CHAR_SEEK_BINS; k++) {
		struct char_seek *s = &r->sk[r->nsk];
		uint64_t lo = MIB << k, hi = lo * 2;

		hist_init(h);
		for (i = 0; i < n; i++)
			if (d[i] >= lo && d[i] < hi)
				hist_add(h, lat[i]);
		if (h->count < CHAR_SEEK_MIN_N)
			continue;
		s->lo = lo;
		s->hi = hi;
		s->n = h->count;
		char_median(h, &s->p50_ms, &s->p50_lo_ms, &s->p50_hi_ms);
		s->p50_ms /= 1000;	/* us to ms */
		s->p50_lo_ms /= 1000;
		s->p50_hi_ms /= 1000;
		r->nsk++;
	}
}

static int test_seeks(struct char_ctx *c)
{
	struct characterize_result *r = c->r;
	size_t cap = CHAR_SEEK_READS + CHAR_SEEK_BAND_READS, n = 0;
	uint64_t *d = malloc(2 * cap * sizeof(*d)), *lat = d + cap;
	struct hist *h = malloc(sizeof(*h));
	struct char_run m;
	int status;

	if (!d || !h) {
		free(d);
		free(h);
		fprintf(stderr, "rebench: --characterize: out of memory\n");
		return EXIT_PREP_FAILED;
	}
	status = seek_run(c, (r->tgt.size - char_drive_offset(r, 4096, 0)) /
			  4096 * 4096, CHAR_SEEK_READS, &m);
	if (!status)
		n = log_pairs(&m, d, lat, n, cap);
	/* the short distances, from a band of the target's first 32 MiB */
	if (!status && r->tgt.size > 64 * MIB && char_time_for(c, NULL)) {
		status = seek_run(c, 32 * MIB, CHAR_SEEK_BAND_READS, &m);
		if (!status)
			n = log_pairs(&m, d, lat, n, cap);
	}
	seek_bins(r, d, lat, n, h);
	free(d);
	free(h);
	return status;
}

static int test_zones(struct char_ctx *c)
{
	struct characterize_result *r = c->r;
	uint64_t span = r->tgt.size / CHAR_ZONES / MIB * MIB;
	char o[24];
	const char *const set[] = {
		"operation", "read", "workload", "seq", "block-size", "1m",
		"offset", o, "length", "16m", "duration", "16777216b", NULL
	};
	struct char_run m;
	size_t k;
	int status;

	if (span < 16 * MIB)
		return EXIT_OK;	/* too small to have zones worth a figure */
	for (k = 0; k < CHAR_ZONES && char_time_for(c, NULL); k++) {
		uint64_t off = k * span + char_drive_offset(r, MIB, 0);

		char_fmt_u64(o, sizeof(o), off);
		status = char_measure(c, set, false, &m, NULL);
		if (status)
			return status;
		r->z[r->nz].offset = off;
		r->z[r->nz++].mb_per_s = 1e6 / m.p50;	/* 1 MiB per p50 us */
	}
	return EXIT_OK;
}

/* The revolution from the two backward strides (the head comment). */
static void revolution(struct characterize_result *r)
{
	double len = (double)r->tgt.logical, d = CHAR_SPIN_STRIDE2 - CHAR_SPIN_STRIDE1;
	double k = (CHAR_SPIN_STRIDE1 - len) / d;

	r->rev_us = r->back_p50_us + k * (r->back_p50_us - r->back2_p50_us);
	r->rev_lo_us = r->back_lo_us + k * fmax(0, r->back_lo_us - r->back2_hi_us);
	/* the host's turnaround moves the platter on too: 1% */
	r->rev_hi_us = (r->back_hi_us + k * (r->back_hi_us - r->back2_lo_us)) * 1.01;
}

int char_test_spin(struct char_ctx *c)
{
	struct characterize_result *r = c->r;
	struct char_run m;
	double p10, p90;
	int status;

	if (!char_time_for(c, &r->rpm))
		return EXIT_OK;
	status = spin_reads(c, "backward", CHAR_SPIN_STRIDE1, &m);
	if (status)
		return status;
	r->back_p50_us = m.p50;
	r->back_lo_us = m.p50_lo;
	r->back_hi_us = m.p50_hi;
	p10 = hist_percentile(&m.wl->result.stats->hist, 10);
	p90 = hist_percentile(&m.wl->result.stats->hist, 90);
	r->back_spread = m.p50 > 0 ? (p90 - p10) / 1000 / m.p50 : 0;
	status = spin_reads(c, "backward", CHAR_SPIN_STRIDE2, &m);
	if (status)
		return status;
	r->back2_p50_us = m.p50;
	r->back2_lo_us = m.p50_lo;
	r->back2_hi_us = m.p50_hi;
	status = spin_reads(c, "forward", 2 * r->tgt.logical, &m);
	if (status)
		return status;
	r->fwd_p50_us = m.p50;
	revolution(r);
	/* a revolution of 2 to 60 ms (1000 to 30000 rpm), each backward
	 * read most of one (a spread under 10%), three times a forward one,
	 * and the longer stride shorter */
	r->spins = r->back_lo_us > 3 * m.p50_hi && r->rev_us >= 2000 &&
		   r->rev_us <= 60000 && r->back_spread < 0.10 &&
		   r->back2_p50_us < r->back_p50_us;
	if (!r->spins)
		return EXIT_OK;
	status = test_seeks(c);
	if (!status)
		status = test_zones(c);
	return status;
}

void char_seek_of(const struct characterize_result *r,
		  const struct char_seek *s, double *ms, double *lo, double *hi)
{
	*ms = fmax(0, s->p50_ms - r->rev_us / 2000);
	*lo = fmax(0, s->p50_lo_ms - r->rev_hi_us / 2000);
	*hi = fmax(0, s->p50_hi_ms - r->rev_lo_us / 2000);
}

/* The nearest of the speeds drives are sold at, when the interval holds
 * it; 0 when none. */
static unsigned standard_rpm(double low, double high)
{
	static const unsigned rpm[] = { 3600, 4200, 5400, 5900, 7200, 10000,
					10500, 15000 };
	size_t i;

	for (i = 0; i < sizeof(rpm) / sizeof(rpm[0]); i++)
		if (rpm[i] >= low && rpm[i] <= high)
			return rpm[i];
	return 0;
}

static void judge_seek(struct characterize_result *r, struct char_figure *g,
		       const struct char_seek *s, const char *which)
{
	char a[32], b[32];

	g->known = true;
	char_seek_of(r, s, &g->value, &g->low, &g->high);
	snprintf(g->basis, sizeof(g->basis),
		 "the %s distance measured, %s to %s between consecutive random 4 KiB reads (%llu of them): median %.2f ms less half a revolution",
		 which, fmt_size_exact(a, sizeof(a), s->lo),
		 fmt_size_exact(b, sizeof(b), s->hi), (unsigned long long)s->n,
		 s->p50_ms);
}

void char_judge_spin(struct characterize_result *r)
{
	static const char none[] = "not measured: the drive does not spin (no rotation found)";
	char sold[32] = "";
	unsigned std;
	size_t i, j;

	if (!r->back_p50_us) {
		if (!r->rpm.basis[0])
			snprintf(r->rpm.basis, sizeof(r->rpm.basis), "not measured");
		return;
	}
	if (!r->spins) {
		snprintf(r->rpm.basis, sizeof(r->rpm.basis),
			 "no rotation: one-sector reads going backward took a median %.1f us (8 KiB apart) and %.1f us (32 KiB apart), forward %.1f us (a platter makes the backward ones wait most of a revolution: 2-60 ms, 3x the forward ones, each alike within 10%%, less for the longer stride; spread here %.0f%%)",
			 r->back_p50_us, r->back2_p50_us, r->fwd_p50_us,
			 r->back_spread * 100);
		snprintf(r->seek_min.basis, sizeof(r->seek_min.basis), none);
		snprintf(r->seek_max.basis, sizeof(r->seek_max.basis), none);
		return;
	}
	revolution(r);
	r->rpm.known = true;
	r->rpm.value = 60e6 / r->rev_us;
	r->rpm.low = 60e6 / r->rev_hi_us;
	r->rpm.high = 60e6 / r->rev_lo_us;
	std = standard_rpm(r->rpm.low, r->rpm.high);
	if (std)
		snprintf(sold, sizeof(sold), "; a %u rpm drive", std);
	snprintf(r->rpm.basis, sizeof(r->rpm.basis),
		 "one-sector reads going backward wait a revolution less the stride's share of the track: medians %.3f ms 8 KiB apart and %.3f ms 32 KiB apart, so a revolution is %.3f ms (forward ones %.3f ms)%s",
		 r->back_p50_us / 1000, r->back2_p50_us / 1000,
		 r->rev_us / 1000, r->fwd_p50_us / 1000, sold);
	if (!r->nsk) {
		snprintf(r->seek_min.basis, sizeof(r->seek_min.basis),
			 "not measured: too few random reads at any one distance");
		snprintf(r->seek_max.basis, sizeof(r->seek_max.basis), "%s",
			 r->seek_min.basis);
		return;
	}
	for (i = 0; i < r->nsk && r->sk[i].n < CHAR_SEEK_FIGURE_N; i++)
		;
	for (j = r->nsk; j > i && r->sk[j - 1].n < CHAR_SEEK_FIGURE_N; j--)
		;
	if (i == r->nsk) {
		snprintf(r->seek_min.basis, sizeof(r->seek_min.basis),
			 "not concluded: no distance had %d random reads",
			 CHAR_SEEK_FIGURE_N);
		snprintf(r->seek_max.basis, sizeof(r->seek_max.basis), "%s",
			 r->seek_min.basis);
		return;
	}
	judge_seek(r, &r->seek_min, &r->sk[i], "shortest");
	judge_seek(r, &r->seek_max, &r->sk[j - 1], "longest");
}
