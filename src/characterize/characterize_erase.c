/* characterize_erase.c - --write: the erase block, the unit a flash
 * drive reclaims space in (characterize.h).
 *
 * Flash is programmed a page at a time but erased a block at a time, and
 * a drive that maps pages (most do) writes each page to the next free
 * one: an overwritten page leaves a stale copy behind, and when the free
 * blocks run out, garbage collection takes a block, copies its still
 * valid pages to a free one and erases it.  How many pages it copies
 * depends on what the host wrote:
 *   random writes of whole erase units, aligned, each replace a whole
 *     unit written together, so a block collected holds no valid page:
 *     nothing to copy, the writes run as fast as sequential ones;
 *   random writes smaller than the unit share each block with other
 *     writes still valid: every block collected has pages to copy, and
 *     the writes run slower than sequential ones of the same size.
 * The unit seen from the host is the erase block times the channels the
 * drive stripes a write across (a "superblock"): the unit a layout should
 * respect, and the figure reported.
 *
 * The test, after the confirmation --write asks for:
 *   1. purge and precondition (SNIA PTS's words): the target trimmed
 *      whole where it takes a trim (else written twice), then written
 *      once sequentially and its first quarter again, so that every
 *      page is mapped, the spare is used up (each block written from
 *      then on costs an erase, whatever the writes), and the blocks hold
 *      the target in order (the first sixteenth is timed: when the whole
 *      test would take longer than the time budget, it stops there and
 *      says so);
 *   2. for each size from 64 KiB to the largest (a 64th of the target,
 *      64 MiB at most), sequential writes of a sixteenth of the target:
 *      the size's speed with nothing to copy (the state stays clean:
 *      sequential rewrites leave whole blocks stale);
 *   3. from the largest size down, random writes aligned to the size:
 *      a quarter of the target unmeasured (it uses up the spare and the
 *      stale blocks the larger sizes left), then an eighth measured.
 * Each size's cost is its sequential speed over its random one, with the
 * 95% interval of each from batch means; the smallest size whose random
 * writes cost the same (within CHAR_MATERIAL) while the next smaller one
 * costs more is the unit.  Sizes are powers of two: a unit that is not
 * one is reported as the next power of two up.
 * Limits: a spare larger than a quarter of the target, or a drive that
 * collects in the background while idle, hides the unit (no size costs
 * more: no unit concluded); a rotating disk has none (not run).
 */
#include "characterize/characterize_measure.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/delay.h"
#include "core/units.h"
#include "stats/ci.h"

#define ERASE_FIRST (16 * 1024)
#define ERASE_MAX (64ULL << 20)
#define ERASE_PER_TARGET 256	/* the largest size: a 256th of the target
				 * (32 writes of it measured) */
#define ERASE_SEQ 16		/* sequential: a 16th of the target a size */
#define ERASE_WARM 4		/* random, unmeasured: a quarter */
#define ERASE_MEAS 8		/* random, measured: an eighth */
#define ERASE_UNBUDGETED_S 60	/* the longest it runs without a budget */
#define ERASE_MOST_WRITES 2048	/* measured writes a run, at most */

/* One run of op (write, trim): seq or rnd, bs bytes per write, over
 * [off, off + len) of the target (len 0: to its end), bytes in all; with
 * log, every write's time kept. */
static int write_run(struct char_ctx *c, const char *pattern, uint64_t bs,
		     uint64_t off, uint64_t len, uint64_t bytes, bool log,
		     const char *op, struct char_run *m)
{
	char b[24], o[24], l[24], d[32], sd[16];
	const char *set[32] = {
		"operation", op, "workload", pattern, "block-size", b,
		"stride", b, "offset", o, "duration", d,
		"sync", "none", "seed", char_seed(c, sd, sizeof(sd)), NULL
	};
	size_t n = 16;

	char_fmt_u64(b, sizeof(b), bs);
	char_fmt_u64(o, sizeof(o), off);
	snprintf(d, sizeof(d), "%llub", (unsigned long long)bytes);
	if (len) {
		char_fmt_u64(l, sizeof(l), len);
		set[n++] = "length";
		set[n++] = l;
	}
	set[n] = NULL;
	return char_measure(c, set, log, m, NULL);
}

