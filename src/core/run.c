/* run.c - threads, the common start, the hot loop and stopping.
 *
 * All threads of all workloads meet at one barrier; the serial thread reads
 * the clock between two barrier waits, so every thread sees the same start
 * time and the run starts for all of them at once.  The main thread then
 * waits for signals with sigtimedwait (workers block them) and turns
 * SIGINT/SIGTERM into a stop flag that workers poll once per I/O.
 *
 * Per I/O the loop does: the stream's next I/O (operation, offset, size),
 * two clock reads around the system call, and stats_record(): no locks, no
 * formatting and no allocation (the series is sized up front for timed
 * runs).  With --delay it also waits (delay.h) between the end of the call
 * and the completion's clock read, so the latency includes the wait; the
 * loops are compiled twice, with and without it, so that a run without
 * --delay runs the very loop it always did.
 *
 * With --rate (rate.h) a loop of its own waits for each I/O's intended
 * start with the same timer (delay_wait()), then times it as the others
 * do and also from that intended start; which loop runs is decided once,
 * so a run without --rate runs the very loop it always did.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "target/flush_honesty.h"
#include "target/devstat.h"
#include "core/memory.h"
#include "core/runinfo.h"
#include "core/signals.h"
#include "core/syncpol.h"
#include "core/verify.h"
#include "core/workload.h"
#include "engines/sysio.h"

/*
 * One run of run_workloads(): what its threads and its main thread share,
 * on the heap from the start of the call to its return.  Workers reach it
 * through w->loop; the hot loop reads only stop, through a pointer it
 * keeps in a register.
 */
struct run_loop {
	atomic_int stop;	/* polled once per I/O; the futex word too */
	atomic_int running;	/* threads not done yet */
	uint64_t start_ns;	/* the measured start (CLOCK_MONOTONIC) */
	uint64_t warmup_ns;	/* --warmup: an unmeasured phase first */
	pthread_t main_thread;	/* woken by the last worker to finish */
	pthread_barrier_t start_barrier;
	/* the gate (pass_gate()) */
	pthread_mutex_t gate_lock;
	pthread_cond_t gate_cond;
	int gate;		/* 0 closed, 1 open, -1 abort */
	struct run_env *env;	/* the caller's, else own */
	struct run_env own;	/* none: no watchers, no --start-at */
};

/* I/Os for ten beyond p99.9: fewer and the tail percentiles warn. */
#define PERCENTILE_STABLE_IOS 10000

/* err_kind of a thread whose engine failed to start, not an I/O. */
#define IO_KIND_START (-1)
/* err_kind of a thread whose statistics reached the memory budget. */
#define IO_KIND_MEMORY (-2)
/* err_kind of a failed wait for completions: no one I/O is to blame. */
#define IO_KIND_REAP (-3)
/* err_kind of a stream that refused its next I/O (stream.h, s->error). */
#define IO_KIND_STREAM (-4)

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/*
 * Threads are created one by one and any creation may fail, so none may
 * reach the start barrier (sized for all of them) before all exist: they
 * first wait at this gate, which opens to start or to abort.  Once per run,
 * never on the I/O path.
 */
static bool pass_gate(struct run_loop *l)
{
	int g;

	pthread_mutex_lock(&l->gate_lock);
	while (!l->gate)
		pthread_cond_wait(&l->gate_cond, &l->gate_lock);
	g = l->gate;
	pthread_mutex_unlock(&l->gate_lock);
	return g > 0;
}

static void set_gate(struct run_loop *l, int g)
{
	pthread_mutex_lock(&l->gate_lock);
	l->gate = g;
	pthread_cond_broadcast(&l->gate_cond);
	pthread_mutex_unlock(&l->gate_lock);
}

static void request_stop(struct run_loop *l);

uint64_t run_realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The main thread, prepared: sleep until --start-at (a stop signal ends
 * the wait), once; the hosts of --hosts start together so. */
