/* mountinfo.h - which mount, if any, has a given device as its source. */
#ifndef REBENCH_MOUNTINFO_H
#define REBENCH_MOUNTINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Look dev up in /proc/self/mountinfo.  When found, the first mount point
 * goes to mnt and the filesystem type to fstype (either may be NULL).
 */
bool mountinfo_find(dev_t dev, char *mnt, size_t mlen, char *fstype,
		    size_t flen);

#endif
