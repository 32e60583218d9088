/* record.h - the application I/O modes, each with its own small grammar:
 *
 *	rebench --record LOG [--record-path GLOB]... [-n | --json] -- COMMAND [ARGS...]
 *	rebench --trace-stats LOG [-n | --json]
 *
 * --record runs COMMAND under librebench-record.so (LD_PRELOAD), which
 * logs its calls on files and block devices to LOG (trace_log.h), waits
 * for it, prints the log's statistics on stderr and exits with COMMAND's
 * status.  --trace-stats prints a log's statistics (trace_stats.h) on
 * stdout.  rebench(1), APPLICATION I/O.
 */
#ifndef REBENCH_RECORD_H
#define REBENCH_RECORD_H

#include <stdbool.h>

/* Does the command line ask for one of these modes (before any "--")? */
bool record_wanted(int argc, char **argv);

/* The mode, from main(): its exit status. */
int record_main(int argc, char **argv);
/* Its words (mode_args.h), for --help all and rebench(1)'s OPTIONS. */
extern const struct mode_grammar record_grammar;

#endif
