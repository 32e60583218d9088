/* dist.c - samplers and exact CDFs of the distributions in dist.h. */
#include "gen/dist.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/spec_names.h"

/* GSL's variates draw from our per-thread xoshiro256** state. */
static unsigned long xo_get(void *state)
{
	return (unsigned long)(prng_next(state) >> 32);
}

static double xo_get_double(void *state)
{
	return (double)(prng_next(state) >> 11) * 0x1.0p-53;
}

static const gsl_rng_type xo_type = {
	"xoshiro256**", 0xffffffffUL, 0, sizeof(struct prng), NULL,
	xo_get, xo_get_double,
};

static inline double unit(struct prng *r)
{
	return (double)(prng_next(r) >> 11) * 0x1.0p-53;
}

static inline uint64_t frac_slot(double f, uint64_t n)
{
	uint64_t b = (uint64_t)(f * (double)n);

	return b < n ? b : n - 1;
}

/* --- zipf by rejection-inversion (Hormann and Derflinger 1996) ---------
 * h(x) = x^-s is the hat; H is its integral, H^-1 its inverse.  helper1
 * and helper2 keep log1p(x)/x and expm1(x)/x accurate near 0, which is
 * what makes s = 1 work without a special case. */
static double helper1(double x)
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

static double helper2(double x)
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
}

static double zipf_h(double x, double s)
{
	return exp(-s * log(x));
}

static double zipf_hi(double x, double s)
{
	double lx = log(x);

	return helper2((1 - s) * lx) * lx;
}

static double zipf_hi_inv(double x, double s)
{
	double t = x * (1 - s);

	if (t < -1)
		t = -1;
	return exp(helper1(t) * x);
}

static void zipf_setup(struct dist *d)
{
	double s = d->theta;

	d->hi_x1 = zipf_hi(1.5, s) - 1.0;
	d->hi_n = zipf_hi((double)d->n + 0.5, s);
	d->zs = 2 - zipf_hi_inv(zipf_hi(2.5, s) - zipf_h(2, s), s);
}

static uint64_t zipf_rank(const struct dist *d, struct prng *r)
{
	double s = d->theta, u, x;
	uint64_t k;

	for (;;) {
		u = d->hi_n + unit(r) * (d->hi_x1 - d->hi_n);
		x = zipf_hi_inv(u, s);
		k = (uint64_t)(x + 0.5);
		if (k < 1)
			k = 1;
		else if (k > d->n)
			k = d->n;
		if ((double)k - x <= d->zs ||
		    u >= zipf_hi((double)k + 0.5, s) - zipf_h((double)k, s))
			return k;
	}
}

/* H(k, s) = sum_{i=1..k} i^-s: exact to 1000 terms, then Euler-Maclaurin
 * (integral, end-point and first-derivative terms; the next term is below
 * s^3 * 1e-12 / 720 of the total). */
static double harmonic(uint64_t k, double s)
{
	const uint64_t m = 1000;
	double sum = 0, a, b, integral;
	uint64_t i;

	for (i = 1; i <= k && i <= m; i++)
		sum += pow((double)i, -s);
	if (k <= m)
		return sum;
	a = (double)(m + 1);
	b = (double)k;
	/* (b^(1-s) - a^(1-s)) / (1-s) written as a^(1-s) ln(b/a) expm1(t)/t
	 * with t = (1-s) ln(b/a): no cancellation when s is near 1 */
	integral = pow(a, 1 - s) * log(b / a) * helper2((1 - s) * log(b / a));
	return sum + integral + (pow(a, -s) + pow(b, -s)) / 2 +
	       (-s * pow(b, -s - 1) + s * pow(a, -s - 1)) / 12;
}

