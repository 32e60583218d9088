/* characterize_run.c - the measurements of --characterize (characterize.h):
 * every check before the first I/O, then each test as plain rebench runs
 * of one workload built with the typed setters, read back from its
 * result.
 *
 * 1. The unit (flashbench -a's idea): reads of two logical sectors that
 *    straddle an odd multiple of B (a boundary of B and of nothing
 *    larger) against the same reads inside a 128 KiB-aligned unit, for
 *    B from two sectors to 64 KiB.  A drive that reads in units of U
 *    reads two units for a crossing read when B >= U and one otherwise,
 *    so the smallest B whose crossing costs more is U.  Every two-sector
 *    read crosses one sector boundary, the inside ones too, so a unit of
 *    one sector shows as no boundary costing more.  Medians, with the
 *    95% interval of each from the order statistics (ranks n/2 +-
 *    0.98 sqrt(n)), so a burst of the machine's noise moves neither; in
 *    CHAR_ROUNDS rounds of inside-then-across runs, so that a drift of
 *    the machine moves both sides of a ratio, and the interval holds
 *    every round's ratio.
 * 3. Parallelism: random reads of one unit at queue depth 1, 2, 4 ... 64
 *    (until two doublings in a row add less than 5%), each until its
 *    ops/s are known to +-CHAR_QD_PRECISION % (--precision's rule: batch
 *    means, ci.h, from 20 intervals of CHAR_QD_STEP on), CHAR_QD_SECONDS
 *    at most.
 *    By Little's law the I/Os served at once at the plateau are its
 *    ops/s times the time one I/O takes alone: the median at depth 1,
 *    which a loaded machine's stalls do not move as they move a mean.
 */
#include "characterize/characterize_measure.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/delay.h"
#include "core/hist.h"
#include "core/options.h"
#include "core/validate.h"
#include "engines/engine.h"
#include "report/plot.h"
#include "stats/ci.h"

/* The options of a run that --characterize decides itself: each would
 * change what a test measures. */
static const char *const own_opts[] = {
	"operation", "workload", "block-size", "stride", "dist", "sigma",
	"center", "scatter", "queue-depth", "batch", "threads", "duration",
	"offset", "paged", "buffered", "sync", "readahead", "cache",
	"sample-step", "pause", "delay", "rwmix", "direction",
	NULL
};

static const char *const never_opts[] = {
	"suite", "steady-state", "precondition", "round", "max-rounds",
	"plot-metric", "probe", "fio", "engines", "repeat",
	"precision", "warmup", "dry-run", "start-at",
	"ready-fd", "order",
	NULL
};

static int refuse(const char *fmt, const char *a)
{
	fprintf(stderr, "rebench: --characterize: ");
	fprintf(stderr, fmt, a);
	fputc('\n', stderr);
	return EXIT_BAD_ARGS;
}

static int check_options(const struct spec *base, const struct run_opts *run)
{
	const char *const *o;

	for (o = own_opts; *o; o++)
		if (spec_given(base, *o))
			return refuse("--%s: the tests choose their own workloads (small random reads, direct, at depths they choose); leave it out", *o);
	for (o = never_opts; *o; o++)
		if (run_given(run, *o))
			return refuse("--%s does not combine with it; run the two apart", *o);
	if (run_given(run, "max-duration") && !run->max_duration_ns)
		return refuse("--max-duration %s: the time budget must be a time, e.g. --max-duration 2m; leave it out for no budget",
			      "0");
	if (!base->target)
		return refuse("it measures one drive: give its block device, %s",
			      "rebench --characterize /dev/sdb");
	return EXIT_OK;
}

/* --output and --plot: writable, and neither the target. */
static int check_outputs(struct run_ctx *ctx, const struct spec *base,
			 const struct run_opts *run)
{
	int status = EXIT_OK;

	if (!run->plot && !base->output)
		return EXIT_OK;
	if (add_workload(ctx, base))
		return EXIT_BAD_ARGS;
	if ((base->output && check_output_path(ctx, &ctx->wls[0].spec)) ||
	    (run->plot && plot_check_path(ctx, run->plot)))
		status = EXIT_BAD_ARGS;
	cleanup_all(ctx);
	return status;
}

/* The target: a block device (a whole drive or a partition), probed. */
static int check_target(struct characterize_result *r, const char *path)
{
	char err[PATH_MAX + 256];

	if (target_probe(path, &r->tgt, err, sizeof(err))) {
		fprintf(stderr, "rebench: --characterize: %s\n", err);
		return EXIT_PREP_FAILED;
	}
	if (r->tgt.kind == TARGET_FILE)
		return refuse("%s is not a block device: a drive's unit and parallelism are measured on the drive (or a partition of it), not through a file system; give the device, for example the one `df` names for the file",
			      path);
	r->disk_offset = r->tgt.kind == TARGET_PARTITION ? r->tgt.part_start : 0;
	return EXIT_OK;
}

