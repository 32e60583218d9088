/* io_uring.c - io_uring through liburing: a batch of SQEs per submit, CQEs
 * reaped in batches, the unit buffers and the file registered with the ring
 * when the kernel allows (else plain reads and writes, with a note), and
 * optionally SQ polling (--sqpoll) and polled completions (--hipri).
 * Built only with liburing (HAVE_LIBURING); otherwise the entry says what to
 * install.
 */
#include "config.h"
#include "engines/engine.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The engine's own options (engine_opts.h), in a build with liburing or
 * without: they parse, show in --help and are checked either way. */
struct uring_opts {
	bool sqpoll;		/* a kernel thread polls the SQ */
	bool hipri;		/* polled completions (IOPOLL) */
};

static const struct engine_opt uring_opts[] = {
	{ "sqpoll", offsetof(struct uring_opts, sqpoll),
	  "uring: a kernel thread polls the submission queue (no submit system call)",
	  "sqthread_poll" },
	{ "hipri", offsetof(struct uring_opts, hipri),
	  "uring: polled completions (IOPOLL); needs O_DIRECT and a device with poll queues",
	  NULL },
	{ NULL, 0, NULL, NULL }
};
_Static_assert(sizeof(struct uring_opts) <= ENGINE_OPTS_SIZE,
	       "uring's options outgrow struct engine_opts");

static struct uring_opts uring_opts_of(const void *o)
{
	struct uring_opts u;

	memcpy(&u, o, sizeof(u));
	return u;
}

static void uring_describe(const void *o, const struct engine_words *w)
{
	struct uring_opts u = uring_opts_of(o);

	engine_word_flag(w, "sqpoll", u.sqpoll, "sqthread_poll=1");
	engine_word_flag(w, "hipri", u.hipri, "hipri=1");
}

/* Polled completions need O_DIRECT, and a device with poll queues. */
static int uring_check(const void *o, const struct engine_check *c, char *err,
		       size_t len)
{
	struct uring_opts u = uring_opts_of(o);

	if (u.hipri && !c->target && c->paged) {
		snprintf(err, len, "--hipri: polled completions need O_DIRECT; drop -p");
		return -EINVAL;
	}
	if (u.hipri && c->target && c->io_poll == 0) {
		snprintf(err, len, "--hipri: %s has no poll queues (its queue/io_poll is 0), so polled completions would fail; drop --hipri, or give the driver poll queues (nvme: poll_queues=N)",
			 c->target);
		return -EINVAL;
	}
	return 0;
}

/* What the engine is, in a build with liburing or without: --engines
 * lists it, and its options are checked, either way. */
#define URING_DESCRIPTION \
	.name = "uring", \
	.aliases = { "io_uring" }, \
	.summary = "io_uring (liburing), -q in flight, batched, registered buffers, IORING_OP_FSYNC/SYNC_FILE_RANGE", \
	.flags = ENGINE_ASYNC | ENGINE_NO_TRIM | ENGINE_ONE_FILE | \
		 ENGINE_FD_PER_IO | ENGINE_RWF_DSYNC | ENGINE_SYNC_RANGE, \
	.fio_name = "io_uring", \
	.fio_extra = { "fixedbufs=1", "registerfiles=1" }, \
	.max_qd = 32768,	/* IORING_MAX_ENTRIES */ \
	.opts = uring_opts, \
	.opts_size = sizeof(struct uring_opts), \
	.describe = uring_describe, \
	.check = uring_check

#ifdef HAVE_LIBURING
#include <fcntl.h>	/* SYNC_FILE_RANGE_* */
#include <liburing.h>
#include <sys/uio.h>	/* RWF_DSYNC */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "engines/iokind.h"

struct uring_state {
	struct io_uring ring;
	bool ring_ok;
	bool disabled;		/* created disabled (and with deferred task
				 * work): the worker enables it */
	bool fixed_bufs;
	bool fixed_file;
	unsigned staged;
	unsigned inflight;	/* submitted, completion not yet reaped */
};