static bool wait_for_start_at(struct run_loop *l)
{
	struct run_start_at *sa = l->env->start_at;
	struct timespec ts;
	uint64_t now;

	if (!sa || !sa->at_ns || sa->real_ns)
		return false;
	ts.tv_sec = (time_t)(sa->at_ns / 1000000000ULL);
	ts.tv_nsec = (long)(sa->at_ns % 1000000000ULL);
	while (!signals_stop_requested() &&
	       clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	now = run_realtime_ns();
	sa->real_ns = now;
	sa->late_ns = now > sa->at_ns ? now - sa->at_ns : 0;
	if (signals_stop_requested())
		request_stop(l);
	return signals_stop_requested() != 0;
}

static void wait_for_start(struct run_loop *l)
{
	if (pthread_barrier_wait(&l->start_barrier) ==
	    PTHREAD_BARRIER_SERIAL_THREAD)
		l->start_ns = now_ns();
	pthread_barrier_wait(&l->start_barrier);
}

/* Think time: sleep until now + ns, but wake at once when the run is
 * stopped (the stop flag is also the futex word, see request_stop()).  The
 * absolute deadline keeps spurious wake-ups from stretching the pause. */
static void pause_for(atomic_int *stop, uint64_t ns)
{
	uint64_t end = now_ns() + ns;
	struct timespec ts = {
		.tv_sec = (time_t)(end / NSEC_PER_SEC),
		.tv_nsec = (long)(end % NSEC_PER_SEC),
	};

	while (!atomic_load_explicit(stop, memory_order_relaxed) &&
	       now_ns() < end)
		syscall(SYS_futex, stop,
			FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, 0, &ts, NULL,
			FUTEX_BITSET_MATCH_ANY);
}

/* Stop every thread, and wake those pausing for think time. */
static void request_stop(struct run_loop *l)
{
	atomic_store(&l->stop, 1);
	syscall(SYS_futex, &l->stop, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, INT_MAX,
		NULL, NULL, 0);
}

/* The first failure of a thread stops the run.  done: bytes a short
 * transfer moved (err is then -EIO), else -1. */
static void fail(struct worker *w, int err, int kind, uint64_t off,
		 int64_t done)
{
	if (w->error)
		return;
	w->error = err;
	w->err_kind = kind;
	w->err_off = off;
	w->err_done = done;
	request_stop(w->loop);
}

/* The failure of one I/O; done is what a short transfer moved, or -1. */
static void fail_io(struct worker *w, int err, int kind, uint64_t off,
		    uint32_t len, int64_t done)
{
	if (!w->error)
		w->err_len = len;
	fail(w, err, kind, off, done);
}

/* Make the I/O r, started at t0, and record it: its end (after any
 * --delay) in *t1; false when the run must stop (a failed or short I/O,
 * the memory budget).  Inlined into each loop: delayed is a constant in
 * sync_loop()'s copies. */
static inline __attribute__((always_inline)) bool
sync_one(struct worker *w, ssize_t (*sync_io)(struct io_ctx *, int, uint64_t, size_t),
	 const struct io_req *r, uint64_t base, uint64_t t0, uint64_t *t1,
	 const bool delayed)
{
	const struct spec *s = &w->wl->spec;
	/* a sync_file_range's len is its span; it returns 0 */
	ssize_t ret = sync_io(&w->io, r->kind, r->off, r->len + (size_t)r->span);
	uint64_t t = now_ns();

	if (delayed && s->delay.ns[r->kind] && ret == (ssize_t)r->len)
		t = delay_wait(&w->delay, t, s->delay.ns[r->kind]);
	if (ret != (ssize_t)r->len) {
		fail_io(w, ret < 0 ? (int)ret : -EIO, r->kind, r->off, r->len,
			ret);
		return false;
	}
	if (stats_record(&w->st, r->kind, r->off, r->len, t - base, t - t0)) {
		fail(w, -ENOMEM, IO_KIND_MEMORY, r->off, -1);
		return false;
	}
	*t1 = t;
	return true;
}

/* One I/O at a time: clock, system call, [delay,] clock.  delayed is a
 * constant at each call (run_sync()): the loop without it has no trace of
 * the delay. */
static inline __attribute__((always_inline)) void
sync_loop(struct worker *w, uint64_t base, uint64_t deadline,
	  const bool delayed)
{
	const struct spec *s = &w->wl->spec;
	ssize_t (*sync_io)(struct io_ctx *, int, uint64_t, size_t) =
		w->wl->run.eng->sync_io;
	struct io_stream *src = &w->stream;
	atomic_int *stop = &w->loop->stop;
	const uint64_t pause_ns = s->pause_ns;	/* a load less per I/O */
	struct io_req r;
	uint64_t t0, t1;

	for (;;) {
		if (atomic_load_explicit(stop, memory_order_relaxed))
			break;
		if (!stream_next(src, &r)) {
			if (src->error)
				fail(w, src->error, IO_KIND_STREAM, 0, -1);
			break;
		}
		t0 = now_ns();
		if (!sync_one(w, sync_io, &r, base, t0, &t1, delayed))
			break;
		if (t1 >= deadline)
			break;
		if (pause_ns) {
			/* think time never runs past the deadline */
			if (deadline - t1 <= pause_ns) {
				pause_for(stop, deadline - t1);
				break;
			}
			pause_for(stop, pause_ns);
		}
	}
}

/*
 * --rate's loop: each I/O waits for its intended start (rate.h) on the
 * thread's own delay_clock, with no carry (the schedule is absolute: an
 * overshoot is not paid back by a shorter interval, which would move the
 * schedule), unless that start has passed already (the thread is late:
 * the device or the machine held it up).  The latency recorded is the
 * usual one, submission to completion; the rate's histogram gets the
 * completion from the intended start.  No I/O starts after the deadline.
 */
static void sync_rate_loop(struct worker *w, uint64_t base, uint64_t deadline)
{
	const struct spec *s = &w->wl->spec;
	ssize_t (*sync_io)(struct io_ctx *, int, uint64_t, size_t) =
		w->wl->run.eng->sync_io;
	struct io_stream *src = &w->stream;
	struct rate_thread *rt = w->rate;
	atomic_int *stop = &w->loop->stop;
	const bool delayed = delay_any(&s->delay);
	struct io_req r;
	uint64_t intended, t0, t1;
	bool waited;

	for (;;) {
		if (atomic_load_explicit(stop, memory_order_relaxed))
			break;
		intended = rate_sched_next(&rt->sched);
		if (intended >= deadline) {
			/* the schedule's next start lies past the end: an
			 * open-loop client idles until then, so the run
			 * lasts its -d (and its last interval is whole) */
			t0 = now_ns();
			if (t0 < deadline)
				pause_for(stop, deadline - t0);
			break;
		}
		if (!stream_next(src, &r)) {
			if (src->error)
				fail(w, src->error, IO_KIND_STREAM, 0, -1);
			break;
		}
		t0 = now_ns();
		waited = t0 < intended;
		if (waited) {
			rt->clock.carry_ns = 0;
			t0 = delay_wait(&rt->clock, t0, intended - t0);
			if (atomic_load_explicit(stop, memory_order_relaxed))
				break;
		}
		if (!sync_one(w, sync_io, &r, base, t0, &t1, delayed))
			break;
		rate_thread_record(rt, intended, t0, t1, waited);
		if (t1 >= deadline)
			break;
	}
}

/*
 * The loop of a plain stream (stream.h) with neither --delay nor think
 * time, which is most runs: every I/O has the stream's one kind and size,
 * its offset drawn inline (the draws synth_next() makes), and the byte
 * budget is a count of I/Os fixed before the loop, so that per I/O
 * nothing is asked that is known before it.  The same I/Os, clock reads
 * and statistics as sync_loop().  direct: the stateless engine's pread or
 * pwrite made here as a bare system call (sysio.h), as stateless_io() makes
 * it, without the call through the engine's table.
 */
static inline __attribute__((always_inline)) void
sync_plain_loop(struct worker *w, uint64_t base, uint64_t deadline,
		const bool direct, const bool uniform)
{
	ssize_t (*sync_io)(struct io_ctx *, int, uint64_t, size_t) =
		w->wl->run.eng->sync_io;
	struct io_stream *src = &w->stream;
	atomic_int *stop = &w->loop->stop;
	const int kind = src->kinds[0];
	const uint32_t len = src->len;
	const int fd = w->io.fd;
	const long nr = kind == IO_READ ? SYS_pread64 : SYS_pwrite64;
	void *const buf = kind == IO_READ ? w->io.buf : w->io.wbuf;
	const uint64_t ios = stream_plain_left(src);
	uint64_t left = ios, off, t0, t1;
	ssize_t ret;

	while (left) {
		if (atomic_load_explicit(stop, memory_order_relaxed))
			break;
		off = stream_plain_next(src, uniform);
		left--;
		t0 = now_ns();
		ret = direct ? sys_pio(nr, fd, buf, len, off) :
			       sync_io(&w->io, kind, off, len);
		t1 = now_ns();
		if (__builtin_expect(ret != (ssize_t)len, 0)) {
			fail_io(w, ret < 0 ? (int)ret : -EIO, kind, off, len,
				ret);
			break;
		}
		if (stats_record(&w->st, kind, off, len, t1 - base, t1 - t0)) {
			fail(w, -ENOMEM, IO_KIND_MEMORY, off, -1);
			break;
		}
		if (t1 >= deadline)
			break;
	}
	stream_plain_spent(src, ios - left);
}

/* --verify: the block at off (index b of the map), in w->io.buf, checked
 * against its last generation and counted; read first when read.  false:
 * the run must stop (a mismatch without --verify-continue, or a failed
 * read, which fail_io() has recorded). */
static bool verify_block_at(struct worker *w, uint64_t off, uint64_t b,
			    bool read)
{
	struct verify_run *v = &w->wl->run.verify;
	const size_t bs = (size_t)v->bs;
	struct verify_mismatch m;
	ssize_t ret;
	int cls;

	if (read) {
		ret = pread(w->io.fd, w->io.buf, bs, (off_t)off);
		if (ret != (ssize_t)bs) {
			fail_io(w, ret < 0 ? -errno : -EIO, IO_READ, off,
				(uint32_t)bs, ret < 0 ? -1 : ret);
			return false;
		}
	}
	cls = verify_check_block(v, w->io.buf, off, b, &m);
	verify_note(v, cls, &m);
	if (cls == VC_OK)
		return true;
	if (w->wl->spec.verify_continue) {
		/* each named as found (the report names the first), up to
		 * VERIFY_NAMED; the rest counted */
		uint64_t bad = v->res.checked - v->res.count[VC_OK];

		if (bad <= VERIFY_NAMED)
			fprintf(stderr, "rebench: verify: offset %llu of %s: %s: expected %s; found %s\n",
				(unsigned long long)off, w->wl->tgt.path,
				verify_class_name(cls), m.expected, m.found);
		if (bad == VERIFY_NAMED)
			fprintf(stderr, "rebench: verify: %d mismatches named; the rest are counted only\n",
				VERIFY_NAMED);
		return true;
	}
	v->res.stopped = true;
	request_stop(w->loop);
	return false;
}

/*
 * The loop of a --verify workload (verify.h), never taken without it:
 * sync_loop()'s, with each write's block filled first (its header and the
 * payload of the block's next generation), and each block checked after
 * its I/O: a write read back at once with --verify-mode inline, a read
 * (rw, --verify-only) checked when the map says the block was written.
 * The read-back is not timed.
 */
static __attribute__((noinline)) void
sync_verify_loop(struct worker *w, uint64_t base, uint64_t deadline)
{
	const struct spec *s = &w->wl->spec;
	ssize_t (*sync_io)(struct io_ctx *, int, uint64_t, size_t) =
		w->wl->run.eng->sync_io;
	struct verify_run *v = &w->wl->run.verify;
	const bool inline_check = s->verify_mode == VERIFY_INLINE;
	struct io_stream *src = &w->stream;
	atomic_int *stop = &w->loop->stop;
	struct io_req r;
	uint64_t t0, t1, b;
	uint32_t gen_before = 0;

	for (;;) {
		if (atomic_load_explicit(stop, memory_order_relaxed))
			break;
		if (!stream_next(src, &r)) {
			if (src->error)
				fail(w, src->error, IO_KIND_STREAM, 0, -1);
			break;
		}
		b = IO_IS_FLUSH(r.kind) ? UINT64_MAX : verify_block(v, r.off);
		if (r.kind == IO_WRITE && b != UINT64_MAX) {
			gen_before = v->gen[b];
			if (!++v->gen[b])
				v->gen[b] = 1;	/* 2^32 writes of one block */
			verify_fill(w->io.wbuf, r.len, v->res.algo, r.off,
				    v->seed, v->gen[b]);
		}
		t0 = now_ns();
		/* no --delay with --verify (validate.c) */
		if (!sync_one(w, sync_io, &r, base, t0, &t1, false)) {
			/* a failed write never landed; one whose statistics
			 * met the memory budget did, but goes unlogged (a
			 * claim lost, never one invented) */
			if (r.kind == IO_WRITE && b != UINT64_MAX &&
			    w->err_kind != IO_KIND_MEMORY)
				v->gen[b] = gen_before;
			break;
		}
		/* --verify-log: what this acknowledgement made durable */
		if (v->log && r.kind == IO_WRITE && b != UINT64_MAX)
			verify_log_acked(v->log, b);
		else if (v->log && (r.kind == IO_FSYNC || r.kind == IO_FDATASYNC))
			verify_log_flushed(v->log);
		if (b != UINT64_MAX && r.kind == IO_WRITE && inline_check) {
			/* a read of the device's the statistics do not see */
			v->res.inline_read_bytes += r.len;
			if (!verify_block_at(w, r.off, b, true))
				break;
		} else if (b != UINT64_MAX && r.kind == IO_READ &&
			   verify_wanted(v, b) &&
			   !verify_block_at(w, r.off, b, false)) {
			break;
		}
		if (t1 >= deadline)
			break;
		if (s->pause_ns) {
			if (deadline - t1 <= s->pause_ns) {
				pause_for(stop, deadline - t1);
				break;
			}
			pause_for(stop, s->pause_ns);
		}
	}
}

/* --verify-mode after: every block the map says was written, read back
 * and checked in offset order once the writes are done, by the main
 * thread after the threads and the device counters (untimed, outside
 * the measured run), unless a stop signal came. */
static void verify_pass(struct worker *w)
{
	struct verify_run *v = &w->wl->run.verify;
	uint64_t b, t0 = now_ns();

	for (b = 0; b < v->nblocks; b++) {
		if (signals_stop_requested())
			break;
		if (v->gen[b] &&
		    !verify_block_at(w, v->region_start + b * v->bs, b, true))
			break;
	}
	v->res.pass_ns = now_ns() - t0;
}

/* The stateless engine's reads, and its writes unless each carries
 * RWF_DSYNC: a bare pread or pwrite (stateless_io() in engines/sync.c). */
static bool sync_direct(const struct worker *w)
{
	int kind = w->stream.kinds[0];

	return w->wl->run.eng == &engine_stateless &&
	       (kind == IO_READ || (kind == IO_WRITE && !w->io.rwf_dsync));
}

/* Which loop, decided once: every per-I/O option that the plain loop
 * leaves out is asked here. */
static void run_sync(struct worker *w, uint64_t base, uint64_t deadline)
{
	const struct spec *s = &w->wl->spec;

	if (s->verify)
		sync_verify_loop(w, base, deadline);
	else if (delay_any(&s->delay))
		sync_loop(w, base, deadline, true);
	else if (!w->stream.plain || s->pause_ns)
		sync_loop(w, base, deadline, false);
	else if (!sync_direct(w))
		sync_plain_loop(w, base, deadline, false,
				stream_plain_uniform(&w->stream));
	else if (stream_plain_uniform(&w->stream))
		sync_plain_loop(w, base, deadline, true, true);
	else
		sync_plain_loop(w, base, deadline, true, false);
}

/*
 * qd I/Os in flight: stage and submit whole batches while a batch of units
 * is free, then reap at least a batch (or all that remain).  One clock read
 * per submitted batch and one per reaped batch: every I/O of a batch shares
 * its submit time, every I/O reaped together shares its completion time.
 *
 * The deadline is checked after every submitted batch, so a deep queue
 * (thousands of I/Os) cannot keep submitting past -d; at the deadline or a
 * stop the engine cancels what it can of the I/Os in flight (their
 * completions, -ECANCELED, count as neither done nor failed) and the rest
 * are reaped, so the run's elapsed time, which includes that drain, is
 * what ops/s is divided by.
 */
/* The loop state of run_async(). */
struct async_loop {
	struct io_unit **free_units, **done;
	atomic_int *stop;	/* the run's (struct run_loop) */
	unsigned nfree, inflight;
	bool stopping, cancelled;
	uint64_t left;		/* a plain stream: I/Os it has still to give */
};

/*
 * A plain stream's batch (stream.h; the engine has queue_plain): the units
 * on top of the free list, each given its offset in the order
 * submit_batches() takes them (the top first), and staged with one call
 * in that order: the same units, offsets and order as one queue() each.
 * The number staged; the stream ends (l->stopping) with a short batch, or
 * when staging fails (then nothing is staged).
 */
static inline __attribute__((always_inline)) unsigned
stage_plain(struct worker *w, struct async_loop *l, unsigned batch,
	    const bool uniform)
{
	struct io_stream *src = &w->stream;
	unsigned n = l->left < batch ? (unsigned)l->left : batch, i;
	struct io_unit **us = l->free_units + l->nfree - n;
	int ret;

	if (n < batch)
		l->stopping = true;	/* the stream ends with this batch */
	if (!n)
		return 0;
	for (i = n; i-- > 0;) {
		struct io_unit *u = us[i];

		u->kind = src->kinds[0];
		u->off = stream_plain_next(src, uniform);
		u->len = src->len;
		u->span = 0;
	}
	l->left -= n;
	ret = w->wl->run.eng->queue_plain(&w->io, us, n);
	if (ret) {
		/* as queue() failing on the first of them */
		fail_io(w, ret, us[n - 1]->kind, us[n - 1]->off,
			us[n - 1]->len, -1);
		l->stopping = true;
		return 0;
	}
	l->nfree -= n;
	return n;
}

/* Stage and submit whole batches while a batch of units is free.  plain:
 * the stream is (stream.h) and the engine stages it a batch at a time
 * (stage_plain). */
static inline __attribute__((always_inline)) void
submit_batches(struct worker *w, struct async_loop *l, uint64_t deadline,
	       const bool plain, const bool uniform)
{
	const struct engine_ops *e = w->wl->run.eng;
	struct io_ctx *io = &w->io;
	const unsigned batch = io->batch;
	struct io_unit **free_units = l->free_units;
	unsigned staged, i;
	struct io_req r;
	uint64_t t;
	int ret;

	while (!l->stopping && l->nfree >= batch) {
		if (atomic_load_explicit(l->stop, memory_order_relaxed)) {
			l->stopping = true;
			break;
		}
		for (staged = 0; !plain && staged < batch; staged++) {
			struct io_unit *u;

			if (!stream_next(&w->stream, &r)) {
				if (w->stream.error)
					fail(w, w->stream.error,
					     IO_KIND_STREAM, 0, -1);
				l->stopping = true;
				break;
			}
			u = free_units[--l->nfree];
			u->kind = r.kind;
			u->off = r.off;
			u->len = r.len;
			u->span = r.span;
			ret = e->queue(io, u);
			if (ret) {
				fail_io(w, ret, u->kind, u->off, u->len, -1);
				l->stopping = true;
				break;
			}
		}
		if (plain)
			staged = stage_plain(w, l, batch, uniform);
		if (!staged)
			break;
		/* the batch just staged sits at free_units[nfree...] */
		t = now_ns();
		for (i = 0; i < staged; i++)
			free_units[l->nfree + i]->t_submit = t;
		ret = e->commit(io);
		if (ret) {
			fail_io(w, ret, free_units[l->nfree]->kind,
				free_units[l->nfree]->off,
				free_units[l->nfree]->len, -1);
			l->stopping = true;
			break;
		}
		l->inflight += staged;
		if (t >= deadline)
			l->stopping = true;
	}
}

/*
 * The reaped I/Os of a plain stream (its one kind and size) when the
 * statistics' fast path takes them (stats_fast_ok: every one completed at
 * t, in the same interval): those submitted together have the same
 * latency, and each run of them is recorded at once
 * (stats_record_fast_n), the same sums as one stats_record() each.
 */
static inline __attribute__((always_inline)) void
reap_plain(struct worker *w, struct async_loop *l, unsigned n, uint64_t t)
{
	const int kind = w->stream.kinds[0];
	const uint32_t len = w->stream.len;
	uint64_t run_t = 0, run_n = 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		struct io_unit *u = l->done[i];

		if (l->cancelled && u->res == -ECANCELED)
			;	/* asked for: neither done nor failed */
		else if (u->res != (int64_t)len)
			fail_io(w, u->res < 0 ? (int)u->res : -EIO, u->kind,
				u->off, u->len, u->res < 0 ? -1 : u->res);
		else if (!w->error) {
			if (u->t_submit != run_t) {
				if (run_n)
					stats_record_fast_n(&w->st, kind, len,
							    t - run_t, run_n);
				run_t = u->t_submit;
				run_n = 0;
			}
			run_n++;
		}
		l->free_units[l->nfree++] = u;
	}
	if (run_n)
		stats_record_fast_n(&w->st, kind, len, t - run_t, run_n);
}

