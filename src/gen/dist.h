/* dist.h - random offset distributions, each with the exact CDF of what it
 * generates, so every run can report how well it hit its target.
 *
 * A distribution draws a base slot b in [0, N) (N = slots of the region).
 * Then, except for normal (whose mean is the center), it is rotated:
 *   slot = (b + shift) mod N,  shift = ceil(center * N)
 * and with --scatter mapped through a fixed bijection of [0, N)
 *   slot' = (mul * slot + add) mod N,  gcd(mul, N) = 1
 * so hot slots are spread over the region instead of being contiguous.
 *
 *   uniform        b uniform on [0, N)
 *   normal         f ~ Normal(center, sigma% of the region), redrawn until
 *                  0 <= f < 1 (a truncated normal); b = floor(f * N)
 *   pow (exp)      the original Rebench's: f ~ Exponential with mean
 *                  sigma/100, f = -(sigma/100) ln(1 - U); b = floor(f * N),
 *                  and f >= 1 goes to the last slot as the original clamps
 *                  it (a share e^(-100/sigma));
 *                  F(x) = 1 - e^(-100 x / sigma) for x < 1
 *   powerlaw       f = U^a with a = 100/sigma - 1, so E[f] = sigma/100;
 *                  F(x) = x^(1/a); b = floor(f * N)
 *   zipf:THETA     P(b = k-1) = k^-THETA / H(N, THETA), k = 1..N, drawn by
 *                  rejection-inversion (Hormann and Derflinger, "Rejection-
 *                  inversion to generate variates from monotone discrete
 *                  distributions", ACM TOMACS 6(3), 1996)
 *   pareto:H       fio's pareto: f = U^p, p = ln H / ln(1 - H), so a share
 *                  1-H of the I/Os goes to the first H of the region
 *   zoned:A/R:...  A% of the I/Os uniformly over the next R% of the region
 *   const          every I/O at the center slot
 *
 * Cost per offset: one or two PRNG draws and a few floating-point
 * operations; normal and zipf may redraw (rarely).  No allocation.
 */
#ifndef REBENCH_DIST_H
#define REBENCH_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen/prng.h"
#include "core/spec.h"

#define DIST_MAX_ZONES 16
#define DIST_SLICES 100		/* slices of the region for the report */

struct dist {
	int kind;		/* enum dist_kind */
	uint64_t n;		/* slots */
	uint64_t shift;		/* rotation by the center */
	bool scatter;
	uint64_t mul, add;	/* scatter bijection */
	double a;		/* powerlaw, pareto: exponent of U */
	double mean;		/* pow: mean of f, sigma/100 */
	double mu, sd;		/* normal: as fractions of the region */
	/* zipf, rejection-inversion constants */
	double theta, hi_x1, hi_n, zs;
	/* zoned */
	unsigned nzones;
	double zone_cum[DIST_MAX_ZONES + 1];	/* cumulative I/O share */
	uint64_t zone_slot[DIST_MAX_ZONES + 1];	/* first slot of each zone */
};

/* Parse the parameter after "name:" and --sigma/--center/--scatter into d
 * for a region of slots blocks (0: check the parameters only, no region).
 * 0, or -EINVAL with a message in err that says what is valid. */
int dist_init(struct dist *d, const struct spec *s, uint64_t slots,
	      char *err, size_t len);

/* Next slot before scatter (*rank_slot, for the fit) and after (return). */
uint64_t dist_next(const struct dist *d, struct prng *r, uint64_t *rank_slot);

/* P(rank slot < k) for the distribution as generated (after rotation, before
 * scatter), k in [0, N]. */
double dist_cdf(const struct dist *d, uint64_t k);

/* Human name with parameters: "zipf:1.2", "normal (sigma 5%, center 50%)". */
void dist_describe(const struct dist *d, const struct spec *s, char *buf,
		   size_t len);

#endif
