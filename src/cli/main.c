/* main.c - modes (one workload from argv, or one per stdin line), the order
 * of checks, and exit statuses.
 *
 * Order matters for safety: every workload is parsed, checked and resolved
 * against its probed target before any of them is confirmed, prepared or
 * run, so bad input never runs anything.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "advise/advise.h"
#include "characterize/characterize.h"
#include "core/fileset.h"
#include "core/units.h"
#include "core/confirm.h"
#include "report/dry_run.h"
#include "hosts/hosts.h"
#include "hosts/hosts_remote.h"
#include "trace/emulate.h"
#include "report/plot.h"
#include "stats/progress.h"
#include "stats/ready.h"
#include "core/runinfo.h"
#include "core/sweep.h"
#include "study/sweep_run.h"
#include "core/plan.h"
#include "trace/record.h"
#include "trace/record_block.h"
#include "trace/replay.h"
#include "engines/engine.h"
#include "study/fio_job.h"
#include "cli/modes.h"
#include "core/options.h"
#include "cli/options_help.h"
#include "core/outpath.h"
#include "report/version.h"
#include "report/report.h"
#include "report/report_probe.h"
#include "study/compare.h"
#include "stats/precision.h"
#include "core/precondition.h"
#include "stats/repeat_run.h"
#include "stats/steady_run.h"
#include "core/signals.h"
#include "study/suite.h"
#include "study/latency_target.h"
#include "trace/trace_fio.h"
#include "core/validate.h"
#include "core/workload.h"

/* --plot with -g 0 draws the per-I/O log's latency histogram and CDF
 * (latency.gp): every workload logs every I/O, into the one --output file
 * (-g 0 always has one: validate.c). */
static int plan_log_for_plot(struct run_ctx *ctx, int run_metric)
{
	size_t k;

	if (run_metric != PLOT_METRIC_AUTO) {
		fprintf(stderr, "rebench: --plot-metric: with -g 0 the plot is the latency histogram and CDF of every I/O, which has no metric to choose; leave --plot-metric out, or use -g N for a time series\n");
		return -EINVAL;
	}
	if (!ctx->wls[0].spec.output) {
		fprintf(stderr, "rebench: --plot: -g 0 logs every I/O into the --output file, which the plot draws: add --output FILE\n");
		return -EINVAL;
	}
	for (k = 0; k < ctx->n; k++)
		if (ctx->wls[k].spec.sample_ns != 0 || !ctx->wls[k].spec.output ||
		    strcmp(ctx->wls[k].spec.output, ctx->wls[0].spec.output)) {
			fprintf(stderr, "rebench: --plot: workload %zu %s, workload 1 logs every I/O (-g 0) into %s; one plot draws one log: give every workload -g 0 and the same --output, or plot each file with plots/latency.gp\n",
				k + 1, ctx->wls[k].spec.sample_ns ? "samples intervals (-g N)" : "logs into another file",
				ctx->wls[0].spec.output);
			return -EINVAL;
		}
	snprintf(ctx->series_path, sizeof(ctx->series_path), "%s",
		 ctx->wls[0].spec.output);
	return 0;
}

/* --plot without a sweep draws the time series: it needs the --output
 * file; without one, rebench writes it to a temporary file (the run
 * context's series_path, series_is_temp). */
static int plan_series_for_plot(struct run_ctx *ctx, int run_metric)
{
	char dir[OUTPATH_TMPDIR_MAX];
	size_t k;
	int ret;

	if (ctx->wls[0].spec.sample_ns == 0)
		return plan_log_for_plot(ctx, run_metric);
	if (run_metric == PLOT_METRIC_P50 || run_metric == PLOT_METRIC_P99) {
		fprintf(stderr, "rebench: --plot-metric %s: a time series has each interval's mean and maximum latency, not its percentiles; use --plot-metric ops or mbs, or sweep an option (each point has its percentiles)\n",
			run_metric == PLOT_METRIC_P50 ? "p50" : "p99");
		return -EINVAL;
	}
	if (ctx->wls[0].spec.output) {
		snprintf(ctx->series_path, sizeof(ctx->series_path), "%s",
			 ctx->wls[0].spec.output);
		return 0;
	}
	ret = outpath_make_tmpdir("--plot", "plot", dir, sizeof(dir));
	if (ret)
		return ret;
	snprintf(ctx->series_path, sizeof(ctx->series_path), "%s/series.tsv",
		 dir);
	ctx->series_is_temp = true;
	for (k = 0; k < ctx->n; k++) {
		if (ctx->wls[k].spec.output)
			continue;	/* a line's own file stays its own */
		ctx->wls[k].spec.output = strdup(ctx->series_path);
		if (!ctx->wls[k].spec.output)
			return -ENOMEM;
	}
	return 0;
}