/* Reap at least a batch (or all that remain) and count them; false when
 * the wait itself failed.  delayed (--delay, at -q 1: spec.c refuses more)
 * waits each reaped I/O's delay before the completion time is taken.
 * plain: the stream is (stream.h). */
static inline __attribute__((always_inline)) bool
reap_batch(struct worker *w, struct async_loop *l, uint64_t base,
	   uint64_t deadline, const bool delayed, const bool plain)
{
	const struct engine_ops *e = w->wl->run.eng;
	const unsigned batch = w->io.batch;
	uint64_t t;
	unsigned i;
	int n;

	if (l->stopping && !l->cancelled && e->cancel) {
		/* a byte-limited run's last I/Os are all wanted */
		l->cancelled = !w->stream.limited || w->error ||
			       atomic_load_explicit(l->stop, memory_order_relaxed);
		if (l->cancelled)
			e->cancel(&w->io);
	}
	n = e->reap(&w->io, l->inflight < batch ? l->inflight : batch, l->done);
	if (n < 0) {
		fail(w, n, IO_KIND_REAP, 0, -1);
		return false;
	}
	t = now_ns();
	for (i = 0; delayed && i < (unsigned)n; i++) {
		const struct io_unit *u = l->done[i];

		if (w->wl->spec.delay.ns[u->kind] && u->res == (int64_t)u->len)
			t = delay_wait(&w->delay, t, w->wl->spec.delay.ns[u->kind]);
	}
	i = 0;
	if (plain && stats_fast_ok(&w->st, w->stream.kinds[0], t - base)) {
		reap_plain(w, l, (unsigned)n, t);
		i = (unsigned)n;
	}
	for (; i < (unsigned)n; i++) {
		struct io_unit *u = l->done[i];

		if (l->cancelled && u->res == -ECANCELED)
			;	/* asked for: neither done nor failed */
		else if (u->res != (int64_t)u->len)
			fail_io(w, u->res < 0 ? (int)u->res : -EIO, u->kind,
				u->off, u->len, u->res < 0 ? -1 : u->res);
		else if (!w->error &&
			 stats_record(&w->st, u->kind, u->off, u->len, t - base,
				      t - u->t_submit))
			fail(w, -ENOMEM, IO_KIND_MEMORY, u->off, -1);
		l->free_units[l->nfree++] = u;
	}
	l->inflight -= (unsigned)n;
	if (t >= deadline || w->error)
		l->stopping = true;
	return true;
}

