/* sysfs.h - one line of sysfs, procfs or a cgroup file; a block device's
 * sysfs directory.  Below the target probe and the in-use checks, which
 * both read sysfs. */
#ifndef REBENCH_SYSFS_H
#define REBENCH_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The first line of DIR/NAME without its newline.  On failure, false
 * with the reason in why (when given: wlen bytes). */
bool read_line_why(const char *dir, const char *name, char *buf,
		   size_t len, char *why, size_t wlen);

/* The first line of DIR/NAME (sysfs, /proc), without its newline; false
 * when it cannot be read or is empty. */
bool read_first_line(const char *dir, const char *name, char *buf, size_t len);

/* Write val to the sysfs, procfs or cgroup file path in one write(2):
 * 0 or -errno. */
int write_value(const char *path, const char *val);

/* sysfs directory of a block device number, resolved (PATH_MAX bytes):
 * /sys/devices/virtual/block/loop0/loop0p1.  False when there is none. */
bool sysfs_dir(dev_t dev, char *out);
/* The whole disk under dev (itself, or a partition's parent): its sysfs
 * directory into dir (PATH_MAX bytes) and its name ("sda" for sda1) into
 * name.  False when dev has no sysfs directory. */
bool sysfs_disk_of(dev_t dev, char *dir, char *name, size_t nlen);

#endif
