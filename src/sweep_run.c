/* sweep_run.c - the sweep driver.
 *
 * Every point of every line is built, checked and resolved before the
 * first one runs, and destructive work is confirmed once for the whole
 * sweep.  Points then run one after another, each as a fresh run of all the
 * workload lines together; a row per point and workload is written to the
 * table as soon as the point ends, so an interrupted sweep keeps what it
 * measured.  With two numeric axes a gnuplot matrix of workload 1's ops/s
 * is written beside the table (TABLE.matrix).
 */
#include "sweep_run.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "confirm.h"
#include "outpath.h"
#include "plan.h"
#include "plot.h"
#include "repeat_run.h"
#include "report.h"
#include "validate.h"

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
 * together.  The confirmation set keeps one workload per target and
 * operation. */
static int check_all(struct run_ctx *ctx, const struct sweep *sw,
		     const struct spec *bases,
		     size_t nbases, const struct spec *base, bool yes)
{
	static struct workload confirm_set[64];
	size_t nconfirm = 0, p, k, c;
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
		for (k = 0; k < ctx->n; k++) {
			struct workload *wl = &ctx->wls[k];

			if (!workload_destroys_data(wl))
				continue;
			for (c = 0; c < nconfirm; c++)
				if (!strcmp(confirm_set[c].tgt.path, wl->tgt.path) &&
				    spec_kinds(&confirm_set[c].spec) == spec_kinds(&wl->spec))
					break;
			if (c < nconfirm || nconfirm == 64)
				continue;
			confirm_set[nconfirm] = *wl;
			if (spec_copy(&confirm_set[nconfirm].spec, &wl->spec)) {
				ret = -ENOMEM;
				break;
			}
			confirm_set[nconfirm].nwarn = 0;
			confirm_set[nconfirm].workers = NULL;
			confirm_set[nconfirm].have_result = false;
			nconfirm++;
		}
	}
	cleanup_all(ctx);
	if (!ret)
		ret = confirm_destructive(confirm_set, nconfirm, yes);
	for (c = 0; c < nconfirm; c++)
		spec_free(&confirm_set[c].spec);
	return ret;
}

/* gnuplot "matrix nonuniform": first row the column values, then each row
 * value followed by its ops/s. */
static int write_matrix(const char *path, const struct sweep *sw,
			const double *ops)
{
	const struct sweep_axis *ry = &sw->axes[0], *cx = &sw->axes[1];
	char buf[64];
	size_t i, j;
	FILE *f = outpath_open("the sweep matrix", path);

	if (!f)
		return -EIO;
	fprintf(f, "# rebench sweep matrix\n# rows: %s\n# columns: %s\n# values: ops_per_s\n",
		ry->opt->name, cx->opt->name);
	fprintf(f, "%zu", cx->n);
	for (j = 0; j < cx->n; j++) {
		report_sweep_cell(cx, j, buf, sizeof(buf));
		fprintf(f, " %s", buf);
	}
	fputc('\n', f);
	for (i = 0; i < ry->n; i++) {
		report_sweep_cell(ry, i, buf, sizeof(buf));
		fprintf(f, "%s", buf);
		for (j = 0; j < cx->n; j++)
			fprintf(f, " %.2f", ops[i * cx->n + j]);
		fputc('\n', f);
	}
	return outpath_close("the sweep matrix", path, f);
}

static void progress(const struct run_ctx *ctx, const struct sweep *sw,
		     size_t p, double elapsed_s)
{
	size_t idx[SWEEP_MAX_AXES], a;
	char buf[64], eta[32];
	double left = elapsed_s / (double)(p + 1) * (double)(sw->npoints - p - 1);

	sweep_indices(sw, p, idx);
	fmt_eta(left, eta, sizeof(eta));
	fprintf(stderr, "\r\033[K[point %zu of %zu]", p + 1, sw->npoints);
	for (a = 0; a < sw->naxes; a++) {
		report_sweep_cell(&sw->axes[a], idx[a], buf, sizeof(buf));
		fprintf(stderr, " %s=%s", sw->axes[a].opt->name, buf);
	}
	if (ctx->n && ctx->wls[0].have_result)
		fprintf(stderr, ": %.0f ops/s", ctx->wls[0].res.ops_per_s);
	fprintf(stderr, "; about %s left", eta);
}

/* Which plot fits: 2 = heatmap, 1 = lines, 0 = none. */
static int plot_kind(const struct sweep *sw)
{
	size_t a, num = 0;

	for (a = 0; a < sw->naxes; a++)
		num += sw->axes[a].numeric;
	if (num == 2 && sw->naxes == 2)
		return 2;
	return num == 1 ? 1 : 0;
}

