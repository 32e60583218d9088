/* section_steady.c - --steady-state's rounds and --precondition's writes
 * in every format: the human lines, -n fields 105-112 (TERSE_FIELD_STEADY
 * ..) and the JSON objects "steady_state" and "precondition".  The sweep
 * table has no column for them. */
#include <stdio.h>

#include "core/json.h"
#include "core/precondition.h"
#include "core/units.h"
#include "report/report.h"
#include "report/section.h"
#include "stats/steady_run.h"

/* The header's note: a run that did not reach steady state says so
 * before any figure. */
static void steady_human_note(FILE *f, const struct section_ctx *c)
{
	const struct steady_data *d = c->wl ? c->wl->result.steady : NULL;

	if (d && !d->v.steady)
		fprintf(f, "NOT at steady state: %zu round%s of %.3g s without the SNIA criteria holding over the last %d (the figures below are round %zu's)\n",
			d->rounds, d->rounds == 1 ? "" : "s", d->round_s,
			STEADY_WINDOW, d->rounds);
}

static void steady_human(FILE *f, const struct section_ctx *c)
{
	const struct workload *wl = c->wl;
	const struct steady_data *d;
	const struct precond *p;
	size_t i;

	if (!wl)
		return;
	d = wl->result.steady;
	p = &wl->result.precond;

	if (p->done)
		fprintf(f, "Preconditioned: %llu bytes (%d x the region) written sequentially in 128 KiB blocks in %.1f s (%.1f %s)\n",
			(unsigned long long)p->bytes, PRECONDITION_PASSES,
			p->seconds, rate_value(p->seconds > 0 ?
			(double)p->bytes / 1048576.0 / p->seconds : 0),
			rate_unit());
	if (!d)
		return;
	if (d->v.judged)
		fprintf(f, "Steady state: %s after %zu round%s of %.3g s: window rounds %zu-%zu, mean %.0f ops/s, range %.1f%% (%s %.0f%%), slope %.1f%% (%s %.0f%%); the figures above are round %zu's\n",
			d->v.steady ? "reached" : "NOT reached", d->rounds,
			d->rounds == 1 ? "" : "s", d->round_s, d->v.first,
			d->v.last, d->v.mean, d->v.range_pct,
			d->v.range_ok ? "<=" : ">", STEADY_RANGE_PCT,
			d->v.slope_pct, d->v.slope_ok ? "<=" : ">",
			STEADY_SLOPE_PCT, d->rounds);
	else
		fprintf(f, "Steady state: NOT reached: %zu complete round%s, %d needed to judge\n",
			d->rounds, d->rounds == 1 ? "" : "s", STEADY_WINDOW);
	fprintf(f, "Rounds ops/s:");
	for (i = 0; i < d->rounds; i++)
		fprintf(f, " %.0f", d->r[i].ops);
	fputc('\n', f);
}

/* Fields 105-112: verdict, rounds, window first and last, window mean
 * ops/s, range and slope in % of it, preconditioned; "-" where a run has
 * none.  The total: steady when every workload is, no window of its own. */
static void steady_terse(FILE *f, const struct section_ctx *c)
{
	const struct report *r = c->r;
	const struct workload *wl = c->wl;
	const struct steady_data *d = wl ? wl->result.steady : NULL;
	bool pre = false, steady = true, any = false;
	size_t k;

	if (!wl) {
		for (k = 0; k < r->n; k++) {
			pre |= r->wls[k].result.precond.done;
			if (r->wls[k].result.steady) {
				any = true;
				steady &= r->wls[k].result.steady->v.steady;
			}
		}
		fprintf(f, " %s - - - - - - %s", any ? (steady ? "steady" : "not-steady") : "-",
			pre ? "yes" : "no");
		return;
	}
	if (!d)
		fprintf(f, " - - - - - - -");
	else if (!d->v.judged)
		fprintf(f, " not-steady %zu - - - - -", d->rounds);
	else
		fprintf(f, " %s %zu %zu %zu %.2f %.3f %.3f",
			d->v.steady ? "steady" : "not-steady", d->rounds,
			d->v.first, d->v.last, d->v.mean, d->v.range_pct,
			d->v.slope_pct);
	fprintf(f, " %s", wl->result.precond.done ? "yes" : "no");
}

/* The workload's only: the total has none. */
static void steady_json(struct json *j, const struct section_ctx *c)
{
	const struct workload *wl = c->wl;
	const struct steady_data *d;
	const struct precond *p;
	size_t i;

	if (!wl)
		return;
	d = wl->result.steady;
	p = &wl->result.precond;

	if (p->done) {
		json_obj_begin(j, "precondition");
		json_u64(j, "bytes", p->bytes);
		json_u64(j, "passes", PRECONDITION_PASSES);
		json_u64(j, "block_bytes", PRECONDITION_BLOCK);
		json_num(j, "seconds", p->seconds);
		json_num(j, "mib_per_s", p->seconds > 0 ?
			 (double)p->bytes / 1048576.0 / p->seconds : 0);
		json_obj_end(j);
	} else {
		json_null(j, "precondition");
	}
	if (!d) {
		json_null(j, "steady_state");
		return;
	}
	json_obj_begin(j, "steady_state");
	json_str(j, "verdict", d->v.steady ? "steady" : "not-steady");
	json_num(j, "round_s", d->round_s);
	json_u64(j, "max_rounds", d->max_rounds);
	json_arr_begin(j, "rounds");
	for (i = 0; i < d->rounds; i++) {
		json_obj_begin(j, NULL);
		json_u64(j, "round", i + 1);
		json_num(j, "ops_per_s", d->r[i].ops);
		json_num(j, "mib_per_s", d->r[i].mbs);
		json_num(j, "lat_p99_us", d->r[i].p99);
		json_obj_end(j);
	}
	json_arr_end(j);
	if (d->v.judged) {
		json_obj_begin(j, "window");
		json_u64(j, "first", d->v.first);
		json_u64(j, "last", d->v.last);
		json_num(j, "mean_ops_per_s", d->v.mean);
		json_obj_end(j);
		json_num(j, "range_pct", d->v.range_pct);
		json_bool(j, "range_ok", d->v.range_ok);
		json_num(j, "slope_pct", d->v.slope_pct);
		json_bool(j, "slope_ok", d->v.slope_ok);
	} else {
		json_null(j, "window");
		json_null(j, "range_pct");
		json_null(j, "range_ok");
		json_null(j, "slope_pct");
		json_null(j, "slope_ok");
	}
	json_num(j, "range_limit_pct", STEADY_RANGE_PCT);
	json_num(j, "slope_limit_pct", STEADY_SLOPE_PCT);
	json_obj_end(j);
}

const struct section section_steady = {
	.name = "steady",
	.human = { [HUMAN_HEAD] = steady_human_note, [HUMAN_END] = steady_human },
	.json = { [JSON_AFTER_RESULTS] = steady_json },
	.terse = { [TERSE_PASSES] = steady_terse },
};
