/* hosts_out.c - the writers of --hosts: a table per point and workload
 * with a row per host and the merged row, -n lines, one JSON document
 * that holds every host's own, a TSV file and plots/hosts.gp. */
#include "hosts/hosts_result.h"
#include "core/units.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/json.h"
#include "core/outpath.h"
#include "report/doc.h"
#include "report/plot.h"
#include "report/version.h"
#include "report/summary.h"

/* The target of workload k on host i: the one sent, which its document
 * had to name (hosts_doc.h). */
static const char *target_of(const struct hosts_result *r, size_t i, size_t k)
{
	return hosts_sent_target(r->hosts, i, k);
}

static const struct host_fig *fig(const struct hosts_point *p, size_t i,
				  size_t k)
{
	return &p->fig[i * p->nwl + k];
}

static void clock_text(uint64_t ns, char *buf, size_t len)
{
	time_t s = (time_t)(ns / 1000000000ULL);
	struct tm tm;

	localtime_r(&s, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
	snprintf(buf + strlen(buf), len - strlen(buf), ".%03llu",
		 (unsigned long long)(ns / 1000000ULL % 1000));
}

static void human_point(FILE *f, const struct hosts_result *r,
			const struct hosts_point *p)
{
	const struct host_list *l = r->hosts;
	char when[32];
	size_t i, k;

	clock_text(p->start_ns, when, sizeof(when));
	if (r->sw)
		fprintf(f, "Point %zu of %zu: %s, common start %s (this machine's clock)\n",
			p->index + 1, r->sw->npoints, p->values, when);
	else
		fprintf(f, "%zu hosts, common start %s (this machine's clock)\n",
			l->n, when);
	for (k = 0; k < p->nwl; k++) {
		const struct host_fig *m = &p->merged[k];

		fprintf(f, "workload %zu\n", k + 1);
		fprintf(f, "  %-24s %-14s %19s %9s %10s %9s %9s %9s  %s\n", "host",
			"target", "clock offset ms", "late ms", "ops/s", rate_unit(),
			"p50 us", "p99 us", "status");
		for (i = 0; i < l->n; i++) {
			const struct host_fig *x = fig(p, i, k);
			const struct host *h = &l->h[i];
			char off[32];

			snprintf(off, sizeof(off), "%+.3f +-%.3f",
				 (double)h->offset_ns / 1e6, (double)h->bound_ns / 1e6);
			fprintf(f, "  %-24s %-14s %19s %9.1f", h->name,
				target_of(r, i, k), off,
				(double)p->run[i].late_ns / 1e6);
			if (x->known)
				fprintf(f, " %10.0f %9.2f %9.1f %9.1f  %s%s\n",
					x->ops_per_s, rate_value(x->mb_per_s), x->p50, x->p99,
					x->status, x->outlier ? ", OUTLIER" : "");
			else
				fprintf(f, " %10s %9s %9s %9s  %s\n", "-", "-", "-",
					"-", host_state_name(p->run[i].state));
		}
		if (m->known)
			fprintf(f, "  %-24s %-14s %19s %9s %10.0f %9.2f %9.1f %9.1f  merged: sums, percentiles of the summed histograms\n",
				"all", "", "", "", m->ops_per_s, rate_value(m->mb_per_s), m->p50,
				m->p99);
		for (i = 0; i < l->n; i++) {
			const struct host_fig *x = fig(p, i, k);

			if (x->outlier)
				fprintf(f, "  outlier: %s: ops/s %+.1f%%, p99 %+.1f%% from the median host (limit %g%%)\n",
					l->h[i].name, x->ops_dev_pct, x->p99_dev_pct,
					r->outlier_pct);
		}
	}
	for (i = 0; i < l->n; i++)
		if (p->run[i].state != HOST_OK)
			fprintf(f, "  host %s: %s: %s\n", l->h[i].name,
				host_state_name(p->run[i].state), p->run[i].reason);
}

void hosts_human(FILE *f, const struct hosts_result *r)
{
	size_t p;

	for (p = 0; p < r->npt; p++) {
		if (p)
			fputc('\n', f);
		human_point(f, r, &r->pt[p]);
	}
	if (r->hosts->n < 3)
		fprintf(f, "(outliers need 3 hosts or more: a median of %zu says nothing)\n",
			r->hosts->n);
	if (r->interrupted)
		fprintf(f, "Interrupted: the figures above are what the hosts measured until the stop\n");
}

void hosts_failures(FILE *f, const struct hosts_result *r)
{
	size_t p, i;

	for (p = 0; p < r->npt; p++)
		for (i = 0; i < r->hosts->n; i++) {
			const struct hosts_point *pt = &r->pt[p];

			if (pt->run[i].state == HOST_OK)
				continue;
			fprintf(f, "rebench: ");
			if (r->sw)
				fprintf(f, "point %zu (%s): ", pt->index + 1,
					pt->values);
			fprintf(f, "host %s: %s: %s\n", r->hosts->h[i].name,
				host_state_name(pt->run[i].state),
				pt->run[i].reason);
		}
}

/* The figures of a host or of the merged row, in the order of -n, the
 * JSON and the TSV; the latencies in the JSON's "latency_us". */
#define LAT(k, c, m) { .key = k, .group = "latency_us", .fmt = "%.3f", .col = c, \
		       .kind = DOC_NUM, .off = offsetof(struct host_fig, m) }
