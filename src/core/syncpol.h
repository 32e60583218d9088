/* syncpol.h - --sync: how a workload's writes are made durable.
 *
 * A policy is either a flag of the open (O_DSYNC, O_SYNC: every write
 * returns only once durable), or flushes the synthetic stream issues
 * itself (fsync, fdatasync or sync_file_range after every N writes, or one
 * fsync after the last), so their number is exact and each is timed as its
 * own operation (stream_synth.c).  The classic default is dsync; -f is none.
 */
#ifndef REBENCH_SYNCPOL_H
#define REBENCH_SYNCPOL_H

#include <stddef.h>
#include <stdint.h>

enum sync_mode {
	SYNC_DSYNC,		/* O_DSYNC: the classic default */
	SYNC_NONE,		/* nothing asked: -f */
	SYNC_FSYNC,		/* fsync after every N writes */
	SYNC_FDATASYNC,		/* fdatasync after every N writes */
	SYNC_OSYNC,		/* O_SYNC */
	SYNC_END,		/* one fsync after the last write */
	SYNC_RWF_DSYNC,		/* RWF_DSYNC on each write (pwritev2, the
				 * uring and naio request flag) */
	SYNC_SFR,		/* sync_file_range(2) of the range written,
				 * after every N writes: writeback only, not
				 * durable (no cache flush, no metadata) */
};

struct sync_policy {
	int mode;		/* enum sync_mode */
	uint32_t every;		/* N of fsync:N, fdatasync:N, sfr:N, else 0 */
};

#define SYNC_EVERY_MAX 1000000000U

/* Parse "none", "fsync:N", "fdatasync:N", "sfr:N", "dsync", "sync",
 * "rwf-dsync" or "end" (and fio's "0" and "1", none and sync): 0, or
 * -EINVAL with why in err (without the option's name). */
int sync_policy_parse(const char *text, struct sync_policy *p, char *err,
		      size_t len);
/* As it was written: "fdatasync:4". */
const char *sync_policy_format(const struct sync_policy *p, char *buf,
			       size_t len);
/* The open flags it adds to a writing workload (O_DSYNC, O_SYNC or 0). */
int sync_policy_open_flags(const struct sync_policy *p);
/* The kind of flush it issues (IO_FSYNC, IO_FDATASYNC, IO_SYNC_RANGE), or
 * -1. */
int sync_policy_flush_kind(const struct sync_policy *p);
/* Does every write come back durable by a flag of the open (dsync, sync)? */
int sync_policy_per_write(const struct sync_policy *p);

#endif
