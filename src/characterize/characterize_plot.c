/* characterize_plot.c - --characterize --plot FILE: every test's points
 * in one data file (--output FILE keeps it; otherwise a temporary one),
 * drawn by plots/characterize.gp as one page.
 *
 * The file is TSV in six blocks, each under its comment line and written
 * even when it has no rows (gnuplot's `index` skips a block without rows,
 * so plots/characterize.gp finds them by those lines):
 *   0 boundaries   bytes ratio low high verdict (1 costs more, 0 same,
 *                  2 within noise, -1 costs less)
 *   1 queue depth  qd ops_per_s low high p50_us
 *   2 read cache   set_bytes share low high p50_us
 *   3 seeks        lo_bytes hi_bytes seek_ms low high reads
 *   4 zones        offset_bytes mb_per_s
 *   5 erase        bytes ratio low high verdict seq_mb_per_s rnd_mb_per_s
 *                  (--write; ratio: sequential MiB/s over random, the
 *                  random writes' cost; verdict as for boundaries)
 * Head comments give what about.gpi reads (target, about, made) and each
 * conclusion as "# name: value low high" for the panels' titles.
 */
#include "characterize/characterize_measure.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>

#include "core/outpath.h"
#include "core/units.h"
#include "report/plot.h"

static const int verdict_code[] = {
	[CHAR_SAME] = 0, [CHAR_MORE] = 1, [CHAR_UNSURE] = 2, [CHAR_LESS] = -1,
};

static void head_figure(FILE *f, const char *name, const struct char_figure *g)
{
	if (g->known)
		fprintf(f, "# %s: %.6g %.6g %.6g\n", name, g->value, g->low, g->high);
	else
		fprintf(f, "# %s: none\n", name);
}

static void blocks(FILE *f, const struct characterize_result *r)
{
	size_t i;

	fprintf(f, "# boundaries: bytes ratio low high verdict\n");
	for (i = 0; i < r->nb; i++)
		fprintf(f, "%llu\t%.4f\t%.4f\t%.4f\t%d\n",
			(unsigned long long)r->b[i].bytes, r->b[i].ratio,
			r->b[i].low, r->b[i].high, verdict_code[r->b[i].verdict]);
	fprintf(f, "\n\n# queue depth: qd ops_per_s low high p50_us\n");
	for (i = 0; i < r->nq; i++)
		fprintf(f, "%u\t%.1f\t%.1f\t%.1f\t%.2f\n", r->q[i].qd,
			r->q[i].iops, r->q[i].known ? r->q[i].low : r->q[i].iops,
			r->q[i].known ? r->q[i].high : r->q[i].iops, r->q[i].p50_us);
	fprintf(f, "\n\n# read cache: set_bytes share low high p50_us\n");
	for (i = 0; i < r->ncs; i++)
		fprintf(f, "%llu\t%.4f\t%.4f\t%.4f\t%.2f\n",
			(unsigned long long)r->cs[i].bytes, r->cs[i].share,
			r->cs[i].low, r->cs[i].high, r->cs[i].p50_us);
	fprintf(f, "\n\n# seeks: lo_bytes hi_bytes seek_ms low high reads\n");
	for (i = 0; i < r->nsk; i++) {
		const struct char_seek *s = &r->sk[i];
		double ms, lo, hi;

		char_seek_of(r, s, &ms, &lo, &hi);
		fprintf(f, "%llu\t%llu\t%.3f\t%.3f\t%.3f\t%llu\n",
			(unsigned long long)s->lo, (unsigned long long)s->hi,
			ms, lo, hi, (unsigned long long)s->n);
	}
	fprintf(f, "\n\n# zones: offset_bytes mb_per_s\n");
	for (i = 0; i < r->nz; i++)
		fprintf(f, "%llu\t%.2f\n", (unsigned long long)r->z[i].offset,
			r->z[i].mb_per_s);
	fprintf(f, "\n\n# erase: bytes ratio low high verdict seq_mb_per_s rnd_mb_per_s\n");
	for (i = 0; i < r->nes && r->es[i].measured; i++) {
		const struct char_erase *e = &r->es[i];
		bool k = isfinite(e->high);

		fprintf(f, "%llu\t%.4f\t%.4f\t%.4f\t%d\t%.2f\t%.2f\n",
			(unsigned long long)e->bytes, e->ratio,
			k ? e->low : e->ratio, k ? e->high : e->ratio,
			verdict_code[e->verdict], e->seq.mbs, e->rnd.mbs);
	}
}

