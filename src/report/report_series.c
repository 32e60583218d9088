/* report_series.c - --output FILE: the time series as TSV, or with -g 0
 * every I/O.  Workloads naming the same file share it; the workload column
 * tells their rows apart.  Written after the run, so the hot loop only
 * stores counters and 32-byte records.  When a workload of the file mixes
 * kinds of operation (its per-kind series, iv_kind_ops, are kept), the
 * series gains one ops/s column per kind so kept (read_ops_per_s, ...).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/outpath.h"
#include "report/plot.h"
#include "report/report.h"
#include "report/summary.h"
#include "stats/steady_run.h"

/* The per-kind columns of the file of r->wls[first] (a bit per kind):
 * none unless a workload of the file kept per-kind series; then every kind
 * that occurred in the file, so each I/O is in one kind's column (a
 * workload of one kind keeps no per-kind series: its series is that
 * kind's). */
static unsigned file_kinds(const struct report *r, size_t first)
{
	const char *path = r->wls[first].spec.output;
	unsigned kept = 0, kinds = 0;
	size_t k;
	int j;

	for (k = first; k < r->n; k++) {
		const struct workload *wl = &r->wls[k];

		if (!wl->spec.output || strcmp(wl->spec.output, path) ||
		    !wl->result.have_result)
			continue;
		kinds |= result_kinds(wl->result.stats);
		for (j = 0; j < IO_KINDS; j++)
			if (wl->result.stats->iv_kind_ops[j])
				kept |= 1U << j;
	}
	return kept ? kept | kinds : 0;
}

/* I/Os of one kind in interval i: its own series, or all of them when it
 * is the workload's only kind, else none. */
static uint64_t kind_ios(const struct result *r, int kind, size_t i)
{
	if (r->iv_kind_ops[kind])
		return r->iv_kind_ops[kind][i];
	return result_kinds(r) == 1U << kind ? r->iv_ops[i] : 0;
}

static void write_intervals(FILE *f, const struct workload *wl, unsigned kinds)
{
	const struct result *r = wl->result.stats;
	double step_s = (double)r->step_ns / 1e9;
	size_t i;
	int k;

	for (i = 0; i < r->n_series; i++) {
		/* the last interval may be partial: rate over its real length */
		double end = (double)(i + 1) * step_s, len = step_s;

		if (end > (double)r->elapsed_ns / 1e9) {
			end = (double)r->elapsed_ns / 1e9;
			len = end - (double)i * step_s;
		}
		if (len <= 0)
			continue;
		fprintf(f, "%u\t%.6f\t%llu\t%.2f\t%.4f\t%.3f\t%.3f",
			wl->index + 1, end, (unsigned long long)r->iv_ops[i],
			(double)r->iv_ops[i] / len,
			(double)r->iv_bytes[i] / len / 1048576.0,
			r->iv_ops[i] ? (double)r->iv_lat_sum[i] / (double)r->iv_ops[i] / 1e3 : 0.0,
			(double)r->iv_lat_max[i] / 1e3);
		for (k = 0; k < IO_KINDS; k++)
			if (kinds & (1U << k))
				fprintf(f, "\t%.2f", (double)kind_ios(r, k, i) / len);
		fputc('\n', f);
	}
}

/* Merge the threads' logs (each already in completion order) by time. */
static void write_ios(FILE *f, const struct workload *wl)
{
	unsigned n = (unsigned)wl->spec.threads, t, best;
	char off[32];
	struct io_log_chunk **c = calloc(n, sizeof(*c));
	size_t *pos = calloc(n, sizeof(*pos));

	if (!c || !pos)
		goto out;
	for (t = 0; t < n; t++)
		c[t] = wl->run.workers[t].st.log_head;
	for (;;) {
		const struct io_rec *r, *b = NULL;

		best = 0;
		for (t = 0; t < n; t++) {
			while (c[t] && pos[t] == c[t]->n) {
				c[t] = c[t]->next;
				pos[t] = 0;
			}
			if (!c[t])
				continue;
			r = &c[t]->recs[pos[t]];
			if (!b || r->t_ns < b->t_ns) {
				b = r;
				best = t;
			}
		}
		if (!b)
			break;
		/* O_APPEND puts the data at the end of the file, wherever that
		 * is at the moment: the offset is not known, so say so. */
		if (wl->spec.append)
			snprintf(off, sizeof(off), "-");
		else
			snprintf(off, sizeof(off), "%llu", (unsigned long long)b->off);
		fprintf(f, "%u\t%.6f\t%u\t%s\t%s\t%u\t%.3f\n", wl->index + 1,
			(double)b->t_ns / 1e9, best, io_kind_name(b->kind), off,
			b->len, (double)b->lat_ns / 1e3);
		pos[best]++;
	}
out:
	free(c);
	free(pos);
}

