/* repeat_run.h - --repeat over the workloads of a run context. */
#ifndef REBENCH_REPEAT_RUN_H
#define REBENCH_REPEAT_RUN_H

#include <stddef.h>

#include "core/plan.h"
#include "core/spec.h"

/* Before the first run, after parsing: keep each workload's spec as given
 * (to build the next runs from) and room for runs figures. */
int repeat_begin(struct run_ctx *ctx, size_t runs);
/* After a complete run: its figures. */
void repeat_record(const struct run_ctx *ctx);
/* Before run r > 0 of a single run or stdin set: the same workloads again. */
int repeat_rebuild(struct run_ctx *ctx, size_t r, const struct spec *base);
/* repeat_rebuild() as repeat_runs() calls it (base: the struct spec of
 * the command line): EXIT_OK, or EXIT_PREP_FAILED. */
int repeat_rebuild_same(struct run_ctx *ctx, size_t r, void *base);
/* After the last run: statistics attached to the workloads, and the CV
 * warning.  complete (every run was): each block shows its median run by
 * ops/s, the total's block the run of the median total ops/s, each block
 * on its own (repeat_run.c); else the run that ended the runs. */
void repeat_finish(struct run_ctx *ctx, bool complete);
/* What repeat_begin() took goes (ctx->repeat NULL after). */
void repeat_free(struct run_ctx *ctx);

/*
 * The prepare-and-run step every driver composes: run the workloads of ctx
 * runs times (--repeat N, else 1).  Before each run after the first,
 * rebuild(ctx, r, arg) makes the workloads of run r (0, or the exit status
 * to stop with).  Each complete run is recorded (after repeat_begin() when
 * runs > 1); an incomplete one (a failed I/O, a signal) ends the runs and
 * is not counted.  The statistics are attached when the runs ended with
 * results.  Returns EXIT_OK or EXIT_IO_FAILED (the results are kept), or
 * the status that stopped the runs.
 */
int repeat_runs(struct run_ctx *ctx, const struct run_opts *run, size_t runs,
		int (*rebuild)(struct run_ctx *ctx, size_t r, void *arg),
		void *arg, bool *interrupted);

#endif
