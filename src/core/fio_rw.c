/* fio_rw.c - see fio_rw.h. */
#include "core/fio_rw.h"

#include <stdio.h>
#include <strings.h>

/* fio's rw values: an operation and sequential or random offsets. */
const struct fio_rw_mode fio_rw_modes[] = {
	{ "read", "read", "seq" }, { "write", "write", "seq" },
	{ "trim", "trim", "seq" }, { "randread", "read", "rnd" },
	{ "randwrite", "write", "rnd" }, { "randtrim", "trim", "rnd" },
	{ "rw", "rw", "seq" }, { "readwrite", "rw", "seq" },
	{ "randrw", "rw", "rnd" },
};

const size_t fio_rw_count = sizeof(fio_rw_modes) / sizeof(fio_rw_modes[0]);

int fio_rw_find(const char *val)
{
	size_t i;

	for (i = 0; i < fio_rw_count; i++)
		if (!strcasecmp(fio_rw_modes[i].name, val))
			return (int)i;
	return -1;
}

bool fio_rw_hint(const char *val, char *buf, size_t len)
{
	int m = fio_rw_find(val);

	if (m < 0)
		return false;
	snprintf(buf, len, "'%s' is fio's --rw spelling: rebench says -o %s -w %s (or give --rw=%s)",
		 fio_rw_modes[m].name, fio_rw_modes[m].op,
		 fio_rw_modes[m].workload, fio_rw_modes[m].name);
	return true;
}
