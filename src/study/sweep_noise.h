/* sweep_noise.h - what a heatmap's cells can and cannot tell apart.
 *
 * Each cell of a sweep matrix has a value and, when the sweep measured
 * one, a 95% interval [lo, hi] (--repeat: over the runs, on the log scale;
 * otherwise, for ops/s and MB/s, batch means of the point's intervals,
 * ci.h).  From them:
 *
 *   the best cell: the highest value (the lowest for a latency);
 *   tied cells: those not distinguishable from the best at about 95%:
 *     |ln(v / v_best)| <= 1.96 sqrt(s^2 + s_best^2), with a cell's
 *     relative standard error s = (hi - lo) / (2 * 1.96 * v) (a normal
 *     approximation on the log scale; cells without an interval are never
 *     tied);
 *   outliers: values beyond Tukey's far fences, q1 - 3 IQR and q3 + 3 IQR
 *     (q1, q3 the quartiles of the values, 4 values or more), which the
 *     colour range leaves out so that one cell cannot squash the rest
 *     into one colour;
 *   the noise: the median half-width, in % of the value, over the cells
 *     with an interval.
 */
#ifndef REBENCH_SWEEP_NOISE_H
#define REBENCH_SWEEP_NOISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum noise_mark {
	NOISE_BEST = 1,
	NOISE_TIED = 2,
	NOISE_OUTLIER = 4,
};

struct noise_summary {
	size_t n;		/* cells with a value */
	size_t known;		/* ... and an interval */
	size_t best;		/* index of the best cell */
	size_t tied, outliers;
	double median_pct, min_pct, max_pct;	/* half-widths, % of value */
	double cb_low, cb_high;	/* colour range: the values within the
				 * fences */
};

/* Judge the n cells v[] (NaN: no value) with intervals lo[], hi[] (NaN:
 * none); marks[i] gets a bit per enum noise_mark. */
void noise_judge(const double *v, const double *lo, const double *hi,
		 size_t n, bool lower_better, unsigned *marks,
		 struct noise_summary *s);

#endif
