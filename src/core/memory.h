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
 *
 * What a mode loads before its run grows with its input and is counted as
 * it grows too: a log's operations (a replay), its table of file names and
 * the tables of --trace-stats and --trace-to.  A log that would pass the
 * budget is refused while it is read (memory_refuse_log()), before any
 * I/O, and what a loaded log holds counts in memory_check()'s total.
 */
#ifndef REBENCH_MEMORY_H
#define REBENCH_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


/* The budget in bytes (read once). */
uint64_t memory_budget(void);
/* "5.8 GiB (half of the 11.6 GiB available)": for messages. */
const char *memory_budget_text(void);

/* Hot path, once per series doubling or 2 MiB log chunk: account bytes;
 * false (and nothing taken) when that would pass the budget. */
bool memory_take(uint64_t bytes);
void memory_give(uint64_t bytes);

/* The same, counting what one table holds in *held (given back whole
 * with memory_give(*held)). */
bool memory_take_held(uint64_t *held, uint64_t bytes);
void memory_give_held(uint64_t *held, uint64_t bytes);

/* A table of old_bytes at p grown to new_bytes, the growth counted in
 * *held: the new block, or NULL with *err -E2BIG (past the budget) or
 * -ENOMEM, p untouched and nothing counted. */
void *memory_realloc(void *p, size_t old_bytes, size_t new_bytes,
		     uint64_t *held, int *err);

/* Bytes taken and not given back: what is held now. */
uint64_t memory_held(void);

/* The refusal of a log whose loading would pass the budget, in buf:
 * "LOG: at line N the log needs more than rebench's memory budget of ...
 * (what: held so far) ...; how to proceed".  -E2BIG, for the caller to
 * return. */
int memory_refuse_log(char *buf, size_t len, const char *log,
		      unsigned long line, const char *what);

#endif
