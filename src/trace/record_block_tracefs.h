/* record_block_tracefs.h - a private tracefs instance with the block
 * request tracepoints of some devices, read as binary ring buffers.
 *
 * tracefs is the one mounted (the first in /proc/self/mountinfo), else
 * rebench mounts it on /sys/kernel/tracing, else - a kernel older than
 * tracefs - debugfs on /sys/kernel/debug, with tracing in it; what it
 * mounted it unmounts at the end, and what a killed record mounted the
 * next one unmounts first (record_block_mount.h).  $REBENCH_TRACEFS names
 * another directory to use as tracefs (a test's way to an incomplete
 * one).
 *
 * The instance, instances/rebench-PID, has its own ring buffer, clock,
 * filters and enabled events, so the global trace and other users of
 * tracefs are undisturbed; an instance of a rebench that no longer runs
 * (killed by SIGKILL) is removed on the next open.  Its clock is "mono"
 * (CLOCK_MONOTONIC, in ns), each CPU's buffer BLK_BUFFER_KB, and a
 * blocking poll wakes up when a buffer is a quarter full.
 */
#ifndef REBENCH_RECORD_BLOCK_TRACEFS_H
#define REBENCH_RECORD_BLOCK_TRACEFS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/record_block_ring.h"

#define BLK_BUFFER_KB 4096	/* per CPU: ~35000 requests between reads */
#define BLK_WAKE_PERCENT 25	/* buffer_percent: a poll wakes up here */

struct blk_tracefs {
	char root[PATH_MAX];	/* tracefs */
	char inst[PATH_MAX + 48];	/* the instance; "" until made */
	char mnt_tracefs[PATH_MAX];	/* mounted by rebench, "" none */
	char mnt_debugfs[PATH_MAX];
	int ncpu;
	int *fd;		/* per_cpu/cpuN/trace_pipe_raw, O_NONBLOCK */
	size_t subbuf;		/* bytes one read returns */
	unsigned char *buf;
	struct blk_ring_format fmt;
	struct blk_ring_loss loss;
	unsigned long stale_removed;	/* instances of dead rebench runs */
	unsigned long stale_unmounted;	/* their mounts */
};

/*
 * Find or mount tracefs, make the instance, set its clock and buffer,
 * read the formats, set filter on the three events (not enabled yet) and
 * open every CPU's buffer.  0, or -errno with err saying what is missing
 * and how to get it (everything done so far is undone).
 */
int blk_tracefs_open(struct blk_tracefs *t, const char *filter, char *err,
		     size_t len);

/* Enable or disable one event (enum blk_ev_kind): 0 or -errno (err). */
int blk_tracefs_enable(struct blk_tracefs *t, int kind, bool on, char *err,
		       size_t len);

/* Stop the ring buffer (tracing_on 0): what is in it stays to read. */
int blk_tracefs_stop(struct blk_tracefs *t);

/*
 * Read every CPU's buffer until it is empty, appending the events to out:
 * 0, or -errno with err (a sub-buffer that cannot be decoded is -EINVAL).
 */
int blk_tracefs_drain(struct blk_tracefs *t, struct blk_events *out,
		      char *err, size_t len);

/* Wait up to timeout_ms for a buffer to fill to BLK_WAKE_PERCENT, or for
 * extra_fd (if >= 0) to be readable: poll(2)'s result. */
int blk_tracefs_wait(struct blk_tracefs *t, int extra_fd, int timeout_ms);

/* Events the ring lost (per_cpu/cpuN/stats: overrun and dropped events). */
uint64_t blk_tracefs_lost(const struct blk_tracefs *t);

/* Disable, close, remove the instance, unmount what was mounted; each
 * failure is printed on stderr.  Safe after a failed open, and twice. */
void blk_tracefs_close(struct blk_tracefs *t);

#endif
