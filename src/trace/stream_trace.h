/* stream_trace.h - a recorded log (trace_log.h) as an I/O stream source
 * (stream.h), for rebench --replay.
 *
 * Only data operations are kept: reads and writes of every family (with
 * the offset the log tracked and the bytes the call really moved) and
 * flushes (fsync; fdatasync; sync_file_range, replayed as fdatasync).
 * Failed calls and transfers of 0 bytes are skipped and counted.
 *
 * Files: every recorded file that was read or written is in the map, in
 * the order the log first touched it, with its extent (the furthest byte
 * read or written).  On one TARGET (stream_trace_map_slots) each file
 * gets its own slot, one after another, its extent rounded up to 1 MiB,
 * so that every base is 1 MiB-aligned and an offset keeps its alignment
 * (fio's replay_redirect, with the files kept apart); a flush flushes the
 * whole target.  On a directory (replay_dir.h) each file is a file of its
 * own, offsets stay as recorded, and the stream sets the worker's
 * descriptor for each operation.
 *
 * Bounds: every extent, slot and sum of the map is at most TRACE_MAX_MAP
 * (checked as it is added: a log beyond it is refused, never wrapped), so
 * no offset, end or sum can pass 2^61 and every offset is a valid off_t.
 * Each file's place on the target is [base, end): the map is computed
 * once, the replay's region (what the question states) is the union of
 * the places, and next() checks every operation against its file's place
 * before handing it out: one outside (a bug) ends the stream with an error
 * (stream.h) that stops the run, and is never issued.
 *
 * Threads: every recorded thread (PID/TID) is numbered in the order of
 * its first kept operation; stream_trace_arrange() gives each worker one
 * thread's operations in recorded order, or one worker every operation
 * grouped by type.  Each worker reads its share through its own cursor
 * (stream.h, struct trace_cursor): the loaded log is read-only once the
 * run starts.
 *
 * Memory: 32 bytes per kept operation (the table grows by doubling, so up
 * to 64 while the log is read, and 32 once arranged), plus each file's
 * path and 12 bytes per recorded thread (twice that in the table), loaded
 * before the run, so next() is an array walk: no allocation, no system
 * call, no lock.  Every byte of it is taken from the memory budget
 * (memory.h) as the tables grow, and a log that would pass the budget is
 * refused while it is read (t->mem is what the loaded log holds).  The
 * clock is
 * read where a grouped replay moves to the next type and, in a timed
 * replay, to wait for an operation's time (stream_trace.c says how).
 */
#ifndef REBENCH_STREAM_TRACE_H
#define REBENCH_STREAM_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/iokind.h"
#include "gen/stream.h"

#define TRACE_SLOT_ALIGN (1U << 20)	/* bases of the file map */
#define TRACE_MAX_IO (1U << 30)		/* largest replayable transfer */
#define TRACE_MAX_MAP (1ULL << 60)	/* largest extent, slot and map (1
					 * EiB): beyond any device, and far
					 * below where an off_t or a sum of
					 * the map could overflow */
#define TRACE_NO_FILE UINT32_MAX	/* a flush of a file never read or
					 * written */
#define TRACE_MAX_WORKERS 256		/* one per recorded thread */
#define TRACE_LATE_NS 1000000ULL	/* timed: later than this is late */
#define TRACE_SPIN_NS 80000ULL		/* timed: the last part of a wait
					 * spins on the clock */

struct trace_op {
	uint64_t off;		/* the recorded offset; once mapped, the
				 * target's (file base + recorded offset) */
	uint64_t at_ns;		/* recorded start, from the log's first
				 * kept operation; stream_trace_pace()
				 * divides it by the speed */
	uint32_t len;		/* 0 for a flush */
	uint32_t line;		/* of the log */
	uint32_t file;		/* index in files[], or TRACE_NO_FILE */
	uint16_t kind;		/* enum io_kind */
	uint16_t thread;	/* recorded thread, numbered from 0 (capped
				 * at UINT16_MAX) */
};

struct trace_map_file {
	char *path;
	uint64_t base, extent;	/* extent: furthest recorded byte */
	uint64_t end;		/* its place is [base, end): its slot on one
				 * target, [0, extent) in a directory; 0
				 * before the map (nothing is placed) */
};

