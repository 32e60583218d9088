/* record_block_ring.c - see record_block_ring.h. */
#include "trace/record_block_ring.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMMIT_SIZE_MASK ((1u << 27) - 1)
#define COMMIT_MISSED (1ull << 31)
#define COMMIT_MISSED_STORED (1ull << 30)
#define TYPE_PADDING 29
#define TYPE_TIME_EXTEND 30
#define TYPE_TIME_STAMP 31
#define TS_SHIFT 27
#define TS_MSB (0xf8ull << 56)	/* bits an absolute time stamp lacks */

const char *const blk_ev_names[BLK_EV_KINDS] = {
	"block_rq_issue", "block_rq_complete", "block_rq_requeue",
};

/* "field:unsigned int nr_sector;	offset:24;	size:4;	signed:0;": the
 * name (the declaration's last word, without [N]), offset and size. */
static bool parse_field_line(const char *line, char *name, size_t nlen,
			     struct blk_field *fl)
{
	const char *decl = strstr(line, "field:"), *semi, *end, *w;
	unsigned off, size;
	const char *o, *s;

	if (!decl)
		return false;
	decl += 6;
	semi = strchr(decl, ';');
	o = strstr(line, "offset:");
	s = strstr(line, "size:");
	if (!semi || !o || !s || sscanf(o, "offset:%u", &off) != 1 ||
	    sscanf(s, "size:%u", &size) != 1 || off > UINT16_MAX ||
	    size > UINT16_MAX)
		return false;
	end = semi;
	w = memchr(decl, '[', (size_t)(semi - decl));
	if (w)
		end = w;
	while (end > decl && end[-1] == ' ')
		end--;
	for (w = end; w > decl && w[-1] != ' ' && w[-1] != '\t'; w--)
		;
	if ((size_t)(end - w) >= nlen || end == w)
		return false;
	memcpy(name, w, (size_t)(end - w));
	name[end - w] = '\0';
	fl->off = (uint16_t)off;
	fl->size = (uint16_t)size;
	return true;
}

/* The slot of a field the decoder reads, by its name in the file. */
static struct blk_field *slot(struct blk_ring_format *f, int kind,
			      const char *name)
{
	struct blk_layout *l = kind >= 0 ? &f->ev[kind] : NULL;
	static const struct {
		const char *name;
		size_t at;
	} ev_fields[] = {
		{ "common_type", offsetof(struct blk_layout, type) },
		{ "common_pid", offsetof(struct blk_layout, pid) },
		{ "dev", offsetof(struct blk_layout, dev) },
		{ "sector", offsetof(struct blk_layout, sector) },
		{ "nr_sector", offsetof(struct blk_layout, nr_sector) },
		{ "error", offsetof(struct blk_layout, error) },
		{ "rwbs", offsetof(struct blk_layout, rwbs) },
		{ "comm", offsetof(struct blk_layout, comm) },
	};
	size_t i;

	if (!l) {
		if (!strcmp(name, "timestamp"))
			return &f->ts;
		if (!strcmp(name, "commit"))
			return &f->commit;
		if (!strcmp(name, "data"))
			return &f->data;
		return NULL;
	}
	for (i = 0; i < sizeof(ev_fields) / sizeof(ev_fields[0]); i++)
		if (!strcmp(name, ev_fields[i].name))
			return (struct blk_field *)((char *)l + ev_fields[i].at);
	return NULL;
}

static bool int_size(const struct blk_field *fl)
{
	return fl->size == 1 || fl->size == 2 || fl->size == 4 ||
	       fl->size == 8;
}

int blk_ring_parse_format(const char *text, int kind,
			  struct blk_ring_format *f, char *err, size_t len)
{
	const char *what = kind >= 0 ? blk_ev_names[kind] : "header_page";
	struct blk_field fl, *dst;
	const char *line, *nl;
	char name[64], one[512];
	const char *need[6];
	size_t n, i, nneed = 0;
	int id = -1;