static inline __attribute__((always_inline)) void
async_loop(struct worker *w, uint64_t base, uint64_t deadline,
	   const bool delayed, const bool plain, const bool uniform)
{
	struct async_loop l = {
		.free_units = w->free_units,
		.done = w->done_units,
		.stop = &w->loop->stop,
		.nfree = w->io.qd,
		.left = plain ? stream_plain_left(&w->stream) : 0,
	};
	const uint64_t left = l.left;
	unsigned i;

	for (i = 0; i < w->io.qd; i++)
		l.free_units[i] = &w->io.units[w->io.qd - 1 - i];
	for (;;) {
		submit_batches(w, &l, deadline, plain, uniform);
		if (!l.inflight ||
		    !reap_batch(w, &l, base, deadline, delayed, plain))
			break;
	}
	if (plain)
		stream_plain_spent(&w->stream, left - l.left);
}

/* Which loop, decided once (the plain one: see sync_plain_loop()). */
static void run_async(struct worker *w, uint64_t base, uint64_t deadline)
{
	if (delay_any(&w->wl->spec.delay))
		async_loop(w, base, deadline, true, false, false);
	else if (!w->stream.plain || !w->wl->run.eng->queue_plain)
		async_loop(w, base, deadline, false, false, false);
	else if (stream_plain_uniform(&w->stream))
		async_loop(w, base, deadline, false, true, true);
	else
		async_loop(w, base, deadline, false, true, false);
}

/* The engine's loop from base until deadline (or the stream's end);
 * --rate's schedule starts at base. */
static void run_loop(struct worker *w, uint64_t base, uint64_t deadline)
{
	if (w->rate) {
		const struct spec *s = &w->wl->spec;

		rate_thread_reset(w->rate);
		rate_sched_init(&w->rate->sched, rate_ops(&s->rate, s->bs),
				(unsigned)s->threads, w->index,
				s->arrival == ARRIVAL_POISSON, s->seed, base);
		sync_rate_loop(w, base, deadline);	/* spec.c: sync only */
	} else if (w->wl->run.eng->flags & ENGINE_ASYNC)
		run_async(w, base, deadline);
	else
		run_sync(w, base, deadline);
}

/* One flush through the engine, outside the timed loop (the loops are
 * over, so every unit is free); 0 or -errno, the latency in *lat. */
static int flush_once(struct worker *w, const struct io_req *r, uint64_t *lat)
{
	const struct engine_ops *e = w->wl->run.eng;
	struct io_unit *u = &w->io.units[0];
	uint64_t t0 = now_ns();
	int64_t ret;

	if (e->flags & ENGINE_ASYNC) {
		u->kind = r->kind;
		u->off = r->off;
		u->len = 0;
		u->span = r->span;
		ret = e->queue(&w->io, u);
		if (!ret)
			ret = e->commit(&w->io);
		if (!ret)
			ret = e->reap(&w->io, 1, w->done_units) == 1 ?
			      u->res : -EIO;
	} else {
		ret = e->sync_io(&w->io, r->kind, r->off, r->span);
	}
	*lat = now_ns() - t0;
	return ret < 0 ? (int)ret : 0;
}

/*
 * The flushes the writes done so far are owed by the --sync policy,
 * floor(W / N) in all, that the loop did not issue before the clock
 * stopped (the last write's own, with fdatasync:1; a flush cancelled in
 * flight at the deadline).  Issued now, so every write the policy covers
 * is durable and the count is the policy's; with record, counted and
 * timed as their kind apart from the timed run (stats_record_end), else
 * (the end of --warmup) not counted.  The stream starts its count again.
 */
static void flush_owed(struct worker *w, uint64_t base, bool record)
{
	struct io_stream *src = &w->stream;
	uint64_t writes = thread_stats_ops(&w->st, IO_WRITE), owed, lat;
	struct io_req r = { .kind = src->flush_kind };
	int ret;

	if (!src->flush_every || w->error ||
	    atomic_load_explicit(&w->loop->stop, memory_order_relaxed))
		return;
	owed = writes / src->flush_every;
	owed = owed > thread_stats_ops(&w->st, src->flush_kind) ?
	       owed - thread_stats_ops(&w->st, src->flush_kind) : 0;
	if (!record && src->flush_due)
		owed = 1;	/* the warm-up's stats include its flushes */
	if (owed && src->flush_due)
		stream_next(src, &r);	/* its own range, for sfr */
	for (; owed; owed--) {
		ret = flush_once(w, &r, &lat);
		if (ret) {
			fail_io(w, ret, r.kind, r.off, 0, -1);
			return;
		}
		if (record)
			stats_record_end(&w->st, r.kind, now_ns() - base, lat);
		r.span = 0;	/* a second one (a cancelled flush): all */
		r.off = 0;
	}
	src->flush_due = false;
	src->since_flush = 0;
}

/* --warmup: the same loop until the warm-up ends, then forget what it
 * recorded.  Sequential workloads go on from where the warm-up left off. */
static void warm_up(struct worker *w)
{
	const struct run_loop *l = w->loop;
	bool limited = w->stream.limited;

	w->stream.limited = false;	/* a byte-limited run warms up for the time */
	run_loop(w, l->start_ns, l->start_ns + l->warmup_ns);
	flush_owed(w, l->start_ns, false);
	w->stream.limited = limited;
	thread_stats_reset(&w->st);
	w->stream.ops->reset_counts(&w->stream);
	w->delay.carry_ns = 0;	/* the warm-up's overshoots stay in it */
}

