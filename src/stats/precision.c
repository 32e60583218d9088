/* precision.c - --precision: the checks before a run, the judgement during
 * it, and the verdict after (precision.h). */
#include "stats/precision.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/options.h"
#include "core/plan.h"
#include "core/spec.h"
#include "core/validate.h"
#include "core/workload.h"

int precision_setup(struct spec *base, struct run_opts *run)
{
	bool prec = run_given(run, "precision");

	if (!prec) {
		/* --characterize's time budget is its own */
		if (run_given(run, "max-duration") && !run->characterize) {
			fprintf(stderr, "rebench: --max-duration is the limit of --precision (or the time budget of --characterize); add --precision PCT, or give a fixed duration with -d\n");
			return -EINVAL;
		}
		return 0;
	}
	if (run->suite) {
		fprintf(stderr, "rebench: --precision with --suite: a suite's tests have fixed durations; run the test you want to know precisely on its own with --precision\n");
		return -EINVAL;
	}
	if (run->repeat > 1) {
		fprintf(stderr, "rebench: --precision with --repeat: each run would stop at its own precision and the runs' spread would mix two methods; use --precision alone (batch means within the run) or --repeat alone (the spread over runs)\n");
		return -EINVAL;
	}
	if (spec_given(base, "duration")) {
		fprintf(stderr, "rebench: -d/--duration with --precision: the precision decides when a run ends; drop -d, and give its limit with --max-duration D\n");
		return -EINVAL;
	}
	if (spec_given(base, "sample-step") && !base->sample_ns) {
		fprintf(stderr, "rebench: -g 0 with --precision: the precision is judged over intervals, and -g 0 has none; drop -g 0, or give an interval (-g 100)\n");
		return -EINVAL;
	}
	if (run_given(run, "max-duration") && !run->max_duration_ns) {
		fprintf(stderr, "rebench: --max-duration 0: the limit of --precision must be a time; give e.g. --max-duration 30, or leave it out for %.0f s\n",
			(double)PRECISION_MAX_DURATION_NS / 1e9);
		return -EINVAL;
	}
	if (!run->max_duration_ns)
		run->max_duration_ns = PRECISION_MAX_DURATION_NS;
	if (!spec_given(base, "sample-step"))
		base->sample_ns = PRECISION_STEP_NS;
	if (run->max_duration_ns < PRECISION_MIN_INTERVALS * base->sample_ns) {
		fprintf(stderr, "rebench: --max-duration %.3g s is shorter than the %d intervals of %.3g s (-g) before --precision judges a run; give at least --max-duration %.3g, or a shorter -g\n",
			(double)run->max_duration_ns / 1e9, PRECISION_MIN_INTERVALS,
			(double)base->sample_ns / 1e9,
			(double)(PRECISION_MIN_INTERVALS * base->sample_ns) / 1e9);
		return -EINVAL;
	}
	base->duration = (struct amount){ .kind = AMOUNT_TIME,
					  .value = run->max_duration_ns };
	return 0;
}

int precision_check_spec(const struct spec *s, const struct run_opts *run)
{
	if (!run_given(run, "precision") || !s->line)
		return 0;	/* the command line's: checked by setup */
	if (spec_given(s, "duration")) {
		spec_error(s, "-d/--duration with --precision: the precision decides when a run ends; drop -d from the line, and give the limit with --max-duration D on the command line");
		return -EINVAL;
	}
	if (s->sample_ns < 1 ||
	    run->max_duration_ns < PRECISION_MIN_INTERVALS * s->sample_ns) {
		spec_error(s, "-g %.0f ms with --precision: it needs %d intervals within --max-duration %.3g s; give a shorter -g on the line, or a longer --max-duration",
			   (double)s->sample_ns / 1e6, PRECISION_MIN_INTERVALS,
			   (double)run->max_duration_ns / 1e9);
		return -EINVAL;
	}
	return 0;
}

/* ----------------------------------------------- during the run (main) */

/* The judgement of one run, per workload. */
struct precision_run {
	double *series[MAX_WORKLOADS];	/* ops/s per interval */
	size_t judged[MAX_WORKLOADS];	/* intervals summed so far */
};

static void precision_end(struct precision_run *pr);

