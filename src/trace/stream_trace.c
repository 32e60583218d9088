/* stream_trace.c - see stream_trace.h.
 *
 * A timed replay waits for each operation's time on the run's stop flag
 * (a futex word, see run.c), with an absolute CLOCK_MONOTONIC deadline
 * TRACE_SPIN_NS early, then spins on the clock for the rest: a sleep
 * alone wakes tens of microseconds late, a spin alone would burn a core
 * for every gap of the log, and the futex is woken at once by a stop.
 * (delay.h's waits had not landed when this was written.)
 */
#include "trace/stream_trace.h"

#include <errno.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/memory.h"
#include "trace/trace_log.h"

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

/* 0, -E2BIG (the memory budget) or -ENOMEM. */
static int push_op(struct stream_trace *t, const struct trace_op *op)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 4096;
		struct trace_op *o;
		int err;

		o = memory_realloc(t->ops, t->cap * sizeof(*o),
				   cap * sizeof(*o), &t->mem, &err);
		if (!o)
			return err;
		t->ops = o;
		t->cap = cap;
	}
	t->ops[t->n++] = *op;
	return 0;
}

/* The reader's file ids and the map's indexes (UINT32_MAX: not mapped),
 * and the recorded threads: an open-addressing table of PID/TID keys;
 * mem, their bytes against the budget until the load ends. */
struct load_state {
	uint32_t *idx, nidx;
	uint64_t *tkey;
	uint32_t *tnum;		/* the thread's number + 1; 0: empty */
	size_t tcap;
	uint64_t mem;
};

/* Room for the reader's id in ls->idx: 0, -E2BIG or -ENOMEM. */
static int grow_idx(struct load_state *ls, uint32_t id)
{
	uint32_t n = id + 64 > 2 * ls->nidx ? id + 64 : 2 * ls->nidx, i;
	uint32_t *x;
	int err;

	if (id < ls->nidx)
		return 0;
	x = memory_realloc(ls->idx, ls->nidx * sizeof(*x), n * sizeof(*x),
			   &ls->mem, &err);
	if (!x)
		return err;
	for (i = ls->nidx; i < n; i++)
		x[i] = UINT32_MAX;
	ls->idx = x;
	ls->nidx = n;
	return 0;
}

/* The map's entry of the reader's file id, added on first use: its
 * index, or -E2BIG (the memory budget) or -ENOMEM. */
static int map_file(struct stream_trace *t, const struct trace_reader *r,
		    struct load_state *ls, uint32_t id)
{
	const char *path = trace_file_name(r, id);
	struct trace_map_file *f;
	int ret = grow_idx(ls, id);

	if (ret)
		return ret;
	if (ls->idx[id] != UINT32_MAX)
		return (int)ls->idx[id];
	if (t->nfiles == t->files_cap) {
		uint32_t cap = t->files_cap ? 2 * t->files_cap : 16;
		int err;

		f = memory_realloc(t->files, t->files_cap * sizeof(*f),
				   cap * sizeof(*f), &t->mem, &err);
		if (!f)
			return err;
		t->files = f;
		t->files_cap = cap;
	}
	f = t->files + t->nfiles;
	memset(f, 0, sizeof(*f));
	if (!memory_take_held(&t->mem, strlen(path) + 1))
		return -E2BIG;
	f->path = strdup(path);
	if (!f->path)
		return -ENOMEM;
	ls->idx[id] = t->nfiles;
	return (int)t->nfiles++;
}

static size_t thread_slot(const struct load_state *ls, uint64_t key)
{
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 20) &
		   (ls->tcap - 1);

	while (ls->tnum[i] && ls->tkey[i] != key)
		i = (i + 1) & (ls->tcap - 1);
	return i;
}

/* The number of a recorded thread, in order of first use: 0.., or
 * -E2BIG (the memory budget) or -ENOMEM.  The table stays at most half
 * full. */
