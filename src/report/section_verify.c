/* section_verify.c - what --verify found (core/verify.h): the human
 * "Verify:" lines, JSON "verify" and a -n "verify" line, only for a
 * workload that verified (no field of the workload's -n line, no sweep
 * column: a run without --verify prints what it always did).  The total
 * has none. */
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "core/spec_names.h"
#include "core/verify.h"
#include "core/workload.h"
#include "report/report.h"
#include "report/section.h"

static const char *mode_name(const struct verify_result *r)
{
	if (r->only)
		return "only";
	return opt_values_name(verify_mode_values, r->mode);
}

/* --verify-log: what the log holds, and (read) how many of the durable
 * writes it names survived. */
static void log_human(FILE *f, const struct verify_log_result *l,
		      uint64_t checked)
{
	if (!l->on)
		return;
	fprintf(f, "Verify log: %s: %llu record%s of %llu block%s acknowledged durable",
		l->path, (unsigned long long)l->records,
		l->records == 1 ? "" : "s",
		(unsigned long long)l->durable_blocks,
		l->durable_blocks == 1 ? "" : "s");
	if (l->read) {
		fprintf(f, " (--sync %s); %llu checked: %llu survived, %llu did not%s\n",
			l->sync, (unsigned long long)checked,
			(unsigned long long)l->survived,
			(unsigned long long)l->lost,
			l->torn ? "; its last line, without its newline (torn by a crash), left out" : "");
		return;
	}
	if (l->per_write)
		fprintf(f, " (--sync %s: each write when it returned)", l->sync);
	else
		fprintf(f, " (--sync %s: the writes before a flush when it returned); %llu write%s acknowledged after the last flush: not durable, not logged",
			l->sync, (unsigned long long)l->not_durable,
			l->not_durable == 1 ? "" : "s");
	fprintf(f, "%s%s\n", l->err ? "; writing the log failed: " : "",
		l->err ? strerror(l->err) : "");
}

static void verify_human(FILE *f, const struct section_ctx *c)
{
	const struct verify_result *r;
	char sum[320];

	if (!c->wl || !c->wl->result.verify.on)
		return;
	r = &c->wl->result.verify;
	verify_summary(r, sum, sizeof(sum));
	fprintf(f, "Verify: %s, %s: %s", opt_values_name(verify_algo_values, r->algo),
		r->only ? "--verify-only" : mode_name(r), sum);
	if (r->mode == VERIFY_AFTER && !r->only && r->pass_ns)
		fprintf(f, " (read back in %.3f s, after the measured run)",
			(double)r->pass_ns / 1e9);
	fputc('\n', f);
	if (r->have_first)
		fprintf(f, "Verify: first mismatch at offset %llu: %s: expected %s; found %s\n",
			(unsigned long long)r->first.offset,
			verify_class_name(r->first.cls), r->first.expected,
			r->first.found);
	log_human(f, &r->log, r->checked);
}

/* "log": null without --verify-log; what it holds, and (read) the
 * durable writes that survived and not. */
static void log_json(struct json *j, const struct verify_log_result *l)
{
	if (!l->on) {
		json_null(j, "log");
		return;
	}
	json_obj_begin(j, "log");
	json_str(j, "path", l->path);
	json_str(j, "role", l->read ? "read" : "written");
	json_str(j, "sync", l->sync);
	json_u64(j, "records", l->records);
	json_u64(j, "durable_blocks", l->durable_blocks);
	if (l->read) {
		json_null(j, "not_durable");
		json_u64(j, "survived", l->survived);
		json_u64(j, "lost", l->lost);
		json_bool(j, "torn_tail", l->torn);
		json_null(j, "error");
	} else {
		json_u64(j, "not_durable", l->not_durable);
		json_null(j, "survived");
		json_null(j, "lost");
		json_null(j, "torn_tail");
		if (l->err)
			json_str(j, "error", strerror(l->err));
		else
			json_null(j, "error");
	}
	json_obj_end(j);
}

