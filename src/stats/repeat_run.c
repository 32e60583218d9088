/* repeat_run.c - --repeat: the workloads of a run (or of a sweep point)
 * run again and again; each run's figures are kept and summarized.  Run r
 * uses each workload's first seed + r.
 *
 * Each block (a workload's, the total's) then shows its median run by
 * ops/s whole: its latency, intervals, series, -g 0 log and warnings, not
 * a mix with the last run's.  The median is known only after the last
 * run, so every run that can still be it (repeat_may_be_median(): about
 * half of them at most) is kept, moved out of the run context with its
 * descriptors and buffers released, and counted in the memory budget. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/memory.h"
#include "core/options.h"
#include "core/plan.h"
#include "stats/repeat.h"
#include "stats/repeat_run.h"
#include "report/summary.h"
#include "core/units.h"
#include "core/workload.h"

/* A run kept while it may be its slot's median run: a workload after its
 * run, or the total's result. */
struct kept_run {
	size_t run;
	struct workload *wl;
	struct result *total;
};

/* A workload's runs, or the total's when several run together (the last
 * slot). */
struct repeat_slot {
	struct repeat_data d;	/* its figures over the runs */
	struct spec spec;	/* as given (before validation), to build the
				 * next run from; workloads only */
	struct kept_run *kept;	/* [runs] */
	size_t nkept;
	/* What the first run's preparation said (a layout, say), said again
	 * by the later runs; not the per-run ones (too few I/Os, a wrapped
	 * run), which each run says for itself.  And whether it created
	 * the file. */
	char *first_warn[MAX_WARNINGS];
	int nfirst_warn;
	bool first_created;
};

/* --repeat (and the rounds of --steady-state): ctx->repeat, from
 * repeat_begin() to repeat_free(). */
struct repeat_state {
	size_t n;		/* workloads */
	size_t runs;		/* the runs asked for */
	uint64_t kept_bytes;	/* counted in the memory budget */
	struct repeat_slot slot[];	/* [slots(n)] */
};

/* What a kept workload holds: itself and its result. */
#define KEPT_WL_BYTES (sizeof(struct workload) + sizeof(struct result))

/* Workloads, and the total when there is one. */
static size_t slots_of(size_t n)
{
	return n > 1 ? n + 1 : n;
}

static size_t rep_slots(const struct repeat_state *rs)
{
	return slots_of(rs->n);
}

int repeat_begin(struct run_ctx *ctx, size_t runs)
{
	struct repeat_state *rs;
	size_t k;
	int m;

	rs = calloc(1, sizeof(*rs) + slots_of(ctx->n) * sizeof(rs->slot[0]));
	if (!rs)
		return -ENOMEM;
	ctx->repeat = rs;
	rs->n = ctx->n;
	rs->runs = runs;
	for (k = 0; k < rep_slots(rs); k++) {
		struct repeat_slot *sl = &rs->slot[k];

		if (k < rs->n && spec_copy(&sl->spec, &ctx->wls[k].spec))
			return -ENOMEM;
		sl->kept = calloc(runs, sizeof(*sl->kept));
		if (!sl->kept)
			return -ENOMEM;
		for (m = 0; m < RM_COUNT; m++) {
			sl->d.v[m] = calloc(runs, sizeof(double));
			if (!sl->d.v[m])
				return -ENOMEM;
		}
	}
	return 0;
}

/* One run's figures of a workload or of the total. */
static void record(struct repeat_data *rd, const struct result *res,
		   uint64_t seed)
{
	struct lat_summary l;
	size_t r = rd->runs++;

	if (!r)
		rd->seed0 = seed;
	lat_summarize(res, &l);
	rd->v[RM_OPS][r] = res->ops_per_s;
	rd->v[RM_MBPS][r] = res->mb_per_s;
	rd->v[RM_LAT_AVG][r] = l.avg;
	rd->v[RM_P50][r] = l.p50;
	rd->v[RM_P90][r] = l.p90;
	rd->v[RM_P99][r] = l.p99;
	rd->v[RM_P999][r] = l.p999;
}

