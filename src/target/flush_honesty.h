/* flush_honesty.h - are a run's flushes too fast to be real?  A heuristic
 * from the median latency of the operations that end in a device cache
 * flush (fsync, fdatasync, or each O_DSYNC / O_SYNC / RWF_DSYNC write) and
 * what the device says of itself (queue/rotational, queue/write_cache).
 *
 * Two rules, each a suspicion, never a proof (only a power-cut test is:
 * write numbered records, cut the power, check which acknowledged ones
 * survived, as diskchecker.pl does):
 *  - FH_FAST_SPIN: a rotational device with a write-back cache whose
 *    flushes take a median under one revolution at 15000 rpm (4 ms, the
 *    fastest spinning disks): data cannot have reached the platter, so
 *    the drive may acknowledge flushes from its volatile cache.
 *  - FH_WRITE_THROUGH: a device reporting write through gets no cache
 *    flush from the kernel at all, so durability rests on its claim;
 *    said unless it is rotational and the median is a revolution or more
 *    (the time of a real write to the medium).
 * A sync_file_range is no such operation: it never flushes the device's
 * cache, so its speed says nothing of the drive.
 */
#ifndef REBENCH_FLUSH_HONESTY_H
#define REBENCH_FLUSH_HONESTY_H

#include <stddef.h>
#include <stdint.h>

/* One revolution at 15000 rpm: 60 s / 15000 = 4 ms. */
#define FLUSH_REVOLUTION_NS 4000000ULL
#define FLUSH_REVOLUTION_RPM 15000
/* Fewer flushes than this make no median worth judging. */
#define FLUSH_HONESTY_MIN_OPS 10

enum flush_suspicion { FH_NONE, FH_FAST_SPIN, FH_WRITE_THROUGH };

/* rotational: 1, 0 or -1 (unknown); write_cache: queue/write_cache's
 * text ("write back", "write through"; "" unknown); ops and median_ns:
 * the flushing operations measured.  Pure. */
enum flush_suspicion flush_honesty_judge(int rotational,
					 const char *write_cache,
					 uint64_t ops, double median_ns);

/* The warning for suspicion s (not FH_NONE) in buf: what (the operations:
 * "fdatasync", "O_DSYNC write"), on the device dev, with the median. */
void flush_honesty_text(enum flush_suspicion s, const char *what,
			const char *dev, double median_ns, char *buf,
			size_t len);

#endif
