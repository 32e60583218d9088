/* advise_btree.c - see advise_btree.h. */
#include "advise/advise_btree.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "study/sweep_noise.h"

const char *btree_model_check(const struct btree_model *m, uint64_t smallest,
			      uint64_t largest, char *buf, size_t len)
{
	if (!(m->rows >= 2)) {
		snprintf(buf, len, "--rows %.0f: a tree of fewer than 2 rows has no levels to choose a node size for; give the table's row count, e.g. --rows 1000000000",
			 m->rows);
		return buf;
	}
	if (m->key_size == 0) {
		snprintf(buf, len, "--key-size 0: every entry takes room in a node; give the bytes of one entry, key and child pointer (e.g. --key-size 32)");
		return buf;
	}
	if (m->key_size > smallest) {
		snprintf(buf, len, "--key-size %llu is larger than the smallest node size, %llu bytes: no entry fits there; give a smaller key size, or start the block sizes at %llu or more",
			 (unsigned long long)m->key_size,
			 (unsigned long long)smallest,
			 (unsigned long long)m->key_size * 2);
		return buf;
	}
	if (m->value_size && m->value_size > largest - m->key_size) {
		snprintf(buf, len, "--value-size %llu: a record (a --key-size %llu entry and the value) is larger than the largest node size, %llu bytes, so no leaf holds one; give a smaller value size, or larger block sizes",
			 (unsigned long long)m->value_size,
			 (unsigned long long)m->key_size,
			 (unsigned long long)largest);
		return buf;
	}
	if (!(m->fill > 0 && m->fill <= 1)) {
		snprintf(buf, len, "--fill %g: the fill factor is the %% of a node's entries in use, in (0, 100]; B-trees built by random inserts are about 69%% full",
			 m->fill * 100);
		return buf;
	}
	return NULL;
}

/* Node counts per level, leaves first; the number of levels. */
static unsigned level_counts(const struct btree_model *m,
			     const struct btree_node *n, double *count)
{
	double nodes = ceil(m->rows / n->leaf_records);
	unsigned levels = 0;

	count[levels++] = nodes;
	while (nodes > 1 && levels < BTREE_MAX_LEVELS) {
		nodes = ceil(nodes / n->fanout);
		count[levels++] = nodes;
	}
	return levels;
}

void btree_compute(const struct btree_model *m, struct btree_node *n)
{
	double count[BTREE_MAX_LEVELS], bytes = 0, cached_bytes = 0;
	uint64_t per_leaf;
	unsigned i;

	n->keys = n->size / m->key_size;
	n->fanout = (double)n->keys * m->fill;
	/* key + value may pass the node, or wrap past 2^64 */
	per_leaf = !m->value_size ? n->keys :
		   m->value_size > n->size - m->key_size ? 0 :
		   n->size / (m->key_size + m->value_size);
	n->leaf_records = (double)per_leaf * m->fill;
	n->usable = n->fanout >= 2 && n->leaf_records >= 1;
	n->qps = n->qps_low = n->qps_high = NAN;
	n->depth = n->hops = n->ios_per_op = n->tree_bytes = NAN;
	n->levels = n->cached = 0;
	if (!n->usable)
		return;
	n->depth = m->rows > n->leaf_records ?
		   1 + log(m->rows / n->leaf_records) / log(n->fanout) : 1;
	n->levels = level_counts(m, n, count);
	for (i = 0; i < n->levels; i++)
		bytes += count[i] * (double)n->size;
	n->tree_bytes = bytes;
	/* from the root down, while the levels fit together */
	for (i = n->levels; i-- > 0;) {
		cached_bytes += count[i] * (double)n->size;
		if (cached_bytes > (double)m->cache)
			break;
		n->cached++;
	}
	/* d counts the root level as the fraction of a level it fills; the
	 * levels under the cached ones are whole: one node read each */
	n->hops = n->cached ? fmax(0, (double)n->levels - n->cached) : n->depth;
	n->ios_per_op = n->hops + m->write_frac;
	n->qps = n->iops / n->ios_per_op;	/* inf without I/O */
	if (isfinite(n->iops_low) && isfinite(n->iops_high)) {
		n->qps_low = n->iops_low / n->ios_per_op;
		n->qps_high = n->iops_high / n->ios_per_op;
	}
}

void btree_choose(const struct btree_node *nodes, size_t n, unsigned *marks,
		  struct btree_choice *c)
{
	double v[BTREE_MAX_NODES] = { 0 }, lo[BTREE_MAX_NODES] = { 0 };
	double hi[BTREE_MAX_NODES] = { 0 };
	struct noise_summary s;
	bool in_cache = false, known = true;
	size_t i;

	if (n > BTREE_MAX_NODES)
		n = BTREE_MAX_NODES;
	memset(c, 0, sizeof(*c));
	c->best = c->runner_up = n;
	c->marks = marks;
	for (i = 0; i < n; i++) {
		const struct btree_node *x = &nodes[i];

		v[i] = x->usable && isfinite(x->qps) ? x->qps : NAN;
		lo[i] = x->qps_low;
		hi[i] = x->qps_high;
		if (x->usable && isinf(x->qps))
			in_cache = true;
		if (x->usable && !isfinite(x->qps_low))
			known = false;
	}
	noise_judge(v, lo, hi, n, false, marks, &s);
	if (in_cache) {
		c->verdict = BTREE_IN_CACHE;
		for (i = 0; i < n; i++)
			marks[i] = 0;
		return;
	}
	c->best = s.best;
	for (i = 0; i < n; i++)
		if (i != c->best && !isnan(v[i]) &&
		    (c->runner_up == n || v[i] > v[c->runner_up]))
			c->runner_up = i;
	c->tied = s.tied;
	if (c->runner_up == n) {
		c->verdict = known ? BTREE_CLEAR : BTREE_UNKNOWN;
		return;
	}
	c->distance_pct = (1 - v[c->runner_up] / v[c->best]) * 100;
	if (!known)
		c->verdict = BTREE_UNKNOWN;
	else if (marks[c->runner_up] & NOISE_TIED)
		c->verdict = BTREE_TIED;
	else
		c->verdict = BTREE_CLEAR;
}

const char *btree_verdict_name(enum btree_verdict v)
{
	static const char *const names[] = {
		[BTREE_CLEAR] = "clear",
		[BTREE_TIED] = "tied",
		[BTREE_UNKNOWN] = "no-interval",
		[BTREE_IN_CACHE] = "in-cache",
	};

	return names[v];
}
