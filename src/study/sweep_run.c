/* sweep_run.c - the sweep driver.
 *
 * Every point of every line is built, checked and resolved before the
 * first one runs, and destructive work is confirmed once for the whole
 * sweep.  Points then run one after another, each as a fresh run of all the
 * workload lines together; a row per point and workload is written to the
 * table as soon as the point ends, so an interrupted sweep keeps what it
 * measured.  With two numeric axes a gnuplot matrix of workload 1's
 * --plot-metric (ops/s unless chosen) is written beside the table
 * (TABLE.matrix); with two numeric axes and a list of names, --plot draws
 * one matrix per name, side by side on one colour scale.
 */
#include "study/sweep_matrix.h"
#include "core/sweep_order.h"
#include "study/confirm_set.h"
#include "study/sweep_run.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats/ci.h"
#include "core/confirm.h"
#include "report/dry_run.h"
#include "core/outpath.h"
#include "core/plan.h"
#include "stats/repeat.h"
#include "report/plot.h"
#include "stats/progress.h"
#include "stats/repeat_run.h"
#include "report/load_curve.h"
#include "report/report.h"
#include "report/section.h"
#include "core/validate.h"
#include "report/summary.h"

static int build_point(struct run_ctx *ctx, const struct sweep *sw, size_t p,
		       const struct spec *bases, size_t nbases)
{
	size_t k;

	cleanup_all(ctx);
	for (k = 0; k < nbases; k++) {
		struct parse_ctx pctx = { bases[k].line, "sweep", NULL };

		if (add_workload(ctx, &bases[k]) ||
		    sweep_apply(sw, p, &ctx->wls[k].spec, &pctx))
			return -EINVAL;
		if (ctx->wls[k].spec.sample_ns == 0) {
			spec_error(&ctx->wls[k].spec, "-g 0 (a log of every I/O) does not combine with a sweep; use -g N or run the points one by one");
			return -EINVAL;
		}
		/* the table takes --output's place */
		free(ctx->wls[k].spec.output);
		ctx->wls[k].spec.output = NULL;
	}
	return 0;
}

static double estimate_s(const struct sweep *sw, const struct spec *bases,
			 size_t nbases)
{
	double longest = 0;
	size_t k;

	for (k = 0; k < nbases; k++)
		if (bases[k].duration.kind == AMOUNT_TIME &&
		    bases[k].duration.value / 1e9 > longest)
			longest = (double)bases[k].duration.value / 1e9;
	return longest * (double)sw->npoints;
}

static void fmt_eta(double s, char *buf, size_t len)
{
	if (s >= 3600)
		snprintf(buf, len, "%.0fh%02.0fm", floor(s / 3600), fmod(floor(s / 60), 60));
	else if (s >= 60)
		snprintf(buf, len, "%.0fm%02.0fs", floor(s / 60), fmod(round(s), 60));
	else
		snprintf(buf, len, "%.0fs", s);
}

/* Every point is checked before any runs; destructive ones are confirmed
 * together (!ask, --dry-run: checked as they would be, not asked), and
 * *destroys says whether any is.
 * The confirmation set keeps one workload per target and operation. */
static int check_all(struct run_ctx *ctx, const struct sweep *sw,
		     const struct spec *bases,
		     size_t nbases, const struct spec *base, bool yes,
		     bool ask, bool *destroys)
{
	struct confirm_set cs = { 0 };
	size_t p, k;
	int ret = 0;

	for (p = 0; p < sw->npoints && !ret; p++) {
		if (build_point(ctx, sw, p, bases, nbases) || validate_all(ctx, base)) {
			size_t idx[SWEEP_MAX_AXES], a;

			sweep_indices(sw, p, idx);
			fprintf(stderr, "rebench: the sweep point that fails is");
			for (a = 0; a < sw->naxes; a++)
				fprintf(stderr, " --%s %s", sw->axes[a].opt->name,
					sw->axes[a].values[idx[a]]);
			fprintf(stderr, "\n");
			ret = -EINVAL;
			break;
		}
		for (k = 0; k < ctx->n && !ret; k++)
			if (workload_destroys_data(&ctx->wls[k]))
				ret = confirm_set_keep(&cs, &ctx->wls[k]);
	}
	cleanup_all(ctx);
	*destroys = cs.n > 0;
	if (!ret)
		ret = ask ? confirm_destructive(cs.wls, cs.n, yes) :
			    confirm_check(cs.wls, cs.n, yes);
	confirm_set_free(&cs);
	return ret;
}

