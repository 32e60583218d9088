/* preload.h - librebench-record.so, the LD_PRELOAD interposer of
 * rebench --record: logs a program's calls on regular files, block
 * devices and directories, one line per call, in the format of
 * trace_log.h (rebench(1), APPLICATION I/O).
 *
 * It also waits after calls, when asked (rebench --delay, --emulate):
 * delays.c, with delay.c's calibrated waits.  Either, or both: with no
 * log, descriptors are followed for the delays alone.
 *
 * rebench passes the log's absolute path, the start time (CLOCK_MONOTONIC
 * ns), the --record-path globs and the delays with their calibration in
 * the environment (trace_calls.h, interpose.h), so
 * that every process of the command tree, across fork and exec, appends
 * to the same log.  Each process opens the log itself with O_APPEND (and
 * moves it to a high descriptor, out of the program's way), and only when
 * the path still leads to the file rebench created (logfd.c); what cannot
 * be written is counted where rebench reads it.  Each line is built on the
 * stack and written with one write(2), so lines of different threads and
 * processes never interleave.  They appear in the order the calls ended.
 *
 * Safety: the real functions are found with dlsym(RTLD_NEXT) on first use,
 * so a hook called before the constructor (by another library's
 * constructor) works, and recording starts as soon as the environment has
 * been read.  A per-thread guard makes any call made while a hook runs (a
 * signal handler's) pass through unlogged; the log itself is written with
 * raw system calls.  Nothing is allocated: per-descriptor state lives in a
 * fixed table of MAX_FDS entries and the paths of the open files in
 * MAX_PATHS slots, where they are built; what does not fit is said in a
 * "# warning" line, never silently dropped.  errno is the real call's on
 * return.
 *
 * What it cannot see: rebench(1), APPLICATION I/O.
 *
 * The parts, and what they share: log.c, the real functions, the lines,
 * the start of recording; logfd.c, the log's descriptor and the counts of
 * what did not reach it; fds.c, what is known of each
 * descriptor; delays.c, the waits after calls; hooks.c, the interposed
 * functions.  Nothing of rebench is linked in but delay.c (the C library
 * only), and the table of trace_calls.h.
 * Everything not marked EXPORT is hidden (-fvisibility=hidden): the
 * program sees the hooks and nothing else.
 */
#ifndef REBENCH_PRELOAD_H
#define REBENCH_PRELOAD_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "trace/trace_calls.h"

#define EXPORT __attribute__((visibility("default")))
#define TLS __thread __attribute__((tls_model("initial-exec")))

#define MAX_FDS 65536		/* descriptors 0..MAX_FDS-1 are followed */
#define MAX_PATHS 1024		/* files open at once (paths kept) */
#define MAX_GLOBS 16		/* --record-path patterns */
#define NONE INT64_MIN		/* a field written as "-" */

enum fd_state { FD_UNKNOWN, FD_IGNORED, FD_TRACKED };

/* What the interposer knows of one descriptor.  FD_UNKNOWN: not seen
 * since it was last closed here (inherited across exec, opened by a call
 * not interposed, dup'ed): it is looked at (adopted) on first use. */
struct fd_entry {
	int64_t pos;		/* file position, -1 when unknown */
	int32_t path;		/* paths[] slot of a tracked descriptor */
	uint8_t state;		/* enum fd_state */
	uint8_t append;		/* O_APPEND: writes go to the end */
};

/* The path of a followed descriptor, built in place (never on a stack). */
struct path_slot {
	int used;
	char name[PATH_MAX];
};

extern struct path_slot paths[MAX_PATHS];
extern int log_fd;		/* -1: (re)opened on the next line */
extern int counts_fd;		/* rebench's counters, -1 when not ours */
extern char log_name[PATH_MAX];	/* "" without a log */
extern bool logging;		/* false: no log, delays alone */
extern bool delaying;		/* delays.c: there are delays to wait */

/* ---- log.c */

enum arg_kind { ARG_NONE, ARG_OPEN, ARG_IOV, ARG_IOV2, ARG_WHENCE, ARG_SFR,
		ARG_FALLOC };

/* One line: every field of trace_log.h. */
struct rec {
	uint64_t t0, t1;
	int call, fd;
	const char *path;
	int64_t off, len, res;	/* NONE: "-"; res < 0: -errno */
	enum arg_kind arg;
	unsigned long a, b;	/* open: flags, mode; iov: count, flags;
				 * lseek: whence; others: flags */
};

struct line {
	char *p, *end;
};

/* The real function called name, found on first use in *slot
 * (dlsym(RTLD_NEXT)); one that fails with ENOSYS when there is none. */
void *resolve(void **slot, const char *name);
uint64_t now_ns(void);	/* CLOCK_MONOTONIC */
void put_u(struct line *l, uint64_t v, unsigned base);
/* Write r as one line of the log (none without a log). */
void emit(const struct rec *r);
/* "# warning PID/TID: what (descriptor fd)"; fd < 0: none named. */
void warn(const char *what, int fd);
/* Is this call to be looked at?  Takes the thread's guard (leave()
 * gives it back). */
bool enter(void);
void leave(void);
/* Are descriptors followed (a log, or delays, or both)? */
bool recording(void);
/* Does the path match the --record-path globs (and is it not the log)? */
bool wanted(const char *name);

/* ---- logfd.c */

/* The log at path (absolute), checked against TRACE_ENV_LOG_ID, and the
 * counters of TRACE_ENV_COUNTS: false when path cannot name a log. */
bool logfd_init(const char *path);
/* One whole line to the log, or counted as lost. */
void write_line(const char *buf, size_t len);
/* In the child of fork(2). */
void logfd_forked(void);
/* Before the program closes (or replaces) fd: if it is the log's, no
 * thread writes to that number any more (those inside a write finish
 * first) and the log is reopened on the next line: true; if it is the
 * counters', they are no longer ours to skip.  closing_undone(fd): the
 * close failed, the number is the log's again. */
bool closing(int fd);
void closing_undone(int fd);
/* Around a call that may put a file on a number or free one (dup2, dup3,
 * close_range, closefrom): the log is not opened meanwhile.  false when
 * this thread holds it already (a signal handler's call): go on without. */
bool fds_lock(void);
void fds_unlock(void);

/* ---- fds.c */

/* The file behind fd as the kernel names it, into name (PATH_MAX). */
int fd_name(int fd, char *name);
/* A regular file, a block device or a directory. */
bool is_data_file(int fd);
/* fd was closed or replaced: what was known of the number goes. */
void forget(int fd);
/* A free path slot, taken; -1 (and a warning, once) when none is left. */
int slot_take(int fd);
void slot_release(int s);
/* The slot holding the name of fd when it is to be recorded, else -1. */
int named_slot(int fd);
/* Follow fd, its path in slot s; false when fd is beyond the table (the
 * slot is then the caller's to release). */
bool track(int fd, int s, int64_t pos, bool append);
/* The entry of a followed descriptor, adopting an unknown one when asked;
 * NULL when it is not followed. */
struct fd_entry *lookup(int fd, bool adopting);

/* ---- delays.c */

/* Read the delays and their calibration from the environment: true when
 * there is a delay to wait. */
bool delays_init(void);
/* After the real call (result res, -errno on failure): wait the delay of
 * its type, when it has one and the call succeeded; the clock at the end
 * of the wait, or 0 when none was waited.  Keeps errno. */
uint64_t delay_after(int call, int64_t res);

#endif
