/* dry_run.h - --dry-run: every workload (every sweep point) checked
 * against its target exactly as a run checks it, then what would run and
 * whether it writes, in the run's format; nothing is confirmed, created or
 * run.  --hosts asks every host for it before any host starts. */
#ifndef REBENCH_DRY_RUN_H
#define REBENCH_DRY_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "core/spec.h"
#include "core/workload.h"

/* The report of the checked workloads wls (a sweep's first point when
 * points > 1; destroys: some point writes or trims).  EXIT_OK, or
 * EXIT_OUTPUT_FAILED when standard output failed. */
int dry_run_report(const struct workload *wls, size_t n, size_t points,
		   bool destroys, const struct run_opts *run);

#endif