static int plot_series(const struct run_ctx *ctx, const struct run_opts *run)
{
	const char *args[2] = { ctx->series_path, run->plot };
	struct plot_about about = { 0 };
	char note[PATH_MAX + 64];

	if (ctx->series_is_temp)
		snprintf(note, sizeof(note), "the series was temporary: add --output FILE to keep it");
	else
		snprintf(note, sizeof(note), "the data is in %s",
			 ctx->series_path);
	plot_about_fill(&about, ctx->wls, ctx->n, NULL, 1);
	if (ctx->wls[0].spec.sample_ns == 0)	/* -g 0: every I/O's latency */
		return plot_render("latency.gp", args, 2, note, &about) ?
		       EXIT_PLOT_FAILED : EXIT_OK;
	about.metric = plot_metric_column(plot_metric_resolve(run->plot_metric,
							      &ctx->wls[0].spec, NULL));
	/* --steady-state: the rounds, the window and the criteria */
	return plot_render(ctx->wls[0].result.steady ? "steadystate.gp" :
			   "timeseries.gp", args, 2, note, &about) ?
	       EXIT_PLOT_FAILED : EXIT_OK;
}

/* The temporary series of --plot goes on every exit. */
static void remove_temp_series(struct run_ctx *ctx)
{
	char dir[PATH_MAX];

	if (!ctx->series_is_temp)
		return;
	snprintf(dir, sizeof(dir), "%s", ctx->series_path);
	unlink(ctx->series_path);
	rmdir(dirname(dir));
	ctx->series_is_temp = false;
}

/* --probe: report the target's geometry and alignment, no I/O. */
static int probe_only(const struct spec *base, const struct run_opts *run,
		      const struct sweep *sw)
{
	struct target t = { 0 };	/* 8 KB of paths: main's stack has room */
	char err[PATH_MAX + 256], why[PATH_MAX + 256] = "";
	const char *name;

	if (!base->target) {
		fprintf(stderr, "rebench: --probe needs a TARGET: rebench --probe /dev/sdb1\n");
		return EXIT_BAD_ARGS;
	}
	name = options_first_given(base, NULL);
	if (name) {
		fprintf(stderr, "rebench: --probe measures nothing, so --%s has no meaning with it; drop it, or run without --probe\n",
			name);
		return EXIT_BAD_ARGS;
	}
	if (sw->naxes || run->plot || run->silent) {
		fprintf(stderr, "rebench: --probe takes only a TARGET and optionally --json\n");
		return EXIT_BAD_ARGS;
	}
	if (access(base->target, F_OK)) {
		fprintf(stderr, "rebench: cannot probe %s: %s\n", base->target,
			strerror(errno));
		return EXIT_BAD_ARGS;
	}
	if (target_probe(base->target, &t, err, sizeof(err))) {
		fprintf(stderr, "rebench: %s\n", err);
		return EXIT_BAD_ARGS;
	}
	if (t.kind == TARGET_FILE)
		target_map_file(&t);
	else
		target_in_use(&t, why, sizeof(why));
	if (run->json)
		report_probe_json(stdout, &t, why);
	else
		report_probe_human(stdout, &t, why);
	return EXIT_OK;
}

/* The results of one run through every writer the options want; 0, or
 * -errno when an output could not be written. */
static int report_once(const struct run_opts *run, const struct report *rep)
{
	struct report_scope scope = { run, stdout, NULL, NULL };
	struct report_set out;
	int ret, e;

	ret = report_open(&out, &scope);
	if (ret)
		return ret;
	ret = report_emit(&out, rep);
	e = report_close(&out);
	return ret ? ret : e;
}

/* What the command line asks that runs no workload (--help, --version,
 * --engines, --probe, or a --fio with an option it has no use for): its
 * exit status, or -1 to go on. */
