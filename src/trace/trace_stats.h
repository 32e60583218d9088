/* trace_stats.h - --trace-stats: what a recorded log holds, per operation
 * type (count, share of operations, bytes, share of bytes, average bytes
 * per read and write, average time, failures) and per file, in human, -n
 * and JSON form.  Every field: rebench(1), APPLICATION I/O.
 */
#ifndef REBENCH_TRACE_STATS_H
#define REBENCH_TRACE_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "core/mode_args.h"
#include "trace/trace_calls.h"

#define TRACE_STATS_VERSION 2	/* of the -n lines and the JSON document */


struct trace_type_stats {
	uint64_t count;
	uint64_t failed;	/* result < 0 */
	uint64_t bytes;		/* read, write: bytes transferred */
	uint64_t dur_ns;	/* sum of the durations */
};

struct trace_file_stats {
	char *path;
	uint64_t ops;
	uint64_t reads, bytes_read;
	uint64_t writes, bytes_written;
	uint64_t syncs;		/* fsync, fdatasync, sync_file_range */
};

struct trace_stats {
	char *log;
	char *command;		/* the header's, or NULL */
	const char *format;	/* of the log: "rebench-trace", "fio iolog" */
	int version;		/* of the log, in its format */
	uint64_t ops, bytes;	/* bytes: read and written */
	uint64_t first_ns, end_ns;	/* first start, last end */
	uint64_t processes, threads;
	struct trace_type_stats type[TT_TYPES];
	uint64_t calls[TC_COUNT];	/* per function name */
	struct trace_file_stats *files;	/* in order of first appearance */
	uint32_t nfiles;
	char **warnings;	/* the first TRACE_MAX_WARNINGS */
	unsigned long nwarnings, nkept;
	int status;		/* enum trace_status of the log */
	char *status_text;	/* its "# status:" text, or NULL */
	unsigned long damaged;	/* record lines skipped (trace_log.h) */
	uint64_t mem;		/* bytes held against the memory budget */
};

/* Read a whole log: 0, or -errno with err saying why (trace_log.h; -E2BIG:
 * its tables would pass the memory budget, memory.h); the stats are then
 * empty. */
int trace_stats_load(const char *path, struct trace_stats *st, char *err,
		     size_t len);

void trace_stats_print(FILE *f, const struct trace_stats *st,
		       enum out_format fmt);

/* The statistics of a log a recording has just written, read through fd
 * (taken, closed here; -1 when it could not be had), never its path:
 * the path may lead elsewhere by then.  On stderr (stdout is COMMAND's),
 * or why not, the message naming mode. */
void trace_stats_report_fd(const char *mode, const char *log, int fd,
			   enum out_format fmt);

void trace_stats_free(struct trace_stats *st);

#endif
