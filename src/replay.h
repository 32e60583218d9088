/* replay.h - rebench --replay, a mode with its own small grammar:
 *
 *	rebench --replay LOG [--replay-mode asap|grouped] [--replay-align]
 *		[-p] [-t ENGINE] [--drop-caches] [-y] [-n | --json] TARGET
 *
 * The log (trace_log.h) becomes an I/O stream (stream_trace.h) that one
 * workload of the ordinary run runs: the same checks, confirmation,
 * preparation (layout of a new file, refusal of a target in use), run
 * loop, per-operation statistics and writers as any run.  rebench(1),
 * REPLAY.
 */
#ifndef REBENCH_REPLAY_H
#define REBENCH_REPLAY_H

#include <stdbool.h>

/* Does the command line ask for --replay? */
bool replay_wanted(int argc, char **argv);

/* The mode, from main(): its exit status. */
int replay_main(int argc, char **argv);

#endif
