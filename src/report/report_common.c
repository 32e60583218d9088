/* report_common.c - figures and names shared by every output format. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engines/engine.h"
#include "core/spec_names.h"
#include "core/plan.h"
#include "report/report.h"
#include "report/summary.h"

void lat_summarize_hist(const struct hist *h, struct lat_summary *l)
{
	l->min = h->count ? (double)h->min / 1e3 : 0;
	l->avg = hist_mean(h) / 1e3;
	l->p50 = hist_percentile(h, 50) / 1e3;
	l->p90 = hist_percentile(h, 90) / 1e3;
	l->p99 = hist_percentile(h, 99) / 1e3;
	l->p999 = hist_percentile(h, 99.9) / 1e3;
	l->p9999 = hist_percentile(h, 99.99) / 1e3;
	l->max = h->count ? (double)h->max / 1e3 : 0;
}

void lat_summarize(const struct result *res, struct lat_summary *l)
{
	lat_summarize_hist(&res->hist, l);
}

enum precision_verdict report_precision(const struct report *r,
					const struct workload *wl,
					struct ci *c, double *target_pct)
{
	enum precision_verdict v = PRECISION_NONE;
	size_t k;

	if (wl) {
		*target_pct = wl->precision_pct;
		return precision_judge(wl, c);
	}
	ci_of_result(r->total, 0, c);
	*target_pct = 0;
	for (k = 0; k < r->n; k++) {
		struct ci part;
		enum precision_verdict p;

		if (!r->wls[k].result.have_result)
			continue;
		p = precision_judge(&r->wls[k], &part);
		if (p == PRECISION_NONE)
			continue;
		*target_pct = r->wls[k].precision_pct;
		if (v != PRECISION_NOT_REACHED)
			v = p;
	}
	return v;
}

const struct workload *report_dur_worst(const struct report *r)
{
	const struct workload *worst = NULL;
	size_t k;

	for (k = 0; k < r->n; k++)
		if (r->wls[k].result.have_result && r->wls[k].result.dur.verdict != DUR_NA &&
		    (!worst || r->wls[k].result.dur.verdict > worst->result.dur.verdict))
			worst = &r->wls[k];
	return worst;
}

unsigned result_kinds(const struct result *res)
{
	unsigned bits = 0;
	int k;

	for (k = 0; k < IO_KINDS; k++)
		if (res->ops[k])
			bits |= 1U << k;
	return bits;
}

void op_summarize(const struct result *res, int kind, struct op_summary *o)
{
	double s = (double)res->elapsed_ns / 1e9;

	o->ios = res->ops[kind];
	o->bytes = res->op_bytes[kind];
	o->ops_per_s = s > 0 ? (double)o->ios / s : 0;
	o->mb_per_s = s > 0 ? (double)o->bytes / s / 1048576.0 : 0;
	lat_summarize_hist(&res->op_hist[kind], &o->lat);
}

void report_op_summarize(const struct report *r, const struct result *res,
			 int kind, struct op_summary *o)
{
	struct op_summary w;
	size_t k;

	op_summarize(res, kind, o);
	if (res != r->total)
		return;
	o->ops_per_s = o->mb_per_s = 0;
	for (k = 0; k < r->n; k++) {
		if (!r->wls[k].result.have_result)
			continue;
		op_summarize(r->wls[k].result.stats, kind, &w);
		o->ops_per_s += w.ops_per_s;
		o->mb_per_s += w.mb_per_s;
	}
}

int report_total_status(const struct report *r)
{
	/* what says most about why the run ended, first in workload order */
	static const int rank[] = {
		[WL_COMPLETE] = 0, [WL_INTERRUPTED] = 1, [WL_STOPPED] = 2,
		[WL_IO_ERROR] = 3, [WL_MEMORY] = 3,
	};
	int best = WL_COMPLETE, st;
	size_t k;

	for (k = 0; k < r->n; k++) {
		st = workload_status(&r->wls[k], r->interrupted);
		if (rank[st] > rank[best])
			best = st;
	}
	return best;
}

bool report_warning_said(const struct workload *wl, int w, bool terse)
{
	return w != wl->result.few_ios_warning || terse || wl->precision_pct > 0;
}

int workload_status(const struct workload *wl, bool interrupted)
{
	if (wl->result.error)
		return wl->result.error_is_memory ? WL_MEMORY : WL_IO_ERROR;
	if (wl->result.stopped_early)
		return WL_STOPPED;
	return interrupted ? WL_INTERRUPTED : WL_COMPLETE;
}

const char *workload_status_name(int status)
{
	static const char *const names[] = {
		"complete", "interrupted", "io_error", "stopped",
		"memory_budget"
	};

	return names[status];
}

const char *op_name(int op)
{
	return opt_values_name(op_values, op);
}

const char *engine_name(const struct spec *s)
{
	return engine_get(s->engine)->name;
}

char *fmt_duration(char *buf, size_t len, const struct amount *a)
{
	switch (a->kind) {
	case AMOUNT_BYTES:
		return fmt_size_short(buf, len, a->value);
	case AMOUNT_PERCENT:
		snprintf(buf, len, "%g%%", a->pct);
		return buf;
	default:
		return fmt_time(buf, len, a->value);
	}
}

/* Does workload k of r share its device with another workload of r? */
static bool dev_with_others(const struct report *r, size_t k)
{
	size_t j;

	if (!r->wls[k].result.devr.name[0])
		return false;
	for (j = 0; j < r->n; j++)
		if (j != k && !strcmp(r->wls[j].result.devr.name, r->wls[k].result.devr.name))
			return true;
	return false;
}

bool report_dev_own(const struct report *r, const struct workload *wl,
		    struct dev_reads *out)
{
	const struct dev_reads *in[MAX_WORKLOADS] = { NULL };
	size_t k;
	bool own = true;

	if (wl) {
		*out = wl->result.devr;
		return out->known && !out->shared &&
		       !dev_with_others(r, (size_t)(wl - r->wls));
	}
	for (k = 0; k < r->n && k < MAX_WORKLOADS; k++) {
		in[k] = &r->wls[k].result.devr;
		own &= in[k]->known && !in[k]->shared;
	}
	devstat_sum(out, in, (unsigned)k);
	return own && out->known;
}

size_t report_devices(const struct report *r, const struct dev_reads **out)
{
	size_t j, k, n = 0;

	for (k = 0; k < r->n && k < MAX_WORKLOADS; k++) {
		const struct dev_reads *d = &r->wls[k].result.devr;

		for (j = 0; j < n && (!d->name[0] ||
				      strcmp(out[j]->name, d->name)); j++)
			;
		if (j == n)
			out[n++] = d;
	}
	return n;
}

char *report_dev_users(const struct report *r, const struct dev_reads *d,
		       char *buf, size_t len)
{
	size_t k, used = 0;

	buf[0] = '\0';
	for (k = 0; k < r->n && used < len; k++) {
		const struct dev_reads *w = &r->wls[k].result.devr;

		if (w == d || (d->name[0] && !strcmp(w->name, d->name)))
			used += (size_t)snprintf(buf + used, len - used, "%s%zu",
						 used ? ", " : "", k + 1);
	}
	return buf;
}

void report_put_num(FILE *f, char sep, const char *fmt, double v)
{
	fputc(sep, f);
	if (isfinite(v))
		fprintf(f, fmt, v);
	else
		fputc('-', f);
}