static int info_only(const struct spec *base, const struct run_opts *run,
		     const struct sweep *sw)
{
	if (run->help)	/* rebench --help [TOPIC]: the word is the topic */
		return options_help(stdout, stderr, base->target) ?
		       EXIT_BAD_ARGS : EXIT_OK;
	if (run->version) {
		printf("rebench %s\n", REBENCH_VERSION);
		return EXIT_OK;
	}
	if (run->engines) {
		engine_list(stdout);
		return EXIT_OK;
	}
	if (run->suite && !strcmp(run->suite, "list"))
		return suite_list(stdout) ? EXIT_BAD_ARGS : EXIT_OK;
	if (run->suite && (run->probe || run->fio)) {
		fprintf(stderr, "rebench: --suite runs its own list of tests; %s does not combine with it: run the test you want alone with it\n",
			run->probe ? "--probe" : "--fio");
		return EXIT_BAD_ARGS;
	}
	if (run->fio && (run->probe || run->json || run->silent || run->plot)) {
		fprintf(stderr, "rebench: --fio prints an fio job file and runs nothing, so %s has no meaning with it; drop one of the two\n",
			run->probe ? "--probe" : run->json ? "--json" :
			run->silent ? "-n/--silent" : "--plot");
		return EXIT_BAD_ARGS;
	}
	if (run->probe)
		return probe_only(base, run, sw);
	return -1;
}

/* The workloads: the TARGET of the command line, else one per stdin line;
 * 0 or -errno after a message. */
static int load_workloads(struct run_ctx *ctx, struct spec *base)
{
	if (!spec_given(base, "seed"))
		base->seed = random_seed();
	const char *what = NULL;

	if (base->target && stdin_holds_data(&what)) {
		/* stdin lines run only without a TARGET: refuse rather than
		 * leave workloads silently unrun */
		fprintf(stderr, "rebench: stdin is %s holding data, and a TARGET (%s) is given on the command line: workload lines on stdin are read only when the command line has no TARGET, so they would be ignored; give the TARGET on each stdin line (options on the command line are defaults for every line), or redirect stdin from /dev/null\n",
			what, base->target);
		return -EINVAL;
	}
	if (base->target)
		return add_workload(ctx, base);
	if (isatty(STDIN_FILENO)) {
		fprintf(stderr, "rebench: missing target: give a block device, partition or file (rebench /dev/sdb), or pipe one workload per line into stdin; see rebench --help\n");
		return -EINVAL;
	}
	return read_stdin_specs(ctx, base);
}

/* Checked workloads, run together (and again with --repeat): confirmed,
 * run, reported, plotted; the exit status. */
static int run_single(struct run_ctx *ctx, struct spec *base,
		      const struct run_opts *run)
{
	struct report rep;
	bool interrupted = false, io_failed;
	int ret, status;

	/* the live line: only for a person watching, never with -n */
	progress_enable(ctx, isatty(STDERR_FILENO) && !run->silent);
	ret = confirm_destructive(ctx->wls, ctx->n, run->yes || run->silent);
	if (ret)
		return confirm_exit_status(ret);
	if (run->steady_state)
		status = steady_runs(ctx, run, base, &interrupted);
	else
		status = repeat_runs(ctx, run, run->repeat > 1 ? run->repeat : 1,
				     repeat_rebuild_same, base, &interrupted);
	if (status != EXIT_OK && status != EXIT_IO_FAILED)
		return status;
	io_failed = status == EXIT_IO_FAILED;	/* report what ran */
	status = EXIT_OK;
	run_ctx_report(ctx, interrupted, 0, &rep);
	if (report_once(run, &rep))
		status = EXIT_OUTPUT_FAILED;
	if (run->plot && status == EXIT_OK && !interrupted && !io_failed)
		status = plot_series(ctx, run);
	if (io_failed)
		return EXIT_IO_FAILED;
	return interrupted && status == EXIT_OK ? EXIT_INTERRUPTED : status;
}