/* The table and the matrix beside it: each under the rule of outpath.h,
 * neither a target. */
static int check_table_paths(const struct run_ctx *ctx,
			     const struct sweep *sw, const struct spec *base,
			     const char *table)
{
	char matrix[PATH_MAX + 16], err[PATH_MAX + 1200] = "";
	bool two_numeric = sw->naxes == 2 && sw->axes[0].numeric &&
			   sw->axes[1].numeric;

	if (check_output_path(ctx, base))
		return -EINVAL;
	snprintf(matrix, sizeof(matrix), "%s.matrix", table);
	if (two_numeric && (outpath_check("the sweep matrix", matrix, err, sizeof(err)) ||
			    check_path_free(ctx, "the sweep matrix", matrix))) {
		if (err[0])
			fprintf(stderr, "rebench: %s\n", err);
		return -EINVAL;
	}
	return 0;	/* --plot against --output: main.c's check_plot_path() */
}

static int plot_sweep(const struct sweep *sw, const char *table,
		      const char *matrix, const char *plot, bool temp)
{
	char note[PATH_MAX + 64];
	const char *args[5];
	size_t a, num = 0, first_num = 0, cat = SWEEP_MAX_AXES;

	if (temp)
		snprintf(note, sizeof(note), "the table is on standard output");
	else
		snprintf(note, sizeof(note), "the data is in %s", table);
	for (a = 0; a < sw->naxes; a++) {
		if (sw->axes[a].numeric) {
			if (!num++)
				first_num = a;
		} else if (cat == SWEEP_MAX_AXES) {
			cat = a;
		}
	}
	if (num == 2 && sw->naxes == 2) {
		args[0] = matrix;
		args[1] = plot;
		return plot_render("heatmap.gp", args, 2, note);
	}
	if (num == 1) {
		const struct sweep_axis *x = &sw->axes[first_num];
		bool log = x->n > 2 && strtod(x->values[x->n - 1], NULL) >=
				       8 * strtod(x->values[0], NULL);

		args[0] = table;
		args[1] = plot;
		args[2] = x->opt->name;
		args[3] = cat < SWEEP_MAX_AXES ? sw->axes[cat].opt->name : "workload";
		args[4] = "log";
		return plot_render("lines.gp", args, log ? 5 : 4, note);
	}
	fprintf(stderr, "rebench: --plot: a sweep plots one numeric option (lines) or two (heatmap); this one has %zu; %s\n",
		num, note);
	return -EINVAL;
}