static int thread_of(struct stream_trace *t, struct load_state *ls,
		     uint32_t pid, uint32_t tid)
{
	uint64_t key = (uint64_t)pid << 32 | tid;
	size_t i;

	if (2 * (t->nthreads + 1) > ls->tcap) {
		struct load_state bigger = { .tcap = ls->tcap ? 2 * ls->tcap : 64 };
		const uint64_t slot = sizeof(*bigger.tkey) + sizeof(*bigger.tnum);
		size_t k;

		if (!memory_take_held(&ls->mem, bigger.tcap * slot))
			return -E2BIG;
		bigger.tkey = calloc(bigger.tcap, sizeof(*bigger.tkey));
		bigger.tnum = calloc(bigger.tcap, sizeof(*bigger.tnum));
		if (!bigger.tkey || !bigger.tnum) {
			free(bigger.tkey);
			free(bigger.tnum);
			return -ENOMEM;
		}
		for (k = 0; k < ls->tcap; k++) {
			if (!ls->tnum[k])
				continue;
			i = thread_slot(&bigger, ls->tkey[k]);
			bigger.tkey[i] = ls->tkey[k];
			bigger.tnum[i] = ls->tnum[k];
		}
		free(ls->tkey);
		free(ls->tnum);
		memory_give_held(&ls->mem, ls->tcap * slot);
		ls->tkey = bigger.tkey;
		ls->tnum = bigger.tnum;
		ls->tcap = bigger.tcap;
	}
	i = thread_slot(ls, key);
	if (!ls->tnum[i]) {
		ls->tkey[i] = key;
		ls->tnum[i] = ++t->nthreads;
	}
	return (int)(ls->tnum[i] - 1 < UINT16_MAX ? ls->tnum[i] - 1 :
						    UINT16_MAX);
}

/* One record as a kept operation in *op: 1, 0 when it is skipped (and
 * counted), or -errno with err set. */
static int take_record(struct stream_trace *t, const struct trace_reader *r,
		       const struct trace_rec *rec, struct load_state *ls,
		       struct trace_op *op, const char *log, char *err,
		       size_t len)
{
	int kind = replay_kind(rec), fi;
	uint64_t end;

	if (kind < 0)
		return 0;
	if (rec->result < 0) {
		t->skipped_failed++;
		return 0;
	}
	memset(op, 0, sizeof(*op));
	op->kind = (uint16_t)kind;
	op->line = (uint32_t)r->line;
	op->at_ns = rec->t_ns;
	if (IO_IS_FLUSH(kind)) {
		/* the reader's id for now: its map index is known at the end */
		op->file = rec->file;
		fi = grow_idx(ls, rec->file);
		return fi ? fi : 1;
	}
	if (rec->result == 0) {
		t->skipped_empty++;
		return 0;
	}
	if (rec->off == TRACE_NONE || rec->off < 0) {
		snprintf(err, len, "%s: line %lu: a %s without an offset cannot be replayed",
			 log, r->line, io_kind_name(kind));
		return -EINVAL;
	}
	if (rec->result > (int64_t)TRACE_MAX_IO) {
		snprintf(err, len, "%s: line %lu: a %s of %lld bytes: a replay moves at most %u bytes per operation",
			 log, r->line, io_kind_name(kind),
			 (long long)rec->result, TRACE_MAX_IO);
		return -EINVAL;
	}
	if (!trace_add((uint64_t)rec->off, (uint64_t)rec->result,
		       TRACE_MAX_MAP, &end)) {
		snprintf(err, len, "%s: line %lu: a %s of %lld bytes at offset %lld reaches beyond byte %llu (1 EiB), the most a replay places, and beyond any target; drop that file's operations from the log to replay the others",
			 log, r->line, io_kind_name(kind),
			 (long long)rec->result, (long long)rec->off,
			 (unsigned long long)TRACE_MAX_MAP);
		return -E2BIG;
	}
	fi = map_file(t, r, ls, rec->file);
	if (fi < 0)
		return fi;
	op->file = (uint32_t)fi;
	op->off = (uint64_t)rec->off;
	op->len = (uint32_t)rec->result;
	if (end > t->files[fi].extent)
		t->files[fi].extent = end;
	if (op->len > t->maxlen)
		t->maxlen = op->len;
	return 1;
}

/* After the last record: flushes get their file's map index, times start
 * at the first kept operation, the digest is taken, and the table of
 * operations gives back the room it did not use. */
static void finish_load(struct stream_trace *t, const struct load_state *ls)
{
	uint64_t t0 = UINT64_MAX;
	struct trace_op *o, *smaller;
	size_t i;

	for (i = 0; i < t->n; i++) {
		o = &t->ops[i];

		if (IO_IS_FLUSH(o->kind))
			o->file = ls->idx[o->file] == UINT32_MAX ?
				  TRACE_NO_FILE : ls->idx[o->file];
		if (o->at_ns < t0)
			t0 = o->at_ns;
	}
	for (i = 0; i < t->n; i++) {
		t->ops[i].at_ns -= t0;
		if (t->ops[i].at_ns)
			t->has_times = true;
	}
	t->digest = stream_trace_digest(t->ops, t->n);
	if (!t->n || t->n == t->cap)
		return;
	smaller = realloc(t->ops, t->n * sizeof(*smaller));
	if (!smaller)
		return;		/* it keeps its room */
	t->ops = smaller;
	memory_give_held(&t->mem, (t->cap - t->n) * sizeof(*smaller));
	t->cap = t->n;
}

