/* load_curve.c - the knee of a --rate sweep (load_curve.h). */
#include "report/load_curve.h"

#include <stdlib.h>

#include "core/json.h"

static int by_asked(const void *a, const void *b)
{
	const struct load_point *x = a, *y = b;

	return (x->asked > y->asked) - (x->asked < y->asked);
}

void load_curve_judge(struct load_curve *c, const struct load_point *p,
		      size_t n)
{
	struct load_point *s = calloc(n ? n : 1, sizeof(*s));
	size_t i, m = 0, wall;

	c->points = 0;
	c->have_knee = c->have_next = false;
	c->base_p99_us = 0;
	if (!s)
		return;
	for (i = 0; i < n; i++)
		if (p[i].have)
			s[m++] = p[i];
	qsort(s, m, sizeof(*s), by_asked);
	c->points = m;
	/* the least p99 of a rate that was met: the device unqueued (the
	 * lowest rate's alone would carry the noise of its few I/Os) */
	for (i = 0; i < m; i++)
		if (s[i].met && (c->base_p99_us == 0 ||
				 s[i].p99_us < c->base_p99_us))
			c->base_p99_us = s[i].p99_us;
	/* below the lowest rate not met, the highest whose p99 holds (a
	 * lower rate's p99 may carry a stall or the sweep's cold start) */
	for (wall = 0; wall < m && s[wall].met; wall++)
		;
	for (i = wall; i-- > 0;)
		if (s[i].p99_us <= KNEE_FACTOR * c->base_p99_us) {
			c->knee = s[i];
			c->have_knee = true;
			break;
		}
	/* what gave way: the rate above the knee (the lowest without one) */
	i = c->have_knee ? i + 1 : 0;
	if (i < m) {
		c->next = s[i];
		c->have_next = true;
	}
	free(s);
}

void load_curve_human(FILE *f, const struct load_curve *c)
{
	if (!c->on || !c->points)
		return;
	if (c->have_knee)
		fprintf(f, "Knee: %.6g ops/s (achieved %.1f, p99 from the intended start %.1f us)",
			c->knee.asked, c->knee.achieved, c->knee.p99_us);
	else
		fprintf(f, "Knee: none: no rate below the first not met kept its p99");
	if (c->have_next)
		fprintf(f, "; %.6g asked: achieved %.1f, %s, p99 %.1f us",
			c->next.asked, c->next.achieved,
			c->next.met ? "met" : "not met", c->next.p99_us);
	else
		fprintf(f, "; every rate held: sweep higher to find where it gives way");
	if (c->base_p99_us > 0)
		fprintf(f, " (the highest rate below the first not met with p99 within %.0fx the least of a rate met, %.1f us)\n",
			KNEE_FACTOR, c->base_p99_us);
	else
		fprintf(f, " (no rate was met: sweep lower)\n");
}

/* asked, achieved, p99, and with_met whether it was met: "-" each when
 * there is no such point */
static void terse_point(FILE *f, bool have, const struct load_point *p,
			bool with_met)
{
	if (!have) {
		fprintf(f, with_met ? " - - - -" : " - - -");
		return;
	}
	fprintf(f, " %.2f %.2f %.3f", p->asked, p->achieved, p->p99_us);
	if (with_met)
		fprintf(f, " %s", p->met ? "met" : "not-met");
}

void load_curve_terse(FILE *f, const struct load_curve *c)
{
	if (!c->on || !c->points)
		return;
	fprintf(f, "knee");
	terse_point(f, c->have_knee, &c->knee, false);
	if (c->base_p99_us > 0)
		fprintf(f, " %.3f", c->base_p99_us);
	else
		fprintf(f, " -");
	terse_point(f, c->have_next, &c->next, true);
	fputc('\n', f);
}

static void json_point(struct json *j, const char *name, bool have,
		       const struct load_point *p)
{
	if (!have) {
		json_null(j, name);
		return;
	}
	json_obj_begin(j, name);
	json_num(j, "asked", p->asked);
	json_num(j, "achieved", p->achieved);
	json_bool(j, "met", p->met);
	json_num(j, "intended_p99_us", p->p99_us);
	json_obj_end(j);
}

void load_curve_json(struct json *j, const struct load_curve *c)
{
	if (!c->on)
		return;
	json_obj_begin(j, "load_curve");
	json_u64(j, "points", c->points);
	json_num(j, "knee_factor", KNEE_FACTOR);
	if (c->base_p99_us > 0)
		json_num(j, "least_p99_us", c->base_p99_us);
	else
		json_null(j, "least_p99_us");
	json_point(j, "knee", c->have_knee, &c->knee);
	json_point(j, "gave_way", c->have_next, &c->next);
	json_obj_end(j);
}
