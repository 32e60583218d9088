/* ci.h - the 95% confidence interval of a mean rate from a series of
 * equal intervals, by non-overlapping batch means.
 *
 * Ops/s in neighbouring intervals are correlated (a device's garbage
 * collection, the page cache, a neighbour's burst last for several
 * intervals), so the textbook mean +- t * s / sqrt(n) of the intervals
 * themselves is too narrow.  Batch means (Law and Kelton, "Simulation
 * Modeling and Analysis", ch. 9) groups the last B * m intervals into B
 * consecutive batches of m; with batches long enough their means are
 * nearly independent and normal, and
 *
 *	mean +- t(0.975, B - 1) * s_B / sqrt(B)
 *
 * with s_B the standard deviation of the B batch means is a valid 95%
 * interval for correlated samples.  B is floor(sqrt(n)) held within
 * [CI_MIN_BATCHES, CI_MAX_BATCHES], so the batches grow with the run;
 * the n - B * m intervals after the last whole batch are left out.  (Not
 * the earliest ones: then one more interval would shift every batch, and
 * the interval --precision stopped on would not be the one reported a
 * moment later; --warmup is the way to leave out a start.)
 */
#ifndef REBENCH_CI_H
#define REBENCH_CI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CI_MIN_INTERVALS 10	/* fewer complete intervals: no interval */
#define CI_MIN_BATCHES 5
#define CI_MAX_BATCHES 30

struct ci {
	bool known;		/* false: fewer than CI_MIN_INTERVALS */
	size_t batches;		/* B */
	size_t per_batch;	/* m, intervals in a batch */
	size_t used;		/* intervals used, the first B * m */
	double mean;		/* of the B * m intervals used */
	double low, high;	/* the 95% interval of the mean */
	double half_pct;	/* (high - low) / 2, in % of the mean */
};

/* The interval of the mean of x[0..n-1]; out->known is false (and the
 * rest 0) below CI_MIN_INTERVALS.  A mean of 0 has half_pct 0 when every
 * value is 0, else infinity. */
void ci_batch_means(const double *x, size_t n, struct ci *out);

struct result;
/* ci_batch_means() of a result's complete intervals, in ops/s: the first
 * upto of them (0: all). */
void ci_of_result(const struct result *res, size_t upto, struct ci *out);

#endif
