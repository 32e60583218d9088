/* stats.h - per-thread accumulators, filled on the hot path without locks,
 * and the per-workload result they merge into once the run is over.
 *
 * Intervals: interval i covers [i * step, (i+1) * step) from the common start
 * of the run; an I/O counts in the interval in which it completed.  Only
 * complete intervals enter the min/max/stddev of ops/s, so a short tail does
 * not look like a stall; with no complete interval they are the run's mean.
 * The reported series ends with the partial tail only when it lasted at
 * least a tenth of a step; its I/Os are always in the totals.
 */
#ifndef REBENCH_STATS_H
#define REBENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/hist.h"
#include "core/spec.h"

/* One I/O for the -g 0 log: 32 bytes each. */
struct io_rec {
	uint64_t t_ns;		/* completion, from the start of the run */
	uint64_t off;
	uint64_t lat_ns;
	uint32_t len;
	uint32_t kind;
};

#define IO_LOG_CHUNK 65536	/* records per allocation: 2 MiB */

struct io_log_chunk {
	struct io_log_chunk *next;
	size_t n;
	struct io_rec recs[IO_LOG_CHUNK];
};

/* CPU used by one thread over the measured run (getrusage(RUSAGE_THREAD)
 * at its measured start and at its end, never per I/O), or the sum over
 * threads: fio's "cpu: usr= sys= ctx=". */
struct cpu_use {
	uint64_t user_us;	/* ru_utime */
	uint64_t sys_us;	/* ru_stime */
	uint64_t nvcsw;		/* voluntary context switches */
	uint64_t nivcsw;	/* involuntary ones */
};

/* One interval of a thread's series. */
struct iv_sums {
	uint64_t ops;
	uint64_t bytes;		/* sizes vary per I/O: bytes apart */
	uint64_t lat_sum;
	uint64_t lat_max;
};

struct thread_stats {
	/* latency per operation kind; hist[k].count is the kind's I/Os
	 * (thread_stats_ops), read by progress.c while the run goes on */
	struct hist hist[IO_KINDS];
	uint64_t bytes[IO_KINDS];
	/* interval series */
	uint64_t step_ns;
	uint64_t next_edge;
	size_t cur;
	size_t cap;
	struct iv_sums *iv;	/* cap of them; iv[i].ops is read by
				 * precision.c while the run goes on */
	/* ops per interval of each kind, when the stream has more than one
	 * kind (thread_stats_track_kinds); NULL for the others */
	uint64_t *iv_kind_ops[IO_KINDS];
	/* per-I/O log, only with -g 0 and --output */
	bool log_ios;
	struct io_log_chunk *log_head, *log_tail;
	uint64_t mem;		/* bytes taken from the memory budget */
	/* the kinds that make the headline (ops/s, MB/s, latency, the
	 * interval series): the data kinds, so a flush is not an I/O there
	 * (as in fio's IOPS), or every kind when the workload only flushes
	 * (thread_stats_headline) */
	unsigned headline;
	/* write+flush latency (thread_stats_durable): the start of each write
	 * since the last fsync or fdatasync, and when one completes, each
	 * such write's time from its start to the flush's end */
	uint64_t *pend_t0;
	uint32_t pend_n, pend_cap;
	struct hist durable;
	uint64_t end_flushes;	/* flushes owed at the timed end, issued
				 * after the clock stopped (stats_record_end) */
	struct cpu_use cpu;	/* set once the thread's run ends */
	/* stats_record(): below fast_until[kind] an I/O of kind needs only
	 * the fast path (stats_fast_sync()) */
	uint64_t fast_until[IO_KINDS];
	struct iv_sums *iv_now;	/* &iv[cur], for the fast path */
};

struct result {
	struct hist hist;		/* every operation: the classic line */
	struct hist op_hist[IO_KINDS];	/* each kind: reads apart from writes */
	uint64_t ops[IO_KINDS];
	uint64_t op_bytes[IO_KINDS];
	uint64_t ops_total;
	uint64_t bytes;
	uint64_t elapsed_ns;
	double ops_per_s;
	double mb_per_s;	/* 2^20 bytes, as in the original */
	/* merged interval series */
	uint64_t step_ns;
	size_t n_iv;		/* intervals with data, the last may be partial */
	size_t n_full;		/* complete intervals */
	size_t n_series;	/* intervals to report: the complete ones, and
				 * the partial tail when it lasted at least a
				 * tenth of a step (a shorter one would show a
				 * handful of I/Os as a huge rate) */
	uint64_t *iv_ops;
	uint64_t *iv_bytes;
	uint64_t *iv_lat_sum;
	uint64_t *iv_lat_max;
	uint64_t *iv_kind_ops[IO_KINDS];	/* NULL unless tracked */
	double iv_min, iv_max, iv_sd;	/* ops/s over complete intervals */
	/* The headline (hist, ops_total, bytes, ops/s, MB/s, the series) is
	 * over the data I/Os (read, write, trim); the flushes are in their
	 * kinds' ops[] and op_hist[] only.  A workload that only flushes
	 * has its flushes as its headline (flush_headline). */
	bool flush_headline;
	uint64_t flushes;		/* every flush kind, end ones included */
	uint64_t end_flushes;		/* of them, issued after the clock
					 * stopped (owed by the last writes) */
	struct hist durable;		/* write+flush latency: each write from
					 * its start to the end of the fsync or
					 * fdatasync that made it durable */
	bool durable_known;		/* it was measured (fsync:N or
					 * fdatasync:N, one I/O in flight) */
	struct cpu_use cpu;	/* its threads' CPU, summed */
	size_t cpu_nthreads;
	struct cpu_use *cpu_thread;	/* each thread's (a total: every
					 * part's threads in turn) */
};