/* --- set-up ------------------------------------------------------------ */

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static int parse_zones(struct dist *d, const char *arg, char *err, size_t len)
{
	double acc = 0, span = 0, a, r;
	const char *p = arg;
	double spans[DIST_MAX_ZONES];
	unsigned i;
	int n;

	d->nzones = 0;
	while (p && *p) {
		if (d->nzones == DIST_MAX_ZONES) {
			snprintf(err, len, "at most %d zones", DIST_MAX_ZONES);
			return -EINVAL;
		}
		if (sscanf(p, "%lf/%lf%n", &a, &r, &n) != 2 || a < 0 || r <= 0 ||
		    (p[n] && p[n] != ':')) {
			snprintf(err, len, "zone '%s' is not ACCESS%%/REGION%% (e.g. zoned:80/20:20/80)", p);
			return -EINVAL;
		}
		d->zone_cum[d->nzones] = acc;
		spans[d->nzones++] = r;
		acc += a;
		span += r;
		p += n;
		if (*p == ':')
			p++;
	}
	if (!d->nzones) {
		snprintf(err, len, "give zones as ACCESS%%/REGION%%[:...], e.g. zoned:80/20:20/80");
		return -EINVAL;
	}
	if (fabs(acc - 100) > 1e-9 || fabs(span - 100) > 1e-9) {
		snprintf(err, len, "the access shares sum to %g%% and the region shares to %g%%; both must sum to 100",
			 acc, span);
		return -EINVAL;
	}
	d->zone_cum[d->nzones] = 100;
	span = 0;
	for (i = 0; i <= d->nzones; i++) {
		d->zone_cum[i] /= 100;
		d->zone_slot[i] = i == d->nzones ? d->n :
				  (uint64_t)llround(span / 100 * (double)d->n);
		if (i < d->nzones)
			span += spans[i];
	}
	for (i = 0; d->n && i < d->nzones; i++) {
		if (d->zone_slot[i + 1] <= d->zone_slot[i]) {
			snprintf(err, len, "zone %u (%g%% of the region) holds no whole block; make it wider or the region larger",
				 i + 1, spans[i]);
			return -EINVAL;
		}
	}
	return 0;
}

static int param(const struct spec *s, double def, double *v, char *err,
		 size_t len)
{
	char *end;

	if (!s->dist_arg) {
		*v = def;
		return 0;
	}
	*v = strtod(s->dist_arg, &end);
	if (end == s->dist_arg || *end || !isfinite(*v)) {
		snprintf(err, len, "'%s' is not a number", s->dist_arg);
		return -EINVAL;
	}
	return 0;
}

/* --center, or its default: the middle for normal, the start for the
 * others. */
static double center_of(const struct spec *s)
{
	if (s->center >= 0)
		return s->center;
	return s->dist == DIST_NORMAL ? 50 : 0;
}

/* Each kind's parameters, from a spec already known to name it: d->n
 * is set; 0, or -EINVAL with the message in err. */
static int setup_normal(struct dist *d, const struct spec *s, char *err,
			size_t len)
{
	d->mu = center_of(s) / 100;
	d->sd = s->sigma / 100;
	/* Narrower than a block it is const, and near the ends of the
	 * region every draw could round outside it and be redrawn
	 * forever: refuse, so redrawing always ends quickly (at least
	 * a third of the draws land inside for any center). */
	if (d->n && d->sd * (double)d->n < 1) {
		snprintf(err, len, "sigma %g%% is narrower than one block; use -i %g or more, or -u const",
			 s->sigma, 100.0 / (double)d->n);
		return -EINVAL;
	}
	return 0;
}

static int setup_pow(struct dist *d, const struct spec *s, char *err,
		     size_t len)
{
	if (!(s->sigma > 0)) {
		snprintf(err, len, "-i/--sigma must be above 0 for pow (the mean location, %% into the region)");
		return -EINVAL;
	}
	d->mean = s->sigma / 100;
	return 0;
}

static int setup_powerlaw(struct dist *d, const struct spec *s, char *err,
			  size_t len)
{
	if (s->sigma >= 100) {
		snprintf(err, len, "-i/--sigma must be below 100 for powerlaw (the mean location, %% into the region)");
		return -EINVAL;
	}
	d->a = 100 / s->sigma - 1;
	return 0;
}

static int setup_zipf(struct dist *d, const struct spec *s, char *err,
		      size_t len)
{
	int ret = param(s, 1.2, &d->theta, err, len);

	if (!ret && !(d->theta > 0 && d->theta <= 100)) {
		snprintf(err, len, "THETA must be in (0, 100], e.g. zipf:1.2");
		ret = -EINVAL;
	}
	if (!ret && d->n)
		zipf_setup(d);
	return ret;
}

