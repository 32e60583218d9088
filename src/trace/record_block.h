/* record_block.h - the block layer's record:
 *
 *	rebench --record LOG --record-block DEV [--record-block DEV]...
 *		[-n | --json] -- COMMAND [ARGS...]
 *
 * runs COMMAND and logs every request that reached DEV (a disk or a
 * partition) while it ran - what got past the page cache, whoever issued
 * it - from the kernel's block request tracepoints, read through a
 * private tracefs instance (record_block_tracefs.h), paired into one
 * record per request (record_block_match.h) in the log format of
 * --record (trace_log.h); then prints the log's statistics on stderr and
 * exits with COMMAND's status.  Root only.  rebench(1), APPLICATION I/O,
 * Recording the block layer.
 */
#ifndef REBENCH_RECORD_BLOCK_H
#define REBENCH_RECORD_BLOCK_H

#include <stdbool.h>

/* Is --record-block on the command line (before any "--")? */
bool record_block_wanted(int argc, char **argv);

/* The mode, from main(): its exit status. */
int record_block_main(int argc, char **argv);
/* Its words (mode_args.h), for --help all and rebench(1)'s OPTIONS. */
extern const struct mode_grammar record_block_grammar;

#endif
