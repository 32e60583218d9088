/* steady_run.h - --steady-state: a run's workloads in rounds until the
 * SNIA steady state (steady.h) holds for every writing workload, or
 * --max-rounds.  Round r (from 0) is the workloads again with their first
 * seeds + r, as --repeat builds its runs; --precondition writes before
 * the first round only. */
#ifndef REBENCH_STEADY_RUN_H
#define REBENCH_STEADY_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "core/plan.h"
#include "stats/steady.h"

/* One round of one workload. */
struct steady_round {
	double ops, mbs, p99;	/* ops/s, MB/s, p99 latency in us */
};

/* A workload's rounds and its verdict, attached as wl->steady. */
struct steady_data {
	size_t rounds;
	struct steady_round *r;
	struct steady_verdict v;
	double round_s;
	size_t max_rounds;
};

/* After parsing: --steady-state, --round and --max-rounds against each
 * other and -d/-g/--repeat/--precision/--suite, and base given a round
 * as its duration.  0, or -EINVAL after a message. */
int steady_setup(struct spec *base, struct run_opts *run);
/* The workloads loaded (no sweep, each one writes, no -d of a line's
 * own); 0 or -EINVAL after a message. */
int steady_check(const struct run_ctx *ctx, const struct run_opts *run,
		 bool sweep);
/* The rounds; as repeat_runs() (repeat_begin() was called with
 * --max-rounds): EXIT_OK or EXIT_IO_FAILED with the rounds attached, or
 * the status that stopped them. */
int steady_runs(struct run_ctx *ctx, const struct run_opts *run,
		struct spec *base, bool *interrupted);
/* The rounds go (ctx->steady NULL after). */
void steady_free(struct run_ctx *ctx);

#endif
