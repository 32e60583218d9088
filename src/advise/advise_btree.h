/* advise_btree.h - the B-tree node-size model of --advise btree.
 *
 * RethinkDB chose its B-tree node size from the IOPS a drive does at each
 * block size: a point query reads one node per level of the tree, so
 * queries/s = IOPS / hops, and the node size with the most queries/s wins.
 * This model adds what the post named as missing: nodes that are not
 * full, the top of the tree held in a cache, values in the leaves, and
 * inserts.  For a node of S bytes:
 *
 *   keys per node   K = floor(S / E)            E: --key-size, the whole
 *                                               entry (key and child
 *                                               pointer)
 *   fanout          b = K * fill                fill: --fill / 100
 *   records per leaf  L = floor(S / (E + V)) * fill   (V: --value-size;
 *                                               without it L = b: leaves
 *                                               hold entries, as in the
 *                                               post)
 *   depth           d = 1 + log_b(N / L)        N: --rows; at least 1.
 *                                               Without values this is
 *                                               log_b(N), the post's hops
 *   levels          the tree's whole levels: ceil(N / L) leaves, then
 *                   ceil(n / b) nodes per level above, up to one root
 *   cached levels   c = the most top levels whose nodes (S bytes each)
 *                   fit in --cache together
 *   hops            h = d without a cache; with c >= 1 levels cached,
 *                   h = levels - c: the whole levels under the cached ones,
 *                   one node read each (d counts the root level as the
 *                   fraction of a level it fills, and caching the root
 *                   removes that fraction)
 *   I/O per op      h + w                        w: inserts per operation
 *                                               (1 - --rwmix / 100 of an
 *                                               -o rw mix): an insert
 *                                               reads its path and writes
 *                                               the leaf once (splits and
 *                                               logging left out)
 *   queries/s       IOPS(S) / (h + w)
 *
 * d is fractional, as in the post: it is the depth of a tree of exactly N
 * records where every level is full to the fill factor, and so moves
 * smoothly with N; the whole levels are shown beside it.
 */
#ifndef REBENCH_ADVISE_BTREE_H
#define REBENCH_ADVISE_BTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BTREE_MAX_LEVELS 64	/* b >= 2 and N < 2^64 */
#define BTREE_MAX_NODES 64	/* node sizes compared at once */

#define BTREE_MAX_ROWS (1ULL << 53)	/* exact in the model's doubles */

struct btree_model {
	double rows;		/* N, at least 2 */
	uint64_t key_size;	/* E, bytes */
	double fill;		/* (0, 1] */
	uint64_t cache;		/* bytes; 0: nothing cached */
	uint64_t value_size;	/* V, bytes; 0: leaves hold entries */
	double write_frac;	/* w in [0, 1] */
};

/* One node size: its measured IOPS in, the model's figures out. */
struct btree_node {
	uint64_t size;			/* S, bytes */
	double iops, iops_low, iops_high;	/* the 95% interval: NaN
						 * when unknown */
	/* set by btree_compute() */
	bool usable;			/* b >= 2 and a leaf holds a record */
	uint64_t keys;			/* K */
	double fanout;			/* b */
	double leaf_records;		/* L */
	double depth;			/* d */
	unsigned levels;		/* whole levels */
	unsigned cached;		/* c */
	double tree_bytes;		/* every node of the tree, S each */
	double hops;			/* h: node reads per query */
	double ios_per_op;		/* h + w */
	double qps, qps_low, qps_high;	/* inf when no I/O per op */
};

/* Why the model cannot take these parameters (NULL: it can); smallest and
 * largest are the node sizes measured. */
const char *btree_model_check(const struct btree_model *m, uint64_t smallest,
			      uint64_t largest, char *buf, size_t len);

/* The model's figures for node n. */
void btree_compute(const struct btree_model *m, struct btree_node *n);

/* How sure the choice is. */
enum btree_verdict {
	BTREE_CLEAR,		/* the best beats the runner-up beyond the
				 * 95% uncertainty */
	BTREE_TIED,		/* within it: either */
	BTREE_UNKNOWN,		/* the IOPS carry no interval */
	BTREE_IN_CACHE,		/* the whole tree is cached at some size:
				 * queries need no I/O there */
};

struct btree_choice {
	size_t best, runner_up;	/* indices; runner_up == n when none */
	double distance_pct;	/* the runner-up's queries/s below the
				 * best's, in % of the best's */
	enum btree_verdict verdict;
	size_t tied;		/* usable sizes tied with the best (not
				 * counting it) */
	unsigned *marks;	/* per node: enum noise_mark bits */
};

/* Rank n computed nodes (n <= BTREE_MAX_NODES, at least one usable);
 * marks has n slots. */
void btree_choose(const struct btree_node *nodes, size_t n, unsigned *marks,
		  struct btree_choice *c);

const char *btree_verdict_name(enum btree_verdict v);

#endif
