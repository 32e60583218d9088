/* section_ops.c - each operation kind apart (stats.h: op_hist, ops,
 * op_bytes): a human line per kind when there are several, and one for
 * the flushes; JSON "operations"; -n fields 22-81 (the kinds of version
 * 2, read to fdatasync) and 83-94 (sync_file_range, added after the
 * passes, so no field moved).  TERSE_OP_FIELDS fields per kind. */
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "core/units.h"
#include "report/section.h"
#include "report/summary.h"

/* A kind's own line: its count, rate and latency.  With more than one
 * data kind each gets one (a blend of 3 us reads and 500 us writes
 * describes neither); a flush always has its own, apart from the data
 * I/Os of the headline (fio's IOPS counts no flush). */
static void print_kind(FILE *f, const struct report *rep,
		       const struct result *res, int k, int width)
{
	struct op_summary o;
	const struct lat_summary *l = &o.lat;
	char rate[32];

	report_op_summarize(rep, res, k, &o);
	if (IO_IS_FLUSH(k) && !res->flush_headline)
		fprintf(f, "Flushes: %llu %s, %.0f/sec; latency (us):",
			(unsigned long long)o.ios, io_kind_name(k), o.ops_per_s);
	else if (IO_IS_FLUSH(k))	/* it moves no data: no MiB/s */
		fprintf(f, "  %-*s %llu I/Os, %.0f ops/sec; latency (us):",
			width, io_kind_name(k), (unsigned long long)o.ios,
			o.ops_per_s);
	else
		fprintf(f, "  %-*s %llu I/Os, %.0f ops/sec (%s); latency (us):",
			width, io_kind_name(k), (unsigned long long)o.ios,
			o.ops_per_s, fmt_rate(rate, sizeof(rate), o.mb_per_s));
	fprintf(f, " min %.1f avg %.1f p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f p99.99 %.1f max %.1f\n",
		l->min, l->avg, l->p50, l->p90, l->p99, l->p999, l->p9999,
		l->max);
}

static void ops_human(FILE *f, const struct section_ctx *c)
{
	const struct result *res = c->res;
	unsigned kinds = result_kinds(res), data = kinds & IO_DATA_KINDS;
	/* names in one column, as wide as the longest shown, at least
	 * "write" */
	int width = 5, w;
	int k;

	if (res->flush_headline)
		data = kinds;	/* the flushes are its I/Os */
	for (k = 0; k < IO_KINDS; k++) {
		w = (int)strlen(io_kind_name(k));
		if (data & (1U << k) && w > width)
			width = w;
	}
	/* one kind: the lines above are its own */
	for (k = 0; k < IO_KINDS && (data & (data - 1)); k++)
		if (data & (1U << k))
			print_kind(f, c->r, res, k, width);
	for (k = 0; k < IO_KINDS; k++)
		if (kinds & ~data & (1U << k))
			print_kind(f, c->r, res, k, width);
}

/* results.operations: each kind that occurred, with its own latency. */
static void ops_json(struct json *j, const struct section_ctx *c)
{
	unsigned kinds = result_kinds(c->res);
	struct op_summary o;
	int k;

	json_obj_begin(j, "operations");
	for (k = 0; k < IO_KINDS; k++) {
		if (!(kinds & (1U << k)))
			continue;
		report_op_summarize(c->r, c->res, k, &o);
		json_obj_begin(j, io_kind_name(k));
		json_u64(j, "ios", o.ios);
		json_u64(j, "bytes", o.bytes);
		json_num(j, "ops_per_s", o.ops_per_s);
		json_num(j, "mib_per_s", o.mb_per_s);
		json_obj_begin(j, "latency_us");
		report_json_lat(j, &o.lat);
		json_obj_end(j);
		report_json_hist(j, "latency_hist", &c->res->op_hist[k]);
		json_obj_end(j);
	}
	json_obj_end(j);
}

/* Kinds [from, to): per kind, I/Os, bytes, ops/s, MB/s, then latency
 * min, avg, p50, p90, p99, p99.9, p99.99 and max; a kind that did not
 * occur has 0 I/Os, bytes and rates and "-" for its latency. */
static void put_kinds(FILE *f, const struct section_ctx *c, int from, int to)
{
	struct op_summary o;
	int k;

	for (k = from; k < to; k++) {
		report_op_summarize(c->r, c->res, k, &o);
		fprintf(f, " %llu %llu %.2f %.4f", (unsigned long long)o.ios,
			(unsigned long long)o.bytes, o.ops_per_s, o.mb_per_s);
		if (!o.ios) {
			fprintf(f, " - - - - - - - -");
			continue;
		}
		fprintf(f, " %.3f %.3f %.3f %.3f %.3f %.3f %.3f %.3f",
			o.lat.min, o.lat.avg, o.lat.p50, o.lat.p90, o.lat.p99,
			o.lat.p999, o.lat.p9999, o.lat.max);
	}
}

/* Fields 22-81: the kinds of version 2, read to fdatasync. */
static void ops_terse_v2(FILE *f, const struct section_ctx *c)
{
	put_kinds(f, c, 0, IO_SYNC_RANGE);
}

/* Fields 83-94: the kinds added since, after the passes. */
static void ops_terse_later(FILE *f, const struct section_ctx *c)
{
	put_kinds(f, c, IO_SYNC_RANGE, IO_KINDS);
}

const struct section section_ops = {
	.name = "operations",
	.human = { [HUMAN_LATENCY] = ops_human },
	.json = { [JSON_CPU] = ops_json },
	.terse = { [TERSE_FIT] = ops_terse_v2, [TERSE_PASSES] = ops_terse_later },
};
