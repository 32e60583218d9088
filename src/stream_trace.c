/* stream_trace.c - see stream_trace.h. */
#include "stream_trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace_log.h"

#define MAX_TIDS 4096	/* threads told apart; more are counted as one */

static uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t round_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/* The kind a replay gives a record, or -1 when it moves no data. */
static int replay_kind(const struct trace_rec *rec)
{
	if (rec->type == TT_SYNC_RANGE)
		return IO_FDATASYNC;
	return trace_io_kind(rec);
}

static int push_op(struct stream_trace *t, const struct trace_op *op)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 4096;
		struct trace_op *o = realloc(t->ops, cap * sizeof(*o));

		if (!o)
			return -ENOMEM;
		t->ops = o;
		t->cap = cap;
	}
	t->ops[t->n++] = *op;
	return 0;
}

/* The map's entry of the reader's file id, added on first use. */
static int map_file(struct stream_trace *t, const struct trace_reader *r,
		    uint32_t id, uint32_t **idx, uint32_t *nidx)
{
	struct trace_map_file *f;

	if (id >= *nidx) {
		uint32_t n = id + 64, i;
		uint32_t *x = realloc(*idx, n * sizeof(*x));

		if (!x)
			return -ENOMEM;
		for (i = *nidx; i < n; i++)
			x[i] = UINT32_MAX;
		*idx = x;
		*nidx = n;
	}
	if ((*idx)[id] != UINT32_MAX)
		return (int)(*idx)[id];
	f = realloc(t->files, (t->nfiles + 1) * sizeof(*f));
	if (!f)
		return -ENOMEM;
	t->files = f;
	f += t->nfiles;
	memset(f, 0, sizeof(*f));
	f->path = strdup(trace_file_name(r, id));
	if (!f->path)
		return -ENOMEM;
	(*idx)[id] = t->nfiles;
	return (int)t->nfiles++;
}

static void count_thread(struct stream_trace *t, uint32_t *tids, uint32_t tid)
{
	uint32_t i;

	for (i = 0; i < t->nthreads && i < MAX_TIDS; i++)
		if (tids[i] == tid)
			return;
	if (t->nthreads < MAX_TIDS)
		tids[t->nthreads] = tid;
	t->nthreads++;
}

int stream_trace_load(struct stream_trace *t, const char *log, char *err,
		      size_t len)
{
	struct trace_reader r;
	struct trace_rec rec;
	uint32_t *idx = NULL, nidx = 0, *fileof = NULL, *tids;
	size_t i, capf = 0;
	uint64_t base = 0;
	int ret, kind, fi;

	memset(t, 0, sizeof(*t));
	t->cur = -1;
	tids = calloc(MAX_TIDS, sizeof(*tids));
	if (!tids)
		return -ENOMEM;
	ret = trace_open(&r, log);
	if (ret) {
		snprintf(err, len, "%s", r.err);
		free(tids);
		return ret;
	}
	while ((ret = trace_next(&r, &rec)) == 1) {
		struct trace_op op = { 0 };

		kind = replay_kind(&rec);
		if (kind < 0)
			continue;
		if (rec.result < 0) {
			t->skipped_failed++;
			continue;
		}
		op.kind = (uint16_t)kind;
		op.line = (uint32_t)r.line;
		if (!IO_IS_FLUSH(kind)) {
			if (rec.result == 0) {
				t->skipped_empty++;
				continue;
			}
			if (rec.off == TRACE_NONE || rec.off < 0) {
				snprintf(err, len, "%s: line %lu: a %s without an offset cannot be replayed",
					 log, r.line, io_kind_name(kind));
				ret = -EINVAL;
				goto out;
			}
			if (rec.result > (int64_t)TRACE_MAX_IO) {
				snprintf(err, len, "%s: line %lu: a %s of %lld bytes: a replay moves at most %u bytes per operation",
					 log, r.line, io_kind_name(kind),
					 (long long)rec.result, TRACE_MAX_IO);
				ret = -EINVAL;
				goto out;
			}
			fi = map_file(t, &r, rec.file, &idx, &nidx);
			if (fi < 0) {
				ret = fi;
				goto out;
			}
			op.off = (uint64_t)rec.off;
			op.len = (uint32_t)rec.result;
			if (op.off + op.len > t->files[fi].extent)
				t->files[fi].extent = op.off + op.len;
			if (op.len > t->maxlen)
				t->maxlen = op.len;
			if (t->n >= capf) {
				uint32_t *x;

				capf = capf ? 2 * capf : 4096;
				x = realloc(fileof, capf * sizeof(*x));
				if (!x) {
					ret = -ENOMEM;
					goto out;
				}
				fileof = x;
			}
			fileof[t->n] = (uint32_t)fi;
		}
		count_thread(t, tids, rec.tid);
		t->count[kind]++;
		t->bytes[kind] += op.len;
		ret = push_op(t, &op);
		if (ret)
			goto out;
	}
	if (ret < 0) {
		snprintf(err, len, "%s", r.err);
		goto out;
	}
	/* the map: each file's slot, 1 MiB-aligned, in order of first use */
	for (i = 0; i < t->nfiles; i++) {
		t->files[i].base = base;
		base += round_up(t->files[i].extent ? t->files[i].extent : 1,
				 TRACE_SLOT_ALIGN);
	}
	t->total = base;
	for (i = 0; i < t->n; i++)
		if (!IO_IS_FLUSH(t->ops[i].kind))
			t->ops[i].off += t->files[fileof[i]].base;
	ret = 0;
out:
	if (ret && ret != -ENOMEM && !err[0])
		snprintf(err, len, "%s: %s", log, strerror(-ret));
	if (ret == -ENOMEM)
		snprintf(err, len, "%s: out of memory loading the log", log);
	trace_close(&r);
	free(idx);
	free(fileof);
	free(tids);
	return ret;
}

