/* section_flush.c - the flushes, apart from the data I/Os of the headline
 * (those of a workload that only flushes are its I/Os), and the
 * write+flush latency (stats.h: durable): the human "Write+flush latency"
 * line, JSON "flushes" to "write_flush_latency_us", -n fields 120-129.
 * The "Flushes:" line is a kind's (section_ops.c); the count in the
 * "Total:" line is inside that line, the writer's. */
#include <stdio.h>

#include "core/json.h"
#include "report/section.h"
#include "report/summary.h"

/* The write+flush latency, or false where it was not measured. */
static bool durable_lat(const struct result *r, struct lat_summary *l)
{
	if (!r->durable_known || !r->durable.count)
		return false;
	lat_summarize_hist(&r->durable, l);
	return true;
}

/* The original Rebench timed a write and its fdatasync as one operation:
 * the write+flush latency is that figure. */
static void flush_human(FILE *f, const struct section_ctx *c)
{
	struct lat_summary l;

	if (!durable_lat(c->res, &l))
		return;
	fprintf(f, "Write+flush latency (us): min %.1f avg %.1f p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f (%llu writes, each from its start to the end of the flush that made it durable)\n",
		l.min, l.avg, l.p50, l.p90, l.p99, l.p999, l.max,
		(unsigned long long)c->res->durable.count);
}

static void flush_json(struct json *j, const struct section_ctx *c)
{
	const struct result *r = c->res;
	struct lat_summary l;

	json_u64(j, "flushes", r->flushes);
	json_u64(j, "end_flushes", r->end_flushes);
	json_bool(j, "flushes_in_ios", r->flush_headline);
	if (!durable_lat(r, &l)) {
		json_null(j, "write_flush_latency_us");
		return;
	}
	json_obj_begin(j, "write_flush_latency_us");
	json_u64(j, "writes", r->durable.count);
	report_json_lat(j, &l);
	json_obj_end(j);
}

/* Fields 120-129 (TERSE_FIELD_DURABLE..): the writes the write+flush
 * latency covers, its min, avg, p50, p90, p99, p99.9, p99.99 and max in
 * us ("0" and "-" where it was not measured), then the flushes issued
 * after the clock stopped (owed by the last writes). */
static void flush_terse(FILE *f, const struct section_ctx *c)
{
	const struct result *r = c->res;
	struct lat_summary l;

	if (!durable_lat(r, &l))
		fprintf(f, " 0 - - - - - - - -");
	else
		fprintf(f, " %llu %.3f %.3f %.3f %.3f %.3f %.3f %.3f %.3f",
			(unsigned long long)r->durable.count, l.min, l.avg,
			l.p50, l.p90, l.p99, l.p999, l.p9999, l.max);
	fprintf(f, " %llu", (unsigned long long)r->end_flushes);
}

const struct section section_flush = {
	.name = "flushes",
	.human = { [HUMAN_LATENCY] = flush_human },
	.json = { [JSON_LATENCY] = flush_json },
	.terse = { [TERSE_PASSES] = flush_terse },
};
