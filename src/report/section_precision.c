/* section_precision.c - the 95% interval of ops/s by batch means (ci.h)
 * and --precision's verdict (precision.h): the human "Ops/sec 95%
 * interval" and "Precision" lines, JSON results.ops_ci and precision, -n
 * fields 98-104 (TERSE_FIELD_CI ..) and the sweep table's ops_ci columns.
 * The run's seconds come with them: --precision decides them. */
#include <stdio.h>

#include "core/json.h"
#include "report/report.h"
#include "report/section.h"
#include "report/summary.h"

/* "Ops/sec 95% interval: 20431..21012 (+-1.4%, batch means: 10 batches
 * of 10 intervals)", and with --precision whether it was reached. */
static void precision_human(FILE *f, const struct section_ctx *sc)
{
	const struct report *rep = sc->r;
	double target_pct;
	struct ci c;
	enum precision_verdict v = report_precision(rep, sc->wl, &c,
						    &target_pct);

	if (!sc->res->step_ns)
		return;
	if (c.known)
		fprintf(f, "Ops/sec 95%% interval: %.0f..%.0f (+-%.1f%%, batch means: %zu batches of %zu intervals)\n",
			c.low, c.high, c.half_pct, c.batches, c.per_batch);
	else	/* on most short runs: the few words, rebench(1) the why */
		fprintf(f, "Ops/sec 95%% interval: unknown (run too short)\n");
	if (v == PRECISION_REACHED)
		fprintf(f, "Precision: +-%.1f%% reached (asked +-%g%%) in %.1f s\n",
			c.half_pct, target_pct, rep->seconds);
	else if (v == PRECISION_NOT_REACHED && c.known)
		fprintf(f, "Precision: not reached: +-%.1f%%, asked +-%g%%, after %.1f s (--max-duration ends a run; a longer one, or a steadier workload, gets there)\n",
			c.half_pct, target_pct, rep->seconds);
	else if (v == PRECISION_NOT_REACHED)
		fprintf(f, "Precision: not reached: no interval yet, asked +-%g%%, after %.1f s\n",
			target_pct, rep->seconds);
}

/* "ops_ci": null with fewer than CI_MIN_INTERVALS complete intervals;
 * "precision": the half-width asked for and whether it was reached (the
 * total: every workload), or null. */
static void precision_json(struct json *j, const struct section_ctx *sc)
{
	double target;
	struct ci c;
	enum precision_verdict v = report_precision(sc->r, sc->wl, &c,
						    &target);

	if (c.known) {
		json_obj_begin(j, "ops_ci");
		json_str(j, "method", "batch-means");
		json_u64(j, "batches", c.batches);
		json_u64(j, "intervals_per_batch", c.per_batch);
		json_u64(j, "intervals_used", c.used);
		json_num(j, "interval_ms", (double)sc->res->step_ns / 1e6);
		json_u64(j, "dof", c.batches - 1);
		json_num(j, "mean", c.mean);
		json_num(j, "low", c.low);
		json_num(j, "high", c.high);
		json_num(j, "half_width_pct", c.half_pct);
		json_obj_end(j);
	} else {
		json_null(j, "ops_ci");
	}
	if (v == PRECISION_NONE) {
		json_null(j, "precision");
		return;
	}
	json_obj_begin(j, "precision");
	json_num(j, "target_pct", target);
	json_bool(j, "reached", v == PRECISION_REACHED);
	json_obj_end(j);
}

/* Fields 98-104: low, high, half-width in % of the mean, batches ("- - -
 * 0" without an interval), then the half-width asked for and the verdict
 * ("- -" when not asked), and the seconds the run took (a sweep point
 * with its --repeat runs, preparation included). */
static void precision_terse(FILE *f, const struct section_ctx *sc)
{
	double target_pct;
	struct ci c;
	enum precision_verdict v = report_precision(sc->r, sc->wl, &c,
						    &target_pct);

	if (c.known)
		fprintf(f, " %.2f %.2f %.3f %zu", c.low, c.high, c.half_pct,
			c.batches);
	else
		fprintf(f, " - - - 0");
	if (v == PRECISION_NONE)
		fprintf(f, " - -");
	else
		fprintf(f, " %g %s", target_pct, precision_name(v));
	fprintf(f, " %.3f", sc->r->seconds);
}

/* The interval and its half-width ("-" without one), the verdict ("-"
 * when not asked), and the seconds the point took. */
static void precision_tsv(FILE *f, const struct section_ctx *sc)
{
	double target;
	struct ci c;
	enum precision_verdict v = report_precision(sc->r, sc->wl, &c,
						    &target);

	if (c.known)
		fprintf(f, "\t%.2f\t%.2f\t%.3f", c.low, c.high, c.half_pct);
	else
		fprintf(f, "\t-\t-\t-");
	fprintf(f, "\t%s\t%.3f", precision_name(v), sc->r->seconds);
}

const struct section section_precision = {
	.name = "precision",
	.human = { [HUMAN_INTERVALS] = precision_human },
	.json = { [JSON_INTERVALS] = precision_json },
	.terse = { [TERSE_PASSES] = precision_terse },
	.tsv_head = "\tops_ci_low\tops_ci_high\tops_ci_pct\tprecision\tseconds",
	.tsv = precision_tsv,
};
