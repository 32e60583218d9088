/* plot.h - --plot: render data files through the gnuplot scripts, and
 * tell them what produced the data. */
#ifndef REBENCH_PLOT_H
#define REBENCH_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/spec.h"

struct spec;
struct sweep;
struct workload;

/* --plot-metric: what a sweep's plot (and its matrix) shows.  AUTO is
 * MB/s for a sequential workload and ops/s for a random one. */
/* Workloads named in a legend (rb_wl1 ..); later ones are "workload N". */
#define PLOT_NAMES 16

/*
 * What produced a plot's data, as the strings of plots/about.gpi: the
 * scripts put them in the title and the corner.  "" where unknown or where
 * the plot varies it (a swept option is on an axis, not in the title).
 */
struct plot_about {
	char target[192];	/* "/dev/sdb (Samsung SSD 860)" */
	char about[256];	/* "read, rnd uniform, 4k, stateful, QD 1" */
	char duration[96];	/* "5s per point", "10s run in 1s intervals" */
	char made[64];		/* "rebench 0.1.0, 2024-05-01 12:00" */
	const char *workload;	/* "rnd", "seq", or "" when swept */
	const char *metric;	/* table column: "ops_per_s" ..., or NULL */
	size_t nnames;
	char names[PLOT_NAMES][160];	/* "/dev/sdb: read, seq, 64k" */
};

/*
 * Fill a from the workloads of one point (or one run): what they share
 * goes to target and about, each one's own to names[].  sw: the sweep
 * (its options are left out), or NULL for a run; runs: --repeat.
 */
void plot_about_fill(struct plot_about *a, const struct workload *wls,
		     size_t n, const struct sweep *sw, size_t runs);

/* The same from the workloads of wls[0 .. n) that write the --output file
 * output (the others left out), for that file's comment lines. */
void plot_about_fill_file(struct plot_about *a, const struct workload *wls,
			  size_t n, const char *output);

/*
 * The comment lines of a data file that say what produced it, the lines
 * plots/about.gpi reads: "# target: ", "# about: ", "# duration: ",
 * "# made: ", "# workload: " (rnd or seq), each left out when its string
 * is ""; with names, then "# workload N: NAME" for each workload named (a
 * legend's name: "/dev/sdb: read, seq, 64 KiB I/Os, stateful, QD 1").
 */
void plot_about_write(FILE *f, const struct plot_about *a, bool names);

/* The same from a spec alone (no target: the caller names it), for a
 * driver that runs it elsewhere (--hosts). */
void plot_about_spec(struct plot_about *a, const struct spec *s,
		     const struct sweep *sw);

/* a->made: "rebench VERSION, DATE TIME" of now. */
void plot_about_made(struct plot_about *a);

/* The metric a plot of spec s draws (AUTO resolved; a swept -w counts as
 * random), and its column in the sweep table. */
int plot_metric_resolve(int metric, const struct spec *s,
			const struct sweep *sw);
const char *plot_metric_column(int metric);

/*
 * --plot FILE: is its extension one gnuplot can draw here (png, svg, pdf;
 * jpg or jpeg when this gnuplot has the jpeg terminal)?  0, or -EINVAL
 * with a sentence in err: the name, why, and what to write instead.  Runs
 * gnuplot only for jpg; a gnuplot that is not installed passes (the plot
 * then fails after the run with the package to install, as for png).
 */
int plot_check_format(const char *path, char *err, size_t len);

struct run_ctx;
/* --plot FILE: the rule of outpath.h, the format, and neither a target
 * nor an --output of ctx's workloads; 0 or -EINVAL after a message. */
int plot_check_path(const struct run_ctx *ctx, const char *plot);

/*
 * Run `gnuplot [-e ABOUT] -c DIR/script args...` where DIR is
 * $REBENCH_PLOTS, else plots/ beside the rebench binary (a build tree),
 * else the installed share/rebench/plots, and ABOUT sets about.gpi's
 * variables from about (none when NULL).  args[1] is the picture to write:
 * gnuplot draws into a new file beside it, which replaces it only when
 * gnuplot succeeded (a rename: never a write through the name, never half
 * a picture).  0, or -errno after a message that says where the data
 * stays (a missing gnuplot names the package to install).
 */
int plot_render(const char *script, const char *const *args, int nargs,
		const char *data_note, const struct plot_about *about);

#endif