/* Room for the series before the threads start. */
static int precision_begin(struct precision_run *pr, struct workload *wls,
			   size_t n)
{
	size_t k;

	for (k = 0; k < n && k < MAX_WORKLOADS; k++) {
		const struct spec *s = &wls[k].spec;

		pr->judged[k] = 0;
		if (!wls[k].precision_pct)
			continue;
		/* the intervals thread_stats_init() sized for (its + 4) */
		pr->series[k] = calloc(s->time_limit_ns / s->sample_ns + 4,
				       sizeof(double));
		if (!pr->series[k]) {
			precision_end(pr);
			return -ENOMEM;
		}
	}
	return 0;
}

/* Sum the threads' counts of the intervals [judged, upto) of workload k.
 * The workers add to these counters without locks; an interval's counts
 * stop changing once every thread has passed its end, which the caller's
 * margin of one interval covers (a relaxed read: a count, not a pointer,
 * and the arrays were sized before the run so they never move while it
 * can read them). */
static void gather(struct precision_run *pr, struct workload *wl, size_t k,
		   size_t upto)
{
	double per_s = 1e9 / (double)wl->spec.sample_ns;
	size_t i;
	unsigned t;

	for (i = pr->judged[k]; i < upto; i++) {
		uint64_t ops = 0;

		for (t = 0; t < wl->spec.threads; t++)
			ops += __atomic_load_n(&wl->run.workers[t].st.iv[i].ops,
					       __ATOMIC_RELAXED);
		pr->series[k][i] = (double)ops * per_s;
	}
	pr->judged[k] = upto;
}

/* Every workload with precision_pct has its half-width within it. */
static bool precision_due(struct precision_run *pr, struct workload *wls,
			  size_t n, uint64_t elapsed_ns)
{
	bool due = false;
	size_t k;

	for (k = 0; k < n && k < MAX_WORKLOADS; k++) {
		const struct spec *s = &wls[k].spec;
		uint64_t step = s->sample_ns;
		size_t done;
		struct ci c;

		if (!wls[k].precision_pct)
			continue;
		/* never in the last intervals before the deadline, where a
		 * late I/O may grow (move) a thread's series */
		if (elapsed_ns + 2 * step >= s->time_limit_ns)
			return false;
		done = elapsed_ns / step;
		done = done ? done - 1 : 0;	/* a margin of one interval */
		if (done < PRECISION_MIN_INTERVALS)
			return false;
		gather(pr, &wls[k], k, done);
		ci_batch_means(pr->series[k], done, &c);
		if (!c.known || !(c.half_pct <= wls[k].precision_pct))
			return false;
		due = true;
	}
	/* the run stops on these intervals: the interval reported is
	 * theirs, not reshuffled by the one or two that end meanwhile */
	for (k = 0; due && k < n && k < MAX_WORKLOADS; k++)
		if (wls[k].precision_pct)
			wls[k].result.ci_upto = pr->judged[k];
	return due;
}

static void precision_end(struct precision_run *pr)
{
	size_t k;

	for (k = 0; k < MAX_WORKLOADS; k++) {
		free(pr->series[k]);
		pr->series[k] = NULL;
	}
}

/* ------------------------------------------------------------ after it */

enum precision_verdict precision_judge(const struct workload *wl,
				       struct ci *c)
{
	ci_of_result(wl->result.stats, wl->result.ci_upto, c);
	if (!(wl->precision_pct > 0))
		return PRECISION_NONE;
	return c->known && c->half_pct <= wl->precision_pct ?
	       PRECISION_REACHED : PRECISION_NOT_REACHED;
}

const char *precision_name(enum precision_verdict v)
{
	switch (v) {
	case PRECISION_REACHED:
		return "reached";
	case PRECISION_NOT_REACHED:
		return "not-reached";
	default:
		return "-";
	}
}

static int precision_watch_prepare(void *arg, struct workload *wls, size_t n)
{
	return precision_begin(arg, wls, n);
}

static bool precision_watch_tick(void *arg, struct workload *wls, size_t n,
				 uint64_t now, uint64_t elapsed, bool stopping)
{
	(void)now;
	return !stopping && precision_due(arg, wls, n, elapsed);
}

static void precision_watch_end(void *arg)
{
	precision_end(arg);
}

static const struct run_watcher precision_watcher = {
	.prepare = precision_watch_prepare,
	.tick = precision_watch_tick,
	.end = precision_watch_end,
	.release = free,
};

int precision_watch(struct run_ctx *ctx)
{
	return run_watch_new(&ctx->env.watch, &precision_watcher,
			     sizeof(struct precision_run), "--precision") ?
	       0 : -ENOMEM;
}
