/* validate.h - checks of a workload before anything runs. */
#ifndef REBENCH_VALIDATE_H
#define REBENCH_VALIDATE_H

#include "core/spec.h"
#include "target/target.h"

/* Drop command-line defaults that do not apply to the line's engine. */
void spec_adapt_defaults(struct spec *s);
/* Checks that need no target.  0 or -EINVAL after an error message. */
int spec_check(const struct spec *s);
/* Region, alignment and limits against the probed target. */
int spec_resolve(struct spec *s, const struct target *t);
/* -d as bytes: the byte and I/O limits of that many bytes (a size mix's
 * I/O count from its mean size), at least one I/O. */
void spec_limit_bytes(struct spec *s, uint64_t bytes);
struct dist;
/* The offset distribution on the resolved region (random workloads). */
int spec_resolve_dist(struct spec *s, struct dist *d);

#endif
