/* syncpol.c - --sync policies: parsing, names and what each asks of the
 * open and of the stream (syncpol.h). */
#include "core/syncpol.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "engines/iokind.h"
#include "core/units.h"

static const struct {
	const char *name;
	int mode;
	int counted;		/* takes :N */
} policies[] = {
	{ "dsync", SYNC_DSYNC, 0 },
	{ "none", SYNC_NONE, 0 },
	{ "fsync", SYNC_FSYNC, 1 },
	{ "fdatasync", SYNC_FDATASYNC, 1 },
	{ "sync", SYNC_OSYNC, 0 },
	{ "end", SYNC_END, 0 },
	{ "rwf-dsync", SYNC_RWF_DSYNC, 0 },
	{ "sfr", SYNC_SFR, 1 },
	{ "0", SYNC_NONE, 0 },		/* fio's sync=0 */
	{ "1", SYNC_OSYNC, 0 },		/* fio's sync=1: O_SYNC */
};

#define NPOLICIES (sizeof(policies) / sizeof(policies[0]))
#define EXPECTED "expected none, fsync:N, fdatasync:N, sfr:N, dsync, sync, rwf-dsync or end (or fio's 0 and 1: none and sync)"

int sync_policy_parse(const char *text, struct sync_policy *p, char *err,
		      size_t len)
{
	const char *colon = strchr(text, ':');
	size_t n = colon ? (size_t)(colon - text) : strlen(text), i;
	uint64_t every;

	for (i = 0; i < NPOLICIES; i++)
		if (strlen(policies[i].name) == n &&
		    !strncmp(policies[i].name, text, n))
			break;
	if (i == NPOLICIES) {
		snprintf(err, len, "unknown policy; " EXPECTED);
		return -EINVAL;
	}
	if (!policies[i].counted) {
		if (colon) {
			snprintf(err, len, "%s takes no count; " EXPECTED,
				 policies[i].name);
			return -EINVAL;
		}
		p->mode = policies[i].mode;
		p->every = 0;
		return 0;
	}
	if (!colon) {
		snprintf(err, len, "%s needs a count of writes per flush, e.g. %s:1 (after every write) or %s:16",
			 policies[i].name, policies[i].name, policies[i].name);
		return -EINVAL;
	}
	if (parse_uint(colon + 1, &every) || every == 0 ||
	    every > SYNC_EVERY_MAX) {
		snprintf(err, len, "the count after %s: must be a whole number of writes from 1 to %u (%s:1 flushes after every write)",
			 policies[i].name, SYNC_EVERY_MAX, policies[i].name);
		return -EINVAL;
	}
	p->mode = policies[i].mode;
	p->every = (uint32_t)every;
	return 0;
}

const char *sync_policy_format(const struct sync_policy *p, char *buf,
			       size_t len)
{
	size_t i;

	for (i = 0; i < NPOLICIES; i++)
		if (policies[i].mode == p->mode)
			break;
	if (i == NPOLICIES)
		snprintf(buf, len, "?");
	else if (policies[i].counted)
		snprintf(buf, len, "%s:%u", policies[i].name, p->every);
	else
		snprintf(buf, len, "%s", policies[i].name);
	return buf;
}

int sync_policy_open_flags(const struct sync_policy *p)
{
	/* O_SYNC holds O_DSYNC's bit and adds the metadata */
	return p->mode == SYNC_DSYNC ? O_DSYNC :
	       p->mode == SYNC_OSYNC ? O_SYNC : 0;
}

int sync_policy_flush_kind(const struct sync_policy *p)
{
	switch (p->mode) {
	case SYNC_FSYNC:
	case SYNC_END:
		return IO_FSYNC;
	case SYNC_FDATASYNC:
		return IO_FDATASYNC;
	case SYNC_SFR:
		return IO_SYNC_RANGE;
	default:
		return -1;
	}
}

int sync_policy_per_write(const struct sync_policy *p)
{
	return p->mode == SYNC_DSYNC || p->mode == SYNC_OSYNC;
}
