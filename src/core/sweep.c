/* sweep.c - expansion of ranges and lists, see sweep.h. */
#include "core/sweep.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rate.h"

static int fail(const struct opt_desc *o, const char *text,
		const struct parse_ctx *ctx, const char *why)
{
	char label[96], where[48];

	options_label(o, ctx, label, sizeof(label));
	options_where(ctx, where, sizeof(where));
	fprintf(stderr, "rebench: %sinvalid range or list '%s' for %s: %s\n",
		where, text, label, why);
	return -EINVAL;
}

static int push(struct sweep_axis *ax, const char *v)
{
	char **n;

	if (ax->n == SWEEP_MAX_VALUES)
		return -E2BIG;
	n = realloc(ax->values, (ax->n + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	ax->values = n;
	ax->values[ax->n] = strdup(v);
	return ax->values[ax->n++] ? 0 : -ENOMEM;
}

/* One end or step of a range, or a list's element, in the option's unit;
 * why (WHY_MAX bytes) says what is wrong where the option's parser says
 * more than "not a valid value" (a rate), else is "". */
#define WHY_MAX 200
static int number(const struct opt_desc *o, const char *s, double *v,
		  char *why)
{
	why[0] = '\0';
	uint64_t u;

	switch (o->type) {
	case OPT_SIZE:
	case OPT_BSIZE:
		if (parse_size(s, &u))
			return -EINVAL;
		*v = (double)u;
		return 0;
	case OPT_COUNT:
		if (parse_uint(s, &u))
			return -EINVAL;
		*v = (double)u;
		return 0;
	case OPT_TIME:
		if (parse_time(s, o->unit_ns, &u))
			return -EINVAL;
		*v = (double)u;
		return 0;
	case OPT_PERCENT:
	case OPT_DOUBLE:
		return parse_percent(s, v);
	case OPT_RATE: {
		/* ops/s only: a SIZE/s ends in "/s", which a range's step
		 * would take for its own (a SIZE/s list is kept as text) */
		struct rate_spec r;

		if (rate_parse(s, &r, why, WHY_MAX) || r.bytes)
			return -EINVAL;
		*v = r.ops;
		return 0;
	}
	default:
		return -EINVAL;
	}
}

static void format(const struct opt_desc *o, double v, char *buf, size_t len)
{
	if (o->type == OPT_TIME)
		snprintf(buf, len, "%lluns", (unsigned long long)llround(v));
	else if (o->type == OPT_SIZE || o->type == OPT_BSIZE ||
		 o->type == OPT_COUNT)
		snprintf(buf, len, "%llu", (unsigned long long)llround(v));
	else
		snprintf(buf, len, "%.10g", v);
}

static int expand_range(struct sweep_axis *ax, const struct opt_desc *o,
			const char *text, const struct parse_ctx *ctx)
{
	char a[64], b[64], st[64], buf[64], last[64] = "", why[WHY_MAX];
	const char *dots = strstr(text, ".."), *sep;
	double va, vb, vs, v;
	bool geo;
	size_t n;
	int ret;

	if (o->type != OPT_SIZE && o->type != OPT_BSIZE &&
	    o->type != OPT_COUNT && o->type != OPT_TIME &&
	    o->type != OPT_PERCENT && o->type != OPT_DOUBLE &&
	    o->type != OPT_RATE)
		return fail(o, text, ctx, "ranges take sizes, counts, times, percentages or rates; give a list (a,b,c) instead");
	if (o->type == OPT_RATE && strstr(text, "/s"))
		return fail(o, text, ctx, "a range of rates is in I/Os a second (1k..64k*2); give bytes a second as a list (10m/s,20m/s,40m/s)");
	sep = strpbrk(dots + 2, "/*");
	if (!sep)
		return fail(o, text, ctx, "a range needs a step: A..B/STEP (linear) or A..B*F (geometric)");
	geo = *sep == '*';
	n = (size_t)(dots - text);
	if (n >= sizeof(a) || (size_t)(sep - dots - 2) >= sizeof(b) ||
	    strlen(sep + 1) >= sizeof(st))
		return fail(o, text, ctx, "too long");
	memcpy(a, text, n);
	a[n] = '\0';
	memcpy(b, dots + 2, (size_t)(sep - dots - 2));
	b[sep - dots - 2] = '\0';
	snprintf(st, sizeof(st), "%s", sep + 1);
	if (number(o, a, &va, why) || number(o, b, &vb, why)) {
		char msg[WHY_MAX + 32];

		if (!why[0])
			return fail(o, text, ctx, "the ends of the range are not valid values of this option");
		snprintf(msg, sizeof(msg), "an end of the range: %s", why);
		return fail(o, text, ctx, msg);
	}
	if (geo ? parse_double(st, &vs) : number(o, st, &vs, why))
		return fail(o, text, ctx, geo ? "the factor after '*' is not a number" : "the step after '/' is not a valid value of this option");
	if (va > vb)
		return fail(o, text, ctx, "empty range: the start is above the end");
	if (!geo && vs <= 0)
		return fail(o, text, ctx, "the step must be positive");
	if (geo && vs <= 1)
		return fail(o, text, ctx, "the factor must be greater than 1");
	if (geo && va <= 0)
		return fail(o, text, ctx, "a geometric range must start above 0");
	for (v = va; v <= vb * (1 + 1e-12);
	     v = geo ? v * vs : v + vs) {
		format(o, v, buf, sizeof(buf));
		if (!strcmp(buf, last))
			continue;	/* geometric steps that round alike */
		ret = push(ax, buf);
		if (ret == -E2BIG)
			return fail(o, text, ctx, "more than 10000 values");
		if (ret)
			return ret;
		snprintf(last, sizeof(last), "%s", buf);
	}
	return 0;
}

static int expand_list(struct sweep_axis *ax, const struct opt_desc *o,
		       const char *text, const struct parse_ctx *ctx)
{
	char *copy = strdup(text), *p, *save = NULL;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	if (text[0] == ',' || text[strlen(text) - 1] == ',' || strstr(text, ",,")) {
		free(copy);
		return fail(o, text, ctx, "empty element in the list");
	}
	for (p = strtok_r(copy, ",", &save); p && !ret;
	     p = strtok_r(NULL, ",", &save)) {
		char buf[64];
		double v;

		/* numbers are kept in the canonical form ranges use, so the
		 * table and JSON read "4k" as 4096 */
		if (ax->numeric) {
			char why[WHY_MAX], msg[WHY_MAX + 96];

			if (number(o, p, &v, why)) {
				/* a rate says why (a 0, a typo), as a
				 * range's ends do */
				if (why[0])
					snprintf(msg, sizeof(msg), "the element '%.60s': %s", p, why);
				else
					snprintf(msg, sizeof(msg), "an element is not a valid value of this option");
				free(copy);
				return fail(o, text, ctx, msg);
			}
			format(o, v, buf, sizeof(buf));
			ret = push(ax, buf);
		} else {
			ret = push(ax, p);
		}
	}
	free(copy);
	if (ret == -E2BIG)
		return fail(o, text, ctx, "more than 10000 values");
	return ret;
}

int sweep_add(struct sweep *sw, const struct opt_desc *o, const char *text,
	      const struct parse_ctx *ctx)
{
	struct sweep_axis *ax = NULL;
	size_t i;
	int ret;

	if (o->type == OPT_FLAG || o->type == OPT_STRING || o->type == OPT_SEED ||
	    o->scope != SCOPE_WORKLOAD)
		return fail(o, text, ctx, "this option takes one value; ranges and lists are for numeric options and for -o, -w, -r, -u and -t");
	for (i = 0; i < sw->naxes; i++)
		if (sw->axes[i].opt == o)
			ax = &sw->axes[i];	/* given again: replace */
	if (!ax) {
		if (sw->naxes == SWEEP_MAX_AXES)
			return fail(o, text, ctx, "at most 8 options can be swept at once");
		ax = &sw->axes[sw->naxes++];
	}
	for (i = 0; i < ax->n; i++)
		free(ax->values[i]);
	free(ax->values);
	memset(ax, 0, sizeof(*ax));
	ax->opt = o;
	ax->numeric = o->type == OPT_SIZE || o->type == OPT_BSIZE ||
		      o->type == OPT_COUNT ||
		      o->type == OPT_TIME || o->type == OPT_PERCENT ||
		      o->type == OPT_DOUBLE ||
		      (o->type == OPT_RATE && !strstr(text, "/s"));
	/* a list of size mixes (4k/50:8k/50,16k) sweeps text, not numbers */
	if (o->type == OPT_BSIZE && !strstr(text, "..") && strpbrk(text, ":/-"))
		ax->numeric = false;
	ret = strstr(text, "..") ? expand_range(ax, o, text, ctx) :
				   expand_list(ax, o, text, ctx);
	if (ret)
		return ret;
	sw->npoints = 1;
	for (i = 0; i < sw->naxes; i++) {
		if (sw->npoints > SWEEP_MAX_POINTS / sw->axes[i].n)
			return fail(o, text, ctx, "the sweep would have more than 10,000,000 points; narrow the ranges");
		sw->npoints *= sw->axes[i].n;
	}
	return 0;
}

void sweep_indices(const struct sweep *sw, size_t p, size_t *idx)
{
	size_t i;

	for (i = sw->naxes; i-- > 0;) {
		idx[i] = p % sw->axes[i].n;
		p /= sw->axes[i].n;
	}
}

int sweep_apply(const struct sweep *sw, size_t p, struct spec *s,
		const struct parse_ctx *ctx)
{
	size_t idx[SWEEP_MAX_AXES], i;
	int ret;

	sweep_indices(sw, p, idx);
	for (i = 0; i < sw->naxes; i++) {
		ret = options_set(s, sw->axes[i].opt, sw->axes[i].values[idx[i]],
				  ctx);
		if (ret)
			return ret;
	}
	return 0;
}

void sweep_remove(struct sweep *sw, const struct opt_desc *o)
{
	size_t i, k;

	for (i = 0; i < sw->naxes; i++) {
		if (sw->axes[i].opt != o)
			continue;
		for (k = 0; k < sw->axes[i].n; k++)
			free(sw->axes[i].values[k]);
		free(sw->axes[i].values);
		memmove(&sw->axes[i], &sw->axes[i + 1],
			(sw->naxes - i - 1) * sizeof(sw->axes[0]));
		sw->naxes--;
		break;
	}
	sw->npoints = 1;
	for (i = 0; i < sw->naxes; i++)
		sw->npoints *= sw->axes[i].n;
	if (!sw->naxes)
		sw->npoints = 0;
}

void sweep_free(struct sweep *sw)
{
	size_t i, k;

	for (i = 0; i < sw->naxes; i++) {
		for (k = 0; k < sw->axes[i].n; k++)
			free(sw->axes[i].values[k]);
		free(sw->axes[i].values);
	}
	memset(sw, 0, sizeof(*sw));
}

static int hook_add(void *arg, const struct opt_desc *o, const char *text,
		    const struct parse_ctx *ctx)
{
	return sweep_add(arg, o, text, ctx);
}

static void hook_remove(void *arg, const struct opt_desc *o)
{
	sweep_remove(arg, o);
}

const struct range_hooks sweep_range_hooks = {
	.add = hook_add,
	.remove = hook_remove,
};
