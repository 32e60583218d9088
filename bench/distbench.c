/* distbench.c - cost of generating one random offset, per distribution,
 * through the same pattern_next() the run loop calls (slice counting
 * included), on a 1 TiB region of 4 KiB blocks.  Prints ns/offset.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/gen/dist.h"
#include "../src/gen/pattern.h"
#include "../src/core/spec.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const struct { const char *label; int kind; const char *arg; double sigma; int scatter; } cases[] = {
		{ "uniform", DIST_UNIFORM, NULL, 5, 0 },
		{ "normal (sigma 5%)", DIST_NORMAL, NULL, 5, 0 },
		{ "pow (sigma 5%)", DIST_POW, NULL, 5, 0 },
		{ "zipf:1.2", DIST_ZIPF, "1.2", 5, 0 },
		{ "zipf:0.8 --scatter", DIST_ZIPF, "0.8", 5, 1 },
		{ "pareto:0.2", DIST_PARETO, "0.2", 5, 0 },
		{ "zoned:60/10:30/20:10/70", DIST_ZONED, "60/10:30/20:10/70", 5, 0 },
		{ "const", DIST_CONST, NULL, 5, 0 },
	};
	const uint64_t bs = 4096, region = 1ULL << 40;
	long n = argc > 1 ? atol(argv[1]) : 5000000;
	uint64_t sink = 0;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct spec s;
		struct dist d;
		struct pattern *p = calloc(1, sizeof(*p));
		struct prng r;
		char err[256];
		double t0, t1;
		long k;

		spec_defaults(&s);
		s.dist = cases[i].kind;
		s.dist_arg = cases[i].arg ? strdup(cases[i].arg) : NULL;
		s.sigma = cases[i].sigma;
		s.scatter = cases[i].scatter;
		pattern_init(p, 0, region, bs, bs, true, false, 0, 1);
		if (dist_init(&d, &s, p->slots, err, sizeof(err))) {
			fprintf(stderr, "distbench: %s: %s\n", cases[i].label, err);
			return 1;
		}
		pattern_set_dist(p, &d);
		prng_seed(&r, 42, 0);
		t0 = now_s();
		for (k = 0; k < n; k++)
			sink += pattern_next(p, &r);
		t1 = now_s();
		printf("  %-26s %6.1f ns/offset\n", cases[i].label,
		       (t1 - t0) * 1e9 / (double)n);
		spec_free(&s);
		free(p);
	}
	return sink == 42;	/* keep the loop from being optimized away */
}
