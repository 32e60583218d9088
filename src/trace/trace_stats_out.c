/* trace_stats_out.c - the writers of --trace-stats (trace_stats.h): the
 * figures of an operation type, of the total and of a file computed once,
 * then printed by the human table, the -n lines and the JSON document. */
#include "trace/trace_stats.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "core/json.h"
#include "report/version.h"
#include "trace/trace_log.h"

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

/* A row of the operation table, a type's or the total: its figures once,
 * for every format. */
struct type_row {
	const char *name;
	bool moves_data;	/* bytes mean something (human shows "-") */
	uint64_t count, bytes, dur_ns, failed;
	double ops_pct, bytes_pct;
	bool has_avg_bytes;
	double avg_bytes;
};

static void type_row(const struct trace_stats *st, int k, struct type_row *row)
{
	const struct trace_type_stats *t = &st->type[k];

	row->name = trace_type_names[k];
	row->moves_data = moves_data(k);
	row->count = t->count;
	row->bytes = t->bytes;
	row->dur_ns = t->dur_ns;
	row->failed = t->failed;
	row->ops_pct = pct(t->count, st->ops);
	row->bytes_pct = pct(t->bytes, st->bytes);
	row->has_avg_bytes = avg_bytes(t, k, &row->avg_bytes);
}

/* The total: sums of the types; no average size across them. */
static void total_row(const struct trace_stats *st, struct type_row *row)
{
	int k;

	memset(row, 0, sizeof(*row));
	row->name = "total";
	row->moves_data = true;
	row->count = st->ops;
	row->bytes = st->bytes;
	for (k = 0; k < TT_TYPES; k++) {
		row->dur_ns += st->type[k].dur_ns;
		row->failed += st->type[k].failed;
	}
	row->ops_pct = pct(st->ops, st->ops);
	row->bytes_pct = pct(st->bytes, st->bytes);
}

/* The figures of a file, walked by every format: its JSON name, its
 * human column and width. */
static const struct {
	size_t off;
	const char *json, *head;
	int width;
} file_figs[] = {
	{ offsetof(struct trace_file_stats, ops), "operations", "ops", 8 },
	{ offsetof(struct trace_file_stats, reads), "reads", "reads", 8 },
	{ offsetof(struct trace_file_stats, bytes_read), "bytes_read", "bytes read", 12 },
	{ offsetof(struct trace_file_stats, writes), "writes", "writes", 8 },
	{ offsetof(struct trace_file_stats, bytes_written), "bytes_written", "bytes written", 13 },
	{ offsetof(struct trace_file_stats, syncs), "syncs", "syncs", 6 },
};
#define NFILE_FIGS (sizeof(file_figs) / sizeof(file_figs[0]))