/* MiB/s of a logged run of bs-byte writes at depth 1: bs over the mean
 * write time, its interval from the interval of that mean (batch means
 * over consecutive writes, ci.h: garbage collection makes neighbours'
 * times alike).  -ENOMEM after a message. */
static int rate_of(const struct char_run *m, uint64_t bs, struct char_rate *x)
{
	const struct io_log_chunk *ch = m->wl->run.workers[0].st.log_head;
	double mib = (double)bs / 1048576.0, *lat;
	struct ci ci;
	size_t n = 0, i;

	lat = malloc(m->ios * sizeof(*lat));
	if (!lat) {
		fprintf(stderr, "rebench: --characterize: out of memory\n");
		return -ENOMEM;
	}
	for (; ch; ch = ch->next)
		for (i = 0; i < ch->n && n < m->ios; i++)
			lat[n++] = (double)ch->recs[i].lat_ns / 1e9;
	ci_batch_means(lat, n, &ci);
	free(lat);
	x->known = ci.known && ci.low > 0;
	x->mbs = ci.mean > 0 ? mib / ci.mean : m->wl->result.stats->mb_per_s;
	x->low = x->known ? mib / ci.high : 0;
	x->high = x->known ? mib / ci.low : 0;
	return 0;
}

/* bytes of bs-byte writes, at most ERASE_MOST_WRITES of them */
static uint64_t run_bytes(uint64_t bytes, uint64_t bs)
{
	if (bytes / bs > ERASE_MOST_WRITES)
		return ERASE_MOST_WRITES * bs;
	return bytes / bs * bs;
}

static bool budget(struct char_ctx *c, double need_s)
{
	struct characterize_result *r = c->r;
	struct char_figure *g = &r->erase_block;
	double left_s = ERASE_UNBUDGETED_S;
	char t[32];

	if (c->deadline_ns) {
		uint64_t now = delay_now_ns();

		left_s = now < c->deadline_ns ?
			 (double)(c->deadline_ns - now) / 1e9 : 0;
	}
	if (need_s <= left_s)
		return true;
	fmt_size_exact(t, sizeof(t), r->tgt.size);
	snprintf(g->basis, sizeof(g->basis),
		 "not measured: writing %s %.1f times (%s and a quarter, then sequential and random writes of %zu sizes) takes at least %.0f s at the %.1f MiB/s its first sixteenth was written at, more than %s (%.0f s); %s",
		 t, r->erase_passes, r->erase_trim ? "once" : "twice", r->nes,
		 need_s, r->pre_mbs,
		 c->deadline_ns ? "the time budget left" :
		 "the most this test takes without a budget", left_s,
		 "give --max-duration a time that covers it, or characterize a smaller target (a partition)");
	return false;
}

/* 1: the target emptied (a trim of it whole, where it takes one) and
 * written in sequence, the first sixteenth timed, then its first quarter
 * again.  The trim leaves every
 * block stale, so the pass lays the target out in order from the first
 * page of a block.  Without one, a second pass: during the first,
 * garbage collection still moves pages written before the test, and
 * blocks start with them, not at a unit of the writes (a drive that puts
 * moved pages where the host's go keeps them mixed for a while). */
static int precondition(struct char_ctx *c, uint64_t big)
{
	struct characterize_result *r = c->r;
	uint64_t off = char_drive_offset(r, big, 0), size = r->tgt.size - off;
	uint64_t first = size / ERASE_SEQ / big * big, all = size / big * big;
	uint64_t t0;
	struct char_run m;
	int status = EXIT_OK;
	double s;

	if (r->erase_trim)
		status = write_run(c, "seq", big, off, all, all, false, "trim", &m);
	t0 = delay_now_ns();
	if (!status)
		status = write_run(c, "seq", big, off, first, first, false,
				   "write", &m);
	if (status)
		return status;
	s = (double)(delay_now_ns() - t0) / 1e9;
	r->pre_mbs = (double)first / 1048576.0 / s;
	if (!budget(c, s * ERASE_SEQ * r->erase_passes))
		return EXIT_OK;
	status = write_run(c, "seq", big, off + first, all - first,
			   all - first, false, "write", &m);
	if (!status && !r->erase_trim)
		status = write_run(c, "seq", big, off, all, all, false, "write",
				   &m);
	/* a quarter more: the spare used up, every block written from now
	 * on costs one erased, sequential or not */
	if (!status)
		status = write_run(c, "seq", big, off, all / ERASE_WARM / big * big,
				   all / ERASE_WARM / big * big, false, "write", &m);
	if (!status)
		r->preconditioned = true;
	return status;
}