static void fill_about(const struct characterize_result *r,
		       struct plot_about *a)
{
	char size[32];

	snprintf(a->target, sizeof(a->target), "%.100s%s%.80s%s", r->tgt.path,
		 r->tgt.model[0] ? " (" : "", r->tgt.model,
		 r->tgt.model[0] ? ")" : "");
	snprintf(a->about, sizeof(a->about), "%s, %llu B sectors, direct I/O, %s for queue depths%s",
		 fmt_size_human(size, sizeof(size), r->tgt.size),
		 (unsigned long long)r->tgt.logical,
		 r->engine[0] ? r->engine : "no queueing engine",
		 r->wrote ? ", with --write" : "");
	plot_about_made(a);
}

/* Under outpath.h's rule, as every file rebench writes: --output was
 * checked before the tests, and the path may have changed since. */
static int write_data(const struct characterize_result *r, const char *path,
		      const struct plot_about *a)
{
	FILE *f = outpath_open("--output", path);

	if (!f)
		return -EIO;
	fprintf(f, "# target: %s\n# about: %s\n# made: %s\n", a->target,
		a->about, a->made);
	head_figure(f, "page_bytes", &r->page);
	head_figure(f, "parallelism", &r->parallelism);
	fprintf(f, "# knee_qd: %u\n# hit_below_us: %.2f\n", r->knee_qd,
		r->hit_below_us);
	fprintf(f, "# boundary_read_bytes: %llu\n# qd_read_bytes: %llu\n# qd_seconds: %d\n# qd_precision_pct: %d\n# cache_reads: %d\n# cache_max_reads: %d\n",
		(unsigned long long)r->read_bytes,
		(unsigned long long)r->qd_bytes, CHAR_QD_SECONDS,
		CHAR_QD_PRECISION,
		CHAR_CACHE_READS, CHAR_CACHE_MAX_READS);
	/* --write's flush test: -2 not run, -1 no verdict, 0 lies, 1 honest */
	fprintf(f, "# flush_verdict: %d\n# flush_write_p50_us: %.2f\n# flush_p50_us: %.2f\n# flush_bound_us: %.2f\n",
		!r->wrote ? -2 : !r->flush_honest.known ? -1 :
		r->flush_honest.value ? 1 : 0, r->write_p50_us,
		r->flush_p50_us, r->bound_us);
	head_figure(f, "read_cache_bytes", &r->read_cache);
	head_figure(f, "rpm", &r->rpm);
	head_figure(f, "seek_min_ms", &r->seek_min);
	head_figure(f, "seek_max_ms", &r->seek_max);
	head_figure(f, "erase_block_bytes", &r->erase_block);
	blocks(f, r);
	return outpath_close("--output", path, f);
}

int char_write_data(const struct characterize_result *r, const char *keep)
{
	struct plot_about a = { 0 };

	fill_about(r, &a);
	return write_data(r, keep, &a);
}

int char_plot(const struct characterize_result *r, const char *path,
	      const char *keep)
{
	struct plot_about a = { 0 };
	char dir[PATH_MAX], data[PATH_MAX + 32], note[PATH_MAX + 64];
	const char *args[2] = { data, path };
	int ret;

	fill_about(r, &a);
	if (keep) {
		snprintf(data, sizeof(data), "%s", keep);
		snprintf(note, sizeof(note), "the data is in %s", keep);
	} else {
		ret = outpath_make_tmpdir("--plot", "characterize", dir, sizeof(dir));
		if (ret)
			return ret;
		snprintf(data, sizeof(data), "%s/characterize.tsv", dir);
		snprintf(note, sizeof(note), "the data was temporary: add --output FILE to keep it");
	}
	ret = write_data(r, data, &a);
	if (!ret)
		ret = plot_render("characterize.gp", args, 2, note, &a);
	if (!keep)
		outpath_remove_tmpdir(dir);
	return ret;
}