uint64_t stream_trace_align(struct stream_trace *t, unsigned sector, bool fix,
			    uint32_t *first_line)
{
	uint64_t n = 0, lo, hi;
	size_t i;

	for (i = 0; i < t->n; i++) {
		struct trace_op *o = &t->ops[i];

		if (IO_IS_FLUSH(o->kind) ||
		    (o->off % sector == 0 && o->len % sector == 0))
			continue;
		if (!n++ && first_line)
			*first_line = o->line;
		if (!fix)
			continue;
		lo = o->off / sector * sector;
		hi = round_up(o->off + o->len, sector);
		o->off = lo;
		o->len = (uint32_t)(hi - lo);
		if (o->len > t->maxlen)
			t->maxlen = o->len;
	}
	if (fix)
		t->aligned = n;
	return n;
}

int stream_trace_group(struct stream_trace *t)
{
	struct trace_op *o;
	size_t i, at[IO_KINDS] = { 0 }, sum = 0;
	int k;

	o = malloc((t->n ? t->n : 1) * sizeof(*o));
	if (!o)
		return -ENOMEM;
	for (k = 0; k < IO_KINDS; k++) {
		at[k] = sum;
		sum += t->count[k];
	}
	for (i = 0; i < t->n; i++)
		o[at[t->ops[i].kind]++] = t->ops[i];
	free(t->ops);
	t->ops = o;
	t->cap = t->n;
	t->grouped = true;
	return 0;
}

static bool trace_next_op(struct io_stream *s, struct io_req *r)
{
	struct stream_trace *t = s->trace;
	const struct trace_op *o;

	if (t->pos == t->n) {
		if (t->grouped && t->cur >= 0) {
			t->group_t1[t->cur] = clock_ns();
			t->cur = -1;
		}
		return false;
	}
	o = &t->ops[t->pos++];
	if (t->grouped && o->kind != t->cur) {
		uint64_t now = clock_ns();

		if (t->cur >= 0)
			t->group_t1[t->cur] = now;
		t->cur = o->kind;
		t->group_t0[t->cur] = now;
	}
	r->off = o->off;
	r->len = o->len;
	r->kind = o->kind;
	return true;
}

static void trace_reset_counts(struct io_stream *s)
{
	(void)s;	/* a replay has no warm-up: nothing counted here */
}

const struct stream_ops stream_trace_ops = {
	.name = "trace",
	.next = trace_next_op,
	.reset_counts = trace_reset_counts,
};

void stream_trace_init(struct io_stream *s, struct stream_trace *t)
{
	memset(s, 0, sizeof(*s));
	s->ops = &stream_trace_ops;
	s->trace = t;
	s->limited = true;	/* every I/O of the log is wanted */
	t->pos = 0;
	t->cur = -1;
}

void stream_trace_free(struct stream_trace *t)
{
	uint32_t i;

	for (i = 0; i < t->nfiles; i++)
		free(t->files[i].path);
	free(t->files);
	free(t->ops);
	memset(t, 0, sizeof(*t));
}
