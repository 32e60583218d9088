/* devstat.h - how many of a run's reads reached the device, from the
 * device's own counters: /sys/dev/block/MAJ:MIN/stat (fields 1 and 3,
 * reads completed and sectors read; a partition has its own).  The device
 * is the target itself, or the one holding a file's filesystem (st_dev).
 * Counters are read once just before the measured run (after --warmup) and
 * once after it ends, never per I/O.  They count every reader of the
 * device: other processes and the run's other workloads on it too.
 */
#ifndef REBENCH_DEVSTAT_H
#define REBENCH_DEVSTAT_H

#include <stdbool.h>
#include <stdint.h>

struct target;

struct dev_reads {
	bool known;		/* both readings taken: reads, bytes valid */
	char name[64];		/* kernel name: loop3, sdb1 */
	char stat[64];		/* its stat file */
	uint64_t reads;		/* read requests completed during the run */
	uint64_t bytes;		/* bytes they read (sectors x 512) */
	char why[200];		/* not known: why, for every format */
};

/* Find the device of t (opened path: a file exists by now).  Leaves
 * d->why set when there is none: tmpfs, FUSE, overlay, NFS. */
void devstat_locate(const struct target *t, struct dev_reads *d);
/* The two readings; a failed one leaves the counts unknown with why. */
void devstat_begin(struct dev_reads *d);
void devstat_end(struct dev_reads *d);

/* Sum over distinct devices (several workloads on one device count it
 * once): the total of a run.  Unknown when any of them is. */
void devstat_sum(struct dev_reads *out, const struct dev_reads *const *in,
		 unsigned n);

/* Device reads per request of the workload (ios): NAN when ios is 0. */
double devstat_per(const struct dev_reads *d, uint64_t ios);

#endif
