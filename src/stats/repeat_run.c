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
#include "cli/options.h"
#include "core/plan.h"
#include "stats/repeat_run.h"
#include "report/summary.h"
#include "core/units.h"
#include "core/workload.h"

/* --repeat: each workload's figures over the runs, and its spec as given
 * (before validation) to build the next run from; after the workloads'
 * figures, their total's when several run together (reps[rep_n]). */
static struct repeat_data reps[MAX_WORKLOADS + 1];
static struct spec rep_specs[MAX_WORKLOADS];
static size_t rep_n;
static size_t rep_runs;		/* the runs asked for */

/* A run kept while it may be its slot's median run: a workload after its
 * run, or the total's result. */
struct kept_run {
	size_t run;
	struct workload *wl;
	struct result *total;
};
static struct kept_run *kept[MAX_WORKLOADS + 1];	/* [rep_runs] each */
static size_t nkept[MAX_WORKLOADS + 1];
static uint64_t kept_bytes;	/* counted in the memory budget */

/* What the first run's preparation said (a layout, say), said again by
 * the later runs; not the per-run ones (too few I/Os, a wrapped run),
 * which each run says for itself.  And whether it created the file. */
static char *first_warn[MAX_WORKLOADS][MAX_WARNINGS];
static int nfirst_warn[MAX_WORKLOADS];
static bool first_created[MAX_WORKLOADS];

/* Workloads, and the total when there is one. */
static size_t rep_slots(void)
{
	return rep_n > 1 ? rep_n + 1 : rep_n;
}

