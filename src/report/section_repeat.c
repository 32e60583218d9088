/* section_repeat.c - --repeat: the spread of each metric over the runs
 * and which run the figures are (repeat.h): the human "Over N runs"
 * block, JSON "repeat", the -n fields after the fixed ones (TERSE_FIELDS
 * + 1 on) and the sweep table's last columns.  The total has no seeds of
 * its own. */
#include <stdio.h>

#include "core/json.h"
#include "stats/repeat.h"
#include "report/report.h"
#include "report/section.h"
#include "report/summary.h"

/* A workload's spread, or with wl NULL the total's; NULL without
 * --repeat. */
static const struct repeat_data *repeat_of(const struct section_ctx *c)
{
	return c->wl ? c->wl->result.rep : c->r->total_rep;
}

/* Which run the block above is, "run 3 of 5, the median run by ops/s,
 * seed 13" (repeat_run.h). */
static void print_shown(FILE *f, const struct repeat_data *rd, bool seeds)
{
	size_t n = rd->runs, k = rd->shown;

	if (k >= n)
		fprintf(f, "the figures above are run %zu, which did not complete", k + 1);
	else
		fprintf(f, "the figures above are run %zu of %zu, %s by %sops/s", k + 1,
			n, n % 2 ? "the median run" : "the lower of the two middle runs",
			seeds ? "" : "total ");
	if (seeds)
		fprintf(f, ", seed %llu", rd->seed0 + k);
}

/* The spread over the runs, and which run the block shows. */
static void repeat_human(FILE *f, const struct section_ctx *c)
{
	const struct repeat_data *rd = repeat_of(c);
	bool seeds = c->wl != NULL;
	size_t i, r;

	if (!rd)
		return;
	fprintf(f, "Over %zu runs (", rd->runs);
	if (seeds)
		fprintf(f, "seeds %llu..%llu; ", rd->seed0, rd->seed0 + rd->runs - 1);
	print_shown(f, rd, seeds);
	fprintf(f, "):\n");
	for (i = 0; i < REPEAT_SHOWN; i++) {
		const struct repeat_stat *st = &rd->stat[repeat_shown[i]];
		const char *fmt = repeat_shown[i] == RM_OPS ? "%.0f" : "%.1f";
		char med[32], tm[32], lo[32], hi[32];

		snprintf(med, sizeof(med), fmt, st->median);
		snprintf(tm, sizeof(tm), fmt, st->trimmed_mean);
		fprintf(f, "  %-11s median %s, trimmed mean %s, stddev %.1f (CV %.1f%%)",
			repeat_label(repeat_shown[i]), med, tm, st->stddev, st->cv_pct);
		if (st->n >= 2) {
			snprintf(lo, sizeof(lo), fmt, st->ci_low);
			snprintf(hi, sizeof(hi), fmt, st->ci_high);
			fprintf(f, ", 95%% CI %s..%s", lo, hi);
		}
		fputc('\n', f);
	}
	fprintf(f, "  runs ops/s:");
	for (r = 0; r < rd->runs; r++)
		fprintf(f, " %.0f", rd->v[RM_OPS][r]);
	fputc('\n', f);
}

/* Every run's figure and their spread, per metric (the total's seeds:
 * null), and the run the results are (from 1, with its seed; version 7):
 * the median run by ops/s, or runs + 1 when that run did not complete. */
static void repeat_json(struct json *j, const struct section_ctx *c)
{
	const struct repeat_data *rd = repeat_of(c);
	bool seeds = c->wl != NULL;
	size_t r;
	int m;

	if (!rd) {
		json_null(j, "repeat");
		return;
	}
	json_obj_begin(j, "repeat");
	json_u64(j, "runs", rd->runs);
	if (seeds) {
		json_arr_begin(j, "seeds");
		for (r = 0; r < rd->runs; r++)
			json_u64(j, NULL, rd->seed0 + r);
		json_arr_end(j);
	} else {
		json_null(j, "seeds");
	}
	json_u64(j, "shown_run", rd->shown + 1);
	if (seeds)
		json_u64(j, "shown_seed", rd->seed0 + rd->shown);
	else
		json_null(j, "shown_seed");
	for (m = 0; m < RM_COUNT; m++) {
		const struct repeat_stat *st = &rd->stat[m];

		json_obj_begin(j, repeat_key(m));
		json_arr_begin(j, "values");
		for (r = 0; r < rd->runs; r++)
			json_num(j, NULL, rd->v[m][r]);
		json_arr_end(j);
		json_num(j, "median", st->median);
		json_num(j, "trimmed_mean", st->trimmed_mean);
		json_num(j, "mean", st->mean);
		json_num(j, "stddev", st->stddev);
		json_num(j, "cv_pct", st->cv_pct);
		if (st->n >= 2) {
			json_num(j, "ci95_low", st->ci_low);
			json_num(j, "ci95_high", st->ci_high);
		} else {
			json_null(j, "ci95_low");
			json_null(j, "ci95_high");
		}
		json_obj_end(j);
	}
	json_obj_end(j);
}

/* Runs, then median, trimmed mean, stddev and the 95% CI of ops/s, p50,
 * p90, p99 and p99.9 (fields TERSE_FIELDS + 1 .. + 26: 130-155 in
 * version 6), then the run the line's figures are, from 1 (156): the
 * median run by ops/s, or runs + 1 when that run did not complete. */
static void repeat_terse(FILE *f, const struct section_ctx *c)
{
	const struct repeat_data *rd = repeat_of(c);
	size_t i;

	if (!rd)
		return;
	fprintf(f, " %zu", rd->runs);
	for (i = 0; i < REPEAT_SHOWN; i++) {
		const struct repeat_stat *st = &rd->stat[repeat_shown[i]];

		fprintf(f, " %.3f %.3f %.3f", st->median, st->trimmed_mean,
			st->stddev);
		if (st->n >= 2)
			fprintf(f, " %.3f %.3f", st->ci_low, st->ci_high);
		else
			fprintf(f, " - -");
	}
	fprintf(f, " %zu", rd->shown + 1);
}

/* The table's columns after the others: runs, then the spread of ops/s
 * and the medians of p50 and p99 (the other columns are the shown
 * run's). */
static void repeat_tsv(FILE *f, const struct section_ctx *c)
{
	const struct repeat_data *rd = repeat_of(c);
	const struct repeat_stat *o;

	if (!rd)
		return;
	o = &rd->stat[RM_OPS];
	fprintf(f, "\t%zu\t%.2f\t%.2f\t%.2f", rd->runs, o->median,
		o->trimmed_mean, o->stddev);
	if (o->n >= 2)
		fprintf(f, "\t%.2f\t%.2f", o->ci_low, o->ci_high);
	else
		fprintf(f, "\t-\t-");
	fprintf(f, "\t%.3f\t%.3f", rd->stat[RM_P50].median,
		rd->stat[RM_P99].median);
}

const struct section section_repeat = {
	.name = "repeat",
	.human = { [HUMAN_END] = repeat_human },
	.json = { [JSON_AFTER_RESULTS] = repeat_json },
	.terse = { [TERSE_PASSES] = repeat_terse },
	.tsv_head = "\truns\tops_per_s_median\tops_per_s_trimmed_mean\tops_per_s_stddev\tops_per_s_ci95_low\tops_per_s_ci95_high\tlat_p50_us_median\tlat_p99_us_median",
	.tsv_only = TSV_REPEATED,
	.tsv = repeat_tsv,
};
