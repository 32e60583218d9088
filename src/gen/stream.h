/* stream.h - where a worker's I/Os come from: each is (operation, offset,
 * size), flushes have neither offset nor size.
 *
 * A source is a table of hooks (stream_ops); the run loop only calls
 * stream_next() (and start() once) and never asks which source it has.
 * The synthetic source (stream_synth.c) is the generator: the offset
 * pattern and its distribution, the operation mix and the size mix; a
 * recorded log (stream_trace.c) is the other, for --replay.  next() is on
 * the hot path: no allocation, no system call, no lock (a timed replay's
 * wait for an operation's time is the one exception, and the point).
 */
#ifndef REBENCH_STREAM_H
#define REBENCH_STREAM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/iokind.h"
#include "gen/mix.h"
#include "gen/pattern.h"
#include "gen/prng.h"

struct io_req {
	uint64_t off;		/* a sync_file_range: its range's start */
	uint32_t len;		/* 0 for a flush */
	int kind;		/* enum io_kind */
	uint32_t span;		/* a sync_file_range: its range's length, 0
				 * for "to the end of the file"; else 0 */
};

struct io_stream;
struct stream_trace;
struct trace_op;

struct stream_ops {
	const char *name;
	/* The next I/O in *r, every field set; false when the stream has
	 * ended, or (s->error set) cannot go on: the run loop then fails
	 * the worker, which stops the run. */
	bool (*next)(struct io_stream *s, struct io_req *r);
	/* Forget what was counted (after --warmup); the stream goes on. */
	void (*reset_counts)(struct io_stream *s);
	/* Optional: the measured run starts at start_ns (CLOCK_MONOTONIC);
	 * stop is the run's stop flag, also a futex word woken when it is
	 * set, for a stream that waits (a timed replay).  Called once in the
	 * worker's thread, before its first next(). */
	void (*start)(struct io_stream *s, uint64_t start_ns,
		      const atomic_int *stop);
	/* Optional: after next() set s->error, why, in words (for the
	 * run's error message, after the run). */
	void (*describe)(const struct io_stream *s, char *buf, size_t len);
};

/* A trace stream's state (stream_trace.c): one worker's share of the log
 * and what it measured, so that workers share nothing they change. */
struct trace_cursor {
	const struct stream_trace *log;
	const struct trace_op *next, *end;	/* this worker's operations */
	/* timed: each operation is issued at start_ns + its at_ns */
	bool timed;
	uint64_t start_ns;
	const atomic_int *stop;
	uint64_t issued, late, late_sum_ns, late_max_ns;
	/* grouped: the clock where each type began and ended */
	int kind;
	uint64_t group_t0[IO_KINDS], group_t1[IO_KINDS];
	/* a directory replay: *fd (the worker's descriptor) is set for each
	 * operation to fds[its file], fds[nofile] for a flush of a file
	 * never read or written; fds is NULL on one target */
	int *fd;
	const int *fds;
	uint32_t nofile;
};

struct io_stream {
	const struct stream_ops *ops;
	int error;		/* -errno: next() refused to go on (a replayed
				 * operation outside its place) */
	/* synthetic source */
	struct pattern pat;
	struct prng rng;
	unsigned nkinds;	/* 1: every I/O is kinds[0], nothing drawn */
	int kinds[IO_KINDS];
	uint64_t below[IO_KINDS];	/* 53-bit thresholds, see mix.h */
	uint32_t len;		/* the one size, when sizes is NULL */
	const struct size_table *sizes;
	uint64_t size_hits[SIZE_BINS_MAX];	/* I/Os per size bin */
	bool contiguous;	/* seq with varying sizes: each I/O starts
				 * where the one before ended */
	bool backward;
	uint64_t cursor, lo, hi;	/* contiguous: next edge, limits */
	bool limited;		/* ends after budget bytes of data I/O */
	uint64_t budget;
	/* --sync's flushes: flush_kind after every flush_every writes, or
	 * (end_flush) once after the last write of a limited stream */
	int flush_kind;
	uint32_t flush_every;
	uint64_t since_flush;	/* writes since the last policy flush */
	bool flush_due, end_flush;
	/* a sync_file_range's range: the writes since the last one span
	 * [range_lo, range_hi) (range_lo > range_hi: none yet) */
	bool track_range;
	uint64_t range_lo, range_hi;
	struct trace_cursor tc;	/* trace source (stream_trace.h) */
	/* synthetic and plain: one data kind (kinds[0]), one size (len), slot
	 * offsets (pattern_next), no --sync flushes; the run loop then draws
	 * its I/Os inline (stream_plain_next), the same draws synth_next()
	 * makes, and ends a limited stream after stream_plain_left() I/Os */
	bool plain;
};

static inline bool stream_next(struct io_stream *s, struct io_req *r)
{
	return s->ops->next(s, r);
}

/* A plain stream's next offset (its kind is kinds[0], its size len): what
 * synth_next() draws for it, inline; uniform: the caller knows that
 * stream_plain_uniform(s).  The byte budget is the caller's:
 * stream_plain_left() I/Os, then stream_plain_spent(). */
static inline __attribute__((always_inline)) uint64_t
stream_plain_next(struct io_stream *s, const bool uniform)
{
	if (uniform)
		return pattern_uniform_next(&s->pat, &s->rng);
	return pattern_next(&s->pat, &s->rng);
}

/* Random offsets without a distribution (the default of rnd). */
static inline bool stream_plain_uniform(const struct io_stream *s)
{
	return s->pat.random && !s->pat.dist;
}

/* I/Os a plain stream gives before its byte budget ends it (synth_next()
 * takes len from the budget per I/O, down to 0, and ends at 0); the most
 * there can be when it is not limited. */
static inline uint64_t stream_plain_left(const struct io_stream *s)
{
	if (!s->limited)
		return UINT64_MAX;
	return s->budget / s->len + (s->budget % s->len != 0);
}

/* The budget after ios I/Os of a plain stream, as synth_next() leaves it. */
static inline void stream_plain_spent(struct io_stream *s, uint64_t ios)
{
	/* ios is at most stream_plain_left(): ios * len does not wrap */
	if (s->limited)
		s->budget = s->budget > ios * s->len ?
			    s->budget - ios * s->len : 0;
}

/* The synthetic source's settings for one thread. */
struct synth_params {
	uint64_t region_start, region_len;
	uint64_t bs;		/* largest size */
	uint64_t stride;	/* start-to-start of slots */
	bool random, backward, contiguous;
	const struct dist *dist;	/* rnd; NULL: uniform */
	const struct op_mix *ops;
	const struct size_table *sizes;	/* NULL or inactive: bs each */
	uint64_t seed;
	unsigned thread, nthreads;
	uint64_t budget;	/* bytes of data I/O; 0: unlimited */
	int flush_kind;		/* of --sync: IO_FSYNC, IO_FDATASYNC or
				 * IO_SYNC_RANGE */
	uint32_t flush_every;	/* a flush after every N writes; 0: none */
	bool end_flush;		/* one flush after the last write (limited) */
};

extern const struct stream_ops stream_synth;

void stream_synth_init(struct io_stream *s, const struct synth_params *p);

#endif