int char_test_erase(struct char_ctx *c)
{
	struct characterize_result *r = c->r;
	struct char_figure *g = &r->erase_block;
	uint64_t big = ERASE_MAX, s, size = r->tgt.size;
	size_t i;
	int status;

	if (!c->confirmed) {
		snprintf(g->basis, sizeof(g->basis),
			 "not measured: it writes; add --write (it destroys the target's data, after confirmation)");
		return EXIT_OK;
	}
	if (r->spins) {
		snprintf(g->basis, sizeof(g->basis),
			 "not measured: the drive rotates (a revolution was measured): a disk rewrites its sectors in place and has no erase blocks");
		return EXIT_OK;
	}
	while (big > ERASE_FIRST && big * ERASE_PER_TARGET > size)
		big /= 2;
	if (big < 2 * ERASE_FIRST) {
		char t[32];

		snprintf(g->basis, sizeof(g->basis),
			 "not measured: the target (%s) is too small; the largest write tried is a %dth of it and two sizes from %d KiB at least are needed (%llu MiB)",
			 fmt_size_exact(t, sizeof(t), size), ERASE_PER_TARGET,
			 ERASE_FIRST / 1024,
			 (unsigned long long)(2ULL * ERASE_FIRST * ERASE_PER_TARGET >> 20));
		return EXIT_OK;
	}
	if (!char_time_for(c, g))
		return EXIT_OK;
	r->erase_qd = 1;
	for (s = big; s >= ERASE_FIRST && r->nes < CHAR_ERASE_SIZES; s /= 2)
		r->es[r->nes++].bytes = s;
	r->erase_trim = r->tgt.discard_max > 0;
	r->erase_passes = (r->erase_trim ? 1 : 2) + 1.0 / ERASE_WARM +
			  (double)r->nes *
			  (1.0 / ERASE_SEQ + 1.0 / ERASE_WARM + 1.0 / ERASE_MEAS);
	status = precondition(c, big);
	if (status || !r->preconditioned) {
		r->nes = 0;
		return status;
	}
	/* 2: each size's sequential speed, on the clean state */
	for (i = 0; i < r->nes; i++) {
		struct char_erase *e = &r->es[i];
		uint64_t bytes = run_bytes(size / ERASE_SEQ, e->bytes);
		struct char_run m;

		status = write_run(c, "seq", e->bytes,
				   char_drive_offset(r, e->bytes, 0), bytes,
				   bytes, true, "write", &m);
		if (!status && rate_of(&m, e->bytes, &e->seq))
			status = EXIT_PREP_FAILED;
		if (status)
			return status;
	}
	/* 3: random, largest first, each after a quarter unmeasured */
	for (i = 0; i < r->nes; i++) {
		struct char_erase *e = &r->es[i];
		uint64_t off = char_drive_offset(r, e->bytes, 0);
		uint64_t warm = size / ERASE_WARM / e->bytes * e->bytes;
		uint64_t meas = run_bytes(size / ERASE_MEAS, e->bytes);
		struct char_run m;

		if (!char_time_for(c, NULL))
			break;
		status = write_run(c, "rnd", e->bytes, off, 0, warm, false,
				   "write", &m);
		if (!status)
			status = write_run(c, "rnd", e->bytes, off, 0, meas,
					   true, "write", &m);
		if (!status && rate_of(&m, e->bytes, &e->rnd))
			status = EXIT_PREP_FAILED;
		if (status)
			return status;
		e->measured = true;
	}
	return EXIT_OK;
}

/* Each size's cost: sequential over random, its interval from theirs. */
static void cost_of(struct char_erase *e)
{
	e->ratio = e->rnd.mbs > 0 ? e->seq.mbs / e->rnd.mbs : 0;
	if (!e->seq.known || !e->rnd.known || !(e->rnd.low > 0)) {
		e->low = 0;
		e->high = INFINITY;
		e->verdict = CHAR_UNSURE;
		return;
	}
	e->low = e->seq.low / e->rnd.high;
	e->high = e->seq.high / e->rnd.low;
	e->verdict = char_verdict_of(e->low, e->high);
}

