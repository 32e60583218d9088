/* report_terse.c - -n: one line per workload, space-separated, and after
 * several workloads run together one more for their total (field 17 "all").
 *
 * Fields 1-5 are the original Rebench's; 6-12 latency in microseconds;
 * 13 is the format version and stays at position 13 in every version;
 * 14-18 counts, time, seed and status.  Every later field is a result
 * section's (section.h), at its seam: 19-21 the distribution's fit
 * (section_fit.c), 22-81 (version 2) TERSE_OP_FIELDS fields per operation
 * kind, every kind of version 2 always there, 82 (version 3) a sequential
 * workload's passes, 83-94 (version 4) the block of sync_file_range
 * (section_ops.c, section_passes.c), 95 the durability verdict, 96-97 the
 * read requests and bytes that reached the device (devstat.h), 98-104
 * (version 5) the ops/s interval and --precision, 105-112 --steady-state
 * and --precondition, 113-117 (version 6) the CPU of the run, 118-119 the
 * write sync policy and whose defaults applied, 120-129 the write+flush
 * latency and the flushes after the clock (section_flush.c): TERSE_FIELDS
 * fixed fields in all.  The --repeat fields (section_repeat.c)
 * follow the fixed ones, and a sweep's values end the line, so a new
 * fixed field moves the --repeat fields (the version says so) and no
 * other.  The run's devices follow the workload and total lines, a line
 * each, told apart by their first field, "device" (section_device.c).  A
 * replay adds lines of its own after them, told apart by their first
 * field, "replay" and "replay-op" (a workload line starts with a number):
 * report_replay.c.  Every field: rebench-output(5), RAW
 * STATISTICS.
 */
#include <stdio.h>

#include "core/plan.h"
#include "report/version.h"
#include "report/load_curve.h"
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

/* One workload's line; suffix (swept values, " v1 v2") is appended when
 * given. */
static void terse_line(FILE *f, const struct report *r,
		       const struct workload *wl, const char *suffix)
{
	if (!wl->result.have_result)
		return;
	put_figures(f, wl->result.stats);
	fprintf(f, " %llu %d", (unsigned long long)wl->spec.seed,
		workload_status(wl, r->interrupted));
	sections_terse(f, &(struct section_ctx){ r, wl, wl->result.stats });
	fprintf(f, "%s\n", suffix ? suffix : "");
}

/* The total's line: a workload line's fields, with "all" for the seed
 * (field 17: how scripts tell it apart) and no distribution. */
static void total_line(FILE *f, const struct report *r, const char *suffix)
{
	put_figures(f, r->total);
	fprintf(f, " all %d", report_total_status(r));
	sections_terse(f, &(struct section_ctx){ r, NULL, r->total });
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

/* A --rate sweep's knee: the "knee" line after every point's. */
static int terse_end(struct report_out *o)
{
	if (o->scope->curve)
		load_curve_terse(o->scope->out, o->scope->curve);
	return 0;
}

const struct report_writer report_terse_writer = {
	.name = "terse",
	.wanted = terse_wanted,
	.begin = terse_begin,
	.report = terse_report,
	.end = terse_end,
};
