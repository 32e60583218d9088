/* sweep_matrix.c - TABLE.matrix and TABLE.matrix.noise (sweep_matrix.h). */
#include "study/sweep_matrix.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/outpath.h"
#include "report/report.h"
#include "study/sweep_noise.h"

/* The cells of the points whose name axis is at value c, rows * columns,
 * from one value per point; NULL when memory is short. */
static double *grid(const struct sweep *sw, const struct plot_axes *ax,
		    size_t c, const double *vals)
{
	const struct sweep_axis *cx = &sw->axes[ax->cx];
	size_t idx[SWEEP_MAX_AXES], p;
	double *cell = malloc(sw->axes[ax->ry].n * cx->n * sizeof(*cell));

	for (p = 0; cell && p < sw->npoints; p++) {
		sweep_indices(sw, p, idx);
		if (ax->cat == SWEEP_MAX_AXES || idx[ax->cat] == c)
			cell[idx[ax->ry] * cx->n + idx[ax->cx]] = vals[p];
	}
	return cell;
}

/* The comment lines: what the rows, columns and values are, then what
 * produced them (plots/about.gpi). */
static void head(FILE *f, const char *kind, const struct sweep *sw,
		 const struct plot_axes *ax, const char *column,
		 const struct plot_about *about)
{
	fprintf(f, "# rebench sweep %s\n# rows: %s\n# columns: %s\n# values: %s\n",
		kind, sw->axes[ax->ry].opt->name, sw->axes[ax->cx].opt->name,
		column);
	plot_about_write(f, about, false);
}

/* gnuplot "matrix nonuniform": first row the column values, then each
 * row value followed by its cells ("nan" where there is none). */
static void body(FILE *f, const struct sweep *sw, const struct plot_axes *ax,
		 const double *cell)
{
	const struct sweep_axis *ry = &sw->axes[ax->ry], *cx = &sw->axes[ax->cx];
	char buf[64];
	size_t i, j;

	fprintf(f, "%zu", cx->n);
	for (j = 0; j < cx->n; j++) {
		report_sweep_cell(cx, j, buf, sizeof(buf));
		fprintf(f, " %s", buf);
	}
	fputc('\n', f);
	for (i = 0; i < ry->n; i++) {
		report_sweep_cell(ry, i, buf, sizeof(buf));
		fprintf(f, "%s", buf);
		for (j = 0; j < cx->n; j++)
			fprintf(f, " %.2f", cell[i * cx->n + j]);
		fputc('\n', f);
	}
}

int sweep_matrix_write(const char *path, const struct sweep *sw,
		       const struct plot_axes *ax, size_t c, const double *vals,
		       const char *column, const struct plot_about *about)
{
	double *cell = grid(sw, ax, c, vals);
	FILE *f;

	if (!cell)
		return -ENOMEM;
	f = outpath_open("the sweep matrix", path);
	if (!f) {
		free(cell);
		return -EIO;
	}
	head(f, "matrix", sw, ax, column, about);
	body(f, sw, ax, cell);
	free(cell);
	return outpath_close("the sweep matrix", path, f);
}

static const char *const mark_names[] = { "best", "tied", "outlier" };

int sweep_noise_write(const char *path, const struct sweep *sw,
		      const struct plot_axes *ax, const double *vals,
		      const double *lo, const double *hi, bool lower_better,
		      const char *method, const struct plot_about *about)
{
	size_t ncx = sw->axes[ax->cx].n, ncells = sw->axes[ax->ry].n * ncx;
	double *v = grid(sw, ax, 0, vals), *l = grid(sw, ax, 0, lo);
	double *h = grid(sw, ax, 0, hi), *pct = malloc(ncells * sizeof(*pct));
	unsigned *marks = malloc(ncells * sizeof(*marks));
	struct noise_summary s;
	int ret = -ENOMEM, b;
	size_t i;
	FILE *f;

	if (!v || !l || !h || !pct || !marks)
		goto out;
	noise_judge(v, l, h, ncells, lower_better, marks, &s);
	for (i = 0; i < ncells; i++)
		pct[i] = v[i] > 0 && !isnan(l[i]) && !isnan(h[i]) ?
			 100.0 * (h[i] - l[i]) / 2 / v[i] : NAN;
	ret = -EIO;
	f = outpath_open("the sweep noise file", path);
	if (!f)
		goto out;
	head(f, "noise", sw, ax, "half-width of the 95% interval, % of the value", about);
	if (s.known)
		fprintf(f, "# noise: +-%.1f%% (median half-width of %zu cells, %.1f..%.1f%%; %s)\n",
			s.median_pct, s.known, s.min_pct, s.max_pct, method);
	else
		fprintf(f, "# noise: unknown (%s)\n", method);
	fprintf(f, "# colour range: %.6g %.6g (%zu outlier%s beyond Tukey's far fences)\n",
		s.cb_low, s.cb_high, s.outliers, s.outliers == 1 ? "" : "s");
	fprintf(f, "# best: %zu %zu %.2f\n", s.best % ncx + 1, s.best / ncx + 1,
		v[s.best]);
	fprintf(f, "# tied: %zu cells within noise of the best\n", s.tied);
	body(f, sw, ax, pct);
	/* block 1 for gnuplot's "index 1": the marked cells */
	fprintf(f, "\n\n# column row mark (columns and rows from 1, as the heatmap's cells)\n");
	for (i = 0; i < ncells; i++)
		for (b = 0; b < 3; b++)
			if (marks[i] & (1U << b))
				fprintf(f, "%zu %zu %s\n", i % ncx + 1,
					i / ncx + 1, mark_names[b]);
	ret = outpath_close("the sweep noise file", path, f);
out:
	free(v);
	free(l);
	free(h);
	free(pct);
	free(marks);
	return ret;
}