/* After a complete run: its figures. */
void repeat_record(const struct run_ctx *ctx)
{
	struct repeat_state *rs = ctx->repeat;
	size_t k;

	if (!rs)
		return;
	for (k = 0; k < rs->n; k++)
		if (ctx->wls[k].result.have_result)
			record(&rs->slot[k].d, ctx->wls[k].result.stats,
			       ctx->wls[k].spec.seed);
	if (rep_slots(rs) > rs->n && ctx->have_total)
		record(&rs->slot[rs->n].d, ctx->total, 0);
}

/* The first run's warnings and file creation, before it is kept. */
static void note_first(struct repeat_slot *sl, const struct workload *wl)
{
	int i;

	while (sl->nfirst_warn)
		free(sl->first_warn[--sl->nfirst_warn]);
	sl->first_created = wl->tgt.created;
	for (i = 0; i < wl->result.nwarn; i++)
		if (i != wl->result.few_ios_warning && i != wl->result.wrap_warning)
			sl->first_warn[sl->nfirst_warn++] = strdup(wl->result.warnings[i]);
}

static void kept_free(struct repeat_state *rs, struct kept_run *kr)
{
	if (kr->wl) {
		memory_give_held(&rs->kept_bytes, KEPT_WL_BYTES);
		workload_cleanup(kr->wl);
		free(kr->wl);
	}
	if (kr->total) {
		memory_give_held(&rs->kept_bytes, sizeof(*kr->total));
		result_free(kr->total);
		free(kr->total);
	}
	memset(kr, 0, sizeof(*kr));
}

/* A slot's kept runs that can no longer be its median run go. */
static void kept_prune(struct repeat_state *rs, struct repeat_slot *sl)
{
	const struct repeat_data *rd = &sl->d;
	size_t i, n = 0;

	for (i = 0; i < sl->nkept; i++) {
		if (repeat_may_be_median(rd->v[RM_OPS], rd->runs, rs->runs,
					 sl->kept[i].run))
			sl->kept[n++] = sl->kept[i];
		else
			kept_free(rs, &sl->kept[i]);
	}
	sl->nkept = n;
}

static int kept_refuse(const struct repeat_state *rs)
{
	char b[32];

	fprintf(stderr, "rebench: --repeat %zu: the runs that may still be the median run, kept whole until the last run (%s so far), need more than rebench's memory budget of %s; give fewer runs, a larger -g or no -g 0 log, or raise REBENCH_MEMORY_BUDGET\n",
		rs->runs, fmt_size_human(b, sizeof(b), rs->kept_bytes),
		memory_budget_text());
	return EXIT_PREP_FAILED;
}

/* Workload k of ctx moved into kr (its descriptors and buffers released),
 * an empty one left in its place; EXIT_OK or EXIT_PREP_FAILED. */
static int keep_workload(struct run_ctx *ctx, size_t k, struct kept_run *kr)
{
	struct workload *wl = &ctx->wls[k];

	kr->wl = malloc(sizeof(*kr->wl));
	if (!kr->wl) {
		memory_give_held(&ctx->repeat->kept_bytes, KEPT_WL_BYTES);
		return kept_refuse(ctx->repeat);
	}
	workload_release_io(wl);
	*kr->wl = *wl;
	memset(wl, 0, sizeof(*wl));
	wl->index = kr->wl->index;
	wl->run.shared_fd = -1;
	return EXIT_OK;
}

/* The total of ctx moved into kr; EXIT_OK or EXIT_PREP_FAILED. */
static int keep_total(struct run_ctx *ctx, struct kept_run *kr)
{
	kr->total = malloc(sizeof(*kr->total));
	if (!kr->total) {
		memory_give_held(&ctx->repeat->kept_bytes, sizeof(*kr->total));
		return kept_refuse(ctx->repeat);
	}
	*kr->total = *ctx->total;
	memset(ctx->total, 0, sizeof(*ctx->total));
	ctx->have_total = false;
	return EXIT_OK;
}

