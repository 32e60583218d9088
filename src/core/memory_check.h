/* memory_check.h - a run's workloads sized against the memory budget
 * (memory.h), before the run. */
#ifndef REBENCH_MEMORY_CHECK_H
#define REBENCH_MEMORY_CHECK_H

#include <stddef.h>
#include <stdint.h>

struct workload;

/* What one workload needs before its run starts, in bytes: buffers, the
 * time series sized for a timed run, and a byte-limited run's -g 0 log. */
uint64_t memory_estimate(const struct workload *wl);

/* Refuse a set of workloads whose estimate, with what is held already (a
 * loaded log), exceeds the budget: 0, or -E2BIG after a message that names
 * the biggest part and how to shrink it. */
int memory_check(const struct workload *wls, size_t n);

#endif