static int setup_pareto(struct dist *d, const struct spec *s, char *err,
			size_t len)
{
	int ret = param(s, 0.2, &d->a, err, len);

	if (!ret && !(d->a > 0 && d->a < 1)) {
		snprintf(err, len, "H must be in (0, 1), e.g. pareto:0.2 (80%% of the I/Os on 20%% of the region)");
		ret = -EINVAL;
	}
	if (!ret)
		d->a = log(d->a) / log(1 - d->a);
	return ret;
}

static int setup_zoned(struct dist *d, const struct spec *s, char *err,
		       size_t len)
{
	return parse_zones(d, s->dist_arg, err, len);
}

/* Per kind: why a parameter after ':' is refused (NULL: it takes one),
 * and the set-up of its figures (NULL: none). */
static const struct {
	const char *no_arg;
	int (*setup)(struct dist *d, const struct spec *s, char *err,
		     size_t len);
} kinds[] = {
	[DIST_UNIFORM] = { "takes no parameter", NULL },
	[DIST_CONST] = { "takes no parameter", NULL },
	[DIST_NORMAL] = { "takes no parameter after ':'; its spread is -i/--sigma",
			  setup_normal },
	[DIST_POW] = { "takes no parameter after ':'; its mean is -i/--sigma",
		       setup_pow },
	[DIST_POWERLAW] = { "takes no parameter after ':'; its mean is -i/--sigma",
			    setup_powerlaw },
	[DIST_ZIPF] = { NULL, setup_zipf },
	[DIST_PARETO] = { NULL, setup_pareto },
	[DIST_ZONED] = { NULL, setup_zoned },
};

/* The rotation by --center: rounded up, like slice edges, so --center 20
 * puts the hot spot at the first slot of slice 20. */
static void set_shift(struct dist *d, double center)
{
	d->shift = (uint64_t)ceil(center / 100 * (double)d->n - 1e-9);
	if (d->shift >= d->n)
		d->shift = 0;
}

/* --scatter: slot i goes to (i * mul + add) mod n, mul coprime to n and
 * near n/phi, a bijection that spreads neighbours apart. */
static void set_scatter(struct dist *d)
{
	uint64_t slots = d->n;

	d->scatter = true;
	d->mul = (uint64_t)((double)slots * 0.6180339887498949) | 1;
	while (gcd(d->mul, slots) != 1)
		d->mul += 2;
	d->mul %= slots;
	d->add = slots / 3;
}

int dist_init(struct dist *d, const struct spec *s, uint64_t slots,
	      char *err, size_t len)
{
	size_t k = (size_t)s->dist;
	int ret = 0;

	memset(d, 0, sizeof(*d));
	d->kind = s->dist;
	d->n = slots;
	if (s->dist != DIST_NORMAL)
		set_shift(d, center_of(s));
	if (k < sizeof(kinds) / sizeof(kinds[0])) {
		if (s->dist_arg && kinds[k].no_arg) {
			snprintf(err, len, "%s", kinds[k].no_arg);
			return -EINVAL;
		}
		if (kinds[k].setup)
			ret = kinds[k].setup(d, s, err, len);
	}
	if (ret)
		return ret;
	if (s->scatter && slots > 1)
		set_scatter(d);
	return 0;
}

/* --- sampling ---------------------------------------------------------- */

static uint64_t base_slot(const struct dist *d, struct prng *r)
{
	gsl_rng g = { &xo_type, r };
	double f, u;
	unsigned z;

	switch (d->kind) {
	case DIST_NORMAL:
		do {
			f = d->mu + gsl_ran_gaussian_ziggurat(&g, d->sd);
		} while (!(f >= 0 && f < 1));
		return frac_slot(f, d->n);
	case DIST_POW:
		/* 1 - U is in (0, 1]; past the region's end, the last slot */
		return frac_slot(-d->mean * log(1 - unit(r)), d->n);
	case DIST_POWERLAW:
	case DIST_PARETO:
		return frac_slot(pow(unit(r), d->a), d->n);
	case DIST_ZIPF:
		return zipf_rank(d, r) - 1;
	case DIST_ZONED:
		u = unit(r);
		for (z = 0; z + 1 < d->nzones && u >= d->zone_cum[z + 1]; z++)
			;
		return d->zone_slot[z] +
		       prng_below(r, d->zone_slot[z + 1] - d->zone_slot[z]);
	case DIST_CONST:
		return 0;
	default:
		return prng_below(r, d->n);
	}
}