/* Loaded workloads to their end: a sweep, an fio job file, or a run. */
static int run_loaded(struct run_ctx *ctx, struct spec *base,
		      const struct run_opts *run, const struct sweep *sw,
		      int argc, char **argv)
{
	int ret = 0;

	if (sw->naxes && run->fio) {
		fprintf(stderr, "rebench: --fio: sweeps (ranges and lists of values) have no fio job file yet; give one value per option to get the job of one point\n");
		return EXIT_BAD_ARGS;
	}
	if (run->plot_metric != PLOT_METRIC_AUTO && !run->plot) {
		fprintf(stderr, "rebench: --plot-metric chooses what --plot draws; add --plot FILE.png, or drop --plot-metric\n");
		return EXIT_BAD_ARGS;
	}
	if (run->plot && plot_check_path(ctx, run->plot))
		return EXIT_BAD_ARGS;
	for (size_t k = 0; k < ctx->n; k++)
		if (precision_check_spec(&ctx->wls[k].spec, run))
			return EXIT_BAD_ARGS;
	if (steady_check(ctx, run, sw->naxes > 0) ||
	    precondition_check(ctx->wls, ctx->n, run))
		return EXIT_BAD_ARGS;
	if (run->order && !sw->naxes) {
		fprintf(stderr, "rebench: --order orders a sweep's points, and this run sweeps nothing; drop --order, or give an option a range or a list (-b 4k,64k)\n");
		return EXIT_BAD_ARGS;
	}
	if (sw->naxes)
		return sweep_run_loaded(ctx, sw, base, run, base->output,
					run->plot);
	if (run->plot)
		ret = plan_series_for_plot(ctx, run->plot_metric);
	if (!ret && run->repeat > 1)
		ret = repeat_begin(ctx, run->repeat);
	if (!ret && run->steady_state)	/* the rounds are built alike */
		ret = repeat_begin(ctx, run->max_rounds);
	if (ret || validate_all(ctx, base))
		return EXIT_BAD_ARGS;
	if (run->dry_run) {
		ret = confirm_check(ctx->wls, ctx->n, run->yes || run->silent);
		return ret ? confirm_exit_status(ret) :
		       dry_run_report(ctx->wls, ctx->n, 1, false, run);
	}
	/* --fio: every workload is resolved against its target; nothing is
	 * confirmed, created or run */
	if (run->fio) {
		ret = fio_job_write(stdout, ctx->wls, ctx->n, run, argc, argv);
		/* a mix fio has no form for is a bad argument */
		return ret == -EINVAL ? EXIT_BAD_ARGS : ret ? EXIT_PREP_FAILED : EXIT_OK;
	}
	return run_single(ctx, base, run);
}

/* After the workloads, on every exit: what the run made goes. */
static void clean_up(struct run_ctx *ctx, int status)
{
	remove_temp_series(ctx);
	cleanup_all(ctx);
	repeat_free(ctx);
	steady_free(ctx);
	run_ctx_free(ctx);
	/* a fault removes the files this run created; a complete run keeps
	 * them for the next */
	workload_remove_created(status == EXIT_PREP_FAILED ||
				status == EXIT_IO_FAILED ||
				status == EXIT_INTERRUPTED);
}

/* The modes that run workloads: --advise, --suite, and workloads from the
 * command line or stdin (a sweep, --repeat ...), in one run context. */
static int run_workload_modes(struct spec *base, struct run_opts *run,
			      struct sweep *sweep, int argc, char **argv)
{
	struct run_ctx *ctx = run_ctx_new();
	int status;

	if (!ctx)
		return EXIT_PREP_FAILED;
	/* what follows each run from its main thread: the live line, then
	 * --precision's judgement (which may end it) */
	if (progress_watch(ctx) || precision_watch(ctx)) {
		run_ctx_free(ctx);
		return EXIT_PREP_FAILED;
	}
	status = ready_watch(ctx, run);
	if (status) {
		run_ctx_free(ctx);
		return status == -EINVAL ? EXIT_BAD_ARGS : EXIT_PREP_FAILED;
	}
	ctx->env.start_at = runinfo_start_at();	/* --start-at */
	if ((run->advise || run->characterize || run->suite) &&
	    fileset_wanted(base)) {
		/* they build runs of their own on one TARGET */
		fprintf(stderr, "rebench: --%s runs on one TARGET, and this command line names many files (%s); give it one file or device\n",
			run->advise ? "advise" : run->characterize ? "characterize" : "suite",
			base->directory ? "--directory" : "several TARGETs");
		run_ctx_free(ctx);
		return EXIT_BAD_ARGS;
	}
	if (run->advise)
		status = advise_main(ctx, base, run, sweep);
	else if (run->characterize)
		status = characterize_main(ctx, base, run, sweep);
	else if (run->latency_target)
		status = latency_target_main(ctx, base, run, sweep);
	else if (run->suite)
		status = suite_main(ctx, base, run, sweep->naxes > 0);
	else
		status = load_workloads(ctx, base) ? EXIT_BAD_ARGS :
			 run_loaded(ctx, base, run, sweep, argc, argv);
	clean_up(ctx, status);
	return status;
}

