/* runinfo.h - what says which run a document is: when rebench started
 * (local time, ISO 8601 with its offset from UTC), on which host, its
 * command line, and the lines it read from standard input, verbatim (blank
 * lines and comments too, so that stdin[N - 1] is line N, the "line" of a
 * workload's parameters).  --json prints it as the "run" object.
 */
#ifndef REBENCH_RUNINFO_H
#define REBENCH_RUNINFO_H

#include <stddef.h>
#include <stdint.h>

struct json;

/* --start-at: when the first run's threads were to go (CLOCK_REALTIME ns
 * since the epoch; 0 none), when they did (0: not yet) and how late that
 * was.  The run loop waits for it and fills it in (workload.h). */
struct run_start_at {
	uint64_t at_ns, real_ns, late_ns;
};

/* Once, first thing in main: the time, the host and argv (kept, not
 * copied: main's argv lives as long as the process). */
void runinfo_start(int argc, char **argv);
/* One line read from standard input, len bytes without its newline;
 * 0 or -ENOMEM. */
int runinfo_stdin_line(const char *line, size_t len);
/* "run": {date, timezone, host, command_line, argv, stdin}. */
void runinfo_json(struct json *j);
/* The command line as a shell would take it back: words quoted only where
 * they need it.  Into buf (cut at len); returns buf. */
char *runinfo_command_line(char *buf, size_t len);
void runinfo_free(void);
/* The process's --start-at, for its documents' heads: set by the
 * option's check, filled in by the first run. */
struct run_start_at *runinfo_start_at(void);

#endif
