/* advise_table.h - the IOPS per block size that --advise btree models,
 * read from a sweep table (rebench's --output TSV of a -b sweep, or one
 * made by hand: a header line, then a row per block size).
 *
 * Needed columns: block-size (bytes, k/m/g suffixes taken) and ops_per_s.
 * Taken when present: ops_per_s_median and ops_per_s_ci95_low/high of a
 * --repeat sweep (the median is the IOPS, the interval over the runs),
 * else ops_ci_low/high (batch means of one run's intervals); status (rows
 * not "complete" are left out, with a note); workload (one only); any
 * other swept column before "workload" must hold one value.
 */
#ifndef REBENCH_ADVISE_TABLE_H
#define REBENCH_ADVISE_TABLE_H

#include <stddef.h>

#include "advise/advise_btree.h"

#define ADVISE_MAX_NODES BTREE_MAX_NODES

struct advise_table {
	struct btree_node node[ADVISE_MAX_NODES];	/* by size, ascending */
	size_t n;
	const char *interval;	/* where the intervals came from, or NULL */
	char target[256];	/* the target column's value, or "" */
	size_t skipped;		/* rows not complete */
};

/* Read path into t; 0, or -EINVAL after a message naming the file (as
 * label says: "--from", "the sweep's table"), the line and the fix. */
int advise_table_read(const char *path, const char *label,
		      struct advise_table *t);

#endif
