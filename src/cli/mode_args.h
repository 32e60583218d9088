/* mode_args.h - the words of the modes with a grammar of their own
 * (--record, --record-block, --delay -- COMMAND, --trace-to, --replay,
 * --emulate): "--name VALUE" or "--name=VALUE", before a "--" that starts
 * COMMAND.  One reading for all of them, so that "--record=LOG" and
 * "--record LOG" mean the same in every mode and "--record-path" is never
 * taken for "--record".
 */
#ifndef REBENCH_MODE_ARGS_H
#define REBENCH_MODE_ARGS_H

#include <stdbool.h>

#include "trace/trace_stats.h"

/* Is w the option name, alone or as "name=value"? */
bool mode_is(const char *w, const char *name);

/* Is the option name one of argv's words before "--"? */
bool mode_given(int argc, char **argv, const char *name);

/* The value of the option name at argv[*i] ("name=V", or "name V", then
 * *i moves past V); NULL when the word is another option, or when V is
 * missing (then *missing is set). */
const char *mode_value(int argc, char **argv, int *i, const char *name,
		       bool *missing);

/* The statistics format word at w: "-n" or "--silent" (terse), "--json".
 * 0 when taken into *fmt (*given set); -EINVAL when another format was
 * given before; 1 when w is no format word. */
int mode_format(const char *w, enum trace_stats_format *fmt, bool *given);

#endif
