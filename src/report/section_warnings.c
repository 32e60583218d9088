/* section_warnings.c - a workload's warnings (workload.h: warnings,
 * nwarn): the human "Warning:" lines and JSON "warnings", after the error.
 * The total has none of its own; -n and a sweep say them on standard
 * error (report_stderr.c). */
#include <stdio.h>

#include "core/json.h"
#include "report/section.h"
#include "report/summary.h"

static void warnings_human(FILE *f, const struct section_ctx *c)
{
	int i;

	for (i = 0; c->wl && i < c->wl->result.nwarn; i++)
		if (report_warning_said(c->wl, i, false))
			fprintf(f, "Warning: %s\n", c->wl->result.warnings[i]);
}

static void warnings_json(struct json *j, const struct section_ctx *c)
{
	int i;

	if (!c->wl)
		return;
	json_arr_begin(j, "warnings");
	for (i = 0; i < c->wl->result.nwarn; i++)
		json_str(j, NULL, c->wl->result.warnings[i]);
	json_arr_end(j);
}

const struct section section_warnings = {
	.name = "warnings",
	.human = { [HUMAN_ERROR] = warnings_human },
	.json = { [JSON_ERROR] = warnings_json },
};
