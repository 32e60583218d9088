/* report_terse.c - -n: one line per workload, space-separated, and after
 * several workloads run together one more for their total (field 17 "all").
 *
 * Fields 1-5 are the original Rebench's; 6-12 latency in microseconds;
 * 13 is the format version and stays at position 13 in every version.
 * 19-21 are the distribution's KS D, chi-square p-value and dof ("-" for
 * sequential workloads, and for the p-value when dof is 0).  22-81 (version
 * 2) are TERSE_OP_FIELDS fields per operation kind, in enum io_kind order,
 * every kind of version 2 always there; 82 (version 3) a sequential
 * workload's passes over its region; 83-94 (version 4) the block of
 * sync_file_range; 95-117 are the result sections (section.h), in the
 * order of report_sections[]: 95 the durability verdict, 96-97 the read
 * requests and bytes that reached the device (devstat.h), 98-104 (version
 * 5) the ops/s interval and --precision, 105-112 --steady-state and
 * --precondition, 113-117 (version 6) the CPU of the run; 118-119 the write sync policy and whose defaults applied
 * (put_sync), 120-129 the write+flush latency and the flushes after the
 * clock (put_durable): TERSE_FIELDS fixed fields in all.  The --repeat fields
 * follow the fixed ones, and a sweep's values end the line, so a new
 * fixed field moves the --repeat fields (the version says so) and no
 * other.  The run's devices follow the workload and total lines, a line
 * each, told apart by their first field, "device" (section_device.c).  A
 * replay adds lines of its own after them, told apart by their first
 * field, "replay" and "replay-op" (a workload line starts with a number):
 * report_replay.c.  Every field: rebench(1), RAW
 * STATISTICS.
 */
#include <stdio.h>

#include "core/plan.h"
#include "stats/repeat.h"
#include "stats/precision.h"
#include "report/version.h"
#include "report/report.h"
#include "report/section.h"
#include "report/summary.h"
#include "core/sweep.h"

/* Fields 1-16: rates, interval spread, latency, version, counts, time.
 * A total without a common interval series, and a run shorter than one
 * interval, have "-" for 3-5. */
static void put_figures(FILE *f, const struct result *res)
{
	struct lat_summary l;

	lat_summarize(res, &l);
	fprintf(f, "%.2f %.4f", res->ops_per_s, res->mb_per_s);
	if (res->step_ns && res->n_full)
		fprintf(f, " %.2f %.2f %.2f", res->iv_min, res->iv_max,
			res->iv_sd);
	else
		fprintf(f, " - - -");
	fprintf(f, " %.3f %.3f %.3f %.3f %.3f %.3f %.3f %d %llu %llu %.6f",
		l.min, l.avg, l.p50, l.p90, l.p99, l.p999, l.max,
		TERSE_VERSION, (unsigned long long)res->ops_total,
		(unsigned long long)res->bytes, (double)res->elapsed_ns / 1e9);
}

/* Fields 19-21: the distribution's fit, "-" where there is none. */
static void put_fit(FILE *f, const struct fit *fit)
{
	if (!fit || !fit->present)
		fprintf(f, " - - -");
	else if (!fit->dof)
		fprintf(f, " %.6f - 0", fit->ks_d);
	else
		fprintf(f, " %.6f %.6f %u", fit->ks_d, fit->p_value, fit->dof);
}

/* Kinds [from, to): per kind, I/Os, bytes, ops/s, MB/s, then latency
 * min, avg, p50, p90, p99, p99.9, p99.99 and max; a kind that did not
 * occur has 0 I/Os, bytes and rates and "-" for its latency.  Fields
 * 22-81 are the kinds of version 2 (read to fdatasync); a kind added
 * since has its block after the fields of the version before it
 * (sync_file_range: 83-94, after the passes), so no field moves. */
static void put_ops(FILE *f, const struct report *r, const struct result *res,
		    int from, int to)
{
	struct op_summary o;
	int k;

	for (k = from; k < to; k++) {
		report_op_summarize(r, res, k, &o);
		fprintf(f, " %llu %llu %.2f %.4f", (unsigned long long)o.ios,
			(unsigned long long)o.bytes, o.ops_per_s, o.mb_per_s);
		if (!o.ios) {
			fprintf(f, " - - - - - - - -");
			continue;
		}
		fprintf(f, " %.3f %.3f %.3f %.3f %.3f %.3f %.3f %.3f",
			o.lat.min, o.lat.avg, o.lat.p50, o.lat.p90, o.lat.p99,
			o.lat.p999, o.lat.p9999, o.lat.max);
	}
}

/* --repeat: runs, then median, trimmed mean, stddev and the 95% CI of
 * ops/s, p50, p90, p99 and p99.9 (fields TERSE_FIELDS + 1 .. + 26: 128-153
 * in version 6), then the run the line's figures are, from 1 (154): the
 * median run by ops/s, or runs + 1 when that run did not complete. */
