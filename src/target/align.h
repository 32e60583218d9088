/* align.h - where a target's first byte sits on its drive, and whether that
 * is aligned to each boundary that matters for I/O: physical sector,
 * minimum and optimal I/O size (as the kernel reports them), 4 KiB (the
 * flash page most drives do not report) and 1 MiB (what partitioners use).
 */
#ifndef REBENCH_ALIGN_H
#define REBENCH_ALIGN_H

#include <stdbool.h>
#include <stdint.h>

#include "target/target.h"

enum align_boundary { AB_PHYSICAL, AB_MIN_IO, AB_OPT_IO, AB_4K, AB_1M, AB_COUNT };

/* What a verdict is judged by. */
enum align_judge {
	AJ_START,		/* a device's or partition's start */
	AJ_EXTENTS,		/* files: every extent kept */
	AJ_FIRST_EXTENT,	/* files: the first placed extent */
};

struct align_verdict {
	uint64_t bytes;		/* the boundary; 0: none to check */
	bool known;		/* misalign is valid */
	uint64_t misalign;	/* bytes past the boundary below; 0 aligned */
	uint32_t extents_off;	/* AJ_EXTENTS: extents misaligned */
	enum align_judge judged_by;
	uint64_t fs_misalign;	/* files: where the filesystem starts, past
				 * the boundary below (dev_start_known) */
	char why[384];		/* !known: why not */
};

struct alignment {
	bool known;		/* offset is valid */
	char why[384];		/* !known: why not */
	const char *basis;	/* "device start", "partition start", "first extent" */
	char drive[64];		/* the whole disk the offsets are on */
	uint64_t offset;	/* drive byte where the basis starts */
	uint64_t file_offset;	/* files: the first extent's offset in the file */
	uint64_t fs_start;	/* files: drive byte where the filesystem's
				 * device starts */
	uint64_t grid;		/* the drive's alignment_offset */
	uint32_t extents;	/* files: extents judged */
	struct align_verdict v[AB_COUNT];
};

void align_compute(const struct target *t, struct alignment *a);

/* "physical_sector", "min_io", "opt_io", "4KiB", "1MiB": JSON keys. */
const char *align_key(enum align_boundary b);
/* "physical sector", "minimum I/O", ...: for people. */
const char *align_label(enum align_boundary b);
/* What a misalignment to b costs, in one sentence. */
const char *align_cost(enum align_boundary b);

/* "device start", "extents", "first extent": JSON's judged_by. */
const char *align_judge_name(enum align_judge j);

/* "aligned", "misaligned" or "unknown" over every boundary checked. */
const char *align_summary(const struct alignment *a);

/* (x - y) mod m for unsigned x, y: the residue in [0, m), for any m > 0. */
static inline uint64_t align_mod_sub(uint64_t x, uint64_t y, uint64_t m)
{
	uint64_t a = x % m, b = y % m;

	return a >= b ? a - b : m - (b - a);
}

#endif
