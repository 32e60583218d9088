/* fio_job.h - rebench --fio: the fio job file that does the same work as
 * the resolved workloads, for cross-checks against fio.  No I/O.
 */
#ifndef REBENCH_FIO_JOB_H
#define REBENCH_FIO_JOB_H

#include <stddef.h>
#include <stdio.h>

#include "core/spec.h"
#include "core/workload.h"

/*
 * Write one fio job file for the n workloads (resolved by validate_all())
 * to f: a [global] section with what they share and one [jobN] section
 * per workload (N: its stdin line, 1 on the command line), all started
 * together as rebench starts them.  run gives the run-wide options and
 * argv the command line for the header.  What fio cannot express is a
 * "# not expressible in fio: ..." comment in the job it concerns.
 * Returns 0, or -ENOMEM after printing the error; whether f could be
 * written is the caller's to find out (ferror, fclose).
 */
int fio_job_write(FILE *f, const struct workload *wls, size_t n,
		  const struct run_opts *run, int argc, char **argv);

#endif
