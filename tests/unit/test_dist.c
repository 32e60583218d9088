/* test_dist.c - random offset distributions (src/gen/dist.c), the fit that every
 * random run reports (src/gen/fit.c) and how the offset generator counts them
 * (src/gen/pattern.h).
 *
 * The spec is the comment at the top of dist.h.  Every check uses fixed
 * seeds, so each statistical test gives the same answer on every run.
 *
 * Goodness of fit: M draws of each distribution, for several region sizes
 * N, are binned two ways and compared with dist_cdf:
 *   - the 100 slices of fit.h (slice i = slots [ceil(iN/100),
 *     ceil((i+1)N/100)), adjacent slices merged until each expects >= 5
 *     draws), Pearson chi-square, p-value from GSL (gsl_cdf_chisq_Q);
 *   - log-spaced bins {0}, {1}, [2,4), [4,8), ... which resolve the hot
 *     first slots of zipf and pow that a 1% slice lumps together.
 * A distribution passes at significance ALPHA = 0.001: p > 0.001 in both
 * binnings.  The empirical CDF at every bin edge must also be within
 * KS_C / sqrt(M) of dist_cdf (KS_C = 4: a correct generator exceeds it with
 * probability below 2 exp(-2 * 16) ~ 2.5e-14).
 *
 * The CDFs themselves are checked independently: zipf's normalisation
 * against harmonic numbers summed term by term, pow's mean, pareto's and
 * zoned's shares, the truncated normal's moments (from GSL's Gaussian),
 * and closed-form CDF values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>

#include "gen/dist.h"
#include "gen/fit.h"
#include "gen/pattern.h"
#include "gen/prng.h"
#include "core/spec.h"

#define ALPHA 0.001		/* significance of every goodness-of-fit test */
#define KS_C 4.0		/* empirical CDF within KS_C / sqrt(M) */
#define M_FIT 200000		/* draws per (distribution, N) fit */
#define DEF (-1.0)		/* --center not given */
#define LOG_BINS 65

static const uint64_t sizes[] = { 1000, 65536, 1ULL << 30, 1000003 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

struct dcase {
	const char *label;
	int kind;
	const char *arg;	/* after "name:" */
	double sigma;		/* 0: default (5) */
	double center;		/* DEF: default */
	bool scatter;
};

/* ------------------------------------------------------------ helpers */

static void spec_for(struct spec *s, const struct dcase *c)
{
	spec_defaults(s);
	s->dist = c->kind;
	s->dist_arg = c->arg ? strdup(c->arg) : NULL;
	if (c->arg)
		assert_non_null(s->dist_arg);
	if (c->sigma > 0)
		s->sigma = c->sigma;
	s->center = c->center;
	s->scatter = c->scatter;
}

static void init_ok(struct dist *d, const struct dcase *c, uint64_t n)
{
	struct spec s;
	char err[256] = "";
	int ret;

	spec_for(&s, c);
	ret = dist_init(d, &s, n, err, sizeof(err));
	spec_free(&s);
	if (ret)
		fail_msg("%s on N=%llu: dist_init %d: %s", c->label,
			 (unsigned long long)n, ret, err);
}

static int init_err(const struct dcase *c, uint64_t n, char *err, size_t len)
{
	struct spec s;
	struct dist d;
	int ret;

	err[0] = '\0';
	spec_for(&s, c);
	ret = dist_init(&d, &s, n, err, len);
	spec_free(&s);
	return ret;
}

static inline uint64_t slice_div(uint64_t slot, uint64_t n)
{
	return (uint64_t)((unsigned __int128)slot * DIST_SLICES / n);
}

/* First slot of slice i: ceil(i * n / 100), as fit.h defines it. */
static uint64_t slice_edge(unsigned i, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)i * n + DIST_SLICES - 1) /
			  DIST_SLICES);
}

static inline unsigned log_bin(uint64_t slot)
{
	return slot ? 64 - (unsigned)__builtin_clzll(slot) : 0;
}

/* Exclusive upper slot of log bin b, capped at n. */
static uint64_t log_hi(unsigned b, uint64_t n)
{
	uint64_t hi = b >= 64 ? UINT64_MAX : 1ULL << b;

	return hi < n ? hi : n;
}

struct chi {
	double chi2;
	unsigned dof;
	double p;
};

/* Pearson chi-square of observed counts against bin probabilities, adjacent
 * bins merged until each expects at least 5 (the rule fit.h states: a short
 * last bin joins the one before). */
static struct chi chi_merged(const double *prob, const uint64_t *obs,
			     unsigned nb, uint64_t m)
{
	double e[LOG_BINS + DIST_SLICES], o[LOG_BINS + DIST_SLICES];
	struct chi c = { 0, 0, NAN };
	unsigned i, bins = 0;
	bool open = false;

	for (i = 0; i < nb; i++) {
		if (!open) {
			e[bins] = o[bins] = 0;
			open = true;
		}
		e[bins] += prob[i] * (double)m;
		o[bins] += (double)obs[i];
		if (e[bins] >= 5) {
			bins++;
			open = false;
		}
	}
	if (open) {
		if (bins) {
			e[bins - 1] += e[bins];
			o[bins - 1] += o[bins];
		} else {
			bins = 1;
		}
	}
	for (i = 0; i < bins; i++) {
		if (e[i] > 0)
			c.chi2 += (o[i] - e[i]) * (o[i] - e[i]) / e[i];
		else if (o[i] > 0)
			c.chi2 = INFINITY;
	}
	c.dof = bins > 1 ? bins - 1 : 0;
	if (c.dof)
		c.p = isinf(c.chi2) ? 0 : gsl_cdf_chisq_Q(c.chi2, c.dof);
	return c;
}

/* One fixed seed per (case, N).  Each of the ~190 chi-square tests rejects a
 * correct generator with probability ALPHA, so about one seed scheme in six
 * has a chance failure somewhere: a failure must be re-run over many seeds
 * before it is called a bug (a real bug gives p-values piled up near 0, a
 * chance one a uniform spread).  The first scheme tried (0x5eed0000 +
 * 100 * case + size) failed zoned:80/20:20/80 --center 25 on N=1000 in the
 * log bins (p 0.00033); over 1000 other seeds that case's p-values were
 * uniform (92 92 88 81 113 107 122 94 103 108 per decile), so it was chance
 * and the scheme below replaced it. */
static uint64_t case_seed(unsigned ci, unsigned ni)
{
	return 1000 * (uint64_t)ci + ni + 1;
}

