/* trace_stats.c - see trace_stats.h. */
#include "trace/trace_stats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/json.h"
#include "core/memory.h"
#include "report/version.h"
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
			   enum trace_stats_format fmt)
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

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static bool moves_data(int type)
{
	return type == TT_READ || type == TT_WRITE;
}

/* Average bytes per successful read or write; false when there is none. */
static bool avg_bytes(const struct trace_type_stats *t, int type, double *v)
{
	uint64_t ok = t->count - t->failed;

	if (!moves_data(type) || !ok)
		return false;
	*v = (double)t->bytes / (double)ok;
	return true;
}

static uint64_t span_ns(const struct trace_stats *st)
{
	return st->ops ? st->end_ns - st->first_ns : 0;
}

static uint64_t failed_total(const struct trace_stats *st)
{
	uint64_t n = 0;
	int t;

	for (t = 0; t < TT_TYPES; t++)
		n += st->type[t].failed;
	return n;
}

static uint64_t dur_total(const struct trace_stats *st)
{
	uint64_t n = 0;
	int t;

	for (t = 0; t < TT_TYPES; t++)
		n += st->type[t].dur_ns;
	return n;
}

static const char *plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* What the log's status says, before anything else is read from it. */
static void print_status(FILE *f, const struct trace_stats *st)
{
	if (st->status == TRACE_STATUS_INCOMPLETE)
		fprintf(f, "Warning: the log is %s\n", st->status_text);
	else if (st->status == TRACE_STATUS_UNFINISHED)
		fprintf(f, "Warning: the log is unfinished: the record did not end (rebench was killed, or could not write the status line), so calls may be missing\n");
	if (st->damaged)
		fprintf(f, "Warning: %lu damaged %s skipped (cut short by a failed write)\n",
			st->damaged, st->damaged == 1 ? "line" : "lines");
}

static const char *status_word(const struct trace_stats *st)
{
	return trace_status_words[st->status];
}

static void print_human(FILE *f, const struct trace_stats *st)
{
	const struct trace_type_stats *t;
	double avg;
	unsigned long i;
	int k;

	fprintf(f, "Trace %s (%s %d)%s%s\n", st->log, st->format, st->version,
		st->command ? ": " : "", st->command ? st->command : "");
	fprintf(f, "%llu %s by %llu %s (%llu %s) on %u %s over %.6f s\n",
		(unsigned long long)st->ops, plural(st->ops, "operation", "operations"),
		(unsigned long long)st->processes, plural(st->processes, "process", "processes"),
		(unsigned long long)st->threads, plural(st->threads, "thread", "threads"),
		st->nfiles, plural(st->nfiles, "file", "files"),
		(double)span_ns(st) / 1e9);
	print_status(f, st);
	if (!st->ops)
		goto warnings;
	fprintf(f, "%-16s %10s %7s %14s %7s %10s %11s %7s\n", "operation",
		"count", "% ops", "bytes", "% bytes", "avg bytes", "avg time",
		"failed");
	for (k = 0; k < TT_TYPES; k++) {
		t = &st->type[k];
		if (!t->count)
			continue;
		fprintf(f, "%-16s %10llu %7.2f", trace_type_names[k],
			(unsigned long long)t->count, pct(t->count, st->ops));
		if (moves_data(k))
			fprintf(f, " %14llu %7.2f", (unsigned long long)t->bytes,
				pct(t->bytes, st->bytes));
		else
			fprintf(f, " %14s %7s", "-", "-");
		if (avg_bytes(t, k, &avg))
			fprintf(f, " %10.1f", avg);
		else
			fprintf(f, " %10s", "-");
		fprintf(f, " %8.1f us %7llu\n",
			(double)t->dur_ns / (double)t->count / 1e3,
			(unsigned long long)t->failed);
	}
	fprintf(f, "%-16s %10llu %7.2f %14llu %7.2f %10s %8.1f us %7llu\n",
		"total", (unsigned long long)st->ops, 100.0,
		(unsigned long long)st->bytes, st->bytes ? 100.0 : 0.0, "-",
		(double)dur_total(st) / (double)st->ops / 1e3,
		(unsigned long long)failed_total(st));
	fprintf(f, "%8s %8s %12s %8s %13s %6s  %s\n", "ops", "reads",
		"bytes read", "writes", "bytes written", "syncs", "file");
	for (i = 0; i < st->nfiles; i++) {
		const struct trace_file_stats *fs = &st->files[i];

		fprintf(f, "%8llu %8llu %12llu %8llu %13llu %6llu  %s\n",
			(unsigned long long)fs->ops,
			(unsigned long long)fs->reads,
			(unsigned long long)fs->bytes_read,
			(unsigned long long)fs->writes,
			(unsigned long long)fs->bytes_written,
			(unsigned long long)fs->syncs, fs->path);
	}
warnings:
	for (i = 0; i < st->nkept; i++)
		fprintf(f, "Warning: %s\n", st->warnings[i]);
	if (st->nwarnings > st->nkept)
		fprintf(f, "Warning: %lu more warnings in the log\n",
			st->nwarnings - st->nkept);
}

/* A path on a -n line: bytes that would split it as \ooo, as in the log. */
static void put_path(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= ' ' || c == 0x7f || c == '\\')
			fprintf(f, "\\%03o", c);
		else
			fputc(c, f);
	}
}

