/* report.c - the table of writers, and the set of them one run uses. */
#include <errno.h>
#include <string.h>

#include "core/plan.h"
#include "report/report.h"

const struct report_writer *const report_writers[] = {
	&report_human_writer,
	&report_terse_writer,
	&report_json_writer,
	&report_stderr_writer,
	&report_series_writer,
};
const size_t report_nwriters =
	sizeof(report_writers) / sizeof(report_writers[0]);

_Static_assert(sizeof(report_writers) / sizeof(report_writers[0]) <=
	       REPORT_MAX_WRITERS, "raise REPORT_MAX_WRITERS");

int report_open(struct report_set *set, const struct report_scope *scope)
{
	size_t i;
	int ret = 0;

	memset(set, 0, sizeof(*set));
	set->scope = *scope;
	for (i = 0; i < report_nwriters; i++) {
		const struct report_writer *w = report_writers[i];
		struct report_out *o;

		if (w->wanted && !w->wanted(scope->run))
			continue;
		o = &set->out[set->n++];
		o->w = w;
		o->scope = &set->scope;
		o->set = set;
	}
	for (i = 0; i < set->n && !ret; i++)
		if (set->out[i].w->begin)
			ret = set->out[i].w->begin(&set->out[i]);
	if (ret) {
		set->n = i - 1;	/* the ones begun end; the failed one not */
		report_close(set);
	}
	return ret;
}

int report_emit(struct report_set *set, const struct report *r)
{
	size_t i;
	int ret = 0, e;

	for (i = 0; i < set->n; i++) {
		if (!set->out[i].w->report)
			continue;
		e = set->out[i].w->report(&set->out[i], r);
		if (e && !ret)
			ret = e;
	}
	return ret;
}

int report_close(struct report_set *set)
{
	size_t i;
	int ret = 0, e;

	for (i = 0; i < set->n; i++) {
		if (!set->out[i].w->end)
			continue;
		e = set->out[i].w->end(&set->out[i]);
		if (e && !ret)
			ret = e;
	}
	set->n = 0;
	return ret;
}

bool report_shows_warnings(const struct report_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (set->out[i].shows_warnings)
			return true;
	return false;
}

bool report_uses_stdout(const struct report_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (set->out[i].uses_stdout)
			return true;
	return false;
}

bool report_open_line(const struct report_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (set->out[i].open_line)
			return true;
	return false;
}

int report_write(const struct report_writer *w,
		 const struct report_scope *scope, const struct report *r)
{
	struct report_set set;
	int ret, e;

	memset(&set, 0, sizeof(set));
	set.scope = *scope;
	set.n = 1;
	set.out[0].w = w;
	set.out[0].scope = &set.scope;
	set.out[0].set = &set;
	ret = w->begin ? w->begin(&set.out[0]) : 0;
	if (ret)
		return ret;
	ret = report_emit(&set, r);
	e = report_close(&set);
	return ret ? ret : e;
}

void run_ctx_report(const struct run_ctx *ctx, bool interrupted, size_t point,
		    struct report *r)
{
	memset(r, 0, sizeof(*r));
	r->wls = ctx->wls;
	r->n = ctx->n;
	r->interrupted = interrupted;
	r->point = point;
	r->total = ctx->have_total ? ctx->total : NULL;
	r->total_rep = ctx->have_total ? ctx->total_rep : NULL;
	r->seconds = (double)ctx->spent_ns / 1e9;
}
