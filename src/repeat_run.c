/* repeat_run.c - --repeat: the workloads of a run (or of a sweep point)
 * run again and again; each run's figures are kept and summarized.  Run r
 * uses each workload's first seed + r. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "plan.h"
#include "repeat_run.h"
#include "report.h"
#include "workload.h"

/* --repeat: each workload's figures over the runs, and its spec as given
 * (before validation) to build the next run from; after the workloads'
 * figures, their total's when several run together (reps[rep_n]). */
static struct repeat_data reps[MAX_WORKLOADS + 1];
static struct spec rep_specs[MAX_WORKLOADS];
static size_t rep_n;

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
	for (k = 0; k < rep_slots(); k++) {
		if (k < rep_n && spec_copy(&rep_specs[k], &ctx->wls[k].spec))
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

/* Before run r > 0: the same workloads again, each with its first run's
 * seed + r; warnings of the earlier runs (a layout, say) are kept. */
int repeat_rebuild(struct run_ctx *ctx, size_t r, const struct spec *base)
{
	static char *kept[MAX_WORKLOADS][MAX_WARNINGS];
	static int nkept[MAX_WORKLOADS];
	static bool created[MAX_WORKLOADS];
	const struct opt_desc *seed = options_find_long("seed");
	size_t k;
	int i, j, ret = 0;

	/* what the first run's preparation said (a layout, say); not the
	 * per-run ones (too few I/Os, a wrapped run), which the last run says
	 * for itself */
	for (k = 0; k < rep_n && r == 1; k++) {
		while (nkept[k])
			free(kept[k][--nkept[k]]);
		created[k] = ctx->wls[k].tgt.created;
		for (i = 0; i < ctx->wls[k].nwarn; i++)
			if (i != ctx->wls[k].few_ios_warning &&
			    i != ctx->wls[k].wrap_warning)
				kept[k][nkept[k]++] = strdup(ctx->wls[k].warnings[i]);
	}
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
		ctx->wls[k].tgt.created = created[k];	/* by the first run */
		for (i = 0; i < nkept[k]; i++) {
			for (j = 0; j < ctx->wls[k].nwarn; j++)
				if (kept[k][i] && !strcmp(kept[k][i], ctx->wls[k].warnings[j]))
					break;
			if (kept[k][i] && j == ctx->wls[k].nwarn)
				workload_warn(&ctx->wls[k], "%s", kept[k][i]);
		}
	}
	return 0;
}

int repeat_rebuild_same(struct run_ctx *ctx, size_t r, void *base)
{
	return repeat_rebuild(ctx, r, base) ? EXIT_PREP_FAILED : EXIT_OK;
}

/* After the last run: the statistics, attached to the workloads and the
 * total. */
void repeat_finish(struct run_ctx *ctx)
{
	size_t k;
	int m;

	for (k = 0; k < rep_slots(); k++)
		for (m = 0; m < RM_COUNT; m++)
			repeat_summarize(reps[k].v[m], reps[k].runs, &reps[k].stat[m]);
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

	for (k = 0; k < rep_slots(); k++) {
		if (k < rep_n)
			spec_free(&rep_specs[k]);
		for (m = 0; m < RM_COUNT; m++)
			free(reps[k].v[m]);
		memset(&reps[k], 0, sizeof(reps[k]));
	}
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
		if (runs > 1)
			repeat_record(ctx);
	}
	ctx->spent_ns = delay_now_ns() - t0;
	if (status != EXIT_OK && status != EXIT_IO_FAILED)
		return status;
	if (runs > 1)
		repeat_finish(ctx);
	return status;
}