/* Registered buffers: the units' at 0..qd-1 and, in a read/write mix,
 * their write buffers at qd..2qd-1 (see write_index()). */
static void register_resources(struct io_ctx *io, struct uring_state *s)
{
	bool mixed = io->qd && io->units[0].wbuf != io->units[0].buf;
	unsigned n = mixed ? 2 * io->qd : io->qd, i;
	struct iovec *iov = calloc(n, sizeof(*iov));
	int ret = -ENOMEM;

	if (iov) {
		for (i = 0; i < io->qd; i++) {
			iov[i].iov_base = io->units[i].buf;
			iov[i].iov_len = io->bs;
			if (mixed) {
				iov[io->qd + i].iov_base = io->units[i].wbuf;
				iov[io->qd + i].iov_len = io->bs;
			}
		}
		ret = io_uring_register_buffers(&s->ring, iov, n);
		free(iov);
	}
	s->fixed_bufs = ret == 0;
	/* many files: the descriptor of each I/O is its file's, not one
	 * registered here */
	s->fixed_file = !io->fd_per_io &&
			io_uring_register_files(&s->ring, &io->fd, 1) == 0;
	if (!s->fixed_bufs || (!s->fixed_file && !io->fd_per_io))
		snprintf(io->note, sizeof(io->note),
			 "uring: the kernel refused to register the %s (%s); using plain reads and writes for them",
			 !s->fixed_bufs ? "buffers" : "file",
			 !s->fixed_bufs ? strerror(-ret) : "register_files failed");
}

static int uring_init(struct io_ctx *io)
{
	struct uring_state *s = calloc(1, sizeof(*s));
	struct uring_opts o = uring_opts_of(&io->opts);
	struct io_uring_params p;
	int ret;

	if (!s)
		return -ENOMEM;
	io->priv = s;
	memset(&p, 0, sizeof(p));
	if (o.sqpoll) {
		p.flags |= IORING_SETUP_SQPOLL;
		p.sq_thread_idle = 1000;	/* ms before the poller sleeps */
	}
	if (o.hipri)
		p.flags |= IORING_SETUP_IOPOLL;
	/*
	 * One thread submits and reaps each ring: say so (SINGLE_ISSUER) and
	 * run completion work only when that thread waits (DEFER_TASKRUN),
	 * which saves an interrupt of the thread per completion, as fio does.
	 * The submitting thread must be the one that enables the ring, hence
	 * R_DISABLED here and io_uring_enable_rings() in uring_thread_start.
	 * Kernels before 6.1 refuse these flags: then plain set-up.
	 */
	if (!o.sqpoll) {
		struct io_uring_params q = p;

		q.flags |= IORING_SETUP_R_DISABLED | IORING_SETUP_SINGLE_ISSUER |
			   IORING_SETUP_DEFER_TASKRUN;
		ret = io_uring_queue_init_params(io->qd, &s->ring, &q);
		if (!ret) {
			s->disabled = true;
			goto ring_ready;
		}
	}
	ret = io_uring_queue_init_params(io->qd, &s->ring, &p);
	if (ret) {
		snprintf(io->err, sizeof(io->err), "io_uring setup with %u entries failed: %s%s",
			 io->qd, strerror(-ret),
			 ret == -ENOMEM ? " (the locked-memory limit is too low: raise ulimit -l, or lower -q)" :
			 ret == -EPERM ? " (io_uring is disabled: see /proc/sys/kernel/io_uring_disabled)" :
			 ret == -EINVAL && o.hipri ? " (polled completions need O_DIRECT and a device with poll queues)" : "");
		return ret;
	}
ring_ready:
	s->ring_ok = true;
	register_resources(io, s);
	return 0;
}