int stream_trace_load(struct stream_trace *t, const char *log, char *err,
		      size_t len)
{
	struct load_state ls = { 0 };
	struct trace_reader r;
	struct trace_rec rec;
	struct trace_op op;
	int ret, th;

	memset(t, 0, sizeof(*t));
	err[0] = '\0';
	ret = trace_open(&r, log);
	if (ret) {
		snprintf(err, len, "%s", r.err);
		return ret;
	}
	t->format = trace_format_name(&r);
	while ((ret = trace_next(&r, &rec)) == 1) {
		ret = take_record(t, &r, &rec, &ls, &op, log, err, len);
		if (ret <= 0) {
			if (ret < 0)
				goto out;
			continue;
		}
		th = thread_of(t, &ls, rec.pid, rec.tid);
		if (th < 0) {
			ret = th;
			goto out;
		}
		op.thread = (uint16_t)th;
		t->count[op.kind]++;
		if (!trace_add(t->bytes[op.kind], op.len, UINT64_MAX,
			       &t->bytes[op.kind])) {
			snprintf(err, len, "%s: line %lu: the log's %ss move more than 2^64 bytes",
				 log, r.line, io_kind_name(op.kind));
			ret = -E2BIG;
			goto out;
		}
		ret = push_op(t, &op);
		if (ret)
			goto out;
	}
	if (ret < 0) {
		snprintf(err, len, "%s", r.err);
		goto out;
	}
	finish_load(t, &ls);
	/* a log not known whole: said once it is loaded */
	trace_say_status("--replay", log, &r, "the replay");
	ret = 0;
out:
	if (ret == -ENOMEM)
		snprintf(err, len, "%s: out of memory loading the log", log);
	else if (ret == -E2BIG && !err[0])
		memory_refuse_log(err, len, log, r.line,
				  "its operations and their tables");
	else if (ret && !err[0])
		snprintf(err, len, "%s: %s", log, strerror(-ret));
	trace_close(&r);
	free(ls.idx);
	free(ls.tkey);
	free(ls.tnum);
	memory_give_held(&ls.mem, ls.mem);
	return ret;
}

static uint64_t fnv_bytes(uint64_t h, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint64_t stream_trace_digest(const struct trace_op *ops, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		h = fnv_bytes(h, ops[i].kind, 1);
		h = fnv_bytes(h, ops[i].file, 4);
		h = fnv_bytes(h, ops[i].off, 8);
		h = fnv_bytes(h, ops[i].len, 4);
	}
	return h;
}

int stream_trace_map_slots(struct stream_trace *t, char *err, size_t len)
{
	struct trace_map_file *f;
	uint64_t base = 0, slot;
	size_t i;

	for (i = 0; i < t->nfiles; i++) {
		f = &t->files[i];
		/* an extent is at most TRACE_MAX_MAP, a multiple of the
		 * alignment: rounding it up cannot pass it */
		slot = round_up(f->extent ? f->extent : 1, TRACE_SLOT_ALIGN);
		if (!trace_add(base, slot, TRACE_MAX_MAP, &f->end)) {
			snprintf(err, len, "the file map would pass byte %llu (1 EiB), the most a replay places, and beyond any target: its first %zu files take %llu bytes, and the slot of the next, %s, %llu more; drop some files' operations from the log to replay the others",
				 (unsigned long long)TRACE_MAX_MAP, i,
				 (unsigned long long)base, f->path,
				 (unsigned long long)slot);
			return -E2BIG;
		}
		f->base = base;
		base = f->end;
	}
	t->total = base;
	/* each offset ends within its extent, so within end: no wrap */
	for (i = 0; i < t->n; i++)
		if (!IO_IS_FLUSH(t->ops[i].kind))
			t->ops[i].off += t->files[t->ops[i].file].base;
	return 0;
}

const struct trace_op *stream_trace_unplaced(const struct stream_trace *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!trace_op_placed(t, &t->ops[i]))
			return &t->ops[i];
	return NULL;
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

/* The key a worker's share is ordered by: the type when grouped, else the
 * recorded thread. */