/* The progress line above the runs of point p: the point, its values,
 * the ops/s of the point before (workload 1's), and the time the rest
 * should take at the pace so far. */
static void progress_point(const struct run_ctx *ctx, const struct sweep *sw,
			   size_t k, size_t p, double elapsed_s)
{
	size_t idx[SWEEP_MAX_AXES], a, n;
	char line[512], buf[64], eta[32];

	sweep_indices(sw, p, idx);
	n = (size_t)snprintf(line, sizeof(line), "[point %zu of %zu]", k + 1,
			     sw->npoints);
	for (a = 0; a < sw->naxes && n < sizeof(line); a++) {
		report_sweep_cell(&sw->axes[a], idx[a], buf, sizeof(buf));
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %s=%s",
				      sw->axes[a].opt->name, buf);
	}
	if (k && n < sizeof(line) && ctx->n && ctx->wls[0].result.have_result)
		n += (size_t)snprintf(line + n, sizeof(line) - n,
				      "; the one before: %.0f ops/s",
				      ctx->wls[0].result.stats->ops_per_s);
	if (k && n < sizeof(line)) {
		fmt_eta(elapsed_s / (double)k * (double)(sw->npoints - k), eta,
			sizeof(eta));
		snprintf(line + n, sizeof(line) - n, "; about %s left", eta);
	}
	progress_context(ctx, line);
}

/* Most names a sweep draws as panels (plots/alignment-multiplot.gp). */
#define PLOT_MAX_PANELS 9

enum plot_kind { PLOT_NONE, PLOT_LINES, PLOT_HEATMAP, PLOT_PANELS,
		 PLOT_LOADCURVE };

/* A sweep of --rate alone: its plot is the load curve, and it has a knee
 * (report/load_curve.h). */
static bool rate_alone(const struct sweep *sw)
{
	return sw->naxes == 1 && sw->axes[0].opt->type == OPT_RATE &&
	       sw->axes[0].numeric;
}

/* Which plot fits: the load curve for --rate alone, lines for one swept
 * number (with any lists of names), a heatmap for two, a heatmap per name
 * for two and one list of names; ax gets the axes of a heatmap. */
static enum plot_kind plot_kind(const struct sweep *sw, struct plot_axes *ax)
{
	size_t a, num = 0;

	ax->ry = ax->cx = ax->cat = SWEEP_MAX_AXES;
	for (a = 0; a < sw->naxes; a++) {
		if (!sw->axes[a].numeric)
			ax->cat = a;
		else if (num++)
			ax->cx = a;
		else
			ax->ry = a;
	}
	if (rate_alone(sw))
		return PLOT_LOADCURVE;
	if (num == 1)
		return PLOT_LINES;
	if (num == 2 && sw->naxes == 2)
		return PLOT_HEATMAP;
	if (num == 2 && sw->naxes == 3)
		return PLOT_PANELS;
	return PLOT_NONE;
}

/* The table and the matrix beside it: each under the rule of outpath.h,
 * neither a target. */
static int check_table_paths(const struct run_ctx *ctx,
			     const struct sweep *sw, const char *table)
{
	static const char *const files[][2] = {
		{ "%s.matrix", "the sweep matrix" },
		{ "%s.matrix.noise", "the sweep noise file" },
	};
	char path[PATH_MAX + 16], err[PATH_MAX + 1200] = "";
	bool two_numeric = sw->naxes == 2 && sw->axes[0].numeric &&
			   sw->axes[1].numeric;
	size_t i;

	if (outpath_check("--output", table, err, sizeof(err))) {
		fprintf(stderr, "rebench: %s\n", err);
		return -EINVAL;
	}
	if (check_path_free(ctx, "--output", table))
		return -EINVAL;
	for (i = 0; two_numeric && i < 2; i++) {
		snprintf(path, sizeof(path), files[i][0], table);
		if (outpath_check(files[i][1], path, err, sizeof(err)) ||
		    check_path_free(ctx, files[i][1], path)) {
			if (err[0])
				fprintf(stderr, "rebench: %s\n", err);
			return -EINVAL;
		}
	}
	return 0;	/* --plot against --output: plot_check_path() */
}

