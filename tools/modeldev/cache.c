/* cache.c - the write cache every model has (key cache=SIZE; model.h).
 *
 * The media does a write as the model's serve() said, starting when it
 * arrived.  With a cache, the device acknowledges the write once it is in
 * the cache: cached=TIME after it arrived, or, with the cache full, once
 * enough earlier writes are on the media to make room.  Until the media is
 * done with it the write is pending: a flush waits for every pending write
 * (flush=honest) or returns at once (flush=lie), and a power cut puts back
 * the data each pending write overwrote, newest first, so the device holds
 * what the media had finished.  A write larger than the whole cache is
 * written through (acknowledged when the media is done).
 */
#include "model.h"

#include <stdlib.h>
#include <string.h>

/* Forget the writes the media has finished by now: they survive a cut. */
static void prune(struct model *m, uint64_t now)
{
	size_t i, n = 0;

	for (i = 0; i < m->npend; i++) {
		if (m->pend[i].done <= now) {
			m->pend_bytes -= m->pend[i].len;
			free(m->pend[i].old);
		} else {
			m->pend[n++] = m->pend[i];
		}
	}
	m->npend = n;
}

static int by_done(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	return x->done < y->done ? -1 : x->done > y->done;
}

/* When need bytes of pending writes will be on the media. */
static uint64_t room_at(const struct model *m, uint64_t need)
{
	struct pending *sorted = malloc(m->npend * sizeof(*sorted));
	uint64_t freed = 0, t = 0;
	size_t i;

	if (!sorted) {
		for (i = 0; i < m->npend; i++)	/* all of them, then */
			if (m->pend[i].done > t)
				t = m->pend[i].done;
		return t;
	}
	memcpy(sorted, m->pend, m->npend * sizeof(*sorted));
	qsort(sorted, m->npend, sizeof(*sorted), by_done);
	for (i = 0; i < m->npend && freed < need; i++) {
		freed += sorted[i].len;
		t = sorted[i].done;
	}
	free(sorted);
	return t;
}

uint64_t cache_write(struct model *m, uint64_t off, uint64_t len, uint64_t now,
		     uint64_t done)
{
	uint64_t ack = now + m->common.cached;
	struct pending *p;

	prune(m, now);
	if (len > m->common.cache)
		return done;	/* written through */
	if (m->pend_bytes + len > m->common.cache) {
		uint64_t t = room_at(m, m->pend_bytes + len - m->common.cache);

		m->cache_full_waits++;
		if (t + m->common.cached > ack)
			ack = t + m->common.cached;
	}
	if (ack >= done)
		return done;	/* the media is as quick: nothing pending */
	if (m->npend == m->cap_pend) {
		size_t cap = m->cap_pend ? 2 * m->cap_pend : 64;
		struct pending *np = realloc(m->pend, cap * sizeof(*np));

		if (!np)
			return done;	/* no room to journal: written through */
		m->pend = np;
		m->cap_pend = cap;
	}
	p = &m->pend[m->npend];
	p->old = malloc(len);
	if (!p->old)
		return done;
	memcpy(p->old, m->data + off, len);
	p->off = off;
	p->len = len;
	p->done = done;
	m->npend++;
	m->pend_bytes += len;
	m->cache_writes++;
	return ack;
}

uint64_t cache_flush(struct model *m, uint64_t now)
{
	uint64_t t = now;
	size_t i;

	prune(m, now);
	if (!m->npend || m->common.flush == FLUSH_LIE)
		return now;
	for (i = 0; i < m->npend; i++)
		if (m->pend[i].done > t)
			t = m->pend[i].done;
	m->flushes_waited++;
	return t;
}

void cache_cut(struct model *m, uint64_t now)
{
	size_t i;

	prune(m, now);
	for (i = m->npend; i-- > 0;) {
		struct pending *p = &m->pend[i];

		memcpy(m->data + p->off, p->old, p->len);
		free(p->old);
		m->cut_writes_lost++;
		m->cut_bytes_lost += p->len;
	}
	m->npend = 0;
	m->pend_bytes = 0;
	m->cuts++;
}

void cache_free(struct model *m)
{
	size_t i;

	for (i = 0; i < m->npend; i++)
		free(m->pend[i].old);
	free(m->pend);
	m->pend = NULL;
	m->npend = m->cap_pend = 0;
	m->pend_bytes = 0;
}
