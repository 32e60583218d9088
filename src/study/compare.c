/* compare.c - the ratio of two results and its interval (compare.h). */
#include "study/compare.h"

#include <math.h>

#include <gsl/gsl_cdf.h>

/* Mean and sample variance of the logs of v[0..n-1]; false when a value
 * is not positive. */
static bool log_moments(const double *v, size_t n, double *mean, double *var)
{
	double m = 0, ss = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return false;
		m += log(v[i]);
	}
	m /= (double)n;
	for (i = 0; i < n; i++)
		ss += (log(v[i]) - m) * (log(v[i]) - m);
	*mean = m;
	*var = ss / (double)(n - 1);
	return true;
}

/* exp(d +- t(0.975, df) * se) into out; se 0 is an exact ratio. */
static void interval(double d, double se, double df, struct cmp_result *out)
{
	double t = se > 0 ? gsl_cdf_tdist_Pinv(0.975, df) : 0;

	out->ratio = exp(d);
	out->low = exp(d - t * se);
	out->high = exp(d + t * se);
	out->df = df;
}

static bool by_repeat(const struct cmp_side *a, const struct cmp_side *b,
		      struct cmp_result *out)
{
	double ma, va, mb, vb, qa, qb, se2;

	if (!a->runs || !b->runs || a->nruns < 2 || b->nruns < 2 ||
	    !log_moments(a->runs, a->nruns, &ma, &va) ||
	    !log_moments(b->runs, b->nruns, &mb, &vb))
		return false;
	qa = va / (double)a->nruns;
	qb = vb / (double)b->nruns;
	se2 = qa + qb;
	/* Welch-Satterthwaite */
	interval(mb - ma, sqrt(se2), se2 > 0 ?
		 se2 * se2 / (qa * qa / (double)(a->nruns - 1) +
			      qb * qb / (double)(b->nruns - 1)) :
		 (double)(a->nruns + b->nruns - 2), out);
	out->method = CMP_REPEAT;
	return true;
}

/* A side's relative standard error from its batch-means interval. */
static double rel_se(const struct cmp_side *s)
{
	return (s->ci_high - s->ci_low) / 2 / s->ci_mean /
	       gsl_cdf_tdist_Pinv(0.975, (double)s->dof);
}

static bool by_batches(const struct cmp_side *a, const struct cmp_side *b,
		       struct cmp_result *out)
{
	double sa, sb, qa, qb, se2;

	if (!a->dof || !b->dof || !(a->ci_mean > 0) || !(b->ci_mean > 0) ||
	    !(a->value > 0) || !(b->value > 0))
		return false;
	sa = rel_se(a);
	sb = rel_se(b);
	qa = sa * sa;
	qb = sb * sb;
	se2 = qa + qb;
	interval(log(b->value / a->value), sqrt(se2), se2 > 0 ?
		 se2 * se2 / (qa * qa / a->dof + qb * qb / b->dof) :
		 (double)(a->dof + b->dof), out);
	out->method = CMP_BATCH;
	return true;
}

void compare_ratio(const struct cmp_side *a, const struct cmp_side *b,
		   bool lower_better, struct cmp_result *out)
{
	out->low = out->high = NAN;
	out->df = 0;
	out->method = CMP_NONE;
	out->verdict = CMP_NO_INTERVAL;
	out->ratio = a->value > 0 ? b->value / a->value : NAN;
	if (!by_repeat(a, b, out) && !by_batches(a, b, out))
		return;
	if (out->low > 1)
		out->verdict = lower_better ? CMP_SLOWER : CMP_FASTER;
	else if (out->high < 1)
		out->verdict = lower_better ? CMP_FASTER : CMP_SLOWER;
	else
		out->verdict = CMP_SAME;
}

const char *compare_method_name(enum cmp_method m)
{
	return m == CMP_REPEAT ? "repeat" : m == CMP_BATCH ? "batch-means" :
								  "none";
}

const char *compare_verdict_name(enum cmp_verdict v)
{
	static const char *const names[] = {
		[CMP_NO_INTERVAL] = "no-interval", [CMP_SAME] = "same",
		[CMP_FASTER] = "faster", [CMP_SLOWER] = "slower",
	};

	return names[v];
}