/* After repeat_record() of a complete run: the run is kept for each slot
 * whose median run it may be, moved out of ctx (cleanup_all() then has
 * nothing of it to free), and the kept runs that no longer may be go.
 * EXIT_OK, or EXIT_PREP_FAILED past the memory budget. */
static int repeat_keep(struct run_ctx *ctx)
{
	struct repeat_state *rs = ctx->repeat;
	size_t k, run;
	int ret;

	for (k = 0; k < rep_slots(rs); k++) {
		struct repeat_slot *sl = &rs->slot[k];
		struct kept_run *kr;

		/* as repeat_record(): a run without figures was not counted */
		if (k < rs->n ? !ctx->wls[k].result.have_result : !ctx->have_total)
			continue;
		run = sl->d.runs - 1;
		if (k < rs->n && run == 0)
			note_first(sl, &ctx->wls[k]);
		kept_prune(rs, sl);
		if (!repeat_may_be_median(sl->d.v[RM_OPS], sl->d.runs, rs->runs,
					  run))
			continue;
		kr = &sl->kept[sl->nkept];
		if (!memory_take_held(&rs->kept_bytes, k < rs->n ?
				      KEPT_WL_BYTES : sizeof(*kr->total)))
			return kept_refuse(rs);
		kr->run = run;
		ret = k < rs->n ? keep_workload(ctx, k, kr) : keep_total(ctx, kr);
		if (ret)
			return ret;
		sl->nkept++;
	}
	return EXIT_OK;
}

/* After the last run, every run complete: each slot's median run back in
 * ctx in place of the last run's. */
static void kept_restore(struct run_ctx *ctx)
{
	struct repeat_state *rs = ctx->repeat;
	size_t k, i;

	for (k = 0; k < rep_slots(rs); k++) {
		struct repeat_slot *sl = &rs->slot[k];
		struct kept_run *kr;

		if (!sl->d.runs)
			continue;
		sl->d.shown = repeat_median_run(sl->d.v[RM_OPS], sl->d.runs);
		for (i = 0; i < sl->nkept && sl->kept[i].run != sl->d.shown; i++)
			;
		if (i == sl->nkept)
			continue;	/* not kept: never moved out */
		kr = &sl->kept[i];
		if (k < rs->n) {
			workload_cleanup(&ctx->wls[k]);
			ctx->wls[k] = *kr->wl;
			free(kr->wl);
			kr->wl = NULL;
			memory_give_held(&rs->kept_bytes, KEPT_WL_BYTES);
		} else {
			if (ctx->have_total)
				result_free(ctx->total);
			*ctx->total = *kr->total;
			ctx->have_total = true;
			free(kr->total);
			kr->total = NULL;
			memory_give_held(&rs->kept_bytes, sizeof(*ctx->total));
		}
	}
}

/* The first run's warnings (a layout, say) and file creation, given to
 * run r's workloads. */
static void say_first(struct run_ctx *ctx)
{
	struct repeat_state *rs = ctx->repeat;
	size_t k;
	int i, j;

	for (k = 0; k < rs->n; k++) {
		struct repeat_slot *sl = &rs->slot[k];
		struct workload *wl = &ctx->wls[k];

		wl->tgt.created = sl->first_created;
		for (i = 0; i < sl->nfirst_warn; i++) {
			const char *w = sl->first_warn[i];

			for (j = 0; j < wl->result.nwarn; j++)
				if (w && !strcmp(w, wl->result.warnings[j]))
					break;
			if (w && j == wl->result.nwarn)
				workload_warn(wl, "%s", w);
		}
	}
}

/* Before run r > 0: the same workloads again, each with its first run's
 * seed + r; warnings of the first run (a layout, say) are kept. */
