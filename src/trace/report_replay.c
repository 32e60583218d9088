/* report_replay.c - a replay's own figures (replay_result.h) in the three
 * formats; the writers call these after the run's ordinary results.
 * Every field: rebench(1), APPLICATION I/O, Replay.
 */
#include "trace/replay_result.h"

#include <inttypes.h>

#include "core/json.h"
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
		const struct replay_op_result *o = &r->per_op[k];

		if (!present(r, k))
			continue;
		fprintf(f, "    %-9s %8" PRIu64 " operations, %" PRIu64 " bytes, %" PRIu64 " ns: %.1f ns per operation\n",
			io_kind_name(k), o->operations, o->bytes, o->ns,
			replay_ns_per_op(o));
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
		if (present(r, k))
			fprintf(f, "replay-op %s %" PRIu64 " %" PRIu64 " %" PRIu64 " %.1f\n",
				io_kind_name(k), r->per_op[k].operations,
				r->per_op[k].bytes, r->per_op[k].ns,
				replay_ns_per_op(&r->per_op[k]));
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
		const struct replay_op_result *o = &r->per_op[k];

		if (!present(r, k))
			continue;
		json_obj_begin(j, NULL);
		json_str(j, "op", io_kind_name(k));
		json_u64(j, "operations", o->operations);
		json_u64(j, "bytes", o->bytes);
		json_u64(j, "ns", o->ns);
		json_num(j, "ns_per_op", replay_ns_per_op(o));
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
