/* characterize_measure.h - how --characterize's tests run (inside
 * src/characterize/ only): one workload at a time, built from name, value
 * pairs of the typed setters on the command line's target and engine,
 * and read back from its result; the median with its interval; the time
 * budget (--max-duration).
 */
#ifndef REBENCH_CHARACTERIZE_MEASURE_H
#define REBENCH_CHARACTERIZE_MEASURE_H

#include "characterize/characterize.h"
#include "core/hist.h"
#include "core/workload.h"
#include "stats/ci.h"

/* What one run measured.  wl stays valid until the next run. */
struct char_run {
	uint64_t ios;
	double p50, p50_lo, p50_hi;	/* us */
	struct ci ops;
	struct workload *wl;
};

struct char_ctx {
	struct run_ctx *ctx;
	const struct spec *base;
	const struct run_opts *run;
	struct characterize_result *r;
	struct parse_ctx pctx;
	uint64_t deadline_ns;	/* CLOCK_MONOTONIC; 0: no budget */
	bool confirmed;		/* --write: the user said yes */
	unsigned seeds;		/* runs of random reads so far: each has its
				 * own seed, so none repeats another's offsets
				 * (a read cache would answer the repeats) */
	double precision_pct;	/* > 0: the next run stops once its ops/s
				 * are known to +- this (its duration the
				 * most it runs), as --precision */
};

/* Run one workload with the settings set (name, value, ..., NULL) on
 * the target; with log, every I/O's offset and latency are kept (read
 * them from m->wl's workers before the next run).  EXIT_OK, or the run's
 * exit status after a message.  acc, when given, gathers the latencies. */
int char_measure(struct char_ctx *c, const char *const *set, bool log,
		 struct char_run *m, struct hist *acc);

/* Random reads of len bytes at offset + k * stride of the drive (k at
 * random, a new seed each run), n of them (the target's coordinates made
 * the drive's). */
int char_reads_at(struct char_ctx *c, uint64_t len, uint64_t stride,
		  uint64_t disk_off, uint64_t n, struct char_run *m,
		  struct hist *acc);

/* The target's offset of the first byte at disk_off past a multiple of
 * stride on the drive. */
uint64_t char_drive_offset(const struct characterize_result *r,
			   uint64_t stride, uint64_t disk_off);

/* The median of h with its 95% interval, us. */
void char_median(const struct hist *h, double *p50, double *lo, double *hi);

/* Values of h below ns. */
uint64_t char_count_below(const struct hist *h, uint64_t ns);

/* The 95% Wilson interval of a proportion k of n. */
void char_wilson(uint64_t k, uint64_t n, double *lo, double *hi);

/* Is there time left for a test (--max-duration)?  When not, basis says
 * so. */
bool char_time_for(const struct char_ctx *c, struct char_figure *g);

void char_fmt_u64(char *buf, size_t len, uint64_t v);

/* The next run's seed, as text in buf. */
const char *char_seed(struct char_ctx *c, char *buf, size_t len);

#endif
