/* replay.h - rebench --replay, a mode with its own small grammar:
 *
 *	rebench --replay LOG [--replay-mode asap|grouped|timed]
 *		[--replay-speed F] [--replay-align] [-p] [-m] [-t ENGINE]
 *		[--drop-caches] [--seed N] [-y] [-n | --json] TARGET|DIR
 *
 * The log (trace_log.h) becomes I/O streams (stream_trace.h), one per
 * worker, that one workload of the ordinary run runs: the same checks,
 * confirmation, preparation (layout of a new file, refusal of a target in
 * use), run loop, per-operation statistics and writers as any run, and a
 * report of the replay's own (replay_result.h).  A directory as target:
 * replay_dir.h.  rebench(1), APPLICATION I/O, Replay.
 */
#ifndef REBENCH_REPLAY_H
#define REBENCH_REPLAY_H

#include <stdbool.h>

/* Does the command line ask for --replay? */
bool replay_wanted(int argc, char **argv);

/* The mode, from main(): its exit status. */
int replay_main(int argc, char **argv);
/* Its words (mode_args.h), for --help all and rebench(1)'s OPTIONS. */
extern const struct mode_grammar replay_grammar;

#endif