static unsigned long long file_fig(const struct trace_file_stats *fs,
				   size_t i)
{
	return *(const uint64_t *)((const char *)fs + file_figs[i].off);
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

static void human_row(FILE *f, const struct type_row *row)
{
	fprintf(f, "%-16s %10llu %7.2f", row->name,
		(unsigned long long)row->count, row->ops_pct);
	if (row->moves_data)
		fprintf(f, " %14llu %7.2f", (unsigned long long)row->bytes,
			row->bytes_pct);
	else
		fprintf(f, " %14s %7s", "-", "-");
	if (row->has_avg_bytes)
		fprintf(f, " %10.1f", row->avg_bytes);
	else
		fprintf(f, " %10s", "-");
	fprintf(f, " %8.1f us %7llu\n",
		(double)row->dur_ns / (double)row->count / 1e3,
		(unsigned long long)row->failed);
}

static void human_files(FILE *f, const struct trace_stats *st)
{
	unsigned long i;
	size_t c;

	for (c = 0; c < NFILE_FIGS; c++)
		fprintf(f, "%s%*s", c ? " " : "", file_figs[c].width,
			file_figs[c].head);
	fprintf(f, "  %s\n", "file");
	for (i = 0; i < st->nfiles; i++) {
		for (c = 0; c < NFILE_FIGS; c++)
			fprintf(f, "%s%*llu", c ? " " : "", file_figs[c].width,
				file_fig(&st->files[i], c));
		fprintf(f, "  %s\n", st->files[i].path);
	}
}

static void print_human(FILE *f, const struct trace_stats *st)
{
	struct type_row row;
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
	if (st->ops) {
		fprintf(f, "%-16s %10s %7s %14s %7s %10s %11s %7s\n", "operation",
			"count", "% ops", "bytes", "% bytes", "avg bytes",
			"avg time", "failed");
		for (k = 0; k < TT_TYPES; k++) {
			type_row(st, k, &row);
			if (row.count)
				human_row(f, &row);
		}
		total_row(st, &row);
		human_row(f, &row);
		human_files(f, st);
	}
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

static void terse_row(FILE *f, const struct type_row *row)
{
	fprintf(f, "%s %llu %.2f %llu %.2f", row->name,
		(unsigned long long)row->count, row->ops_pct,
		(unsigned long long)row->bytes, row->bytes_pct);
	if (row->has_avg_bytes)
		fprintf(f, " %.1f", row->avg_bytes);
	else
		fprintf(f, " -");
	if (row->count)
		fprintf(f, " %llu", (unsigned long long)(row->dur_ns / row->count));
	else
		fprintf(f, " -");
	fprintf(f, " %llu\n", (unsigned long long)row->failed);
}

static void print_terse(FILE *f, const struct trace_stats *st)
{
	struct type_row row;
	uint32_t i;
	size_t c;
	int k;

	fprintf(f, "trace-stats %d %llu %llu %llu %llu %llu %u %lu %s %lu\n",
		TRACE_STATS_VERSION, (unsigned long long)st->ops,
		(unsigned long long)st->bytes,
		(unsigned long long)st->processes,
		(unsigned long long)st->threads,
		(unsigned long long)span_ns(st), st->nfiles, st->nwarnings,
		status_word(st) ? status_word(st) : "-", st->damaged);
	for (k = 0; k < TT_TYPES; k++) {
		type_row(st, k, &row);
		terse_row(f, &row);
	}
	total_row(st, &row);
	terse_row(f, &row);
	for (i = 0; i < st->nfiles; i++) {
		fprintf(f, "file");
		for (c = 0; c < NFILE_FIGS; c++)
			fprintf(f, " %llu", file_fig(&st->files[i], c));
		fputc(' ', f);
		put_path(f, st->files[i].path);
		fputc('\n', f);
	}
}

static void json_type(struct json *j, const struct trace_stats *st, int k)
{
	struct type_row row;
	int c;

	type_row(st, k, &row);
	json_obj_begin(j, row.name);
	json_u64(j, "count", row.count);
	json_num(j, "ops_pct", row.ops_pct);
	json_u64(j, "bytes", row.bytes);
	json_num(j, "bytes_pct", row.bytes_pct);
	if (row.has_avg_bytes)
		json_num(j, "avg_bytes", row.avg_bytes);
	else
		json_null(j, "avg_bytes");
	if (row.count)
		json_num(j, "avg_ns", (double)row.dur_ns / (double)row.count);
	else
		json_null(j, "avg_ns");
	json_u64(j, "failed", row.failed);
	json_obj_begin(j, "calls");
	for (c = 0; c < TC_COUNT; c++)
		if (trace_call_types[c] == k && st->calls[c])
			json_u64(j, trace_call_names[c], st->calls[c]);
	json_obj_end(j);
	json_obj_end(j);
}

static void print_json(FILE *f, const struct trace_stats *st)
{
	struct json j;
	uint32_t i;
	size_t c;
	int k;

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
	for (k = 0; k < TT_TYPES; k++)
		json_type(&j, st, k);
	json_obj_end(&j);
	json_arr_begin(&j, "files");
	for (i = 0; i < st->nfiles; i++) {
		json_obj_begin(&j, NULL);
		json_str(&j, "path", st->files[i].path);
		for (c = 0; c < NFILE_FIGS; c++)
			json_u64(&j, file_figs[c].json, file_fig(&st->files[i], c));
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
		       enum out_format fmt)
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
