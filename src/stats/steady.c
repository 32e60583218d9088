/* steady.c - the SNIA steady-state criteria (steady.h). */
#include "stats/steady.h"

#include <math.h>
#include <string.h>

void steady_judge(const double *y, size_t n, struct steady_verdict *v)
{
	const size_t w = STEADY_WINDOW;
	double sx = 0, sy = 0, sxy = 0, sxx = 0, lo, hi, slope;
	size_t i;

	memset(v, 0, sizeof(*v));
	if (n < w)
		return;
	v->judged = true;
	v->first = n - w + 1;
	v->last = n;
	y += n - w;
	lo = hi = y[0];
	for (i = 0; i < w; i++) {
		double x = (double)i;

		sx += x;
		sy += y[i];
		sxy += x * y[i];
		sxx += x * x;
		lo = fmin(lo, y[i]);
		hi = fmax(hi, y[i]);
	}
	v->mean = sy / (double)w;
	slope = ((double)w * sxy - sx * sy) / ((double)w * sxx - sx * sx);
	if (v->mean > 0) {
		v->range_pct = 100.0 * (hi - lo) / v->mean;
		v->slope_pct = 100.0 * fabs(slope) * (double)(w - 1) / v->mean;
	} else {	/* nothing measured: nothing steady about it */
		v->range_pct = v->slope_pct = INFINITY;
	}
	v->range_ok = v->range_pct <= STEADY_RANGE_PCT;
	v->slope_ok = v->slope_pct <= STEADY_SLOPE_PCT;
	v->steady = v->range_ok && v->slope_ok;
}
