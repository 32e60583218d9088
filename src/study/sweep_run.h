/* sweep_run.h - run every point of a sweep, in order, as its own
 * measurement, and write the table (and matrix, and plot). */
#ifndef REBENCH_SWEEP_RUN_H
#define REBENCH_SWEEP_RUN_H

#include <stddef.h>

#include "core/plan.h"
#include "core/spec.h"
#include "core/sweep.h"

#define SWEEP_CONFIRM_POINTS 100	/* more need --yes */

/*
 * ctx: the run context each point fills (empty before and after).
 * bases: the workloads as given (one, or one per stdin line), before the
 * sweep's values.  table: --output given on the command line (the table
 * goes there; else stdout), plot: --plot.  Returns the exit status.
 */
int sweep_run(struct run_ctx *ctx, const struct sweep *sw,
	      const struct spec *bases, size_t nbases,
	      const struct spec *base, const struct run_opts *run,
	      const char *table, const char *plot);

/* The loaded workloads of ctx (their specs as given) as the sweep's
 * bases: the sweep on copies of them. */
int sweep_run_loaded(struct run_ctx *ctx, const struct sweep *sw,
		     const struct spec *base, const struct run_opts *run,
		     const char *table, const char *plot);

#endif
