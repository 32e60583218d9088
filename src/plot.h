/* plot.h - --plot: render data files through the gnuplot scripts. */
#ifndef REBENCH_PLOT_H
#define REBENCH_PLOT_H

/*
 * Run `gnuplot -c DIR/script args...` where DIR is $REBENCH_PLOTS, else
 * plots/ beside the rebench binary (a build tree), else the installed
 * share/rebench/plots.  0, or -errno after a message that says where the
 * data stays (a missing gnuplot names the package to install).
 */
int plot_render(const char *script, const char *const *args, int nargs,
		const char *data_note);

#endif
