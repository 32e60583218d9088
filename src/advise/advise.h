/* advise.h - --advise: a decision from IOPS per block size, measured by a
 * block-size sweep on TARGET or read from a sweep table (--from).  The
 * models: btree (advise_btree.h). */
#ifndef REBENCH_ADVISE_H
#define REBENCH_ADVISE_H

#include "core/plan.h"
#include "core/spec.h"
#include "core/sweep.h"

/* An advisor's option given without --advise: refused; 0 or -EINVAL after
 * a message. */
int advise_check_unused(const struct run_opts *run);

/* The whole --advise run, after the command line was parsed: checks, the
 * sweep (unless --from), the model, the outputs.  Returns the exit
 * status. */
int advise_main(struct run_ctx *ctx, struct spec *base, struct run_opts *run,
		struct sweep *sw);

#endif