	if (kind >= 0) {
		memset(&f->ev[kind], 0, sizeof(f->ev[kind]));
	} else {
		memset(&f->ts, 0, sizeof(f->ts));
		memset(&f->commit, 0, sizeof(f->commit));
		memset(&f->data, 0, sizeof(f->data));
	}
	for (line = text; *line; line = nl ? nl + 1 : line + strlen(line)) {
		nl = strchr(line, '\n');
		n = nl ? (size_t)(nl - line) : strlen(line);
		if (n >= sizeof(one))
			n = sizeof(one) - 1;
		memcpy(one, line, n);
		one[n] = '\0';
		if (sscanf(one, "ID: %d", &id) == 1)
			continue;
		if (!parse_field_line(one, name, sizeof(name), &fl))
			continue;
		dst = slot(f, kind, name);
		if (dst)
			*dst = fl;
	}
	if (kind < 0) {
		if (!int_size(&f->ts) || !int_size(&f->commit) ||
		    !f->data.size) {
			snprintf(err, len, "events/header_page has no timestamp, commit and data fields of the sizes this rebench reads");
			return -EINVAL;
		}
		return 0;
	}
	f->ev[kind].id = id;
	need[nneed++] = "common_type";
	need[nneed++] = "common_pid";
	need[nneed++] = "dev";
	need[nneed++] = "sector";
	need[nneed++] = "nr_sector";
	if (kind == BLK_EV_COMPLETE)
		need[nneed++] = "error";
	for (i = 0; i < nneed; i++) {
		dst = slot(f, kind, need[i]);
		if (!int_size(dst)) {
			snprintf(err, len, "the format of %s has no integer field '%s'",
				 what, need[i]);
			return -EINVAL;
		}
	}
	if (!f->ev[kind].rwbs.size) {
		snprintf(err, len, "the format of %s has no field 'rwbs'", what);
		return -EINVAL;
	}
	if (id < 0) {
		snprintf(err, len, "the format of %s has no 'ID:' line", what);
		return -EINVAL;
	}
	return 0;
}

static uint64_t get_u(const unsigned char *p, size_t size)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64 = 0;

	switch (size) {
	case 1:
		memcpy(&u8, p, 1);
		return u8;
	case 2:
		memcpy(&u16, p, 2);
		return u16;
	case 4:
		memcpy(&u32, p, 4);
		return u32;
	default:
		memcpy(&u64, p, 8);
		return u64;
	}
}

/* A signed field, sign-extended from its size. */
static int64_t get_s(const unsigned char *p, size_t size)
{
	uint64_t v = get_u(p, size);

	if (size < 8 && (v >> (size * 8 - 1)) & 1)
		v |= ~0ull << (size * 8);
	return (int64_t)v;
}

static void get_str(char *dst, size_t dlen, const unsigned char *p,
		    const struct blk_field *fl)
{
	size_t n = fl->size < dlen - 1 ? fl->size : dlen - 1;

	memcpy(dst, p + fl->off, n);
	dst[n] = '\0';
}

static bool fits(const struct blk_field *fl, size_t plen)
{
	return (size_t)fl->off + fl->size <= plen;
}