static unsigned arrange_key(const struct trace_op *o, bool grouped)
{
	return grouped ? o->kind : o->thread;
}

int stream_trace_arrange(struct stream_trace *t, bool grouped)
{
	uint32_t nw = grouped ? 1 : (t->nthreads ? t->nthreads : 1), w;
	struct trace_op *o;
	size_t *at, i, sum = 0;
	bool in_order = t->n > 0;
	int k;

	if (!grouped && nw > TRACE_MAX_WORKERS)
		return -E2BIG;
	at = calloc((size_t)nw + 1, sizeof(*at));
	if (!at)
		return -ENOMEM;
	for (i = 1; i < t->n && in_order; i++)
		in_order = arrange_key(&t->ops[i - 1], grouped) <=
			   arrange_key(&t->ops[i], grouped);
	if (in_order) {
		/* one thread, or one type: the log's order is the
		 * workers', and no copy is needed */
		o = t->ops;
		goto out_counts;
	}
	/* the copy, while the loaded table is still held */
	if (!memory_take_held(&t->mem, (t->n ? t->n : 1) * sizeof(*o))) {
		free(at);
		return -EDQUOT;
	}
	o = malloc((t->n ? t->n : 1) * sizeof(*o));
	if (!o) {
		free(at);
		return -ENOMEM;
	}
	if (grouped) {
		size_t pos[IO_KINDS];

		for (k = 0; k < IO_KINDS; k++) {
			pos[k] = sum;
			sum += t->count[k];
		}
		for (i = 0; i < t->n; i++)
			o[pos[t->ops[i].kind]++] = t->ops[i];
	} else {
		/* a stable counting sort by thread */
		for (i = 0; i < t->n; i++)
			at[t->ops[i].thread + 1]++;
		for (w = 0; w < nw; w++)
			at[w + 1] += at[w];
		for (i = 0; i < t->n; i++)
			o[at[t->ops[i].thread]++] = t->ops[i];
		memset(at, 0, ((size_t)nw + 1) * sizeof(*at));
	}
	free(t->ops);
	memory_give_held(&t->mem, t->cap * sizeof(*o));
	t->ops = o;
	t->cap = t->n ? t->n : 1;
out_counts:
	/* worker w's share starts where the ones before it end */
	if (grouped) {
		at[1] = t->n;
	} else {
		for (i = 0; i < t->n; i++)
			at[t->ops[i].thread + 1]++;
		for (w = 0; w < nw; w++)
			at[w + 1] += at[w];
	}
	free(t->wbegin);
	t->wbegin = at;
	t->nworkers = nw;
	t->grouped = grouped;
	return 0;
}

void stream_trace_pace(struct stream_trace *t, double speed)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		t->ops[i].at_ns = (uint64_t)((double)t->ops[i].at_ns / speed + 0.5);
}

/* Timed: wait until at (see the head of this file), then count how late
 * the operation is; false when the run was stopped meanwhile. */
static bool wait_until(struct trace_cursor *c, uint64_t at)
{
	uint64_t now = clock_ns(), late;

	while (now < at) {
		if (atomic_load_explicit(c->stop, memory_order_relaxed))
			return false;
		if (at - now > TRACE_SPIN_NS) {
			uint64_t wake = at - TRACE_SPIN_NS;
			struct timespec ts = {
				.tv_sec = (time_t)(wake / 1000000000ULL),
				.tv_nsec = (long)(wake % 1000000000ULL),
			};

			syscall(SYS_futex, c->stop,
				FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, 0, &ts,
				NULL, FUTEX_BITSET_MATCH_ANY);
		}
		now = clock_ns();
	}
	late = now - at;
	c->issued++;
	c->late_sum_ns += late;
	if (late > c->late_max_ns)
		c->late_max_ns = late;
	if (late > TRACE_LATE_NS)
		c->late++;
	return true;
}

static bool trace_next_op(struct io_stream *s, struct io_req *r)
{
	struct trace_cursor *c = &s->tc;
	const struct trace_op *o = c->next;

	if (o == c->end) {
		if (c->kind >= 0) {	/* grouped: the last type ended */
			c->group_t1[c->kind] = clock_ns();
			c->kind = -1;
		}
		return false;
	}
	/* never outside the place the map and the question gave its file:
	 * c->next stays on it for trace_describe() */
	if (!trace_op_placed(c->log, o)) {
		s->error = -ERANGE;
		return false;
	}
	if (c->timed && !wait_until(c, c->start_ns + o->at_ns))
		return false;
	if (c->log->grouped && o->kind != c->kind) {
		uint64_t now = clock_ns();

		if (c->kind >= 0)
			c->group_t1[c->kind] = now;
		c->kind = o->kind;
		c->group_t0[c->kind] = now;
	}
	if (c->fds)
		*c->fd = c->fds[o->file == TRACE_NO_FILE ? c->nofile : o->file];
	c->next = o + 1;
	r->off = o->off;
	r->len = o->len;
	r->kind = o->kind;
	r->span = 0;	/* a replay issues no sync_file_range of its own */
	return true;
}

