/* precond_result.h - what --precondition wrote before a workload's run
 * (precondition.h), as the workload keeps it for the report: the record
 * apart from the code that fills it, so the workload includes only this. */
#ifndef REBENCH_PRECOND_RESULT_H
#define REBENCH_PRECOND_RESULT_H

#include <stdbool.h>
#include <stdint.h>

/* What it did for one workload's region (kept in struct workload). */
struct precond {
	bool done;
	uint64_t bytes;		/* PRECONDITION_PASSES x the region */
	double seconds;
};

#endif