static void print_terse(FILE *f, const struct trace_stats *st)
{
	const struct trace_type_stats *t;
	double avg;
	uint32_t i;
	int k;

	fprintf(f, "trace-stats %d %llu %llu %llu %llu %llu %u %lu %s %lu\n",
		TRACE_STATS_VERSION, (unsigned long long)st->ops,
		(unsigned long long)st->bytes,
		(unsigned long long)st->processes,
		(unsigned long long)st->threads,
		(unsigned long long)span_ns(st), st->nfiles, st->nwarnings,
		status_word(st) ? status_word(st) : "-", st->damaged);
	for (k = 0; k < TT_TYPES; k++) {
		t = &st->type[k];
		fprintf(f, "%s %llu %.2f %llu %.2f", trace_type_names[k],
			(unsigned long long)t->count, pct(t->count, st->ops),
			(unsigned long long)t->bytes, pct(t->bytes, st->bytes));
		if (avg_bytes(t, k, &avg))
			fprintf(f, " %.1f", avg);
		else
			fprintf(f, " -");
		if (t->count)
			fprintf(f, " %llu", (unsigned long long)(t->dur_ns / t->count));
		else
			fprintf(f, " -");
		fprintf(f, " %llu\n", (unsigned long long)t->failed);
	}
	fprintf(f, "total %llu %.2f %llu %.2f -", (unsigned long long)st->ops,
		st->ops ? 100.0 : 0.0, (unsigned long long)st->bytes,
		st->bytes ? 100.0 : 0.0);
	if (st->ops)
		fprintf(f, " %llu", (unsigned long long)(dur_total(st) / st->ops));
	else
		fprintf(f, " -");
	fprintf(f, " %llu\n", (unsigned long long)failed_total(st));
	for (i = 0; i < st->nfiles; i++) {
		const struct trace_file_stats *fs = &st->files[i];

		fprintf(f, "file %llu %llu %llu %llu %llu %llu ",
			(unsigned long long)fs->ops,
			(unsigned long long)fs->reads,
			(unsigned long long)fs->bytes_read,
			(unsigned long long)fs->writes,
			(unsigned long long)fs->bytes_written,
			(unsigned long long)fs->syncs);
		put_path(f, fs->path);
		fputc('\n', f);
	}
}

static void print_json(FILE *f, const struct trace_stats *st)
{
	const struct trace_type_stats *t;
	struct json j;
	double avg;
	uint32_t i;
	int k, c;

	json_init(&j, f);
	json_obj_begin(&j, NULL);
	json_str(&j, "tool", "rebench");
	json_str(&j, "version", REBENCH_VERSION);
	json_u64(&j, "trace_stats_version", TRACE_STATS_VERSION);
	json_str(&j, "log", st->log);
	json_str(&j, "log_format", st->format);
	json_u64(&j, "log_version", (uint64_t)st->version);
	json_str(&j, "command", st->command);
	json_str(&j, "log_status", status_word(st));
	json_str(&j, "log_status_text", st->status_text);
	json_u64(&j, "damaged_lines", st->damaged);
	json_u64(&j, "operations", st->ops);
	json_u64(&j, "bytes", st->bytes);
	json_u64(&j, "processes", st->processes);
	json_u64(&j, "threads", st->threads);
	json_u64(&j, "span_ns", span_ns(st));
	json_obj_begin(&j, "types");
	for (k = 0; k < TT_TYPES; k++) {
		t = &st->type[k];
		json_obj_begin(&j, trace_type_names[k]);
		json_u64(&j, "count", t->count);
		json_num(&j, "ops_pct", pct(t->count, st->ops));
		json_u64(&j, "bytes", t->bytes);
		json_num(&j, "bytes_pct", pct(t->bytes, st->bytes));
		if (avg_bytes(t, k, &avg))
			json_num(&j, "avg_bytes", avg);
		else
			json_null(&j, "avg_bytes");
		if (t->count)
			json_num(&j, "avg_ns", (double)t->dur_ns / (double)t->count);
		else
			json_null(&j, "avg_ns");
		json_u64(&j, "failed", t->failed);
		json_obj_begin(&j, "calls");
		for (c = 0; c < TC_COUNT; c++)
			if (trace_call_types[c] == k && st->calls[c])
				json_u64(&j, trace_call_names[c], st->calls[c]);
		json_obj_end(&j);
		json_obj_end(&j);
	}
	json_obj_end(&j);
	json_arr_begin(&j, "files");
	for (i = 0; i < st->nfiles; i++) {
		const struct trace_file_stats *fs = &st->files[i];

		json_obj_begin(&j, NULL);
		json_str(&j, "path", fs->path);
		json_u64(&j, "operations", fs->ops);
		json_u64(&j, "reads", fs->reads);
		json_u64(&j, "bytes_read", fs->bytes_read);
		json_u64(&j, "writes", fs->writes);
		json_u64(&j, "bytes_written", fs->bytes_written);
		json_u64(&j, "syncs", fs->syncs);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_u64(&j, "warnings_total", st->nwarnings);
	json_arr_begin(&j, "warnings");
	for (i = 0; i < st->nkept; i++)
		json_str(&j, NULL, st->warnings[i]);
	json_arr_end(&j);
	json_obj_end(&j);
}

void trace_stats_print(FILE *f, const struct trace_stats *st,
		       enum trace_stats_format fmt)
{
	switch (fmt) {
	case TSF_HUMAN:
		print_human(f, st);
		break;
	case TSF_TERSE:
		print_terse(f, st);
		break;
	case TSF_JSON:
		print_json(f, st);
		break;
	}
}
