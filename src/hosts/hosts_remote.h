/* hosts_remote.h - the side of --hosts that runs on each host, in any
 * rebench: --start-at T (measure from a common instant), --stop-on-eof FD
 * (stop when the ssh connection goes away) and --clock-echo (answer each
 * line on stdin with this machine's CLOCK_REALTIME, for the clock offsets).
 */
#ifndef REBENCH_HOSTS_REMOTE_H
#define REBENCH_HOSTS_REMOTE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/spec.h"

/* T of --start-at: "SECONDS[.FRACTION]" since the epoch, to ns; 0 or
 * -EINVAL. */
int hosts_parse_start_at(const char *text, uint64_t *ns);

/* A line of --clock-echo: ns since the epoch; 0 or -EINVAL. */
int hosts_parse_clock(const char *line, uint64_t *ns);

/* --start-at and --stop-on-eof of run put in place; 0 or -EINVAL after a
 * message. */
int hosts_remote_setup(const struct run_opts *run);

/* Is this rebench --clock-echo? */
bool clock_echo_wanted(int argc, char **argv);
/* Each line read from stdin gets a line "NS" of CLOCK_REALTIME, flushed;
 * the exit status at the end of stdin. */
int clock_echo_main(void);

#endif
