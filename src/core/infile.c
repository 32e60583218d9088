/* infile.c - see infile.h. */
#include "core/infile.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/outpath.h"
#include "core/signals.h"
#include "core/units.h"

/* One open input: the descriptor, what was read, and the limits. */
struct infile {
	int fd;
	unsigned stops;		/* signals_stop_count() at the open */
	bool wait;		/* a pipe or FIFO: ppoll before each read */
	bool over;		/* more than limit.bytes came: EFBIG next */
	uint64_t bytes;		/* read so far */
	uint64_t line;		/* bytes since the last newline */
	struct infile_limit limit;
};

/* Has a stop signal come since in was opened? */
static bool stopped(const struct infile *in)
{
	return signals_stop_count() != in->stops;
}

/* Wait until in can be read, or a stop signal: 0, or -1 with errno
 * EINTR.  The stop signals are blocked from the look at the count to the
 * wait, which unblocks them atomically: a signal in between is not lost. */
static int wait_readable(const struct infile *in)
{
	struct pollfd p = { .fd = in->fd, .events = POLLIN };
	sigset_t stop, old;
	int ret;

	signals_stop_set(&stop);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	ret = stopped(in) ? -1 : ppoll(&p, 1, NULL, &old);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret < 0 && (errno == EINTR || stopped(in))) {
		if (!stopped(in))
			return 0;	/* another signal: look again */
		errno = EINTR;
		return -1;
	}
	return ret < 0 ? -1 : 0;
}

/* The lines' lengths: -1 with EMSGSIZE past the line limit. */
static int count_lines(struct infile *in, const char *buf, size_t n)
{
	const char *p = buf, *end = buf + n, *nl;

	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		in->line += (uint64_t)((nl ? nl : end) - p);
		if (in->limit.line && in->line > in->limit.line) {
			errno = EMSGSIZE;
			return -1;
		}
		if (!nl)
			break;
		in->line = 0;
	}
	return 0;
}

static ssize_t in_read(void *cookie, char *buf, size_t size)
{
	struct infile *in = cookie;
	uint64_t left;
	ssize_t n;

	if (in->over) {
		errno = EFBIG;
		return -1;
	}
	/* one byte past the limit is asked for, to tell "exactly the limit"
	 * from "more" */
	if (in->limit.bytes) {
		left = in->limit.bytes - in->bytes + 1;
		if (size > left)
			size = (size_t)left;
	}
	for (;;) {
		if (stopped(in)) {
			errno = EINTR;
			return -1;
		}
		if (in->wait && wait_readable(in))
			return -1;
		n = read(in->fd, buf, size);
		if (n >= 0)
			break;
		if (errno != EINTR && errno != EAGAIN)
			return -1;
	}
	/* past the limit: what is within it is given, then EFBIG */
	if (in->limit.bytes && in->bytes + (uint64_t)n > in->limit.bytes) {
		in->over = true;
		n = (ssize_t)(in->limit.bytes - in->bytes);
		if (!n) {
			errno = EFBIG;
			return -1;
		}
	}
	in->bytes += (uint64_t)n;
	if (count_lines(in, buf, (size_t)n))
		return -1;
	return n;
}

static int in_close(void *cookie)
{
	struct infile *in = cookie;
	int ret = close(in->fd);

	free(in);
	return ret;
}

/* The FILE over fd (taken: closed on failure), after the rule: devices
 * too when any (stdin), else a regular file or, with limit->stream, a
 * pipe or FIFO.  stops is signals_stop_count() from before fd was opened:
 * a FIFO's writer learns of the open as it happens and may signal at once,
 * before a count taken here. */
static FILE *wrap(int fd, unsigned stops, const struct infile_limit *limit,
		  bool any, char *why, size_t len)
{
	static const cookie_io_functions_t io = { .read = in_read,
						  .close = in_close };
	struct infile *in = NULL;
	struct stat st;
	FILE *f;
	int e;

	if (fstat(fd, &st)) {
		e = errno;
		snprintf(why, len, "%s", strerror(e));
		goto out_err;
	}
	if (S_ISDIR(st.st_mode) || !(S_ISREG(st.st_mode) || any ||
				     (S_ISFIFO(st.st_mode) && limit->stream))) {
		e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		snprintf(why, len, "it is %s; rebench reads %s",
			 outpath_kind(st.st_mode),
			 limit->stream ? "regular files, pipes and FIFOs" :
			 "only a regular file here");
		goto out_err;
	}
	/* a regular file says its size: no need to read it to refuse it */
	if (S_ISREG(st.st_mode) && limit->bytes &&
	    (uint64_t)st.st_size > limit->bytes) {
		e = EFBIG;
		infile_strerror(e, limit, why, len);
		goto out_err;
	}
	in = calloc(1, sizeof(*in));
	if (!in) {
		e = ENOMEM;
		snprintf(why, len, "%s", strerror(e));
		goto out_err;
	}
	in->fd = fd;
	in->stops = stops;
	in->limit = *limit;
	/* a regular file's read never waits; anything else may */
	in->wait = !S_ISREG(st.st_mode);
	f = fopencookie(in, "r", io);
	if (f)
		return f;
	e = errno;
	snprintf(why, len, "%s", strerror(e));
out_err:
	close(fd);
	free(in);
	errno = e;
	return NULL;
}

FILE *infile_open(const char *path, const struct infile_limit *limit,
		  char *why, size_t len)
{
	unsigned stops;
	int fd;

	if (!path[0]) {
		snprintf(why, len, "the file name is empty");
		errno = EINVAL;
		return NULL;
	}
	stops = signals_stop_count();
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "%s", strerror(errno));
		return NULL;
	}
	return wrap(fd, stops, limit, false, why, len);
}

FILE *infile_fdopen(int fd, const struct infile_limit *limit, char *why,
		    size_t len)
{
	unsigned stops = signals_stop_count();
	int dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);

	if (dup_fd < 0) {
		snprintf(why, len, "%s", strerror(errno));
		return NULL;
	}
	return wrap(dup_fd, stops, limit, true, why, len);
}

const char *infile_strerror(int e, const struct infile_limit *limit,
			    char *buf, size_t len)
{
	char size[32];

	if (e == EFBIG)
		snprintf(buf, len, "it is longer than %s, the most rebench reads of such a file (rebench(1), FILES)",
			 fmt_size_exact(size, sizeof(size), limit->bytes));
	else if (e == EMSGSIZE)
		snprintf(buf, len, "a line is longer than %s, the most rebench takes in one line of such a file (is it a binary file?)",
			 fmt_size_exact(size, sizeof(size), limit->line));
	else if (e == EINTR && signals_stop_requested())
		snprintf(buf, len, "stopped by signal %d (%s) before its end",
			 signals_stop_requested(),
			 strsignal(signals_stop_requested()));
	else
		snprintf(buf, len, "%s", strerror(e));
	return buf;
}