/* expected_ns sizes the series up front (0 if unknown); -ENOMEM on failure. */
int thread_stats_init(struct thread_stats *st, uint64_t step_ns,
		      uint64_t expected_ns, bool log_ios);
void thread_stats_free(struct thread_stats *st);
/* Forget everything recorded (after --warmup), keeping the allocations. */
void thread_stats_reset(struct thread_stats *st);
/* Keep a per-interval count for each kind in mask (a bit per enum
 * io_kind), after init; 0 or -ENOMEM.  Only worth it for more than one. */
int thread_stats_track_kinds(struct thread_stats *st, unsigned mask);
int thread_stats_grow(struct thread_stats *st, size_t need);
/* The kinds of the workload (a bit per enum io_kind): the headline is
 * over its data kinds, or over all when it has none. */
void thread_stats_headline(struct thread_stats *st, unsigned kinds);
/* Measure write+flush latency for a policy flushing after every n writes
 * (the writes waiting for their flush are kept, n at most
 * STATS_DURABLE_MAX); 0 or -ENOMEM. */
#define STATS_DURABLE_MAX 65536U
int thread_stats_durable(struct thread_stats *st, uint32_t n);
/* A write or flush for the write+flush latency (out of line: only runs
 * that measure it call it). */
void stats_durable_record(struct thread_stats *st, int kind, uint64_t t_done,
			  uint64_t lat);
/* A flush owed by the writes before the clock stopped, issued after it:
 * in its kind's count and latency, outside the headline and the series. */
void stats_record_end(struct thread_stats *st, int kind, uint64_t t_done,
		      uint64_t lat);
int thread_stats_log_chunk(struct thread_stats *st);

/* The full path of stats_record(): an interval edge, the series' growth,
 * the per-I/O log, the write+flush latency, a kind counted per interval or
 * outside the headline.  Out of line: the fast path calls it only when
 * one of those applies. */
int stats_record_slow(struct thread_stats *st, int kind, uint64_t off,
		      uint32_t len, uint64_t t_done, uint64_t lat);
/* fast_until[] again, after anything it depends on changed (stats.c does
 * it for every setter; who changes a field by hand calls it). */
void stats_fast_sync(struct thread_stats *st);

/* Hot path: one completed I/O.  Allocates only when a series or log chunk
 * fills (once per IO_LOG_CHUNK I/Os or per doubling of the series).
 *
 * One comparison decides: fast_until[kind] is the next interval edge when
 * nothing but the histogram, the counts and the current interval's sums
 * are to be updated for kind (no log, no write+flush latency, no count per
 * kind, a headline kind, the interval inside the series), else 0; before
 * it, the same updates as stats_record_slow() makes, inline. */
static inline __attribute__((always_inline)) int
stats_record(struct thread_stats *st, int kind, uint64_t off, uint32_t len,
	     uint64_t t_done, uint64_t lat)
{
	struct iv_sums *v;

	if (__builtin_expect(t_done >= st->fast_until[kind], 0))
		return stats_record_slow(st, kind, off, len, t_done, lat);
	v = st->iv_now;
	hist_add(&st->hist[kind], lat);
	st->bytes[kind] += len;
	v->ops++;
	v->bytes += len;
	v->lat_sum += lat;
	if (lat > v->lat_max)
		v->lat_max = lat;
	return 0;
}

/* Whether stats_record() of kind completing at t_done takes the fast path
 * (so that stats_record_fast_n() may stand for it). */
static inline bool stats_fast_ok(const struct thread_stats *st, int kind,
				 uint64_t t_done)
{
	return t_done < st->fast_until[kind];
}

/* n I/Os of kind, len bytes each, that completed together with the same
 * latency, stats_fast_ok() for them: what n stats_record() calls make
 * (the sums are the same; nothing on this path depends on the order). */
static inline __attribute__((always_inline)) void
stats_record_fast_n(struct thread_stats *st, int kind, uint32_t len,
		    uint64_t lat, uint64_t n)
{
	struct iv_sums *v = st->iv_now;

	hist_add_n(&st->hist[kind], lat, n);
	st->bytes[kind] += n * len;
	v->ops += n;
	v->bytes += n * len;
	v->lat_sum += n * lat;
	if (lat > v->lat_max)
		v->lat_max = lat;
}

/* I/Os of kind a thread has recorded (its histogram's count). */
static inline uint64_t thread_stats_ops(const struct thread_stats *st,
					int kind)
{
	return st->hist[kind].count;
}

/* I/Os a thread has recorded, every kind. */
static inline uint64_t thread_stats_count(const struct thread_stats *st)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < IO_KINDS; k++)
		n += st->hist[k].count;
	return n;
}

/* Merge n threads' stats into res; elapsed_ns is the run's wall time. */
int stats_merge(struct result *res, struct thread_stats *const *threads,
		size_t n, uint64_t elapsed_ns);
/*
 * The total of n results that ran together (the workloads of one run):
 * counts, bytes and every histogram added, so the total's percentiles come
 * from the merged buckets, never from the parts' percentiles; ops/s and
 * MB/s summed (each part's over its own elapsed time); elapsed the longest.
 * The interval series are added when every part has the same step (they
 * share the run's start), with a series per kind when the total mixes kinds
 * and each part has one (or only that kind); with different steps the total
 * has no series (step_ns 0).  0, or -ENOMEM with nothing left allocated.
 */
int result_merge(struct result *dst, const struct result *const *srcs,
		 size_t n);
void result_free(struct result *res);

/* Data I/Os (reads, writes, trims: not flushes) of res. */
uint64_t result_data_ios(const struct result *res);
/* CPU microseconds (user + system) per data I/O; NAN without any. */
double result_cpu_us_per_io(const struct result *res);

#endif
