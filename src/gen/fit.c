/* fit.c - see fit.h. */
#include "gen/fit.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

static uint64_t edge(unsigned i, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)i * n + DIST_SLICES - 1) /
			  DIST_SLICES);
}

static void chi_square(struct fit *f)
{
	double e[DIST_SLICES], o[DIST_SLICES], chi2 = 0;
	unsigned i, bins = 0;
	bool open_bin = false;

	/* merge adjacent slices until each bin expects at least 5 I/Os */
	for (i = 0; i < DIST_SLICES; i++) {
		if (!open_bin) {
			e[bins] = o[bins] = 0;
			open_bin = true;
		}
		e[bins] += f->intended[i] * (double)f->n;
		o[bins] += (double)f->fitted[i];
		if (e[bins] >= 5) {
			bins++;
			open_bin = false;
		}
	}
	if (open_bin) {		/* a short last bin joins the one before */
		if (bins) {
			e[bins - 1] += e[bins];
			o[bins - 1] += o[bins];
		} else {
			bins = 1;
		}
	}
	for (i = 0; i < bins; i++) {
		if (e[i] > 0)
			chi2 += (o[i] - e[i]) * (o[i] - e[i]) / e[i];
		else if (o[i] > 0)
			chi2 = INFINITY;	/* I/Os where none belong */
	}
	f->chi2 = chi2;
	f->dof = bins > 1 ? bins - 1 : 0;
	f->p_value = !f->dof ? NAN : isinf(chi2) ? 0 :
		     gsl_cdf_chisq_Q(chi2, (double)f->dof);
}

void fit_compute(struct fit *f, const struct dist *d,
		 const uint64_t *const *slices, const uint64_t *const *ranks,
		 unsigned nthreads)
{
	double cum_o = 0, prev = 0, c;
	unsigned i, t;

	memset(f, 0, sizeof(*f));
	f->rank_space = d->scatter;
	for (t = 0; t < nthreads; t++) {
		for (i = 0; i < DIST_SLICES; i++) {
			f->slices[i] += slices[t][i];
			f->fitted[i] += (d->scatter ? ranks[t] : slices[t])[i];
		}
	}
	for (i = 0; i < DIST_SLICES; i++)
		f->n += f->slices[i];
	f->present = f->n > 0;
	if (!f->present)
		return;
	for (i = 0; i < DIST_SLICES; i++) {
		c = dist_cdf(d, edge(i + 1, d->n));
		f->intended[i] = c - prev > 0 ? c - prev : 0;
		cum_o += (double)f->fitted[i] / (double)f->n;
		if (fabs(cum_o - c) > f->ks_d)
			f->ks_d = fabs(cum_o - c);
		prev = c;
	}
	chi_square(f);
}