uint64_t dist_next(const struct dist *d, struct prng *r, uint64_t *rank_slot)
{
	uint64_t b = base_slot(d, r);

	if (d->shift) {
		b += d->shift;
		if (b >= d->n)
			b -= d->n;
	}
	*rank_slot = b;
	if (d->scatter)
		b = (uint64_t)(((unsigned __int128)b * d->mul + d->add) % d->n);
	return b;
}

/* --- CDFs ---------------------------------------------------------------- */

/* P(base slot < k), before rotation. */
static double base_cdf(const struct dist *d, uint64_t k)
{
	double x = (double)k / (double)d->n, lo, hi;
	unsigned z;

	if (k == 0)
		return 0;
	if (k >= d->n)
		return 1;
	switch (d->kind) {
	case DIST_NORMAL:
		lo = gsl_cdf_gaussian_P(0 - d->mu, d->sd);
		hi = gsl_cdf_gaussian_P(1 - d->mu, d->sd);
		return (gsl_cdf_gaussian_P(x - d->mu, d->sd) - lo) / (hi - lo);
	case DIST_POW:
		return -expm1(-x / d->mean);
	case DIST_POWERLAW:
	case DIST_PARETO:
		return pow(x, 1 / d->a);
	case DIST_ZIPF:
		return harmonic(k, d->theta) / harmonic(d->n, d->theta);
	case DIST_ZONED:
		for (z = 0; z + 1 < d->nzones && k >= d->zone_slot[z + 1]; z++)
			;
		return d->zone_cum[z] + (d->zone_cum[z + 1] - d->zone_cum[z]) *
		       (double)(k - d->zone_slot[z]) /
		       (double)(d->zone_slot[z + 1] - d->zone_slot[z]);
	case DIST_CONST:
		return 1;
	default:
		return x;
	}
}

double dist_cdf(const struct dist *d, uint64_t k)
{
	uint64_t n = d->n, sh = d->shift;

	if (k >= n)
		return 1;
	if (!sh)
		return base_cdf(d, k);
	/* slot = (b + sh) mod n: slots [0, k) come from b in [n-sh, n-sh+k)
	 * when k <= sh, else from [n-sh, n) and [0, k-sh). */
	if (k <= sh)
		return base_cdf(d, n - sh + k) - base_cdf(d, n - sh);
	return 1 - base_cdf(d, n - sh) + base_cdf(d, k - sh);
}

void dist_describe(const struct dist *d, const struct spec *s, char *buf,
		   size_t len)
{
	const char *name = opt_values_name(dist_values, d->kind);
	double center = s->center < 0 ? (d->kind == DIST_NORMAL ? 50 : 0) :
			s->center;
	int n;

	switch (d->kind) {
	case DIST_NORMAL:
	case DIST_POW:
	case DIST_POWERLAW:
		n = snprintf(buf, len, "%s (sigma %g%%, center %g%%", name,
			     s->sigma, center);
		break;
	case DIST_ZIPF:
		n = snprintf(buf, len, "zipf:%.10g (center %g%%", d->theta, center);
		break;
	case DIST_PARETO:
		n = snprintf(buf, len, "pareto:%s (center %g%%",
			     s->dist_arg ? s->dist_arg : "0.2", center);
		break;
	case DIST_ZONED:
		n = snprintf(buf, len, "zoned:%s (center %g%%", s->dist_arg, center);
		break;
	case DIST_UNIFORM:
		snprintf(buf, len, "uniform%s", d->scatter ? " (scattered)" : "");
		return;
	default:
		n = snprintf(buf, len, "%s (center %g%%", name, center);
	}
	if (n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "%s)",
			 d->scatter ? ", scattered" : "");
}
