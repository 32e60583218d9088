/* load_curve.h - a sweep of --rate alone: latency against the load, and
 * its knee.  Each point is a rated run of workload 1.  Below the lowest
 * rate not met (rate.h: achieved within 1% of the schedule, which did not
 * fall behind), the knee is the highest rate whose latency from the
 * intended start at p99 is within KNEE_FACTOR times the least p99 of any
 * rate met (the device unqueued; a lower rate's p99 may carry a stall or
 * the sweep's cold start, so it does not end the search); the rate above
 * the knee is what gave way.  Computed once
 * the sweep is done and given to the writers through the report scope:
 * the human "Knee:" line, JSON sweep.load_curve, the -n "knee" line, and
 * --plot's marker (plots/loadcurve.gp).
 */
#ifndef REBENCH_LOAD_CURVE_H
#define REBENCH_LOAD_CURVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define KNEE_FACTOR 2.0

struct json;

/* One point of the curve, from workload 1 of a rated run. */
struct load_point {
	bool have;		/* the point ran and was rated */
	double asked, achieved;	/* ops/s */
	bool met;
	double p99_us;		/* from the intended start */
};

struct load_curve {
	bool on;		/* a sweep of --rate alone */
	size_t points;		/* that ran */
	double base_p99_us;	/* the least p99 of a rate met (0: none) */
	bool have_knee;
	struct load_point knee;
	bool have_next;		/* the first rate above the knee (or the
				 * lowest, when no rate held) */
	struct load_point next;
};

/* The curve of n points (in any order; those without have are left
 * out). */
void load_curve_judge(struct load_curve *c, const struct load_point *p,
		      size_t n);
/* "Knee: ..." and its line end. */
void load_curve_human(FILE *f, const struct load_curve *c);
/* "knee ASKED ACHIEVED P99_US BASE_P99_US NEXT_ASKED NEXT_ACHIEVED
 * NEXT_MET" ("-" where there is none). */
void load_curve_terse(FILE *f, const struct load_curve *c);
/* "load_curve": {...} */
void load_curve_json(struct json *j, const struct load_curve *c);

#endif
