/* report_replay.c - a replay's own figures (replay_result.h) in the three
 * formats; the writers call these after the run's ordinary results.
 * Every field: rebench(1), APPLICATION I/O, Replay.
 */
#include "trace/replay_result.h"

#include <inttypes.h>
#include <stddef.h>

#include "core/json.h"
#include "report/doc.h"
#include "report/report.h"
#include "trace/stream_trace.h"

double replay_ns_per_op(const struct replay_op_result *o)
{
	return o->operations ? (double)o->ns / (double)o->operations : 0.0;
}

/* The types of the log are reported, in enum io_kind order, even one
 * an interrupted replay never reached. */
static bool present(const struct replay_result *r, int k)
{
	return r->per_op[k].in_log;
}

static struct doc_value op_name(const void *row, const void *ctx)
{
	const struct replay_result *r = ctx;

	return doc_str(io_kind_name((int)((const struct replay_op_result *)row -
					  r->per_op)));
}

static struct doc_value ns_per_op(const void *row, const void *ctx)
{
	(void)ctx;
	return doc_num(replay_ns_per_op(row));
}

/* A type's figures: a human line of words, a replay-op line, a JSON
 * object of per_op. */
#define U64(k, h, m) { .key = k, .fmt = "%llu", .hfmt = h, .kind = DOC_U64, \
		       .off = offsetof(struct replay_op_result, m) }
static const struct doc_field op_fields[] = {
	{ .key = "op", .fmt = "%s", .hfmt = "%s", .width = -9, .kind = DOC_STR,
	  .get = op_name },
	U64("operations", "%8llu operations,", operations),
	U64("bytes", "%llu bytes,", bytes),
	U64("ns", "%llu ns:", ns),
	{ .key = "ns_per_op", .fmt = "%.1f", .hfmt = "%.1f ns per operation",
	  .kind = DOC_NUM, .get = ns_per_op },
};
#undef U64
static const struct doc_table op_doc = DOC_TABLE(op_fields);

void report_replay_human(FILE *f, const struct replay_result *r)
{
	uint32_t i;
	int k;

	fprintf(f, "Replay: %s of %s (%s, digest %016" PRIx64 ")\n", r->mode,
		r->log, r->format, r->digest);
	fprintf(f, "  %" PRIu64 " operations of %u files onto %s, each file in %s (%" PRIu64 " bytes%s); %u recorded threads, %u workers\n",
		r->operations, r->files, r->target,
		r->directory ? "a file of its own" :
			       "its own 1 MiB-aligned slot",
		r->map_bytes, r->directory ? " in all" : "",
		r->recorded_threads, r->workers);
	for (i = 0; r->directory && i < r->files; i++)
		fprintf(f, "    %s -> %s (%" PRIu64 " bytes)\n",
			r->recorded[i].path, r->placed[i],
			r->recorded[i].extent);
	fprintf(f, "  skipped %" PRIu64 " failed calls and %" PRIu64 " reads or writes that moved no bytes; --replay-align changed %" PRIu64 " operations\n",
		r->skipped_failed, r->skipped_empty, r->aligned);
	fprintf(f, "  per type (ns: %s):\n",
		r->grouped ? "the group's wall time, first start to last end" :
			     "the sum of the operations' latencies");
	for (k = 0; k < IO_KINDS; k++) {
		if (!present(r, k))
			continue;
		fputs("    ", f);
		doc_human_row(f, &op_doc, &r->per_op[k], r);
		fputc('\n', f);
	}
	if (!r->timed)
		return;
	fprintf(f, "  timed at speed %g: %" PRIu64 " operations waited for their time, %" PRIu64 " of them more than %llu ms late; lateness mean %.1f us, max %.1f us: %s\n",
		r->speed, r->issued, r->late_operations,
		TRACE_LATE_NS / 1000000ULL, r->lateness_mean_us,
		r->lateness_max_us, r->kept_up ? "kept up" : "could not keep up");
}

void report_replay_terse(FILE *f, const struct replay_result *r)
{
	int k;

	fprintf(f, "replay %s %g %016" PRIx64 " %" PRIu64 " %u %u %u %" PRIu64 " %" PRIu64 " %" PRIu64,
		r->mode, r->speed, r->digest, r->operations, r->files,
		r->recorded_threads, r->workers, r->aligned,
		r->skipped_failed, r->skipped_empty);
	if (r->timed)
		fprintf(f, " %" PRIu64 " %.3f %.3f %d\n", r->late_operations,
			r->lateness_mean_us, r->lateness_max_us, r->kept_up);
	else
		fprintf(f, " - - - -\n");
	for (k = 0; k < IO_KINDS; k++)
		if (present(r, k)) {
			fputs("replay-op ", f);
			doc_cells(f, ' ', DOC_TERSE, &op_doc, &r->per_op[k], r);
			fputc('\n', f);
		}
}

void report_replay_json(struct json *j, const struct replay_result *r)
{
	char digest[17];
	int k;

	snprintf(digest, sizeof(digest), "%016" PRIx64, r->digest);
	json_obj_begin(j, "replay");
	json_str(j, "log", r->log);
	json_str(j, "format", r->format);
	json_str(j, "digest", digest);
	json_str(j, "mode", r->mode);
	json_num(j, "speed", r->speed);
	json_str(j, "target", r->target);
	json_u64(j, "operations", r->operations);
	json_u64(j, "files", r->files);
	json_u64(j, "recorded_threads", r->recorded_threads);
	json_u64(j, "workers", r->workers);
	json_u64(j, "aligned", r->aligned);
	json_u64(j, "skipped_failed", r->skipped_failed);
	json_u64(j, "skipped_empty", r->skipped_empty);
	if (r->delay[0])
		json_str(j, "delay", r->delay);
	json_arr_begin(j, "per_op");
	for (k = 0; k < IO_KINDS; k++) {
		if (!present(r, k))
			continue;
		json_obj_begin(j, NULL);
		doc_json(j, &op_doc, &r->per_op[k], r);
		json_obj_end(j);
	}
	json_arr_end(j);
	if (r->timed) {
		json_obj_begin(j, "timed");
		json_u64(j, "late_operations", r->late_operations);
		json_num(j, "lateness_mean_us", r->lateness_mean_us);
		json_num(j, "lateness_max_us", r->lateness_max_us);
		json_bool(j, "kept_up", r->kept_up);
		json_obj_end(j);
	}
	json_obj_end(j);
}

/* The writers' hooks (report.h): the replay's result is their argument. */
static void human(FILE *f, const void *arg)
{
	report_replay_human(f, arg);
}

static void terse(FILE *f, const void *arg)
{
	report_replay_terse(f, arg);
}

static void json(struct json *j, const void *arg)
{
	report_replay_json(j, arg);
}

const struct report_extra replay_report_extra = {
	.human = human, .terse = terse, .json = json,
};
