/* repeat.c - statistics over repeated runs.  The confidence interval is
 * taken on the log scale: exp(m +- t(0.975, n-1) * s / sqrt(n)) with m and
 * s the mean and standard deviation of the logs of n independent runs and
 * t from GSL's inverse Student t CDF.  Every figure it is used for (ops/s,
 * MB/s, latencies) is positive, and the textbook interval of the plain
 * mean is not: with 2 or 3 runs, or a long tail, it went below zero.  On
 * the log scale it is the interval of the geometric mean, never below 0,
 * and wider above than below, as the spread of such figures is. */
#include "stats/repeat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

static const char *const keys[RM_COUNT] = {
	"ops_per_s", "mib_per_s", "lat_avg_us", "lat_p50_us", "lat_p90_us",
	"lat_p99_us", "lat_p999_us",
};
static const char *const labels[RM_COUNT] = {
	"ops/s", "MiB/s", "avg (us)", "p50 (us)", "p90 (us)", "p99 (us)",
	"p99.9 (us)",
};

const enum repeat_metric repeat_shown[REPEAT_SHOWN] = {
	RM_OPS, RM_P50, RM_P90, RM_P99, RM_P999,
};

const char *repeat_key(enum repeat_metric m) { return keys[m]; }
const char *repeat_label(enum repeat_metric m) { return labels[m]; }

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The 95% interval on the log scale of sorted s[0..n-1], n >= 2: every
 * value positive, else NaN (all zero: [0, 0], nothing varied).  Equal
 * values give [x, x] exactly. */
static void log_interval(const double *s, size_t n, struct repeat_stat *out)
{
	double lm = 0, ss = 0, half, l0;
	size_t i;

	if (s[n - 1] == 0 && s[0] == 0) {
		out->ci_low = out->ci_high = 0;
		return;
	}
	if (!(s[0] > 0))
		return;		/* NaN: a run with nothing to take a log of */
	if (s[0] == s[n - 1]) {
		out->ci_low = out->ci_high = s[0];
		return;
	}
	/* deviations from the first log, as the mean above */
	l0 = log(s[0]);
	for (i = 0; i < n; i++)
		lm += log(s[i]) - l0;
	lm = l0 + lm / (double)n;
	for (i = 0; i < n; i++)
		ss += (log(s[i]) - lm) * (log(s[i]) - lm);
	half = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) *
	       sqrt(ss / (double)(n - 1)) / sqrt((double)n);
	out->ci_low = exp(lm - half);
	out->ci_high = exp(lm + half);
}

int repeat_summarize(const double *v, size_t n, struct repeat_stat *out)
{
	double *s, sum = 0, ss = 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->n = n;
	out->ci_low = out->ci_high = NAN;
	if (!n)
		return 0;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	out->median = n % 2 ? s[n / 2] : s[n / 2 - 1] + (s[n / 2] - s[n / 2 - 1]) / 2;
	/* means as the first value plus the mean deviation from it: exact
	 * when the values are equal, and the trimmed mean of three is the
	 * median itself */
	for (i = 0; i < n; i++)
		sum += s[i] - s[0];
	out->mean = s[0] + sum / (double)n;
	if (n >= 3) {
		double t = 0;

		for (i = 1; i + 1 < n; i++)
			t += s[i] - s[1];
		out->trimmed_mean = s[1] + t / (double)(n - 2);
	} else {
		out->trimmed_mean = out->mean;
	}
	for (i = 0; i < n; i++)
		ss += (s[i] - out->mean) * (s[i] - out->mean);
	if (n >= 2) {
		out->stddev = sqrt(ss / (double)(n - 1));
		out->cv_pct = out->mean != 0 ?
			100.0 * out->stddev / fabs(out->mean) : 0;
		log_interval(s, n, out);
	}
	free(s);
	return 0;
}

/* Rank of run i among v[0..n-1]: the runs below it, ties in run order. */
static size_t rank_of(const double *v, size_t n, size_t i)
{
	size_t j, r = 0;

	for (j = 0; j < n; j++)
		if (v[j] < v[i] || (v[j] == v[i] && j < i))
			r++;
	return r;
}

size_t repeat_median_run(const double *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (rank_of(v, n, i) == (n - 1) / 2)
			break;
	return i;
}

bool repeat_may_be_median(const double *v, size_t c, size_t n, size_t i)
{
	size_t r = rank_of(v, c, i), m = (n - 1) / 2;

	return r <= m && m <= r + (n - c);
}