/* The last thread to finish wakes the main thread at once, rather than
 * at its next tick (which would add up to 50 ms to every short run). */
static void thread_done(struct run_loop *l)
{
	if (atomic_fetch_sub(&l->running, 1) == 1)
		pthread_kill(l->main_thread, SIGUSR1);
}

/* The CPU the calling thread used since *from: at its end, never per I/O. */
static void cpu_since(struct cpu_use *c, const struct rusage *from)
{
	struct rusage now;

	memset(c, 0, sizeof(*c));
	if (getrusage(RUSAGE_THREAD, &now))
		return;
	c->user_us = (uint64_t)((now.ru_utime.tv_sec - from->ru_utime.tv_sec) *
				1000000 +
				(now.ru_utime.tv_usec - from->ru_utime.tv_usec));
	c->sys_us = (uint64_t)((now.ru_stime.tv_sec - from->ru_stime.tv_sec) *
			       1000000 +
			       (now.ru_stime.tv_usec - from->ru_stime.tv_usec));
	c->nvcsw = (uint64_t)(now.ru_nvcsw - from->ru_nvcsw);
	c->nivcsw = (uint64_t)(now.ru_nivcsw - from->ru_nivcsw);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct run_loop *l = w->loop;
	const struct spec *s = &w->wl->spec;
	uint64_t base, deadline;
	struct rusage start;
	int ret = 0;

	if (!pass_gate(l))
		return NULL;	/* another thread could not be created */
	if (w->wl->run.eng->thread_start)
		ret = w->wl->run.eng->thread_start(&w->io);
	wait_for_start(l);
	if (l->warmup_ns) {
		/* every thread, failed or not, meets the measured start */
		if (!ret)
			warm_up(w);
		wait_for_start(l);
	}
	memset(&w->st.cpu, 0, sizeof(w->st.cpu));
	if (ret) {
		fail(w, ret, IO_KIND_START, 0, -1);
		w->t_end = 0;
		thread_done(l);
		return NULL;
	}
	/* the measured run's CPU: after the start barrier and the warm-up */
	getrusage(RUSAGE_THREAD, &start);
	base = l->start_ns;
	deadline = s->time_limit_ns ? base + s->time_limit_ns : UINT64_MAX;
	if (w->stream.ops->start)
		w->stream.ops->start(&w->stream, base, &l->stop);
	run_loop(w, base, deadline);
	/* The thread ran until now: with think time that is after its last
	 * completion, and ops/s must count that time too. */
	w->t_end = now_ns() - base;
	flush_owed(w, base, true);
	cpu_since(&w->st.cpu, &start);
	thread_done(l);
	return NULL;
}

/* The sentence for a thread's failure, in wl->errmsg. */
static void describe_failure(struct workload *wl, const struct worker *w,
			     unsigned i)
{
	char why[PATH_MAX + 128];
	const char *verb = io_kind_name(w->err_kind);

	if (w->err_kind == IO_KIND_START) {
		snprintf(wl->result.errmsg, sizeof(wl->result.errmsg),
			 "the %s engine could not start in thread %u: %s",
			 wl->run.eng->name, i, strerror(-w->error));
		return;
	}
	if (w->err_kind == IO_KIND_REAP) {
		snprintf(wl->result.errmsg, sizeof(wl->result.errmsg),
			 "waiting for completions of the %s engine failed in thread %u on %s: %s",
			 wl->run.eng->name, i, wl->tgt.path, strerror(-w->error));
		return;
	}
	if (w->err_kind == IO_KIND_STREAM) {
		why[0] = '\0';
		if (w->stream.ops->describe)
			w->stream.ops->describe(&w->stream, why, sizeof(why));
		snprintf(wl->result.errmsg, sizeof(wl->result.errmsg),
			 "thread %u stopped the run: %.2000s", i,
			 why[0] ? why : strerror(-w->error));
		return;
	}
	if (w->err_kind == IO_KIND_MEMORY) {
		snprintf(wl->result.errmsg, sizeof(wl->result.errmsg),
			 "thread %u stopped the run: its statistics (the %s) could not grow within rebench's memory budget of %s (see MEMORY in rebench(1)); the results and --output cover the run until then. Use a larger -g, fewer threads, or a shorter -d",
			 i, wl->spec.sample_ns ? "time series" : "per-I/O log of -g 0",
			 memory_budget_text());
		return;
	}
	if (IO_IS_FLUSH(w->err_kind)) {
		snprintf(wl->result.errmsg, sizeof(wl->result.errmsg),
			 "%s of %.1500s failed in thread %u: %.2000s", verb,
			 wl->tgt.path, i,
			 w->io.err[0] ? w->io.err : strerror(-w->error));
		return;
	}
	if (w->err_done >= 0)
		snprintf(why, sizeof(why), "short %s: %lld of %llu bytes%s",
			 verb, (long long)w->err_done,
			 (unsigned long long)w->err_len,
			 w->err_done == 0 ? " (the end of the target: it shrank during the run?)" : "");
	else if (w->io.err[0])	/* the engine's own words for it */
		snprintf(why, sizeof(why), "%s", w->io.err);
	else
		snprintf(why, sizeof(why), "%s", strerror(-w->error));
	snprintf(wl->result.errmsg, sizeof(wl->result.errmsg),
		 "%s of %llu bytes at offset %llu of %.1500s failed in thread %u: %.2000s",
		 verb, (unsigned long long)w->err_len,
		 (unsigned long long)w->err_off, wl->tgt.path, i, why);
}

/* A deep queue can still be draining at the deadline: say how long the
 * run really took when that is over a tenth more than asked and more than
 * 20 ms over (below that it is a thread waiting for a busy CPU, not worth
 * a line in a 10 ms sweep point); ops/s and MB/s are always over the real
 * time. */
static void warn_overrun(struct workload *wl, uint64_t elapsed)
{
	const struct spec *s = &wl->spec;
	uint64_t limit = s->time_limit_ns;

	uint64_t slack = limit / 10 > 20000000 ? limit / 10 : 20000000;

	if (!limit || elapsed <= limit + slack || wl->result.error)
		return;
	workload_warn(wl, "the run took %.3f s, not the %.3f s asked: the I/Os in flight at the deadline (up to %llu: -q %llu x -c %llu) had to complete or be cancelled; ops/s and MB/s are over the real %.3f s",
		      (double)elapsed / 1e9, (double)limit / 1e9,
		      (unsigned long long)(s->qd * s->threads),
		      (unsigned long long)s->qd, (unsigned long long)s->threads,
		      (double)elapsed / 1e9);
}

/* A sequential run that went over its region more than once: later passes
 * reuse blocks a cache may still hold, which no figure shows by itself. */
static void count_passes(struct workload *wl)
{
	const struct spec *s = &wl->spec;
	const struct result *r = wl->result.stats;
	struct seq_passes *p = &wl->result.passes;
	uint64_t data_ios = 0;
	char basis[160], size[32], threads[64] = "";
	int k, n;

	memset(p, 0, sizeof(*p));
	wl->result.wrap_warning = -1;
	if (!s->seq || s->append || !wl->result.have_result)
		return;
	for (k = 0; k < IO_KINDS; k++)
		if (!IO_IS_FLUSH(k))
			data_ios += r->ops[k];
	seq_passes_compute(p, s->slots, s->stride_eff, s->bs,
			   wl->run.workers[0].stream.contiguous,
			   size_mix_active(&s->bsmix), data_ios, r->bytes);
	if (!p->known || p->count <= 1)
		return;
	n = wl->result.nwarn;
	if (p->ios)
		snprintf(basis, sizeof(basis), "%llu I/Os, %llu a pass",
			 (unsigned long long)data_ios, (unsigned long long)p->ios);
	else
		snprintf(basis, sizeof(basis), "%llu bytes, %llu a pass",
			 (unsigned long long)r->bytes, (unsigned long long)p->bytes);
	if (s->threads > 1)
		snprintf(threads, sizeof(threads), "; the %llu threads' passes added",
			 (unsigned long long)s->threads);
	workload_warn(wl, "the sequential run wrapped: it went over its %s region %.2f times (%s%s), so every pass after the first went to blocks already used, which a cache (the drive's, or the page cache with -p) may still hold; -d 100%% makes one pass",
		      fmt_size_human(size, sizeof(size), s->region_len),
		      p->count, basis, threads);
	if (wl->result.nwarn > n)
		wl->result.wrap_warning = n;
}

