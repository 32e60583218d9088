/* precondition.h - --precondition: before the measured run, each writing
 * workload's region is written sequentially twice in 128 KiB blocks, the
 * workload-independent preconditioning of the SNIA Solid State Storage
 * Performance Test Specification, so that an SSD is measured with its
 * spare blocks in use, not fresh.  The data is incompressible (a PRNG),
 * the writes O_DIRECT where the target takes it (else buffered, then
 * fsync).  Once per rebench run, before its first measured run (a round, a
 * --repeat run or a sweep point does not precondition again); a region
 * several workloads share is written once.  It writes only targets whose
 * workloads write, so it is confirmed and checked as their writes are.
 */
#ifndef REBENCH_PRECONDITION_H
#define REBENCH_PRECONDITION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/precond_result.h"
#include "core/workload.h"

#define PRECONDITION_BLOCK (128 * 1024)
#define PRECONDITION_PASSES 2

struct workload;
struct run_opts;

/* What the first run wrote, for the later ones (in the run context). */
struct precond_memo {
	bool ran;
	struct precond done[MAX_WORKLOADS];	/* by workload index */
};

/* Before any I/O: every workload writes (0), or -EINVAL after a message. */
int precondition_check(const struct workload *wls, size_t n,
		       const struct run_opts *run);
/* The prepared workloads of the first run: write their regions; later
 * runs get the same record.  0, -EINTR when a signal stopped it, or -EIO
 * after a message. */
int precondition_run(struct precond_memo *m, struct workload *wls, size_t n,
		     const struct run_opts *run);

#endif