/* Draw m slots of c on n slots and check support and fit; see the top. */
static void check_fit(const struct dcase *c, uint64_t n, uint64_t seed,
		      uint64_t m)
{
	static uint64_t slices[DIST_SLICES], ranks[DIST_SLICES], logc[LOG_BINS];
	double prob[DIST_SLICES], lprob[LOG_BINS], cdf, prev = 0, cum = 0;
	double d_slices = 0, d_log = 0, bound = KS_C / sqrt((double)m);
	const uint64_t *sl[1] = { slices }, *rk[1] = { ranks };
	struct chi cs, cl = { 0, 0, NAN };
	struct pattern p;
	struct dist d;
	struct fit f;
	struct prng r;
	uint64_t i, slot, rank, const_slot = 0;
	unsigned k, nlog;

	init_ok(&d, c, n);
	pattern_init(&p, 0, n, 1, 1, true, false, 0, 1);
	assert_true(p.slots == n);
	memset(slices, 0, sizeof(slices));
	memset(ranks, 0, sizeof(ranks));
	memset(logc, 0, sizeof(logc));
	prng_seed(&r, seed, 0);
	for (i = 0; i < m; i++) {
		slot = dist_next(&d, &r, &rank);
		if (slot >= n || rank >= n)
			fail_msg("%s N=%llu: draw %llu gave slot %llu rank %llu, outside [0, N)",
				 c->label, (unsigned long long)n,
				 (unsigned long long)i, (unsigned long long)slot,
				 (unsigned long long)rank);
		if (!c->scatter && slot != rank)
			fail_msg("%s N=%llu: slot %llu != rank %llu without --scatter",
				 c->label, (unsigned long long)n,
				 (unsigned long long)slot, (unsigned long long)rank);
		k = (unsigned)slice_div(rank, n);
		if (slice_of(&p, rank) != k)
			fail_msg("slice_of(%llu) = %u, floor(slot * 100 / %llu) = %u",
				 (unsigned long long)rank, slice_of(&p, rank),
				 (unsigned long long)n, k);
		ranks[k]++;
		slices[slice_div(slot, n)]++;
		logc[log_bin(rank)]++;
		if (!i)
			const_slot = slot;
		else if (c->kind == DIST_CONST && slot != const_slot)
			fail_msg("%s: const drew %llu then %llu", c->label,
				 (unsigned long long)const_slot,
				 (unsigned long long)slot);
	}

	/* 100 slices, in rank space (= offset space without scatter) */
	for (k = 0; k < DIST_SLICES; k++) {
		cdf = dist_cdf(&d, slice_edge(k + 1, n));
		if (cdf < prev - 1e-12 || cdf > 1 + 1e-12)
			fail_msg("%s N=%llu: dist_cdf not a CDF at slice %u: %.17g after %.17g",
				 c->label, (unsigned long long)n, k, cdf, prev);
		prob[k] = cdf - prev > 0 ? cdf - prev : 0;
		cum += (double)ranks[k] / (double)m;
		if (fabs(cum - cdf) > d_slices)
			d_slices = fabs(cum - cdf);
		prev = cdf;
	}
	assert_true(fabs(prev - 1) < 1e-12);
	cs = chi_merged(prob, ranks, DIST_SLICES, m);

	/* log-spaced bins */
	nlog = log_bin(n - 1) + 1;
	prev = 0;
	cum = 0;
	for (k = 0; k < nlog; k++) {
		cdf = dist_cdf(&d, log_hi(k, n));
		lprob[k] = cdf - prev > 0 ? cdf - prev : 0;
		cum += (double)logc[k] / (double)m;
		if (fabs(cum - cdf) > d_log)
			d_log = fabs(cum - cdf);
		prev = cdf;
	}
	cl = chi_merged(lprob, logc, nlog, m);

	/* fit.c on the same counts must agree with this independent fit */
	fit_compute(&f, &d, sl, rk, 1);
	assert_true(f.present);
	assert_true(f.n == m);
	assert_int_equal(f.rank_space, c->scatter);
	assert_memory_equal(f.slices, slices, sizeof(slices));
	assert_memory_equal(f.fitted, ranks, sizeof(ranks));
	for (k = 0; k < DIST_SLICES; k++)
		if (fabs(f.intended[k] - prob[k]) > 1e-12)
			fail_msg("%s: fit intended[%u] %.17g, expected %.17g",
				 c->label, k, f.intended[k], prob[k]);
	assert_int_equal(f.dof, cs.dof);
	if (fabs(f.chi2 - cs.chi2) > 1e-9 * (1 + cs.chi2))
		fail_msg("%s: fit chi2 %.12g, independent %.12g", c->label,
			 f.chi2, cs.chi2);
	if (fabs(f.ks_d - d_slices) > 1e-9)
		fail_msg("%s: fit ks_d %.12g, independent %.12g", c->label,
			 f.ks_d, d_slices);

	printf("  %-34s N=%-10llu slices: chi2 %7.2f dof %2u p %.4f D %.5f | log bins: dof %2u p %.4f D %.5f\n",
	       c->label, (unsigned long long)n, cs.chi2, cs.dof, cs.p,
	       d_slices, cl.dof, cl.p, d_log);
	if (cs.dof && !(cs.p > ALPHA))
		fail_msg("%s N=%llu seed %llu: chi-square over 100 slices %.3f on %u dof, p %.3g <= %g",
			 c->label, (unsigned long long)n,
			 (unsigned long long)seed, cs.chi2, cs.dof, cs.p, ALPHA);
	if (cl.dof && !(cl.p > ALPHA))
		fail_msg("%s N=%llu seed %llu: chi-square over log bins %.3f on %u dof, p %.3g <= %g",
			 c->label, (unsigned long long)n,
			 (unsigned long long)seed, cl.chi2, cl.dof, cl.p, ALPHA);
	if (!(d_slices < bound) || !(d_log < bound))
		fail_msg("%s N=%llu: KS D %.5f (slices) %.5f (log bins) >= %.5f",
			 c->label, (unsigned long long)n, d_slices, d_log, bound);
	if (c->kind == DIST_CONST) {
		assert_int_equal(f.dof, 0);
		assert_true(isnan(f.p_value));
		assert_true(f.ks_d < 1e-12);
		assert_true(const_slot == d.shift);	/* const is slot 0 rotated by --center */
	}
}

static void fit_cases(const struct dcase *cases, size_t ncases, unsigned base)
{
	size_t ci;
	unsigned ni;

	for (ci = 0; ci < ncases; ci++)
		for (ni = 0; ni < NSIZES; ni++)
			check_fit(&cases[ci], sizes[ni],
				  case_seed(base + (unsigned)ci, ni), M_FIT);
}

/* ------------------------------------------------- goodness of fit */

static void test_fit_uniform(void **state)
{
	static const struct dcase c[] = {
		{ "uniform", DIST_UNIFORM, NULL, 0, DEF, false },
		{ "uniform --center 37", DIST_UNIFORM, NULL, 0, 37, false },
	};

	(void)state;
	fit_cases(c, sizeof(c) / sizeof(c[0]), 0);
}

static void test_fit_normal(void **state)
{
	static const struct dcase c[] = {
		{ "normal -i 5", DIST_NORMAL, NULL, 5, DEF, false },
		{ "normal -i 20", DIST_NORMAL, NULL, 20, DEF, false },
		{ "normal -i 20 --center 30", DIST_NORMAL, NULL, 20, 30, false },
		{ "normal -i 100 --center 100", DIST_NORMAL, NULL, 100, 100, false },
	};

	(void)state;
	fit_cases(c, sizeof(c) / sizeof(c[0]), 10);
}

/* the original Rebench's pow: an exponential, its tail past the region at
 * the last block (-i 50: e^-2 = 13.5% there) */
static void test_fit_pow(void **state)
{
	static const struct dcase c[] = {
		{ "pow -i 5", DIST_POW, NULL, 5, DEF, false },
		{ "pow -i 20", DIST_POW, NULL, 20, DEF, false },
		{ "pow -i 50", DIST_POW, NULL, 50, DEF, false },
		{ "pow -i 5 --center 50", DIST_POW, NULL, 5, 50, false },
		{ "pow -i 5 --center 50 --scatter", DIST_POW, NULL, 5, 50, true },
	};

	(void)state;
	fit_cases(c, sizeof(c) / sizeof(c[0]), 90);
}

static void test_fit_powerlaw(void **state)
{
	static const struct dcase c[] = {
		{ "powerlaw -i 5", DIST_POWERLAW, NULL, 5, DEF, false },
		{ "powerlaw -i 20", DIST_POWERLAW, NULL, 20, DEF, false },
		{ "powerlaw -i 80", DIST_POWERLAW, NULL, 80, DEF, false },
	};

	(void)state;
	fit_cases(c, sizeof(c) / sizeof(c[0]), 20);
}

static void test_fit_zipf(void **state)
{
	static const struct dcase c[] = {
		{ "zipf (default 1.2)", DIST_ZIPF, NULL, 0, DEF, false },
		{ "zipf:0.8", DIST_ZIPF, "0.8", 0, DEF, false },
		{ "zipf:1.0", DIST_ZIPF, "1.0", 0, DEF, false },
		{ "zipf:1.2", DIST_ZIPF, "1.2", 0, DEF, false },
		{ "zipf:2.0", DIST_ZIPF, "2.0", 0, DEF, false },
	};

	(void)state;
	fit_cases(c, sizeof(c) / sizeof(c[0]), 30);
}

static void test_fit_pareto(void **state)
{
	static const struct dcase c[] = {
		{ "pareto (default 0.2)", DIST_PARETO, NULL, 0, DEF, false },
		{ "pareto:0.2", DIST_PARETO, "0.2", 0, DEF, false },
		{ "pareto:0.1", DIST_PARETO, "0.1", 0, DEF, false },
	};

	(void)state;
	fit_cases(c, sizeof(c) / sizeof(c[0]), 40);
}

static void test_fit_zoned(void **state)
{
	static const struct dcase c[] = {
		{ "zoned:80/20:20/80", DIST_ZONED, "80/20:20/80", 0, DEF, false },
		{ "zoned:60/10:30/20:10/70", DIST_ZONED, "60/10:30/20:10/70", 0, DEF, false },
		{ "zoned:0/50:100/50", DIST_ZONED, "0/50:100/50", 0, DEF, false },
	};

	(void)state;
	fit_cases(c, sizeof(c) / sizeof(c[0]), 50);
}

static void test_fit_const(void **state)
{
	static const struct dcase c[] = {
		{ "const", DIST_CONST, NULL, 0, DEF, false },
		{ "const --center 50", DIST_CONST, NULL, 0, 50, false },
	};

	(void)state;
	fit_cases(c, sizeof(c) / sizeof(c[0]), 60);
}

static void test_fit_rotated(void **state)
{
	static const struct dcase c[] = {
		{ "powerlaw -i 5 --center 50", DIST_POWERLAW, NULL, 5, 50, false },
		{ "zipf:1.2 --center 50", DIST_ZIPF, "1.2", 0, 50, false },
		{ "zipf:0.8 --center 99", DIST_ZIPF, "0.8", 0, 99, false },
		{ "pareto:0.2 --center 90", DIST_PARETO, "0.2", 0, 90, false },
		{ "zoned:80/20:20/80 --center 25", DIST_ZONED, "80/20:20/80", 0, 25, false },
	};

	(void)state;
	fit_cases(c, sizeof(c) / sizeof(c[0]), 70);
}

static void test_fit_scattered(void **state)
{
	static const struct dcase c[] = {
		{ "uniform --scatter", DIST_UNIFORM, NULL, 0, DEF, true },
		{ "normal -i 5 --scatter", DIST_NORMAL, NULL, 5, DEF, true },
		{ "powerlaw -i 5 --center 50 --scatter", DIST_POWERLAW, NULL, 5, 50, true },
		{ "zipf:1.2 --scatter", DIST_ZIPF, "1.2", 0, DEF, true },
		{ "zipf:0.8 --scatter", DIST_ZIPF, "0.8", 0, DEF, true },
		{ "zoned:60/10:30/20:10/70 --scatter", DIST_ZONED, "60/10:30/20:10/70", 0, DEF, true },
	};

	(void)state;
	fit_cases(c, sizeof(c) / sizeof(c[0]), 80);
}