/* Flushes faster than the device could make data stable (flush_honesty.h):
 * the flush kind with the most operations, else the writes of a policy
 * that flushes inside each write. */
static void warn_flush_honesty(struct workload *wl)
{
	const struct result *r = wl->result.stats;
	const struct target *t = &wl->tgt;
	struct sync_policy sp = spec_sync(&wl->spec);
	enum flush_suspicion fs;
	const char *what = NULL;
	char msg[768];
	int k = -1;
	double median;

	if (!wl->result.have_result)
		return;
	if (r->ops[IO_FSYNC] || r->ops[IO_FDATASYNC]) {
		k = r->ops[IO_FDATASYNC] > r->ops[IO_FSYNC] ? IO_FDATASYNC :
							      IO_FSYNC;
		what = io_kind_name(k);
	} else if (r->ops[IO_WRITE] && (sync_policy_per_write(&sp) ||
					sp.mode == SYNC_RWF_DSYNC)) {
		k = IO_WRITE;
		what = sp.mode == SYNC_OSYNC ? "O_SYNC writes, each a flush" :
		       sp.mode == SYNC_DSYNC ? "O_DSYNC writes, each a flush" :
					       "RWF_DSYNC writes, each a flush";
	}
	if (k < 0)
		return;
	median = hist_percentile(&r->op_hist[k], 50);
	fs = flush_honesty_judge(t->rotational,
				 t->unknown[TF_WRITE_CACHE][0] ? "" :
								 t->write_cache,
				 r->ops[k], median);
	if (fs == FH_NONE)
		return;
	flush_honesty_text(fs, what, t->disk[0] ? t->disk : t->path, median,
			   msg, sizeof(msg));
	workload_warn(wl, "%s", msg);
}

/* --verify: what the run's checks found, into the result; a mismatch
 * is the workload's failure (exit status 3) when no I/O failed first. */
static void verify_collect(struct workload *wl)
{
	struct verify_run *v = &wl->run.verify;
	struct verify_result *r = &wl->result.verify;
	char sum[320];
	uint64_t b, bad;

	*r = v->res;
	if (!r->on)
		return;
	r->written = 0;
	for (b = 0; b < v->nblocks; b++)
		r->written += v->gen[b] != 0;
	if (r->state_err[0])
		workload_warn(wl, "--verify-state: %s; a later --verify-only cannot use it",
			      r->state_err);
	if (r->log.read) {
		r->log.survived = r->count[VC_OK];
		r->log.lost = r->checked - r->count[VC_OK];
	}
	if (r->log.err)
		workload_warn(wl, "--verify-log %s: cannot write it: %s; it names the %llu records written before, fewer durable writes than there were (never one that was not)",
			      r->log.path, strerror(r->log.err),
			      (unsigned long long)r->log.records);
	bad = r->checked - r->count[VC_OK];
	if (!bad || wl->result.error)
		return;
	wl->result.error = -EIO;
	verify_summary(r, sum, sizeof(sum));
	snprintf(wl->result.errmsg, sizeof(wl->result.errmsg),
		 "data verification failed at offset %llu of %.1000s: %s: expected %s, found %s%s (%s)",
		 (unsigned long long)r->first.offset, wl->tgt.path,
		 verify_class_name(r->first.cls), r->first.expected,
		 r->first.found,
		 r->stopped ? "; the first mismatch stopped the run (--verify-continue counts them all)" : "",
		 sum);
}

/* --verify after the run (the device counters read already): the pass
 * of --verify-mode after, the state file, the result. */
static void verify_finish(struct workload *wl)
{
	const struct spec *s = &wl->spec;
	struct worker *w = &wl->run.workers[0];

	if (!s->verify)
		return;
	if (s->verify_mode == VERIFY_AFTER && !s->verify_only && !w->error &&
	    !wl->run.verify.res.stopped && !wl->result.error) {
		verify_pass(w);
		if (w->error && !wl->result.error) {
			wl->result.error = w->error;
			describe_failure(wl, w, 0);
		}
	}
	if (s->verify_state && !s->verify_only)
		verify_save(&wl->run.verify, s->verify_state);
	verify_log_close(wl->run.verify.log);
	wl->run.verify.log = NULL;
	verify_collect(wl);
}

/* --rate: the threads' figures merged, and a rate not met said. */
static void collect_rate(struct workload *wl, uint64_t elapsed)
{
	const struct spec *s = &wl->spec;
	struct rate_thread *threads[4096];
	struct rate_result *r = wl->result.rate;
	unsigned i, n = (unsigned)s->threads;
	char asked[96], behind[96] = "";

	if (!wl->run.workers[0].rate || !wl->result.have_result)
		return;
	if (!r) {
		r = calloc(1, sizeof(*r));
		if (!r) {
			workload_warn(wl, "no memory for --rate's figures: the latency from the intended start is not reported");
			return;
		}
		wl->result.rate = r;
	}
	for (i = 0; i < n; i++)
		threads[i] = wl->run.workers[i].rate;
	r->asked = rate_ops(&s->rate, s->bs);
	r->asked_bytes = s->rate.bytes != 0;
	r->asked_bytes_per_s = s->rate.bytes;
	r->arrival = s->arrival;
	rate_merge(r, threads, n, wl->result.stats->ops_total, elapsed);
	if (r->met || !r->ios || wl->result.error)
		return;
	rate_describe(&s->rate, s->bs, asked, sizeof(asked));
	if (r->behind)
		snprintf(behind, sizeof(behind), ", and the schedule ended %.1f ms behind (%.0f intervals)",
			 (double)r->lag_end_ns / 1e6,
			 (double)r->lag_end_ns / r->interval_ns);
	workload_warn(wl, "the rate was not met: asked %s, achieved %.1f ops/s (%.1f%%)%s; %llu of %llu I/Os started late (mean %.1f us, max %.1f us late), so the latency from the intended start (p99 %.1f us) holds the queueing a client on this schedule would see, which the latency from submission (p99 %.1f us) leaves out; the device (or this machine) is slower than the rate: lower --rate, or add threads (-c)",
		      asked, r->achieved, r->asked > 0 ? 100.0 * r->achieved / r->asked : 0,
		      behind, (unsigned long long)r->late,
		      (unsigned long long)r->ios,
		      r->ios ? (double)r->late_sum_ns / (double)r->ios / 1e3 : 0,
		      (double)r->late_max_ns / 1e3,
		      hist_percentile(&r->intended, 99) / 1e3,
		      hist_percentile(&wl->result.stats->hist, 99) / 1e3);
}

static void collect(struct workload *wl)
{
	struct thread_stats *threads[4096];
	uint64_t elapsed = 0;
	unsigned i, n = (unsigned)wl->spec.threads;

	for (i = 0; i < n; i++) {
		struct worker *w = &wl->run.workers[i];

		threads[i] = &w->st;
		if (w->t_end > elapsed)
			elapsed = w->t_end;
		if (w->error && !wl->result.error) {
			wl->result.error = w->error;
			wl->result.error_is_memory = w->err_kind == IO_KIND_MEMORY;
			describe_failure(wl, w, i);
		}
	}
	wl->result.few_ios_warning = -1;
	if (!stats_merge(wl->result.stats, threads, n, elapsed))
		wl->result.have_result = true;
	/* A percentile p rests on the n (1 - p) slowest I/Os: below ten of
	 * them it moves with every run. */
	if (wl->result.have_result && wl->result.stats->ops_total &&
	    wl->result.stats->ops_total < PERCENTILE_STABLE_IOS) {
		workload_warn(wl, "only %llu I/Os: %.1f of them lie beyond p99.9 and %.1f beyond p99; a percentile moves from run to run with fewer than 10 beyond it, so run longer (%d I/Os for p99.9)",
			      (unsigned long long)wl->result.stats->ops_total,
			      (double)wl->result.stats->ops_total * 0.001,
			      (double)wl->result.stats->ops_total * 0.01,
			      PERCENTILE_STABLE_IOS);
		wl->result.few_ios_warning = wl->result.nwarn - 1;
	}
	warn_overrun(wl, elapsed);
	collect_rate(wl, elapsed);
	count_passes(wl);
	warn_flush_honesty(wl);
	if (wl->run.sizes.active) {
		const uint64_t *hits[4096];

		for (i = 0; i < n; i++)
			hits[i] = wl->run.workers[i].stream.size_hits;
		size_fit_compute(&wl->result.size_fit, &wl->run.sizes, hits, n);
	}
	wl->result.fit.present = false;
	if (!wl->spec.seq && wl->result.have_result && wl->result.stats->ops_total) {
		const uint64_t *slices[4096], *ranks[4096];

		for (i = 0; i < n; i++) {
			slices[i] = wl->run.workers[i].stream.pat.slices;
			ranks[i] = wl->run.workers[i].stream.pat.rank_slices;
		}
		fit_compute(&wl->result.fit, &wl->run.dist, slices, ranks, n);
		dist_describe(&wl->run.dist, &wl->spec, wl->result.fit.name,
			      sizeof(wl->result.fit.name));
	}
}

