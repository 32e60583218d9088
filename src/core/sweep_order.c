/* sweep_order.c - a sweep's order of points (sweep_order.h). */
#include "core/sweep_order.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/plan.h"
#include "gen/prng.h"

int sweep_order_parse(const char *text, struct sweep_order *o)
{
	const char *p;
	char *end;

	memset(o, 0, sizeof(*o));
	if (!text || !strcmp(text, "given"))
		return 0;
	if (!strncmp(text, "shuffled", 8) && (!text[8] || text[8] == ':')) {
		o->shuffled = true;
		if (!text[8]) {
			o->seed = random_seed();
			return 0;
		}
		p = text + 9;
		errno = 0;
		o->seed = strtoull(p, &end, 10);
		if (*p >= '0' && *p <= '9' && !*end && !errno)
			return 0;
	}
	fprintf(stderr, "rebench: --order %s: expected given (the points as the axes list them), shuffled (a random order, its seed reported) or shuffled:SEED (that order again, SEED a whole number)\n",
		text);
	return -EINVAL;
}

void sweep_order_fill(const struct sweep_order *o, size_t *perm, size_t n)
{
	struct prng r;
	size_t i;

	for (i = 0; i < n; i++)
		perm[i] = i;
	if (!o->shuffled || n < 2)
		return;
	/* Fisher-Yates: each of the n! orders equally likely; its own
	 * stream of the seed, apart from the workloads' offsets */
	prng_seed(&r, o->seed, 0x5eed0de5ULL);
	for (i = n - 1; i > 0; i--) {
		size_t j = (size_t)prng_below(&r, (uint64_t)i + 1);
		size_t t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
}