int repeat_begin(const struct run_ctx *ctx, size_t runs)
{
	size_t k;
	int m;

	rep_n = ctx->n;
	rep_runs = runs;
	for (k = 0; k < rep_slots(); k++) {
		if (k < rep_n && spec_copy(&rep_specs[k], &ctx->wls[k].spec))
			return -ENOMEM;
		kept[k] = calloc(runs, sizeof(*kept[k]));
		if (!kept[k])
			return -ENOMEM;
		for (m = 0; m < RM_COUNT; m++) {
			reps[k].v[m] = calloc(runs, sizeof(double));
			if (!reps[k].v[m])
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
	size_t k;

	for (k = 0; k < rep_n; k++)
		if (ctx->wls[k].have_result)
			record(&reps[k], &ctx->wls[k].res, ctx->wls[k].spec.seed);
	if (rep_slots() > rep_n && ctx->have_total)
		record(&reps[rep_n], &ctx->total, 0);
}

/* The first run's warnings and file creation, before it is kept. */
static void note_first(const struct workload *wl, size_t k)
{
	int i;

	while (nfirst_warn[k])
		free(first_warn[k][--nfirst_warn[k]]);
	first_created[k] = wl->tgt.created;
	for (i = 0; i < wl->nwarn; i++)
		if (i != wl->few_ios_warning && i != wl->wrap_warning)
			first_warn[k][nfirst_warn[k]++] = strdup(wl->warnings[i]);
}

static void kept_free(struct kept_run *kr)
{
	if (kr->wl) {
		memory_give_held(&kept_bytes, sizeof(*kr->wl));
		workload_cleanup(kr->wl);
		free(kr->wl);
	}
	if (kr->total) {
		memory_give_held(&kept_bytes, sizeof(*kr->total));
		result_free(kr->total);
		free(kr->total);
	}
	memset(kr, 0, sizeof(*kr));
}

/* Slot k's kept runs that can no longer be its median run go. */
static void kept_prune(size_t k)
{
	const struct repeat_data *rd = &reps[k];
	size_t i, n = 0;

	for (i = 0; i < nkept[k]; i++) {
		if (repeat_may_be_median(rd->v[RM_OPS], rd->runs, rep_runs,
					 kept[k][i].run))
			kept[k][n++] = kept[k][i];
		else
			kept_free(&kept[k][i]);
	}
	nkept[k] = n;
}

static int kept_refuse(void)
{
	char b[32];

	fprintf(stderr, "rebench: --repeat %zu: the runs that may still be the median run, kept whole until the last run (%s so far), need more than rebench's memory budget of %s; give fewer runs, a larger -g or no -g 0 log, or raise REBENCH_MEMORY_BUDGET\n",
		rep_runs, fmt_size_human(b, sizeof(b), kept_bytes),
		memory_budget_text());
	return EXIT_PREP_FAILED;
}

/* After repeat_record() of a complete run: the run is kept for each slot
 * whose median run it may be, moved out of ctx (cleanup_all() then has
 * nothing of it to free), and the kept runs that no longer may be go.
 * EXIT_OK, or EXIT_PREP_FAILED past the memory budget. */
static int repeat_keep(struct run_ctx *ctx)
{
	size_t k, run;

	for (k = 0; k < rep_slots(); k++) {
		struct repeat_data *rd = &reps[k];
		struct kept_run *kr;

		/* as repeat_record(): a run without figures was not counted */
		if (k < rep_n ? !ctx->wls[k].have_result : !ctx->have_total)
			continue;
		run = rd->runs - 1;
		if (k < rep_n && run == 0)
			note_first(&ctx->wls[k], k);
		kept_prune(k);
		if (!repeat_may_be_median(rd->v[RM_OPS], rd->runs, rep_runs, run))
			continue;
		kr = &kept[k][nkept[k]];
		if (!memory_take_held(&kept_bytes, k < rep_n ?
				      sizeof(*kr->wl) : sizeof(*kr->total)))
			return kept_refuse();
		kr->run = run;
		if (k < rep_n) {
			struct workload *wl = &ctx->wls[k];

			kr->wl = malloc(sizeof(*kr->wl));
			if (!kr->wl) {
				memory_give_held(&kept_bytes, sizeof(*kr->wl));
				return kept_refuse();
			}
			workload_release_io(wl);
			*kr->wl = *wl;
			memset(wl, 0, sizeof(*wl));
			wl->index = kr->wl->index;
			wl->shared_fd = -1;
		} else {
			kr->total = malloc(sizeof(*kr->total));
			if (!kr->total) {
				memory_give_held(&kept_bytes, sizeof(*kr->total));
				return kept_refuse();
			}
			*kr->total = ctx->total;
			memset(&ctx->total, 0, sizeof(ctx->total));
			ctx->have_total = false;
		}
		nkept[k]++;
	}
	return EXIT_OK;
}

/* After the last run, every run complete: each slot's median run back in
 * ctx in place of the last run's. */
static void kept_restore(struct run_ctx *ctx)
{
	size_t k, i;

	for (k = 0; k < rep_slots(); k++) {
		struct repeat_data *rd = &reps[k];
		struct kept_run *kr;

		if (!rd->runs)
			continue;
		rd->shown = repeat_median_run(rd->v[RM_OPS], rd->runs);
		for (i = 0; i < nkept[k] && kept[k][i].run != rd->shown; i++)
			;
		if (i == nkept[k])
			continue;	/* not kept: never moved out */
		kr = &kept[k][i];
		if (k < rep_n) {
			workload_cleanup(&ctx->wls[k]);
			ctx->wls[k] = *kr->wl;
			free(kr->wl);
			kr->wl = NULL;
			memory_give_held(&kept_bytes, sizeof(ctx->wls[k]));
		} else {
			if (ctx->have_total)
				result_free(&ctx->total);
			ctx->total = *kr->total;
			ctx->have_total = true;
			free(kr->total);
			kr->total = NULL;
			memory_give_held(&kept_bytes, sizeof(ctx->total));
		}
	}
}

/* Before run r > 0: the same workloads again, each with its first run's
 * seed + r; warnings of the first run (a layout, say) are kept. */
int repeat_rebuild(struct run_ctx *ctx, size_t r, const struct spec *base)
{
	const struct opt_desc *seed = options_find_long("seed");
	size_t k;
	int i, j, ret = 0;

	cleanup_all(ctx);
	for (k = 0; k < rep_n && !ret; k++) {
		struct spec s;

		if (spec_copy(&s, &rep_specs[k]))
			return -ENOMEM;
		s.seed = reps[k].seed0 + r;
		s.given |= 1ULL << options_index(seed);
		ret = add_workload(ctx, &s);
		spec_free(&s);
	}
	if (ret || validate_all(ctx, base))
		return -EINVAL;
	for (k = 0; k < rep_n; k++) {
		ctx->wls[k].tgt.created = first_created[k];
		for (i = 0; i < nfirst_warn[k]; i++) {
			const char *w = first_warn[k][i];

			for (j = 0; j < ctx->wls[k].nwarn; j++)
				if (w && !strcmp(w, ctx->wls[k].warnings[j]))
					break;
			if (w && j == ctx->wls[k].nwarn)
				workload_warn(&ctx->wls[k], "%s", w);
		}
	}
	return 0;
}

int repeat_rebuild_same(struct run_ctx *ctx, size_t r, void *base)
{
	return repeat_rebuild(ctx, r, base) ? EXIT_PREP_FAILED : EXIT_OK;
}

void repeat_finish(struct run_ctx *ctx, bool complete)
{
	size_t k;
	int m;

	for (k = 0; k < rep_slots(); k++) {
		for (m = 0; m < RM_COUNT; m++)
			repeat_summarize(reps[k].v[m], reps[k].runs, &reps[k].stat[m]);
		reps[k].shown = reps[k].runs;	/* the run that ended them */
	}
	if (complete)
		kept_restore(ctx);
	if (rep_slots() > rep_n && reps[rep_n].runs)
		ctx->total_rep = &reps[rep_n];
	for (k = 0; k < rep_n; k++) {
		if (!reps[k].runs)
			continue;
		ctx->wls[k].rep = &reps[k];
		if (reps[k].runs >= 2 && reps[k].stat[RM_OPS].cv_pct > REPEAT_CV_WARN_PCT)
			workload_warn(&ctx->wls[k], "ops/s varied by %.1f%% (coefficient of variation) over %zu runs, more than %.0f%%: trust the median over any one run, and look for background I/O, a device still settling (--warmup) or throttling",
				      reps[k].stat[RM_OPS].cv_pct, reps[k].runs,
				      REPEAT_CV_WARN_PCT);
	}
}

void repeat_free(void)
{
	size_t k;
	int m;

	size_t i;

	for (k = 0; k < rep_slots(); k++) {
		if (k < rep_n)
			spec_free(&rep_specs[k]);
		for (m = 0; m < RM_COUNT; m++)
			free(reps[k].v[m]);
		memset(&reps[k], 0, sizeof(reps[k]));
		for (i = 0; kept[k] && i < nkept[k]; i++)
			kept_free(&kept[k][i]);
		free(kept[k]);
		kept[k] = NULL;
		nkept[k] = 0;
	}
	for (k = 0; k < rep_n; k++)
		while (nfirst_warn[k])
			free(first_warn[k][--nfirst_warn[k]]);
	rep_n = 0;	/* ready for the next sweep point */
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