/* The main thread waits up to a tick for the last worker's SIGUSR1
 * (thread_done()); a stop signal ends the wait early (its handler runs,
 * see signals.c) and stops every thread. */
static void wait_tick(struct run_loop *l, const sigset_t *usr1,
		      bool *interrupted)
{
	static const struct timespec tick = { 0, 50 * 1000 * 1000 };

	if (!signals_stop_requested())
		sigtimedwait(usr1, NULL, &tick);
	if (signals_stop_requested() && !*interrupted) {
		request_stop(l);
		*interrupted = true;
	}
}

/* The first workload of the run on k's device (k itself when none before
 * it): each device is read once, however many workloads use it. */
static size_t dev_first(const struct workload *wls, size_t k)
{
	size_t j;

	for (j = 0; j < k && wls[k].result.devr.name[0]; j++)
		if (!strcmp(wls[j].result.devr.name, wls[k].result.devr.name))
			return j;
	return k;
}

/* The device counters of every workload, read by the main thread while
 * the workers wait at the start barrier for it: just before the measured
 * run (devstat.h). */
static void devices_begin(struct workload *wls, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (dev_first(wls, k) == k)
			devstat_begin(&wls[k].result.devr);
}

/* After the run (results collected): each device's second reading is
 * taken already; judge whether it was shared, from every workload on it,
 * and give the other workloads on it the same counts. */
static void devices_settle(struct workload *wls, size_t n)
{
	uint64_t direct[DEV_KINDS];
	const char *file_fs;
	bool paged;
	size_t j, k;

	for (k = 0; k < n; k++) {
		if (dev_first(wls, k) != k)
			continue;
		memset(direct, 0, sizeof(direct));
		file_fs = NULL;
		paged = false;
		for (j = k; j < n; j++) {
			const struct workload *w = &wls[j];

			if (dev_first(wls, j) != k)
				continue;
			if (w->tgt.kind == TARGET_FILE)
				file_fs = w->tgt.place.fstype;
			paged |= w->spec.paged || !w->result.have_result ||
				 !strcmp(w->run.eng->name, "mmap");
			/* and --verify-mode inline's read-backs */
			direct[DEV_READ] += w->result.stats->op_bytes[IO_READ] +
					    w->run.verify.res.inline_read_bytes;
			direct[DEV_WRITE] += w->result.stats->op_bytes[IO_WRITE];
			direct[DEV_DISCARD] += w->result.stats->op_bytes[IO_TRIM];
		}
		devstat_judge(&wls[k].result.devr, file_fs, paged ? NULL : direct);
	}
	for (k = 0; k < n; k++)
		if (dev_first(wls, k) != k)
			wls[k].result.devr = wls[dev_first(wls, k)].result.devr;
}

/* The main thread during the warm-up: signals stop it early. */
static void main_warm_up(struct run_loop *l, struct workload *wls, size_t n,
			 const sigset_t *sigs, bool *interrupted)
{
	uint64_t end = l->start_ns + l->warmup_ns;

	while (now_ns() < end && !atomic_load(&l->stop))
		wait_tick(l, sigs, interrupted);
	devices_begin(wls, n);
	wait_for_start(l);
}

/* Every thread of every workload, waiting at the gate; -EAGAIN (after a
 * message) when one cannot be created. */
static int create_threads(struct workload *wls, size_t n, unsigned total)
{
	unsigned i;
	size_t k;

	for (k = 0; k < n; k++) {
		for (i = 0; i < wls[k].spec.threads; i++) {
			struct worker *w = &wls[k].run.workers[i];
			int e = pthread_create(&w->tid, NULL, worker_main, w);

			if (e) {
				fprintf(stderr, "rebench: cannot start thread %u of workload %zu (%u threads in all): %s; nothing was measured. Lower -c, or raise the limit on processes (ulimit -u, the pids cgroup)\n",
					i + 1, k + 1, total, strerror(e));
				return -EAGAIN;
			}
			w->started = true;
		}
	}
	return 0;
}

static void join_threads(struct workload *wls, size_t n)
{
	unsigned i;
	size_t k;

	for (k = 0; k < n; k++)
		for (i = 0; i < wls[k].spec.threads; i++)
			if (wls[k].run.workers[i].started) {
				pthread_join(wls[k].run.workers[i].tid, NULL);
				wls[k].run.workers[i].started = false;
			}
}

/* --delay: one calibration for the caller's runs (a sweep or --repeat
 * runs many times), made before the first run that has delays; each
 * thread waits on a delay_clock of its own. */
static void prepare_delays(struct run_env *env, struct workload *wls,
			   size_t n)
{
	unsigned i;
	size_t k;

	for (k = 0; k < n; k++) {
		if (!delay_any(&wls[k].spec.delay))
			continue;
		if (!env->delay_calibrated) {
			delay_calibrate(&env->delay_calib);
			env->delay_calibrated = true;
		}
		wls[k].result.delay_calib = env->delay_calib;
		for (i = 0; i < wls[k].spec.threads; i++)
			wls[k].run.workers[i].delay = (struct delay_clock){
				&wls[k].result.delay_calib, 0 };
	}
}

/* --rate: each thread's schedule state, and the timer it waits with
 * (--delay's calibration, made once for all); -ENOMEM after a message. */
static int prepare_rates(struct run_env *env, struct workload *wls, size_t n)
{
	unsigned i;
	size_t k;

	for (k = 0; k < n; k++) {
		if (!(wls[k].spec.rate.ops > 0 || wls[k].spec.rate.bytes))
			continue;
		if (!env->delay_calibrated) {
			delay_calibrate(&env->delay_calib);
			env->delay_calibrated = true;
		}
		wls[k].result.delay_calib = env->delay_calib;
		for (i = 0; i < wls[k].spec.threads; i++) {
			struct worker *w = &wls[k].run.workers[i];

			if (!w->rate)
				w->rate = calloc(1, sizeof(*w->rate));
			if (!w->rate) {
				fprintf(stderr, "rebench: no memory for --rate's schedules (%zu bytes a thread); nothing was measured\n",
					sizeof(*w->rate));
				return -ENOMEM;
			}
			w->rate->clock = (struct delay_clock){
				&wls[k].result.delay_calib, 0 };
		}
	}
	return 0;
}

static void free_rates(struct workload *wls, size_t n)
{
	unsigned i;
	size_t k;

	for (k = 0; k < n; k++)
		for (i = 0; wls[k].run.workers && i < wls[k].spec.threads; i++) {
			free(wls[k].run.workers[i].rate);
			wls[k].run.workers[i].rate = NULL;
		}
}

/* Before the threads: the warm-up, each workload's device and delays, and
 * a stop that came during the preparation (then nothing is measured).
 * The number of threads in all. */
static unsigned run_setup(struct run_loop *l, struct workload *wls, size_t n,
			  uint64_t warmup, bool *interrupted)
{
	unsigned total = 0, i;
	size_t k;

	l->warmup_ns = warmup;
	for (k = 0; k < n; k++) {
		wls[k].result.warmup_ns = warmup;
		for (i = 0; i < wls[k].spec.threads; i++)
			wls[k].run.workers[i].loop = l;
	}
	for (k = 0; k < n; k++) {
		total += (unsigned)wls[k].spec.threads;
		devstat_locate(&wls[k].tgt, &wls[k].result.devr);
	}
	prepare_delays(l->env, wls, n);
	atomic_store(&l->stop, signals_stop_requested() != 0);
	*interrupted = signals_stop_requested() != 0;
	atomic_store(&l->running, (int)total);
	return total;
}