/* A stop signal that ended the reading of an input or the checks before
 * a run makes them fail: that is an interruption (130), not bad input. */
static int stopped_status(int status)
{
	if ((status == EXIT_BAD_ARGS || status == EXIT_PREP_FAILED) &&
	    signals_stop_requested())
		return EXIT_INTERRUPTED;
	return status;
}

int main(int argc, char **argv)
{
	struct sweep sweep = { 0 };
	struct parse_ctx pctx = { 0, "command line", &sweep, &sweep_range_hooks };
	struct argv_map amap = { argc > 1 ? argc - 1 : 0, NULL, NULL };
	struct run_opts run = { 0 };
	struct spec base;
	char err[256], **args;
	bool command;
	int status;

	runinfo_start(argc, argv);	/* as the user typed it */
	signals_init();
	/* a mode as the first word is its option: rebench probe X is
	 * rebench --probe X (modes.h) */
	args = calloc((size_t)argc + 1, sizeof(*args));
	if (!args) {
		fprintf(stderr, "rebench: out of memory\n");
		return EXIT_PREP_FAILED;
	}
	argc = mode_as_options(argc, argv, args);
	argv = args;
	status = mode_run_own(argc, argv, &command);
	if (status >= 0) {
		free(args);
		return command ? status : stopped_status(status);
	}
	if (engine_registry_check(err, sizeof(err))) {
		fprintf(stderr, "rebench: internal error: %s\n", err);
		free(args);
		return EXIT_PREP_FAILED;
	}
	spec_defaults(&base);
	/* what each word was, for --hosts to pass the workloads on */
	amap.role = calloc((size_t)argc, sizeof(*amap.role));
	amap.opt = calloc((size_t)argc, sizeof(*amap.opt));
	pctx.map = amap.role && amap.opt ? &amap : NULL;
	if (options_parse(argc - 1, argv + 1, &base, &run, &pctx)) {
		spec_free(&base);
		free(amap.role);
		free(amap.opt);
		free(args);
		return EXIT_BAD_ARGS;
	}
	units_set(run.units);
	/* --advise and --hosts refuse --probe, --fio and --suite themselves */
	status = (run.advise || run.hosts || run.hosts_file) && !run.help &&
		 !run.version ? -1 : info_only(&base, &run, &sweep);
	if (status < 0 && (advise_check_unused(&run) ||
			   characterize_check_unused(&run) ||
			   hosts_remote_setup(&run)))
		status = EXIT_BAD_ARGS;
	if (status < 0 && (precision_setup(&base, &run) ||
			   steady_setup(&base, &run)))
		status = EXIT_BAD_ARGS;
	if (status < 0 && (run.hosts || run.hosts_file) &&
	    fileset_wanted(&base)) {
		/* each host is sent one TARGET */
		fprintf(stderr, "rebench: --hosts with many files (%s): not supported yet, each host is given one TARGET; run rebench with the files on each host, or give one file or device\n",
			base.directory ? "--directory" : "several TARGETs");
		status = EXIT_BAD_ARGS;
	} else if (status < 0 && (run.hosts || run.hosts_file)) {
		status = hosts_main(&base, &run, &sweep, argc, argv, &amap);
	} else if (status < 0) {
		status = run_workload_modes(&base, &run, &sweep, argc, argv);
	}
	spec_free(&base);
	sweep_free(&sweep);
	run_opts_free(&run);
	free(amap.role);
	free(amap.opt);
	free(args);
	runinfo_free();
	if (outpath_finish_stdout() && status == EXIT_OK)
		status = EXIT_OUTPUT_FAILED;
	return stopped_status(status);
}
