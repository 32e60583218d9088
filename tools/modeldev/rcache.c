/* rcache.c - the read cache every model has (key rcache=SIZE; model.h).
 *
 * The drive keeps the last rcache bytes it read or was written, in lines
 * of rcache_line bytes (the drive's DRAM, not the media), and throws out
 * the least recently used line to make room.  A read whose every line is
 * in the cache is a hit: the cache answers it rcache_hit after it arrived,
 * and the media and the head are left as they were (serve() never sees
 * it).  Any other read is a miss: the media serves it as without a cache,
 * and every line it touched is then in the cache, the most recent (the
 * drive reads whole lines).  A write is taken into the lines it covers
 * whole; a line it covers in part stays if it was there (the drive updates
 * it) and is not brought in (the rest of it is on the media only); a
 * write's time is not changed.  A write-zeroes is a write; a discard, and
 * a power cut for the whole cache, throw lines out.  Under uniform random
 * reads over W bytes, W > rcache, a fraction rcache / W of them hit.
 *
 * The cache holds no data: m->data is always the newest, so the cache
 * decides only when a read completes, and what it returns is right by
 * construction.  Lines are entries of one array allocated at init, found
 * through a hash table on the line number and kept in an LRU list: O(1)
 * per line, and no allocation per request.
 */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

struct rc_entry {
	uint64_t line;		/* its number: the bytes at line x rcache_line */
	uint32_t prev, next;	/* the LRU list (free: next on the free stack) */
	uint32_t chain;		/* next in its hash bucket */
};

struct rcache {
	struct rc_entry *e;	/* nent entries */
	uint32_t *bucket;	/* per bucket: its first entry, or NONE */
	uint32_t nent, mask;	/* entries; buckets - 1 */
	uint32_t head, tail;	/* most and least recently used, or NONE */
	uint32_t free;		/* the free entries, a stack through next */
	uint32_t lines;		/* resident */
	uint64_t hits, misses, evictions;
};

static uint32_t hash(const struct rcache *c, uint64_t line)
{
	return (uint32_t)((line * 0x9e3779b97f4a7c15ULL) >> 32) & c->mask;
}

static uint32_t find(const struct rcache *c, uint64_t line)
{
	uint32_t i;

	for (i = c->bucket[hash(c, line)]; i != NONE; i = c->e[i].chain)
		if (c->e[i].line == line)
			return i;
	return NONE;
}

static void list_unlink(struct rcache *c, uint32_t i)
{
	struct rc_entry *x = &c->e[i];

	if (x->prev != NONE)
		c->e[x->prev].next = x->next;
	else
		c->head = x->next;
	if (x->next != NONE)
		c->e[x->next].prev = x->prev;
	else
		c->tail = x->prev;
}

static void list_push_head(struct rcache *c, uint32_t i)
{
	c->e[i].prev = NONE;
	c->e[i].next = c->head;
	if (c->head != NONE)
		c->e[c->head].prev = i;
	else
		c->tail = i;
	c->head = i;
}

/* Out of its bucket's chain; the chain is short (no more entries than
 * buckets), so the walk to its predecessor is O(1) on average. */
static void hash_remove(struct rcache *c, uint32_t i)
{
	uint32_t *p = &c->bucket[hash(c, c->e[i].line)];

	while (*p != i)
		p = &c->e[*p].chain;
	*p = c->e[i].chain;
}

/* Line i leaves the cache: its entry goes back on the free stack. */
static void drop(struct rcache *c, uint32_t i)
{
	hash_remove(c, i);
	list_unlink(c, i);
	c->e[i].next = c->free;
	c->free = i;
	c->lines--;
}

/* Line to the most recent end: moved if there, else brought in, in a free
 * entry or the least recently used line's. */
static void touch(struct rcache *c, uint64_t line)
{
	uint32_t i = find(c, line), b;

	if (i != NONE) {
		list_unlink(c, i);
		list_push_head(c, i);
		return;
	}
	if (c->free == NONE) {
		drop(c, c->tail);
		c->evictions++;
	}
	i = c->free;
	c->free = c->e[i].next;
	c->e[i].line = line;
	b = hash(c, line);
	c->e[i].chain = c->bucket[b];
	c->bucket[b] = i;
	list_push_head(c, i);
	c->lines++;
}

/* Empty: every entry free, every bucket empty (init and a power cut). */
static void empty(struct rcache *c)
{
	uint32_t i;

	memset(c->bucket, 0xff, ((size_t)c->mask + 1) * sizeof(*c->bucket));
	for (i = 0; i < c->nent; i++)
		c->e[i].next = i + 1 < c->nent ? i + 1 : NONE;
	c->free = 0;
	c->head = c->tail = NONE;
	c->lines = 0;
}

/* The keys against each other and the sector (the key table checks each
 * alone): 0, or -1 with err saying what and how to fix. */
