/* progress.h - the live progress lines on stderr: elapsed / total, ops/s and
 * MB/s over the last second and p99 so far, one line per workload, under a
 * sweep's line for the point that runs.  Read from the main thread while
 * workers run: counters are read with relaxed atomic loads, and workers
 * store them with relaxed atomic stores (plain moves on x86 and arm64), so
 * the hot loop pays nothing.
 *
 * The lines exist only while a run's workers run (progress_begin to
 * progress_end), when rebench prints nothing else: whatever is printed
 * before or after, on stdout or stderr, has the screen to itself.  Standard
 * output is flushed before a line is drawn, and no line is wider than the
 * terminal (a wrapped line could not be erased in place). */
#ifndef REBENCH_PROGRESS_H
#define REBENCH_PROGRESS_H

#include <stdbool.h>

struct run_ctx;

/* The progress line of ctx's runs: its state, watching each run (the
 * run loop's watcher, workload.h) until run_ctx_free().  0, or -ENOMEM
 * after a message. */
int progress_watch(struct run_ctx *ctx);

/* Whether ctx's runs show the line: a terminal on stderr and not -n
 * (main).  Without progress_watch(), these two do nothing. */
void progress_enable(const struct run_ctx *ctx, bool on);

/* The line above the workloads' in ctx's next runs (a sweep's point, its
 * values and the time left), or NULL for none.  Copied.
 *
 * A context line is drawn at once; when standard output is a pipe, only
 * after a fifth of a second, so that its reader has put the rows rebench
 * wrote on the terminal first (rebench ... | tee table.tsv).  The lines
 * are drawn at most once a second, and erased when the last thread is
 * done, so the report starts on a clean screen. */
void progress_context(const struct run_ctx *ctx, const char *text);

#endif
