/* readahead.h - read-ahead and access hints: --fadvise gives the page cache
 * posix_fadvise advice for a workload's region, --readahead sets the disk's
 * read_ahead_kb for the run and puts the old value back on every way out.
 */
#ifndef REBENCH_READAHEAD_H
#define REBENCH_READAHEAD_H

#include <stddef.h>

#include "core/spec.h"

#define READAHEAD_MAX_KB (1ULL << 30)	/* 1 TiB: far above any sane one */

struct workload;

/* --fadvise without -p is refused: O_DIRECT bypasses the page cache the
 * hint is for.  0 or -EINVAL after a message. */
int fadvise_check(const struct spec *s);
/* Give fd the workload's --fadvise advice for its region; 0, or -errno
 * after a message. */
int fadvise_apply(const struct workload *wl, int fd);

/* Before any I/O: every workload with --readahead has a disk whose
 * queue/read_ahead_kb exists, and workloads on one disk agree on the
 * value.  0 or -EINVAL after a message naming the workload and the fix. */
int readahead_check(const struct workload *wls, size_t n);
/* Write the values, keeping each disk's old one (only the first time a
 * disk is set, so a second run does not keep ours); 0 or -errno after a
 * message.  What was set is restored by readahead_restore(), which also
 * runs at exit. */
int readahead_apply(const struct workload *wls, size_t n);
/* Put back every value readahead_apply() changed; quiet unless it fails. */
void readahead_restore(void);

#endif
