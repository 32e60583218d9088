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

/* The same, giving the file system's type and its super block's options
 * (the field after the source: "rw,nobarrier"; empty when not found). */
bool mountinfo_find_fs(dev_t dev, char *fstype, size_t flen, char *opts,
		       size_t olen);

/* The file system type of the directory that holds path (a name that
 * need not exist yet): false when that directory cannot be stat'ed or is
 * in no mount.  By name, not statfs(2): devtmpfs reports tmpfs's magic. */
bool mountinfo_dir_fs(const char *path, char *fstype, size_t flen);

/*
 * Look dev up in every mount namespace: this one first, then each other
 * namespace once, through /proc/PID/mountinfo of a process in it.  When
 * found, *pid is 0 for this namespace or a process of the other one.
 */
bool mountinfo_find_any(dev_t dev, char *mnt, size_t mlen, pid_t *pid);

#endif
