/* trace_log.h - the log of rebench --record: its format, and a reader
 * that checks every line.
 *
 * Format, version 1 (rebench(1), APPLICATION I/O, has every field):
 *
 *	# rebench-trace 1
 *	# command: sqlite3 test.db
 *	TIME PID/TID CALL FD FILE OFFSET SIZE RESULT DURATION ARG
 *	...
 *
 * The first line names the format and its version.  Other lines starting
 * with '#' are comments ("# warning PID/TID: ..." says what the recorder
 * could not follow; "# status: ..." whether the record is complete,
 * below).  A record is ten fields separated by one space:
 * TIME and DURATION in ns (TIME since the record began, at the call's
 * start), CALL a name of trace_calls.h, FILE an absolute path with bytes
 * <= 0x20, 0x7f and '\' written as \ooo, OFFSET (may be negative for
 * lseek), SIZE and RESULT numbers or "-" where the call has none, RESULT
 * "-ENAME" for a failure, ARG the call's flags ("-" for none).  Lines
 * appear in the order the calls ended.
 *
 * The reader gives one record at a time (trace_next) with its file as an
 * index into a table of distinct paths, so that a consumer - the
 * statistics, and later the replay as an I/O stream source (stream.h) -
 * keeps numbers, not strings.  Errors are exact: the path, the line, the
 * field and why; the first error ends the reading.
 *
 * The reader also takes fio's iologs (first line "fio version 2 iolog" or
 * "fio version 3 iolog") and gives their actions as records of the same
 * kind (trace_fio.h has the mapping), and the text blkparse prints of a
 * blktrace (trace_blkparse.h): its first line is an event.
 */
#ifndef REBENCH_TRACE_LOG_H
#define REBENCH_TRACE_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/trace_calls.h"
#include "trace/trace_reader.h"

/*
 * Open a log and check its first line: 0, or -errno with r->err saying
 * why ("LOG: cannot read the log: ...", "not a rebench trace", "version 2
 * is unknown").  The log is read under infile.h's rule: a regular file,
 * a pipe or a FIFO, lines of at most TRACE_MAX_LINE bytes, ended by a
 * stop signal.  trace_open_fd reads a descriptor of the caller's (the log
 * a recording has just written, never by its path: a FIFO put in its
 * place would make a reader wait for ever), under the same limits; fd
 * stays the caller's.  trace_open_stream reads f
 * (named name in messages) instead.
 */
int trace_open(struct trace_reader *r, const char *path);
int trace_open_fd(struct trace_reader *r, int fd, const char *name);
int trace_open_stream(struct trace_reader *r, FILE *f, const char *name);

/* The next record: 1, 0 at the end, or -errno (-EINVAL: a corrupt line;
 * r->err says "LOG: line N: why").  In a log whose status is incomplete
 * or unfinished, a record line that cannot be read is counted in
 * r->damaged and skipped. */
int trace_next(struct trace_reader *r, struct trace_rec *rec);

void trace_close(struct trace_reader *r);

/* On stderr, when the log r has read to its end is not known to be
 * whole (its "# status:" line says incomplete or unfinished, or damaged
 * lines were skipped): what that means for product ("the iolog", "the
 * replay"), the message naming mode.  Nothing otherwise. */
void trace_say_status(const char *mode, const char *log,
		      const struct trace_reader *r, const char *product);

/* The I/O kind of a record for a replay (IO_READ, IO_WRITE, IO_FSYNC,
 * IO_FDATASYNC of iokind.h), or -1 for calls that move no data. */
int trace_io_kind(const struct trace_rec *rec);

struct timespec;

/* The head every recorder writes (--record, --record-block): the format's
 * line, "# command:" with cmd's words quoted as for a shell, and
 * "# start:" with the CLOCK_REALTIME of TIME 0.  trace_put_word writes one
 * such word (also for "# record-path:"). */
void trace_write_head(FILE *f, char *const *cmd, const struct timespec *real);
void trace_put_word(FILE *f, const char *w);

/* Parse ARG-style flags ("O_RDWR|O_CREAT", "0", "0x4000") against a
 * table of trace_calls.h: 0 or -EINVAL. */
int trace_parse_flags(const char *s, const struct trace_flag *table,
		      const struct trace_flag *extra, uint64_t *v);

#endif
