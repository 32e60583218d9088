/* trace_blkparse.h - the text blkparse(1) prints of a blktrace, read as
 * records by the trace reader (trace_log.h): the mapping is at the head
 * of trace_blkparse.c and in rebench(1), APPLICATION I/O.
 */
#ifndef REBENCH_TRACE_BLKPARSE_H
#define REBENCH_TRACE_BLKPARSE_H

#include <stdbool.h>

#include "trace_log.h"

/* Is the first line of a log an event of blkparse's default format?  If
 * so r->blk is set and the line is kept as the first to parse. */
bool trace_blk_header(struct trace_reader *r, const char *line);

/* One line: 1 with a record, 0 for a line that is none, -errno with
 * r->err ("LOG: line N: why"). */
int trace_blk_parse(struct trace_reader *r, char *line,
		    struct trace_rec *rec);

#endif
