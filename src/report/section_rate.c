/* section_rate.c - --rate's figures (rate.h): after the headline latency
 * (which stays submission to completion, as fio's), the rate asked and
 * achieved, the latency from each I/O's intended start, and how late the
 * submissions were; JSON results.rate, a -n "rate" line per rated
 * workload and the sweep table's rate columns (present with --rate only:
 * no field of the workload's -n line, where a new one is a new -n
 * version; the columns in a table of a rated sweep alone). */
#include <stdio.h>

#include "core/json.h"
#include "core/workload.h"
#include "report/report.h"
#include "report/section.h"
#include "report/summary.h"

static const struct rate_result *rate_of(const struct section_ctx *c)
{
	if (!c->wl || !c->wl->result.rate || !c->wl->result.rate->present)
		return NULL;
	return c->wl->result.rate;
}

static double late_mean_us(const struct rate_result *r)
{
	return r->ios ? (double)r->late_sum_ns / (double)r->ios / 1e3 : 0;
}

/*
 * Rate: asked 1000 ops/s (fixed arrival), achieved 1000.4 ops/s: met
 * Latency from the intended start (us): min .. p99 .. max
 * Late starts: 3 of 10000 I/Os (0.03%); lateness mean 0.2 us, max 85.1 us
 */
static void rate_human(FILE *f, const struct section_ctx *c)
{
	const struct rate_result *r = rate_of(c);
	struct lat_summary l;

	if (!r)
		return;
	fprintf(f, "Rate: asked ");
	if (r->asked_bytes)
		fprintf(f, "%.6g MiB/s (%.6g ops/s)",
			(double)r->asked_bytes_per_s / 1048576.0, r->asked);
	else
		fprintf(f, "%.6g ops/s", r->asked);
	fprintf(f, " (%s arrival), scheduled %.1f, achieved %.1f ops/s: %s\n",
		rate_arrival_name(r->arrival), r->scheduled, r->achieved,
		r->met ? "met" : r->behind ? "NOT met (the schedule fell behind)" :
					     "NOT met");
	lat_summarize_hist(&r->intended, &l);
	fprintf(f, "Latency from the intended start (us): min %.1f avg %.1f p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f\n",
		l.min, l.avg, l.p50, l.p90, l.p99, l.p999, l.max);
	fprintf(f, "Late starts: %llu of %llu I/Os (%.2f%%); lateness mean %.1f us, max %.1f us, at the end %.1f us\n",
		(unsigned long long)r->late, (unsigned long long)r->ios,
		r->ios ? 100.0 * (double)r->late / (double)r->ios : 0,
		late_mean_us(r), (double)r->late_max_ns / 1e3,
		(double)r->lag_end_ns / 1e3);
}

/* results.rate */
static void rate_json(struct json *j, const struct section_ctx *c)
{
	const struct rate_result *r = rate_of(c);
	struct lat_summary l;

	if (!r)
		return;
	json_obj_begin(j, "rate");
	json_num(j, "asked", r->asked);
	if (r->asked_bytes)
		json_u64(j, "asked_bytes_per_s", r->asked_bytes_per_s);
	else
		json_null(j, "asked_bytes_per_s");
	json_str(j, "arrival", rate_arrival_name(r->arrival));
	json_num(j, "achieved", r->achieved);
	json_num(j, "scheduled", r->scheduled);
	json_num(j, "submitted", r->submitted);
	json_num(j, "interval_us", r->interval_ns / 1e3);
	json_bool(j, "met", r->met);
	json_bool(j, "behind", r->behind);
	json_u64(j, "ios", r->ios);
	json_obj_begin(j, "late");
	json_u64(j, "count", r->late);
	json_num(j, "mean_us", late_mean_us(r));
	json_num(j, "max_us", (double)r->late_max_ns / 1e3);
	json_num(j, "end_us", (double)r->lag_end_ns / 1e3);
	json_obj_end(j);
	lat_summarize_hist(&r->intended, &l);
	json_obj_begin(j, "intended_latency_us");
	report_json_lat(j, &l);
	json_obj_end(j);
	json_obj_end(j);
}

/*
 * -n: after the workload lines, one line per rated workload, 19 fields
 * (rebench-output(5), RAW STATISTICS):
 *   rate W asked scheduled achieved met arrival ios late late_mean_us
 *   late_max_us late_end_us, then the latency from the intended start in
 *   us: min avg p50 p90 p99 p99.9 max
 * and a sweep point's values after them.
 */
static void rate_terse(FILE *f, const struct report *r, const char *suffix)
{
	struct lat_summary l;
	size_t k;

	for (k = 0; k < r->n; k++) {
		const struct rate_result *rr = r->wls[k].result.rate;

		if (!r->wls[k].result.have_result || !rr || !rr->present)
			continue;
		lat_summarize_hist(&rr->intended, &l);
		fprintf(f, "rate %zu %.2f %.2f %.2f %s %s %llu %llu %.3f %.3f %.3f",
			k + 1, rr->asked, rr->scheduled, rr->achieved,
			rr->met ? "met" : "not-met",
			rate_arrival_name(rr->arrival),
			(unsigned long long)rr->ios,
			(unsigned long long)rr->late, late_mean_us(rr),
			(double)rr->late_max_ns / 1e3,
			(double)rr->lag_end_ns / 1e3);
		fprintf(f, " %.3f %.3f %.3f %.3f %.3f %.3f %.3f%s\n", l.min, l.avg,
			l.p50, l.p90, l.p99, l.p999, l.max, suffix ? suffix : "");
	}
}

/* A rated sweep's columns: asked, achieved, met (yes/no), the latency
 * from the intended start (p50, p99, p99.9, max, us) and the mean
 * lateness (us); "-" for a workload of it that was not rated. */
static void rate_tsv(FILE *f, const struct section_ctx *c)
{
	const struct rate_result *r = rate_of(c);
	struct lat_summary l;

	if (!r) {
		fputs("\t-\t-\t-\t-\t-\t-\t-\t-", f);
		return;
	}
	lat_summarize_hist(&r->intended, &l);
	fprintf(f, "\t%.2f\t%.2f\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f",
		r->asked, r->achieved, r->met ? "yes" : "no", l.p50, l.p99,
		l.p999, l.max, late_mean_us(r));
}

const struct section section_rate = {
	.name = "rate",
	.human = { [HUMAN_LATENCY] = rate_human },
	.json = { [JSON_LATENCY] = rate_json },
	.run_terse = rate_terse,
	.tsv_head = "\trate_asked\trate_achieved\trate_met\tintended_p50_us\tintended_p99_us\tintended_p999_us\tintended_max_us\tlate_mean_us",
	.tsv_only = TSV_RATED,
	.tsv = rate_tsv,
};