static void verify_json(struct json *j, const struct section_ctx *c)
{
	const struct verify_result *r;

	if (!c->wl || !c->wl->result.verify.on)
		return;
	r = &c->wl->result.verify;
	json_obj_begin(j, "verify");
	json_str(j, "algorithm", opt_values_name(verify_algo_values, r->algo));
	json_str(j, "mode", mode_name(r));
	json_u64(j, "blocks_written", r->written);
	json_u64(j, "blocks_checked", r->checked);
	json_u64(j, "ok", r->count[VC_OK]);
	json_u64(j, "corrupt", r->count[VC_CORRUPT]);
	json_u64(j, "misdirected", r->count[VC_MISDIRECTED]);
	json_u64(j, "lost", r->count[VC_LOST]);
	json_u64(j, "unwritten", r->count[VC_UNWRITTEN]);
	json_bool(j, "stopped", r->stopped);
	if (r->mode == VERIFY_AFTER && !r->only)
		json_num(j, "readback_s", (double)r->pass_ns / 1e9);
	else
		json_null(j, "readback_s");
	if (r->have_first) {
		json_obj_begin(j, "first_mismatch");
		json_u64(j, "offset", r->first.offset);
		json_str(j, "class", verify_class_name(r->first.cls));
		json_str(j, "expected", r->first.expected);
		json_str(j, "found", r->first.found);
		json_obj_end(j);
	} else {
		json_null(j, "first_mismatch");
	}
	log_json(j, &r->log);
	json_obj_end(j);
}

/*
 * -n: after the device lines, one line per verifying workload, 14 fields
 * (rebench-output(5), RAW STATISTICS):
 *   verify W algorithm mode blocks_written blocks_checked ok corrupt
 *   misdirected lost unwritten stopped first_offset first_class
 * ("-" for the last two without a mismatch; "stopped" yes or no), and a
 * sweep point's values after them.
 */
/*
 * -n: after a verify line, one more for a workload with --verify-log, 9
 * fields: verify-log W role records durable_blocks not_durable survived
 * lost torn (role "written" or "read"; "-" for what the role has not;
 * torn "yes" or "no").
 */
static void log_terse(FILE *f, size_t k, const struct verify_log_result *l,
		      const char *suffix)
{
	if (!l->on)
		return;
	fprintf(f, "verify-log %zu %s %llu %llu", k + 1,
		l->read ? "read" : "written", (unsigned long long)l->records,
		(unsigned long long)l->durable_blocks);
	if (l->read)
		fprintf(f, " - %llu %llu %s", (unsigned long long)l->survived,
			(unsigned long long)l->lost, l->torn ? "yes" : "no");
	else
		fprintf(f, " %llu - - -", (unsigned long long)l->not_durable);
	fprintf(f, "%s\n", suffix ? suffix : "");
}

static void verify_terse(FILE *f, const struct report *rep, const char *suffix)
{
	size_t k;

	for (k = 0; k < rep->n; k++) {
		const struct verify_result *r = &rep->wls[k].result.verify;

		if (!r->on)
			continue;
		fprintf(f, "verify %zu %s %s %llu %llu %llu %llu %llu %llu %llu %s",
			k + 1, opt_values_name(verify_algo_values, r->algo),
			mode_name(r), (unsigned long long)r->written,
			(unsigned long long)r->checked,
			(unsigned long long)r->count[VC_OK],
			(unsigned long long)r->count[VC_CORRUPT],
			(unsigned long long)r->count[VC_MISDIRECTED],
			(unsigned long long)r->count[VC_LOST],
			(unsigned long long)r->count[VC_UNWRITTEN],
			r->stopped ? "yes" : "no");
		if (r->have_first)
			fprintf(f, " %llu %s", (unsigned long long)r->first.offset,
				verify_class_name(r->first.cls));
		else
			fprintf(f, " - -");
		fprintf(f, "%s\n", suffix ? suffix : "");
		log_terse(f, k, &r->log, suffix);
	}
}

const struct section section_verify = {
	.name = "verify",
	.human = { [HUMAN_END] = verify_human },
	.json = { [JSON_AFTER_RESULTS] = verify_json },
	.run_terse = verify_terse,
};