static const struct doc_field fig_fields[] = {
	{ .key = "ops_per_s", .fmt = "%.2f", .col = "ops_per_s", .kind = DOC_NUM,
	  .off = offsetof(struct host_fig, ops_per_s) },
	{ .key = "mib_per_s", .fmt = "%.4f", .col = "mib_per_s", .kind = DOC_NUM,
	  .off = offsetof(struct host_fig, mb_per_s) },
	{ .key = "ios", .fmt = "%.0f", .col = "ios", .kind = DOC_NUM,
	  .off = offsetof(struct host_fig, ios) },
	LAT("min", NULL, min),
	LAT("avg", NULL, avg),
	LAT("p50", "lat_p50_us", p50),
	LAT("p90", NULL, p90),
	LAT("p99", "lat_p99_us", p99),
	LAT("p99_9", NULL, p999),
	LAT("max", "lat_max_us", max),
};
#undef LAT
static const struct doc_table figs = DOC_TABLE(fig_fields);

/* x's figures after sep, "-" each when it has none. */
static void put_figs(FILE *f, char sep, const struct host_fig *x,
		     enum doc_line line)
{
	fputc(sep, f);
	doc_cells(f, sep, line, &figs, x->known ? x : NULL, NULL);
}

static void terse_row(FILE *f, const struct hosts_point *p, size_t k,
		      const char *host, const char *target, const char *status,
		      const struct host *h, uint64_t late, const struct host_fig *x,
		      const struct hosts_result *r)
{
	fprintf(f, "hosts %d ", HOSTS_TERSE_VERSION);
	if (r->sw)
		fprintf(f, "%zu", p->index + 1);
	else
		fputc('-', f);
	fprintf(f, " %zu %s %s %s", k + 1, host, target, status);
	if (h)
		fprintf(f, " %lld %llu %llu", (long long)h->offset_ns,
			(unsigned long long)h->bound_ns, (unsigned long long)late);
	else
		fputs(" - - -", f);
	put_figs(f, ' ', x, DOC_TERSE);
	fprintf(f, " %d", x->outlier);
	if (r->sw)
		fprintf(f, " %s", p->values);
	fputc('\n', f);
}

void hosts_terse(FILE *f, const struct hosts_result *r)
{
	size_t p, i, k;

	for (p = 0; p < r->npt; p++) {
		const struct hosts_point *pt = &r->pt[p];

		for (k = 0; k < pt->nwl; k++) {
			for (i = 0; i < r->hosts->n; i++) {
				const struct host_fig *x = fig(pt, i, k);

				terse_row(f, pt, k, r->hosts->h[i].name,
					  target_of(r, i, k),
					  x->known ? x->status :
					  host_state_name(pt->run[i].state),
					  &r->hosts->h[i], pt->run[i].late_ns, x, r);
			}
			terse_row(f, pt, k, "all", "-", "merged", NULL, 0,
				  &pt->merged[k], r);
		}
	}
}

