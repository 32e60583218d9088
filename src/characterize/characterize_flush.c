/* characterize_flush.c - --write: does a flush make writes durable?
 * (characterize.h)
 *
 * Random writes of the unit at depth 1, alone (--sync none: a write
 * cache acknowledges them at once) and each followed by a flush
 * (fdatasync), in CHAR_FLUSH_ROUNDS rounds of each side by side, the
 * medians pooled.  The media needs time to take a block: on a disk a seek
 * and a rotation, on flash a page program, which is slower than a page
 * read.  The bound is half the median of a random read of the unit at
 * depth 1 (the queue-depth test's first point): a write reaching the media
 * costs what reaching it for a read does, and a flush that waits for one
 * cannot return in less than half of that.
 *   writes themselves slower than the bound: no volatile cache was seen,
 *     and a flush has nothing to do (no verdict);
 *   writes faster, flushes faster too (their median under the bound): the
 *     flush returned before the media could have written anything
 *     (flush_honest false).  The median, not its interval's high end: a
 *     stall of a busy machine only adds time (a CI run beside this one
 *     put the high end at 3.8 ms over lying flushes of 105 us), so a
 *     median under the bound cannot come from flushes that waited;
 *   writes faster, flushes slower (the median's whole interval over the
 *     bound): the flush waited for the media (true).
 * A heuristic, said as one: only a power cut proves durability.
 */
#include "characterize/characterize_measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/confirm.h"
#include "core/options.h"
#include "core/validate.h"

#define POWER_CUT "only a power cut proves it (rebench-modeldev's cut, or diskchecker.pl on a real drive)"

static int writes(struct char_ctx *c, const char *sync, struct char_run *m,
		  struct hist *acc)
{
	const struct characterize_result *r = c->r;
	char b[24], o[24], d[32], sd[16];
	const char *const set[] = {
		"operation", "write", "workload", "rnd", "block-size", b,
		"stride", b, "offset", o, "sync", sync, "duration", d,
		"seed", char_seed(c, sd, sizeof(sd)), NULL
	};

	char_fmt_u64(b, sizeof(b), r->flush_bytes);
	char_fmt_u64(o, sizeof(o), char_drive_offset(r, r->flush_bytes, 0));
	snprintf(d, sizeof(d), "%llub",
		 (unsigned long long)(CHAR_FLUSH_WRITES / CHAR_FLUSH_ROUNDS *
				      r->flush_bytes));
	return char_measure(c, set, false, m, acc);
}

int char_confirm_writes(struct char_ctx *c)
{
	int ret;

	cleanup_all(c->ctx);
	if (add_workload(c->ctx, c->base) ||
	    spec_set(&c->ctx->wls[0].spec, "operation", "write", &c->pctx) ||
	    validate_all(c->ctx, c->base))
		return EXIT_BAD_ARGS;
	ret = confirm_destructive(c->ctx->wls, c->ctx->n,
				  c->run->yes || c->run->silent);
	cleanup_all(c->ctx);
	if (ret)
		return confirm_exit_status(ret);
	c->confirmed = true;
	return EXIT_OK;
}

int char_test_flush(struct char_ctx *c)
{
	struct characterize_result *r = c->r;
	struct char_run m;
	struct hist *h;
	unsigned round;
	int status = EXIT_OK;

	if (!c->confirmed) {
		snprintf(r->flush_honest.basis, sizeof(r->flush_honest.basis),
			 "not measured: it writes; add --write (it destroys the target's data, after confirmation)");
		return EXIT_OK;
	}
	if (!r->nq || !char_time_for(c, &r->flush_honest)) {
		if (!r->nq)
			snprintf(r->flush_honest.basis, sizeof(r->flush_honest.basis),
				 "not measured: it needs the queue-depth test's random reads as the media's time");
		return EXIT_OK;
	}
	r->flush_bytes = r->qd_bytes;
	h = calloc(2, sizeof(*h));
	if (!h) {
		fprintf(stderr, "rebench: --characterize: out of memory\n");
		return EXIT_PREP_FAILED;
	}
	hist_init(&h[0]);
	hist_init(&h[1]);
	/* rounds of each, side by side: a stall of the machine (100 writes
	 * of a write cache take a few ms) hits a round, not a whole side */
	for (round = 0; round < CHAR_FLUSH_ROUNDS && !status; round++) {
		status = writes(c, "none", &m, &h[0]);
		if (!status)
			status = writes(c, "fdatasync:1", &m, NULL);
		if (!status) {
			hist_merge(&h[1], &m.wl->result.stats->op_hist[IO_FDATASYNC]);
			r->flushes += m.wl->result.stats->ops[IO_FDATASYNC];
		}
	}
	if (!status) {
		r->wrote = true;
		char_median(&h[0], &r->write_p50_us, &r->write_lo_us,
			    &r->write_hi_us);
		char_median(&h[1], &r->flush_p50_us, &r->flush_lo_us,
			    &r->flush_hi_us);
	}
	free(h);
	return status;
}

void char_judge_flush(struct characterize_result *r)
{
	struct char_figure *g = &r->flush_honest;

	if (!r->wrote)
		return;		/* the basis says why */
	r->bound_us = r->q[0].p50_us / 2;
	snprintf(r->bound_basis, sizeof(r->bound_basis),
		 "half the median random read of %llu B at depth 1 (%.1f us)",
		 (unsigned long long)r->flush_bytes, r->q[0].p50_us);
	if (!strcmp(r->tgt.write_cache, "write through")) {
		snprintf(g->basis, sizeof(g->basis),
			 "no verdict: the device reports a write-through cache, so the kernel sends it no flushes (fdatasync took %.1f us); durability rests on its claim; %s",
			 r->flush_p50_us, POWER_CUT);
	} else if (r->write_lo_us >= r->bound_us) {
		snprintf(g->basis, sizeof(g->basis),
			 "no verdict: writes alone take %.1f us, as long as the media needs (at least %.1f us, %s): no volatile write cache seen, nothing for a flush to do",
			 r->write_p50_us, r->bound_us, r->bound_basis);
	} else if (r->flush_p50_us < r->bound_us) {
		g->known = true;
		g->value = g->low = g->high = 0;
		snprintf(g->basis, sizeof(g->basis),
			 "writes are acknowledged in %.1f us, faster than the media (at least %.1f us, %s), and a flush after each returns in %.1f us (%.1f-%.1f): too fast to have written anything; the drive acknowledges flushes from a volatile cache; %s",
			 r->write_p50_us, r->bound_us, r->bound_basis,
			 r->flush_p50_us, r->flush_lo_us, r->flush_hi_us,
			 POWER_CUT);
	} else if (r->flush_lo_us >= r->bound_us) {
		g->known = true;
		g->value = g->low = g->high = 1;
		snprintf(g->basis, sizeof(g->basis),
			 "writes are acknowledged in %.1f us from a cache, and a flush after each waits %.1f us (%.1f-%.1f), as long as the media needs (at least %.1f us, %s); %s",
			 r->write_p50_us, r->flush_p50_us, r->flush_lo_us,
			 r->flush_hi_us, r->bound_us, r->bound_basis, POWER_CUT);
	} else {
		snprintf(g->basis, sizeof(g->basis),
			 "no verdict: writes are acknowledged in %.1f us, and flushes take %.1f us (%.1f-%.1f), too near the media's %.1f us (%s) to tell",
			 r->write_p50_us, r->flush_p50_us, r->flush_lo_us,
			 r->flush_hi_us, r->bound_us, r->bound_basis);
	}
}
