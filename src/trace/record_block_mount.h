/* record_block_mount.h - tracefs and debugfs as --record-block mounts
 * them when none is mounted: marked as rebench's, unmounted at the end,
 * and, when a record was killed before its end (SIGKILL), by the next
 * record.
 *
 * A mount of rebench has the source "rebench-PID" (the device name a
 * pseudo file system ignores; /proc/self/mountinfo shows it), so that a
 * later record knows it for one of rebench's, and whether the rebench that
 * made it still runs.  A mount of the system or of another tool never has
 * that source and is never unmounted.  A mount is unmounted only when it
 * is the top one on its mount point (umount(2) takes the top one: a mount
 * made over ours since is not ours), and without MNT_DETACH, so that a
 * mount still in use stays, and the failure is said.
 */
#ifndef REBENCH_RECORD_BLOCK_MOUNT_H
#define REBENCH_RECORD_BLOCK_MOUNT_H

#include <stdbool.h>
#include <stddef.h>

#define BLK_MOUNT_SOURCE "rebench-"	/* then the pid */

/* The mount point of the first mount of fstype: true and mnt. */
bool blk_mount_find(const char *fstype, char *mnt, size_t len);

/* Mount fstype on dir, marked as this process's: 0 or -errno. */
int blk_mount(const char *fstype, const char *dir);

/* Unmount the top mount on dir when this process made it: 0, or -errno
 * (-EBUSY: in use, or another mount is over it now; -ENOENT: not ours). */
int blk_unmount(const char *dir);

/* Unmount every tracefs and debugfs mount (with the tracefs a debugfs
 * mounted under it) that a rebench no longer running left, each said on
 * stderr: how many were unmounted. */
unsigned long blk_unmount_stale(void);

#endif
