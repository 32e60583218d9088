/* mountinfo.c - /proc/self/mountinfo lookups by device number. */
#include "mountinfo.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

bool mountinfo_find(dev_t dev, char *mnt, size_t mlen, char *fstype,
		    size_t flen)
{
	char line[4096], where[PATH_MAX], type[64];
	unsigned maj, min;
	bool found = false;
	FILE *f = fopen("/proc/self/mountinfo", "r");
	const char *sep;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		/* id parent maj:min root mount-point options [tags] - type src */
		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &maj, &min, where) != 3 ||
		    makedev(maj, min) != dev)
			continue;
		found = true;
		if (mnt)
			snprintf(mnt, mlen, "%s", where);
		sep = strstr(line, " - ");
		if (fstype && sep && sscanf(sep + 3, "%63s", type) == 1)
			snprintf(fstype, flen, "%s", type);
		break;
	}
	fclose(f);
	return found;
}
