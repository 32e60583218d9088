/* confirm_set.c - one workload per target and operation kinds, kept for
 * the question before a sweep or a suite. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "study/confirm_set.h"

/* Room for one more: the array grows with what is kept (a workload is
 * large), never past CONFIRM_SET_MAX. */
static int grow(struct confirm_set *cs)
{
	size_t cap = cs->cap ? 2 * cs->cap : 4;
	struct workload *wls;

	if (cs->n < cs->cap)
		return 0;
	if (cap > CONFIRM_SET_MAX)
		cap = CONFIRM_SET_MAX;
	wls = realloc(cs->wls, cap * sizeof(*wls));
	if (!wls)
		return -ENOMEM;
	cs->wls = wls;
	cs->cap = cap;
	return 0;
}

int confirm_set_keep(struct confirm_set *cs, const struct workload *wl)
{
	struct workload *c;
	size_t k;

	for (k = 0; k < cs->n; k++)
		if (!strcmp(cs->wls[k].tgt.path, wl->tgt.path) &&
		    spec_kinds(&cs->wls[k].spec) == spec_kinds(&wl->spec))
			return 0;
	if (cs->n == CONFIRM_SET_MAX)
		return 0;
	if (grow(cs))
		return -ENOMEM;
	c = &cs->wls[cs->n];
	*c = *wl;
	if (spec_copy(&c->spec, &wl->spec))
		return -ENOMEM;
	c->result.nwarn = 0;
	c->run.workers = NULL;
	c->result.have_result = false;
	cs->n++;
	return 0;
}

void confirm_set_free(struct confirm_set *cs)
{
	size_t k;

	for (k = 0; k < cs->n; k++)
		spec_free(&cs->wls[k].spec);
	free(cs->wls);
	memset(cs, 0, sizeof(*cs));
}