int repeat_rebuild(struct run_ctx *ctx, size_t r, const struct spec *base)
{
	const struct opt_desc *seed = options_find_long("seed");
	struct repeat_state *rs = ctx->repeat;
	size_t k, n = rs ? rs->n : 0;
	int ret = 0;

	cleanup_all(ctx);
	for (k = 0; k < n && !ret; k++) {
		struct spec s;

		if (spec_copy(&s, &rs->slot[k].spec))
			return -ENOMEM;
		s.seed = rs->slot[k].d.seed0 + r;
		s.given |= 1ULL << options_index(seed);
		ret = add_workload(ctx, &s);
		spec_free(&s);
	}
	if (ret || validate_all(ctx, base))
		return -EINVAL;
	if (rs)
		say_first(ctx);
	return 0;
}

int repeat_rebuild_same(struct run_ctx *ctx, size_t r, void *base)
{
	return repeat_rebuild(ctx, r, base) ? EXIT_PREP_FAILED : EXIT_OK;
}

void repeat_finish(struct run_ctx *ctx, bool complete)
{
	struct repeat_state *rs = ctx->repeat;
	size_t k;
	int m;

	if (!rs)
		return;
	for (k = 0; k < rep_slots(rs); k++) {
		struct repeat_data *rd = &rs->slot[k].d;

		for (m = 0; m < RM_COUNT; m++)
			repeat_summarize(rd->v[m], rd->runs, &rd->stat[m]);
		rd->shown = rd->runs;	/* the run that ended them */
	}
	if (complete)
		kept_restore(ctx);
	if (rep_slots(rs) > rs->n && rs->slot[rs->n].d.runs)
		ctx->total_rep = &rs->slot[rs->n].d;
	for (k = 0; k < rs->n; k++) {
		const struct repeat_data *rd = &rs->slot[k].d;

		if (!rd->runs)
			continue;
		ctx->wls[k].result.rep = rd;
		if (rd->runs >= 2 && rd->stat[RM_OPS].cv_pct > REPEAT_CV_WARN_PCT)
			workload_warn(&ctx->wls[k], "ops/s varied by %.1f%% (coefficient of variation) over %zu runs, more than %.0f%%: trust the median over any one run, and look for background I/O, a device still settling (--warmup) or throttling",
				      rd->stat[RM_OPS].cv_pct, rd->runs,
				      REPEAT_CV_WARN_PCT);
	}
}

void repeat_free(struct run_ctx *ctx)
{
	struct repeat_state *rs = ctx->repeat;
	size_t k, i;
	int m;

	if (!rs)
		return;
	for (k = 0; k < rep_slots(rs); k++) {
		struct repeat_slot *sl = &rs->slot[k];

		spec_free(&sl->spec);
		for (m = 0; m < RM_COUNT; m++)
			free(sl->d.v[m]);
		for (i = 0; sl->kept && i < sl->nkept; i++)
			kept_free(rs, &sl->kept[i]);
		free(sl->kept);
		while (sl->nfirst_warn)
			free(sl->first_warn[--sl->nfirst_warn]);
	}
	free(rs);
	ctx->repeat = NULL;	/* ready for the next sweep point */
}

int repeat_runs(struct run_ctx *ctx, const struct run_opts *run, size_t runs,
		int (*rebuild)(struct run_ctx *ctx, size_t r, void *arg),
		void *arg, bool *interrupted)
{
	uint64_t t0 = delay_now_ns();	/* the monotonic clock */
	size_t r;
	int status = EXIT_OK;

	ctx->spent_ns = 0;
	for (r = 0; r < runs; r++) {
		if (r) {
			status = rebuild(ctx, r, arg);
			if (status)
				return status;
		}
		status = prepare_and_run(ctx, run, interrupted);
		if (status != EXIT_OK || *interrupted)
			break;	/* an incomplete run is not counted */
		if (runs > 1) {
			repeat_record(ctx);
			status = repeat_keep(ctx);
			if (status)
				break;
		}
	}
	ctx->spent_ns = delay_now_ns() - t0;
	if (status != EXIT_OK && status != EXIT_IO_FAILED)
		return status;
	if (runs > 1)
		repeat_finish(ctx, r == runs);
	return status;
}
