/* align.c - alignment verdicts from a probed target.  Pure arithmetic on
 * the probe, so it is unit-tested with made-up geometries (512e drives,
 * RAID stripes, alignment offsets) that loop devices cannot produce.
 *
 * The drive's alignment_offset G says where its physical grid starts: the
 * first naturally aligned byte (a 512e drive jumpered for Windows XP has
 * G = 3584).  A byte offset D is aligned to a boundary B when
 * (D - G) mod B == 0; the kernel computes a partition's alignment_offset
 * the same way (queue_limit_alignment_offset() in block/blk-settings.c).
 *
 * A file is judged by where its data sits on the drive (FIEMAP), never by
 * where its filesystem starts: an I/O at file offset X of an extent that
 * maps file offset L to drive byte P lands at P + X - L.  Boundaries up to
 * the filesystem's block size (or 4 KiB, what small I/O pays for) are
 * judged by every extent kept, since each extent is placed in whole
 * blocks.  Larger ones (1 MiB, a RAID stripe) by the first extent, where
 * the file's data starts: no filesystem lines every extent up with them,
 * so a count of extents would only say that.  Where the filesystem starts
 * is given beside them (fs_misalign), as the part a user can fix.
 */
#include "target/align.h"

#include <stdio.h>
#include <string.h>
#include <linux/fiemap.h>

static const struct {
	const char *key, *label, *cost;
} boundaries[AB_COUNT] = {
	[AB_PHYSICAL] = { "physical_sector", "physical sector",
		"every I/O the size of a physical sector spans two, and the drive must read-modify-write to change one" },
	[AB_MIN_IO] = { "min_io", "minimum I/O",
		"I/O of the preferred minimum size spans two units: read-modify-write on 512e drives and RAID parity" },
	[AB_OPT_IO] = { "opt_io", "optimal I/O",
		"full-stripe I/O lands on two stripes: RAID writes turn into partial-stripe read-modify-write" },
	[AB_4K] = { "4KiB", "4 KiB",
		"each 4 KiB I/O touches two flash pages or 4 KiB sectors; SSDs often report 512 B but work in 4 KiB or more" },
	[AB_1M] = { "1MiB", "1 MiB",
		"partitioners start at 1 MiB so erase blocks and RAID chunks up to 1 MiB line up; larger I/O straddles them" },
};

const char *align_key(enum align_boundary b) { return boundaries[b].key; }

const char *align_judge_name(enum align_judge j)
{
	static const char *const names[] = {
		[AJ_START] = "start", [AJ_EXTENTS] = "extents",
		[AJ_FIRST_EXTENT] = "first extent",
	};

	return names[j];
}
const char *align_label(enum align_boundary b) { return boundaries[b].label; }
const char *align_cost(enum align_boundary b) { return boundaries[b].cost; }

/* Extents whose location is not a plain device offset. */
#define UNPLACED (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DATA_ENCRYPTED | \
		  FIEMAP_EXTENT_ENCODED | FIEMAP_EXTENT_DATA_INLINE | \
		  FIEMAP_EXTENT_DATA_TAIL | FIEMAP_EXTENT_NOT_ALIGNED)

/* The boundary sizes and, when one is unknown, why. */
static void boundary_sizes(const struct target *t, struct alignment *a)
{
	struct align_verdict *v = a->v;

	v[AB_PHYSICAL].bytes = t->physical;
	if (!t->physical)
		snprintf(v[AB_PHYSICAL].why, sizeof(v->why), "physical sector size unknown: %s",
			 t->unknown[TF_PHYSICAL]);
	v[AB_MIN_IO].bytes = t->min_io;
	if (!t->min_io)
		snprintf(v[AB_MIN_IO].why, sizeof(v->why), "minimum I/O size unknown: %s",
			 t->unknown[TF_MIN_IO]);
	v[AB_OPT_IO].bytes = t->opt_io;
	if (t->unknown[TF_OPT_IO][0])
		snprintf(v[AB_OPT_IO].why, sizeof(v->why), "optimal I/O size unknown: %s",
			 t->unknown[TF_OPT_IO]);
	else if (!t->opt_io)
		snprintf(v[AB_OPT_IO].why, sizeof(v->why), "the device reports no optimal I/O size");
	v[AB_4K].bytes = 4096;
	v[AB_1M].bytes = 1 << 20;
}

