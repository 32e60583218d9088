/* record_block_match.c - see record_block_match.h. */
#include "trace/record_block_match.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace_blkparse.h"
#include "trace/trace_log.h"

#define SECTOR 512
#define MAX_ORPHANS 65536	/* more are counted at once, not kept */
#define ORPHAN_AGE_NS 1000000000ull	/* older than a batch by this: a
					 * request issued before the start */

struct blk_pending {
	uint64_t issue_ts, last_ts;
	uint64_t sector;	/* the key: the next sector to complete */
	uint64_t first;		/* the issue's sector */
	uint32_t nr, done;	/* sectors asked, completed */
	uint32_t tid, pid;
	int32_t error;
	uint32_t next;		/* the chain: index + 1, 0 at its end */
	uint16_t call;
	uint8_t op;		/* R, W, D, F */
	uint8_t devi;
	char comm[17];
};

/* A completion that came before its issue. */
struct blk_orphan {
	struct blk_event ev;
	uint8_t op;
	uint8_t devi;
};

struct blk_task {
	uint32_t tid;		/* 0: an empty slot (tid 0 is kept as 1) */
	uint32_t pid;
	bool named;		/* its "# task" line was written */
};

static int cmp_event(const void *a, const void *b)
{
	const struct blk_event *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (int)x->kind - (int)y->kind;	/* an issue first */
}

/* R, W, D, F, or 0 for a request of no record. */
static uint8_t op_of(const char *rwbs, struct trace_rec *r)
{
	if (!trace_blk_call(rwbs, r))
		return 0;
	switch (r->type) {
	case TT_READ:
		return 'R';
	case TT_WRITE:
		return 'W';
	case TT_FALLOCATE:
		return 'D';
	default:
		return 'F';
	}
}

/* The device of an event: its index, or -1. */
static int dev_of(const struct blk_match *m, const struct blk_event *ev,
		  uint8_t op)
{
	const struct blk_dev *d;
	unsigned i;

	for (i = 0; i < m->ndevs; i++) {
		d = &m->devs[i];
		if (d->dev != ev->dev)
			continue;
		/* a flush is the whole disk's: the first device of it */
		if (op == 'F' || !d->count ||
		    (ev->sector >= d->first && ev->sector - d->first < d->count))
			return (int)i;
	}
	return -1;
}

static uint32_t hash_key(unsigned devi, uint8_t op, uint64_t sector,
			 uint32_t nbucket)
{
	uint64_t h = sector * 0x9e3779b97f4a7c15ull;

	h ^= ((uint64_t)devi << 8 | op) * 0xff51afd7ed558ccdull;
	return (uint32_t)(h >> 32) & (nbucket - 1);
}

static uint64_t key_sector(uint8_t op, uint64_t sector)
{
	return op == 'F' ? 0 : sector;
}

static uint32_t *chain_of(struct blk_match *m, unsigned devi, uint8_t op,
			  uint64_t sector)
{
	return &m->bucket[hash_key(devi, op, key_sector(op, sector),
				   m->nbucket)];
}

static void link_pending(struct blk_match *m, uint32_t i)
{
	struct blk_pending *p = &m->pool[i];
	uint32_t *head = chain_of(m, p->devi, p->op, p->sector);

	p->next = *head;
	*head = i + 1;
}

static void unlink_pending(struct blk_match *m, uint32_t i)
{
	struct blk_pending *p = &m->pool[i];
	uint32_t *at = chain_of(m, p->devi, p->op, p->sector);

	while (*at && *at != i + 1)
		at = &m->pool[*at - 1].next;
	if (*at)
		*at = p->next;
}

static int grow_buckets(struct blk_match *m)
{
	uint32_t n = m->nbucket * 2, i, *b = calloc(n, sizeof(*b));

	if (!b)
		return -ENOMEM;
	free(m->bucket);
	m->bucket = b;
	m->nbucket = n;
	for (i = 0; i < m->npool; i++)
		if (m->pool[i].op)
			link_pending(m, i);
	return 0;
}

