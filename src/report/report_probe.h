/* report_probe.h - rebench --probe: a target's geometry, partition, file
 * placement and alignment verdicts, as a report or as JSON.  No I/O. */
#ifndef REBENCH_REPORT_PROBE_H
#define REBENCH_REPORT_PROBE_H

#include <stdbool.h>
#include <stdio.h>

#include "target/target.h"

/* in_use: "" when not in use, else why (block devices). */
void report_probe_human(FILE *f, const struct target *t, const char *in_use);
void report_probe_json(FILE *f, const struct target *t, const char *in_use);

#endif
