/* steady_run.c - the rounds of --steady-state (steady_run.h). */
#include "stats/steady_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "stats/progress.h"
#include "stats/repeat_run.h"
#include "report/report.h"
#include "core/validate.h"
#include "report/summary.h"

int steady_setup(struct spec *base, struct run_opts *run)
{
	uint64_t step;

	if (!run->steady_state) {
		if (run_given(run, "round") || run_given(run, "max-rounds")) {
			fprintf(stderr, "rebench: --round and --max-rounds shape the rounds of --steady-state; add --steady-state, or drop them\n");
			return -EINVAL;
		}
		return 0;
	}
	if (run_given(run, "precision") || run->repeat > 1 || run->suite) {
		fprintf(stderr, "rebench: --steady-state with %s: the rounds are its own repetition; use --steady-state alone\n",
			run->suite ? "--suite" : run->repeat > 1 ? "--repeat" :
			"--precision");
		return -EINVAL;
	}
	if (spec_given(base, "duration")) {
		fprintf(stderr, "rebench: -d/--duration with --steady-state: the rounds decide the duration; give a round's length with --round D\n");
		return -EINVAL;
	}
	if (!run_given(run, "max-rounds"))
		run->max_rounds = STEADY_MAX_ROUNDS;
	if (run->max_rounds < STEADY_WINDOW) {
		fprintf(stderr, "rebench: --max-rounds %llu: the steady state is judged over the last %d rounds, so at least %d; give --max-rounds %d or more\n",
			(unsigned long long)run->max_rounds, STEADY_WINDOW,
			STEADY_WINDOW, STEADY_WINDOW);
		return -EINVAL;
	}
	if (!run_given(run, "round"))
		run->round_ns = STEADY_ROUND_NS;
	step = base->sample_ns ? base->sample_ns : 1000000000ULL;
	if (run->round_ns < 5 * step) {
		fprintf(stderr, "rebench: --round %.3g s is shorter than 5 intervals of %.3g s (-g): a round's ops/s would rest on too few; give a longer --round or a shorter -g\n",
			(double)run->round_ns / 1e9, (double)step / 1e9);
		return -EINVAL;
	}
	base->duration = (struct amount){ .kind = AMOUNT_TIME,
					  .value = run->round_ns };
	return 0;
}

int steady_check(const struct run_ctx *ctx, const struct run_opts *run,
		 bool sweep)
{
	size_t k;

	if (!run->steady_state)
		return 0;
	if (sweep) {
		fprintf(stderr, "rebench: --steady-state in a sweep: each point would run its own rounds, minutes each; run the point you want at steady state on its own\n");
		return -EINVAL;
	}
	for (k = 0; k < ctx->n; k++) {
		const struct spec *s = &ctx->wls[k].spec;

		if (!spec_is_destructive(s)) {
			spec_error(s, "--steady-state is for writes (an SSD settles as its spare blocks fill), and this workload only reads; give it -o write or a mix with writes, or measure reads after a --precondition run");
			return -EINVAL;
		}
		if (s->line && spec_given(s, "duration")) {
			spec_error(s, "-d/--duration with --steady-state: the rounds decide the duration; drop -d from the line and give --round D on the command line");
			return -EINVAL;
		}
	}
	return 0;
}

/* Round r's figures of every workload. */
static void record(struct run_ctx *ctx, size_t r)
{
	struct lat_summary l;
	size_t k;

	for (k = 0; k < ctx->n && k < ctx->steady_n; k++) {
		const struct workload *wl = &ctx->wls[k];
		struct steady_data *d = &ctx->steady[k];

		lat_summarize(wl->result.stats, &l);
		d->r[r] = (struct steady_round){ wl->result.stats->ops_per_s,
						 wl->result.stats->mb_per_s, l.p99 };
		d->rounds = r + 1;
	}
}

/* Is every workload steady over its rounds so far? */
static bool all_steady(struct run_ctx *ctx)
{
	double y[STEADY_WINDOW];
	size_t k, i;

	for (k = 0; k < ctx->steady_n; k++) {
		struct steady_data *d = &ctx->steady[k];

		if (d->rounds < STEADY_WINDOW)
			return false;
		for (i = 0; i < STEADY_WINDOW; i++)
			y[i] = d->r[d->rounds - STEADY_WINDOW + i].ops;
		steady_judge(y, STEADY_WINDOW, &d->v);
		/* the window's rounds, numbered in the whole run */
		d->v.first = d->rounds - STEADY_WINDOW + 1;
		d->v.last = d->rounds;
		if (!d->v.steady)
			return false;
	}
	return true;
}

/* A steady_data per workload of ctx, for max_rounds rounds of round_ns:
 * 0 or -ENOMEM. */
static int steady_alloc(struct run_ctx *ctx, const struct run_opts *run)
{
	size_t k;

	steady_free(ctx);
	ctx->steady = calloc(ctx->n ? ctx->n : 1, sizeof(*ctx->steady));
	if (!ctx->steady)
		return -ENOMEM;
	ctx->steady_n = ctx->n;
	for (k = 0; k < ctx->n; k++) {
		struct steady_data *d = &ctx->steady[k];

		d->r = calloc(run->max_rounds, sizeof(*d->r));
		if (!d->r)
			return -ENOMEM;
		d->round_s = (double)run->round_ns / 1e9;
		d->max_rounds = run->max_rounds;
	}
	return 0;
}

int steady_runs(struct run_ctx *ctx, const struct run_opts *run,
		struct spec *base, bool *interrupted)
{
	size_t r, k;
	int status = EXIT_OK;
	char line[96];

	if (steady_alloc(ctx, run))
		return EXIT_PREP_FAILED;
	for (r = 0; r < run->max_rounds; r++) {
		if (r) {
			status = repeat_rebuild_same(ctx, r, base);
			if (status)
				return status;
		}
		snprintf(line, sizeof(line), "[steady state: round %zu of at most %llu]",
			 r + 1, (unsigned long long)run->max_rounds);
		progress_context(ctx, line);
		status = prepare_and_run(ctx, run, interrupted);
		if (status != EXIT_OK || *interrupted)
			break;	/* an incomplete round is not counted */
		record(ctx, r);
		repeat_record(ctx);	/* the first seeds, for the next rounds */
		if (all_steady(ctx))
			break;
	}
	progress_context(ctx, NULL);
	if (status != EXIT_OK && status != EXIT_IO_FAILED)
		return status;
	all_steady(ctx);	/* the verdicts of the last window */
	for (k = 0; k < ctx->steady_n && k < ctx->n; k++)
		ctx->wls[k].result.steady = &ctx->steady[k];
	return status;
}

void steady_free(struct run_ctx *ctx)
{
	size_t k;

	for (k = 0; ctx->steady && k < ctx->steady_n; k++)
		free(ctx->steady[k].r);
	free(ctx->steady);
	ctx->steady = NULL;
	ctx->steady_n = 0;
}
