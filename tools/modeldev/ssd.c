/* ssd.c - the model SSD: flash pages on independent channels, a
 * page-mapped translation layer, and garbage collection when free erase
 * blocks run out (rebench-modeldev(1), MODELS).
 *
 * Logical page n (page bytes at n x page) lives on channel n % channels.
 * A channel serves one page operation at a time; channels work at once.
 * A request's pages are served one after another, each on its own
 * channel (the controller walks a command's pages in turn): a read that
 * crosses a page boundary reads two pages and takes two read times, and
 * only requests queued together keep several channels busy.
 *
 * Writes: a page the request covers whole is programmed; one it covers in
 * part is read first (read-modify-write).  Programs go to the channel's
 * open erase block, a page at a time; a page written again leaves its old
 * copy invalid.  When the open block is full and only the reserve block is
 * free, garbage collection takes the block with the fewest valid pages,
 * moves them (a read and a program each) and erases it: on a device
 * written all over, with little over-provisioning, that is the write
 * cliff.  A trim unmaps the pages it covers whole; an open block it
 * leaves with no valid page is erased in the background and started
 * again from its first page (flash cannot program a page twice without an
 * erase, and a drive does not keep filling a block holding nothing), so
 * writes after a trim of everything begin at a block boundary.
 */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

struct ssd_params {
	uint64_t page, block, channels, read, program, erase, op;
};

struct ssd_channel {
	uint64_t free_at, busy_ns;
	uint32_t *p2l;		/* per physical page: local logical page, or NONE */
	uint32_t *valid;	/* per erase block: its valid pages */
	uint32_t *free;		/* the free blocks (a stack) */
	bool *is_free;		/* per erase block: on that stack */
	uint32_t nfree, active, wp;	/* the open block, its next page */
};

struct ssd_state {
	uint64_t lpages;	/* logical pages of the device */
	uint32_t lpages_ch;	/* of the fullest channel */
	uint32_t blocks;	/* erase blocks per channel */
	uint32_t *l2p;		/* per logical page: physical page in its channel */
	struct ssd_channel *ch;
	uint64_t pages_read, pages_programmed, host_pages, rmw_pages;
	uint64_t gc_runs, gc_moved, erases, trimmed, reopened;
};

#define P(f) offsetof(struct ssd_params, f)
#define US 1000ULL
#define MS 1000000ULL
#define S 1000000000ULL
static const struct model_key ssd_keys[] = {
	{ "page", KEY_BYTES, "4k", "flash page: the unit read and programmed",
	  P(page), 512, 1 << 20, NULL },
	{ "block", KEY_COUNT, "256", "pages per erase block",
	  P(block), 2, 1 << 16, NULL },
	{ "channels", KEY_COUNT, "4", "independent channels (page n on channel n % channels)",
	  P(channels), 1, 64, NULL },
	{ "read", KEY_NS, "100us", "time to read a page",
	  P(read), 0, 10 * S, NULL },
	{ "program", KEY_NS, "400us", "time to program a page",
	  P(program), 0, 10 * S, NULL },
	{ "erase", KEY_NS, "3ms", "time to erase a block",
	  P(erase), 0, 10 * S, NULL },
	{ "op", KEY_PCT, "7", "over-provisioning: spare flash, % of the logical size (whole blocks, two at least)",
	  P(op), 0, 100, NULL },
	{ NULL }
};

