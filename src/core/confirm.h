/* confirm.h - the safety gate before destructive work. */
#ifndef REBENCH_CONFIRM_H
#define REBENCH_CONFIRM_H

#include <stdbool.h>
#include <stddef.h>

#include "core/workload.h"

/*
 * Refuse writes to targets in use or read-only, then ask once for every workload that
 * would change data the user already has.  Answers come from /dev/tty, so
 * this works when stdin carries workload lines.  assume_yes skips the
 * question (--yes, -n).  Returns 0 to go on, -EBUSY for a target in use,
 * -EROFS for a read-only one, -EPERM when there is no terminal to ask on,
 * -ECANCELED when not confirmed, -EINTR when a signal came instead.
 */
int confirm_destructive(struct workload *wls, size_t n, bool assume_yes);

/* Every check of confirm_destructive() but the question itself (--dry-run:
 * a dry run refuses what the run would refuse): 0 when the run could go
 * on (asking first when it needs an answer and a terminal is there), or
 * its -EBUSY, -EROFS or -EPERM after the same message. */
int confirm_check(struct workload *wls, size_t n, bool assume_yes);

/* Why wl may never be written, even with --yes: a target in use (-EBUSY) or
 * read-only (-EROFS), with the reason in why; 0 when it may. */
int confirm_forbidden(const struct workload *wl, char *why, size_t len);

/* The question alone, on /dev/tty: what each workload that destroys data
 * would do, then question ("Continue? [y/N] ").  0 on yes; -ECANCELED on
 * anything else, after "rebench: <declined>" on stderr unless it is NULL;
 * -EINTR when a signal came instead; -EPERM, saying nothing, when there is
 * no terminal. */
int confirm_ask(struct workload *wls, size_t n, const char *question,
		const char *declined);

/* The same question after what (lines that say what would be written:
 * --hosts lists every host and device). */
int confirm_ask_text(const char *what, const char *question,
		     const char *declined);

/* The exit status for a non-zero return of confirm_destructive(). */
int confirm_exit_status(int ret);

#endif
