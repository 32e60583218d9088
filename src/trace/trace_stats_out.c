/* trace_stats_out.c - the writers of --trace-stats (trace_stats.h): the
 * figures of an operation type, of the total and of a file computed once,
 * then printed by the human table, the -n lines and the JSON document. */
#include "trace/trace_stats.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "core/json.h"
#include "report/doc.h"
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

/* A type row's figures: bytes mean nothing for a type that moves no data
 * (the human table says "-", -n and JSON 0); the average time is whole ns
 * on -n, ns in JSON and us in the human table. */
static struct doc_value human_bytes(const void *row, const void *ctx)
{
	const struct type_row *r = row;

	(void)ctx;
	return r->moves_data ? doc_u64(r->bytes) : doc_unknown(DOC_U64);
}

static struct doc_value human_bytes_pct(const void *row, const void *ctx)
{
	const struct type_row *r = row;

	(void)ctx;
	return r->moves_data ? doc_num(r->bytes_pct) : doc_unknown(DOC_NUM);
}

static struct doc_value avg_bytes_of(const void *row, const void *ctx)
{
	const struct type_row *r = row;

	(void)ctx;
	return r->has_avg_bytes ? doc_num(r->avg_bytes) : doc_unknown(DOC_NUM);
}

static struct doc_value avg_ns_whole(const void *row, const void *ctx)
{
	const struct type_row *r = row;

	(void)ctx;
	return r->count ? doc_u64(r->dur_ns / r->count) : doc_unknown(DOC_U64);
}

static struct doc_value avg_ns(const void *row, const void *ctx)
{
	const struct type_row *r = row;

	(void)ctx;
	return r->count ? doc_num((double)r->dur_ns / (double)r->count) :
			  doc_unknown(DOC_NUM);
}

static struct doc_value avg_us(const void *row, const void *ctx)
{
	const struct type_row *r = row;

	(void)ctx;
	return doc_num((double)r->dur_ns / (double)r->count / 1e3);
}

#define TR(m) .off = offsetof(struct type_row, m)
static const struct doc_field type_fields[] = {
	{ .fmt = "%s", .hfmt = "%s", .head = "operation", .width = -16,
	  .kind = DOC_STR, TR(name) },
	{ .key = "count", .fmt = "%llu", .hfmt = "%llu", .head = "count",
	  .width = 10, .kind = DOC_U64, TR(count) },
	{ .key = "ops_pct", .fmt = "%.2f", .hfmt = "%.2f", .head = "% ops",
	  .width = 7, .kind = DOC_NUM, TR(ops_pct) },
	{ .key = "bytes", .fmt = "%llu", .kind = DOC_U64, TR(bytes) },
	{ .hfmt = "%llu", .head = "bytes", .width = 14, .kind = DOC_U64,
	  .get = human_bytes },
	{ .key = "bytes_pct", .fmt = "%.2f", .kind = DOC_NUM, TR(bytes_pct) },
	{ .hfmt = "%.2f", .head = "% bytes", .width = 7, .kind = DOC_NUM,
	  .get = human_bytes_pct },
	{ .key = "avg_bytes", .fmt = "%.1f", .hfmt = "%.1f", .head = "avg bytes",
	  .width = 10, .kind = DOC_NUM, .get = avg_bytes_of },
	{ .fmt = "%llu", .kind = DOC_U64, .get = avg_ns_whole },
	{ .key = "avg_ns", .kind = DOC_NUM, .get = avg_ns },
	{ .hfmt = "%.1f us", .head = "avg time", .width = 11, .kind = DOC_NUM,
	  .get = avg_us },
	{ .key = "failed", .fmt = "%llu", .hfmt = "%llu", .head = "failed",
	  .width = 7, .kind = DOC_U64, TR(failed) },
};
#undef TR
static const struct doc_table type_doc = DOC_TABLE(type_fields);

/* The figures of a file, in every format. */
#define FF(k, h, w, m) { .key = k, .fmt = "%llu", .hfmt = "%llu", .head = h, \
			 .width = w, .kind = DOC_U64, \
			 .off = offsetof(struct trace_file_stats, m) }
static const struct doc_field file_fields[] = {
	FF("operations", "ops", 8, ops),
	FF("reads", "reads", 8, reads),
	FF("bytes_read", "bytes read", 12, bytes_read),
	FF("writes", "writes", 8, writes),
	FF("bytes_written", "bytes written", 13, bytes_written),
	FF("syncs", "syncs", 6, syncs),
};
#undef FF
static const struct doc_table file_doc = DOC_TABLE(file_fields);

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
	doc_human_row(f, &type_doc, row, NULL);
	fputc('\n', f);
}

static void human_files(FILE *f, const struct trace_stats *st)
{
	unsigned long i;

	doc_human_head(f, &file_doc);
	fprintf(f, "  %s\n", "file");
	for (i = 0; i < st->nfiles; i++) {
		doc_human_row(f, &file_doc, &st->files[i], NULL);
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
		doc_human_head(f, &type_doc);
		fputc('\n', f);
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
	doc_cells(f, ' ', DOC_TERSE, &type_doc, row, NULL);
	fputc('\n', f);
}

static void print_terse(FILE *f, const struct trace_stats *st)
{
	struct type_row row;
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
		type_row(st, k, &row);
		terse_row(f, &row);
	}
	total_row(st, &row);
	terse_row(f, &row);
	for (i = 0; i < st->nfiles; i++) {
		fprintf(f, "file ");
		doc_cells(f, ' ', DOC_TERSE, &file_doc, &st->files[i], NULL);
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
	doc_json(j, &type_doc, &row, NULL);
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
		doc_json(&j, &file_doc, &st->files[i], NULL);
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
