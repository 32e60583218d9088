/* sweep_noise.c - best, tied and outlying cells of a sweep matrix
 * (sweep_noise.h). */
#include "study/sweep_noise.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define Z95 1.959963984540054

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Quantile q of sorted s[0..n-1], linear between order statistics (the
 * default of R and numpy). */
static double quantile(const double *s, size_t n, double q)
{
	double h = q * (double)(n - 1);
	size_t i = (size_t)floor(h);

	if (i + 1 >= n)
		return s[n - 1];
	return s[i] + (h - (double)i) * (s[i + 1] - s[i]);
}

/* Relative standard error of a cell, or NaN without an interval. */
static double rel_se(double v, double lo, double hi)
{
	if (!(v > 0) || isnan(lo) || isnan(hi) || hi < lo)
		return NAN;
	return (hi - lo) / (2 * Z95 * v);
}

static void fences(const double *v, size_t n, unsigned *marks,
		   struct noise_summary *s, double *sorted)
{
	double q1, q3, lf, uf;
	size_t i, m = 0;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			sorted[m++] = v[i];
	qsort(sorted, m, sizeof(*sorted), cmp_double);
	s->cb_low = sorted[0];
	s->cb_high = sorted[m - 1];
	if (m < 4)
		return;
	q1 = quantile(sorted, m, 0.25);
	q3 = quantile(sorted, m, 0.75);
	lf = q1 - 3 * (q3 - q1);
	uf = q3 + 3 * (q3 - q1);
	s->cb_low = INFINITY;
	s->cb_high = -INFINITY;
	for (i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		if (v[i] < lf || v[i] > uf) {
			marks[i] |= NOISE_OUTLIER;
			s->outliers++;
			continue;
		}
		s->cb_low = fmin(s->cb_low, v[i]);
		s->cb_high = fmax(s->cb_high, v[i]);
	}
}

void noise_judge(const double *v, const double *lo, const double *hi,
		 size_t n, bool lower_better, unsigned *marks,
		 struct noise_summary *s)
{
	double *buf = malloc((n ? n : 1) * sizeof(*buf));
	double sb;
	size_t i, k = 0;
	bool have = false;

	memset(s, 0, sizeof(*s));
	memset(marks, 0, n * sizeof(*marks));
	s->cb_low = s->cb_high = s->median_pct = s->min_pct = s->max_pct = NAN;
	for (i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		s->n++;
		if (!have || (lower_better ? v[i] < v[s->best] : v[i] > v[s->best]))
			s->best = i;
		have = true;
	}
	if (!have || !buf) {
		free(buf);
		return;
	}
	marks[s->best] |= NOISE_BEST;
	fences(v, n, marks, s, buf);
	/* the half-widths, in % of each value */
	for (i = 0; i < n; i++)
		if (!isnan(v[i]) && !isnan(rel_se(v[i], lo[i], hi[i])))
			buf[k++] = 100.0 * (hi[i] - lo[i]) / 2 / v[i];
	s->known = k;
	if (k) {
		qsort(buf, k, sizeof(*buf), cmp_double);
		s->median_pct = quantile(buf, k, 0.5);
		s->min_pct = buf[0];
		s->max_pct = buf[k - 1];
	}
	free(buf);
	sb = rel_se(v[s->best], lo[s->best], hi[s->best]);
	if (isnan(sb))
		return;
	for (i = 0; i < n; i++) {
		double sc = isnan(v[i]) ? NAN : rel_se(v[i], lo[i], hi[i]);

		if (i == s->best || isnan(sc))
			continue;
		if (fabs(log(v[i] / v[s->best])) <= Z95 * sqrt(sc * sc + sb * sb)) {
			marks[i] |= NOISE_TIED;
			s->tied++;
		}
	}
}
