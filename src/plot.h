/* plot.h - --plot: render data files through the gnuplot scripts. */
#ifndef REBENCH_PLOT_H
#define REBENCH_PLOT_H

/*
 * Run `gnuplot -c DIR/script args...` where DIR is $REBENCH_PLOTS, else
 * plots/ beside the rebench binary (a build tree), else the installed
 * share/rebench/plots.  args[1] is the picture to write: gnuplot draws
 * into a new file beside it, which replaces it only when gnuplot succeeded
 * (a rename: never a write through the name, never half a picture).  0, or
 * -errno after a message that says where the data stays (a missing
 * gnuplot names the package to install).
 */
int plot_render(const char *script, const char *const *args, int nargs,
		const char *data_note);

#endif
