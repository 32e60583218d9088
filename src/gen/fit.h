/* fit.h - the distribution a random workload achieved, against the one it
 * asked for: shares of I/Os in DIST_SLICES equal slices of the region, the
 * intended share of each (from the exact CDF, dist_cdf), Pearson's
 * chi-square with its p-value and the Kolmogorov-Smirnov distance D.
 *
 * Slice i holds slots [ceil(i*N/100), ceil((i+1)*N/100)).  Adjacent slices
 * are merged until each expects at least 5 I/Os, as the chi-square
 * approximation needs; dof = merged bins - 1.  D is measured at slice edges.
 * With --scatter the fit is computed on the slot before the (bijective)
 * scatter, where the intended CDF is known: fit_space is "rank".
 */
#ifndef REBENCH_FIT_H
#define REBENCH_FIT_H

#include <stdbool.h>
#include <stdint.h>

#include "gen/dist.h"

struct fit {
	bool present;		/* a random workload with I/Os */
	bool rank_space;	/* fit on slots before scatter */
	uint64_t n;		/* I/Os counted */
	uint64_t slices[DIST_SLICES];	/* by offset */
	uint64_t fitted[DIST_SLICES];	/* in the fit's space */
	double intended[DIST_SLICES];	/* probability per slice, fit space */
	double chi2;
	unsigned dof;		/* 0: too concentrated for a chi-square */
	double p_value;
	double ks_d;
	char name[160];
};

/* Merge per-thread counts (slices, and ranks when scattered) and fit. */
void fit_compute(struct fit *f, const struct dist *d,
		 const uint64_t *const *slices, const uint64_t *const *ranks,
		 unsigned nthreads);

#endif