/* Sizes largest first: the first that costs more, m; every larger one
 * must not (the same, or within the noise), and the smallest of them
 * measured the same is the unit, with the undecided ones between it and m
 * its interval; every smaller one must not cost the same. */
void char_judge_erase(struct characterize_result *r)
{
	struct char_figure *g = &r->erase_block;
	char a[32], b[32], z[32];
	size_t n = 0, i, m, unit = SIZE_MAX, low;

	for (i = 0; i < r->nes && r->es[i].measured; i++) {
		cost_of(&r->es[i]);
		n++;
	}
	if (!n) {
		if (r->nes && !g->basis[0])
			snprintf(g->basis, sizeof(g->basis), "not measured: the time budget ran out before the random writes");
		return;
	}
	fmt_size_exact(z, sizeof(z), r->es[n - 1].bytes);
	fmt_size_exact(a, sizeof(a), r->es[0].bytes);
	for (m = 0; m < n && r->es[m].verdict != CHAR_MORE; m++)
		if (r->es[m].verdict == CHAR_SAME)
			unit = m;
	if (m == 0) {
		snprintf(g->basis, sizeof(g->basis),
			 "random writes of %s, the largest tried, already cost %.2fx (%.2f-%.2f) sequential ones: the unit is larger, or the drive collects garbage whatever the size; no unit concluded",
			 a, r->es[0].ratio, r->es[0].low, r->es[0].high);
		return;
	}
	if (m == n) {
		if (unit == SIZE_MAX)
			snprintf(g->basis, sizeof(g->basis),
				 "random writes of every size from %s down to %s cost about what sequential ones do, too noisy to say whether any costs more; no unit concluded",
				 a, z);
		else
			snprintf(g->basis, sizeof(g->basis),
				 "none seen: random writes of no size from %s down to %s cost more than sequential ones (by %.0f%%) once %s was written at random: nothing is copied to reclaim space, so the unit is %s or less, the spare is larger than a quarter of the target, or there is no flash translation (a file, a RAM disk)",
				 a, z, (CHAR_MATERIAL - 1) * 100,
				 fmt_size_exact(b, sizeof(b), r->tgt.size / ERASE_WARM), z);
		return;
	}
	for (i = m + 1; i < n; i++)
		if (r->es[i].verdict == CHAR_SAME) {
			snprintf(g->basis, sizeof(g->basis),
				 "inconsistent: random writes of %s cost more than sequential ones but those of %s, smaller, do not; noise or background collection, no unit concluded",
				 fmt_size_exact(a, sizeof(a), r->es[m].bytes),
				 fmt_size_exact(b, sizeof(b), r->es[i].bytes));
			return;
		}
	if (unit == SIZE_MAX) {
		snprintf(g->basis, sizeof(g->basis),
			 "random writes of %s cost more than sequential ones, and those of every larger size are too noisy to say whether they do: no unit concluded",
			 fmt_size_exact(a, sizeof(a), r->es[m].bytes));
		return;
	}
	low = m - 1;	/* the undecided sizes between the unit and m */
	g->known = true;
	g->value = g->high = (double)r->es[unit].bytes;
	g->low = (double)r->es[low].bytes;
	snprintf(g->basis, sizeof(g->basis),
		 "once the target was full and %s more written at random: random writes of %s cost %.2fx (%.2f-%.2f) sequential ones of the size, those of %s %.2fx (%.2f-%.2f): smaller writes share erase blocks with data still valid, which garbage collection copies; %s",
		 fmt_size_exact(z, sizeof(z), r->tgt.size / ERASE_WARM),
		 fmt_size_exact(a, sizeof(a), r->es[unit].bytes),
		 r->es[unit].ratio, r->es[unit].low, r->es[unit].high,
		 fmt_size_exact(b, sizeof(b), r->es[m].bytes),
		 r->es[m].ratio, r->es[m].low, r->es[m].high,
		 low == unit ? "the unit is a power of two from the sizes tried" :
		 "sizes between are within the noise");
}
