/* sweep_order.h - --order: the order a sweep runs its points in.
 *
 * "given" runs them as the axes list them (the first swept option
 * slowest).  Then a drift during the sweep (a device warming up, the page
 * cache filling, a neighbour starting) paints a gradient along the slow
 * axis that looks like a property of the swept values.  "shuffled" runs
 * them in a random order from a seed (Fisher-Yates over the point
 * numbers, prng.h), so drift becomes noise spread over the picture
 * instead; the seed is reported, and "shuffled:SEED" runs that order
 * again.  Every point runs exactly once either way, and the table, -n and
 * JSON give the points in the order they ran, each with its values.
 */
#ifndef REBENCH_SWEEP_ORDER_H
#define REBENCH_SWEEP_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sweep_order {
	bool shuffled;
	uint64_t seed;		/* shuffled: given, or drawn (random_seed) */
};

/* text: NULL or "given", "shuffled", "shuffled:SEED".  0, or -EINVAL
 * after a message saying what is valid. */
int sweep_order_parse(const char *text, struct sweep_order *o);
/* perm[k]: the point that runs k-th, for the n points. */
void sweep_order_fill(const struct sweep_order *o, size_t *perm, size_t n);

#endif
