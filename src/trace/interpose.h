/* interpose.h - run a command under librebench-record.so, the LD_PRELOAD
 * interposer: for --record (a log), --delay (delays after its calls) and
 * --emulate (calibrated delays).  rebench(1), APPLICATION I/O.
 *
 * What the interposer gets, in the environment of COMMAND and of every
 * process it starts (it re-reads them at each exec):
 *
 *	LD_PRELOAD		the interposer, before an LD_PRELOAD already set
 *	REBENCH_RECORD_LOG	absolute path of the log (no log: unset)
 *	REBENCH_RECORD_LOG_ID	DEV:INO of the log rebench created and holds
 *	REBENCH_RECORD_COUNTS	FD:DEV:INO of the counters of what did not
 *				reach the log (record_log.h)
 *	REBENCH_RECORD_START	CLOCK_MONOTONIC ns of the log's TIME 0
 *	REBENCH_RECORD_PATHS	the --record-path globs, '\n' between
 *	REBENCH_DELAY		delay_format()'s form (no delay: unset)
 *	REBENCH_DELAY_CALIB	delay_calib_format()'s form: rebench
 *				calibrates once, the processes do not
 */
#ifndef REBENCH_INTERPOSE_H
#define REBENCH_INTERPOSE_H

#include <sys/types.h>

#include "core/delay.h"

#define INTERPOSE_MAX_GLOBS 16	/* as the interposer's MAX_GLOBS */

/* Run argv (argv[0] looked up in PATH) under librebench-record.so:
 * recording to log (NULL: no log) with the --record-path globs, and with
 * delays d (NULL or none: no delay) waited with calibration c.  Refuses
 * before running anything a command that is missing or not executable, or
 * static (no dynamic loader), and a library that cannot be found: prints
 * why and returns 2.  Else the command's exit status (128+N for signal N),
 * or EXIT_OUTPUT_FAILED in place of 0 when the log is incomplete.
 *
 * The log, when given, is created here with its header ("# command:",
 * "# start:", "# record-path:", "# delay:", "# status:" lines); its path
 * must have passed outpath_check() (the caller's bad argument, exit 1).
 * It is held, and closed at the end, as record_log.h says: what was lost
 * is said on stderr.  When nothing ran it is removed again.  Messages name the mode: "--record"
 * with a log, else "--delay". */
int interpose_run(char **argv, const char *log, const char *const *globs,
		  unsigned nglobs, const struct delay_set *d,
		  const struct delay_calib *c);

/* The same, messages naming mode ("--emulate"), and -errno instead of 2
 * when nothing ran, so that a caller can tell a refusal from a command
 * that exited with 2.  *log_fd (when log_fd is not NULL) is then a new
 * descriptor reading the log rebench wrote, whatever its path leads to
 * now (-1 when there is none). */
int interpose_exec(const char *mode, char **argv, const char *log,
		   const char *const *globs, unsigned nglobs,
		   const struct delay_set *d, const struct delay_calib *c,
		   int *log_fd);

/* What interpose_exec checks before it runs anything (the interposer can
 * be found, COMMAND exists, is executable and dynamic), for a caller that
 * has more to say first: 0, or -errno after the same message. */
int interpose_check(const char *mode, char **argv);

/* Fork and exec path with argv, setup(arg) run in the child first (its
 * environment): the child's pid once the exec has succeeded, or -errno
 * after "rebench: MODE: cannot run PATH: why" (the exec's error comes back
 * through a pipe closed on exec, and the child is reaped). */
pid_t interpose_start(const char *mode, const char *path, char **argv,
		      void (*setup)(const void *arg), const void *arg);

/* COMMAND as execvp would find it (PATH, or a path with a '/'), into out:
 * 0, or -ENOENT after "rebench: MODE: cannot run NAME: why". */
int interpose_find_command(const char *mode, const char *name, char *out,
			   size_t len);

#endif