/* A free slot of the pool: its index, or -ENOMEM. */
static int64_t new_pending(struct blk_match *m)
{
	struct blk_pending *pool;
	uint32_t i, cap;

	if (m->free_head) {
		i = m->free_head - 1;
		m->free_head = m->pool[i].next;
		return i;
	}
	if (m->npool == m->cap_pool) {
		cap = m->cap_pool ? 2 * m->cap_pool : 256;
		pool = realloc(m->pool, cap * sizeof(*pool));
		if (!pool)
			return -ENOMEM;
		m->pool = pool;
		m->cap_pool = cap;
	}
	return m->npool++;
}

static void free_pending(struct blk_match *m, uint32_t i)
{
	unlink_pending(m, i);
	m->pool[i].op = 0;
	m->pool[i].next = m->free_head;
	m->free_head = i + 1;
	m->npending--;
}

/* The oldest pending issue of the key up to time ts: its index, or -1. */
static int64_t find_pending(struct blk_match *m, unsigned devi, uint8_t op,
			    uint64_t sector, uint64_t ts)
{
	uint64_t key = key_sector(op, sector);
	uint32_t at = *chain_of(m, devi, op, sector);
	int64_t best = -1;
	struct blk_pending *p;

	for (; at; at = p->next) {
		p = &m->pool[at - 1];
		if (p->devi != devi || p->op != op ||
		    key_sector(op, p->sector) != key || p->issue_ts > ts)
			continue;
		if (best < 0 || p->issue_ts < m->pool[best].issue_ts)
			best = at - 1;
	}
	return best;
}

static struct blk_task *task_slot(struct blk_match *m, uint32_t tid)
{
	uint32_t k = (tid * 2654435761u) & (m->cap_task - 1);

	while (m->task[k].tid && m->task[k].tid != tid)
		k = (k + 1) & (m->cap_task - 1);
	return &m->task[k];
}

/* The task of a thread, added when new: NULL when out of memory. */
static struct blk_task *task_of(struct blk_match *m, uint32_t tid)
{
	struct blk_task *t, *old;
	uint32_t i, n;

	if ((m->ntask + 1) * 2 > m->cap_task) {
		n = m->cap_task ? 2 * m->cap_task : 256;
		old = m->task;
		m->task = calloc(n, sizeof(*m->task));
		if (!m->task) {
			m->task = old;
			return NULL;
		}
		i = m->cap_task;
		m->cap_task = n;
		while (i--)
			if (old[i].tid)
				*task_slot(m, old[i].tid) = old[i];
		free(old);
	}
	t = task_slot(m, tid);
	if (!t->tid) {
		t->tid = tid;
		t->pid = m->tgid_of ? m->tgid_of(tid) : tid;
		if (!t->pid)
			t->pid = tid;
		m->ntask++;
	}
	return t;
}

/* A path or a name as one field of the log: \ooo for the bytes that would
 * break it (trace_log.h). */
static void put_escaped(FILE *f, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		if (*p <= 0x20 || *p == 0x7f || *p == '\\')
			fprintf(f, "\\%03o", *p);
		else
			fputc(*p, f);
	}
}

/* ARG: the names of the bits of v in table, joined by |. */
static void put_flags(FILE *f, const struct trace_flag *t, uint64_t v)
{
	bool first = true;

	for (; t->name; t++) {
		if (!t->value || (v & t->value) != t->value)
			continue;
		fprintf(f, "%s%s", first ? "" : "|", t->name);
		v &= ~(uint64_t)t->value;
		first = false;
	}
}