static int push(struct blk_events *out, const struct blk_event *ev)
{
	if (out->n == out->cap) {
		size_t cap = out->cap ? 2 * out->cap : 1024;
		struct blk_event *v = realloc(out->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		out->v = v;
		out->cap = cap;
	}
	out->v[out->n++] = *ev;
	return 0;
}

/* A payload: appended when it is one of the three events.  0, -ENOMEM,
 * or -EINVAL when its fields do not fit in it. */
static int payload(const struct blk_ring_format *f, const unsigned char *p,
		   size_t plen, uint64_t ts, struct blk_events *out)
{
	const struct blk_layout *l;
	struct blk_event ev;
	uint64_t type;
	int k;

	if (!fits(&f->ev[0].type, plen))
		return -EINVAL;
	type = get_u(p + f->ev[0].type.off, f->ev[0].type.size);
	for (k = 0; k < BLK_EV_KINDS; k++)
		if (f->ev[k].id >= 0 && type == (uint64_t)f->ev[k].id)
			break;
	if (k == BLK_EV_KINDS)
		return 0;
	l = &f->ev[k];
	if (!fits(&l->pid, plen) || !fits(&l->dev, plen) ||
	    !fits(&l->sector, plen) || !fits(&l->nr_sector, plen) ||
	    !fits(&l->error, plen) || !fits(&l->rwbs, plen) ||
	    !fits(&l->comm, plen))
		return -EINVAL;
	memset(&ev, 0, sizeof(ev));
	ev.ts = ts;
	ev.kind = (uint8_t)k;
	ev.pid = (int32_t)get_s(p + l->pid.off, l->pid.size);
	ev.dev = (uint32_t)get_u(p + l->dev.off, l->dev.size);
	ev.sector = get_u(p + l->sector.off, l->sector.size);
	ev.nr_sector = (uint32_t)get_u(p + l->nr_sector.off,
				       l->nr_sector.size);
	if (l->error.size)
		ev.error = (int32_t)get_s(p + l->error.off, l->error.size);
	get_str(ev.rwbs, sizeof(ev.rwbs), p, &l->rwbs);
	if (l->comm.size)
		get_str(ev.comm, sizeof(ev.comm), p, &l->comm);
	return push(out, &ev);
}

int blk_ring_decode(const struct blk_ring_format *f, const unsigned char *buf,
		    size_t len, struct blk_events *out,
		    struct blk_ring_loss *loss)
{
	const unsigned char *d = buf + f->data.off;
	uint64_t ts, commit, ext;
	uint32_t w, type_len, delta, l;
	size_t size, p, plen;
	int ret;

	if (len < (size_t)f->data.off || len < (size_t)f->ts.off + f->ts.size ||
	    len < (size_t)f->commit.off + f->commit.size)
		return -EINVAL;
	ts = get_u(buf + f->ts.off, f->ts.size);
	commit = get_u(buf + f->commit.off, f->commit.size);
	size = (size_t)(commit & COMMIT_SIZE_MASK);
	if (size > len - f->data.off)
		return -EINVAL;
	if (commit & COMMIT_MISSED) {
		if ((commit & COMMIT_MISSED_STORED) &&
		    size + f->commit.size <= len - f->data.off)
			loss->events += get_u(d + size, f->commit.size);
		else
			loss->uncounted++;
	}
	for (p = 0; p + 4 <= size;) {
		w = (uint32_t)get_u(d + p, 4);
		type_len = w & 31;
		delta = w >> 5;
		if (type_len == TYPE_PADDING && !delta)
			break;	/* the rest of the sub-buffer is empty */
		if (type_len >= TYPE_PADDING || type_len == 0) {
			if (p + 8 > size)
				return -EINVAL;
			l = (uint32_t)get_u(d + p + 4, 4);
		} else {
			l = 0;
		}
		switch (type_len) {
		case TYPE_PADDING:	/* a discarded event: its time counts */
			ts += delta;
			p += 4 + (size_t)l;
			continue;
		case TYPE_TIME_EXTEND:
			ext = (uint64_t)l << TS_SHIFT | delta;
			ts += ext;
			p += 8;
			continue;
		case TYPE_TIME_STAMP:
			ts = ((uint64_t)l << TS_SHIFT | delta) | (ts & TS_MSB);
			p += 8;
			continue;
		case 0:
			if (l < 4)
				return -EINVAL;
			plen = ((size_t)l + 3) / 4 * 4 - 4;
			ts += delta;
			if (p + 8 + plen > size)
				return -EINVAL;
			ret = payload(f, d + p + 8, plen, ts, out);
			p += 8 + plen;
			break;
		default:
			plen = (size_t)type_len * 4;
			ts += delta;
			if (p + 4 + plen > size)
				return -EINVAL;
			ret = payload(f, d + p + 4, plen, ts, out);
			p += 4 + plen;
			break;
		}
		if (ret)
			return ret;
	}
	return 0;
}

void blk_events_free(struct blk_events *e)
{
	free(e->v);
	memset(e, 0, sizeof(*e));
}
