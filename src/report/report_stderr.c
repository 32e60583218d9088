/* report_stderr.c - what goes to standard error after a run: each
 * workload's warnings when no format of the run shows them (-n, a sweep's
 * table), and its error, always ("rebench: stdin line N: ...").
 *
 * A sweep says its too-few-I/Os and wrapped-run warnings once each, then
 * counts the points that had them too and says how many at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/outpath.h"
#include "report/report.h"
#include "core/validate.h"
#include "report/summary.h"

struct stderr_state {
	int few_ios;		/* sweep: runs with the too-few-I/Os warning */
	int wraps;		/* sweep: runs with the wrapped-run warning */
};

static int stderr_begin(struct report_out *o)
{
	o->priv = calloc(1, sizeof(struct stderr_state));
	if (!o->priv) {
		fprintf(stderr, "rebench: out of memory\n");
		return -ENOMEM;
	}
	return 0;
}

/* st: a sweep's counts, NULL for a single run */
static void print_warnings(const struct workload *wl, struct stderr_state *st,
			   bool terse)
{
	int w;

	for (w = 0; w < wl->result.nwarn; w++) {
		if (!report_warning_said(wl, w, terse))
			continue;
		/* said once per sweep, then counted */
		if (st && w == wl->result.few_ios_warning && st->few_ios++)
			continue;
		if (st && w == wl->result.wrap_warning && st->wraps++)
			continue;
		spec_error(&wl->spec, "warning: %s", wl->result.warnings[w]);
	}
}

static int stderr_report(struct report_out *o, const struct report *r)
{
	struct stderr_state *st = o->priv;
	bool warn = !report_shows_warnings(o->set);
	size_t k;

	if (o->scope->sw) {
		for (k = 0; k < r->n; k++) {
			if (warn)
				print_warnings(&r->wls[k], st, o->scope->run->silent);
			if (r->wls[k].result.error)
				spec_error(&r->wls[k].spec, "%s", r->wls[k].result.errmsg);
		}
		return 0;
	}
	for (k = 0; k < r->n && warn; k++)
		print_warnings(&r->wls[k], NULL, o->scope->run->silent);
	/* the results, then what went wrong */
	if (o->scope->out == stdout)
		outpath_flush_stdout();	/* keeps the first error's errno */
	else
		fflush(o->scope->out);
	for (k = 0; k < r->n; k++)
		if (r->wls[k].result.error)
			spec_error(&r->wls[k].spec, "%s", r->wls[k].result.errmsg);
	return 0;
}

static int stderr_end(struct report_out *o)
{
	struct stderr_state *st = o->priv;

	if (st->few_ios > 1 && !report_shows_warnings(o->set))
		fprintf(stderr, "rebench: warning: so did %d more workload runs of this sweep (the ios column has each count)\n",
			st->few_ios - 1);
	if (st->wraps > 1 && !report_shows_warnings(o->set))
		fprintf(stderr, "rebench: warning: %d more workload runs of this sweep wrapped as well (the last field of -n and results.passes of --json give each one's passes)\n",
			st->wraps - 1);
	free(st);
	o->priv = NULL;
	return 0;
}

const struct report_writer report_stderr_writer = {
	.name = "stderr",
	.begin = stderr_begin,
	.report = stderr_report,
	.end = stderr_end,
};