static void emit(struct blk_match *m, const struct blk_pending *p)
{
	const struct blk_dev *d = &m->devs[p->devi];
	struct blk_task *t = task_of(m, p->tid);
	uint64_t t0 = p->issue_ts > m->start_ns ? p->issue_ts - m->start_ns : 0;
	int64_t len = (int64_t)p->nr * SECTOR;
	const char *ename;

	if (t && !t->named) {
		fprintf(m->out, "# task %u/%u: ", t->pid, t->tid);
		put_escaped(m->out, p->comm[0] ? p->comm : "?");
		fputc('\n', m->out);
		t->named = true;
	}
	fprintf(m->out, "%llu %u/%u %s %u ", (unsigned long long)t0,
		t ? t->pid : p->tid, p->tid, trace_call_names[p->call],
		3 + p->devi);
	put_escaped(m->out, d->path);
	if (p->op == 'F')
		fputs(" - -", m->out);
	else
		fprintf(m->out, " %llu %lld",
			(unsigned long long)(p->first - d->first) * SECTOR,
			(long long)len);
	if (p->error) {
		ename = strerrorname_np(-p->error);
		if (ename)
			fprintf(m->out, " -%s", ename);
		else
			fprintf(m->out, " %d", p->error);
	} else {
		fprintf(m->out, " %lld", p->op == 'R' || p->op == 'W' ?
			(long long)len : 0LL);
	}
	fprintf(m->out, " %llu ",
		(unsigned long long)(p->last_ts - p->issue_ts));
	if (p->call == TC_pwritev2) {
		fputs("1,", m->out);
		put_flags(m->out, trace_rwf_flags, RWF_DSYNC);
	} else if (p->call == TC_fallocate) {
		put_flags(m->out, trace_falloc_flags,
			  FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE);
	} else {
		fputc('-', m->out);
	}
	fputc('\n', m->out);
	m->c.records++;
	m->c.calls[p->call]++;
	if (p->error)
		m->c.failed++;
}

/* A completion of pending issue i: 1 when it ended the request. */
static int complete(struct blk_match *m, uint32_t i, const struct blk_event *ev)
{
	struct blk_pending *p = &m->pool[i];

	p->last_ts = ev->ts;
	p->error = ev->error;
	p->done += ev->nr_sector;
	if (p->op == 'F' || ev->error || p->done >= p->nr) {
		emit(m, p);
		free_pending(m, i);
		return 1;
	}
	/* partial: the rest begins after what completed */
	unlink_pending(m, i);
	p->sector = ev->sector + ev->nr_sector;
	link_pending(m, i);
	return 0;
}

/* Orphans (completions that came before their issue) of a new issue,
 * the oldest first. */
static void adopt_orphans(struct blk_match *m, uint32_t i)
{
	const struct blk_pending *p;
	const struct blk_orphan *o;
	struct blk_event ev;
	size_t k, best;
	bool found;

	for (;;) {
		p = &m->pool[i];
		found = false;
		best = 0;
		for (k = 0; k < m->norphan; k++) {
			o = &m->orphan[k];
			if (o->ev.ts < p->issue_ts || o->devi != p->devi ||
			    o->op != p->op ||
			    key_sector(p->op, o->ev.sector) !=
			    key_sector(p->op, p->sector))
				continue;
			if (!found || o->ev.ts < m->orphan[best].ev.ts)
				best = k;
			found = true;
		}
		if (!found)
			return;
		ev = m->orphan[best].ev;
		m->orphan[best] = m->orphan[--m->norphan];
		if (complete(m, i, &ev))
			return;
	}
}

