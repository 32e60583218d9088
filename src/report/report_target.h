/* report_target.h - a target's geometry and alignment verdict, as a JSON
 * object (every run's --json and --probe --json) and as one line for the
 * human header, so no result is separated from the layout it ran on.
 */
#ifndef REBENCH_REPORT_TARGET_H
#define REBENCH_REPORT_TARGET_H

#include <stdio.h>

#include "target/align.h"
#include "core/json.h"
#include "target/target.h"

/* "target": {...}; in_use is NULL when not checked (runs). */
void report_json_target(struct json *j, const struct target *t,
			const char *in_use);
/* "Layout: ..." in one line, with a newline. */
void report_layout_line(FILE *f, const struct target *t);

/* JSON key of a probed field, for the "unknown" object. */
const char *target_field_key(enum target_field f);

#endif
