/* record_block_dev.h - the devices of --record-block: a disk or a
 * partition given by its path, known by sysfs (/sys/dev/block/MAJ:MIN):
 * the disk the block events name (a partition's requests are its disk's,
 * within its sectors), and whether that disk makes requests at all (a
 * blk-mq queue: its mq directory; bio-based devices have none).
 */
#ifndef REBENCH_RECORD_BLOCK_DEV_H
#define REBENCH_RECORD_BLOCK_DEV_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "trace/record_block_match.h"

struct blk_dev_info {
	char path[PATH_MAX];	/* absolute, links resolved */
	unsigned maj, min;	/* the device's */
	unsigned dmaj, dmin;	/* its disk's (itself for a disk) */
	struct blk_dev b;	/* what the pairing needs */
};

/*
 * A device given: 0, or after a message -EINVAL (missing, not a block
 * device: a bad argument), -EOPNOTSUPP (a bio-based device: no request
 * ever names it) or -ENOENT, -EIO (sysfs lacks what it should have).
 */
int blk_dev_resolve(const char *given, struct blk_dev_info *d);

/* Do two devices share sectors (a request would be recorded twice)? */
bool blk_dev_overlap(const struct blk_dev_info *x,
		     const struct blk_dev_info *y);

/* The tracefs filter of n devices: the kernel drops every other event. */
void blk_dev_filter(const struct blk_dev_info *d, int n, char *out,
		    size_t len);

#endif
