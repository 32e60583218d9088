/* fileset_run.c - a workload over many files while it runs (see
 * fileset.h): the files created, filled and opened (fileset_prepare), then
 * each thread's stream wrapped to pick the file of every I/O and the
 * engine wrapped to count each completed I/O for its file
 * (fileset_attach).  The per-I/O code (files_next, files_sync_io, the
 * queue and reap hooks) is here, in one file, as it was.
 */
#include "core/fileset_priv.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "core/workload.h"
#include "engines/sysio.h"
#include "gen/stream.h"

/* --------------------------------------------------------------- preparing */

int fileset_prepare(struct workload *wl)
{
	struct fileset *fs = wl->files;
	const struct spec *s = &wl->spec;
	uint64_t made = 0, filled = 0, bytes;
	unsigned i, r, nmade = 0, nfilled = 0;
	char label[PATH_MAX + 64], a[32];
	int ret;

	for (i = 0; i < fs->n; i++) {
		struct fileset_file *f = &fs->f[i];

		if (!f->exists) {
			ret = workload_lay_out_path(wl, f->path, false, 0,
						    fs->size, &bytes);
			if (ret)
				return ret;
			f->exists = f->created = true;
			f->allocated = fs->size;
			made += bytes;
			nmade++;
		} else if (f->holes) {
			ret = workload_lay_out_path(wl, f->path, true,
						    s->region_start,
						    s->region_start + s->region_len,
						    &bytes);
			if (ret)
				return ret;
			f->holes = false;
			filled += bytes;
			nfilled++;
		}
	}
	fileset_label(wl, label, sizeof(label));
	if (nmade == fs->n)
		workload_warn(wl, "created %s and laid out %s of non-zero data before measuring",
			      label, fmt_size_human(a, sizeof(a), made));
	else if (nmade)
		workload_warn(wl, "created %u of the %s and laid out %s of non-zero data before measuring",
			      nmade, label, fmt_size_human(a, sizeof(a), made));
	if (nfilled)
		workload_warn(wl, "%u of the %s had holes in the region: filled %s with non-zero data before measuring, since reading holes measures nothing",
			      nfilled, label, fmt_size_human(a, sizeof(a), filled));
	wl->tgt.exists = true;
	wl->tgt.created = nmade > 0;
	wl->tgt.allocated = fs->f[0].allocated;
	fs->rows = s->local_fd ? (unsigned)s->threads : 1;
	fs->fds = malloc((size_t)fs->rows * fs->n * sizeof(*fs->fds));
	if (!fs->fds) {
		spec_error(&wl->spec, "no memory for the descriptors of %u files", fs->n);
		return -ENOMEM;
	}
	for (i = 0; i < fs->rows * fs->n; i++)
		fs->fds[i] = -1;	/* nothing to close yet */
	for (r = 0; r < fs->rows; r++)
		for (i = 0; i < fs->n; i++) {
			ret = workload_open_path(wl, fs->f[i].path,
						 &fs->fds[(size_t)r * fs->n + i]);
			if (ret)
				return ret;
		}
	return 0;
}

int fileset_thread_fd(const struct workload *wl, unsigned i)
{
	const struct fileset *fs = wl->files;

	return fs->fds[(size_t)(fs->rows > 1 ? i : 0) * fs->n];
}

/* --------------------------------------------------------------- the run */

static inline struct fileset_thread *of_stream(struct io_stream *s)
{
	return ((struct worker *)((char *)s - offsetof(struct worker, stream)))->files;
}

static inline struct fileset_thread *of_io(struct io_ctx *io)
{
	return ((struct worker *)((char *)io - offsetof(struct worker, io)))->files;
}

static inline uint32_t pick(struct fileset_thread *t)
{
	uint64_t rank;
	uint32_t f;

	switch (t->service) {
	case FSERV_RANDOM:
		return (uint32_t)prng_below(&t->rng, t->n);
	case FSERV_ZIPF:
		return (uint32_t)dist_next(&t->fs->dist, &t->rng, &rank);
	default:
		f = t->rr;
		t->rr = f + 1 == t->n ? 0 : f + 1;
		return f;
	}
}

/* The synthetic stream's I/O, in the file picked, at that file's position
 * when sequential; the thread's descriptor set to the file's.  A plain
 * stream's I/O is drawn here, as synth_next() would (its one kind and
 * size, the byte budget, the pattern's offset). */
static bool files_next(struct io_stream *s, struct io_req *r)
{
	struct fileset_thread *t = of_stream(s);
	uint32_t f;

	if (t->plain) {
		if (s->limited) {
			if (!s->budget)
				return false;
			s->budget = s->budget > s->len ? s->budget - s->len : 0;
		}
		f = pick(t);
		r->kind = s->kinds[0];
		r->len = s->len;
		r->span = 0;
		if (t->uniform) {
			r->off = pattern_uniform_next(&s->pat, &s->rng);
		} else if (t->seq) {
			s->pat.next = t->pos[f];
			r->off = pattern_next(&s->pat, &s->rng);
			t->pos[f] = s->pat.next;
		} else {
			r->off = pattern_next(&s->pat, &s->rng);
		}
		t->cur = f;
		t->w->io.fd = t->fds[f];
		return true;
	}
	f = pick(t);
	if (t->seq) {
		if (t->contiguous)
			s->cursor = t->pos[f];
		else
			s->pat.next = t->pos[f];
	}
	if (!stream_synth.next(s, r))
		return false;
	if (t->seq)
		t->pos[f] = t->contiguous ? s->cursor : s->pat.next;
	t->cur = f;
	t->w->io.fd = t->fds[f];
	return true;
}

