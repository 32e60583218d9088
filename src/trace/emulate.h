/* emulate.h - rebench --emulate, a mode with its own small grammar:
 *
 *	rebench --emulate SLOW.json --baseline FAST.json [--allow-partial]
 *		[--record LOG] [--record-path GLOB]... -- COMMAND [ARGS...]
 *
 * SLOW.json and FAST.json are the JSON results of rebench --replay
 * --replay-mode grouped of one log, on a slow device and on this machine.
 * Their per-operation times give the delays (emulate_plan.h) that make
 * COMMAND, run here under the interposer (interpose.h), wait after each
 * call as long as the slow device would have taken.  The delays, the
 * calibration and what cannot be met go to stderr (COMMAND's stdout stays
 * its own).  rebench(1), APPLICATION I/O, Emulate.
 */
#ifndef REBENCH_EMULATE_H
#define REBENCH_EMULATE_H

#include <stdbool.h>

/* Does the command line ask for --emulate (or give its --baseline)
 * before any "--"? */
bool emulate_wanted(int argc, char **argv);

/* The mode, from main(): 1 for bad arguments or results (nothing run), 2
 * when COMMAND cannot be run under the interposer, else COMMAND's exit
 * status (128+N after signal N). */
int emulate_main(int argc, char **argv);
/* Its words (mode_args.h), for --help all and rebench(1)'s OPTIONS. */
extern const struct mode_grammar emulate_grammar;

#endif
