/* trace_fio.h - fio's iologs, both ways.
 *
 * fio's formats (fio's HOWTO, "Trace file format v2" and "v3"): a first
 * line "fio version 2 iolog" or "fio version 3 iolog", then one action a
 * line, fields separated by white space:
 *
 *	v2:	FILE add|open|close
 *		FILE read|write|trim|sync|datasync|wait OFFSET LENGTH
 *	v3:	TIME FILE add|open|close
 *		TIME FILE read|write|trim|sync|datasync OFFSET LENGTH
 *
 * TIME is in microseconds since the start (fio 3.31 to 3.33 write and
 * read it so: utime_since_now, usec_sleep); v2's "wait N" waits N us.  A
 * FILE has at most 256 bytes and no white space (fio reads it with
 * %256s); LENGTH fits 32 bits (%u).
 *
 * Import (trace_fio_parse, through trace_next): each action becomes a
 * record of pid and thread 1, duration 0, on descriptor 3 + file id:
 * open -> open (O_RDWR), close -> close, read -> pread, write -> pwrite,
 * sync -> fsync, datasync -> fdatasync, trim -> fallocate
 * (FALLOC_FL_PUNCH_HOLE|FALLOC_FL_KEEP_SIZE, what a trim does to a file).
 * "add" makes the file known and is no record; v2's "wait" moves the
 * time; v3's "wait" is ignored with a warning, as fio does.  A file used
 * before its "add", an unknown action, a wrong count of fields or a bad
 * number end the reading with the line and why.
 *
 * Export (--trace-to fio, trace_to.c): the reverse, in iolog v3.
 */
#ifndef REBENCH_TRACE_FIO_H
#define REBENCH_TRACE_FIO_H

#include <stdbool.h>

#include "trace/trace_reader.h"

#define TRACE_FIO_MAGIC2 "fio version 2 iolog"
#define TRACE_FIO_MAGIC3 "fio version 3 iolog"
#define TRACE_FIO_NAME_MAX 256	/* fio's %256s */

/* The first line of a log that is not a rebench trace: 1 when it is a fio
 * iolog rebench reads (r->fio and r->version set), 0 when it is no fio
 * iolog, -EINVAL for a fio iolog of another version (r->err says). */
int trace_fio_header(struct trace_reader *r, const char *line);

/* One line of a fio iolog (without its newline): 1 with a record, 0 for
 * a line that is no call, -errno with r->err ("LOG: line N: why"). */
int trace_fio_parse(struct trace_reader *r, char *line,
		    struct trace_rec *rec);

/* Can fio's %256s read this path back as written? */
bool trace_fio_name_ok(const char *path);

/* rebench --trace-to fio LOG [--output FILE] (trace_to.c). */
bool trace_to_wanted(int argc, char **argv);
int trace_to_main(int argc, char **argv);
/* Its words (mode_args.h), for --help all and rebench(1)'s OPTIONS. */
extern const struct mode_grammar trace_to_grammar;

#endif