static void files_reset_counts(struct io_stream *s)
{
	struct fileset_thread *t = of_stream(s);

	stream_synth.reset_counts(s);
	memset(t->count, 0, t->n * sizeof(*t->count));
}

static const struct stream_ops files_stream = {
	.name = "synthetic, many files",
	.next = files_next,
	.reset_counts = files_reset_counts,
};

static inline void count_io(struct file_count *c, int kind, uint64_t len)
{
	if (kind == IO_READ) {
		c->reads++;
		c->bytes_read += len;
	} else if (kind == IO_WRITE) {
		c->writes++;
		c->bytes_written += len;
	} else if (kind == IO_TRIM) {
		c->trims++;
		c->bytes_trimmed += len;
	}
}

/* The engine's own hooks, each completed I/O counted for its file. */
static ssize_t files_sync_io(struct io_ctx *io, int kind, uint64_t off,
			     size_t len)
{
	struct fileset_thread *t = of_io(io);
	ssize_t ret;

	if (t->direct && kind == IO_READ)
		ret = sys_pread(io->fd, io->buf, len, off);
	else if (t->direct && kind == IO_WRITE)
		ret = sys_pwrite(io->fd, io->wbuf, len, off);
	else
		ret = t->sync_io(io, kind, off, len);
	if (ret == (ssize_t)len)
		count_io(&t->count[t->cur], kind, len);
	else if (!t->failed) {
		t->failed = true;
		t->fail_file = t->cur;
	}
	return ret;
}

static int files_queue(struct io_ctx *io, struct io_unit *u)
{
	struct fileset_thread *t = of_io(io);

	t->unit_file[u->idx] = t->cur;
	return t->queue(io, u);
}

static int files_reap(struct io_ctx *io, unsigned min, struct io_unit **done)
{
	struct fileset_thread *t = of_io(io);
	int n = t->reap(io, min, done), i;

	for (i = 0; i < n; i++) {
		const struct io_unit *u = done[i];

		if (u->res == (int64_t)u->len)
			count_io(&t->count[t->unit_file[u->idx]], u->kind,
				 u->len);
		else if (u->res != -ECANCELED && !t->failed) {
			t->failed = true;
			t->fail_file = t->unit_file[u->idx];
		}
	}
	return n;
}

static int attach_thread(struct workload *wl, struct fileset *fs, unsigned i)
{
	struct fileset_thread *t = &fs->threads[i];
	struct worker *w = &wl->run.workers[i];
	const struct spec *s = &wl->spec;
	uint32_t f;

	t->fs = fs;
	t->w = w;
	t->n = fs->n;
	t->fds = fs->fds + (size_t)(fs->rows > 1 ? i : 0) * fs->n;
	t->service = fs->service;
	t->rr = (uint32_t)((uint64_t)i * fs->n / s->threads);
	t->seq = s->seq;
	t->contiguous = w->stream.contiguous;
	t->plain = w->stream.plain;
	t->uniform = w->stream.plain && stream_plain_uniform(&w->stream);
	/* stateless_io()'s reads and writes, unless each carries RWF_DSYNC */
	t->direct = fs->real == &engine_stateless && !w->io.rwf_dsync;
	/* the file choice's own stream of draws, apart from the offsets' */
	prng_seed(&t->rng, s->seed ^ 0x66696c6573ULL, i);
	t->count = calloc(fs->n, sizeof(*t->count));
	if (t->seq)
		t->pos = malloc(fs->n * sizeof(*t->pos));
	if (fs->real->flags & ENGINE_ASYNC)
		t->unit_file = calloc(s->qd, sizeof(*t->unit_file));
	if (!t->count || (t->seq && !t->pos) ||
	    ((fs->real->flags & ENGINE_ASYNC) && !t->unit_file))
		return -ENOMEM;
	for (f = 0; t->seq && f < fs->n; f++)	/* each file from the start
						 * the thread has in one */
		t->pos[f] = t->contiguous ? w->stream.cursor : w->stream.pat.next;
	t->cur = t->rr;
	t->sync_io = fs->real->sync_io;
	t->queue = fs->real->queue;
	t->reap = fs->real->reap;
	w->stream.ops = &files_stream;
	w->stream.plain = false;	/* every I/O through next() */
	w->io.fd = t->fds[t->cur];
	w->files = t;
	return 0;
}

int fileset_attach(struct workload *wl)
{
	struct fileset *fs = wl->files;
	unsigned i;

	fs->nthreads = (unsigned)wl->spec.threads;
	fs->threads = calloc(fs->nthreads, sizeof(*fs->threads));
	if (!fs->threads)
		goto out_nomem;
	fs->real = wl->run.eng;
	fs->wrap = *fs->real;
	if (fs->real->sync_io)
		fs->wrap.sync_io = files_sync_io;
	if (fs->real->queue) {
		fs->wrap.queue = files_queue;
		fs->wrap.reap = files_reap;
	}
	fs->wrap.queue_plain = NULL;	/* a unit at a time, each its file */
	for (i = 0; i < fs->nthreads; i++)
		if (attach_thread(wl, fs, i))
			goto out_nomem;
	wl->run.eng = &fs->wrap;
	return 0;
out_nomem:
	spec_error(&wl->spec, "no memory for the file tables of %u threads", fs->nthreads);
	return -ENOMEM;
}