static void json_point(struct json *j, const struct hosts_result *r,
		       const struct hosts_point *p)
{
	const struct host_list *l = r->hosts;
	size_t i, k;

	json_obj_begin(j, NULL);
	if (r->sw) {
		json_u64(j, "point", p->index + 1);
		json_str(j, "values", p->values);
	} else {
		json_null(j, "point");
		json_null(j, "values");
	}
	json_u64(j, "start_ns", p->start_ns);
	json_arr_begin(j, "runs");
	for (i = 0; i < l->n; i++) {
		const struct host_run *hr = &p->run[i];

		json_obj_begin(j, NULL);
		json_str(j, "host", l->h[i].name);
		json_str(j, "status", host_state_name(hr->state));
		json_str(j, "reason", hr->state == HOST_OK ? NULL : hr->reason);
		json_u64(j, "late_ns", hr->late_ns);
		if (hr->text)
			json_raw(j, "document", hr->text, hr->len);
		else
			json_null(j, "document");
		json_obj_end(j);
	}
	json_arr_end(j);
	json_arr_begin(j, "figures");
	for (k = 0; k < p->nwl; k++)
		for (i = 0; i < l->n; i++) {
			const struct host_fig *x = fig(p, i, k);

			if (!x->known)
				continue;
			json_obj_begin(j, NULL);
			json_str(j, "host", l->h[i].name);
			json_u64(j, "workload", k + 1);
			json_str(j, "status", x->status);
			doc_json(j, &figs, x, NULL);
			json_bool(j, "outlier", x->outlier);
			json_num(j, "ops_dev_pct", l->n >= 3 ? x->ops_dev_pct : NAN);
			json_num(j, "p99_dev_pct", l->n >= 3 ? x->p99_dev_pct : NAN);
			json_obj_end(j);
		}
	json_arr_end(j);
	json_arr_begin(j, "merged");
	for (k = 0; k < p->nwl; k++) {
		json_obj_begin(j, NULL);
		json_u64(j, "workload", k + 1);
		json_u64(j, "hosts", p->merged[k].hosts);
		doc_json(j, &figs, &p->merged[k], NULL);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

void hosts_json(FILE *f, const struct hosts_result *r)
{
	const struct host_list *l = r->hosts;
	struct json jw, *j = &jw;
	size_t i;

	json_init(j, f);
	report_json_head(j);
	json_obj_begin(j, "hosts");
	json_num(j, "outlier_pct", r->outlier_pct);
	json_u64(j, "max_offset_ns", r->max_offset_ns);
	json_bool(j, "interrupted", r->interrupted);
	json_arr_begin(j, "hosts");
	for (i = 0; i < l->n; i++) {
		const struct host *h = &l->h[i];

		json_obj_begin(j, NULL);
		json_str(j, "host", h->name);
		json_str(j, "target", h->target[0] ? h->target : NULL);
		json_str(j, "version", h->version);
		json_i64(j, "offset_ns", h->offset_ns);
		json_u64(j, "offset_bound_ns", h->bound_ns);
		json_num(j, "check_s", h->check_s);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_arr_begin(j, "points");
	for (i = 0; i < r->npt; i++)
		json_point(j, r, &r->pt[i]);
	json_arr_end(j);
	json_obj_end(j);
	json_obj_end(j);
	fputc('\n', f);
}

static void tsv_row(FILE *f, const struct hosts_result *r,
		    const struct hosts_point *p, size_t k, const char *host,
		    const char *target, const char *status, double off_ms,
		    double late_ms, const struct host_fig *x, const char *reason)
{
	fprintf(f, "%zu\t%s\t%s\t%zu\t%s\t%s", p->index + 1,
		r->sw ? p->values : "-", host, k + 1, target, status);
	report_put_num(f, '\t', "%.3f", off_ms);
	report_put_num(f, '\t', "%.3f", late_ms);
	put_figs(f, '\t', x, DOC_TSV);
	fprintf(f, "\t%d\t%s\n", x->outlier, reason);
}

int hosts_tsv(const char *what, const char *path,
	      const struct hosts_result *r)
{
	FILE *f = outpath_open(what, path);
	size_t p, i, k;

	if (!f)
		return -EIO;
	fprintf(f, "# rebench --hosts: %zu hosts; outliers beyond %g%% of the median host\n",
		r->hosts->n, r->outlier_pct);
	fprintf(f, "point\tvalues\thost\tworkload\ttarget\tstatus\toffset_ms\tlate_ms\t");
	doc_tsv_head(f, &figs);
	fprintf(f, "\toutlier\treason\n");
	for (p = 0; p < r->npt; p++) {
		const struct hosts_point *pt = &r->pt[p];

		for (k = 0; k < pt->nwl; k++) {
			for (i = 0; i < r->hosts->n; i++) {
				const struct host_fig *x = fig(pt, i, k);

				tsv_row(f, r, pt, k, r->hosts->h[i].name,
					target_of(r, i, k),
					x->known ? x->status :
					host_state_name(pt->run[i].state),
					(double)r->hosts->h[i].offset_ns / 1e6,
					(double)pt->run[i].late_ns / 1e6, x,
					pt->run[i].state == HOST_OK ? "-" :
					pt->run[i].reason);
			}
			tsv_row(f, r, pt, k, "all", "-", "merged", NAN, NAN,
				&pt->merged[k], "-");
		}
	}
	return outpath_close(what, path, f);
}

int hosts_plot(const char *tsv, const char *plot, const char *note,
	       const struct hosts_result *r)
{
	const char *args[2] = { tsv, plot };
	struct plot_about about;

	size_t i;
	bool own = false;

	/* the workload each host ran; the target when every host has the
	 * command line's (a hosts file may give a host its own) */
	plot_about_spec(&about, r->base, r->sw);
	for (i = 0; i < r->hosts->n; i++)
		own = own || r->hosts->h[i].target[0];
	if (r->base->target)
		snprintf(about.target, sizeof(about.target), "%.150s%s",
			 r->base->target, own ? " (or each host's own)" : " on each host");
	return plot_render("hosts.gp", args, 2, note, &about);
}
