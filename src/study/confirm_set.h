/* confirm_set.h - the workloads of a sweep or suite that change data,
 * one per target and operation kinds, gathered while their points or
 * tests are checked, for the one question asked before any runs. */
#ifndef REBENCH_CONFIRM_SET_H
#define REBENCH_CONFIRM_SET_H

#include <stddef.h>

#include "core/workload.h"

#define CONFIRM_SET_MAX 64	/* more are not kept: the question names
				 * the first */

/* Empty when zeroed. */
struct confirm_set {
	struct workload *wls;	/* copies: their spec owned, nothing else */
	size_t n, cap;
};

/* Keep a copy of wl unless one of its target and kinds is kept already
 * or the set is full: 0, or -ENOMEM. */
int confirm_set_keep(struct confirm_set *cs, const struct workload *wl);
void confirm_set_free(struct confirm_set *cs);

#endif
