/* memcg.h - --cache SIZE: the run's page cache limited by a memory cgroup.
 *
 * A child of the process's own memory cgroup (/proc/self/cgroup), named
 * rebench-PID, is created for the run with its limit set to SIZE (cgroup
 * v2 memory.max where a v2 memory controller is usable, else v1
 * memory.limit_in_bytes); the process moves into it before the layout and
 * the threads, so every page the run brings into the page cache, and the
 * buffers and statistics it allocates, are charged to it.  The target's
 * pages already cached are dropped before the run (fdatasync, then
 * POSIX_FADV_DONTNEED over each region), so they are neither charged
 * elsewhere nor a warm start.  After the run the process moves back and
 * the cgroup is removed: by cleanup_all() on every way out of a run
 * (SIGINT, SIGTERM and SIGHUP end runs that way, signals.h) and at exit.
 * The kernel's other caches (dentries, inodes, the block layer's) are not
 * limited by it.
 */
#ifndef REBENCH_MEMCG_H
#define REBENCH_MEMCG_H

#include <stddef.h>
#include <stdint.h>

struct workload;

#define MEMCG_MARGIN (16ULL << 20)	/* thread stacks, kernel memory
					 * charged to the run, and room to do
					 * I/O at all: measured, see
					 * memcg_check() */

/* Before any I/O: --cache only with page cache I/O (-p, mmap), one value
 * for all workloads of a run (they share the cgroup), at least what
 * rebench itself needs, and a memory controller this process can use.
 * 0 or -EINVAL after a message with what, why and the fix. */
int memcg_check(const struct workload *wls, size_t n);
/* Create the cgroup, set its limit and move this process into it; does
 * nothing without --cache.  0 or -errno after a message. */
int memcg_enter(const struct workload *wls, size_t n);
/* Write back and drop the targets' cached pages over their regions, after
 * the layout; 0 or -errno after a message. */
int memcg_drop_target_pages(const struct workload *wls, size_t n);
/* Move back and remove the cgroup; quiet unless it fails.  Safe to call
 * when none was created, and runs at exit. */
void memcg_leave(void);
/* "cgroup v1 /sys/fs/cgroup/memory/.../rebench-123": where the last run's
 * limit was, for reports; "" when none. */
const char *memcg_where(void);

#endif
