/* run.c - threads, the common start, the hot loop and stopping.
 *
 * All threads of all workloads meet at one barrier; the serial thread reads
 * the clock between two barrier waits, so every thread sees the same start
 * time and the run starts for all of them at once.  The main thread then
 * waits for signals with sigtimedwait (workers block them) and turns
 * SIGINT/SIGTERM into a stop flag that workers poll once per I/O.
 *
 * Per I/O the loop does: pick the operation, next offset, two clock reads
 * around the system call, and stats_record(): no locks, no formatting and
 * no allocation (the series is sized up front for timed runs).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "progress.h"
#include "workload.h"

static pthread_barrier_t start_barrier;
static uint64_t run_start_ns;
static uint64_t warmup_ns;	/* --warmup: an unmeasured phase first */
static pthread_t main_thread;	/* woken by the last worker to finish */
static atomic_int stop_all;
static atomic_int running;

/* I/Os for ten beyond p99.9: fewer and the tail percentiles warn. */
#define PERCENTILE_STABLE_IOS 10000

/* err_kind of a thread whose engine failed to start, not an I/O. */
#define IO_KIND_START (-1)

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

static void wait_for_start(void)
{
	if (pthread_barrier_wait(&start_barrier) == PTHREAD_BARRIER_SERIAL_THREAD)
		run_start_ns = now_ns();
	pthread_barrier_wait(&start_barrier);
}

static void pause_for(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / NSEC_PER_SEC),
		.tv_nsec = (long)(ns % NSEC_PER_SEC),
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

static void fail(struct worker *w, int err, int kind, uint64_t off)
{
	w->error = err;
	w->err_kind = kind;
	w->err_off = off;
	atomic_store(&stop_all, 1);
}

static inline int pick_kind(struct worker *w, int fixed_kind, bool mixed)
{
	if (!mixed)
		return fixed_kind;
	return (prng_next(&w->rng) >> 11) < w->read_below ? IO_READ : IO_WRITE;
}

/* One I/O at a time: clock, system call, clock. */
static void run_sync(struct worker *w, uint64_t base, uint64_t deadline,
		     int fixed_kind, bool mixed)
{
	const struct spec *s = &w->wl->spec;
	ssize_t (*sync_io)(struct io_ctx *, int, uint64_t, size_t) =
		w->wl->eng->sync_io;
	const size_t bs = (size_t)s->bs;
	uint64_t done = 0, t0, t1, off;
	ssize_t ret;
	int kind;

	for (;;) {
		if (atomic_load_explicit(&stop_all, memory_order_relaxed))
			break;
		if (w->ops_limit && done >= w->ops_limit)
			break;
		kind = pick_kind(w, fixed_kind, mixed);
		off = pattern_next(&w->pat, &w->rng);
		t0 = now_ns();
		ret = sync_io(&w->io, kind, off, bs);
		t1 = now_ns();
		if (ret != (ssize_t)bs) {
			fail(w, ret < 0 ? (int)ret : -EIO, kind, off);
			break;
		}
		done++;
		if (stats_record(&w->st, kind, off, (uint32_t)bs, t1 - base,
				 t1 - t0)) {
			fail(w, -ENOMEM, kind, off);
			break;
		}
		if (t1 >= deadline)
			break;
		if (s->pause_ns) {
			/* think time never runs past the deadline */
			if (deadline - t1 <= s->pause_ns) {
				pause_for(deadline - t1);
				break;
			}
			pause_for(s->pause_ns);
		}
	}
}

/*
 * qd I/Os in flight: stage and submit whole batches while a batch of units
 * is free, then reap at least a batch (or all that remain).  One clock read
 * per submitted batch and one per reaped batch: every I/O of a batch shares
 * its submit time, every I/O reaped together shares its completion time.
 */
