/* sweep_matrix.h - the files a heatmap is drawn from: TABLE.matrix (the
 * values of workload 1's metric over two swept numbers) and
 * TABLE.matrix.noise (their intervals, the best cell, the cells within
 * noise of it and the outliers: sweep_noise.h), both read by
 * plots/heatmap.gp.  Formats: rebench-output(5), SWEEP OUTPUT. */
#ifndef REBENCH_SWEEP_MATRIX_H
#define REBENCH_SWEEP_MATRIX_H

#include <stdbool.h>
#include <stddef.h>

#include "report/plot.h"
#include "core/sweep.h"

/* The plot's axes: rows and columns of the matrix (the first and second
 * numeric axes), and the list of names with a panel per value, if any. */
struct plot_axes {
	size_t ry, cx, cat;	/* cat == SWEEP_MAX_AXES: none */
};

/* gnuplot "matrix nonuniform" of vals[] (one per point) of the points
 * whose name axis is at value c; 0 or -errno after a message. */
int sweep_matrix_write(const char *path, const struct sweep *sw,
		       const struct plot_axes *ax, size_t c, const double *vals,
		       const char *column, const struct plot_about *about);

/* The noise file of a heatmap without panels: vals[], lo[] and hi[] per
 * point (NaN: none); method says where the intervals came from.  0 or
 * -errno after a message. */
int sweep_noise_write(const char *path, const struct sweep *sw,
		      const struct plot_axes *ax, const double *vals,
		      const double *lo, const double *hi, bool lower_better,
		      const char *method, const struct plot_about *about);

#endif
