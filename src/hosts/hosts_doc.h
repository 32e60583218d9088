/* hosts_doc.h - what a host's rebench prints, parsed within the memory
 * budget and believed only when it matches what was sent: the JSON
 * version and rebench version, the number of workloads and each one's
 * TARGET, the start instant, and figures that are finite, non-negative
 * and consistent with each other.  A document that does not is the
 * host's failure, with the reason. */
#ifndef REBENCH_HOSTS_DOC_H
#define REBENCH_HOSTS_DOC_H

#include <stddef.h>
#include <stdint.h>

#include "hosts/hosts.h"
#include "core/json_read.h"

/* text parsed, what the tree costs taken from memory_budget() first (an
 * upper bound from its commas, colons and brackets): 0, *doc and
 * *charged (for hosts_doc_free), or -EINVAL / -ENOMEM with why. */
int hosts_doc_parse(const char *text, size_t len, const char *name,
		    struct json_value **doc, uint64_t *charged, char *why,
		    size_t wlen);
void hosts_doc_free(struct json_value *doc, uint64_t charged);

/* Host i's --dry-run --json document against what it was sent (points:
 * the sweep's, 1 without one): 0, or -EINVAL with why.  On 0, h's
 * version, json_version, destroys, nwl and targets are set. */
int hosts_doc_check_dry(const struct host_list *l, size_t i,
			const struct json_value *doc, size_t points,
			char *why, size_t len);

/* Host i's --json document of a run that was to start at start_ns (the
 * host's clock): 0, or -EINVAL with why. */
int hosts_doc_check_run(const struct host_list *l, size_t i,
			const struct json_value *doc, uint64_t start_ns,
			char *why, size_t len);

#endif
