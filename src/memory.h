/* memory.h - rebench's memory budget.
 *
 * What a run needs grows with threads x intervals (-g) x duration, with
 * -q x -b per thread, and with every I/O of a -g 0 log; -c 64 -g 1ms -d 1h
 * needs gigabytes.  The budget is half of MemAvailable (/proc/meminfo) when
 * rebench starts, or REBENCH_MEMORY_BUDGET (a size such as 512m).  A run
 * whose estimate exceeds it is refused before anything runs; what cannot be
 * estimated (a time-limited -g 0 log, the series of a byte-limited run) is
 * counted as it grows, and a thread that would pass the budget stops the
 * run with its results so far instead of failing an allocation.
 */
#ifndef REBENCH_MEMORY_H
#define REBENCH_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct workload;

/* The budget in bytes (read once). */
uint64_t memory_budget(void);
/* "5.8 GiB (half of the 11.6 GiB available)": for messages. */
const char *memory_budget_text(void);

/* What one workload needs before its run starts, in bytes: buffers, the
 * time series sized for a timed run, and a byte-limited run's -g 0 log. */
uint64_t memory_estimate(const struct workload *wl);

/* Refuse a set of workloads whose estimate exceeds the budget: 0, or
 * -E2BIG after a message that names the biggest part and how to shrink it. */
int memory_check(const struct workload *wls, size_t n);

/* Hot path, once per series doubling or 2 MiB log chunk: account bytes;
 * false (and nothing taken) when that would pass the budget. */
bool memory_take(uint64_t bytes);
void memory_give(uint64_t bytes);

#endif
