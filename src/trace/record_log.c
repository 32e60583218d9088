/* record_log.c - see record_log.h. */
#include "trace/record_log.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/outpath.h"
#include "core/plan.h"
#include "trace/trace_calls.h"
#include "trace/trace_log.h"

/* The text of the status line, between TRACE_STATUS and the padding. */
#define STATUS_TEXT_LEN (TRACE_STATUS_LEN - (int)(sizeof(TRACE_STATUS) - 1))

_Static_assert(sizeof(TRACE_STATUS_UNFINISHED_TEXT) - 1 <= STATUS_TEXT_LEN,
	       "the unfinished status fits its line");

/* "/proc/self/fd/N" opened again with flags: the same file, whatever its
 * path leads to now. */

int record_log_hold(struct record_log *lg, const char *mode,
		    const char *path, FILE *f)
{
	struct stat st;
	long pos;
	int e;

	memset(lg, 0, sizeof(*lg));
	lg->fd = lg->counts_fd = -1;
	lg->mode = mode;
	lg->path = path;
	pos = ftell(f);
	if (pos < 0)
		goto fail;
	lg->status_at = pos;
	fprintf(f, "%s%-*s\n", TRACE_STATUS, STATUS_TEXT_LEN,
		TRACE_STATUS_UNFINISHED_TEXT);
	if (fflush(f))
		goto fail;
	lg->fd = outpath_reopen(fileno(f), O_RDWR);
	if (lg->fd < 0 || fstat(lg->fd, &st))
		goto fail;
	lg->dev = st.st_dev;
	lg->ino = st.st_ino;
	lg->counts_fd = memfd_create("rebench-record-counts", MFD_CLOEXEC);
	if (lg->counts_fd < 0 ||
	    ftruncate(lg->counts_fd, sizeof(struct trace_counts)) ||
	    fstat(lg->counts_fd, &st))
		goto fail;
	lg->counts_dev = st.st_dev;
	lg->counts_ino = st.st_ino;
	return 0;
fail:
	e = errno ? errno : EIO;
	fprintf(stderr, "rebench: %s %s: cannot write the log and keep it open for the record: %s%s\n",
		mode, path, strerror(e),
		lg->fd < 0 && e == ENOENT ? " (rebench holds the log through /proc/self/fd: is /proc mounted?)" :
		e == ENOSPC || e == EDQUOT ? "; free some space or give a log on another file system" : "");
	record_log_close(lg);
	return -e;
}

void record_log_child(const struct record_log *lg)
{
	char v[96];
	struct stat st;
	struct rlimit rl;
	long lim = 1024;
	int fd;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < (rlim_t)lim)
		lim = (long)rl.rlim_cur;
	/* out of the program's way, below the interposer's log (from
	 * lim - 32 up); F_DUPFD: inherited across exec */
	fd = fcntl(lg->counts_fd, F_DUPFD, lim > 128 ? lim - 64 : lim / 4);
	if (fd < 0) {
		fd = lg->counts_fd;
		fcntl(fd, F_SETFD, 0);
	}
	snprintf(v, sizeof(v), "%llu:%llu", (unsigned long long)lg->dev,
		 (unsigned long long)lg->ino);
	setenv(TRACE_ENV_LOG_ID, v, 1);
	snprintf(v, sizeof(v), "%d:%llu:%llu", fd,
		 (unsigned long long)lg->counts_dev,
		 (unsigned long long)lg->counts_ino);
	setenv(TRACE_ENV_COUNTS, v, 1);
	/* where a process that cannot log may say so: the stderr COMMAND
	 * was given, and no file a program put on number 2 since */
	if (!fstat(STDERR_FILENO, &st)) {
		snprintf(v, sizeof(v), "%llu:%llu", (unsigned long long)st.st_dev,
			 (unsigned long long)st.st_ino);
		setenv(TRACE_ENV_STDERR, v, 1);
	} else {
		unsetenv(TRACE_ENV_STDERR);
	}
}

/* A last line cut short by a failed write is removed, so that the log
 * ends with a whole line (a cut line in the middle, written over by later
 * lines, is the reader's to skip: trace_log.h). */
static void trim_cut_line(const struct record_log *lg)
{
	char buf[4096];
	struct stat st;
	off_t at, end;
	ssize_t n, i;

	if (fstat(lg->fd, &st))
		return;
	end = st.st_size;
	for (at = end; at > lg->status_at; at -= n) {
		n = at - lg->status_at < (off_t)sizeof(buf) ?
		    (ssize_t)(at - lg->status_at) : (ssize_t)sizeof(buf);
		if (pread(lg->fd, buf, (size_t)n, at - n) != n)
			return;
		for (i = n; i > 0; i--) {
			if (buf[i - 1] != '\n')
				continue;
			if (at - n + i < end && ftruncate(lg->fd, at - n + i))
				fprintf(stderr, "rebench: %s: cannot remove the line cut short at the end of %s: %s\n",
					lg->mode, lg->path, strerror(errno));
			return;
		}
	}
}