/* One sweep as it runs: what its points share. */
struct sweep_state {
	struct run_ctx *ctx;
	const struct sweep *sw;
	const struct spec *bases;
	size_t nbases;
	const struct spec *base;
	const struct run_opts *run;
	const char *table, *plot;	/* --output, --plot, or NULL */
	size_t runs;			/* --repeat, or 1 */
	char tmpdir[OUTPATH_TMPDIR_MAX];	/* made when have_tmpdir */
	bool have_tmpdir;
	char tpath[PATH_MAX];		/* the table gnuplot reads */
	char mpath[PATH_MAX + 16];	/* the matrix beside it */
	FILE *tab;			/* --output's table */
	FILE *tab_copy;			/* or the copy for --plot */
	bool temp_table;		/* tpath is that copy */
	bool tty;			/* progress lines on stderr */
	enum plot_kind kind;		/* what --plot draws */
	struct plot_axes axes;		/* ... from which axes */
	int metric;			/* enum plot_metric, resolved */
	double *vals;			/* workload 1's metric per point */
	double *lo, *hi;		/* ... its 95% interval, or NaN */
	struct sweep_order order;	/* --order */
	size_t *perm;			/* ... the point that runs k-th */
	struct plot_about about;	/* what produced it, all workloads */
	struct plot_about about1;	/* ... workload 1 (the matrix) */
	struct report_set out;
	uint64_t t0;
	bool interrupted;
	unsigned cols;			/* the table's optional columns */
	struct load_point *load;	/* --rate alone: each point's */
	struct load_curve curve;	/* ... and their knee */
};

/* A matrix per name in the temporary directory, listed as
 * "NAME VALUE<TAB>panelN.matrix" for alignment-multiplot.gp. */
