/* durability.h - the durability verdict of a write run: does every write
 * the run saw acknowledged survive a power loss, as far as the storage
 * stack promises?  Durable, not durable or unknown, with the reason in
 * one sentence (docs/design.md, DURABILITY).
 *
 * Two halves: what lies under the target (the stack: RAM or not, write
 * caches, file systems that make no promise), read once from sysfs and
 * mountinfo before the run; and the rules, a pure function of the stack
 * and the workload's policy, so a unit test can walk every case.
 */
#ifndef REBENCH_DURABILITY_H
#define REBENCH_DURABILITY_H

#include <stdbool.h>
#include <stddef.h>

struct spec;
struct target;

enum durability {
	DUR_NA,		/* the run writes nothing: no verdict */
	DUR_DURABLE,
	DUR_UNKNOWN,
	DUR_NOT_DURABLE,	/* the worst last: a total takes the max */
};

#define DUR_STACK_DEPTH 8	/* loop over a file on a loop over ... */

/* What is under a target, top to bottom. */
struct dur_stack {
	bool file;		/* the target is a file on a file system */
	bool ram;		/* data lands in RAM: zram, brd, tmpfs, ramfs */
	bool no_promise;	/* a file system whose flushes promise nothing
				 * we can see (FUSE, network, overlay) */
	bool lost;		/* the chain could not be followed */
	bool no_flush;		/* a file system in the stack is mounted so
				 * that it sends no flush (nobarrier) to a
				 * device with a write-back cache */
	char no_flush_what[160];	/* "ext4 on loop2 is mounted nobarrier" */
	int top_write_cache;	/* the device the target is on: 1 write back,
				 * 0 write through, -1 unknown */
	char what[160];		/* ram: "zram0", "tmpfs"; no_promise: "fuse
				 * file system"; lost: why */
	char chain[256];	/* "loop3 over /tmp/img on ext4 on vda" */
};

struct dur_verdict {
	int verdict;		/* enum durability */
	char reason[1024];	/* a sentence; -n leaves it out */
};

/* Follow the stack under t (sysfs, mountinfo, loop backing files); only
 * reads.  Never fails: what cannot be followed is st->lost and why. */
void dur_stack_probe(const struct target *t, struct dur_stack *st);

/* The rules (pure): the verdict on the writes of s over st. */
void dur_judge(const struct spec *s, const struct dur_stack *st,
	       struct dur_verdict *v);

/* "durable", "not-durable", "unknown"; "-" for DUR_NA.  One spelling for
 * every format (-n, JSON, the sweep table). */
const char *dur_name(int verdict);

#endif
