/* trace_reader.h - what every log format shares (trace_log.h: the
 * rebench log and the reader; trace_fio.h, trace_blkparse.h: the other
 * formats it takes): a record, the reader's state, its table of file
 * names and its warnings.  The formats include this, not trace_log.h,
 * which includes them. */
#ifndef REBENCH_TRACE_READER_H
#define REBENCH_TRACE_READER_H

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

/* "rebench-trace" or "fio iolog": the format r->version counts. */
static inline const char *trace_format_name(const struct trace_reader *r)
{
	return r->fio ? "fio iolog" : r->blk ? "blkparse" : "rebench-trace";
}

/* The id of a path, added when new: 0, or -ENOMEM, or -E2BIG when the
 * table would pass the memory budget, with r->err saying why (for
 * trace_fio.c and trace_blkparse.c too). */
int trace_intern(struct trace_reader *r, const char *path, uint32_t *id);

/* A warning the log itself did not hold (kept like "# warning" lines). */
void trace_warn(struct trace_reader *r, const char *text);

static inline const char *trace_file_name(const struct trace_reader *r,
					   uint32_t id)
{
	return id < r->nnames ? r->names[id] : "?";
}

/* Digits only, no sign, no spaces, no overflow: true and *v, or false
 * (for the log's fields and trace_fio.c's). */
bool trace_parse_u64(const char *s, uint64_t *v);

#endif
