/* workload.h - one workload ready to run: its spec, target, engine, open
 * descriptors, threads and, afterwards, its result and warnings.
 *
 * Three parts, three types with three lifetimes: the spec (struct spec
 * and the target it was resolved against: what was asked), the run's state
 * (struct wl_state: the engine, generators, descriptors and the threads'
 * struct worker, allocated by workload_prepare() for the run's size and
 * released by workload_release_io()), and the result (struct wl_result:
 * figures, verdicts and warnings, whose struct result is on the heap from
 * workload_result_alloc() to workload_cleanup(): its histograms alone are
 * 240 KB, which no stack, array of workloads or .bss should hold).
 */
#ifndef REBENCH_WORKLOAD_H
#define REBENCH_WORKLOAD_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/delay.h"
#include "target/durability.h"
#include "target/devstat.h"
#include "gen/dist.h"
#include "engines/engine.h"
#include "gen/fit.h"
#include "gen/pattern.h"
#include "core/precond_result.h"
#include "gen/prng.h"
#include "core/spec.h"
#include "core/stats.h"
#include "gen/stream.h"
#include "target/target.h"
#include "core/verify.h"

#define MAX_WORKLOADS 256	/* in one run */
#define MAX_WARNINGS 16
#define MAX_CREATED 256	/* files one run may create */

struct workload;
struct fileset;
struct fileset_thread;
struct run_loop;
struct run_start_at;
struct steady_data;
struct repeat_data;

struct worker {
	struct workload *wl;
	struct run_loop *loop;	/* the run it is in (run.c), while it runs */
	unsigned index;
	struct io_ctx io;
	struct io_stream stream;	/* where its I/Os come from */
	struct thread_stats st;
	uint64_t t_end;		/* when the thread stopped, from the start */
	struct delay_clock delay;	/* --delay: this thread's waits */
	struct rate_thread *rate;	/* --rate: its schedule and what it
					 * measured (rate.h), during a run;
					 * NULL without --rate */
	struct io_unit **free_units;	/* async: qd slots each */
	struct io_unit **done_units;
	bool engine_ready;	/* init succeeded: cleanup is due */
	pthread_t tid;
	bool started;
	bool own_fd;
	int error;		/* -errno of the failed I/O */
	int err_kind;
	uint64_t err_off;
	uint32_t err_len;
	int64_t err_done;	/* a short transfer's bytes, else -1 */
	struct fileset_thread *files;	/* many files: its file choice and
					 * counts (core/fileset.h), else
					 * NULL */
};

/* 2. What runs it: the engine, the generators, the descriptors and the
 * threads, from workload_plan() and workload_prepare() to
 * workload_release_io().  The writers read the result (3), not this, but
 * for a size mix's table (section_sizes.c) and the per-I/O log of -g 0,
 * which stays with the threads that wrote it (report_series.c); the live
 * watchers (the progress line, --precision) read the threads' counters. */
struct wl_state {
	const struct engine_ops *eng;
	struct dist dist;	/* random workloads: where offsets go */
	struct size_table sizes;	/* a size mix's draw table */
	int shared_fd;
	bool needs_layout;	/* holes to fill before measuring */
	uint64_t create_size;	/* new file: bytes to create and lay out */
	struct workload *creator;	/* new file created by an earlier one */
	bool layout_confirm;	/* layout changes a file the user gave */
	struct worker *workers;
	struct verify_run verify;	/* --verify: the map, the counts */
};

/* 3. What it did: its figures, verdicts, failure and warnings, which the
 * writers read, kept until workload_cleanup() (a --repeat run kept for
 * its figures keeps this and loses its state). */
struct wl_result {
	struct result *stats;	/* on the heap, from workload_result_alloc()
				 * until workload_cleanup() */
	bool have_result;
	struct fit fit;		/* random workloads: where offsets went */
	struct size_fit size_fit;	/* a size mix: the sizes drawn */
	int error;		/* first failed I/O of any thread */
	bool error_is_memory;	/* ... or the memory budget stopped it */
	bool stopped_early;	/* another workload's failed I/O stopped it */
	uint64_t warmup_ns;	/* unmeasured time it ran before the run */
	struct delay_calib delay_calib;	/* --delay: what the waits used */
	struct rate_result *rate;	/* --rate: the schedule's figures (on
					 * the heap), else NULL */
	struct dur_verdict dur;	/* its writes' durability (durability.h) */
	int few_ios_warning;	/* index of the too-few-I/Os warning, or -1 */
	struct seq_passes passes;	/* seq: passes over the region */
	struct dev_reads devr;	/* reads that reached its device */
	int wrap_warning;	/* index of the wrapped-run warning, or -1 */
	const struct repeat_data *rep;	/* --repeat: every run's figures */
	struct precond precond;	/* --precondition: what it wrote first */
	const struct steady_data *steady;	/* --steady-state: the rounds
						 * (steady_run.h), else NULL */
	struct verify_result verify;	/* --verify: what the checks found */
	size_t ci_upto;		/* --precision stopped the run on its first
				 * ci_upto intervals: its interval is theirs
				 * (0: all complete intervals) */
	char errmsg[PATH_MAX + 256];
	char *warnings[MAX_WARNINGS];
	int nwarn;
};

/* One workload of a run: what was asked (1), what runs it (2) and what it
 * did (3), each a type of its own with a lifetime of its own. */
