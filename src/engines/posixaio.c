/* posixaio.c - POSIX aio: a batch is submitted with one lio_listio
 * (LIO_NOWAIT) call; completions are found with aio_error over the units in
 * flight, sleeping in aio_suspend when fewer than asked have finished.
 * glibc implements this with helper threads, which is what it costs.
 */
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "engines/iokind.h"

struct paio_state {
	struct aiocb *cbs;		/* one per unit */
	struct aiocb **staged;
	unsigned nstaged;
	struct aiocb **data;		/* commit: the staged reads and writes */
	const struct aiocb **inflight;	/* for aio_suspend */
	unsigned ninflight;
};

static int paio_init(struct io_ctx *io)
{
	struct paio_state *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	p->cbs = calloc(io->qd, sizeof(*p->cbs));
	p->staged = calloc(io->qd, sizeof(*p->staged));
	p->inflight = calloc(io->qd, sizeof(*p->inflight));
	p->data = calloc(io->qd, sizeof(*p->data));
	io->priv = p;
	if (!p->cbs || !p->staged || !p->inflight || !p->data)
		return -ENOMEM;
	return 0;
}

static int paio_queue(struct io_ctx *io, struct io_unit *u)
{
	struct paio_state *p = io->priv;
	struct aiocb *cb = &p->cbs[u->idx];

	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = io->fd;
	cb->aio_buf = u->kind == IO_READ ? u->buf : u->wbuf;
	cb->aio_nbytes = u->len;
	cb->aio_offset = (off_t)u->off;
	/* a flush goes through aio_fsync at commit, not lio_listio */
	cb->aio_lio_opcode = IO_IS_FLUSH(u->kind) ? LIO_NOP :
			     u->kind == IO_READ ? LIO_READ : LIO_WRITE;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	p->staged[p->nstaged++] = cb;
	return 0;
}

static int paio_commit(struct io_ctx *io)
{
	struct paio_state *p = io->priv;
	unsigned i;

	struct aiocb **data = p->data;
	unsigned ndata = 0;
	int ret = 0;

	if (!p->nstaged)
		return 0;
	for (i = 0; i < p->nstaged; i++)
		if (p->staged[i]->aio_lio_opcode != LIO_NOP)
			data[ndata++] = p->staged[i];
	if (ndata && lio_listio(LIO_NOWAIT, data, (int)ndata, NULL))
		return -errno;
	for (i = 0; i < ndata; i++)
		p->inflight[p->ninflight++] = data[i];
	/* flushes after the data of their batch, each its own request */
	for (i = 0; i < p->nstaged && !ret; i++) {
		struct aiocb *cb = p->staged[i];

		if (cb->aio_lio_opcode != LIO_NOP)
			continue;
		if (aio_fsync(io->units[cb - p->cbs].kind == IO_FDATASYNC ?
			      O_DSYNC : O_SYNC, cb))
			ret = -errno;
		else
			p->inflight[p->ninflight++] = cb;
	}
	p->nstaged = 0;
	return ret;
}

static int paio_reap(struct io_ctx *io, unsigned min, struct io_unit **done)
{
	struct paio_state *p = io->priv;
	unsigned n = 0, i;
	int err;

	for (;;) {
		for (i = 0; i < p->ninflight;) {
			struct aiocb *cb = (struct aiocb *)p->inflight[i];
			struct io_unit *u;

			err = aio_error(cb);
			if (err == EINPROGRESS) {
				i++;
				continue;
			}
			u = &io->units[cb - p->cbs];
			u->res = err ? -err : (int64_t)aio_return(cb);
			done[n++] = u;
			p->inflight[i] = p->inflight[--p->ninflight];
		}
		if (n >= min || !p->ninflight)
			return (int)n;
		if (aio_suspend(p->inflight, (int)p->ninflight, NULL) &&
		    errno != EINTR && errno != EAGAIN)
			return -errno;
	}
}

/* glibc's helper threads drop the requests they have not started; those
 * then report ECANCELED through aio_error. */
static void paio_cancel(struct io_ctx *io)
{
	aio_cancel(io->fd, NULL);
}

static void paio_cleanup(struct io_ctx *io)
{
	struct paio_state *p = io->priv;

	if (!p)
		return;
	/* Nothing may still reference the buffers when they are freed. */
	while (p->ninflight) {
		aio_suspend(p->inflight, (int)p->ninflight, NULL);
		for (unsigned i = 0; i < p->ninflight;) {
			if (aio_error(p->inflight[i]) == EINPROGRESS) {
				i++;
				continue;
			}
			aio_return((struct aiocb *)p->inflight[i]);
			p->inflight[i] = p->inflight[--p->ninflight];
		}
	}
	free(p->cbs);
	free(p->staged);
	free(p->inflight);
	free(p->data);
	free(p);
	io->priv = NULL;
}

const struct engine_ops engine_paio = {
	.name = "paio",
	.aliases = { "posixaio" },
	.summary = "POSIX aio (lio_listio, aio_suspend, aio_fsync), -q in flight",
	.flags = ENGINE_ASYNC | ENGINE_NO_TRIM,
	.fio_name = "posixaio",
	.fio_note = "one lio_listio per batch (fio's posixaio engine calls aio_read/aio_write for each I/O)",
	.init = paio_init,
	.queue = paio_queue,
	.commit = paio_commit,
	.reap = paio_reap,
	.cancel = paio_cancel,
	.cleanup = paio_cleanup,
};
