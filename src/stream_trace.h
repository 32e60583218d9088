/* stream_trace.h - a recorded log (trace_log.h) as an I/O stream source
 * (stream.h), for rebench --replay.
 *
 * Only data operations are kept: reads and writes of every family (with
 * the offset the log tracked and the bytes the call really moved) and
 * flushes (fsync; fdatasync; sync_file_range, replayed as fdatasync).
 * Failed calls and transfers of 0 bytes are skipped and counted.
 *
 * File map: every recorded file goes onto the one TARGET at its own base,
 * one after another in the order the log first touched them, each slot
 * its extent (the furthest byte read or written) rounded up to 1 MiB, so
 * that every base is 1 MiB-aligned and an offset keeps its alignment
 * (fio's replay_redirect, with the files kept apart).  A flush flushes the
 * whole target.
 *
 * Memory: 24 bytes per kept operation, loaded before the run, so next()
 * is an array walk: no allocation, no system call, no lock (a clock read,
 * vDSO, only where a grouped replay moves to the next operation type).
 */
#ifndef REBENCH_STREAM_TRACE_H
#define REBENCH_STREAM_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iokind.h"
#include "stream.h"

#define TRACE_SLOT_ALIGN (1U << 20)	/* bases of the file map */
#define TRACE_MAX_IO (1U << 30)		/* largest replayable transfer */

struct trace_op {
	uint64_t off;		/* on the target: file base + recorded offset */
	uint32_t len;		/* 0 for a flush */
	uint32_t line;		/* of the log */
	uint16_t kind;		/* enum io_kind */
	uint16_t pad;
};

struct trace_map_file {
	char *path;
	uint64_t base, extent;	/* extent: furthest recorded byte */
};

struct stream_trace {
	struct trace_op *ops;
	size_t n, cap, pos;
	struct trace_map_file *files;
	uint32_t nfiles;
	uint64_t total;		/* bytes of the map: the target needs them */
	uint64_t count[IO_KINDS], bytes[IO_KINDS];
	uint64_t maxlen;
	uint64_t skipped_failed, skipped_empty;
	uint32_t nthreads;	/* distinct recorded threads (data ops) */
	uint64_t aligned;	/* operations --replay-align changed */
	/* grouped: the clock where each type began and ended */
	bool grouped;
	int cur;
	uint64_t group_t0[IO_KINDS], group_t1[IO_KINDS];
};

extern const struct stream_ops stream_trace_ops;

/* Read log and build the operations and the file map: 0, or -errno with
 * err saying why (the reader's message: path, line, why). */
int stream_trace_load(struct stream_trace *t, const char *log, char *err,
		      size_t len);

/* Operations whose offset or size is not a multiple of sector; with fix,
 * each is widened to the sectors it touches (counted in t->aligned).  The
 * first one's line in *first_line. */
uint64_t stream_trace_align(struct stream_trace *t, unsigned sector, bool fix,
			    uint32_t *first_line);

/* grouped mode: all operations of one type together, the types in the
 * order of iokind.h, each type in recorded order. */
int stream_trace_group(struct stream_trace *t);

/* s reads t from its start. */
void stream_trace_init(struct io_stream *s, struct stream_trace *t);

void stream_trace_free(struct stream_trace *t);

#endif