static int uring_thread_start(struct io_ctx *io)
{
	struct uring_state *s = io->priv;

	if (!s->disabled)
		return 0;
	/* liburing 2.3 declares io_uring_enable_rings() but does not export
	 * it: make the register call it would make. */
	if (syscall(__NR_io_uring_register, s->ring.ring_fd,
		    IORING_REGISTER_ENABLE_RINGS, NULL, 0) < 0)
		return -errno;
	return 0;
}

static inline __attribute__((always_inline)) int
uring_stage(struct io_ctx *io, struct uring_state *s, struct io_unit *u)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);
	int fd = s->fixed_file ? 0 : io->fd;
	bool rd = u->kind == IO_READ;

	if (!sqe)
		return -EBUSY;	/* cannot happen: qd entries, qd units */
	if (u->kind == IO_SYNC_RANGE) {
		io_uring_prep_sync_file_range(sqe, fd, u->span, u->off,
					      IO_SYNC_RANGE_FLAGS);
	} else if (IO_IS_FLUSH(u->kind)) {
		io_uring_prep_fsync(sqe, fd, u->kind == IO_FDATASYNC ?
					     IORING_FSYNC_DATASYNC : 0);
	} else if (s->fixed_bufs) {
		if (rd)
			io_uring_prep_read_fixed(sqe, fd, u->buf, u->len,
						 u->off, (int)u->idx);
		else
			io_uring_prep_write_fixed(sqe, fd, u->wbuf, u->len,
						  u->off, (int)(u->wbuf == u->buf ?
						  u->idx : io->qd + u->idx));
	} else if (rd) {
		io_uring_prep_read(sqe, fd, u->buf, u->len, u->off);
	} else {
		io_uring_prep_write(sqe, fd, u->wbuf, u->len, u->off);
	}
	if (!rd && !IO_IS_FLUSH(u->kind) && io->rwf_dsync)
		sqe->rw_flags = RWF_DSYNC;
	if (s->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, u);
	s->staged++;
	return 0;
}

static int uring_queue(struct io_ctx *io, struct io_unit *u)
{
	return uring_stage(io, io->priv, u);
}

/* A batch of one kind: the same SQEs as uring_queue() makes, in one call,
 * in the same order (engine.h); the ring has room for all or none of them
 * is staged. */
static int uring_queue_plain(struct io_ctx *io, struct io_unit **units,
			     unsigned n)
{
	struct uring_state *s = io->priv;

	const int kind = units[n - 1]->kind;
	const bool rd = kind == IO_READ;
	const int fd = s->fixed_file ? 0 : io->fd;
	const __u8 flags = s->fixed_file ? IOSQE_FIXED_FILE : 0;
	const __u32 rw_flags = !rd && io->rwf_dsync ? RWF_DSYNC : 0;
	struct io_uring_sq *sq = &s->ring.sq;
	const unsigned mask = *sq->kring_mask;
	unsigned tail = sq->sqe_tail;

	if (io_uring_sq_space_left(&s->ring) < n)
		return -EBUSY;	/* cannot happen: qd entries, qd units */
	if (!s->fixed_bufs || (kind != IO_READ && kind != IO_WRITE)) {
		while (n)
			uring_stage(io, s, units[--n]);
		return 0;
	}
	/* registered buffers: uring_stage()'s SQEs, what does not change
	 * from one to the next asked once, in the slots io_uring_get_sqe()
	 * would give (the room is there; no SQE128: never asked for) */
	s->staged += n;
	while (n) {
		struct io_unit *u = units[--n];
		struct io_uring_sqe *sqe = &sq->sqes[tail++ & mask];

		if (rd) {
			io_uring_prep_read_fixed(sqe, fd, u->buf, u->len,
						 u->off, (int)u->idx);
		} else {
			io_uring_prep_write_fixed(sqe, fd, u->wbuf, u->len,
						  u->off, (int)(u->wbuf == u->buf ?
						  u->idx : io->qd + u->idx));
			sqe->rw_flags = rw_flags;
		}
		sqe->flags = flags;
		io_uring_sqe_set_data(sqe, u);
	}
	sq->sqe_tail = tail;
	return 0;
}

