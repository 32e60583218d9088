/* ready.c - see ready.h. */
#include "stats/ready.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/options.h"
#include "core/plan.h"

struct ready {
	int fd;		/* -1 once said */
};

static void say(struct ready *r, bool ready)
{
	static const char line[] = "ready\n";

	if (r->fd < 0)
		return;
	/* a reader that went away is its own business: no error of
	 * rebench's (and no SIGPIPE: main ignores it) */
	if (ready) {
		ssize_t w = write(r->fd, line, sizeof(line) - 1);

		(void)w;
	}
	close(r->fd);
	r->fd = -1;
}

static void ready_start(void *arg, const struct workload *wls, size_t n,
			uint64_t start_ns)
{
	(void)wls;
	(void)n;
	(void)start_ns;
	say(arg, true);
}

static void ready_release(void *arg)
{
	say(arg, false);	/* no run started: EOF without the line */
	free(arg);
}

static const struct run_watcher ready_watcher = {
	.start = ready_start,
	.release = ready_release,
};

int ready_watch(struct run_ctx *ctx, const struct run_opts *run)
{
	struct ready *r;
	int fd, fl;

	if (!run_given(run, "ready-fd"))
		return 0;
	fd = run->ready_fd > INT32_MAX ? -1 : (int)run->ready_fd;
	fl = fd < 0 ? -1 : fcntl(fd, F_GETFL);
	if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY) {
		fprintf(stderr, "rebench: --ready-fd %llu: %s; open it for the run, as in: rebench --ready-fd 3 ... 3>FIFO\n",
			(unsigned long long)run->ready_fd,
			fl < 0 ? "not an open file descriptor" :
			"open for reading only, and rebench writes to it");
		return -EINVAL;
	}
	/* its reader waits for the end of file: no child (gnuplot, a
	 * --record COMMAND) may hold it open */
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	r = run_watch_new(&ctx->env.watch, &ready_watcher, sizeof(*r),
			  "--ready-fd");
	if (!r)
		return -ENOMEM;
	r->fd = fd;
	return 0;
}
