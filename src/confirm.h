/* confirm.h - the safety gate before destructive work. */
#ifndef REBENCH_CONFIRM_H
#define REBENCH_CONFIRM_H

#include <stdbool.h>
#include <stddef.h>

#include "workload.h"

/*
 * Refuse writes to devices in use, then ask once for every workload that
 * would change data the user already has.  Answers come from /dev/tty, so
 * this works when stdin carries workload lines.  assume_yes skips the
 * question (--yes, -n).  Returns 0 to go on, -EBUSY for a device in use,
 * -EPERM when there is no terminal to ask on, -ECANCELED when not confirmed.
 */
int confirm_destructive(struct workload *wls, size_t n, bool assume_yes);

#endif