static int add_orphan(struct blk_match *m, const struct blk_event *ev,
		      uint8_t op, int devi)
{
	struct blk_orphan *v;
	size_t cap;

	if (m->norphan == MAX_ORPHANS) {
		m->c.orphans++;
		return 0;
	}
	if (m->norphan == m->cap_orphan) {
		cap = m->cap_orphan ? 2 * m->cap_orphan : 64;
		v = realloc(m->orphan, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		m->orphan = v;
		m->cap_orphan = cap;
	}
	v = &m->orphan[m->norphan++];
	v->ev = *ev;
	v->op = op;
	v->devi = (uint8_t)devi;
	return 0;
}

/* Orphans much older than the batch were issued before the record. */
static void age_orphans(struct blk_match *m, uint64_t now)
{
	size_t k = 0;

	while (k < m->norphan) {
		if (m->orphan[k].ev.ts + ORPHAN_AGE_NS < now) {
			m->orphan[k] = m->orphan[--m->norphan];
			m->c.orphans++;
		} else {
			k++;
		}
	}
}

static int issue(struct blk_match *m, const struct blk_event *ev,
		 const struct trace_rec *r, uint8_t op, int devi)
{
	struct blk_pending *p;
	int64_t i;

	if (m->npending + 1 > (uint64_t)m->nbucket && grow_buckets(m))
		return -ENOMEM;
	i = new_pending(m);
	if (i < 0)
		return (int)i;
	p = &m->pool[i];
	memset(p, 0, sizeof(*p));
	p->issue_ts = p->last_ts = ev->ts;
	p->sector = p->first = op == 'F' ? 0 : ev->sector;
	p->nr = op == 'F' ? 0 : ev->nr_sector;
	p->tid = ev->pid > 0 ? (uint32_t)ev->pid : 1;
	p->call = r->call;
	p->op = op;
	p->devi = (uint8_t)devi;
	snprintf(p->comm, sizeof(p->comm), "%s", ev->comm);
	if (!task_of(m, p->tid))
		return -ENOMEM;
	link_pending(m, (uint32_t)i);
	m->npending++;
	if (m->norphan)
		adopt_orphans(m, (uint32_t)i);
	return 0;
}

int blk_match_feed(struct blk_match *m, struct blk_event *ev, size_t n)
{
	struct trace_rec r;
	size_t k;
	int64_t i;
	uint8_t op;
	int devi, ret;

	if (!n)
		return 0;
	qsort(ev, n, sizeof(*ev), cmp_event);
	age_orphans(m, ev[0].ts);
	for (k = 0; k < n; k++) {
		memset(&r, 0, sizeof(r));
		op = op_of(ev[k].rwbs, &r);
		if (!op) {
			if (ev[k].kind == BLK_EV_ISSUE)
				m->c.other++;
			continue;
		}
		devi = dev_of(m, &ev[k], op);
		if (devi < 0)
			continue;
		switch (ev[k].kind) {
		case BLK_EV_ISSUE:
			ret = issue(m, &ev[k], &r, op, devi);
			if (ret)
				return ret;
			break;
		case BLK_EV_COMPLETE:
			if (op != 'F' && !ev[k].nr_sector && !ev[k].error) {
				m->c.seq_ends++;
				break;
			}
			i = find_pending(m, (unsigned)devi, op, ev[k].sector,
					 ev[k].ts);
			if (i >= 0)
				complete(m, (uint32_t)i, &ev[k]);
			else if ((ret = add_orphan(m, &ev[k], op, devi)))
				return ret;
			break;
		case BLK_EV_REQUEUE:
			i = find_pending(m, (unsigned)devi, op, ev[k].sector,
					 ev[k].ts);
			if (i >= 0) {
				free_pending(m, (uint32_t)i);
				m->c.requeued++;
			} else {
				m->c.unmatched_requeues++;
			}
			break;
		}
	}
	return 0;
}

int blk_match_init(struct blk_match *m, FILE *out, uint64_t start_ns,
		   const struct blk_dev *devs, unsigned ndevs,
		   uint32_t (*tgid_of)(uint32_t tid))
{
	memset(m, 0, sizeof(*m));
	m->out = out;
	m->start_ns = start_ns;
	m->devs = devs;
	m->ndevs = ndevs;
	m->tgid_of = tgid_of;
	m->nbucket = 256;
	m->bucket = calloc(m->nbucket, sizeof(*m->bucket));
	return m->bucket ? 0 : -ENOMEM;
}

void blk_match_finish(struct blk_match *m)
{
	m->c.unfinished += m->npending;
	m->c.orphans += m->norphan;
	m->npending = 0;
	m->norphan = 0;
}

void blk_match_free(struct blk_match *m)
{
	free(m->pool);
	free(m->bucket);
	free(m->orphan);
	free(m->task);
	memset(m, 0, sizeof(*m));
}
