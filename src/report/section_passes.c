/* section_passes.c - a sequential workload's passes over its region
 * (pattern.h): JSON "passes", "pass_ios" and "pass_bytes", -n field 82.
 * A random workload, -a and the total have none (null, "-"). */
#include <stdio.h>

#include "core/json.h"
#include "report/section.h"
#include "report/summary.h"

static const struct seq_passes *passes_of(const struct section_ctx *c)
{
	return c->wl && c->wl->result.passes.known ? &c->wl->result.passes : NULL;
}

static void passes_json(struct json *j, const struct section_ctx *c)
{
	const struct seq_passes *p = passes_of(c);

	if (!p) {
		json_null(j, "passes");
		json_null(j, "pass_ios");
		json_null(j, "pass_bytes");
		return;
	}
	json_num(j, "passes", p->count);
	if (p->ios)
		json_u64(j, "pass_ios", p->ios);
	else
		json_null(j, "pass_ios");
	if (p->bytes)
		json_u64(j, "pass_bytes", p->bytes);
	else
		json_null(j, "pass_bytes");
}

static void passes_terse(FILE *f, const struct section_ctx *c)
{
	const struct seq_passes *p = passes_of(c);

	if (p)
		fprintf(f, " %.6f", p->count);
	else
		fprintf(f, " -");
}

const struct section section_passes = {
	.name = "passes",
	.json = { [JSON_RATES] = passes_json },
	.terse = { [TERSE_KINDS] = passes_terse },
};