/* Boundary b: CHAR_ROUNDS rounds of reads inside a unit then across b,
 * side by side so that a drift of the machine between rounds moves both,
 * and more, up to CHAR_MAX_ROUNDS, while the verdict is open; the ratio
 * of the pooled medians, its interval widened to every round's own
 * ratio. */
static int boundary_point(struct char_ctx *c, struct char_boundary *b,
			  struct hist *in, struct hist *x, struct hist *all_in)
{
	struct characterize_result *r = c->r;
	uint64_t s = r->tgt.logical, n = r->round_reads;
	double rmin = INFINITY, rmax = 0, ip50, ilo, ihi;
	struct char_run mi, mx;
	int status;

	hist_init(in);
	hist_init(x);
	for (b->rounds = 0; b->rounds < CHAR_MAX_ROUNDS; ) {
		/* inside: 128 KiB-aligned reads cross only the sector
		 * boundary inside them; across: odd multiples of b, less
		 * one sector (stride 2b) */
		status = char_reads_at(c, r->read_bytes, 2 * CHAR_MAX_BOUNDARY, 0, n,
				  &mi, in);
		if (!status)
			status = char_reads_at(c, r->read_bytes, 2 * b->bytes,
					  b->bytes - s, n, &mx, x);
		if (status)
			return status;
		b->rounds++;
		rmin = fmin(rmin, mx.p50 / mi.p50);
		rmax = fmax(rmax, mx.p50 / mi.p50);
		b->reads = x->count;
		char_median(x, &b->p50_us, &b->p50_lo_us, &b->p50_hi_us);
		char_median(in, &ip50, &ilo, &ihi);
		b->ratio = b->p50_us / ip50;
		b->low = fmin(b->p50_lo_us / ihi, rmin);
		b->high = fmax(b->p50_hi_us / ilo, rmax);
		b->verdict = char_verdict_of(b->low, b->high);
		if (b->rounds >= CHAR_ROUNDS &&
		    (b->verdict != CHAR_UNSURE || !char_time_for(c, NULL)))
			break;
	}
	hist_merge(all_in, in);
	return EXIT_OK;
}

static int test_boundaries(struct char_ctx *c)
{
	struct characterize_result *r = c->r;
	struct hist *h = malloc(3 * sizeof(*h));
	struct char_run cal;
	uint64_t bytes;
	double per;
	int status = EXIT_OK;

	if (!h) {
		fprintf(stderr, "rebench: --characterize: out of memory\n");
		return EXIT_PREP_FAILED;
	}
	hist_init(&h[2]);
	r->read_bytes = 2 * (uint64_t)r->tgt.logical;
	/* how many reads a round can afford: CHAR_ROUND_SECONDS of them,
	 * CHAR_ROUND_READS at most, CHAR_ROUND_MIN at least (a disk's 10 ms
	 * reads would otherwise take minutes) */
	status = char_reads_at(c, r->read_bytes, 2 * CHAR_MAX_BOUNDARY, 0,
			  CHAR_ROUND_MIN, &cal, NULL);
	if (status) {
		free(h);
		return status;
	}
	per = CHAR_ROUND_SECONDS * 1e6 / cal.p50;
	r->round_reads = per > CHAR_ROUND_READS ? CHAR_ROUND_READS :
			 per < CHAR_ROUND_MIN ? CHAR_ROUND_MIN : (uint64_t)per;
	for (bytes = r->read_bytes; bytes <= CHAR_MAX_BOUNDARY &&
	     r->nb < CHAR_BOUNDARIES && !status && char_time_for(c, NULL);
	     bytes *= 2) {
		r->b[r->nb].bytes = bytes;
		status = boundary_point(c, &r->b[r->nb], &h[0], &h[1], &h[2]);
		if (!status)
			r->nb++;
	}
	r->inside_reads = h[2].count;
	if (h[2].count)
		char_median(&h[2], &r->inside_p50_us, &r->inside_lo_us,
				&r->inside_hi_us);
	free(h);
	return status;
}

/* The engine of the queue-depth test: the one given when it queues,
 * else io_uring, else libaio. */
static const char *qd_engine(const struct spec *base)
{
	static const char *const prefer[] = { "uring", "naio", NULL };
	const struct engine_ops *e = engine_get(base->engine);
	size_t i;

	if (spec_given(base, "type") && e && (e->flags & ENGINE_ASYNC))
		return e->name;
	for (i = 0; prefer[i]; i++) {
		int k = engine_lookup(prefer[i]);

		if (k >= 0 && !engine_get(k)->unavailable)
			return prefer[i];
	}
	return NULL;
}

