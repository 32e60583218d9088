/* report_table.c - a sweep's table: one row per point and workload, one
 * column per swept option and per metric (columns: rebench-output(5), SWEEP
 * OUTPUT).  The human writer prints it on standard output; the sweep driver
 * writes it to --output and to the copy gnuplot reads.
 */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>

#include "core/outpath.h"
#include "report/report.h"
#include "report/section.h"
#include "report/summary.h"
#include "core/sweep.h"

void report_sweep_cell(const struct sweep_axis *ax, size_t i, char *buf,
		       size_t len)
{
	const char *v = ax->values[i];

	if (ax->opt->type == OPT_TIME)
		snprintf(buf, len, "%g", strtod(v, NULL) / (double)ax->opt->unit_ns);
	else
		snprintf(buf, len, "%s", v);
}

void report_table_header(FILE *f, const struct sweep *sw, unsigned cols)
{
	size_t a;

	for (a = 0; a < sw->naxes; a++)
		fprintf(f, "%s\t", sw->axes[a].opt->name);
	fprintf(f, "workload\ttarget\tops_per_s\tmib_per_s\tlat_min_us\tlat_avg_us\tlat_p50_us\tlat_p90_us\tlat_p99_us\tlat_p999_us\tlat_max_us\tios\tstatus");
	sections_tsv_head(f, cols);
	fputc('\n', f);
}

void report_table_rows(FILE *f, const struct sweep *sw, const struct report *r,
		       unsigned cols)
{
	size_t idx[SWEEP_MAX_AXES], a, k;
	char buf[64];

	sweep_indices(sw, r->point, idx);
	for (k = 0; k < r->n; k++) {
		const struct workload *wl = &r->wls[k];
		struct lat_summary l;

		if (!wl->result.have_result)
			continue;
		lat_summarize(wl->result.stats, &l);
		for (a = 0; a < sw->naxes; a++) {
			report_sweep_cell(&sw->axes[a], idx[a], buf, sizeof(buf));
			fprintf(f, "%s\t", buf);
		}
		fprintf(f, "%zu\t%s\t%.2f\t%.4f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%llu\t%s",
			k + 1, wl->tgt.path, wl->result.stats->ops_per_s, wl->result.stats->mb_per_s,
			l.min, l.avg, l.p50, l.p90, l.p99, l.p999, l.max,
			(unsigned long long)wl->result.stats->ops_total,
			workload_status_name(workload_status(wl, r->interrupted)));
		sections_tsv(f, &(struct section_ctx){ r, wl, wl->result.stats },
			     cols);
		fputc('\n', f);
	}
	if (f == stdout)
		outpath_flush_stdout();	/* keeps the first error's errno */
	else
		fflush(f);
}
