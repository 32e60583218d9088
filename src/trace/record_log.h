/* record_log.h - the log of --record while COMMAND runs: created and held
 * by rebench, written by the interposer's processes only while their path
 * still leads to it, and closed with its "# status:" line (trace_log.h).
 *
 * rebench keeps its own descriptor of the log from its creation to the
 * end of the run, so that its inode number cannot be taken by another
 * file, and passes its device and inode (TRACE_ENV_LOG_ID) and the
 * counters of what did not reach it (struct trace_counts, a memfd:
 * TRACE_ENV_COUNTS) to every process of COMMAND; src/trace/preload/logfd.c says
 * how they are used.  When COMMAND has ended, rebench reads the counters,
 * removes a last line a failed write cut short, rewrites the status line
 * in place ("complete", or "incomplete: what was lost") and says on
 * stderr what was lost.  The statistics are read through its own
 * descriptor: the path may lead elsewhere by then.
 */
#ifndef REBENCH_RECORD_LOG_H
#define REBENCH_RECORD_LOG_H

#include <stdio.h>
#include <sys/types.h>

struct record_log {
	const char *mode, *path;	/* for messages */
	int fd;			/* the log, read and write: held to the end */
	dev_t dev;
	ino_t ino;
	off_t status_at;	/* where the "# status:" line starts */
	int counts_fd;		/* memfd of struct trace_counts */
	dev_t counts_dev;
	ino_t counts_ino;
};

/* After the header lines written to f (outpath_open's stream of path,
 * not yet closed): the status line "unfinished", the log held and the
 * counters made.  0, or -errno after a message (nothing held then). */
int record_log_hold(struct record_log *lg, const char *mode,
		    const char *path, FILE *f);

/* In the child, before its exec: the counters' descriptor inherited at a
 * high number, and TRACE_ENV_LOG_ID and TRACE_ENV_COUNTS set. */
void record_log_child(const struct record_log *lg);

/* When COMMAND (whose status is status) has ended: the log closed as
 * above.  status, or EXIT_OUTPUT_FAILED in place of 0 when the log is
 * incomplete (a process could not write it, lines were lost, its path
 * was replaced, or the status line could not be written). */
int record_log_finish(struct record_log *lg, int status);

/* A new descriptor reading the log from its start, or -1. */
int record_log_reader(const struct record_log *lg);

void record_log_close(struct record_log *lg);

#endif
