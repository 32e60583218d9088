/* section_durability.c - the durability verdict of a run that writes
 * (durability.h): the human "Durability:" line, JSON "durability", -n
 * field 95 and the sweep table's durability column.  The total's is its
 * least durable workload's (report_dur_worst). */
#include <stdio.h>

#include "core/json.h"
#include "report/section.h"
#include "report/summary.h"
#include "target/durability.h"

/* The verdict in words: "not-durable" is the token of -n and JSON. */
static const char *dur_words(int verdict)
{
	return verdict == DUR_NOT_DURABLE ? "not durable" : dur_name(verdict);
}

static void durability_human(FILE *f, const struct section_ctx *c)
{
	const struct workload *worst;

	if (c->wl) {
		if (c->wl->result.dur.verdict != DUR_NA)
			fprintf(f, "Durability: %s: %s\n",
				dur_words(c->wl->result.dur.verdict), c->wl->result.dur.reason);
		return;
	}
	worst = report_dur_worst(c->r);
	if (worst)
		fprintf(f, "Durability: %s (the least durable workload's: %u)\n",
			dur_words(worst->result.dur.verdict), worst->index + 1);
}

/* {verdict, reason} of a workload that wrote, {verdict, workload} of the
 * total, else null (a workload without a result too). */
static void durability_json(struct json *j, const struct section_ctx *c)
{
	const struct workload *wl = c->wl ? (c->res ? c->wl : NULL) :
					    report_dur_worst(c->r);

	if (!wl || wl->result.dur.verdict == DUR_NA) {
		json_null(j, "durability");
		return;
	}
	json_obj_begin(j, "durability");
	json_str(j, "verdict", dur_name(wl->result.dur.verdict));
	if (!c->wl)
		json_u64(j, "workload", wl->index + 1);
	else
		json_str(j, "reason", wl->result.dur.reason);
	json_obj_end(j);
}

/* Field 95: the verdict, "-" when the run writes nothing. */
static void durability_terse(FILE *f, const struct section_ctx *c)
{
	const struct workload *wl = c->wl ? c->wl : report_dur_worst(c->r);

	fprintf(f, " %s", dur_name(wl ? wl->result.dur.verdict : DUR_NA));
}

static void durability_tsv(FILE *f, const struct section_ctx *c)
{
	fprintf(f, "\t%s", dur_name(c->wl->result.dur.verdict));
}

const struct section section_durability = {
	.name = "durability",
	.human = { [HUMAN_END] = durability_human },
	.json = { [JSON_AFTER_RESULTS] = durability_json },
	.terse = { [TERSE_PASSES] = durability_terse },
	.tsv_head = "\tdurability",
	.tsv = durability_tsv,
};
