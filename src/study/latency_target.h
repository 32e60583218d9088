/* latency_target.h - --latency-target pNN<BOUND: the highest --rate whose
 * latency from the intended start (rate.h) keeps its pNN within BOUND,
 * found by search, each step a run of the command line's workload
 * (rebench(1), --latency-target).
 *
 * Step 0 runs the workload without a rate (as fast as it goes, X ops/s):
 * no schedule can be kept above X.  Then from X the rate halves while the
 * target is missed (down to X/256: the steps at high rates, which hold
 * the most I/Os, first), and the bracket found (the first rate that held,
 * the last that did not) is halved 4 times.  A step holds when its
 * rate was met (rate.h) and the pNN of its latency from the intended
 * start is within BOUND.  Each step lasts -d (2 s when -d is not given).
 */
#ifndef REBENCH_LATENCY_TARGET_H
#define REBENCH_LATENCY_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct run_ctx;
struct run_opts;
struct spec;
struct sweep;

struct latency_target {
	double pct;		/* the percentile, in (0, 100) */
	uint64_t bound_ns;	/* the bound, > 0 */
};

/* "p99<2ms", "p99.9<500us" (units ns, us, ms, s; a unit is required):
 * 0, or -EINVAL with err saying what and how to fix. */
int latency_target_parse(const char *text, struct latency_target *t,
			 char *err, size_t len);

/* --latency-target's mode: EXIT_OK (a rate found or not: the output
 * says), or the status of a refusal or a failed run. */
int latency_target_main(struct run_ctx *ctx, struct spec *base,
			struct run_opts *run, struct sweep *sw);

#endif
