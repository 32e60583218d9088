/* trace_stats.c - see trace_stats.h. */
#include "trace/trace_stats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/memory.h"
#include "trace/trace_log.h"

/* A set of process or thread ids (open addressing, 0 is empty). */
struct id_set {
	uint32_t *v;
	uint32_t cap, n;
};

/* 0, -E2BIG (the memory budget, *mem) or -ENOMEM. */
static int id_add(struct id_set *s, uint32_t id, uint64_t *mem)
{
	uint32_t k, i, cap;
	uint32_t *v;

	if ((s->n + 1) * 2 > s->cap) {
		cap = s->cap ? s->cap * 2 : 64;
		if (!memory_take_held(mem, (uint64_t)(cap - s->cap) * sizeof(*v)))
			return -E2BIG;
		v = calloc(cap, sizeof(*v));
		if (!v) {
			memory_give_held(mem, (uint64_t)(cap - s->cap) * sizeof(*v));
			return -ENOMEM;
		}
		for (i = 0; i < s->cap; i++) {
			if (!s->v[i])
				continue;
			for (k = (s->v[i] * 2654435761u) & (cap - 1); v[k];
			     k = (k + 1) & (cap - 1))
				;
			v[k] = s->v[i];
		}
		free(s->v);
		s->v = v;
		s->cap = cap;
	}
	for (k = (id * 2654435761u) & (s->cap - 1); s->v[k];
	     k = (k + 1) & (s->cap - 1))
		if (s->v[k] == id)
			return 0;
	s->v[k] = id;
	s->n++;
	return 0;
}

static int add_file(struct trace_stats *st, uint32_t id)
{
	struct trace_file_stats *f;
	uint32_t n;
	int err;

	if (id < st->nfiles)
		return 0;
	n = id + 1;
	f = memory_realloc(st->files, st->nfiles * sizeof(*f), n * sizeof(*f),
			   &st->mem, &err);
	if (!f)
		return err;
	memset(f + st->nfiles, 0, (n - st->nfiles) * sizeof(*f));
	st->files = f;
	st->nfiles = n;
	return 0;
}

static void count(struct trace_stats *st, const struct trace_rec *rec)
{
	struct trace_type_stats *t = &st->type[rec->type];
	struct trace_file_stats *f = &st->files[rec->file];
	uint64_t moved = rec->result > 0 ? (uint64_t)rec->result : 0;

	if (!st->ops || rec->t_ns < st->first_ns)
		st->first_ns = rec->t_ns;
	if (rec->t_ns + rec->dur_ns > st->end_ns)
		st->end_ns = rec->t_ns + rec->dur_ns;
	st->ops++;
	st->calls[rec->call]++;
	t->count++;
	t->dur_ns += rec->dur_ns;
	if (rec->result < 0)
		t->failed++;
	f->ops++;
	switch (rec->type) {
	case TT_READ:
		t->bytes += moved;
		st->bytes += moved;
		f->reads++;
		f->bytes_read += moved;
		break;
	case TT_WRITE:
		t->bytes += moved;
		st->bytes += moved;
		f->writes++;
		f->bytes_written += moved;
		break;
	case TT_FSYNC:
	case TT_FDATASYNC:
	case TT_SYNC_RANGE:
		f->syncs++;
		break;
	default:
		break;
	}
}

/* Every record of r (opened, ret its trace_open's result) into st. */
static int load(struct trace_reader *r, int ret, const char *path,
		struct trace_stats *st, char *err, size_t len)
{
	struct id_set pids = { 0 }, tids = { 0 };
	struct trace_rec rec;
	uint64_t ids_mem = 0;
	uint32_t i;

	while (!ret && (ret = trace_next(r, &rec)) > 0) {
		ret = add_file(st, rec.file);
		if (!ret)
			ret = id_add(&pids, rec.pid, &ids_mem);
		if (!ret)	/* thread ids are unique system-wide */
			ret = id_add(&tids, rec.tid, &ids_mem);
		if (ret == -E2BIG)
			memory_refuse_log(r->err, sizeof(r->err), path, r->line,
					  "its tables of files, processes and threads");
		else if (ret)
			snprintf(r->err, sizeof(r->err), "%s: out of memory",
				 path);
		if (ret)
			break;
		count(st, &rec);
	}
	free(pids.v);
	free(tids.v);
	memory_give(ids_mem);
	if (ret < 0) {
		snprintf(err, len, "%s", r->err);
		trace_close(r);
		trace_stats_free(st);
		return ret;
	}
	st->processes = pids.n;
	st->threads = tids.n;
	st->version = r->version;
	st->format = trace_format_name(r);
	st->log = strdup(path);
	st->command = r->command;
	r->command = NULL;
	for (i = 0; i < st->nfiles && i < r->nnames; i++) {
		st->files[i].path = r->names[i];
		r->names[i] = NULL;
	}
	st->status = r->status;
	st->status_text = r->status_text;
	r->status_text = NULL;
	st->damaged = r->damaged;
	st->mem += r->mem;	/* the names are st's now */
	r->mem = 0;
	st->nwarnings = r->nwarnings;
	st->warnings = calloc(TRACE_MAX_WARNINGS, sizeof(char *));
	for (i = 0; st->warnings && i < r->nwarnings && i < TRACE_MAX_WARNINGS;
	     i++) {
		st->warnings[i] = r->warnings[i];
		r->warnings[i] = NULL;
		st->nkept++;
	}
	trace_close(r);
	return 0;
}

int trace_stats_load(const char *path, struct trace_stats *st, char *err,
		     size_t len)
{
	struct trace_reader r;

	memset(st, 0, sizeof(*st));
	return load(&r, trace_open(&r, path), path, st, err, len);
}

void trace_stats_report_fd(const char *mode, const char *log, int fd,
			   enum out_format fmt)
{
	char err[PATH_MAX + 1200];
	struct trace_reader r;
	struct trace_stats st;
	int ret;

	memset(&st, 0, sizeof(st));
	if (fd < 0) {
		fprintf(stderr, "rebench: %s: %s: cannot read the log back through rebench's own descriptor of it (reopened through /proc/self/fd: is /proc mounted?); its statistics are left out\n",
			mode, log);
		return;
	}
	ret = load(&r, trace_open_fd(&r, fd, log), log, &st, err, sizeof(err));
	close(fd);
	if (ret) {
		fprintf(stderr, "rebench: %s: %s\n", mode, err);
		return;
	}
	trace_stats_print(stderr, &st, fmt);
	trace_stats_free(&st);
}

void trace_stats_free(struct trace_stats *st)
{
	uint32_t i;

	for (i = 0; i < st->nfiles; i++)
		free(st->files[i].path);
	for (i = 0; i < st->nkept; i++)
		free(st->warnings[i]);
	free(st->warnings);
	free(st->files);
	free(st->log);
	free(st->command);
	free(st->status_text);
	memory_give(st->mem);
	memset(st, 0, sizeof(*st));
}
