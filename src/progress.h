/* progress.h - the live progress line on stderr: elapsed / total, ops/s and
 * MB/s over the last second and p99 so far, one line per workload.  Read
 * from the main thread while workers run: counters are read with relaxed
 * atomic loads, and workers store them with relaxed atomic stores (plain
 * moves on x86 and arm64), so the hot loop pays nothing. */
#ifndef REBENCH_PROGRESS_H
#define REBENCH_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct workload;

/* Whether runs show the line: a terminal on stderr and not -n (main). */
void progress_enable(bool on);

void progress_begin(const struct workload *wls, size_t n, uint64_t start_ns);
/* From the main thread's wait loop; prints at most once a second. */
void progress_tick(uint64_t now_ns);
/* Erase the lines, so the report starts on a clean screen. */
void progress_end(void);

#endif
