/* steady.h - SNIA PTS steady state: --steady-state runs a workload in
 * rounds of --round D until the last STEADY_WINDOW rounds' ops/s y_i hold
 * both criteria of the SNIA Solid State Storage Performance Test
 * Specification (PTS 2.0, "steady state"), with ybar their mean:
 *
 *   range: max(y) - min(y) <= 20% of ybar
 *   slope: the least-squares line through (i, y_i) over the window moves
 *          |slope| * (STEADY_WINDOW - 1) <= 10% of ybar across it
 *
 * or until --max-rounds (25 unless given, the PTS's limit).
 */
#ifndef REBENCH_STEADY_H
#define REBENCH_STEADY_H

#include <stdbool.h>
#include <stddef.h>

#define STEADY_WINDOW 5
#define STEADY_RANGE_PCT 20.0
#define STEADY_SLOPE_PCT 10.0
#define STEADY_MAX_ROUNDS 25
#define STEADY_ROUND_NS (60ULL * 1000000000ULL)

struct steady_verdict {
	bool judged;		/* at least STEADY_WINDOW rounds */
	bool steady;		/* both criteria hold */
	size_t first, last;	/* the window, rounds from 1 */
	double mean;		/* ybar */
	double range_pct;	/* (max - min) / ybar, in % */
	double slope_pct;	/* |slope| * (window - 1) / ybar, in % */
	bool range_ok, slope_ok;
};

/* The criteria over the last STEADY_WINDOW of y[0..n-1] (round i + 1 is
 * y[i]); judged false below that many. */
void steady_judge(const double *y, size_t n, struct steady_verdict *v);

#endif
