/* devstat.h - what reached a device during a run, from the device's own
 * counters: /sys/dev/block/MAJ:MIN/stat (the kernel's
 * Documentation/block/stat.rst: requests completed, merged, sectors and
 * ticks of reads, writes, discards and flushes, io_ticks and
 * time_in_queue; a partition has its own).  The device is the target
 * itself, or the one holding a file's filesystem (st_dev).  Counters are
 * read once just before the measured run (after --warmup) and once after
 * it ends, never per I/O, once per device however many workloads use it.
 * They are device-wide: they count every request to the device, the run's
 * and any other's, as iostat -x and fio's "Disk stats" do.
 */
#ifndef REBENCH_DEVSTAT_H
#define REBENCH_DEVSTAT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct target;

/* The kinds the stat file counts, in its order. */
enum dev_kind { DEV_READ, DEV_WRITE, DEV_DISCARD, DEV_FLUSH, DEV_KINDS };

struct dev_reads {
	bool known;		/* both readings taken: the counts are valid */
	char name[64];		/* kernel name: loop3, sdb1 */
	char stat[64];		/* its stat file */
	dev_t dev;		/* its number */
	unsigned nfields;	/* fields the kernel gave: 11 (no discards),
				 * 15 (no flushes) or 17 */
	uint64_t reads;		/* read requests completed during the run */
	uint64_t bytes;		/* bytes they read (sectors x 512) */
	uint64_t ios[DEV_KINDS];	/* requests completed (ios[DEV_READ]
					 * == reads) */
	uint64_t merges[DEV_KINDS];	/* merged into others (no flushes) */
	uint64_t nbytes[DEV_KINDS];	/* bytes (nbytes[DEV_READ] == bytes;
					 * flushes have none) */
	uint64_t io_ticks_ms;	/* time it had requests in flight */
	uint64_t queue_ms;	/* time_in_queue: requests x time */
	uint64_t elapsed_ns;	/* between the two readings */
	uint64_t t0_ns;
	bool has[DEV_KINDS];	/* the kernel counts that kind */
	bool shared;		/* others' requests may be in the counts */
	char shared_why[300];	/* ... why (the rule: rebench(1)) */
	char why[200];		/* not known: why, for every format */
};

/* Find the device of t (opened path: a file exists by now).  Leaves
 * d->why set when there is none: tmpfs, FUSE, overlay, NFS. */
void devstat_locate(const struct target *t, struct dev_reads *d);
/* The two readings; a failed one leaves the counts unknown with why. */
void devstat_begin(struct dev_reads *d);
void devstat_end(struct dev_reads *d);

/* Is the device used by something else: mounted (itself or one of its
 * partitions) or held by another device (sysfs holders)?  Sets shared and
 * shared_why when so. */
void devstat_check_shared(struct dev_reads *d);
/* After the run: decide whether others' requests may be in the counts
 * (rebench(1), "Device"): a target that is a file on a file system
 * (file_fs: its type), the device mounted or held (devstat_check_shared),
 * or more bytes of a kind than the run's workloads on it moved with
 * O_DIRECT (direct[k] the bytes of kind k, or NULL when a workload on it
 * went through the page cache, whose reads ahead and write-back the
 * counters see too). */
void devstat_judge(struct dev_reads *d, const char *file_fs,
		   const uint64_t *direct);

/* Busy time (io_ticks) in % of the time between the readings, and the
 * mean queue depth (time_in_queue / that time): NAN when not known. */
double devstat_util_pct(const struct dev_reads *d);
double devstat_queue_depth(const struct dev_reads *d);

/* Sum over distinct devices (several workloads on one device count it
 * once): the total of a run.  Unknown when any of them is. */
void devstat_sum(struct dev_reads *out, const struct dev_reads *const *in,
		 unsigned n);

/* Device reads per request of the workload (ios): NAN when ios is 0. */
double devstat_per(const struct dev_reads *d, uint64_t ios);

#endif