/* The main thread's signals during a run: usr1 to wait on, and the mask
 * to restore after. */
struct run_signals {
	sigset_t usr1, old;
};

/* Workers block the stop signals, so that their handler runs in the main
 * thread and ends its wait; SIGUSR1 ("all done", from thread_done()) stays
 * blocked in every thread and is taken with sigtimedwait.  The threads
 * inherit this mask; the main thread unblocks the stop signals once they
 * exist (unblock_stop()). */
static void block_signals(struct run_signals *rs)
{
	sigset_t sigs;

	sigemptyset(&rs->usr1);
	sigaddset(&rs->usr1, SIGUSR1);
	signals_stop_set(&sigs);
	sigaddset(&sigs, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &sigs, &rs->old);
}

static void unblock_stop(void)
{
	sigset_t sigs;

	signals_stop_set(&sigs);
	pthread_sigmask(SIG_UNBLOCK, &sigs, NULL);
}

int run_watch(struct run_watchers *ws, const struct run_watcher *w,
	      void *arg)
{
	if (ws->n == RUN_MAX_WATCHERS)
		return -ENOSPC;
	ws->ops[ws->n] = w;
	ws->arg[ws->n++] = arg;
	return 0;
}

void *run_watch_new(struct run_watchers *ws, const struct run_watcher *w,
		    size_t size, const char *what)
{
	void *arg = calloc(1, size);

	if (!arg || run_watch(ws, w, arg)) {
		free(arg);
		fprintf(stderr, "rebench: no memory for %s\n", what);
		return NULL;
	}
	return arg;
}

void run_unwatch(struct run_watchers *ws)
{
	size_t i;

	for (i = 0; i < ws->n; i++)
		if (ws->ops[i]->release)
			ws->ops[i]->release(ws->arg[i]);
	ws->n = 0;
}

/* Each watcher's prepare; on a failure, the end of those before it. */
static int watchers_prepare(const struct run_watchers *ws,
			    struct workload *wls, size_t n)
{
	size_t i;
	int ret;

	for (i = 0; i < ws->n; i++) {
		if (!ws->ops[i]->prepare)
			continue;
		ret = ws->ops[i]->prepare(ws->arg[i], wls, n);
		if (ret) {
			while (i--)
				if (ws->ops[i]->end)
					ws->ops[i]->end(ws->arg[i]);
			return ret;
		}
	}
	return 0;
}

/* The watchers' stop hooks, then (after the join) their end hooks. */
static void watchers_stop(const struct run_watchers *ws)
{
	size_t i;

	for (i = 0; i < ws->n; i++)
		if (ws->ops[i]->stop)
			ws->ops[i]->stop(ws->arg[i]);
}

static void watchers_end(const struct run_watchers *ws)
{
	size_t i;

	for (i = 0; i < ws->n; i++)
		if (ws->ops[i]->end)
			ws->ops[i]->end(ws->arg[i]);
}

/* The watchers' start hooks, at the measured start. */
static void watchers_start(const struct run_watchers *ws,
			   const struct workload *wls, size_t n,
			   uint64_t start_ns)
{
	size_t i;

	for (i = 0; i < ws->n; i++)
		if (ws->ops[i]->start)
			ws->ops[i]->start(ws->arg[i], wls, n, start_ns);
}

/* A tick of every watcher: --precision, every workload known well enough,
 * ends the run (not an interruption: its results are complete). */
static void watchers_tick(struct run_loop *l, struct workload *wls, size_t n,
			  uint64_t now)
{
	const struct run_watchers *ws = &l->env->watch;
	size_t i;

	for (i = 0; i < ws->n; i++) {
		bool stopping = atomic_load(&l->stop);

		if (ws->ops[i]->tick &&
		    ws->ops[i]->tick(ws->arg[i], wls, n, now,
				     now - l->start_ns, stopping) &&
		    !stopping)
			request_stop(l);
	}
}

/* The threads through the gate: --start-at, the warm-up, the start, then
 * the main thread's ticks (progress, --precision) until the last thread
 * is done. */
static void run_measured(struct run_loop *l, struct workload *wls, size_t n,
			 const sigset_t *usr1, bool *interrupted)
{
	set_gate(l, 1);
	unblock_stop();
	if (wait_for_start_at(l))
		*interrupted = true;	/* stopped before the start */
	if (!l->warmup_ns)
		devices_begin(wls, n);
	wait_for_start(l);
	if (l->warmup_ns)
		main_warm_up(l, wls, n, usr1, interrupted);
	watchers_start(&l->env->watch, wls, n, l->start_ns);
	while (atomic_load(&l->running) > 0) {
		wait_tick(l, usr1, interrupted);
		watchers_tick(l, wls, n, now_ns());
	}
	watchers_stop(&l->env->watch);
}

/* Every thread joined, and what the run set up undone.  !ran: a thread
 * could not be created, and those that were leave at the gate, before
 * any I/O. */
static void run_teardown(struct run_loop *l, struct workload *wls, size_t n,
			 const struct run_signals *rs, bool ran)
{
	struct timespec zero = { 0, 0 };
	size_t k;

	if (!ran) {
		request_stop(l);
		set_gate(l, -1);
	}
	join_threads(wls, n);
	for (k = 0; ran && k < n; k++)
		if (dev_first(wls, k) == k)
			devstat_end(&wls[k].result.devr);
	/* the last worker's wake-up may still be pending (the loop can see
	 * running == 0 before it arrives): take it before SIGUSR1 is
	 * unblocked, or it would kill the process */
	while (ran && sigtimedwait(&rs->usr1, NULL, &zero) == SIGUSR1)
		;
	pthread_barrier_destroy(&l->start_barrier);
	pthread_sigmask(SIG_SETMASK, &rs->old, NULL);
	watchers_end(&l->env->watch);
}

/* After the threads: each workload's result and its device's reading;
 * -EIO when an I/O failed (the others then stopped early), else 0. */
static int run_collect(struct workload *wls, size_t n)
{
	size_t k;
	int ret = 0;

	for (k = 0; k < n; k++)
		collect(&wls[k]);
	devices_settle(wls, n);
	for (k = 0; k < n; k++) {
		verify_finish(&wls[k]);
		if (wls[k].result.error)
			ret = -EIO;
	}
	for (k = 0; ret == -EIO && k < n; k++)
		wls[k].result.stopped_early = !wls[k].result.error;
	return ret;
}

/* A run's loop, its gate closed; NULL when out of memory. */
static struct run_loop *run_loop_new(struct run_env *env)
{
	struct run_loop *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->env = env ? env : &l->own;
	pthread_mutex_init(&l->gate_lock, NULL);
	pthread_cond_init(&l->gate_cond, NULL);
	l->main_thread = pthread_self();
	return l;
}

static void run_loop_free(struct run_loop *l)
{
	pthread_cond_destroy(&l->gate_cond);
	pthread_mutex_destroy(&l->gate_lock);
	free(l);
}

/* run_workloads() in its loop l. */
static int run_in(struct run_loop *l, struct workload *wls, size_t n,
		  uint64_t warmup, bool *interrupted)
{
	struct run_signals rs;
	unsigned total;
	int ret;

	total = run_setup(l, wls, n, warmup, interrupted);
	block_signals(&rs);
	if (pthread_barrier_init(&l->start_barrier, NULL, total + 1)) {
		pthread_sigmask(SIG_SETMASK, &rs.old, NULL);
		return -ENOMEM;
	}
	if (watchers_prepare(&l->env->watch, wls, n)) {
		pthread_barrier_destroy(&l->start_barrier);
		pthread_sigmask(SIG_SETMASK, &rs.old, NULL);
		return -ENOMEM;
	}
	ret = create_threads(wls, n, total);
	if (!ret)
		run_measured(l, wls, n, &rs.usr1, interrupted);
	run_teardown(l, wls, n, &rs, !ret);
	return ret ? ret : run_collect(wls, n);
}

int run_workloads(struct workload *wls, size_t n, uint64_t warmup,
		  struct run_env *env, bool *interrupted)
{
	struct run_loop *l;
	int ret;

	*interrupted = false;
	l = run_loop_new(env);
	if (!l)
		return -ENOMEM;
	ret = prepare_rates(l->env, wls, n);
	if (!ret)
		ret = run_in(l, wls, n, warmup, interrupted);
	free_rates(wls, n);
	run_loop_free(l);
	return ret;
}