static int ssd_init(struct model *m, char *err, size_t len)
{
	struct ssd_params *p = m->params;
	struct ssd_state *s;
	uint64_t phys;
	uint32_t c, b;

	if (!pow2(p->page) || p->page < m->common.sector) {
		snprintf(err, len, "page=%llu: give a power of two of at least the sector (%llu)",
			 (unsigned long long)p->page, (unsigned long long)m->common.sector);
		return -1;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		goto oom;
	m->state = s;
	s->lpages = (m->size + p->page - 1) / p->page;
	if (s->lpages >= NONE / 2) {
		snprintf(err, len, "%llu pages: too many for the model (give a larger page or a smaller size)",
			 (unsigned long long)s->lpages);
		return -1;
	}
	s->lpages_ch = (uint32_t)((s->lpages + p->channels - 1) / p->channels);
	/* the spare, in whole blocks: at least the open block and the
	 * reserve that garbage collection moves valid pages into */
	phys = (uint64_t)s->lpages_ch * (100 + p->op);
	s->blocks = (uint32_t)((phys + 100 * p->block - 1) / (100 * p->block));
	b = (uint32_t)((s->lpages_ch + p->block - 1) / p->block) + 2;
	if (s->blocks < b)
		s->blocks = b;
	s->l2p = malloc(s->lpages * sizeof(*s->l2p));
	s->ch = calloc(p->channels, sizeof(*s->ch));
	if (!s->l2p || !s->ch)
		goto oom;
	memset(s->l2p, 0xff, s->lpages * sizeof(*s->l2p));
	for (c = 0; c < p->channels; c++) {
		struct ssd_channel *ch = &s->ch[c];

		ch->p2l = malloc((size_t)s->blocks * p->block * sizeof(*ch->p2l));
		ch->valid = calloc(s->blocks, sizeof(*ch->valid));
		ch->free = malloc(s->blocks * sizeof(*ch->free));
		ch->is_free = calloc(s->blocks, sizeof(*ch->is_free));
		if (!ch->p2l || !ch->valid || !ch->free || !ch->is_free)
			goto oom;
		memset(ch->p2l, 0xff, (size_t)s->blocks * p->block * sizeof(*ch->p2l));
		for (b = 0; b < s->blocks; b++) {
			ch->free[b] = s->blocks - 1 - b;	/* block 0 on top */
			ch->is_free[b] = b != 0;
		}
		ch->nfree = s->blocks - 1;
		ch->active = 0;
		ch->wp = 0;
	}
	return 0;
oom:
	snprintf(err, len, "out of memory for the model's tables");
	return -1;
}

/* One page operation of ns on channel c, not before t: when it ends. */
static uint64_t page_op(struct ssd_state *s, uint32_t c, uint64_t t, uint64_t ns)
{
	struct ssd_channel *ch = &s->ch[c];
	uint64_t start = t > ch->free_at ? t : ch->free_at;

	ch->free_at = start + ns;
	ch->busy_ns += ns;
	return ch->free_at;
}

/* Free a block of channel c: move the valid pages of the block with the
 * fewest into the reserve, which becomes the open block, and erase it. */
static uint64_t collect(const struct ssd_params *p, struct ssd_state *s, uint32_t c,
			uint64_t t)
{
	struct ssd_channel *ch = &s->ch[c];
	uint32_t victim = NONE, b, i, dest;

	/* blocks neither free nor open; the fewest valid pages wins */
	for (b = 0; b < s->blocks; b++)
		if (!ch->is_free[b] && b != ch->active &&
		    (victim == NONE || ch->valid[b] < ch->valid[victim]))
			victim = b;
	if (victim == NONE || ch->valid[victim] == p->block)
		return t;	/* nothing to reclaim (cannot happen: two spare blocks) */
	dest = ch->free[--ch->nfree];
	ch->is_free[dest] = false;
	ch->active = dest;
	ch->wp = 0;
	s->gc_runs++;
	for (i = 0; i < p->block; i++) {
		uint64_t from = (uint64_t)victim * p->block + i, to;
		uint32_t lp = ch->p2l[from];

		if (lp == NONE)
			continue;
		t = page_op(s, c, t, p->read);
		t = page_op(s, c, t, p->program);
		to = (uint64_t)dest * p->block + ch->wp++;
		ch->p2l[to] = lp;
		ch->p2l[from] = NONE;
		s->l2p[(uint64_t)lp * p->channels + c] = (uint32_t)to;
		ch->valid[dest]++;
		s->pages_read++;
		s->pages_programmed++;
		s->gc_moved++;
	}
	ch->valid[victim] = 0;
	t = page_op(s, c, t, p->erase);
	s->erases++;
	ch->free[ch->nfree++] = victim;
	ch->is_free[victim] = true;
	return t;
}

static void unmap(const struct ssd_params *p, struct ssd_state *s, uint64_t lpn)
{
	uint32_t c = (uint32_t)(lpn % p->channels), old = s->l2p[lpn];
	struct ssd_channel *ch = &s->ch[c];

	if (old == NONE)
		return;
	ch->valid[old / p->block]--;
	ch->p2l[old] = NONE;
	s->l2p[lpn] = NONE;
}

/* Program logical page lpn, not before t: when it is done. */
static uint64_t program(const struct ssd_params *p, struct ssd_state *s, uint64_t lpn,
			uint64_t t)
{
	uint32_t c = (uint32_t)(lpn % p->channels);
	struct ssd_channel *ch = &s->ch[c];
	uint64_t at;

	while (ch->wp == p->block) {
		if (ch->nfree > 1) {
			ch->active = ch->free[--ch->nfree];
			ch->is_free[ch->active] = false;
			ch->wp = 0;
		} else {
			uint64_t t2 = collect(p, s, c, t);

			if (t2 == t && ch->wp == p->block)
				break;	/* nothing reclaimed: overwrite in place */
			t = t2;
		}
	}
	unmap(p, s, lpn);
	if (ch->wp == p->block)
		return page_op(s, c, t, p->program);
	at = (uint64_t)ch->active * p->block + ch->wp++;
	ch->p2l[at] = (uint32_t)(lpn / p->channels);
	ch->valid[ch->active]++;
	s->l2p[lpn] = (uint32_t)at;
	s->pages_programmed++;
	return page_op(s, c, t, p->program);
}

/* After a trim: each open block left holding no valid page is erased
 * (the channel busy for it; the trim does not wait) and refilled from its
 * first page. */
static void reopen_stale(const struct ssd_params *p, struct ssd_state *s,
			 uint64_t now)
{
	uint32_t c;

	for (c = 0; c < p->channels; c++) {
		struct ssd_channel *ch = &s->ch[c];

		if (ch->wp == 0 || ch->wp == p->block || ch->valid[ch->active])
			continue;
		page_op(s, c, now, p->erase);
		s->erases++;
		s->reopened++;
		ch->wp = 0;
	}
}

static uint64_t ssd_serve(struct model *m, enum model_req req, uint64_t off,
			  uint64_t len, uint64_t now)
{
	const struct ssd_params *p = m->params;
	struct ssd_state *s = m->state;
	uint64_t first, last, lpn, t = now;

	if (!len)
		return now;
	first = off / p->page;
	last = (off + len - 1) / p->page;
	if (last >= s->lpages)
		last = s->lpages - 1;
	for (lpn = first; lpn <= last; lpn++) {
		uint32_t c = (uint32_t)(lpn % p->channels);
		bool whole = off <= lpn * p->page && (lpn + 1) * p->page <= off + len;

		switch (req) {
		case MREQ_READ:
			t = page_op(s, c, t, p->read);
			s->pages_read++;
			break;
		case MREQ_WRITE:
			if (!whole) {
				t = page_op(s, c, t, p->read);
				s->pages_read++;
				s->rmw_pages++;
			}
			t = program(p, s, lpn, t);
			s->host_pages++;
			break;
		case MREQ_TRIM:
			if (whole && s->l2p[lpn] != NONE) {
				unmap(p, s, lpn);
				s->trimmed++;
			}
			break;
		default:	/* flushes are the cache's (cache.c) */
			break;
		}
	}
	if (req == MREQ_TRIM)
		reopen_stale(p, s, now);
	return t;
}

static void ssd_cut(struct model *m, uint64_t now)
{
	const struct ssd_params *p = m->params;
	struct ssd_state *s = m->state;
	uint64_t c;

	for (c = 0; c < p->channels; c++)
		if (s->ch[c].free_at > now)
			s->ch[c].free_at = now;
}

static void ssd_counters(const struct model *m, FILE *f)
{
	const struct ssd_params *p = m->params;
	const struct ssd_state *s = m->state;
	uint64_t c;

	fprintf(f, "ssd.logical_pages %llu\n", (unsigned long long)s->lpages);
	fprintf(f, "ssd.blocks_per_channel %u\n", s->blocks);
	fprintf(f, "ssd.pages_read %llu\n", (unsigned long long)s->pages_read);
	fprintf(f, "ssd.pages_programmed %llu\n", (unsigned long long)s->pages_programmed);
	fprintf(f, "ssd.host_pages_written %llu\n", (unsigned long long)s->host_pages);
	fprintf(f, "ssd.rmw_pages %llu\n", (unsigned long long)s->rmw_pages);
	fprintf(f, "ssd.gc_runs %llu\n", (unsigned long long)s->gc_runs);
	fprintf(f, "ssd.gc_pages_moved %llu\n", (unsigned long long)s->gc_moved);
	fprintf(f, "ssd.erases %llu\n", (unsigned long long)s->erases);
	fprintf(f, "ssd.trimmed_pages %llu\n", (unsigned long long)s->trimmed);
	fprintf(f, "ssd.blocks_reopened %llu\n", (unsigned long long)s->reopened);
	for (c = 0; c < p->channels; c++) {
		uint32_t fr = s->ch[c].nfree;

		fprintf(f, "ssd.channel%llu.busy_ns %llu\n", (unsigned long long)c,
			(unsigned long long)s->ch[c].busy_ns);
		fprintf(f, "ssd.channel%llu.free_blocks %u\n", (unsigned long long)c, fr);
	}
}

static void ssd_fini(struct model *m)
{
	const struct ssd_params *p = m->params;
	struct ssd_state *s = m->state;
	uint64_t c;

	if (!s)
		return;
	for (c = 0; s->ch && c < p->channels; c++) {
		free(s->ch[c].p2l);
		free(s->ch[c].valid);
		free(s->ch[c].free);
		free(s->ch[c].is_free);
	}
	free(s->ch);
	free(s->l2p);
	free(s);
	m->state = NULL;
}

const struct model_type model_ssd = {
	.name = "ssd",
	.about = "flash pages on independent channels, garbage collection (the write cliff)",
	.keys = ssd_keys,
	.params_size = sizeof(struct ssd_params),
	.init = ssd_init,
	.serve = ssd_serve,
	.cut = ssd_cut,
	.counters = ssd_counters,
	.fini = ssd_fini,
};