/* What ended the stream with s->error: the operation c->next points at. */
static void trace_describe(const struct io_stream *s, char *buf, size_t len)
{
	const struct trace_cursor *c = &s->tc;
	const struct trace_op *o = c->next;
	const struct stream_trace *t = c->log;

	if (o->file >= t->nfiles) {
		snprintf(buf, len, "line %u of the log, a %s, has no file in the replay's map; it was not issued",
			 o->line, io_kind_name(o->kind));
		return;
	}
	snprintf(buf, len, "line %u of the log, a %s of %u bytes at byte %llu of the target, is outside the place of its file %s (bytes %llu to %llu), which the file map and the question gave it; it was not issued",
		 o->line, io_kind_name(o->kind), o->len,
		 (unsigned long long)o->off, t->files[o->file].path,
		 (unsigned long long)t->files[o->file].base,
		 (unsigned long long)t->files[o->file].end);
}

static void trace_reset_counts(struct io_stream *s)
{
	(void)s;	/* a replay has no warm-up: nothing counted here */
}

static void trace_start(struct io_stream *s, uint64_t start_ns,
			const atomic_int *stop)
{
	s->tc.start_ns = start_ns;
	s->tc.stop = stop;
	/* a timed wait wakes within its spin, not the default 50 us late */
	if (s->tc.timed)
		prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
}

const struct stream_ops stream_trace_ops = {
	.name = "trace",
	.next = trace_next_op,
	.reset_counts = trace_reset_counts,
	.start = trace_start,
	.describe = trace_describe,
};

void stream_trace_init(struct io_stream *s, const struct stream_trace *t,
		       uint32_t worker, bool timed)
{
	static const atomic_int never;	/* until start() gives the run's */

	memset(s, 0, sizeof(*s));
	s->ops = &stream_trace_ops;
	s->limited = true;	/* every I/O of the log is wanted */
	s->tc.log = t;
	s->tc.next = t->ops + t->wbegin[worker];
	s->tc.end = t->ops + t->wbegin[worker + 1];
	s->tc.timed = timed;
	s->tc.stop = &never;
	s->tc.kind = -1;
}

void stream_trace_use_files(struct io_stream *s, int *fd, const int *fds,
			    uint32_t nofile)
{
	s->tc.fd = fd;
	s->tc.fds = fds;
	s->tc.nofile = nofile;
}

int stream_trace_extents(struct stream_trace *t, char *err, size_t len)
{
	struct trace_map_file *f;
	size_t i;

	for (i = 0; i < t->nfiles; i++)
		t->files[i].extent = 0;
	t->total = 0;
	for (i = 0; i < t->n; i++) {
		const struct trace_op *o = &t->ops[i];

		if (IO_IS_FLUSH(o->kind))
			continue;
		/* off + len: at most TRACE_MAX_MAP, widened to a sector */
		f = &t->files[o->file];
		if (o->off + o->len > f->extent)
			f->extent = o->off + o->len;
	}
	for (i = 0; i < t->nfiles; i++) {
		f = &t->files[i];
		f->base = 0;
		f->end = f->extent;
		if (!trace_add(t->total, f->extent, TRACE_MAX_MAP, &t->total)) {
			snprintf(err, len, "the recorded files would take more than %llu bytes (1 EiB) together, the most a replay places: its first %zu files take %llu bytes, and %s %llu more; drop some files' operations from the log to replay the others",
				 (unsigned long long)TRACE_MAX_MAP, i,
				 (unsigned long long)t->total, f->path,
				 (unsigned long long)f->extent);
			return -E2BIG;
		}
	}
	return 0;
}

void stream_trace_free(struct stream_trace *t)
{
	uint32_t i;

	for (i = 0; i < t->nfiles; i++)
		free(t->files[i].path);
	free(t->files);
	free(t->ops);
	free(t->wbegin);
	memory_give(t->mem);
	memset(t, 0, sizeof(*t));
}
