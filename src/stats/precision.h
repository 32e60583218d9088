/* precision.h - --precision PCT: measure until the 95% interval of every
 * workload's ops/s (batch means, ci.h) is within +-PCT of its mean, or
 * until --max-duration.
 *
 * The run is timed by --max-duration (every workload's -d), in intervals
 * of -g (100 ms unless given).  While it runs, the main thread judges the
 * intervals every workload has finished: interval i counts once the clock
 * is past its end by one more interval (an I/O counts in the interval it
 * completed in, and is recorded a moment after), and only from
 * PRECISION_MIN_INTERVALS on, so that a lucky start does not end a run.
 * It stops the run when every workload's half-width is within PCT, and
 * the interval reported is that of the intervals it stopped on (ci_upto):
 * the one or two that end while the threads stop count in the totals but
 * would reshuffle the batches.  A run that reaches --max-duration first is
 * judged on all its intervals, and says it did not get there.
 */
#ifndef REBENCH_PRECISION_H
#define REBENCH_PRECISION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/ci.h"

#define PRECISION_MIN_INTERVALS 20	/* 2 s at the default 100 ms */
#define PRECISION_STEP_NS 100000000ULL	/* -g when not given: 100 ms */
#define PRECISION_MAX_DURATION_NS (60ULL * 1000000000ULL)

struct run_ctx;
struct spec;
struct run_opts;
struct workload;
struct result;

/* After parsing, before the workloads are read: --precision and
 * --max-duration checked against each other and -d/-g of the command
 * line, and base given --max-duration as its duration and 100 ms
 * intervals (unless -g was given).  0, or -EINVAL after a message. */
int precision_setup(struct spec *base, struct run_opts *run);
/* Each workload loaded (a stdin line, a sweep's base): no -d of its own,
 * and -g not 0.  0, or -EINVAL after a message naming the line. */
int precision_check_spec(const struct spec *s, const struct run_opts *run);

/* The main thread during a run of n workloads (run.c): room for their
 * series before the threads start, a judgement per tick, then free; a
 * watcher of ctx's runs (workload.h), its state allocated until
 * run_ctx_free().  Its tick ends a run when every workload with
 * precision_pct has its half-width within it.  0, or -ENOMEM after a
 * message. */
int precision_watch(struct run_ctx *ctx);

enum precision_verdict {
	PRECISION_NONE,		/* not asked */
	PRECISION_REACHED,
	PRECISION_NOT_REACHED,
};

/* A workload's interval (of the intervals --precision stopped on, when it
 * did) and, when it was asked for a precision, whether it was reached. */
enum precision_verdict precision_judge(const struct workload *wl,
				       struct ci *c);
/* "reached", "not-reached", "-". */
const char *precision_name(enum precision_verdict v);

#endif
