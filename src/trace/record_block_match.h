/* record_block_match.h - block events paired into requests, each written
 * as one record of the log (trace_log.h): what reached a device.
 *
 * An issue is paired with the completions of the same device, operation
 * (R, W, D or a flush: trace_blk_call) and sector, the oldest pending
 * issue first (FIFO).  A flush pairs on the operation alone: the kernel
 * shows its issue at sector 0 and its completion at sector -1.  A
 * completion of fewer sectors than asked (a partial one) moves the
 * request on to the sector after it, to wait for the rest; a completion
 * with an error ends it.  A requeue takes the oldest matching issue back
 * (the driver refused it; it is issued again, and that issue counts).  A
 * completion of 0 sectors of a read, write or discard is the end of a
 * flush sequence (the request that asked for a preflush or FUA the device
 * lacks, completed once its flush requests were): no request of its own.
 *
 * Events come in batches, each sorted here by time; a batch may miss an
 * event of another CPU that a later batch holds, so a completion without
 * its issue waits, as an orphan, for an issue up to its own time.
 *
 * The record: TIME the time since start_ns, PID/TID the issuing
 * task's process (tgid_of) and thread (a pid 0 - the idle task, an issue
 * from an interrupt - is 1, as the log's ids start at 1), CALL by
 * trace_blk_call, FD 3 plus the device's index, FILE the device's path,
 * OFFSET and SIZE in bytes (from the partition's start), RESULT the bytes
 * (0 for a discard or a flush) or -ENAME of the error, DURATION the last
 * completion's time minus the issue's, ARG as trace_blk_call sets it.
 * The first record of each task is preceded by "# task PID/TID: COMM".
 */
#ifndef REBENCH_RECORD_BLOCK_MATCH_H
#define REBENCH_RECORD_BLOCK_MATCH_H

#include <stdint.h>
#include <stdio.h>

#include "trace/record_block_ring.h"
#include "trace/trace_calls.h"

/* A device recorded. */
struct blk_dev {
	const char *path;	/* FILE of its records */
	uint32_t dev;		/* its disk's dev_t, as the events show it */
	uint64_t first, count;	/* a partition's sectors; count 0: a disk */
};

struct blk_counts {
	uint64_t records;
	uint64_t calls[TC_COUNT];	/* records per call */
	uint64_t failed;		/* records with an error */
	uint64_t unfinished;	/* issued, not complete when it ended */
	uint64_t orphans;	/* completed, issued before it began */
	uint64_t requeued;
	uint64_t unmatched_requeues;	/* a requeue with no issue */
	uint64_t other;		/* issues of no record (N) */
	uint64_t seq_ends;	/* empty completions of flush sequences */
};

struct blk_pending;
struct blk_orphan;
struct blk_task;

struct blk_match {
	FILE *out;
	uint64_t start_ns;
	const struct blk_dev *devs;
	unsigned ndevs;
	uint32_t (*tgid_of)(uint32_t tid);	/* the process of a thread */
	struct blk_pending *pool;	/* issues not yet complete */
	uint32_t npool, cap_pool, free_head;	/* free: index + 1 */
	uint32_t *bucket;	/* index + 1 of a chain's first */
	uint32_t nbucket;
	uint64_t npending;
	struct blk_orphan *orphan;	/* completions waiting for an issue */
	size_t norphan, cap_orphan;
	struct blk_task *task;	/* tasks named so far (open addressing) */
	uint32_t ntask, cap_task;
	struct blk_counts c;
};

/* 0 or -ENOMEM.  Records go to out; devs must outlive m. */
int blk_match_init(struct blk_match *m, FILE *out, uint64_t start_ns,
		   const struct blk_dev *devs, unsigned ndevs,
		   uint32_t (*tgid_of)(uint32_t tid));

/* One batch (sorted here, in place): 0 or -ENOMEM. */
int blk_match_feed(struct blk_match *m, struct blk_event *ev, size_t n);

/* Issues waiting for their completion. */
static inline uint64_t blk_match_pending(const struct blk_match *m)
{
	return m->npending;
}

/* The end: what is still pending or orphaned is counted as unmatched. */
void blk_match_finish(struct blk_match *m);

void blk_match_free(struct blk_match *m);

#endif