static int qd_point(struct char_ctx *c, unsigned qd, struct char_qd *q)
{
	char b[24], qs[16], d[16], o[24], sd[16];
	struct char_run m;
	/* aligned to the drive's units, not to a partition's start */
	const char *const set[] = {
		"operation", "read", "workload", "rnd", "block-size", b,
		"stride", b, "offset", o, "type", c->r->engine,
		"queue-depth", qs, "duration", d, "sample-step", CHAR_QD_STEP,
		"seed", char_seed(c, sd, sizeof(sd)), NULL
	};
	int status;

	char_fmt_u64(b, sizeof(b), c->r->qd_bytes);
	char_fmt_u64(o, sizeof(o), char_drive_offset(c->r, c->r->qd_bytes, 0));
	snprintf(qs, sizeof(qs), "%u", qd);
	snprintf(d, sizeof(d), "%ds", CHAR_QD_SECONDS);
	c->precision_pct = CHAR_QD_PRECISION;
	status = char_measure(c, set, false, &m, NULL);
	c->precision_pct = 0;
	if (status)
		return status;
	q->seconds = (double)m.wl->result.stats->elapsed_ns / 1e9;
	q->qd = qd;
	q->known = m.ops.known;
	q->iops = m.ops.known ? m.ops.mean : 0;
	q->low = m.ops.low;
	q->high = m.ops.high;
	q->p50_us = m.p50;
	q->p50_lo_us = m.p50_lo;
	q->p50_hi_us = m.p50_hi;
	return EXIT_OK;
}

static int test_parallelism(struct char_ctx *c)
{
	struct characterize_result *r = c->r;
	const char *e = qd_engine(c->base);
	double best = 0;
	unsigned qd, flat = 0;
	int status;

	if (!e) {
		snprintf(r->parallelism.basis, sizeof(r->parallelism.basis),
			 "not measured: no engine here keeps more than one I/O in flight (rebench was built without io_uring and libaio: make deps, then make)");
		return EXIT_OK;
	}
	snprintf(r->engine, sizeof(r->engine), "%s", e);
	r->qd_bytes = r->page.known ? (uint64_t)r->page.value : 4096;
	if (r->qd_bytes < r->tgt.logical)
		r->qd_bytes = r->tgt.logical;
	for (qd = 1; qd <= CHAR_MAX_QD && r->nq < CHAR_QDS && flat < 2; qd *= 2) {
		struct char_qd *q = &r->q[r->nq];

		status = qd_point(c, qd, q);
		if (status)
			return status;
		r->nq++;
		flat = q->iops > best * 1.05 ? 0 : flat + 1;
		if (q->iops > best)
			best = q->iops;
	}
	return EXIT_OK;
}

/* The tests in order, each judged after it ran; an interruption or a
 * failed run ends them, and what they measured is judged and printed. */
static int characterize(struct char_ctx *c)
{
	struct characterize_result *r = c->r;
	int status = EXIT_OK;

	if (c->run->char_write)
		status = char_confirm_writes(c);
	if (!status)
		status = test_boundaries(c);
	char_judge_boundaries(r);
	if (!status && char_time_for(c, &r->parallelism))
		status = test_parallelism(c);
	char_judge_parallelism(r);
	if (!status)
		status = char_test_spin(c);
	char_judge_spin(r);
	if (!status)
		status = char_test_cache(c);
	char_judge_cache(r);
	if (!status)
		status = char_test_flush(c);
	char_judge_flush(r);
	if (!status)
		status = char_test_erase(c);
	char_judge_erase(r);
	char_judge_report(r);
	char_advise(r);
	return status;
}

int characterize_check_unused(const struct run_opts *run)
{
	if (run->char_write && !run->characterize) {
		fprintf(stderr, "rebench: --write adds --characterize's write test; add --characterize, or to write in a workload use -o write\n");
		return -EINVAL;
	}
	return 0;
}

static uint64_t deadline(const struct run_opts *run)
{
	return run_given(run, "max-duration") ?
	       delay_now_ns() + run->max_duration_ns : 0;
}

int characterize_main(struct run_ctx *ctx, struct spec *base,
		      struct run_opts *run, struct sweep *sw)
{
	struct characterize_result *r;
	struct run_opts quiet = *run;
	struct char_ctx c = { ctx, base, &quiet, NULL,
			      { 0, "--characterize", NULL, NULL }, 0, false, 0 };
	int status;

	if (sw && sw->naxes)
		return refuse("a range or list (%s) has no place in it: the tests choose their own points",
			      sw->axes[0].opt->name);
	status = check_options(base, run);
	if (!status)
		status = check_outputs(ctx, base, run);
	if (status)
		return status;
	r = calloc(1, sizeof(*r));
	if (!r) {
		fprintf(stderr, "rebench: --characterize: out of memory\n");
		return EXIT_PREP_FAILED;
	}
	c.r = r;
	c.deadline_ns = deadline(run);
	quiet.quiet_stdout = true;	/* the characterization is the output */
	status = check_target(r, base->target);
	if (!status)
		status = characterize(&c);
	if (!status || r->interrupted) {
		if (run->json)
			char_print_json(stdout, r);
		else
			char_print_human(stdout, r);
		if (run->plot && char_plot(r, run->plot, base->output))
			status = status ? status : EXIT_PLOT_FAILED;
		else if (!run->plot && base->output &&
			 char_write_data(r, base->output))
			status = status ? status : EXIT_OUTPUT_FAILED;
	}
	if (r->interrupted)
		status = EXIT_INTERRUPTED;
	free(r);
	return status;
}