/* ------------------------------------------- the CDFs, independently */

/* sum_{i=1..k} i^-s, smallest terms first, in long double. */
static long double direct_harmonic(uint64_t k, double s)
{
	long double sum = 0;
	uint64_t i;

	for (i = k; i >= 1; i--)
		sum += powl((long double)i, -(long double)s);
	return sum;
}

static void test_zipf_normalisation(void **state)
{
	static const char *thetas[] = { "0.8", "1.0", "1.2", "2.0", "0.3", "5" };
	static const uint64_t ns[] = { 1000, 100000 };
	struct dist d;
	unsigned t, j;

	(void)state;
	for (t = 0; t < sizeof(thetas) / sizeof(thetas[0]); t++) {
		struct dcase c = { "zipf", DIST_ZIPF, thetas[t], 0, DEF, false };
		double theta = strtod(thetas[t], NULL);

		for (j = 0; j < 2; j++) {
			long double h = direct_harmonic(ns[j], theta);
			double want = (double)(1.0L / h), got, rel;
			double want2, got2, rel2;

			init_ok(&d, &c, ns[j]);
			/* P(b = 0) = 1 / H(N, theta) */
			got = dist_cdf(&d, 1);
			rel = fabs(got - want) / want;
			/* P(b < N/2) = H(N/2) / H(N) */
			want2 = (double)(direct_harmonic(ns[j] / 2, theta) / h);
			got2 = dist_cdf(&d, ns[j] / 2);
			rel2 = fabs(got2 - want2) / want2;
			printf("  zipf:%-4s N=%-6llu P(slot 0) %.15g (direct %.15g, rel %.2g); P(< N/2) rel %.2g\n",
			       thetas[t], (unsigned long long)ns[j], got, want,
			       rel, rel2);
			if (!(rel < 1e-9) || !(rel2 < 1e-9))
				fail_msg("zipf:%s N=%llu: dist_cdf(1) %.17g vs 1/H %.17g, dist_cdf(N/2) %.17g vs %.17g",
					 thetas[t], (unsigned long long)ns[j],
					 got, want, got2, want2);
			/* point probabilities of the first ranks: k^-theta / H */
			for (uint64_t k = 1; k <= 5; k++) {
				double pk = dist_cdf(&d, k) - dist_cdf(&d, k - 1);
				double wk = (double)(powl((long double)k, -(long double)theta) / h);

				if (fabs(pk - wk) > 1e-9 * wk)
					fail_msg("zipf:%s N=%llu: P(rank %llu) %.17g, expected %.17g",
						 thetas[t], (unsigned long long)ns[j],
						 (unsigned long long)k, pk, wk);
			}
		}
	}
}

/* sum_{i=1..k} i^-s, smallest terms first, Kahan-compensated in double;
 * 1/i and 1/i^2 exactly rounded for s = 1 and 2 (powl over 10^7 terms is
 * too slow under the sanitizers). */
static double kahan_harmonic(uint64_t k, double s)
{
	double sum = 0, comp = 0, term, y, t;
	uint64_t i;

	for (i = k; i >= 1; i--) {
		term = s == 1 ? 1.0 / (double)i :
		       s == 2 ? 1.0 / ((double)i * (double)i) :
		       pow((double)i, -s);
		y = term - comp;
		t = sum + y;
		comp = (t - sum) - y;
		sum = t;
	}
	return sum;
}

/* Over 2^30 blocks the harmonic number comes from Euler-Maclaurin:
 * dist_cdf(k) / dist_cdf(1) = H(k) (the H(N) cancels).  Check it against a
 * direct sum at k = 10^7. */
static void test_zipf_euler_maclaurin(void **state)
{
	static const char *thetas[] = { "0.8", "1.0", "1.2", "2.0" };
	const uint64_t k = 10000000;
	struct dist d;
	unsigned t;

	(void)state;
	for (t = 0; t < sizeof(thetas) / sizeof(thetas[0]); t++) {
		struct dcase c = { "zipf", DIST_ZIPF, thetas[t], 0, DEF, false };
		double theta = strtod(thetas[t], NULL), em, direct, rel;

		init_ok(&d, &c, 1ULL << 30);
		em = dist_cdf(&d, k) / dist_cdf(&d, 1);
		direct = kahan_harmonic(k, theta);
		rel = fabs(em - direct) / direct;
		printf("  zipf:%s H(10^7) Euler-Maclaurin %.15g direct %.15g rel %.2g\n",
		       thetas[t], em, direct, rel);
		if (!(rel < 1e-9))
			fail_msg("zipf:%s: H(10^7) %.17g, direct sum %.17g (rel %.3g)",
				 thetas[t], em, direct, rel);
	}
}

/* sqrt(M) scaled tolerance helper: |x - want| < 4 standard errors. */
static void near(const char *what, double x, double want, double se)
{
	printf("  %-44s %.6f expected %.6f (4 SE = %.6f)\n", what, x, want,
	       4 * se);
	if (!(fabs(x - want) < 4 * se))
		fail_msg("%s: %.6f, expected %.6f +- %.6f", what, x, want,
			 4 * se);
}

/* powerlaw: f = U^a, a = 100/sigma - 1, so E[f] = sigma/100; the sample mean of
 * slot/N must be within 0.5% of sigma/100.  M is chosen so that 0.5% is at
 * least 4 standard errors (Var f = 1/(2a+1) - 1/(a+1)^2). */
static void test_powerlaw_mean(void **state)
{
	static const double sigmas[] = { 5, 20, 50, 80 };
	const uint64_t n = 1ULL << 30;
	struct dist d;
	struct prng r;
	unsigned j;

	(void)state;
	for (j = 0; j < sizeof(sigmas) / sizeof(sigmas[0]); j++) {
		struct dcase c = { "powerlaw", DIST_POWERLAW, NULL, sigmas[j], DEF, false };
		double a = 100 / sigmas[j] - 1, mu = sigmas[j] / 100;
		double sd = sqrt(1 / (2 * a + 1) - mu * mu), sum = 0;
		uint64_t m = (uint64_t)ceil(pow(4 * sd / (0.005 * mu), 2)), i, rank;
		char what[80];

		if (m < 200000)
			m = 200000;
		init_ok(&d, &c, n);
		prng_seed(&r, 1000 + j, 0);
		for (i = 0; i < m; i++)
			sum += (double)dist_next(&d, &r, &rank) / (double)n;
		snprintf(what, sizeof(what), "powerlaw -i %g: mean slot/N (%llu draws)",
			 sigmas[j], (unsigned long long)m);
		near(what, sum / (double)m, mu, sd / sqrt((double)m));
		if (!(fabs(sum / (double)m - mu) < 0.005 * mu))
			fail_msg("powerlaw -i %g: mean %.6f not within 0.5%% of %.6f",
				 sigmas[j], sum / (double)m, mu);
	}
}

/* The share of the I/Os in the first 1% of the region, counted over M
 * draws, against the closed form (within 5 binomial standard deviations,
 * sqrt(p (1-p) / M)): pow -i 5 is the original Rebench's exponential,
 * 1 - e^(-1/5) = 18.1%; powerlaw -i 5 is U^19, 0.01^(1/19) = 78.5%.  And
 * pow's tail past the region at its last block: e^(-100/sigma) of the
 * I/Os, as the original clamps them. */
static double exp_cdf(double x, double sigma)
{
	return x >= 1 ? 1 : -expm1(-x * 100 / sigma);
}

static void share_near(const char *what, uint64_t in, uint64_t m, double p)
{
	double got = (double)in / (double)m, sd = sqrt(p * (1 - p) / (double)m);

	printf("  %-44s %.5f expected %.5f (5 sd = %.5f)\n", what, got, p,
	       5 * sd);
	if (!(fabs(got - p) <= 5 * sd))
		fail_msg("%s: %.5f, expected %.5f +- %.5f", what, got, p, 5 * sd);
}

static void test_first_percent_share(void **state)
{
	static const uint64_t ns[] = { 1ULL << 30, 1000003, 1000 };
	const uint64_t m = 1000000;
	struct dist d;
	struct prng r;
	unsigned t;

	(void)state;
	for (t = 0; t < 3; t++) {
		struct dcase pw = { "pow", DIST_POW, NULL, 5, DEF, false };
		struct dcase pl = { "powerlaw", DIST_POWERLAW, NULL, 5, DEF, false };
		struct dcase wide = { "pow", DIST_POW, NULL, 50, DEF, false };
		uint64_t n = ns[t], k = n / 100, in, last, i, rank;
		double x = (double)k / (double)n;
		char what[96];

		init_ok(&d, &pw, n);
		prng_seed(&r, 3000 + t, 0);
		for (in = i = 0; i < m; i++)
			in += dist_next(&d, &r, &rank) < k;
		snprintf(what, sizeof(what), "pow -i 5 N=%llu: first 1%%",
			 (unsigned long long)n);
		share_near(what, in, m, exp_cdf(x, 5));

		init_ok(&d, &pl, n);
		prng_seed(&r, 3100 + t, 0);
		for (in = i = 0; i < m; i++)
			in += dist_next(&d, &r, &rank) < k;
		snprintf(what, sizeof(what), "powerlaw -i 5 N=%llu: first 1%%",
			 (unsigned long long)n);
		share_near(what, in, m, pow(x, 1.0 / 19));

		init_ok(&d, &wide, n);
		prng_seed(&r, 3200 + t, 0);
		for (last = i = 0; i < m; i++)
			last += dist_next(&d, &r, &rank) == n - 1;
		snprintf(what, sizeof(what), "pow -i 50 N=%llu: last block",
			 (unsigned long long)n);
		share_near(what, last, m,
			   1 - exp_cdf((double)(n - 1) / (double)n, 50));
	}
	/* the figures the original's strace gave, by the closed form */
	assert_true(fabs(exp_cdf(0.01, 5) - 0.181) < 0.0005);
	assert_true(fabs(pow(0.01, 1.0 / 19) - 0.785) < 0.0005);
}