int sweep_run(struct run_ctx *ctx, const struct sweep *sw,
	      const struct spec *bases, size_t nbases,
	      const struct spec *base, const struct run_opts *run,
	      const char *table, const char *plot)
{
	char tmpdir[] = "/tmp/rebench-sweep.XXXXXX", tpath[PATH_MAX] = "";
	char mpath[PATH_MAX + 16] = "";
	char eta[32];
	bool interrupted = false, tty = isatty(STDERR_FILENO) && !run->silent;
	bool two_numeric = sw->naxes == 2 && sw->axes[0].numeric && sw->axes[1].numeric;
	double *ops = calloc(sw->npoints, sizeof(double));
	FILE *tab = NULL, *tab_copy = NULL;
	bool temp_table = false;	/* tpath is our copy for gnuplot */
	struct report_scope scope = { run, stdout, sw, table };
	struct report_set out;
	struct report rep;
	size_t p = 0, k;
	uint64_t t0;
	int status = EXIT_OK, ret;
	size_t r, runs = run->repeat > 1 ? run->repeat : 1;
	struct timespec ts;

	if (!ops)
		return EXIT_PREP_FAILED;
	if (sw->npoints > SWEEP_CONFIRM_POINTS && !run->yes && !run->silent) {
		fmt_eta(estimate_s(sw, bases, nbases) * (double)(run->repeat > 1 ? run->repeat : 1), eta, sizeof(eta));
		fprintf(stderr, "rebench: the sweep has %zu points (%zu workload runs), about %s; add --yes to run that many, or narrow the ranges\n",
			sw->npoints, sw->npoints * nbases, eta);
		free(ops);
		return EXIT_BAD_ARGS;
	}
	if (plot && !plot_kind(sw)) {
		fprintf(stderr, "rebench: --plot: a sweep plots one swept number (lines) or two (heatmap); this sweep has none that fits, so run it without --plot or sweep a number\n");
		free(ops);
		return EXIT_BAD_ARGS;
	}
	if (table && check_table_paths(ctx, sw, base, table)) {
		free(ops);
		return EXIT_BAD_ARGS;
	}
	ret = check_all(ctx, sw, bases, nbases, base, run->yes || run->silent);
	if (ret) {
		free(ops);
		return confirm_exit_status(ret);
	}
	/* where the table goes: --output, else stdout (and a copy for --plot) */
	if (table) {
		tab = outpath_open("--output", table);
		if (!tab) {
			free(ops);
			return EXIT_PREP_FAILED;
		}
		snprintf(tpath, sizeof(tpath), "%s", table);
	} else if (plot) {
		if (!mkdtemp(tmpdir)) {
			free(ops);
			return EXIT_PREP_FAILED;
		}
		snprintf(tpath, sizeof(tpath), "%s/sweep.tsv", tmpdir);
		tab_copy = fopen(tpath, "w");
		temp_table = true;
	}
	if (tab)
		report_table_header(tab, sw, runs > 1);
	if (tab_copy)
		report_table_header(tab_copy, sw, runs > 1);
	if (report_open(&out, &scope)) {
		status = EXIT_OUTPUT_FAILED;
		goto out_tables;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	for (p = 0; p < sw->npoints && !interrupted && status == EXIT_OK; p++) {
		for (r = 0; r < runs && status == EXIT_OK; r++) {
			if (build_point(ctx, sw, p, bases, nbases) || validate_all(ctx, base)) {
				status = EXIT_BAD_ARGS;
				break;
			}
			if (runs > 1) {
				/* run r of the point: its first seeds + r */
				if (!r && repeat_begin(ctx, runs)) {
					status = EXIT_PREP_FAILED;
					break;
				}
				for (k = 0; k < ctx->n; k++)
					ctx->wls[k].spec.seed += r;
			}
			status = prepare_and_run(ctx, run, &interrupted);
			if (status != EXIT_OK || interrupted)
				break;	/* an incomplete run is not counted */
			if (runs > 1)
				repeat_record(ctx);
		}
		if (status == EXIT_BAD_ARGS || status == EXIT_PREP_FAILED ||
		    status == EXIT_INTERRUPTED)
			break;
		if (runs > 1)
			repeat_finish(ctx);
		ops[p] = ctx->wls[0].rep ? ctx->wls[0].rep->stat[RM_OPS].median :
			 ctx->wls[0].have_result ? ctx->wls[0].res.ops_per_s : NAN;
		run_ctx_report(ctx, interrupted, p, &rep);
		if (tab)
			report_table_rows(tab, sw, &rep);
		if (tab_copy)
			report_table_rows(tab_copy, sw, &rep);
		if (tty)
			fprintf(stderr, "\r\033[K");
		report_emit(&out, &rep);
		if (tty) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			progress(ctx, sw, p, ((double)ts.tv_sec * 1e9 + (double)ts.tv_nsec - (double)t0) / 1e9);
		}
		if (runs > 1) {
			for (k = 0; k < ctx->n; k++)
				ctx->wls[k].rep = NULL;
			ctx->total_rep = NULL;
			repeat_free();
		}
		/* nobody reads standard output any more (a closed pipe, a full
		 * disk): the remaining points would measure for no one */
		if (report_uses_stdout(&out) && outpath_flush_stdout()) {
			fprintf(stderr, "rebench: standard output failed after point %zu of %zu: the sweep stops there%s\n",
				p + 1, sw->npoints, table ? "; the --output table has every point so far" : "");
			status = EXIT_OUTPUT_FAILED;
		}
	}
	repeat_free();	/* when the loop ended early */
	if (tty)
		fprintf(stderr, "\r\033[K");
	report_close(&out);
out_tables:
	if (tab && outpath_close("--output", table, tab) && status == EXIT_OK)
		status = EXIT_OUTPUT_FAILED;
	if (tab_copy)
		fclose(tab_copy);
	tab_copy = NULL;
	fflush(stdout);
	cleanup_all(ctx);
	if (interrupted && status == EXIT_OK)
		status = EXIT_INTERRUPTED;
	if (two_numeric && (table || plot) && p == sw->npoints &&
	    status == EXIT_OK) {
		snprintf(mpath, sizeof(mpath), "%s.matrix", tpath);
		if (write_matrix(mpath, sw, ops) && status == EXIT_OK)
			status = EXIT_OUTPUT_FAILED;
	}
	if (plot && status == EXIT_OK &&
	    plot_sweep(sw, tpath, mpath, plot, temp_table))
		status = EXIT_PLOT_FAILED;
	if (temp_table) {
		/* the table went to stdout: the copy was only for gnuplot, and
		 * goes on every exit */
		unlink(tpath);
		if (mpath[0])
			unlink(mpath);
		rmdir(tmpdir);
	}
	free(ops);
	return status;
}