static void run_async(struct worker *w, uint64_t base, uint64_t deadline,
		      int fixed_kind, bool mixed)
{
	const struct engine_ops *e = w->wl->eng;
	struct io_ctx *io = &w->io;
	const unsigned qd = io->qd, batch = io->batch;
	const size_t bs = io->bs;
	struct io_unit **free_units = w->free_units, **done = w->done_units;
	unsigned nfree = qd, inflight = 0, staged, i;
	uint64_t issued = 0, t;
	bool stopping = false;
	int n, ret;

	for (i = 0; i < qd; i++)
		free_units[i] = &io->units[qd - 1 - i];
	for (;;) {
		while (!stopping && nfree >= batch) {
			if (atomic_load_explicit(&stop_all, memory_order_relaxed)) {
				stopping = true;
				break;
			}
			for (staged = 0; staged < batch; staged++) {
				struct io_unit *u;

				if (w->ops_limit && issued == w->ops_limit) {
					stopping = true;
					break;
				}
				u = free_units[--nfree];
				u->kind = pick_kind(w, fixed_kind, mixed);
				u->off = pattern_next(&w->pat, &w->rng);
				ret = e->queue(io, u);
				if (ret) {
					fail(w, ret, u->kind, u->off);
					stopping = true;
					break;
				}
				issued++;
			}
			if (!staged)
				break;
			/* the batch just staged sits at free_units[nfree...] */
			t = now_ns();
			for (i = 0; i < staged; i++)
				free_units[nfree + i]->t_submit = t;
			ret = e->commit(io);
			if (ret) {
				fail(w, ret, free_units[nfree]->kind,
				     free_units[nfree]->off);
				stopping = true;
				break;
			}
			inflight += staged;
		}
		if (!inflight)
			break;
		n = e->reap(io, inflight < batch ? inflight : batch, done);
		if (n < 0) {
			fail(w, n, fixed_kind, 0);
			break;
		}
		t = now_ns();
		for (i = 0; i < (unsigned)n; i++) {
			struct io_unit *u = done[i];

			if (u->res != (int64_t)bs && !w->error)
				fail(w, u->res < 0 ? (int)u->res : -EIO, u->kind,
				     u->off);
			else if (stats_record(&w->st, u->kind, u->off,
					      (uint32_t)bs, t - base,
					      t - u->t_submit))
				fail(w, -ENOMEM, u->kind, u->off);
			free_units[nfree++] = u;
		}
		inflight -= (unsigned)n;
		if (t >= deadline || w->error)
			stopping = true;
	}
}

/* The engine's loop from base until deadline (or the thread's limit). */
static void run_loop(struct worker *w, uint64_t base, uint64_t deadline,
		     int fixed_kind)
{
	bool mixed = w->wl->spec.op == OP_RW;

	if (w->wl->eng->flags & ENGINE_ASYNC)
		run_async(w, base, deadline, fixed_kind, mixed);
	else
		run_sync(w, base, deadline, fixed_kind, mixed);
}

/* --warmup: the same loop until the warm-up ends, then forget what it
 * recorded.  Sequential workloads go on from where the warm-up left off. */
static void warm_up(struct worker *w, int fixed_kind)
{
	uint64_t limit = w->ops_limit;

	w->ops_limit = 0;	/* a byte-limited run warms up for the time */
	run_loop(w, run_start_ns, run_start_ns + warmup_ns, fixed_kind);
	w->ops_limit = limit;
	thread_stats_reset(&w->st);
	memset(w->pat.slices, 0, sizeof(w->pat.slices));
	memset(w->pat.rank_slices, 0, sizeof(w->pat.rank_slices));
}

/* The last thread to finish wakes the main thread at once, rather than
 * at its next tick (which would add up to 50 ms to every short run). */
static void thread_done(void)
{
	if (atomic_fetch_sub(&running, 1) == 1)
		pthread_kill(main_thread, SIGUSR1);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct spec *s = &w->wl->spec;
	const int fixed_kind = s->op == OP_TRIM ? IO_TRIM :
			       s->op == OP_WRITE ? IO_WRITE : IO_READ;
	uint64_t base, deadline;
	int ret = 0;

	if (w->wl->eng->thread_start)
		ret = w->wl->eng->thread_start(&w->io);
	wait_for_start();
	if (warmup_ns) {
		/* every thread, failed or not, meets the measured start */
		if (!ret)
			warm_up(w, fixed_kind);
		wait_for_start();
	}
	if (ret) {
		fail(w, ret, IO_KIND_START, 0);
		w->t_end = 0;
		thread_done();
		return NULL;
	}
	base = run_start_ns;
	deadline = s->time_limit_ns ? base + s->time_limit_ns : UINT64_MAX;
	run_loop(w, base, deadline, fixed_kind);
	/* The thread ran until now: with think time that is after its last
	 * completion, and ops/s must count that time too. */
	w->t_end = now_ns() - base;
	thread_done();
	return NULL;
}

static const char *kind_name(int kind)
{
	return kind == IO_READ ? "read" : kind == IO_WRITE ? "write" : "trim";
}