static int uring_commit(struct io_ctx *io)
{
	struct uring_state *s = io->priv;
	int ret;

	while (s->staged) {
		/* With deferred task work, completions reach the CQ only when
		 * this thread enters with GETEVENTS: doing so on submit often
		 * lets reap() find them without another system call. */
		ret = s->disabled ? io_uring_submit_and_get_events(&s->ring) :
				    io_uring_submit(&s->ring);
		if (ret == -EINTR)
			continue;
		if (ret == -EAGAIN || ret == -EBUSY) {
			/* the kernel holds too much: let a completion arrive
			 * (it stays in the CQ for reap()) before trying again.
			 * With nothing in flight none ever will: an error,
			 * never a spin. */
			struct io_uring_cqe *cqe;

			if (!s->inflight)
				return ret;
			ret = io_uring_wait_cqe(&s->ring, &cqe);
			if (ret && ret != -EINTR)
				return ret;
			continue;
		}
		if (ret < 0)
			return ret;
		s->inflight += (unsigned)ret;
		s->staged -= (unsigned)ret < s->staged ? (unsigned)ret : s->staged;
	}
	return 0;
}

static int uring_reap(struct io_ctx *io, unsigned min, struct io_unit **done)
{
	struct uring_state *s = io->priv;
	struct io_uring_cq *cq = &s->ring.cq;
	const unsigned mask = *cq->kring_mask;
	struct io_uring_cqe *cqe;
	unsigned head, tail, n = 0, seen = 0;
	int ret;

	do {
		ret = io_uring_wait_cqe_nr(&s->ring, &cqe, min);
	} while (ret == -EINTR || ret == -EAGAIN);
	if (ret)
		return ret;
	/* the CQEs there now, as io_uring_for_each_cqe() walks them, with
	 * the tail read once (acquire: their contents are visible) and no
	 * CQE32 (never asked for); those that arrive meanwhile wait for the
	 * next reap */
	head = *cq->khead;
	tail = io_uring_smp_load_acquire(cq->ktail);
	for (; head != tail && n < io->qd; head++) {
		const struct io_uring_cqe *c = &cq->cqes[head & mask];
		struct io_unit *u = io_uring_cqe_get_data(c);

		seen++;
		if (!u)
			continue;	/* the cancel request's own completion */
		u->res = c->res;
		done[n++] = u;
	}
	io_uring_cq_advance(&s->ring, seen);
	s->inflight -= seen < s->inflight ? seen : s->inflight;
	return (int)n;
}

/* One request cancels every I/O of the ring that has not reached the
 * device yet (5.19+; older kernels answer -EINVAL and all complete). */
static void uring_cancel(struct io_ctx *io)
{
	struct uring_state *s = io->priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);

	if (!sqe)
		return;
	io_uring_prep_cancel64(sqe, 0, IORING_ASYNC_CANCEL_ANY);
	io_uring_sqe_set_data(sqe, NULL);
	s->staged++;
	uring_commit(io);
}

static void uring_cleanup(struct io_ctx *io)
{
	struct uring_state *s = io->priv;

	if (!s)
		return;
	if (s->ring_ok)
		io_uring_queue_exit(&s->ring);
	free(s);
	io->priv = NULL;
}

const struct engine_ops engine_uring = {
	URING_DESCRIPTION,
	.init = uring_init,
	.thread_start = uring_thread_start,
	.queue = uring_queue,
	.queue_plain = uring_queue_plain,
	.commit = uring_commit,
	.reap = uring_reap,
	.cancel = uring_cancel,
	.cleanup = uring_cleanup,
};

#else

const struct engine_ops engine_uring = {
	URING_DESCRIPTION,
	.unavailable = "this rebench was built without liburing; install liburing-dev (apt-get install liburing-dev) and rebuild",
};

#endif
