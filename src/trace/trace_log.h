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

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/trace_calls.h"

#define TRACE_NONE INT64_MIN	/* OFFSET or SIZE written as "-" */

/* The "# status:" line of the header of --record (record_log.h): written
 * "unfinished" before COMMAND starts, padded with spaces to
 * TRACE_STATUS_LEN bytes, and rewritten in place, the same length, when
 * COMMAND has ended: "complete", or "incomplete: what was lost".  A log
 * without the line (an older rebench, --record-block, fio, blkparse) says
 * nothing either way.  In a log that is not complete, a record line that
 * cannot be read (cut short by a failed write) is skipped and counted,
 * not an error. */
#define TRACE_STATUS "# status: "
#define TRACE_STATUS_LEN 200	/* the line's bytes, without its newline */
#define TRACE_STATUS_UNFINISHED_TEXT "unfinished (rebench rewrites this line when COMMAND ends: a log that still says unfinished is a record that did not end, and may be incomplete)"

enum trace_status {
	TRACE_STATUS_UNKNOWN,	/* no status line */
	TRACE_STATUS_COMPLETE,
	TRACE_STATUS_INCOMPLETE,
	TRACE_STATUS_UNFINISHED,
};

/* "complete", "incomplete", "unfinished" (NULL for unknown). */
extern const char *const trace_status_words[];
#define TRACE_MAX_WARNINGS 16	/* "# warning" lines kept (all counted) */
/* The longest line read (rebench(1), FILES): the recorder's longest is a
 * path of PATH_MAX bytes each escaped as \ooo, and nine short fields. */
#define TRACE_MAX_LINE (64 * 1024)
/* The most of a command line "# command:" holds (the rest is counted). */
#define TRACE_MAX_COMMAND 4096

/* One call, as recorded. */
struct trace_rec {
	uint64_t t_ns;		/* start, ns since the record began */
	uint64_t dur_ns;
	uint32_t pid, tid;
	uint16_t call;		/* enum trace_call */
	uint8_t type;		/* enum trace_type */
	int fd;			/* -1 for a failed open */
	uint32_t file;		/* trace_file_name() */
	int64_t off;		/* bytes, or TRACE_NONE; ftruncate: the new
				 * length; lseek: the offset argument */
	int64_t len;		/* bytes asked, or TRACE_NONE */
	int64_t result;		/* >= 0, or -errno; a failed call's OFFSET and
				 * SIZE are what it was given, which may be
				 * negative or unknown */
	/* ARG, decoded: open: O_* flags and mode; readv and the like:
	 * iovcnt and RWF_* flags; lseek: whence; sync_file_range,
	 * fallocate: their flags */
	uint64_t flags;
	uint32_t mode;
	int32_t iovcnt;		/* as given: negative when the call was */
};

struct trace_reader {
	FILE *f;
	bool own;		/* f is closed by trace_close() */
	char *path;
	unsigned long line;	/* of the last line read */
	int version;
	char *buf;
	size_t cap;
	char *command;		/* "# command: " of the header, or NULL */
	/* distinct files: names[id], and an open-addressing index */
	char **names;
	uint32_t nnames, cap_names;
	uint32_t *index;	/* id + 1, 0 empty */
	uint32_t cap_index;
	uint64_t mem;		/* bytes of the names and index, held
				 * against the memory budget (memory.h)
				 * until trace_close() */
	char *warnings[TRACE_MAX_WARNINGS];
	unsigned long nwarnings;
	/* the "# status:" line: its word, and the text after "# status: "
	 * without the padding (NULL without one); record lines skipped in a
	 * log that is not complete */
	enum trace_status status;
	char *status_text;
	unsigned long damaged;
	/* a fio iolog (trace_fio.c): its version (2, 3; 0 for a rebench
	 * log), the time of v2's waits, and per file id: added, open */
	int fio;
	uint64_t fio_t_ns;
	unsigned char *fio_files;
	uint32_t fio_nfiles;
	/* blkparse's text (trace_blkparse.c): the first line is pending
	 * (an event), the summary at the end was reached */
	bool blk, blk_pending, blk_done;
	char err[PATH_MAX + 512];
};

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

/* "rebench-trace" or "fio iolog": the format r->version counts. */
static inline const char *trace_format_name(const struct trace_reader *r)
{
	return r->fio ? "fio iolog" : r->blk ? "blkparse" : "rebench-trace";
}

/* The id of a path, added when new: 0, or -ENOMEM, or -E2BIG when the
 * table would pass the memory budget, with r->err saying why (for
 * trace_fio.c and trace_blkparse.c too). */
int trace_intern(struct trace_reader *r, const char *path, uint32_t *id);

/* On stderr, when the log r has read to its end is not known to be
 * whole (its "# status:" line says incomplete or unfinished, or damaged
 * lines were skipped): what that means for product ("the iolog", "the
 * replay"), the message naming mode.  Nothing otherwise. */
void trace_say_status(const char *mode, const char *log,
		      const struct trace_reader *r, const char *product);

/* A warning the log itself did not hold (kept like "# warning" lines). */
void trace_warn(struct trace_reader *r, const char *text);

static inline const char *trace_file_name(const struct trace_reader *r,
					   uint32_t id)
{
	return id < r->nnames ? r->names[id] : "?";
}

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

/* Digits only, no sign, no spaces, no overflow: true and *v, or false
 * (for the log's fields and trace_fio.c's). */
bool trace_parse_u64(const char *s, uint64_t *v);

/* Parse ARG-style flags ("O_RDWR|O_CREAT", "0", "0x4000") against a
 * table of trace_calls.h: 0 or -EINVAL. */
int trace_parse_flags(const char *s, const struct trace_flag *table,
		      const struct trace_flag *extra, uint64_t *v);

#endif
