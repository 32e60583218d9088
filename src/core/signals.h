/* signals.h - how a stop reaches rebench, outside and inside the run.
 *
 * SIGINT, SIGTERM and SIGHUP ask for a stop: a handler records the signal
 * and every phase (the question, the layout, the run, a sweep between its
 * points) looks at it and ends with the results so far.  A signal the
 * caller ignored stays ignored (nohup ignores SIGHUP, so the run goes on
 * when the terminal closes).  SIGPIPE is ignored, so that a closed stdout
 * is a write error rebench reports after finishing its data files, not a
 * death that loses them.
 */
#ifndef REBENCH_SIGNALS_H
#define REBENCH_SIGNALS_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

/* Once, first thing in main. */
void signals_init(void);

/* The stop signal received (SIGINT, SIGTERM, SIGHUP), or 0. */
int signals_stop_requested(void);

/* How many stop signals have come so far: a reader that starts after a
 * stop (the log of a COMMAND that was stopped) ends only at the next. */
unsigned signals_stop_count(void);

/* The stop signals rebench handles (those the caller did not ignore). */
void signals_stop_set(sigset_t *set);

/* --stop-on-eof FD: a thread reads FD and, at its end (the other side
 * closed it: --hosts's ssh went away), stops rebench as SIGTERM does.
 * 0 or -errno. */
int signals_stop_on_eof(int fd);

/* In a child before exec: the dispositions rebench was started with. */
void signals_restore_for_child(void);

/* Wait for child pid, passing each of SIGTERM and SIGHUP that reaches
 * rebench on to it once (SIGINT from a terminal reaches it directly).  A
 * signal that came at any moment since the fork is passed on: the stop
 * signals are blocked while the flag is looked at and let through only
 * inside the wait itself.  0 with its status, or -errno. */
int signals_wait_forwarding(pid_t pid, int *status);

#endif
