/* trace_blkparse.h - the text blkparse(1) prints of a blktrace, read as
 * records by the trace reader (trace_log.h): the mapping is at the head
 * of trace_blkparse.c and in rebench(1), APPLICATION I/O.
 */
#ifndef REBENCH_TRACE_BLKPARSE_H
#define REBENCH_TRACE_BLKPARSE_H

#include <stdbool.h>

#include "trace/trace_reader.h"

/* Is the first line of a log an event of blkparse's default format?  If
 * so r->blk is set and the line is kept as the first to parse. */
bool trace_blk_header(struct trace_reader *r, const char *line);

/*
 * The call a block request is recorded as, by its RWBS (the kernel's
 * blk_fill_rwbs(): an optional F for a preflush, the operation - R read,
 * W write, D discard (DE secure erase), F flush, N any other - then F for
 * FUA, A, S, M, ...): rec's call, type and ARG (flags, iovcnt) are set
 * and 1 returned, or 0 for a request that is no record (N without a
 * flush).  The one mapping of blkparse's text and of --record-block:
 *
 *	R		pread
 *	W		pwrite; with FUA, pwritev2 with 1 buffer and RWF_DSYNC
 *	D		fallocate FALLOC_FL_PUNCH_HOLE|FALLOC_FL_KEEP_SIZE
 *	F, FF, FN	fsync (a flush without data)
 *
 * A preflush on a read, write or discard is not shown (the kernel's
 * flush machinery issues it as a request of its own, FF).
 */
int trace_blk_call(const char *rwbs, struct trace_rec *rec);

/* One line: 1 with a record, 0 for a line that is none, -errno with
 * r->err ("LOG: line N: why"). */
int trace_blk_parse(struct trace_reader *r, char *line,
		    struct trace_rec *rec);

#endif