static int write_panels(struct sweep_state *st, char *list, size_t len)
{
	const struct sweep_axis *cat = &st->sw->axes[st->axes.cat];
	char path[PATH_MAX + 64], buf[64];
	FILE *f;
	size_t c;
	int ret = 0;

	snprintf(list, len, "%s/panels.list", st->tmpdir);
	f = fopen(list, "w");
	if (!f)
		return -errno;
	for (c = 0; c < cat->n && !ret; c++) {
		snprintf(path, sizeof(path), "%s/panel%zu.matrix", st->tmpdir, c + 1);
		ret = sweep_matrix_write(path, st->sw, &st->axes, c, st->vals,
				   plot_metric_column(st->metric), &st->about1);
		report_sweep_cell(cat, c, buf, sizeof(buf));
		fprintf(f, "%s %s\tpanel%zu.matrix\n", cat->opt->name, buf, c + 1);
	}
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

static int plot_sweep(struct sweep_state *st)
{
	const struct sweep *sw = st->sw;
	char note[PATH_MAX + 64], list[PATH_MAX];
	const char *args[5];
	size_t a;

	if (st->temp_table)
		snprintf(note, sizeof(note), "the table is on standard output");
	else
		snprintf(note, sizeof(note), "the data is in %s", st->tpath);
	args[1] = st->plot;
	switch (st->kind) {
	case PLOT_HEATMAP:
		args[0] = st->mpath;
		return plot_render("heatmap.gp", args, 2, note, NULL);
	case PLOT_PANELS:
		if (write_panels(st, list, sizeof(list))) {
			fprintf(stderr, "rebench: --plot: cannot write the panels' matrices in %s; %s\n",
				st->tmpdir, note);
			return -EIO;
		}
		args[0] = list;
		return plot_render("alignment-multiplot.gp", args, 2, note, NULL);
	case PLOT_LINES: {
		const struct sweep_axis *x = &sw->axes[st->axes.ry];
		bool log = x->n > 2 && strtod(x->values[x->n - 1], NULL) >=
				       8 * strtod(x->values[0], NULL);

		args[0] = st->tpath;
		args[2] = x->opt->name;
		args[3] = "workload";
		for (a = 0; a < sw->naxes; a++)
			if (!sw->axes[a].numeric) {
				args[3] = sw->axes[a].opt->name;
				break;
			}
		args[4] = "log";
		return plot_render("lines.gp", args, log ? 5 : 4, note, &st->about);
	}
	case PLOT_LOADCURVE: {
		char knee[32] = "-";

		if (st->curve.have_knee)
			snprintf(knee, sizeof(knee), "%.10g", st->curve.knee.asked);
		args[0] = st->tpath;
		args[2] = knee;
		return plot_render("loadcurve.gp", args, 3, note, &st->about);
	}
	default:
		return -EINVAL;	/* refused before the run */
	}
}

/* What is refused before any point is checked: too many points without
 * --yes, a --plot that fits no plot, table paths against the rule. */
static int refuse(const struct sweep_state *st)
{
	const struct sweep *sw = st->sw;
	char eta[32];

	if (sw->npoints > SWEEP_CONFIRM_POINTS && !st->run->yes &&
	    !st->run->silent) {
		fmt_eta(estimate_s(sw, st->bases, st->nbases) * (double)st->runs,
			eta, sizeof(eta));
		fprintf(stderr, "rebench: the sweep has %zu points (%zu workload runs), about %s; add --yes to run that many, or narrow the ranges\n",
			sw->npoints, sw->npoints * st->nbases, eta);
		return EXIT_BAD_ARGS;
	}
	if (st->plot && st->kind == PLOT_NONE) {
		fprintf(stderr, "rebench: --plot: a sweep plots one swept number (lines), two (heatmap), or two and a list of names (a heatmap per name); this sweep has none that fits, so run it without --plot or sweep a number\n");
		return EXIT_BAD_ARGS;
	}
	if (st->plot && st->kind == PLOT_PANELS &&
	    sw->axes[st->axes.cat].n > PLOT_MAX_PANELS) {
		fprintf(stderr, "rebench: --plot: --%s has %zu names, a heatmap each, but at most %d fit on one picture; sweep fewer names, or split the sweep\n",
			sw->axes[st->axes.cat].opt->name,
			sw->axes[st->axes.cat].n, PLOT_MAX_PANELS);
		return EXIT_BAD_ARGS;
	}
	if (st->table && check_table_paths(st->ctx, sw, st->table))
		return EXIT_BAD_ARGS;
	return EXIT_OK;
}

/* Where the table goes: --output, else standard output (the human writer
 * prints it) and, for --plot, a temporary copy for gnuplot. */
static int open_tables(struct sweep_state *st)
{
	if (st->table) {
		st->tab = outpath_open("--output", st->table);
		if (!st->tab)
			return EXIT_PREP_FAILED;
		snprintf(st->tpath, sizeof(st->tpath), "%s", st->table);
	}
	/* gnuplot's files that are no one else's: the table's copy, the
	 * panels' matrices */
	if (st->plot && (!st->table || st->kind == PLOT_PANELS)) {
		if (outpath_make_tmpdir("--plot", "sweep", st->tmpdir,
					sizeof(st->tmpdir)))
			return EXIT_PREP_FAILED;
		st->have_tmpdir = true;
	}
	if (st->plot && !st->table) {
		snprintf(st->tpath, sizeof(st->tpath), "%s/sweep.tsv", st->tmpdir);
		st->tab_copy = fopen(st->tpath, "w");
		st->temp_table = true;
	}
	if (st->tab)
		report_table_header(st->tab, st->sw, st->cols);
	if (st->tab_copy)
		report_table_header(st->tab_copy, st->sw, st->cols);
	return EXIT_OK;
}

/* Point p's workloads, checked and resolved; EXIT_BAD_ARGS if not. */
static int build_checked(struct sweep_state *st, size_t p)
{
	if (build_point(st->ctx, st->sw, p, st->bases, st->nbases) ||
	    validate_all(st->ctx, st->base))
		return EXIT_BAD_ARGS;
	return EXIT_OK;
}

struct rebuild_arg {
	struct sweep_state *st;
	size_t p;
};

/* --repeat: run r of a point is the point again, its first seeds + r. */
static int rebuild_point(struct run_ctx *ctx, size_t r, void *arg)
{
	struct rebuild_arg *a = arg;
	size_t k;
	int status = build_checked(a->st, a->p);

	for (k = 0; k < ctx->n && !status; k++)
		ctx->wls[k].spec.seed += r;
	return status;
}

/* Point p, every --repeat run of it; the exit status of the runs. */
static int run_point(struct sweep_state *st, size_t p)
{
	struct rebuild_arg arg = { st, p };
	int status = build_checked(st, p);

	if (status)
		return status;
	if (st->runs > 1 && repeat_begin(st->ctx, st->runs))
		return EXIT_PREP_FAILED;
	return repeat_runs(st->ctx, st->run, st->runs, rebuild_point, &arg,
			   &st->interrupted);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Workload wl's value of metric (a --repeat: the median of the runs);
 * NAN without a result. */
static double point_value(const struct workload *wl, int metric)
{
	static const int median_of[] = {
		[PLOT_METRIC_OPS] = RM_OPS, [PLOT_METRIC_MBS] = RM_MBPS,
		[PLOT_METRIC_P50] = RM_P50, [PLOT_METRIC_P99] = RM_P99,
	};
	struct lat_summary l;

	if (wl->result.rep)
		return wl->result.rep->stat[median_of[metric]].median;
	if (!wl->result.have_result)
		return NAN;
	lat_summarize(wl->result.stats, &l);
	switch (metric) {
	case PLOT_METRIC_MBS:
		return wl->result.stats->mb_per_s;
	case PLOT_METRIC_P50:
		return l.p50;
	case PLOT_METRIC_P99:
		return l.p99;
	default:
		return wl->result.stats->ops_per_s;
	}
}

/* The 95% interval of point_value(): --repeat's over the runs, else for
 * ops/s and MB/s the batch means of the run's intervals (the same
 * relative width for MB/s); NaN for a latency of a single run. */
static void point_interval(const struct workload *wl, int metric, double *lo,
			   double *hi)
{
	static const int stat_of[] = {
		[PLOT_METRIC_OPS] = RM_OPS, [PLOT_METRIC_MBS] = RM_MBPS,
		[PLOT_METRIC_P50] = RM_P50, [PLOT_METRIC_P99] = RM_P99,
	};
	struct ci c;
	double scale;

	*lo = *hi = NAN;
	if (wl->result.rep) {
		*lo = wl->result.rep->stat[stat_of[metric]].ci_low;
		*hi = wl->result.rep->stat[stat_of[metric]].ci_high;
		return;
	}
	if (!wl->result.have_result ||
	    (metric != PLOT_METRIC_OPS && metric != PLOT_METRIC_MBS))
		return;
	ci_of_result(wl->result.stats, wl->result.ci_upto, &c);
	if (!c.known || !(c.mean > 0) || !(wl->result.stats->ops_per_s > 0))
		return;
	scale = metric == PLOT_METRIC_OPS ? 1 : wl->result.stats->mb_per_s /
					       wl->result.stats->ops_per_s;
	*lo = c.low * scale;
	*hi = c.high * scale;
}

/* Where the heatmap's intervals came from, for the noise file. */
static const char *interval_method(const struct sweep_state *st)
{
	if (st->runs > 1)
		return "--repeat: 95% intervals over the runs, log scale";
	if (st->metric == PLOT_METRIC_OPS || st->metric == PLOT_METRIC_MBS)
		return "95% intervals from batch means of each point's intervals";
	return "a latency of a single run has no interval; --repeat N gives one";
}

/* Workload 1's point of a load curve (report/load_curve.h). */
static void load_point_of(const struct workload *wl, struct load_point *lp)
{
	const struct rate_result *r = wl->result.rate;
	struct lat_summary l;

	lp->have = wl->result.have_result && r && r->present;
	if (!lp->have)
		return;
	lat_summarize_hist(&r->intended, &l);
	lp->asked = r->asked;
	lp->achieved = r->achieved;
	lp->met = r->met;
	lp->p99_us = l.p99;
}

/* The optional columns of the table: --repeat's, --rate's. */
static unsigned table_cols(const struct sweep_state *st)
{
	unsigned cols = st->runs > 1 ? TSV_REPEATED : 0;
	size_t k;

	for (k = 0; k < st->sw->naxes; k++)
		if (st->sw->axes[k].opt->type == OPT_RATE)
			cols |= TSV_RATED;
	for (k = 0; k < st->nbases; k++)
		if (st->bases[k].rate.ops > 0 || st->bases[k].rate.bytes)
			cols |= TSV_RATED;
	return cols;
}

/* After point p ran: its rows, its report, the progress line; status
 * becomes EXIT_OUTPUT_FAILED when standard output no longer takes it. */
static int report_point(struct sweep_state *st, size_t p, int status)
{
	struct run_ctx *ctx = st->ctx;
	struct report rep;
	size_t k;

	st->vals[p] = point_value(&ctx->wls[0], st->metric);
	point_interval(&ctx->wls[0], st->metric, &st->lo[p], &st->hi[p]);
	if (p == 0) {
		plot_about_fill(&st->about, ctx->wls, ctx->n, st->sw, st->runs);
		plot_about_fill(&st->about1, ctx->wls, 1, st->sw, st->runs);
		st->about.metric = plot_metric_column(st->metric);
	}
	if (st->curve.on)
		load_point_of(&ctx->wls[0], &st->load[p]);
	run_ctx_report(ctx, st->interrupted, p, &rep);
	if (st->tab)
		report_table_rows(st->tab, st->sw, &rep, st->cols);
	if (st->tab_copy)
		report_table_rows(st->tab_copy, st->sw, &rep, st->cols);
	report_emit(&st->out, &rep);
	if (st->runs > 1) {
		for (k = 0; k < ctx->n; k++)
			ctx->wls[k].result.rep = NULL;
		ctx->total_rep = NULL;
		repeat_free(ctx);
	}
	/* nobody reads standard output any more (a closed pipe, a full
	 * disk): the remaining points would measure for no one */
	if (report_uses_stdout(&st->out) && outpath_flush_stdout()) {
		fprintf(stderr, "rebench: standard output failed after point %zu of %zu: the sweep stops there%s\n",
			p + 1, st->sw->npoints,
			st->table ? "; the --output table has every point so far" : "");
		status = EXIT_OUTPUT_FAILED;
	}
	return status;
}

/* Every point in --order, until one fails or a signal stops the sweep;
 * returns the status and sets *done to the points that ran. */
static int run_points(struct sweep_state *st, size_t *done)
{
	int status = EXIT_OK;
	size_t k;

	st->t0 = now_ns();
	for (k = 0; k < st->sw->npoints && !st->interrupted &&
		    status == EXIT_OK; k++) {
		size_t p = st->perm[k];

		if (st->tty)
			progress_point(st->ctx, st->sw, k, p,
				       (double)(now_ns() - st->t0) / 1e9);
		status = run_point(st, p);
		if (status == EXIT_BAD_ARGS || status == EXIT_PREP_FAILED ||
		    status == EXIT_INTERRUPTED)
			break;
		status = report_point(st, p, status);
	}
	repeat_free(st->ctx);	/* when the loop ended early */
	progress_context(st->ctx, NULL);
	*done = k;
	return status;
}

static void remove_tmpdir(struct sweep_state *st)
{
	if (st->have_tmpdir)
		outpath_remove_tmpdir(st->tmpdir);
	st->have_tmpdir = false;
}

/* The matrix and the plot of a complete sweep, and the temporary files
 * removed on every exit. */
static int finish(struct sweep_state *st, size_t done, int status)
{
	const struct sweep *sw = st->sw;

	if (st->interrupted && status == EXIT_OK)
		status = EXIT_INTERRUPTED;
	if (st->kind == PLOT_HEATMAP && (st->table || st->plot) &&
	    done == sw->npoints && status == EXIT_OK) {
		snprintf(st->mpath, sizeof(st->mpath), "%s.matrix", st->tpath);
		char npath[PATH_MAX + 32];

		if (sweep_matrix_write(st->mpath, sw, &st->axes, 0, st->vals,
				 plot_metric_column(st->metric), &st->about1))
			status = EXIT_OUTPUT_FAILED;
		snprintf(npath, sizeof(npath), "%s.noise", st->mpath);
		if (status == EXIT_OK &&
		    sweep_noise_write(npath, sw, &st->axes, st->vals, st->lo,
				      st->hi, st->metric == PLOT_METRIC_P50 ||
				      st->metric == PLOT_METRIC_P99,
				      interval_method(st), &st->about1))
			status = EXIT_OUTPUT_FAILED;
	}
	if (st->plot && status == EXIT_OK && plot_sweep(st))
		status = EXIT_PLOT_FAILED;
	/* a table on stdout: the copy was only for gnuplot */
	remove_tmpdir(st);
	return status;
}

int sweep_run(struct run_ctx *ctx, const struct sweep *sw,
	      const struct spec *bases, size_t nbases,
	      const struct spec *base, const struct run_opts *run,
	      const char *table, const char *plot)
{
	struct sweep_state st = {
		.ctx = ctx, .sw = sw, .bases = bases, .nbases = nbases,
		.base = base, .run = run, .table = table, .plot = plot,
		.runs = run->repeat > 1 ? run->repeat : 1,
		.tty = isatty(STDERR_FILENO) && !run->silent,
		.metric = plot_metric_resolve(run->plot_metric, &bases[0], sw),
	};
	struct report_scope scope = { run, stdout, sw, table };
	size_t done = 0;
	bool destroys;
	int status, ret;

	st.kind = plot_kind(sw, &st.axes);
	st.cols = table_cols(&st);
	scope.table_cols = st.cols;
	st.curve.on = rate_alone(sw);
	if (st.curve.on)
		scope.curve = &st.curve;
	status = refuse(&st);
	if (status)
		return status;
	if (sweep_order_parse(run->order, &st.order))
		return EXIT_BAD_ARGS;
	/* --dry-run: every point checked, no question */
	ret = check_all(ctx, sw, bases, nbases, base, run->yes || run->silent,
			!run->dry_run, &destroys);
	if (ret)
		return confirm_exit_status(ret);
	if (run->dry_run) {	/* every point checked: point 1 tells */
		status = build_checked(&st, 0);
		if (!status)
			status = dry_run_report(ctx->wls, ctx->n, sw->npoints,
						destroys, run);
		cleanup_all(ctx);
		return status;
	}
	st.vals = calloc(sw->npoints, sizeof(double));
	st.lo = calloc(sw->npoints, sizeof(double));
	st.hi = calloc(sw->npoints, sizeof(double));
	st.perm = calloc(sw->npoints, sizeof(size_t));
	st.load = calloc(sw->npoints, sizeof(*st.load));
	if (!st.vals || !st.lo || !st.hi || !st.perm || !st.load) {
		free(st.vals);
		free(st.lo);
		free(st.hi);
		free(st.perm);
		free(st.load);
		return EXIT_PREP_FAILED;
	}
	sweep_order_fill(&st.order, st.perm, sw->npoints);
	scope.order = &st.order;
	if (st.order.shuffled && !run->silent && !run->json)
		fprintf(stderr, "rebench: the %zu points run in a shuffled order, seed %llu (--order shuffled:%llu runs it again)\n",
			sw->npoints, (unsigned long long)st.order.seed,
			(unsigned long long)st.order.seed);
	status = open_tables(&st);
	if (!status && report_open(&st.out, &scope))
		status = EXIT_OUTPUT_FAILED;
	/* JSON leaves its last line open between points: on the terminal a
	 * progress line would land in it, and the JSON shows the progress */
	if (report_open_line(&st.out) && isatty(STDOUT_FILENO))
		st.tty = false;
	progress_enable(st.ctx, st.tty);
	if (!status) {
		status = run_points(&st, &done);
		if (st.curve.on)	/* before the writers' ends read it */
			load_curve_judge(&st.curve, st.load, sw->npoints);
		report_close(&st.out);
	}
	if (st.tab && outpath_close("--output", table, st.tab) &&
	    status == EXIT_OK)
		status = EXIT_OUTPUT_FAILED;
	if (st.tab_copy)
		fclose(st.tab_copy);
	fflush(stdout);
	cleanup_all(ctx);
	status = finish(&st, done, status);
	free(st.vals);
	free(st.lo);
	free(st.hi);
	free(st.perm);
	free(st.load);
	return status;
}

int sweep_run_loaded(struct run_ctx *ctx, const struct sweep *sw,
		     const struct spec *base, const struct run_opts *run,
		     const char *table, const char *plot)
{
	struct spec *bases = calloc(ctx->n ? ctx->n : 1, sizeof(*bases));
	size_t k, n = 0;
	int status = EXIT_PREP_FAILED;

	if (!bases)
		return EXIT_PREP_FAILED;
	for (n = 0; n < ctx->n; n++)
		if (spec_copy(&bases[n], &ctx->wls[n].spec))
			goto out;
	cleanup_all(ctx);
	status = sweep_run(ctx, sw, bases, n, base, run, table, plot);
out:
	for (k = 0; k < n; k++)
		spec_free(&bases[k]);
	free(bases);
	return status;
}
