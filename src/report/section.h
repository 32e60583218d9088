/* section.h - a result's figures as sections.  A feature that adds figures
 * to a workload's result is one section: a file with its hooks, one per
 * format, and an entry in report_sections[] (section.c).  Each writer
 * walks the table at its seams, so a figure cannot be missing from one
 * format, and a new one touches its own file and the table.
 *
 * A hook is called for each workload with a result and for the total
 * (ctx->wl NULL); a missing hook writes nothing in that format or at that
 * seam.  Each format's figures come in an order older than the sections
 * (a contract: -n fields never move, rebench-output(5), RAW STATISTICS), so a
 * hook names its seam, the place between two figures where it goes; the
 * order of the table is the order of the -n fields, TSV columns, lines or
 * keys that share a seam.
 */
#ifndef REBENCH_SECTION_H
#define REBENCH_SECTION_H

#include <stdbool.h>
#include <stdio.h>

struct json;
struct report;
struct result;
struct workload;

/* What a hook reports on. */
struct section_ctx {
	const struct report *r;
	const struct workload *wl;	/* NULL: the total of several */
	const struct result *res;	/* wl's result, or r->total */
};

/* The seams of a human block, in the order they come. */
enum human_seam {
	HUMAN_HEAD,		/* after the parameters, before any figure */
	HUMAN_LATENCY,		/* after the headline latency line */
	HUMAN_INTERVALS,	/* after the ops/s over intervals */
	HUMAN_TOTALS,		/* after the "Total:" line */
	HUMAN_END,		/* the last figures, before the "Error:" line */
	HUMAN_ERROR,		/* after the "Error:" line */
	HUMAN_SEAMS
};

/* The seams of a JSON workload (and of "total"). */
enum json_seam {
	JSON_RATES,		/* results: after "mib_per_s" */
	JSON_LATENCY,		/* results: after "latency_hist" */
	JSON_FLUSHES,		/* results: after the flushes */
	JSON_CPU,		/* results: after "cpu" */
	JSON_INTERVALS,		/* results: after "intervals" */
	JSON_RESULTS_END,	/* results: its last keys */
	JSON_AFTER_RESULTS,	/* the workload: after "results" */
	JSON_ERROR,		/* the workload: after "error" */
	JSON_SEAMS
};

/* The seams of a -n line: fields 1-18 are the line's own (rates,
 * latency, version, counts, seed, status), every later one a section's. */
enum terse_seam {
	TERSE_STATUS,		/* after field 18: 19-21 */
	TERSE_FIT,		/* after field 21: 22-81 */
	TERSE_KINDS,		/* after field 81: 82 */
	TERSE_PASSES,		/* after field 82: 83 to the last */
	TERSE_SEAMS
};

struct section {
	const char *name;
	void (*human[HUMAN_SEAMS])(FILE *f, const struct section_ctx *c);
	void (*json[JSON_SEAMS])(struct json *j, const struct section_ctx *c);
	/* its -n fields, each " value" */
	void (*terse[TERSE_SEAMS])(FILE *f, const struct section_ctx *c);
	/* the sweep table: its header's columns ("\tname" each) and a
	 * workload's cells ("\tvalue" each, "-" where the workload has no
	 * such figure) */
	const char *tsv_head;
	unsigned tsv_only;	/* TSV_*: the columns are there only in
				 * such tables; 0: in every table */
	void (*tsv)(FILE *f, const struct section_ctx *c);
	/* once per run, after the workloads and the total: what belongs to
	 * the run (the devices); terse lines end with suffix (a sweep
	 * point's values) when given */
	void (*run_human)(FILE *f, const struct report *r);
	void (*run_json)(struct json *j, const struct report *r);
	void (*run_terse)(FILE *f, const struct report *r, const char *suffix);
};

extern const struct section *const report_sections[];
extern const size_t report_nsections;

/* Walk the table: each section's hook of that format (and seam). */
void sections_human(FILE *f, enum human_seam at, const struct section_ctx *c);
void sections_json(struct json *j, enum json_seam at,
		   const struct section_ctx *c);
/* every -n field after field 18, seam by seam */
void sections_terse(FILE *f, const struct section_ctx *c);
/* Which optional columns a sweep's table has (tsv_only). */
#define TSV_REPEATED 1u		/* --repeat N, N > 1 */
#define TSV_RATED 2u		/* --rate, in a workload or swept */
void sections_tsv_head(FILE *f, unsigned cols);
void sections_tsv(FILE *f, const struct section_ctx *c, unsigned cols);
void sections_run_human(FILE *f, const struct report *r);
void sections_run_json(struct json *j, const struct report *r);
void sections_run_terse(FILE *f, const struct report *r, const char *suffix);

#endif
