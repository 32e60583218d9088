/* target.h - what a workload runs against: a block device, a partition or a
 * regular file, its geometry, and whether it is in use.  Probing only reads.
 */
#ifndef REBENCH_TARGET_H
#define REBENCH_TARGET_H

#include "target/sysfs.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

enum target_kind { TARGET_FILE, TARGET_DISK, TARGET_PARTITION };

/* Attributes a probe may fail to learn; each gets a reason when it does. */
enum target_field {
	TF_LOGICAL, TF_PHYSICAL, TF_MIN_IO, TF_OPT_IO, TF_ALIGN_OFF,
	TF_ROTATIONAL, TF_SCHEDULER, TF_WRITE_CACHE, TF_DISCARD, TF_MODEL,
	TF_PART_START, TF_FUA, TF_COUNT
};

#define FILE_EXTENTS 16	/* extents of a file kept for the alignment report */

struct file_extent {
	uint64_t logical;	/* offset in the file */
	uint64_t physical;	/* offset on the filesystem's device */
	uint64_t length;
	uint32_t flags;		/* FIEMAP_EXTENT_* */
};

/* Files: which filesystem and device hold the data, and where (FIEMAP). */
struct file_place {
	char fstype[32];	/* from mountinfo; "" unknown */
	unsigned fs_bsize;	/* statfs f_bsize; 0 unknown */
	char dev[64];		/* block device holding the filesystem */
	uint64_t dev_start;	/* its start on the drive (partition start) */
	bool dev_start_known;
	bool mapped;		/* extents below are valid */
	uint32_t next;		/* extents kept (<= FILE_EXTENTS) */
	uint64_t ext_total;	/* extents in the file */
	struct file_extent ext[FILE_EXTENTS];
	char why[256];		/* why the extents are unknown */
};

struct target {
	char path[PATH_MAX];
	enum target_kind kind;
	bool exists;
	dev_t rdev;		/* device number (block devices) */
	dev_t st_dev;		/* files: device of the filesystem */
	char name[64];		/* kernel name: sdb, sdb1, loop0p1 */
	char disk[64];		/* whole disk of a partition, else name */
	uint64_t size;
	unsigned logical;	/* logical sector: O_DIRECT granularity */
	unsigned physical;
	unsigned min_io;
	unsigned opt_io;
	int alignment_offset;	/* -1: unknown; the kernel's, of this device */
	int disk_align_off;	/* the whole disk's: where its physical grid
				 * starts (-1: unknown) */
	int rotational;		/* -1: unknown */
	int io_poll;		/* queue/io_poll: polled completions; -1 unknown */
	char scheduler[128];
	char write_cache[128];	/* "write back": the device has a volatile
				 * cache the kernel flushes; "write
				 * through": the kernel sends no flushes */
	int fua;		/* queue/fua: writes can carry Force Unit
				 * Access (durable without a whole-cache
				 * flush); -1 unknown */
	uint64_t discard_granularity;
	uint64_t discard_max;
	uint64_t part_start;	/* partitions: start in bytes */
	char model[64];
	unsigned fs_block;	/* files: st_blksize */
	uint64_t allocated;	/* files: st_blocks * 512 */
	bool created;		/* rebench created it for this run */
	struct file_place place;	/* files, after target_map_file() */
	char unknown[TF_COUNT][256];	/* "" or why the field is unknown */
};

/*
 * Fill t from path.  A missing file is not an error (t->exists = false).
 * Returns 0 or -errno with err holding a sentence that names the path.
 */
int target_probe(const char *path, struct target *t, char *err, size_t len);

/*
 * Why a target must not be written: anything above it in use (see
 * inuse.h for the whole list).  Returns true and a plain-words reason in
 * why when in use.
 */
bool target_in_use(const struct target *t, char *why, size_t len);

const char *target_kind_name(enum target_kind k);

/*
 * Files: the filesystem, its device, and the first extents of the file's
 * data on that device (FIEMAP).  Failures only leave reasons in t->place.
 */
void target_map_file(struct target *t);

/* "" when field f is known, else why not. */
static inline const char *target_unknown(const struct target *t,
					 enum target_field f)
{
	return t->unknown[f];
}

/* Does [off, off+len) of an open file contain a hole? */
bool file_has_hole(int fd, uint64_t off, uint64_t len);

#endif
