/* libaio.c - Linux native AIO: io_submit of a whole batch, io_getevents
 * for at least the asked number of completions.  O_DIRECT is what makes it
 * asynchronous; with -p the kernel completes each I/O inside io_submit.
 * Built only with libaio (HAVE_LIBAIO); otherwise the entry says what to
 * install.
 */
#include "config.h"
#include "engines/engine.h"

/* What the engine is, in a build with libaio or without. */
#define NAIO_DESCRIPTION \
	.name = "naio", \
	.aliases = { "libaio" }, \
	.summary = "Linux native AIO (libaio), -q in flight, batched, fsync iocbs", \
	.flags = ENGINE_ASYNC | ENGINE_NO_TRIM | ENGINE_RWF_DSYNC, \
	.fio_name = "libaio"

#ifdef HAVE_LIBAIO
#include <errno.h>
#include <libaio.h>
#include <sys/uio.h>	/* RWF_DSYNC */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/iokind.h"

struct naio_state {
	io_context_t ctx;
	struct iocb *cbs;	/* one per unit */
	struct iocb **staged;
	unsigned nstaged;
	struct io_event *events;
};

/*
 * Native AIO flushes (IOCB_CMD_FSYNC/FDSYNC) came with Linux 4.18 and need
 * a file system that implements fsync: ask the kernel once, before the
 * run, with one real fdatasync of the target, so that a stream with
 * flushes is refused up front rather than failing on its first flush.
 */
static int probe_flush(struct io_ctx *io, struct naio_state *s)
{
	struct iocb cb, *list[1] = { &cb };
	struct io_event ev;
	int ret;

	io_prep_fdsync(&cb, io->fd);
	ret = io_submit(s->ctx, 1, list);
	if (ret == 1)
		ret = io_getevents(s->ctx, 1, 1, &ev, NULL);
	if (ret == 1 && (long)ev.res >= 0)
		return 0;
	if (ret == 1)
		ret = (int)(long)ev.res;
	snprintf(io->err, sizeof(io->err), "this kernel's native AIO cannot flush this target (an IOCB_CMD_FDSYNC was refused: %s; it needs Linux 4.18 and a file system with fsync); use -t uring or -t paio for fsync and fdatasync",
		 strerror(ret < 0 ? -ret : EINVAL));
	return ret < 0 ? ret : -EINVAL;
}

static int naio_init(struct io_ctx *io)
{
	struct naio_state *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	io->priv = s;
	s->cbs = calloc(io->qd, sizeof(*s->cbs));
	s->staged = calloc(io->qd, sizeof(*s->staged));
	s->events = calloc(io->qd, sizeof(*s->events));
	if (!s->cbs || !s->staged || !s->events)
		return -ENOMEM;
	ret = io_setup((int)io->qd, &s->ctx);
	if (ret) {
		snprintf(io->err, sizeof(io->err), "io_setup(%u) failed: %s%s",
			 io->qd, strerror(-ret),
			 ret == -EAGAIN ? " (the system-wide limit /proc/sys/fs/aio-max-nr is too low for this depth and thread count; raise it or lower -q/-c)" : "");
		s->ctx = 0;
		return ret;
	}
	return io->flushes ? probe_flush(io, s) : 0;
}

static inline __attribute__((always_inline)) int
naio_stage(struct io_ctx *io, struct naio_state *s, struct io_unit *u)
{
	struct iocb *cb = &s->cbs[u->idx];

	if (u->kind == IO_FSYNC)
		io_prep_fsync(cb, io->fd);
	else if (u->kind == IO_FDATASYNC)
		io_prep_fdsync(cb, io->fd);
	else if (u->kind == IO_READ)
		io_prep_pread(cb, io->fd, u->buf, u->len, (long long)u->off);
	else {
		io_prep_pwrite(cb, io->fd, u->wbuf, u->len, (long long)u->off);
		if (io->rwf_dsync)
			cb->aio_rw_flags = RWF_DSYNC;
	}
	cb->data = u;
	s->staged[s->nstaged++] = cb;
	return 0;
}

static int naio_queue(struct io_ctx *io, struct io_unit *u)
{
	return naio_stage(io, io->priv, u);
}

/* A batch of one kind: the same iocbs as naio_queue() makes, in one call,
 * in the same order (engine.h). */
static int naio_queue_plain(struct io_ctx *io, struct io_unit **units,
			    unsigned n)
{
	struct naio_state *s = io->priv;
	struct iocb **staged = s->staged + s->nstaged;

	if (units[n - 1]->kind != IO_READ) {
		while (n)
			naio_stage(io, s, units[--n]);
		return 0;
	}
	/* reads: naio_stage()'s iocbs without asking each one's kind */
	s->nstaged += n;
	while (n) {
		struct io_unit *u = units[--n];
		struct iocb *cb = &s->cbs[u->idx];

		io_prep_pread(cb, io->fd, u->buf, u->len, (long long)u->off);
		cb->data = u;
		*staged++ = cb;
	}
	return 0;
}

static int naio_commit(struct io_ctx *io)
{
	struct naio_state *s = io->priv;
	unsigned done = 0;
	int ret;

	/* io_submit may take fewer than offered: offer the rest again. */
	while (done < s->nstaged) {
		ret = io_submit(s->ctx, (long)(s->nstaged - done),
				s->staged + done);
		if (ret < 0) {
			if (ret == -EINTR)
				continue;
			return ret;
		}
		done += (unsigned)ret;
	}
	s->nstaged = 0;
	return 0;
}

static int naio_reap(struct io_ctx *io, unsigned min, struct io_unit **done)
{
	struct naio_state *s = io->priv;
	int n, i;

	do {
		n = io_getevents(s->ctx, (long)min, (long)io->qd, s->events, NULL);
	} while (n == -EINTR);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		struct io_unit *u = s->events[i].data;

		/* res is unsigned long: a negative errno shows as huge */
		u->res = (int64_t)(long)s->events[i].res;
		done[i] = u;
	}
	return n;
}

static void naio_cleanup(struct io_ctx *io)
{
	struct naio_state *s = io->priv;

	if (!s)
		return;
	if (s->ctx)
		io_destroy(s->ctx);	/* waits for what is in flight */
	free(s->cbs);
	free(s->staged);
	free(s->events);
	free(s);
	io->priv = NULL;
}

const struct engine_ops engine_naio = {
	NAIO_DESCRIPTION,
	.init = naio_init,
	.queue = naio_queue,
	.queue_plain = naio_queue_plain,
	.commit = naio_commit,
	.reap = naio_reap,
	.cleanup = naio_cleanup,
};

#else

const struct engine_ops engine_naio = {
	NAIO_DESCRIPTION,
	.unavailable = "this rebench was built without libaio; install libaio-dev (apt-get install libaio-dev) and rebuild",
};

#endif
