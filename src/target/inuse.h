/* inuse.h - is anything above a device or file in use?
 *
 * rebench never writes to something in use.  "In use" is decided on the
 * whole stack above the target, recursively:
 *   - mounted, in this or any other mount namespace (by device number);
 *   - used as swap (/proc/swaps; a swap file by its inode);
 *   - held by another device (sysfs holders: LVM, RAID, device mapper);
 *   - claimed exclusively by another program (an O_EXCL open fails);
 *   - a loop device backed by it (or by one of its partitions, or, for a
 *     partition, by its whole disk) that is itself in use by any of these;
 *     loop devices leave no holders entry and take no claim, so this is
 *     found from each loop's backing file;
 *   - for a whole disk, any of its partitions in use; for a partition, its
 *     whole disk mounted, swap or under a loop in use.
 * A loop device attached but unused does not make its backing device busy.
 */
#ifndef REBENCH_INUSE_H
#define REBENCH_INUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Block device dev, opened by path: true and the holder in why when in use. */
bool inuse_blockdev(const char *path, dev_t dev, char *why, size_t len);

/* A regular file (its device and inode): true when it backs a loop device
 * that is in use, or is a swap file. */
bool inuse_file(const char *path, dev_t st_dev, ino_t ino, char *why,
		size_t len);

/* Read-only for writes: BLKROGET on a device (losetup -r, blockdev
 * --setro), or a file on a read-only filesystem or without write access. */
bool inuse_read_only(const char *path, bool blockdev, char *why, size_t len);

#endif
