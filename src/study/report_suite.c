/* report_suite.c - a suite's results: the compact table (one row per test:
 * MB/s, ops/s, p99 latency), its part of the JSON document, and the test
 * that ends each -n line.  The writers (report_human.c, report_json.c,
 * report_terse.c) call these when their scope is a suite; fields and
 * columns: docs/workloads.md, SUITES.
 */
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "core/units.h"
#include "core/outpath.h"
#include "report/report.h"
#include "stats/repeat.h"
#include "report/summary.h"
#include "study/suite.h"

static const char *state_name(enum suite_state st)
{
	switch (st) {
	case SUITE_RAN:
		return "ran";
	case SUITE_SKIPPED:
		return "skipped";
	default:
		return "not run";
	}
}

void report_suite_head(FILE *f, const struct suite *s)
{
	char runs[64] = "";

	if (s->runs > 1)
		snprintf(runs, sizeof(runs), ", %zu runs each (medians)", s->runs);
	fprintf(f, "Suite %s (%s): %zu test%s%s%s%s, one after another\n",
		s->name, s->path, s->n, s->n == 1 ? "" : "s",
		s->each[0] ? " of " : "", s->each, runs);
	fprintf(f, "Target %s", s->target);
	if (s->engine)
		fprintf(f, "; engine %s (the best asynchronous engine built; -t to change)",
			s->engine);
	fputc('\n', f);
	fprintf(f, "%-*s  %-*s  %10s  %10s  %10s  %s\n", s->name_w, "Test", s->op_w,
		"Op", rate_unit(), "ops/s", "p99 (us)", "Durability");
}

void report_suite_row(FILE *f, const struct suite *s, const struct report *r)
{
	const struct suite_test *t = &s->tests[r->point];
	const struct workload *wl = r->n ? &r->wls[0] : NULL;
	double mbps, ops, p99;
	struct lat_summary l;
	int status;

	fprintf(f, "%-*s  %-*s  ", s->name_w, t->name, s->op_w, t->op);
	if (t->state == SUITE_SKIPPED) {
		fprintf(f, "skipped (it writes: %s)\n", s->forbidden ?
			"the target may not be written" : "--yes runs it");
		return;
	}
	if (t->state != SUITE_RAN || !wl || !wl->result.have_result) {
		fprintf(f, "not run\n");
		return;
	}
	if (wl->result.rep) {
		mbps = wl->result.rep->stat[RM_MBPS].median;
		ops = wl->result.rep->stat[RM_OPS].median;
		p99 = wl->result.rep->stat[RM_P99].median;
	} else {
		lat_summarize(wl->result.stats, &l);
		mbps = wl->result.stats->mb_per_s;
		ops = wl->result.stats->ops_per_s;
		p99 = l.p99;
	}
	/* the verdict of a test that writes (durability.h), "-" otherwise */
	fprintf(f, "%10.2f  %10.0f  %10.1f  %s", rate_value(mbps), ops, p99,
		dur_name(wl->result.dur.verdict));
	status = workload_status(wl, r->interrupted);
	if (status != WL_COMPLETE)
		fprintf(f, "  %s", workload_status_name(status));
	fputc('\n', f);
	/* the row before its warnings on standard error; the first error's
	 * errno is kept */
	if (f == stdout)
		outpath_flush_stdout();
	else
		fflush(f);
}

void report_suite_json_begin(struct json *j, const struct suite *s)
{
	json_obj_begin(j, "suite");
	json_str(j, "name", s->name);
	json_str(j, "file", s->path);
	json_str(j, "description", s->desc[0] ? s->desc : NULL);
	json_u64(j, "tests_count", s->n);
	json_str(j, "duration_each", s->each[0] ? s->each : NULL);
	json_str(j, "engine_default", s->engine);
	json_u64(j, "runs", s->runs);
	json_u64(j, "skipped", s->nskipped);
	json_str(j, "skip_reason", s->nskipped ? s->skip_why : NULL);
	json_arr_begin(j, "tests");
}

void report_suite_json_test(struct json *j, const struct suite *s, size_t t)
{
	const struct suite_test *st = &s->tests[t];

	json_u64(j, "test", t + 1);
	json_str(j, "name", st->name);
	json_str(j, "operation", st->op);
	json_u64(j, "line", st->spec.line);
	json_str(j, "spec", st->text);
	json_str(j, "state", state_name(st->state));
}

void report_suite_terse_suffix(const struct suite *s, size_t t, char *buf,
			       size_t len)
{
	char name[sizeof(s->tests[t].name)], *p;

	/* one field: "RND4K_Q32T1" */
	snprintf(name, sizeof(name), "%s", s->tests[t].name);
	for (p = name; *p; p++)
		if (*p == ' ')
			*p = '_';
	snprintf(buf, len, " %zu %s", t + 1, name);
}

/* The writers' hooks (report.h): the suite is their argument. */
static void head(FILE *f, const void *arg)
{
	report_suite_head(f, arg);
}

static void row(FILE *f, const void *arg, const struct report *r)
{
	report_suite_row(f, arg, r);
}

static void json_begin(struct json *j, const void *arg)
{
	report_suite_json_begin(j, arg);
}

static void json_test(struct json *j, const void *arg, size_t t)
{
	report_suite_json_test(j, arg, t);
}

static void terse_suffix(const void *arg, size_t t, char *buf, size_t len)
{
	report_suite_terse_suffix(arg, t, buf, len);
}

const struct report_study suite_report_study = {
	.human_head = head,
	.human_row = row,
	.json_begin = json_begin,
	.json_item = json_test,
	.terse_suffix = terse_suffix,
};