struct stream_trace {
	struct trace_op *ops;
	size_t n, cap;
	const char *format;	/* trace_format_name() */
	uint64_t digest;	/* stream_trace_digest() of the kept ops */
	struct trace_map_file *files;
	uint32_t nfiles, files_cap;
	uint64_t total;		/* bytes of the map: the target needs them */
	uint64_t count[IO_KINDS], bytes[IO_KINDS];
	uint64_t maxlen;
	uint64_t skipped_failed, skipped_empty;
	uint32_t nthreads;	/* distinct recorded threads (kept ops) */
	bool has_times;		/* not every kept op has the same time */
	uint64_t aligned;	/* operations --replay-align changed */
	uint64_t mem;		/* bytes held against the memory budget */
	/* stream_trace_arrange(): worker w reads ops[wbegin[w]] up to
	 * ops[wbegin[w + 1]] */
	bool grouped;
	uint32_t nworkers;
	size_t *wbegin;
};

extern const struct stream_ops stream_trace_ops;

/* Read log and build the operations (in recorded order, offsets as
 * recorded) and the files: 0, or -errno with err saying why (the
 * reader's message: path, line, why); -E2BIG when an extent passes
 * TRACE_MAX_MAP or the log would pass the memory budget. */
int stream_trace_load(struct stream_trace *t, const char *log, char *err,
		      size_t len);

/* FNV-1a 64 over the kept operations in recorded order, each as 17
 * bytes: kind (1), file index (4), recorded offset (8) and size (4),
 * little-endian; offset and size 0 for a flush.  The same for every
 * target, mode and alignment: stream_trace_load() takes it before any
 * of them applies. */
uint64_t stream_trace_digest(const struct trace_op *ops, size_t n);

/* One target: every file in its own slot (see above); t->total is the
 * length the target needs.  0, or -E2BIG with err saying which file's
 * slot would take the map past TRACE_MAX_MAP (t cannot be replayed). */
int stream_trace_map_slots(struct stream_trace *t, char *err, size_t len);

/* A directory (replay_dir.h): each file's extent from the operations as
 * they are now (a widened one may reach further), its place [0, extent),
 * and t->total their sum; offsets stay the files' own.  0, or -E2BIG with
 * err saying why when the sum passes TRACE_MAX_MAP. */
int stream_trace_extents(struct stream_trace *t, char *err, size_t len);

/* a + b in *sum when it neither wraps nor passes max. */
static inline bool trace_add(uint64_t a, uint64_t b, uint64_t max,
			     uint64_t *sum)
{
	uint64_t s;

	if (__builtin_add_overflow(a, b, &s) || s > max)
		return false;
	*sum = s;
	return true;
}

/* Is o inside its file's place (a flush always is)?  The one test of
 * the plan (stream_trace_unplaced) and of every I/O next() hands out. */
static inline bool trace_op_placed(const struct stream_trace *t,
				   const struct trace_op *o)
{
	const struct trace_map_file *f;

	if (IO_IS_FLUSH(o->kind))
		return true;
	if (o->file >= t->nfiles)
		return false;
	f = &t->files[o->file];
	return o->off >= f->base && o->off <= f->end &&
	       o->len <= f->end - o->off;
}

/* The first operation outside its file's place, or NULL: after the map
 * and alignment, before anything runs. */
const struct trace_op *stream_trace_unplaced(const struct stream_trace *t);

/* Operations whose offset or size is not a multiple of sector; with fix,
 * each is widened to the sectors it touches (counted in t->aligned).  The
 * first one's line in *first_line. */
uint64_t stream_trace_align(struct stream_trace *t, unsigned sector, bool fix,
			    uint32_t *first_line);

/* The workers: grouped, one worker with all operations of one type
 * together, the types in the order of iokind.h, each type in recorded
 * order; else one worker per recorded thread, its operations in recorded
 * order.  0, -E2BIG (more threads than workers), -EDQUOT (the arranged
 * copy would pass the memory budget) or -ENOMEM. */
int stream_trace_arrange(struct stream_trace *t, bool grouped);

/* Timed: every operation's time divided by speed (> 0). */
void stream_trace_pace(struct stream_trace *t, double speed);

/* s reads worker's share of t from its start; timed: each operation
 * waits for its time (from the start() hook's start_ns).  An operation
 * outside its file's place ends s with s->error = -ERANGE (stream.h),
 * unissued. */
void stream_trace_init(struct io_stream *s, const struct stream_trace *t,
		       uint32_t worker, bool timed);

/* A directory replay: s sets *fd to fds[file] for each operation
 * (fds[nofile] for TRACE_NO_FILE); fds stays the caller's. */
void stream_trace_use_files(struct io_stream *s, int *fd, const int *fds,
			    uint32_t nofile);

void stream_trace_free(struct stream_trace *t);

#endif