static void collect(struct workload *wl)
{
	struct thread_stats *threads[4096];
	uint64_t elapsed = 0;
	unsigned i, n = (unsigned)wl->spec.threads;

	for (i = 0; i < n; i++) {
		struct worker *w = &wl->workers[i];

		threads[i] = &w->st;
		if (w->t_end > elapsed)
			elapsed = w->t_end;
		if (w->error && !wl->error && w->err_kind == IO_KIND_START) {
			wl->error = w->error;
			snprintf(wl->errmsg, sizeof(wl->errmsg),
				 "the %s engine could not start in thread %u: %s",
				 wl->eng->name, i, strerror(-w->error));
		} else if (w->error && !wl->error) {
			wl->error = w->error;
			snprintf(wl->errmsg, sizeof(wl->errmsg),
				 "%s of %llu bytes at offset %llu of %s failed in thread %u: %s",
				 kind_name(w->err_kind),
				 (unsigned long long)wl->spec.bs,
				 (unsigned long long)w->err_off, wl->tgt.path,
				 i, strerror(-w->error));
		}
	}
	wl->few_ios_warning = -1;
	if (!stats_merge(&wl->res, threads, n, wl->spec.bs, elapsed))
		wl->have_result = true;
	/* A percentile p rests on the n (1 - p) slowest I/Os: below ten of
	 * them it moves with every run. */
	if (wl->have_result && wl->res.ops_total &&
	    wl->res.ops_total < PERCENTILE_STABLE_IOS) {
		workload_warn(wl, "only %llu I/Os: %.1f of them lie beyond p99.9 and %.1f beyond p99; a percentile moves from run to run with fewer than 10 beyond it, so run longer (%d I/Os for p99.9)",
			      (unsigned long long)wl->res.ops_total,
			      (double)wl->res.ops_total * 0.001,
			      (double)wl->res.ops_total * 0.01,
			      PERCENTILE_STABLE_IOS);
		wl->few_ios_warning = wl->nwarn - 1;
	}
	if (!wl->spec.seq) {
		const uint64_t *slices[4096], *ranks[4096];

		for (i = 0; i < n; i++) {
			slices[i] = wl->workers[i].pat.slices;
			ranks[i] = wl->workers[i].pat.rank_slices;
		}
		fit_compute(&wl->fit, &wl->dist, slices, ranks, n);
		dist_describe(&wl->dist, &wl->spec, wl->fit.name,
			      sizeof(wl->fit.name));
	}
}

/* The main thread waits up to a tick for a signal: SIGINT, SIGTERM or
 * SIGHUP stop the run; SIGUSR1 only wakes it (thread_done()). */
static void wait_tick(const sigset_t *sigs, bool *interrupted)
{
	static const struct timespec tick = { 0, 50 * 1000 * 1000 };
	int sig = sigtimedwait(sigs, NULL, &tick);

	if (sig > 0 && sig != SIGUSR1) {
		atomic_store(&stop_all, 1);
		*interrupted = true;
	}
}

/* The main thread during the warm-up: signals stop it early. */
static void main_warm_up(const sigset_t *sigs, bool *interrupted)
{
	uint64_t end = run_start_ns + warmup_ns;

	while (now_ns() < end && !atomic_load(&stop_all))
		wait_tick(sigs, interrupted);
	wait_for_start();
}

int run_workloads(struct workload *wls, size_t n, uint64_t warmup,
		  bool *interrupted)
{
	sigset_t sigs, old;
	unsigned total = 0, i;
	size_t k;
	int ret = 0;

	*interrupted = false;
	warmup_ns = warmup;
	for (k = 0; k < n; k++)
		wls[k].warmup_ns = warmup;
	for (k = 0; k < n; k++)
		total += (unsigned)wls[k].spec.threads;
	atomic_store(&stop_all, 0);
	atomic_store(&running, (int)total);
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	sigaddset(&sigs, SIGUSR1);	/* "all done", from thread_done() */
	main_thread = pthread_self();
	pthread_sigmask(SIG_BLOCK, &sigs, &old);
	if (pthread_barrier_init(&start_barrier, NULL, total + 1)) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return -ENOMEM;
	}
	for (k = 0; k < n; k++) {
		for (i = 0; i < wls[k].spec.threads; i++) {
			struct worker *w = &wls[k].workers[i];

			if (pthread_create(&w->tid, NULL, worker_main, w)) {
				fprintf(stderr, "rebench: cannot start thread %u of workload %zu: %s\n",
					i, k + 1, strerror(errno));
				ret = -EAGAIN;
				goto out_abort;
			}
			w->started = true;
		}
	}
	wait_for_start();
	if (warmup_ns)
		main_warm_up(&sigs, interrupted);
	progress_begin(wls, n, run_start_ns);
	while (atomic_load(&running) > 0) {
		wait_tick(&sigs, interrupted);
		progress_tick(now_ns());
	}
	progress_end();
	goto out_join;

out_abort:
	/* The threads already created wait at the barrier for arrivals that
	 * will never come; none has done any I/O.  The caller exits. */
	atomic_store(&stop_all, 1);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;

out_join:
	for (k = 0; k < n; k++)
		for (i = 0; i < wls[k].spec.threads; i++)
			if (wls[k].workers[i].started)
				pthread_join(wls[k].workers[i].tid, NULL);
	{
		/* the last worker's wake-up may still be pending (the loop can
		 * see running == 0 before it arrives): take it before SIGUSR1
		 * is unblocked, or it would kill the process */
		struct timespec zero = { 0, 0 };
		sigset_t usr1;

		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		while (sigtimedwait(&usr1, NULL, &zero) == SIGUSR1)
			;
	}
	pthread_barrier_destroy(&start_barrier);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	for (k = 0; k < n; k++) {
		collect(&wls[k]);
		if (wls[k].error)
			ret = -EIO;
	}
	for (k = 0; ret == -EIO && k < n; k++)
		wls[k].stopped_early = !wls[k].error;
	return ret;
}