static int check_keys(const struct model_common *k, char *err, size_t len)
{
	if (!pow2(k->rcache_line) || k->rcache_line < k->sector) {
		snprintf(err, len, "rcache_line=%llu: give a power of two of at least the sector (%llu), such as 4k",
			 (unsigned long long)k->rcache_line, (unsigned long long)k->sector);
		return -1;
	}
	if (k->rcache % k->rcache_line) {
		snprintf(err, len, "rcache=%llu: not a whole number of %llu-byte lines (rcache_line); give a multiple of it, such as %llu",
			 (unsigned long long)k->rcache, (unsigned long long)k->rcache_line,
			 (unsigned long long)((k->rcache / k->rcache_line + 1) * k->rcache_line));
		return -1;
	}
	return 0;
}

int rcache_init(struct model *m, char *err, size_t len)
{
	struct rcache *c;
	uint64_t n;

	if (check_keys(&m->common, err, len))
		return -1;
	if (!m->common.rcache)
		return 0;
	n = m->common.rcache / m->common.rcache_line;	/* <= 2^21: 1g / 512 */
	c = calloc(1, sizeof(*c));
	if (!c)
		goto oom;
	m->rc = c;
	c->nent = (uint32_t)n;
	for (c->mask = 1; c->mask < c->nent; c->mask <<= 1)
		;
	c->mask--;
	c->e = malloc(n * sizeof(*c->e));
	c->bucket = malloc(((size_t)c->mask + 1) * sizeof(*c->bucket));
	if (!c->e || !c->bucket)
		goto oom;
	empty(c);
	return 0;
oom:
	snprintf(err, len, "rcache=%llu: cannot allocate the read cache's %llu lines; give a smaller rcache or a larger rcache_line",
		 (unsigned long long)m->common.rcache, (unsigned long long)n);
	rcache_free(m);
	return -1;
}

/* The lines [*first, *last] that the bytes [off, off + len) touch. */
static void span(const struct model *m, uint64_t off, uint64_t len,
		 uint64_t *first, uint64_t *last)
{
	*first = off / m->common.rcache_line;
	*last = (off + len - 1) / m->common.rcache_line;
}

bool rcache_read(struct model *m, uint64_t off, uint64_t len)
{
	struct rcache *c = m->rc;
	uint64_t a, b, l;
	bool hit = true;

	if (!c || !len)
		return false;
	span(m, off, len, &a, &b);
	for (l = a; l <= b && hit; l++)
		hit = find(c, l) != NONE;
	/* a hit moves its lines up; a miss brings in what it lacked */
	for (l = a; l <= b; l++)
		touch(c, l);
	if (hit)
		c->hits++;
	else
		c->misses++;
	return hit;
}

void rcache_write(struct model *m, uint64_t off, uint64_t len)
{
	struct rcache *c = m->rc;
	uint64_t line = m->common.rcache_line, a, b, l;

	if (!c || !len)
		return;
	span(m, off, len, &a, &b);
	/* a write longer than the cache (a write-zeroes of the device)
	 * leaves only its last lines: skip those its own would push out */
	if (b - a >= c->nent)
		a = b + 1 - c->nent;
	for (l = a; l <= b; l++) {
		bool whole = l * line >= off && (l + 1) * line <= off + len;

		/* a part-written line is only current if it was there */
		if (whole || find(c, l) != NONE)
			touch(c, l);
	}
}

void rcache_trim(struct model *m, uint64_t off, uint64_t len)
{
	struct rcache *c = m->rc;
	uint64_t a, b, l;
	uint32_t i, next;

	if (!c || !len)
		return;
	span(m, off, len, &a, &b);
	if (b - a < c->lines) {
		for (l = a; l <= b; l++)
			if ((i = find(c, l)) != NONE)
				drop(c, i);
		return;
	}
	/* a discard of more lines than are cached (of the whole device):
	 * walk the cache instead of the range */
	for (i = c->head; i != NONE; i = next) {
		next = c->e[i].next;
		if (c->e[i].line >= a && c->e[i].line <= b)
			drop(c, i);
	}
}

void rcache_cut(struct model *m)
{
	if (m->rc)
		empty(m->rc);	/* DRAM: gone with the power */
}

void rcache_counters(const struct model *m, FILE *f)
{
	const struct rcache *c = m->rc;

	if (!c)
		return;	/* no read cache, no lines about one */
	fprintf(f, "rcache.hits %llu\nrcache.misses %llu\nrcache.evictions %llu\nrcache.lines %llu\n",
		(unsigned long long)c->hits, (unsigned long long)c->misses,
		(unsigned long long)c->evictions, (unsigned long long)c->lines);
}

void rcache_free(struct model *m)
{
	struct rcache *c = m->rc;

	if (!c)
		return;
	free(c->e);
	free(c->bucket);
	free(c);
	m->rc = NULL;
}