static const char *plural(unsigned long long n, const char *one,
			  const char *many)
{
	return n == 1 ? one : many;
}

/* "complete", or "incomplete: " and what was lost, the parts that
 * apply, into text: true when complete. */
static bool status_text(const struct trace_counts *c, bool moved,
			char *text, size_t len)
{
	const char *sep = ": ";
	const char *e = c->write_err ? strerrorname_np(c->write_err) : NULL;
	size_t n;

	if (!c->lost && !c->unlogged && !moved) {
		snprintf(text, len, "complete");
		return true;
	}
	n = (size_t)snprintf(text, len, "incomplete");
#define PART(...) do {							\
		if (n < len)						\
			n += (size_t)snprintf(text + n, len - n, "%s", sep); \
		if (n < len)						\
			n += (size_t)snprintf(text + n, len - n, __VA_ARGS__); \
		sep = ", ";						\
	} while (0)
	if (c->lost)
		PART("%llu %s lost%s%s%s", (unsigned long long)c->lost,
		     plural(c->lost, "line", "lines"), e ? " (" : "",
		     e ? e : "", e ? ")" : "");
	if (c->cut)
		PART("%llu cut short", (unsigned long long)c->cut);
	if (c->unlogged)
		PART("%llu %s could not write the log",
		     (unsigned long long)c->unlogged,
		     plural(c->unlogged, "process", "processes"));
	if (moved)
		PART("its path was replaced while COMMAND ran");
#undef PART
	return false;
}

/* What was lost, on stderr. */
static void say_lost(const struct record_log *lg, const struct trace_counts *c,
		     bool moved)
{
	if (c->unlogged)
		fprintf(stderr, "rebench: %s: %llu %s of COMMAND could not write the log %s (each said why on its standard error): their calls are not in it\n",
			lg->mode, (unsigned long long)c->unlogged,
			plural(c->unlogged, "process", "processes"), lg->path);
	if (c->lost && c->write_err)
		fprintf(stderr, "rebench: %s: %llu %s lost: writing the log %s failed (%s); the log is incomplete and says so\n",
			lg->mode, (unsigned long long)c->lost,
			plural(c->lost, "line", "lines"), lg->path,
			strerror(c->write_err));
	else if (c->lost)
		fprintf(stderr, "rebench: %s: %llu %s lost%s; the log %s is incomplete and says so\n",
			lg->mode, (unsigned long long)c->lost,
			plural(c->lost, "line", "lines"),
			c->unlogged ? " (of the processes that could not write the log)" :
				      " (writes of the log cut short)",
			lg->path);
	if (moved)
		fprintf(stderr, "rebench: %s: %s no longer leads to the log rebench created (it was removed or replaced while COMMAND ran): the record is lost with it; the statistics below are of what it held\n",
			lg->mode, lg->path);
}

int record_log_finish(struct record_log *lg, int status)
{
	char text[STATUS_TEXT_LEN + 1], line[TRACE_STATUS_LEN + 2];
	struct trace_counts c = { 0 };
	const int32_t closed = 1;
	struct stat st;
	bool moved, complete;

	/* processes that outlive COMMAND write nothing after this (each
	 * looks at the flag before a line) */
	if (pwrite(lg->counts_fd, &closed, sizeof(closed),
		   offsetof(struct trace_counts, closed)) != sizeof(closed) ||
	    pread(lg->counts_fd, &c, sizeof(c), 0) != (ssize_t)sizeof(c)) {
		fprintf(stderr, "rebench: %s: cannot read the counts of what the interposer could not write: %s\n",
			lg->mode, strerror(errno ? errno : EIO));
		return status ? status : EXIT_OUTPUT_FAILED;
	}
	moved = stat(lg->path, &st) || st.st_dev != lg->dev ||
		st.st_ino != lg->ino;
	if (c.lost)
		trim_cut_line(lg);
	complete = status_text(&c, moved, text, sizeof(text));
	snprintf(line, sizeof(line), "%s%-*.*s\n", TRACE_STATUS,
		 STATUS_TEXT_LEN, STATUS_TEXT_LEN, text);
	if (pwrite(lg->fd, line, TRACE_STATUS_LEN + 1, lg->status_at) !=
	    TRACE_STATUS_LEN + 1) {
		fprintf(stderr, "rebench: %s: cannot write the status line of the log %s: %s; it still says unfinished\n",
			lg->mode, lg->path, strerror(errno ? errno : EIO));
		complete = false;
	}
	say_lost(lg, &c, moved);
	return !complete && !status ? EXIT_OUTPUT_FAILED : status;
}

int record_log_reader(const struct record_log *lg)
{
	return lg->fd < 0 ? -1 : outpath_reopen(lg->fd, O_RDONLY);
}

void record_log_close(struct record_log *lg)
{
	if (lg->fd >= 0)
		close(lg->fd);
	if (lg->counts_fd >= 0)
		close(lg->counts_fd);
	lg->fd = lg->counts_fd = -1;
}
