/* sweep.h - ranges and lists in option values, and the cartesian product
 * of all of them.
 *
 *   A..B/STEP   linear: A, A+STEP, ... while <= B   (sizes, counts, times,
 *   A..B*F      geometric: A, A*F, ... while <= B    percentages; F > 1)
 *   a,b,c       list: any option that takes a value, except file names and
 *               --seed (e.g. -u uniform,pow or -t naio,uring)
 *
 * Values keep the option's units ("512..4k/512").  Axes are kept in the
 * order the options were given; the first axis varies slowest.  Each value
 * is stored as a string the option's own parser accepts, so a point is
 * applied exactly as if it had been typed.
 */
#ifndef REBENCH_SWEEP_H
#define REBENCH_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "core/options.h"

#define SWEEP_MAX_AXES 8
#define SWEEP_MAX_VALUES 10000
#define SWEEP_MAX_POINTS 10000000	/* product of all axes */

struct sweep_axis {
	const struct opt_desc *opt;
	bool numeric;		/* a range or list of numbers: plottable */
	size_t n;
	char **values;		/* for the option's parser */
};

struct sweep {
	size_t naxes;
	struct sweep_axis axes[SWEEP_MAX_AXES];
	size_t npoints;
};

/* The parser's hooks for ranges and lists (options.h): give them with the
 * sweep as the parse context's ranges_arg. */
extern const struct range_hooks sweep_range_hooks;
/* Add an axis for o from text; 0 or -EINVAL after a message (empty range,
 * zero step, factor <= 1, range on a non-numeric option, too many). */
int sweep_add(struct sweep *sw, const struct opt_desc *o, const char *text,
	      const struct parse_ctx *ctx);
/* Index of each axis for point p (first axis slowest). */
void sweep_indices(const struct sweep *sw, size_t p, size_t *idx);
/* Apply point p to s through the options' own parsers. */
int sweep_apply(const struct sweep *sw, size_t p, struct spec *s,
		const struct parse_ctx *ctx);
/* A plain value given after a range replaces it: drop o's axis. */
void sweep_remove(struct sweep *sw, const struct opt_desc *o);
void sweep_free(struct sweep *sw);

#endif
