/* section_verify.c - what --verify found (core/verify.h): the human
 * "Verify:" lines and JSON "verify", only in a workload that verified
 * (no -n field, no sweep column: a run without --verify prints what it
 * always did).  The total has none. */
#include <stdio.h>

#include "core/json.h"
#include "core/spec_names.h"
#include "core/verify.h"
#include "core/workload.h"
#include "report/section.h"

static const char *mode_name(const struct verify_result *r)
{
	if (r->only)
		return "only";
	return opt_values_name(verify_mode_values, r->mode);
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
	json_obj_end(j);
}

const struct section section_verify = {
	.name = "verify",
	.human = { [HUMAN_END] = verify_human },
	.json = { [JSON_AFTER_RESULTS] = verify_json },
};