/* --steady-state: the rounds instead of a series, for steadystate.gp. */
static int write_rounds(const struct report *r, size_t first)
{
	const char *path = r->wls[first].spec.output;
	FILE *f = outpath_open("--output", path);
	size_t k, i;

	if (!f)
		return -EIO;
	fprintf(f, "workload\tround\tops_per_s\tmib_per_s\tlat_p99_us\tin_window\n");
	for (k = first; k < r->n; k++) {
		const struct steady_data *d = r->wls[k].result.steady;

		if (!d || !r->wls[k].spec.output ||
		    strcmp(r->wls[k].spec.output, path))
			continue;
		for (i = 0; i < d->rounds; i++)
			fprintf(f, "%zu\t%zu\t%.2f\t%.4f\t%.3f\t%d\n", k + 1, i + 1,
				d->r[i].ops, d->r[i].mbs, d->r[i].p99,
				d->v.judged && i + 1 >= d->v.first &&
				i + 1 <= d->v.last);
	}
	return outpath_close("--output", path, f);
}

static int write_file(const struct report *r, size_t first)
{
	const char *path = r->wls[first].spec.output;
	bool per_io = r->wls[first].spec.sample_ns == 0;
	unsigned kinds = per_io ? 0 : file_kinds(r, first);
	struct plot_about about;
	size_t k;
	int j;
	FILE *f;

	if (r->wls[first].result.steady)
		return write_rounds(r, first);
	f = outpath_open("--output", path);
	if (!f)
		return -EIO;
	if (per_io) {
		fprintf(f, "workload\ttime_s\tthread\top\toffset\tsize\tlatency_us\n");
	} else {
		/* what produced the series, for a plot drawn from the file
		 * alone (plots/timeseries.gp through about.gpi) */
		plot_about_fill_file(&about, r->wls, r->n, path);
		plot_about_write(f, &about, true);
		fprintf(f, "workload\ttime_s\tios\tops_per_s\tmib_per_s\tlat_avg_us\tlat_max_us");
		for (j = 0; j < IO_KINDS; j++)
			if (kinds & (1U << j))
				fprintf(f, "\t%s_ops_per_s", io_kind_name(j));
		fputc('\n', f);
	}
	for (k = first; k < r->n; k++) {
		const struct workload *wl = &r->wls[k];

		if (!wl->spec.output || strcmp(wl->spec.output, path) ||
		    !wl->result.have_result || (wl->spec.sample_ns == 0) != per_io)
			continue;
		if (per_io)
			write_ios(f, wl);
		else
			write_intervals(f, wl, kinds);
	}
	return outpath_close("--output", path, f);
}

/* Every --output file of the run (a sweep has none: its --output is the
 * table); 0 or -errno after printing the error, the other files written
 * all the same. */
static int series_report(struct report_out *o, const struct report *r)
{
	size_t k, m;
	int ret = 0;

	(void)o;
	for (k = 0; k < r->n; k++) {
		const struct spec *s = &r->wls[k].spec;
		bool seen = false;

		if (!s->output)
			continue;
		for (m = 0; m < k && !seen; m++)
			seen = r->wls[m].spec.output &&
			       !strcmp(r->wls[m].spec.output, s->output);
		if (!seen) {
			int e = write_file(r, k);

			if (e && !ret)
				ret = e;
		}
	}
	return ret;
}

const struct report_writer report_series_writer = {
	.name = "series",
	.report = series_report,
};