/* pareto:H: a share 1-H of the I/Os in the first H of the region. */
static void test_pareto_share(void **state)
{
	static const char *hs[] = { "0.2", "0.1", "0.5" };
	static const uint64_t ns[] = { 1000, 1ULL << 30, 1000003 };
	struct dist d;
	struct prng r;
	unsigned j, t;

	(void)state;
	for (j = 0; j < 3; j++) {
		struct dcase c = { "pareto", DIST_PARETO, hs[j], 0, DEF, false };
		double h = strtod(hs[j], NULL);

		for (t = 0; t < 3; t++) {
			uint64_t n = ns[t], lim = (uint64_t)ceil(h * (double)n);
			uint64_t in = 0, i, rank, m = M_FIT;
			char what[80];

			init_ok(&d, &c, n);
			prng_seed(&r, 2000 + 10 * j + t, 0);
			for (i = 0; i < m; i++)
				in += dist_next(&d, &r, &rank) < lim;
			snprintf(what, sizeof(what), "pareto:%s N=%llu: share in first %g%%",
				 hs[j], (unsigned long long)n, 100 * h);
			printf("  %-44s %.5f expected %.5f (+- 0.005)\n", what,
			       (double)in / (double)m, 1 - h);
			if (!(fabs((double)in / (double)m - (1 - h)) < 0.005))
				fail_msg("%s: %.5f, expected %.5f +- 0.005", what,
					 (double)in / (double)m, 1 - h);
		}
	}
}

/* Moments of Normal(mu, s) truncated to [0, 1). */
static void trunc_normal(double mu, double s, double *mean, double *sd)
{
	double a = (0 - mu) / s, b = (1 - mu) / s;
	double pa = gsl_ran_ugaussian_pdf(a), pb = gsl_ran_ugaussian_pdf(b);
	double z = gsl_cdf_ugaussian_P(b) - gsl_cdf_ugaussian_P(a);
	double t = (pa - pb) / z;

	*mean = mu + s * t;
	*sd = s * sqrt(1 + (a * pa - b * pb) / z - t * t);
}

static void test_normal_moments(void **state)
{
	static const struct { double sigma, center; } p[] = {
		{ 5, DEF }, { 5, 30 }, { 1, 80 }, { 20, 30 }, { 20, 50 }, { 50, 0 },
	};
	const uint64_t n = 1ULL << 30;
	struct dist d;
	struct prng r;
	unsigned j;

	(void)state;
	for (j = 0; j < sizeof(p) / sizeof(p[0]); j++) {
		struct dcase c = { "normal", DIST_NORMAL, NULL, p[j].sigma,
				   p[j].center, false };
		double mu = (p[j].center < 0 ? 50 : p[j].center) / 100;
		double s = p[j].sigma / 100, tm, ts, x, sum = 0, sq = 0, mean, sd;
		uint64_t i, rank, m = M_FIT;
		char what[96];

		trunc_normal(mu, s, &tm, &ts);
		if (p[j].sigma == 5)	/* >= 6 sd inside: truncation is nil */
			assert_true(fabs(tm - mu) < 1e-8 && fabs(ts - s) < 1e-8);
		init_ok(&d, &c, n);
		prng_seed(&r, 3000 + j, 0);
		for (i = 0; i < m; i++) {
			x = ((double)dist_next(&d, &r, &rank) + 0.5) / (double)n;
			sum += x;
			sq += x * x;
		}
		mean = sum / (double)m;
		sd = sqrt(sq / (double)m - mean * mean);
		snprintf(what, sizeof(what), "normal -i %g --center %g: mean",
			 p[j].sigma, 100 * mu);
		near(what, mean, tm, ts / sqrt((double)m));
		snprintf(what, sizeof(what), "normal -i %g --center %g: sd",
			 p[j].sigma, 100 * mu);
		/* SE of a sample sd ~ sd * sqrt((kurtosis - 1) / 4M); the
		 * truncated normal's kurtosis is at most 3 here */
		near(what, sd, ts, ts / sqrt(2.0 * (double)m));
	}
}

/* Zone j takes its access share, spread uniformly over its slots. */
static void test_zoned_shares(void **state)
{
	static const struct {
		const char *arg;
		unsigned nz;
		double acc[4], reg[4];
	} z[] = {
		{ "80/20:20/80", 2, { 80, 20 }, { 20, 80 } },
		{ "60/10:30/20:10/70", 3, { 60, 30, 10 }, { 10, 20, 70 } },
		{ "25/25:25/25:25/25:25/25", 4, { 25, 25, 25, 25 }, { 25, 25, 25, 25 } },
		{ "0/50:100/50", 2, { 0, 100 }, { 50, 50 } },
	};
	static const uint64_t ns[] = { 1000, 1000003, 1ULL << 30 };
	struct dist d;
	struct prng r;
	unsigned j, t, q;

	(void)state;
	for (j = 0; j < sizeof(z) / sizeof(z[0]); j++) {
		struct dcase c = { "zoned", DIST_ZONED, z[j].arg, 0, DEF, false };

		for (t = 0; t < 3; t++) {
			uint64_t n = ns[t], lo[5], cnt[4] = { 0 }, i, s, rank;
			double cumr = 0;

			for (q = 0; q <= z[j].nz; q++) {
				lo[q] = (uint64_t)llround(cumr / 100 * (double)n);
				if (q < z[j].nz)
					cumr += z[j].reg[q];
			}
			lo[z[j].nz] = n;
			init_ok(&d, &c, n);
			prng_seed(&r, 4000 + 10 * j + t, 0);
			for (i = 0; i < M_FIT; i++) {
				s = dist_next(&d, &r, &rank);
				for (q = 0; q + 1 < z[j].nz && s >= lo[q + 1]; q++)
					;
				cnt[q]++;
			}
			for (q = 0; q < z[j].nz; q++) {
				double share = (double)cnt[q] / M_FIT;

				printf("  zoned:%s N=%llu zone %u: %.5f of the I/Os, expected %.2f\n",
				       z[j].arg, (unsigned long long)n, q + 1,
				       share, z[j].acc[q] / 100);
				if (!(fabs(share - z[j].acc[q] / 100) < 0.005))
					fail_msg("zoned:%s N=%llu: zone %u got %.5f, expected %.2f +- 0.005",
						 z[j].arg, (unsigned long long)n,
						 q + 1, share, z[j].acc[q] / 100);
				/* exact CDF at the zone edges */
				assert_true(fabs(dist_cdf(&d, lo[q + 1]) -
					(q + 1 == z[j].nz ? 1.0 :
					 dist_cdf(&d, lo[q]) + z[j].acc[q] / 100)) < 1e-12);
			}
		}
	}
}

/* Closed-form values of dist_cdf, and that it is a CDF on every slot edge
 * tested (0 at 0, 1 at N, non-decreasing). */