static void put_repeat(FILE *f, const struct repeat_data *rd)
{
	size_t i;

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

/* Field 82: passes (pattern.h), "-" where there are none. */
static void put_passes(FILE *f, const struct seq_passes *p)
{
	if (p && p->known)
		fprintf(f, " %.6f", p->count);
	else
		fprintf(f, " -");
}

/* Fields 118-119 (TERSE_FIELD_SYNC): the write sync policy as --sync names it ("-" for a
 * workload that does not write), and whose defaults the workload took,
 * "rebench" or "fio" (options_fio.h); "-" "-" on the total's line. */
static void put_sync(FILE *f, const struct workload *wl)
{
	struct sync_policy sp;
	char pol[32];

	if (!wl) {
		fprintf(f, " - -");
		return;
	}
	sp = spec_sync(&wl->spec);
	fprintf(f, " %s %s", SPEC_DOES(&wl->spec, IO_WRITE) ?
		sync_policy_format(&sp, pol, sizeof(pol)) : "-",
		wl->spec.fio_spelled ? "fio" : "rebench");
}

/* Fields TERSE_FIELD_DURABLE..: the write+flush latency (stats.h): the
 * writes it covers, then min, avg, p50, p90, p99, p99.9, p99.99 and max in
 * us ("0" and "-" where it was not measured), then the flushes issued after
 * the clock stopped (owed by the last writes). */
static void put_durable(FILE *f, const struct result *r)
{
	struct lat_summary l;

	if (!r->durable_known || !r->durable.count) {
		fprintf(f, " 0 - - - - - - - -");
	} else {
		lat_summarize_hist(&r->durable, &l);
		fprintf(f, " %llu %.3f %.3f %.3f %.3f %.3f %.3f %.3f %.3f",
			(unsigned long long)r->durable.count, l.min, l.avg,
			l.p50, l.p90, l.p99, l.p999, l.p9999, l.max);
	}
	fprintf(f, " %llu", (unsigned long long)r->end_flushes);
}

/* One workload's line; suffix (swept values, " v1 v2") is appended when
 * given. */
static void terse_line(FILE *f, const struct report *r,
		       const struct workload *wl, const char *suffix)
{
	if (!wl->have_result)
		return;
	put_figures(f, wl->res);
	fprintf(f, " %llu %d", (unsigned long long)wl->spec.seed,
		workload_status(wl, r->interrupted));
	put_fit(f, &wl->fit);
	put_ops(f, r, wl->res, 0, IO_SYNC_RANGE);
	put_passes(f, &wl->passes);
	put_ops(f, r, wl->res, IO_SYNC_RANGE, IO_KINDS);
	sections_terse(f, &(struct section_ctx){ r, wl, wl->res });
	put_sync(f, wl);
	put_durable(f, wl->res);
	if (wl->rep)
		put_repeat(f, wl->rep);
	fprintf(f, "%s\n", suffix ? suffix : "");
}

/* The total's line: a workload line's fields, with "all" for the seed
 * (field 17: how scripts tell it apart) and no distribution. */
static void total_line(FILE *f, const struct report *r, const char *suffix)
{
	put_figures(f, r->total);
	fprintf(f, " all %d", report_total_status(r));
	put_fit(f, NULL);
	put_ops(f, r, r->total, 0, IO_SYNC_RANGE);
	put_passes(f, NULL);
	put_ops(f, r, r->total, IO_SYNC_RANGE, IO_KINDS);
	sections_terse(f, &(struct section_ctx){ r, NULL, r->total });
	put_sync(f, NULL);
	put_durable(f, r->total);
	if (r->total_rep)
		put_repeat(f, r->total_rep);
	fprintf(f, "%s\n", suffix ? suffix : "");
}

static bool terse_wanted(const struct run_opts *run)
{
	return !run->quiet_stdout && run->silent && !run->json;
}

static int terse_begin(struct report_out *o)
{
	o->uses_stdout = true;	/* and its warnings go to standard error */
	return 0;
}

/* A sweep point's values, " v1 v2", after the fields of each line. */
static void point_suffix(const struct sweep *sw, size_t point, char *buf,
			 size_t len)
{
	size_t idx[SWEEP_MAX_AXES], a, n = 0;

	buf[0] = '\0';
	sweep_indices(sw, point, idx);
	for (a = 0; a < sw->naxes && n < len; a++) {
		char c[64];

		report_sweep_cell(&sw->axes[a], idx[a], c, sizeof(c));
		n += (size_t)snprintf(buf + n, len - n, " %s", c);
	}
}

static int terse_report(struct report_out *o, const struct report *r)
{
	const struct report_scope *sc = o->scope;
	char suffix[512];
	size_t k;

	if (sc->sw)
		point_suffix(sc->sw, r->point, suffix, sizeof(suffix));
	else if (sc->study)
		sc->study->terse_suffix(sc->study_arg, r->point, suffix,
					sizeof(suffix));
	for (k = 0; k < r->n; k++)
		terse_line(sc->out, r, &r->wls[k],
			   sc->sw || sc->study ? suffix : NULL);
	if (r->total)
		total_line(sc->out, r, sc->sw || sc->study ? suffix : NULL);
	sections_run_terse(sc->out, r, sc->sw || sc->study ? suffix : NULL);
	if (r->extra)
		r->extra->terse(sc->out, r->extra_arg);
	return 0;
}

const struct report_writer report_terse_writer = {
	.name = "terse",
	.wanted = terse_wanted,
	.begin = terse_begin,
	.report = terse_report,
};
