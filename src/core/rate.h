/* rate.h - --rate and --arrival: an open-loop schedule of intended start
 * times, one per thread, and what it measured (rebench(1), --rate).
 *
 * A rated workload of T threads at R ops/s gives each thread R/T ops/s:
 * thread i's k-th I/O is intended to start at
 *
 *	fixed:   base + (i + k * T) / R		(the threads interleaved)
 *	poisson: base + i / R + sum of k exponential intervals of mean T / R
 *
 * whatever the device did with the earlier ones (open loop: a late I/O
 * does not move the schedule).  The loop (run.c) waits for each intended
 * start with --delay's timer (delay.h), then times the I/O as always
 * (submission to completion, fio's latency) and also from its intended
 * start (the latency a client arriving on the schedule would see: the
 * coordinated omission that wrk2 and HdrHistogram describe), and how late
 * the submission was.
 */
#ifndef REBENCH_RATE_H
#define REBENCH_RATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/delay.h"
#include "core/hist.h"
#include "gen/prng.h"

/* The engine's limits: at most 10M ops/s for a workload, and at least
 * 100 ns between one thread's I/Os. */
#define RATE_MAX_OPS 10000000.0
#define RATE_MIN_INTERVAL_NS 100.0

enum rate_arrival { ARRIVAL_FIXED, ARRIVAL_POISSON };

/* What --rate asked: ops/s, or bytes/s (then ops is 0 until resolved by
 * the block size). */
struct rate_spec {
	double ops;		/* ops/s; 0: not given */
	uint64_t bytes;		/* a SIZE/s rate in bytes/s, else 0 */
};

/* "1000", "2k" (k, m: powers of 1000, decimals allowed) as ops/s, or
 * "50m/s" (a size as -b takes it, powers of 1024, then "/s") as bytes/s.
 * 0, or -EINVAL with err saying what and how to fix (without the option's
 * name). */
int rate_parse(const char *text, struct rate_spec *r, char *err, size_t len);

/* The rate in ops/s for block size bs (a SIZE/s rate divided by it). */
double rate_ops(const struct rate_spec *r, uint64_t bs);

/* "1000 ops/s", "50 MiB/s (12800 ops/s of 4096 bytes)". */
void rate_describe(const struct rate_spec *r, uint64_t bs, char *buf,
		   size_t len);

/* One thread's schedule.  Times in ns and 2^-32 ns (RATE_FRAC bits), so
 * that a fixed schedule drifts by less than a ns in 4 billion I/Os. */
#define RATE_FRAC 32
struct rate_sched {
	uint64_t next_ns;	/* the next intended start */
	uint64_t next_frac;	/* ... and its fraction of a ns, < 2^32 */
	uint64_t step_ns, step_frac;	/* a fixed interval, the same way */
	double interval_ns;	/* the mean interval */
	bool poisson;
	struct prng prng;
};

/* Thread `index` of `threads` at `ops` ops/s in all, from base. */
void rate_sched_init(struct rate_sched *s, double ops, unsigned threads,
		     unsigned index, bool poisson, uint64_t seed,
		     uint64_t base);

/* A Poisson schedule's next interval into s->step_ns and step_frac
 * (exponential, of mean interval_ns). */
void rate_exp_step(struct rate_sched *s);

/* The next intended start (ns), and the schedule moved past it. */
static inline uint64_t rate_sched_next(struct rate_sched *s)
{
	uint64_t t = s->next_ns;

	if (s->poisson)
		rate_exp_step(s);
	s->next_frac += s->step_frac;
	s->next_ns += s->step_ns + (s->next_frac >> RATE_FRAC);
	s->next_frac &= (1ULL << RATE_FRAC) - 1;
	return t;
}

/* What one thread measured. */
struct rate_thread {
	struct rate_sched sched;
	struct delay_clock clock;	/* its waits (no carry: absolute) */
	struct hist intended;	/* completion - intended start */
	uint64_t ios;
	uint64_t late;		/* I/Os whose intended start had passed */
	uint64_t late_sum_ns;	/* submission - intended start, summed */
	uint64_t late_max_ns;
	uint64_t first_ns, last_ns;	/* first and last intended start */
	uint64_t first_sub_ns, last_sub_ns;	/* first and last submission */
	uint64_t lag_end_ns;	/* the last I/O's lateness */
};

void rate_thread_reset(struct rate_thread *t);

/* One I/O: intended start, submission, completion. */
static inline void rate_thread_record(struct rate_thread *t, uint64_t intended,
				      uint64_t t0, uint64_t t1, bool waited)
{
	uint64_t lag = t0 > intended ? t0 - intended : 0;

	hist_add(&t->intended, t1 > intended ? t1 - intended : 0);
	if (!t->ios) {
		t->first_ns = intended;
		t->first_sub_ns = t0;
	}
	t->ios++;
	t->last_ns = intended;
	t->last_sub_ns = t0;
	t->late += !waited;
	t->late_sum_ns += lag;
	if (lag > t->late_max_ns)
		t->late_max_ns = lag;
	t->lag_end_ns = lag;
}

/* A workload's figures, its threads merged. */
struct rate_result {
	bool present;
	double asked;		/* ops/s */
	bool asked_bytes;	/* given as SIZE/s */
	uint64_t asked_bytes_per_s;
	int arrival;		/* enum rate_arrival */
	double achieved;	/* ops done / elapsed */
	double scheduled;	/* from the intended starts: the threads'
				 * (I/Os - 1) / (last - first), summed */
	double submitted;	/* the same from the submissions */
	double interval_ns;	/* one thread's mean interval */
	bool met;
	bool behind;		/* the last I/O was late by more than one
				 * interval */
	uint64_t ios, late, late_sum_ns, late_max_ns, lag_end_ns;
	struct hist intended;
};

void rate_merge(struct rate_result *r, struct rate_thread *const *t,
		size_t n, uint64_t ops_total, uint64_t elapsed_ns);

const char *rate_arrival_name(int arrival);

#endif