static void test_cdf_closed_forms(void **state)
{
	const uint64_t big = 1ULL << 30;
	struct dist d;
	double lo, hi, want;
	uint64_t k;

	(void)state;
	{
		struct dcase c = { "uniform", DIST_UNIFORM, NULL, 0, DEF, false };
		struct dcase c37 = { "uniform", DIST_UNIFORM, NULL, 0, 37, false };

		init_ok(&d, &c, 1000003);
		for (k = 0; k <= 1000003; k += 99991)
			assert_true(fabs(dist_cdf(&d, k) - (double)k / 1000003) < 1e-12);
		init_ok(&d, &c37, 1000003);
		for (k = 0; k <= 1000003; k += 99991)
			assert_true(fabs(dist_cdf(&d, k) - (double)k / 1000003) < 1e-12);
	}
	{
		/* powerlaw -i 20: a = 4, F(x) = x^(1/4) */
		struct dcase c = { "powerlaw", DIST_POWERLAW, NULL, 20, DEF, false };

		init_ok(&d, &c, big);
		assert_true(fabs(dist_cdf(&d, big / 16) - 0.5) < 1e-12);
		assert_true(fabs(dist_cdf(&d, big / 256) - 0.25) < 1e-12);
		assert_true(fabs(dist_cdf(&d, big / 65536) - 0.0625) < 1e-12);
	}
	{
		/* pareto:0.2: F(0.2) = 0.8; pareto:0.1: F(0.1) = 0.9 */
		struct dcase c = { "pareto", DIST_PARETO, "0.2", 0, DEF, false };
		struct dcase c1 = { "pareto", DIST_PARETO, "0.1", 0, DEF, false };

		init_ok(&d, &c, 1000);
		assert_true(fabs(dist_cdf(&d, 200) - 0.8) < 1e-12);
		init_ok(&d, &c1, 1000);
		assert_true(fabs(dist_cdf(&d, 100) - 0.9) < 1e-12);
	}
	{
		/* normal -i 10 (center 50): symmetric about the middle; at one
		 * sd below it is the truncated Phi(-1) */
		struct dcase c = { "normal", DIST_NORMAL, NULL, 10, DEF, false };

		init_ok(&d, &c, 1000);
		assert_true(fabs(dist_cdf(&d, 500) - 0.5) < 1e-12);
		lo = gsl_cdf_ugaussian_P(-5);
		hi = gsl_cdf_ugaussian_P(5);
		want = (gsl_cdf_ugaussian_P(-1) - lo) / (hi - lo);
		assert_true(fabs(dist_cdf(&d, 400) - want) < 1e-12);
	}
	{
		struct dcase c = { "zoned", DIST_ZONED, "60/10:30/20:10/70", 0, DEF, false };

		init_ok(&d, &c, 1000);
		assert_true(fabs(dist_cdf(&d, 100) - 0.6) < 1e-12);
		assert_true(fabs(dist_cdf(&d, 50) - 0.3) < 1e-12);
		assert_true(fabs(dist_cdf(&d, 300) - 0.9) < 1e-12);
		assert_true(fabs(dist_cdf(&d, 650) - 0.95) < 1e-12);
	}
	{
		/* const --center 50 on 1000 slots: all at slot 500 */
		struct dcase c = { "const", DIST_CONST, NULL, 0, 50, false };

		init_ok(&d, &c, 1000);
		assert_true(dist_cdf(&d, 500) == 0);
		assert_true(dist_cdf(&d, 501) == 1);
	}
	{
		/* rotation: powerlaw -i 20 --center 50 on 2^30 slots, the mass of
		 * base slots [0, N/16) lands in [N/2, N/2 + N/16) */
		struct dcase c = { "powerlaw", DIST_POWERLAW, NULL, 20, 50, false };

		init_ok(&d, &c, big);
		assert_true(fabs(dist_cdf(&d, big / 2) -
				 (1 - pow(0.5, 0.25))) < 1e-12);
		assert_true(fabs(dist_cdf(&d, big / 2 + big / 16) -
				 dist_cdf(&d, big / 2) - 0.5) < 1e-12);
	}
}

static void test_cdf_monotone(void **state)
{
	static const struct dcase c[] = {
		{ "uniform", DIST_UNIFORM, NULL, 0, DEF, false },
		{ "normal", DIST_NORMAL, NULL, 5, DEF, false },
		{ "normal -i 30 --center 10", DIST_NORMAL, NULL, 30, 10, false },
		{ "pow", DIST_POW, NULL, 5, DEF, false },
		{ "pow -i 50 c50", DIST_POW, NULL, 50, 50, false },
		{ "powerlaw", DIST_POWERLAW, NULL, 5, DEF, false },
		{ "powerlaw c50", DIST_POWERLAW, NULL, 5, 50, false },
		{ "zipf:0.8 c33", DIST_ZIPF, "0.8", 0, 33, false },
		{ "zipf:2", DIST_ZIPF, "2", 0, DEF, false },
		{ "pareto c70", DIST_PARETO, "0.2", 0, 70, false },
		{ "zoned", DIST_ZONED, "60/10:30/20:10/70", 0, 15, false },
		{ "const c50", DIST_CONST, NULL, 0, 50, false },
	};
	struct dist d;
	unsigned j, ni, i;

	(void)state;
	for (j = 0; j < sizeof(c) / sizeof(c[0]); j++) {
		for (ni = 0; ni < NSIZES; ni++) {
			uint64_t n = sizes[ni];
			double prev = 0, v;

			init_ok(&d, &c[j], n);
			assert_true(dist_cdf(&d, 0) == 0);
			assert_true(dist_cdf(&d, n) == 1);
			for (i = 0; i <= 1000; i++) {
				uint64_t k = (uint64_t)((unsigned __int128)n * i / 1000);

				v = dist_cdf(&d, k);
				if (v < prev - 1e-12 || v < -1e-12 || v > 1 + 1e-12)
					fail_msg("%s N=%llu: dist_cdf(%llu) = %.17g after %.17g",
						 c[j].label, (unsigned long long)n,
						 (unsigned long long)k, v, prev);
				prev = v;
			}
		}
	}
}

/* ------------------------------------------------ center and scatter */

static unsigned mode_slice(const struct dcase *c, uint64_t n, uint64_t seed)
{
	uint64_t cnt[DIST_SLICES] = { 0 }, i, rank;
	unsigned k, best = 0;
	struct dist d;
	struct prng r;

	init_ok(&d, c, n);
	prng_seed(&r, seed, 0);
	for (i = 0; i < 100000; i++)
		cnt[slice_div(dist_next(&d, &r, &rank), n)]++;
	for (k = 1; k < DIST_SLICES; k++)
		if (cnt[k] > cnt[best])
			best = k;
	return best;
}

