/* repeat.h - --repeat N: the spread of a metric over N runs of the same
 * workload, as the seeds' database benchmarks reported it (drop the best
 * and the worst, average the rest) and with a 95% confidence interval. */
#ifndef REBENCH_REPEAT_H
#define REBENCH_REPEAT_H

#include <stdbool.h>
#include <stddef.h>

#define REPEAT_CV_WARN_PCT 10.0	/* above this, the runs disagree */

enum repeat_metric {
	RM_OPS, RM_MBPS, RM_LAT_AVG, RM_P50, RM_P90, RM_P99, RM_P999,
	RM_COUNT
};

struct repeat_stat {
	size_t n;
	double median;
	double trimmed_mean;	/* without the lowest and highest (n >= 3) */
	double mean;
	double stddev;		/* sample standard deviation (n - 1) */
	double cv_pct;		/* stddev / mean, in %; 0 when mean is 0 */
	double ci_low, ci_high;	/* 95% CI on the log scale (repeat.c), of the
				 * geometric mean; NaN if n < 2 or a value
				 * is not positive */
};

/* The metrics the human block and -n fields 84-108 give, in that order:
 * ops/s and the p50, p90, p99 and p99.9 latency. */
#define REPEAT_SHOWN 5
extern const enum repeat_metric repeat_shown[REPEAT_SHOWN];

/* One workload's metrics over its runs. */
struct repeat_data {
	size_t runs;
	unsigned long long seed0;	/* run r used seed0 + r */
	double *v[RM_COUNT];		/* [runs] each */
	struct repeat_stat stat[RM_COUNT];
	/* the run whose figures the block shows, from 0: the median run by
	 * ops/s (repeat_median_run()); or run `runs`, which did not complete
	 * (a failed I/O, a signal) and ended the runs */
	size_t shown;
};

/* Summary of v[0..n-1] (n >= 1); v is not changed. 0, or -ENOMEM. */
int repeat_summarize(const double *v, size_t n, struct repeat_stat *out);

/* The median run of n >= 1 runs with ops/s v[0..n-1]: the one at rank
 * (n - 1) / 2 in ascending order, ties in run order; with an even n the
 * lower of the two middle runs (the median figure is then the mean of the
 * two, no run's own). */
size_t repeat_median_run(const double *v, size_t n);
/* After c of n runs (ops/s v[0..c-1]), can run i < c still be the median
 * run of all n, whatever the runs to come give?  Its rank can only grow,
 * by at most n - c. */
bool repeat_may_be_median(const double *v, size_t c, size_t n, size_t i);

/* "ops_per_s", "mb_per_s", "lat_avg_us", "lat_p50_us", ...: JSON keys. */
const char *repeat_key(enum repeat_metric m);
/* "ops/s", "MB/s", "avg (us)", "p50 (us)", ...: for people. */
const char *repeat_label(enum repeat_metric m);

#endif