/* Files: judge each placed extent by where file offset 0 would fall if
 * the extent's mapping went on (physical - logical), so an I/O aligned in
 * the file is aligned on the drive exactly when this residue is 0. */
static void judge_extents(const struct target *t, struct alignment *a)
{
	const struct file_place *p = &t->place;
	bool first = true;
	uint32_t i;
	int b;

	for (i = 0; i < p->next; i++) {
		const struct file_extent *e = &p->ext[i];
		uint64_t start;

		if (e->flags & UNPLACED)
			continue;
		start = p->dev_start + e->physical;
		if (first) {
			a->offset = start;
			a->file_offset = e->logical;
			first = false;
		}
		a->extents++;
		for (b = 0; b < AB_COUNT; b++) {
			uint64_t B = a->v[b].bytes;

			if (B && align_mod_sub(align_mod_sub(start, a->grid, B),
					      e->logical, B))
				a->v[b].extents_off++;
		}
	}
	if (first) {
		a->known = false;
		snprintf(a->why, sizeof(a->why), "none of the file's first %u extents has a device location (inline, encoded or delayed allocation)",
			 p->next);
	}
}

/* Files: the largest boundary judged by the extents themselves. */
static uint64_t extent_limit(const struct target *t)
{
	return t->place.fs_bsize > 4096 ? t->place.fs_bsize : 4096;
}

void align_compute(const struct target *t, struct alignment *a)
{
	int b;

	memset(a, 0, sizeof(*a));
	snprintf(a->drive, sizeof(a->drive), "%s", t->disk);
	boundary_sizes(t, a);
	a->known = true;
	if (t->kind == TARGET_DISK && t->alignment_offset >= 0)
		a->grid = (uint64_t)t->alignment_offset;	/* BLKALIGNOFF of the disk */
	else if (t->disk_align_off >= 0)
		a->grid = (uint64_t)t->disk_align_off;
	else {
		a->known = false;
		snprintf(a->why, sizeof(a->why), "the drive's alignment offset is unknown: %s",
			 t->unknown[TF_ALIGN_OFF]);
	}
	switch (t->kind) {
	case TARGET_DISK:
		a->basis = "device start";
		a->offset = 0;
		break;
	case TARGET_PARTITION:
		a->basis = "partition start";
		a->offset = t->part_start;
		if (t->unknown[TF_PART_START][0]) {
			a->known = false;
			snprintf(a->why, sizeof(a->why), "the partition start is unknown: %s",
				 t->unknown[TF_PART_START]);
		}
		break;
	case TARGET_FILE:
		a->basis = "first extent";
		if (!a->known)
			break;
		if (!t->place.dev_start_known) {
			a->known = false;
			snprintf(a->why, sizeof(a->why), "where %s starts on its drive is unknown: %s",
				 t->place.dev[0] ? t->place.dev : "the filesystem's device",
				 t->unknown[TF_PART_START]);
		} else if (!t->place.mapped) {
			a->known = false;
			snprintf(a->why, sizeof(a->why), "%s", t->place.why[0] ? t->place.why :
				 "the file's extents were not mapped");
		} else {
			a->fs_start = t->place.dev_start;
			judge_extents(t, a);
		}
		break;
	}
	for (b = 0; b < AB_COUNT; b++) {
		struct align_verdict *v = &a->v[b];

		if (!v->bytes)
			continue;
		if (!a->known) {
			snprintf(v->why, sizeof(v->why), "%s", a->why);
			continue;
		}
		v->known = true;
		if (t->kind == TARGET_FILE) {
			v->fs_misalign = align_mod_sub(a->fs_start, a->grid,
						       v->bytes);
			v->judged_by = AJ_EXTENTS;
		}
		if (t->kind == TARGET_FILE && v->bytes > extent_limit(t)) {
			v->judged_by = AJ_FIRST_EXTENT;
			v->extents_off = 0;
		}
		v->misalign = align_mod_sub(align_mod_sub(a->offset, a->grid, v->bytes),
					     a->file_offset, v->bytes);
	}
}

const char *align_summary(const struct alignment *a)
{
	bool any = false;
	int b;

	if (!a->known)
		return "unknown";
	for (b = 0; b < AB_COUNT; b++) {
		if (!a->v[b].known)
			continue;
		any = true;
		if (a->v[b].misalign || a->v[b].extents_off)
			return "misaligned";
	}
	return any ? "aligned" : "unknown";
}