static void test_center_moves_mode(void **state)
{
	static const struct dcase c50[] = {
		{ "powerlaw -i 5 --center 50", DIST_POWERLAW, NULL, 5, 50, false },
		{ "zipf:1.2 --center 50", DIST_ZIPF, "1.2", 0, 50, false },
		{ "zipf:0.8 --center 50", DIST_ZIPF, "0.8", 0, 50, false },
		{ "pareto --center 50", DIST_PARETO, NULL, 0, 50, false },
		{ "normal --center 50", DIST_NORMAL, NULL, 5, 50, false },
	};
	static const struct dcase c0[] = {
		{ "powerlaw -i 5", DIST_POWERLAW, NULL, 5, DEF, false },
		{ "zipf:1.2", DIST_ZIPF, "1.2", 0, DEF, false },
		{ "pareto", DIST_PARETO, NULL, 0, DEF, false },
		{ "powerlaw -i 5 --center 100", DIST_POWERLAW, NULL, 5, 100, false },
	};
	static const uint64_t ns[] = { 65536, 1000003, 1ULL << 30 };
	unsigned j, t, m;

	(void)state;
	for (t = 0; t < 3; t++) {
		for (j = 0; j < sizeof(c50) / sizeof(c50[0]); j++) {
			m = mode_slice(&c50[j], ns[t], 5000 + j);
			printf("  %-26s N=%-10llu most frequent slice %u\n",
			       c50[j].label, (unsigned long long)ns[t], m);
			if (c50[j].kind == DIST_NORMAL)	/* mode at the edge 50 */
				assert_true(m == 49 || m == 50);
			else
				assert_int_equal(m, 50);
		}
		for (j = 0; j < sizeof(c0) / sizeof(c0[0]); j++)
			assert_int_equal(mode_slice(&c0[j], ns[t], 5100 + j), 0);
	}
	{
		/* const goes to round(center * N) */
		struct dcase c = { "const", DIST_CONST, NULL, 0, 30, false };
		struct dist d;
		struct prng r;
		uint64_t rank;

		init_ok(&d, &c, 1000003);
		prng_seed(&r, 1, 0);
		assert_true(dist_next(&d, &r, &rank) == 300001);
	}
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* The scatter map slot' = (mul * slot + add) mod N is a bijection, and it is
 * the map dist_next applies. */
static void check_bijection(uint64_t n)
{
	struct dcase c = { "uniform --scatter", DIST_UNIFORM, NULL, 0, DEF, true };
	struct dist d;
	struct prng r;
	unsigned char *seen;
	uint64_t s, img, rank, i;

	init_ok(&d, &c, n);
	if (n == 1) {
		assert_false(d.scatter);
		return;
	}
	assert_true(d.scatter);
	assert_true(d.mul < n && d.add < n);
	assert_true(gcd64(d.mul, n) == 1);
	seen = calloc(n, 1);
	assert_non_null(seen);
	for (s = 0; s < n; s++) {
		img = (uint64_t)(((unsigned __int128)s * d.mul + d.add) % n);
		if (seen[img])
			fail_msg("N=%llu: scatter maps two slots to %llu",
				 (unsigned long long)n, (unsigned long long)img);
		seen[img] = 1;
	}
	free(seen);
	prng_seed(&r, n, 0);
	for (i = 0; i < 1000; i++) {
		img = dist_next(&d, &r, &rank);
		assert_true(img == (uint64_t)(((unsigned __int128)rank * d.mul +
					       d.add) % n));
	}
}

static void test_scatter_bijection(void **state)
{
	uint64_t n;

	(void)state;
	for (n = 1; n <= 300; n++)
		check_bijection(n);
	check_bijection(1000);
	check_bijection(1ULL << 16);
	check_bijection(1ULL << 22);
	check_bijection(1000003);	/* prime */
	check_bijection(2ULL * 3 * 5 * 7 * 11 * 13 * 17 * 19);	/* 9699690 */
}

/* Behaviourally, on N = 1000 every slot is drawn: each rank always goes to
 * the same slot and no two ranks share one. */
static void test_scatter_observed_bijection(void **state)
{
	struct dcase c = { "zipf:0.5 --scatter", DIST_ZIPF, "0.5", 0, DEF, true };
	const uint64_t n = 1000;
	uint64_t fwd[1000], back[1000], i, s, rank;
	struct dist d;
	struct prng r;

	(void)state;
	for (i = 0; i < n; i++)
		fwd[i] = back[i] = UINT64_MAX;
	init_ok(&d, &c, n);
	prng_seed(&r, 77, 0);
	for (i = 0; i < 200000; i++) {
		s = dist_next(&d, &r, &rank);
		if (fwd[rank] == UINT64_MAX)
			fwd[rank] = s;
		assert_true(fwd[rank] == s);
		if (back[s] == UINT64_MAX)
			back[s] = rank;
		assert_true(back[s] == rank);
	}
	for (i = 0; i < n; i++)
		assert_true(fwd[i] != UINT64_MAX);
}

struct hot {
	uint64_t slot, count;
};

static int hot_cmp(const void *a, const void *b)
{
	const struct hot *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 :
	       x->slot < y->slot ? -1 : x->slot > y->slot;
}

/* The 10 hottest slots of zipf:1.2: contiguous in slice 0 without scatter;
 * after scatter, the images of ranks 0..9, spread over several slices. */
static void top10(bool scatter, struct hot *out, struct dist *d)
{
	struct dcase c = { "zipf:1.2", DIST_ZIPF, "1.2", 0, DEF, scatter };
	const uint64_t n = 65536;
	struct hot *h = calloc(n, sizeof(*h));
	struct prng r;
	uint64_t i, rank;

	assert_non_null(h);
	init_ok(d, &c, n);
	for (i = 0; i < n; i++)
		h[i].slot = i;
	prng_seed(&r, 4242, 0);
	for (i = 0; i < M_FIT; i++)
		h[dist_next(d, &r, &rank)].count++;
	qsort(h, n, sizeof(*h), hot_cmp);
	memcpy(out, h, 10 * sizeof(*h));
	free(h);
}

static void test_scatter_spreads_hot_slots(void **state)
{
	struct hot plain[10], sc[10];
	struct dist d;
	unsigned i, j, nsl = 0;
	bool used[DIST_SLICES] = { false }, found;

	(void)state;
	top10(false, plain, &d);
	for (i = 0; i < 10; i++) {
		assert_true(plain[i].slot < 10);	/* ranks 0..9 */
		assert_int_equal(slice_div(plain[i].slot, 65536), 0);
	}
	top10(true, sc, &d);
	printf("  zipf:1.2 --scatter on 65536 slots, 10 hottest slots:");
	for (i = 0; i < 10; i++) {
		unsigned k = (unsigned)slice_div(sc[i].slot, 65536);

		printf(" %llu", (unsigned long long)sc[i].slot);
		if (!used[k]) {
			used[k] = true;
			nsl++;
		}
		/* each is the image of one of the ranks 0..9 */
		found = false;
		for (j = 0; j < 10; j++)
			found |= sc[i].slot ==
				 (uint64_t)(((unsigned __int128)j * d.mul + d.add) % 65536);
		assert_true(found);
	}
	printf(" (%u distinct slices)\n", nsl);
	assert_true(nsl >= 5);
}

/* ------------------------------------------------------- repeatability */

static void test_repeatable(void **state)
{
	static const struct dcase c[] = {
		{ "uniform", DIST_UNIFORM, NULL, 0, DEF, false },
		{ "normal", DIST_NORMAL, NULL, 5, DEF, false },
		{ "powerlaw", DIST_POWERLAW, NULL, 5, DEF, false },
		{ "zipf", DIST_ZIPF, NULL, 0, DEF, false },
		{ "zipf scatter", DIST_ZIPF, "0.9", 0, 20, true },
		{ "pareto", DIST_PARETO, NULL, 0, DEF, false },
		{ "zoned", DIST_ZONED, "80/20:20/80", 0, DEF, false },
	};
	struct dist d;
	struct prng r1, r2, r3, r4;
	uint64_t i, a, b, x, y, rank, differ, seeds_differ;
	unsigned j;

	(void)state;
	for (j = 0; j < sizeof(c) / sizeof(c[0]); j++) {
		init_ok(&d, &c[j], 1000003);
		prng_seed(&r1, 7, 0);
		prng_seed(&r2, 7, 0);
		prng_seed(&r3, 7, 1);
		prng_seed(&r4, 8, 0);
		differ = seeds_differ = 0;
		for (i = 0; i < 10000; i++) {
			a = dist_next(&d, &r1, &rank);
			b = dist_next(&d, &r2, &rank);
			x = dist_next(&d, &r3, &rank);
			y = dist_next(&d, &r4, &rank);
			if (a != b)
				fail_msg("%s: same seed and stream differ at draw %llu",
					 c[j].label, (unsigned long long)i);
			differ += a != x;
			seeds_differ += a != y;
		}
		/* other streams/seeds: mostly different draws (zipf and
		 * pareto repeat their hot slots often, so not all) */
		if (differ < 1000 || seeds_differ < 1000)
			fail_msg("%s: another stream differs in %llu and another seed in %llu of 10000 draws",
				 c[j].label, (unsigned long long)differ,
				 (unsigned long long)seeds_differ);
	}
}

/* pattern_next with a distribution: the offsets are start + slot * stride
 * with the slots dist_next draws, and the slices are counted by offset and
 * by rank (before scatter) as pattern.h says. */
static void check_pattern(const struct dcase *c, uint64_t start, uint64_t len,
			  uint64_t bs, uint64_t stride)
{
	uint64_t sl[DIST_SLICES] = { 0 }, rk[DIST_SLICES] = { 0 };
	uint64_t i, off, slot, rank, n;
	struct pattern p;
	struct dist d;
	struct prng r1, r2;

	pattern_init(&p, start, len, bs, stride, true, false, 0, 1);
	n = p.slots;
	assert_true(n == (len - bs) / stride + 1);
	init_ok(&d, c, n);
	pattern_set_dist(&p, &d);
	prng_seed(&r1, 31, 2);
	prng_seed(&r2, 31, 2);
	for (i = 0; i < 50000; i++) {
		off = pattern_next(&p, &r1);
		if (c->kind == DIST_UNIFORM && !c->scatter) {
			/* plain uniform: pattern.h draws prng_below itself */
			slot = prng_below(&r2, n);
			rank = slot;
		} else {
			slot = dist_next(&d, &r2, &rank);
		}
		if (off < start || (off - start) % stride ||
		    off + bs > start + len)
			fail_msg("%s: offset %llu outside the region or off the stride",
				 c->label, (unsigned long long)off);
		assert_true(off == start + slot * stride);
		sl[slice_div(slot, n)]++;
		rk[slice_div(rank, n)]++;
	}
	assert_memory_equal(p.slices, sl, sizeof(sl));
	if (c->scatter) {
		assert_ptr_equal(p.ranks, p.rank_slices);
		assert_memory_equal(p.rank_slices, rk, sizeof(rk));
	} else {
		assert_ptr_equal(p.ranks, p.slices);
	}
}

static void test_pattern_with_dist(void **state)
{
	static const struct dcase c[] = {
		{ "uniform", DIST_UNIFORM, NULL, 0, DEF, false },
		{ "uniform scatter", DIST_UNIFORM, NULL, 0, DEF, true },
		{ "zipf", DIST_ZIPF, NULL, 0, DEF, false },
		{ "zipf scatter", DIST_ZIPF, "1.1", 0, 40, true },
		{ "powerlaw", DIST_POWERLAW, NULL, 10, 60, false },
		{ "normal scatter", DIST_NORMAL, NULL, 10, 30, true },
		{ "zoned", DIST_ZONED, "80/20:20/80", 0, DEF, false },
		{ "const", DIST_CONST, NULL, 0, 99, false },
	};
	unsigned j;

	(void)state;
	for (j = 0; j < sizeof(c) / sizeof(c[0]); j++) {
		check_pattern(&c[j], 1 << 20, 32 << 20, 4096, 8192);
		check_pattern(&c[j], 512, 64 << 20, 4096, 512);
		check_pattern(&c[j], 0, (1ULL << 40) + 12345, 4096, 4096);
	}
}

/* ----------------------------------------------------------- refusals */

static void test_refusals(void **state)
{
	static const struct {
		struct dcase c;
		uint64_t n;
		const char *msg;	/* the message must say what is valid */
	} bad[] = {
		{ { "zipf:0", DIST_ZIPF, "0", 0, DEF, false }, 1 << 20, "(0, 100]" },
		{ { "zipf:-1", DIST_ZIPF, "-1", 0, DEF, false }, 1 << 20, "(0, 100]" },
		{ { "zipf:101", DIST_ZIPF, "101", 0, DEF, false }, 1 << 20, "(0, 100]" },
		{ { "zipf:abc", DIST_ZIPF, "abc", 0, DEF, false }, 1 << 20, "not a number" },
		{ { "zipf:nan", DIST_ZIPF, "nan", 0, DEF, false }, 1 << 20, "not a number" },
		{ { "zipf:1.2x", DIST_ZIPF, "1.2x", 0, DEF, false }, 1 << 20, "not a number" },
		{ { "pareto:0", DIST_PARETO, "0", 0, DEF, false }, 1 << 20, "(0, 1)" },
		{ { "pareto:1", DIST_PARETO, "1", 0, DEF, false }, 1 << 20, "(0, 1)" },
		{ { "pareto:1.5", DIST_PARETO, "1.5", 0, DEF, false }, 1 << 20, "(0, 1)" },
		{ { "pareto:-0.2", DIST_PARETO, "-0.2", 0, DEF, false }, 1 << 20, "(0, 1)" },
		{ { "powerlaw -i 100", DIST_POWERLAW, NULL, 100, DEF, false }, 1 << 20, "below 100" },
		{ { "zoned access 90", DIST_ZONED, "50/50:40/50", 0, DEF, false }, 1 << 20, "sum to 90% and the region shares to 100%" },
		{ { "zoned region 90", DIST_ZONED, "50/50:50/40", 0, DEF, false }, 1 << 20, "sum to 100% and the region shares to 90%" },
		{ { "zoned access 110", DIST_ZONED, "60/50:50/50", 0, DEF, false }, 1 << 20, "must sum to 100" },
		{ { "zoned tiny zone", DIST_ZONED, "99/99:1/1", 0, DEF, false }, 10, "no whole block" },
		{ { "zoned tiny zone 2", DIST_ZONED, "50/0.1:50/99.9", 0, DEF, false }, 100, "no whole block" },
		{ { "zoned empty", DIST_ZONED, NULL, 0, DEF, false }, 1 << 20, "ACCESS%/REGION%" },
		{ { "zoned no region", DIST_ZONED, "80/20:20", 0, DEF, false }, 1 << 20, "ACCESS%/REGION%" },
		{ { "zoned zero region", DIST_ZONED, "100/100:0/0", 0, DEF, false }, 1 << 20, "ACCESS%/REGION%" },
		{ { "zoned negative", DIST_ZONED, "-10/50:110/50", 0, DEF, false }, 1 << 20, "ACCESS%/REGION%" },
		{ { "zoned 17 zones", DIST_ZONED, "4/4:4/4:4/4:4/4:4/4:4/4:4/4:4/4:4/4:4/4:4/4:4/4:4/4:4/4:4/4:4/4:36/36", 0, DEF, false }, 1 << 20, "at most 16" },
		{ { "uniform:3", DIST_UNIFORM, "3", 0, DEF, false }, 1 << 20, "no parameter" },
		{ { "normal:5", DIST_NORMAL, "5", 0, DEF, false }, 1 << 20, "sigma" },
		{ { "powerlaw:5", DIST_POWERLAW, "5", 0, DEF, false }, 1 << 20, "sigma" },
		{ { "pow:5", DIST_POW, "5", 0, DEF, false }, 1 << 20, "sigma" },
		{ { "const:1", DIST_CONST, "1", 0, DEF, false }, 1 << 20, "no parameter" },
		/* narrower than one block: its redraws near an end of the
		 * region could never end */
		{ { "normal -i 0.05 on 1000", DIST_NORMAL, NULL, 0.05, DEF, false }, 1000, "narrower than one block; use -i 0.1 or more" },
		{ { "normal -i 1e-20 --center 100", DIST_NORMAL, NULL, 1e-20, 100, false }, 1ULL << 40, "narrower than one block" },
	};
	static const struct {
		struct dcase c;
		uint64_t n;
	} good[] = {
		{ { "zipf:100", DIST_ZIPF, "100", 0, DEF, false }, 1 << 20 },
		{ { "zipf:0.001", DIST_ZIPF, "0.001", 0, DEF, false }, 1 << 20 },
		{ { "pareto:0.999", DIST_PARETO, "0.999", 0, DEF, false }, 1 << 20 },
		{ { "pareto:0.001", DIST_PARETO, "0.001", 0, DEF, false }, 1 << 20 },
		{ { "powerlaw -i 99.9", DIST_POWERLAW, NULL, 99.9, DEF, false }, 1 << 20 },
		{ { "normal -i 100", DIST_NORMAL, NULL, 100, DEF, false }, 1 << 20 },
		{ { "zoned 16 zones", DIST_ZONED, "4/4:4/4:4/4:4/4:4/4:4/4:4/4:4/4:4/4:4/4:4/4:4/4:4/4:4/4:4/4:40/40", 0, DEF, false }, 1 << 20 },
		{ { "zoned one block each", DIST_ZONED, "50/50:50/50", 0, DEF, false }, 2 },
		{ { "zoned 99/99:1/1 on 100", DIST_ZONED, "99/99:1/1", 0, DEF, false }, 100 },
		{ { "normal -i 0.2 on 1000", DIST_NORMAL, NULL, 0.2, DEF, false }, 1000 },
	};
	char err[256];
	unsigned j;
	int ret;

	(void)state;
	for (j = 0; j < sizeof(bad) / sizeof(bad[0]); j++) {
		ret = init_err(&bad[j].c, bad[j].n, err, sizeof(err));
		printf("  %-22s -> %d: %s\n", bad[j].c.label, ret, err);
		if (ret != -EINVAL)
			fail_msg("%s: dist_init returned %d, expected -EINVAL",
				 bad[j].c.label, ret);
		if (!strstr(err, bad[j].msg))
			fail_msg("%s: message '%s' does not say '%s'",
				 bad[j].c.label, err, bad[j].msg);
	}
	for (j = 0; j < sizeof(good) / sizeof(good[0]); j++) {
		ret = init_err(&good[j].c, good[j].n, err, sizeof(err));
		if (ret)
			fail_msg("%s: refused (%d: %s)", good[j].c.label, ret, err);
	}
	/* slots = 0: the parameters alone (spec_check, before the region is
	 * known): what depends on the region passes, the rest is refused */
	for (j = 0; j < sizeof(bad) / sizeof(bad[0]); j++) {
		bool region = strstr(bad[j].msg, "whole block") ||
			      strstr(bad[j].msg, "narrower");

		ret = init_err(&bad[j].c, 0, err, sizeof(err));
		if (region ? ret != 0 : ret != -EINVAL)
			fail_msg("%s with no region: dist_init returned %d (%s), expected %s",
				 bad[j].c.label, ret, err,
				 region ? "0 (depends on the region)" : "-EINVAL");
	}
	for (j = 0; j < sizeof(good) / sizeof(good[0]); j++) {
		ret = init_err(&good[j].c, 0, err, sizeof(err));
		if (ret)
			fail_msg("%s with no region: refused (%d: %s)",
				 good[j].c.label, ret, err);
	}
}

/* Every accepted parameter set must produce offsets in bounded time: the
 * rejection loops (normal's truncation, zipf's rejection-inversion) must not
 * spin forever.  Each case runs in a child with an alarm.  sigma < 0 below
 * means the narrowest normal accepted on the region: one block wide,
 * sigma = 100 / N (narrower ones are refused, see test_refusals; before
 * that refusal, -u normal -i 1e-20 --center 100 redrew forever). */
static void test_extremes_terminate(void **state)
{
	static const struct dcase c[] = {
		{ "zipf:100", DIST_ZIPF, "100", 0, DEF, false },
		{ "zipf:0.001", DIST_ZIPF, "0.001", 0, DEF, false },
		{ "powerlaw -i 0.001", DIST_POWERLAW, NULL, 0.001, DEF, false },
		{ "powerlaw -i 99.999", DIST_POWERLAW, NULL, 99.999, DEF, false },
		{ "pow -i 0.001", DIST_POW, NULL, 0.001, DEF, false },
		{ "pow -i 100", DIST_POW, NULL, 100, DEF, false },
		{ "pareto:0.001", DIST_PARETO, "0.001", 0, DEF, false },
		{ "pareto:0.999", DIST_PARETO, "0.999", 0, DEF, false },
		{ "normal -i 100 --center 0", DIST_NORMAL, NULL, 100, 0, false },
		{ "normal -i 100 --center 100", DIST_NORMAL, NULL, 100, 100, false },
		{ "normal, one block wide, --center 0", DIST_NORMAL, NULL, -1, 0, false },
		{ "normal, one block wide, --center 50", DIST_NORMAL, NULL, -1, 50, false },
		{ "normal, one block wide, --center 99.99", DIST_NORMAL, NULL, -1, 99.99, false },
		{ "normal, one block wide, --center 100", DIST_NORMAL, NULL, -1, 100, false },
	};
	static const uint64_t ns[] = { 1, 2, 1000, 1ULL << 40 };
	enum { NC = sizeof(c) / sizeof(c[0]), NN = sizeof(ns) / sizeof(ns[0]) };
	pid_t pids[NC][NN];
	unsigned j, t;
	int failures = 0;

	(void)state;
	fflush(stdout);
	/* all children at once, so a hang costs one alarm, not one each */
	for (j = 0; j < NC; j++) {
		for (t = 0; t < NN; t++) {
			pid_t pid = fork();

			assert_true(pid >= 0);
			if (!pid) {
				struct spec s;
				struct dist d;
				struct prng r;
				uint64_t i, rank;
				char err[256];

				/* no cmocka in the child: plain exit codes */
				alarm(3);
				spec_for(&s, &c[j]);
				if (c[j].sigma < 0)	/* 1.000001 blocks wide */
					s.sigma = 100.000001 / (double)ns[t];
				if (dist_init(&d, &s, ns[t], err, sizeof(err)))
					_exit(3);
				prng_seed(&r, 9, 0);
				for (i = 0; i < 10000; i++)
					if (dist_next(&d, &r, &rank) >= ns[t])
						_exit(2);
				_exit(0);
			}
			pids[j][t] = pid;
		}
	}
	for (j = 0; j < NC; j++) {
		for (t = 0; t < NN; t++) {
			int status;

			assert_true(waitpid(pids[j][t], &status, 0) == pids[j][t]);
			if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
				continue;
			failures++;
			printf("  %s on N=%llu: %s\n", c[j].label,
			       (unsigned long long)ns[t],
			       WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM ?
			       "10000 draws did not finish in 3 s (endless redraw loop)" :
			       WIFEXITED(status) && WEXITSTATUS(status) == 2 ?
			       "slot outside [0, N)" :
			       WIFEXITED(status) && WEXITSTATUS(status) == 3 ?
			       "refused by dist_init" : "child failed");
		}
	}
	if (failures)
		fail_msg("%d accepted parameter sets did not generate offsets (see above)",
			 failures);
}

/* ------------------------------------------------------------- fit.c */

static void test_fit_compute_synthetic(void **state)
{
	struct dcase cu = { "uniform", DIST_UNIFORM, NULL, 0, DEF, false };
	struct dcase cc = { "const", DIST_CONST, NULL, 0, DEF, false };
	struct dcase cz = { "zoned", DIST_ZONED, "0/50:100/50", 0, DEF, false };
	struct dcase cs = { "zipf scatter", DIST_ZIPF, "1.2", 0, DEF, true };
	static uint64_t a[DIST_SLICES], b[DIST_SLICES], z[DIST_SLICES];
	const uint64_t *sl[2], *rk[2];
	struct fit f, g;
	struct dist d;
	unsigned i;

	(void)state;
	init_ok(&d, &cu, 1000);

	/* perfect counts: chi2 0, p 1, D 0 */
	for (i = 0; i < DIST_SLICES; i++)
		a[i] = 100;
	sl[0] = rk[0] = a;
	fit_compute(&f, &d, sl, rk, 1);
	assert_true(f.present && !f.rank_space);
	assert_true(f.n == 10000);
	assert_int_equal(f.dof, 99);
	assert_true(fabs(f.chi2) < 1e-9);
	assert_true(fabs(f.p_value - 1) < 1e-12);
	assert_true(f.ks_d < 1e-12);
	for (i = 0; i < DIST_SLICES; i++)
		assert_true(fabs(f.intended[i] - 0.01) < 1e-12);

	/* two threads' counts are summed */
	for (i = 0; i < DIST_SLICES; i++) {
		b[i] = 60 + i % 3;
		z[i] = 100 - b[i];
	}
	sl[0] = rk[0] = b;
	sl[1] = rk[1] = z;
	fit_compute(&g, &d, sl, rk, 2);
	assert_memory_equal(g.slices, f.slices, sizeof(f.slices));
	assert_true(g.chi2 == f.chi2 && g.p_value == f.p_value);

	/* all I/Os in one slice of a uniform: p tiny, D large */
	memset(a, 0, sizeof(a));
	a[0] = 10000;
	sl[0] = rk[0] = a;
	fit_compute(&f, &d, sl, rk, 1);
	printf("  uniform, all in slice 0: chi2 %.1f dof %u p %.3g D %.4f\n",
	       f.chi2, f.dof, f.p_value, f.ks_d);
	assert_true(f.p_value < 1e-100);
	assert_true(fabs(f.ks_d - 0.99) < 1e-9);
	memset(a, 0, sizeof(a));
	a[99] = 10000;
	fit_compute(&f, &d, sl, rk, 1);
	assert_true(f.p_value < 1e-100);
	assert_true(fabs(f.ks_d - 0.99) < 1e-9);

	/* const: one slot, nothing to chi-square: dof 0, no p-value */
	init_ok(&d, &cc, 1000);
	memset(a, 0, sizeof(a));
	a[0] = 5000;
	fit_compute(&f, &d, sl, rk, 1);
	assert_true(f.present);
	assert_int_equal(f.dof, 0);
	assert_true(isnan(f.p_value));
	assert_true(f.ks_d < 1e-12);
	assert_true(fabs(f.intended[0] - 1) < 1e-12);
	/* ... and a const run that went elsewhere has D 1 */
	memset(a, 0, sizeof(a));
	a[50] = 5000;
	fit_compute(&f, &d, sl, rk, 1);
	assert_true(fabs(f.ks_d - 1) < 1e-12);

	/* no I/Os: nothing to report */
	memset(a, 0, sizeof(a));
	fit_compute(&f, &d, sl, rk, 1);
	assert_false(f.present);

	/* I/Os where the distribution puts none */
	init_ok(&d, &cz, 1000);
	a[0] = 10000;
	fit_compute(&f, &d, sl, rk, 1);
	printf("  zoned:0/50:100/50, all in slice 0: chi2 %g dof %u p %.3g D %.4f\n",
	       f.chi2, f.dof, f.p_value, f.ks_d);
	assert_true(f.p_value < 1e-100);
	assert_true(fabs(f.ks_d - 1) < 1e-12);

	/* few I/Os on a concentrated distribution: every merged bin expects
	 * >= 5, so dof <= n/5 - 1 */
	{
		struct dcase c2 = { "zipf:2", DIST_ZIPF, "2", 0, DEF, false };

		init_ok(&d, &c2, 1ULL << 30);
		memset(a, 0, sizeof(a));
		a[0] = 97;
		a[40] = 3;
		fit_compute(&f, &d, sl, rk, 1);
		assert_true(f.dof <= 100 / 5 - 1);
	}

	/* scatter: the fit is on ranks, the shares on offsets */
	init_ok(&d, &cs, 1000);
	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	a[37] = 1000;
	b[0] = 1000;
	sl[0] = a;
	rk[0] = b;
	fit_compute(&f, &d, sl, rk, 1);
	assert_true(f.rank_space);
	assert_true(f.slices[37] == 1000 && f.fitted[0] == 1000);
}

/* -------------------------------------------------------------- timing */

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Informational: never fails on time.  Under the sanitizers of `make unit`
 * the numbers are several times those of the -O2 build. */
static void test_timing(void **state)
{
	static const struct dcase c[] = {
		{ "uniform", DIST_UNIFORM, NULL, 0, DEF, false },
		{ "normal -i 5", DIST_NORMAL, NULL, 5, DEF, false },
		{ "normal -i 50 --center 0", DIST_NORMAL, NULL, 50, 0, false },
		{ "powerlaw -i 5", DIST_POWERLAW, NULL, 5, DEF, false },
		{ "zipf:0.8", DIST_ZIPF, "0.8", 0, DEF, false },
		{ "zipf:1.2", DIST_ZIPF, "1.2", 0, DEF, false },
		{ "zipf:1.2 --scatter", DIST_ZIPF, "1.2", 0, DEF, true },
		{ "pareto:0.2", DIST_PARETO, "0.2", 0, DEF, false },
		{ "zoned:60/10:30/20:10/70", DIST_ZONED, "60/10:30/20:10/70", 0, DEF, false },
		{ "const", DIST_CONST, NULL, 0, DEF, false },
	};
	const uint64_t m = 1000000, n = 1ULL << 30;
	volatile uint64_t sink = 0;
	struct dist d;
	struct prng r;
	unsigned j;

	(void)state;
	printf("  generation cost, %llu draws on 2^30 slots%s:\n",
	       (unsigned long long)m,
#if defined(__SANITIZE_ADDRESS__)
	       " (ASan/UBSan build: inflated)"
#else
	       ""
#endif
	       );
	for (j = 0; j < sizeof(c) / sizeof(c[0]); j++) {
		uint64_t i, rank, acc = 0;
		double t0, t1;

		init_ok(&d, &c[j], n);
		prng_seed(&r, 1, 0);
		for (i = 0; i < m / 20; i++)	/* warm up */
			acc += dist_next(&d, &r, &rank);
		t0 = now_ns();
		for (i = 0; i < m; i++)
			acc += dist_next(&d, &r, &rank);
		t1 = now_ns();
		sink += acc;
		printf("    %-26s %7.1f ns/offset\n", c[j].label, (t1 - t0) / (double)m);
	}
	(void)sink;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit_uniform),
		cmocka_unit_test(test_fit_normal),
		cmocka_unit_test(test_fit_pow),
		cmocka_unit_test(test_fit_powerlaw),
		cmocka_unit_test(test_fit_zipf),
		cmocka_unit_test(test_fit_pareto),
		cmocka_unit_test(test_fit_zoned),
		cmocka_unit_test(test_fit_const),
		cmocka_unit_test(test_fit_rotated),
		cmocka_unit_test(test_fit_scattered),
		cmocka_unit_test(test_zipf_normalisation),
		cmocka_unit_test(test_zipf_euler_maclaurin),
		cmocka_unit_test(test_powerlaw_mean),
		cmocka_unit_test(test_first_percent_share),
		cmocka_unit_test(test_pareto_share),
		cmocka_unit_test(test_normal_moments),
		cmocka_unit_test(test_zoned_shares),
		cmocka_unit_test(test_cdf_closed_forms),
		cmocka_unit_test(test_cdf_monotone),
		cmocka_unit_test(test_center_moves_mode),
		cmocka_unit_test(test_scatter_bijection),
		cmocka_unit_test(test_scatter_observed_bijection),
		cmocka_unit_test(test_scatter_spreads_hot_slots),
		cmocka_unit_test(test_repeatable),
		cmocka_unit_test(test_pattern_with_dist),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_extremes_terminate),
		cmocka_unit_test(test_fit_compute_synthetic),
		cmocka_unit_test(test_timing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
