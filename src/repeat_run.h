/* repeat_run.h - --repeat over the workloads of a run context. */
#ifndef REBENCH_REPEAT_RUN_H
#define REBENCH_REPEAT_RUN_H

#include <stddef.h>

#include "plan.h"
#include "spec.h"

/* Before the first run, after parsing: keep each workload's spec as given
 * (to build the next runs from) and room for runs figures. */
int repeat_begin(const struct run_ctx *ctx, size_t runs);
/* After a complete run: its figures. */
void repeat_record(const struct run_ctx *ctx);
/* Before run r > 0 of a single run or stdin set: the same workloads again. */
int repeat_rebuild(struct run_ctx *ctx, size_t r, const struct spec *base);
/* After the last run: statistics attached to the workloads, and the CV
 * warning. */
void repeat_finish(struct run_ctx *ctx);
void repeat_free(void);

#endif