struct workload {
	/* 1. What was asked, resolved against the target it was probed on */
	struct spec spec;
	struct target tgt;
	unsigned index;		/* position in the run, from 0 */
	double precision_pct;	/* --precision: the half-width asked for, in
				 * % of ops/s (precision.h); 0 none */
	struct wl_state run;
	struct wl_result result;
	/* Many files (core/fileset.h): the files (1), their descriptors
	 * while it runs (2), what went to each (3); NULL: one target */
	struct fileset *files;
};

void workload_warn(struct workload *wl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Does running wl change data the user already had? */
bool workload_destroys_data(const struct workload *wl);
/* The page-cache warning of -p reads, which depends on --drop-caches. */
void workload_warn_page_cache(struct workload *wl, bool drop_caches);
/* Decide layout needs and warnings from the probed target; no I/O. */
void workload_plan(struct workload *wl);
/* Create or lay out the file, open descriptors, allocate buffers and
 * statistics.  0, or -errno after printing what failed. */
int workload_prepare(struct workload *wl);
void workload_cleanup(struct workload *wl);
/* Open path as the workload opens its target (O_DIRECT, the sync policy's
 * flags, O_NOATIME, --fadvise): 0, or -errno after a message. */
int workload_open_path(struct workload *wl, const char *path, int *fd);
/* Create path with [0, end) of non-zero data (exists false; remembered
 * for workload_remove_created()), or fill the holes of its [start, end);
 * *size: the bytes written.  0, or -errno after a message (-EINTR: a stop
 * signal); a file it was creating is removed again. */
int workload_lay_out_path(struct workload *wl, const char *path, bool exists,
			  uint64_t start, uint64_t end, uint64_t *size);
/* wl->res, zeroed, unless it has one (a --repeat slot whose run was kept
 * has none): 0, or -ENOMEM after a message. */
int workload_result_alloc(struct workload *wl);
/* The descriptors, engine state and buffers of its threads: what a run
 * needs and its report does not (a --repeat run kept for its figures:
 * repeat_run.c).  workload_cleanup() frees the rest. */
void workload_release_io(struct workload *wl);
/* Drop the exclusive claims on written devices, after every cleanup. */
void workload_release_claims(void);
/* Files created by this process: remove them (when remove, saying so)
 * and forget them.  Called once at exit: remove after a fault. */
void workload_remove_created(bool remove);

/* This machine's CLOCK_REALTIME, ns since the epoch. */
uint64_t run_realtime_ns(void);

/*
 * What follows a run from its main thread, above the run loop (stats/:
 * the progress line, --precision): the loop calls each hook a watcher
 * has, in the order they were added, with the state given with it, and
 * names none of them.
 *   prepare: before the threads start; 0, or -ENOMEM: no run
 *   start:   at the measured start (CLOCK_MONOTONIC ns)
 *   tick:    at each wake-up of the main thread; true: the run may end
 *            now with its results complete (not an interruption);
 *            stopping: it is ending already
 *   stop:    once the last thread is done, before the join
 *   end:     after the join (also after a prepare that failed later)
 *   release: run_unwatch(): the state goes (not a run's hook)
 */
struct run_watcher {
	int (*prepare)(void *arg, struct workload *wls, size_t n);
	void (*start)(void *arg, const struct workload *wls, size_t n,
		      uint64_t start_ns);
	bool (*tick)(void *arg, struct workload *wls, size_t n,
		     uint64_t now_ns, uint64_t elapsed_ns, bool stopping);
	void (*stop)(void *arg);
	void (*end)(void *arg);
	void (*release)(void *arg);
};

#define RUN_MAX_WATCHERS 4

/* The watchers of a caller's runs (its run context's), each with its
 * state. */
struct run_watchers {
	const struct run_watcher *ops[RUN_MAX_WATCHERS];
	void *arg[RUN_MAX_WATCHERS];
	size_t n;
};

/* Every later run given ws has w watch it, with arg; 0, or -ENOSPC past
 * RUN_MAX_WATCHERS. */
int run_watch(struct run_watchers *ws, const struct run_watcher *w,
	      void *arg);
/* run_watch() with a new zeroed state of size bytes, which w's release
 * frees: the state, or NULL after "rebench: no memory for WHAT". */
void *run_watch_new(struct run_watchers *ws, const struct run_watcher *w,
		    size_t size, const char *what);
/* Each watcher's release, and none left. */
void run_unwatch(struct run_watchers *ws);

/* What a caller gives each of its runs besides the workloads (its run
 * context's): the watchers; --start-at (runinfo.h), which the first run
 * that finds it not yet started waits for, after its preparation, and
 * fills in (NULL none); and --delay's calibration, made once for all. */
struct run_env {
	struct run_watchers watch;
	struct run_start_at *start_at;
	struct delay_calib delay_calib;
	bool delay_calibrated;
};

/* Run all workloads together behind one start barrier.  Returns 0, or -EIO
 * when an I/O failed (details in each workload).  *interrupted is set when
 * SIGINT/SIGTERM stopped the run early.  With warmup_ns, every workload
 * first runs unmeasured that long, and the measured run starts together
 * after it.  env (or NULL: none) is the caller's (struct run_env). */
int run_workloads(struct workload *wls, size_t n, uint64_t warmup_ns,
		  struct run_env *env, bool *interrupted);

#endif
