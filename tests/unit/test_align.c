/* test_align.c - alignment verdicts (src/target/align.c) on made-up geometries
 * that loop devices cannot produce: 512e drives (512 B logical, 4 KiB
 * physical), a drive alignment offset of 3584 (the Windows XP jumper),
 * RAID stripes (optimal I/O 3 x 64 KiB), unknown sizes and starts, and
 * files whose extents include unplaced ones or start past file offset 0.
 * Also align_mod_sub's edge cases, align_summary, the keys and labels, and
 * the "Layout:" line and the --probe report built on the same numbers.
 *
 * Targets are initialised the way target_probe() does: zeroed, offsets
 * and flags -1, and unknown[f] "" for every field that was learnt.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fiemap.h>
#include <cmocka.h>

#include "target/align.h"
#include "report/report_probe.h"
#include "report/report_target.h"
#include "target/target.h"

#define KiB 1024ULL
#define MiB (1024ULL * 1024)

static struct target t;
static struct alignment a;

/* A fully probed 512e SATA disk "sda" (or its partition sda1 at start
 * sector 'start' of 512 B): logical 512, physical and minimum I/O 4096,
 * no optimal I/O size, grid at 0. */
static void drive_512e(enum target_kind kind, uint64_t start)
{
	memset(&t, 0, sizeof(t));
	t.alignment_offset = -1;
	t.disk_align_off = -1;
	t.rotational = -1;
	t.io_poll = -1;
	t.kind = kind;
	t.exists = true;
	snprintf(t.disk, sizeof(t.disk), "sda");
	snprintf(t.name, sizeof(t.name), kind == TARGET_PARTITION ? "sda1" : "sda");
	snprintf(t.path, sizeof(t.path), "/dev/%s", t.name);
	t.size = 100ULL * 1024 * MiB;
	t.logical = 512;
	t.physical = 4096;
	t.min_io = 4096;
	t.opt_io = 0;
	t.disk_align_off = 0;
	t.alignment_offset = 0;
	t.rotational = 0;
	snprintf(t.scheduler, sizeof(t.scheduler), "mq-deadline");
	snprintf(t.write_cache, sizeof(t.write_cache), "write back");
	snprintf(t.model, sizeof(t.model), "Made Up SSD 1TB");
	if (kind == TARGET_PARTITION)
		t.part_start = start * 512;
}

/* A file on sda1 (which starts at start512 x 512 bytes of sda). */
static void file_on_512e(uint64_t start512)
{
	drive_512e(TARGET_FILE, 0);
	t.alignment_offset = -1;	/* files: only the drive's is probed */
	snprintf(t.path, sizeof(t.path), "/mnt/data");
	t.name[0] = '\0';
	t.fs_block = 4096;
	snprintf(t.place.fstype, sizeof(t.place.fstype), "ext4");
	t.place.fs_bsize = 4096;
	snprintf(t.place.dev, sizeof(t.place.dev), "sda1");
	t.place.dev_start = start512 * 512;
	t.place.dev_start_known = true;
}

static void add_extent(uint64_t logical, uint64_t physical, uint64_t length,
		       uint32_t flags)
{
	struct file_extent *e = &t.place.ext[t.place.next++];

	e->logical = logical;
	e->physical = physical;
	e->length = length;
	e->flags = flags;
	t.place.ext_total = t.place.next;
	t.place.mapped = true;
}

static void expect_known(enum align_boundary b, uint64_t bytes, uint64_t misalign)
{
	assert_int_equal(a.v[b].bytes, bytes);
	assert_true(a.v[b].known);
	assert_int_equal(a.v[b].misalign, misalign);
	assert_string_equal(a.v[b].why, "");
}

static void expect_unknown(enum align_boundary b, uint64_t bytes, const char *why)
{
	assert_int_equal(a.v[b].bytes, bytes);
	assert_false(a.v[b].known);
	assert_int_equal(a.v[b].misalign, 0);
	assert_string_equal(a.v[b].why, why);
}

/* ------------------------------------------------------------ partitions */

static void test_512e_start_63(void **state)
{
	(void)state;
	drive_512e(TARGET_PARTITION, 63);
	align_compute(&t, &a);
	assert_true(a.known);
	assert_string_equal(a.basis, "partition start");
	assert_string_equal(a.drive, "sda");
	assert_int_equal(a.offset, 32256);
	assert_int_equal(a.grid, 0);
	assert_int_equal(a.file_offset, 0);
	assert_int_equal(a.extents, 0);
	expect_known(AB_PHYSICAL, 4096, 3584);
	expect_known(AB_MIN_IO, 4096, 3584);
	expect_unknown(AB_OPT_IO, 0, "the device reports no optimal I/O size");
	expect_known(AB_4K, 4096, 3584);
	expect_known(AB_1M, MiB, 32256);
	assert_string_equal(align_summary(&a), "misaligned");
}

static void test_512e_start_2048(void **state)
{
	(void)state;
	drive_512e(TARGET_PARTITION, 2048);
	align_compute(&t, &a);
	assert_true(a.known);
	assert_int_equal(a.offset, MiB);
	expect_known(AB_PHYSICAL, 4096, 0);
	expect_known(AB_MIN_IO, 4096, 0);
	expect_known(AB_4K, 4096, 0);
	expect_known(AB_1M, MiB, 0);
	assert_false(a.v[AB_OPT_IO].known);
	assert_string_equal(align_summary(&a), "aligned");
}

/* Every start sector from 0 to 4095: misalignment = start x 512 mod B. */
static void test_512e_every_start(void **state)
{
	uint64_t s;

	(void)state;
	for (s = 0; s < 4096; s++) {
		drive_512e(TARGET_PARTITION, s);
		align_compute(&t, &a);
		assert_int_equal(a.v[AB_PHYSICAL].misalign, (s * 512) % 4096);
		assert_int_equal(a.v[AB_4K].misalign, (s * 512) % 4096);
		assert_int_equal(a.v[AB_1M].misalign, (s * 512) % MiB);
		assert_string_equal(align_summary(&a),
				    (s * 512) % MiB ? "misaligned" : "aligned");
	}
}

/* A 512e drive whose physical grid starts at byte 3584 (LBA 7): sector 63
 * is then aligned to its physical sectors, and sector 2048 is not. */
static void test_grid_3584_start_63(void **state)
{
	(void)state;
	drive_512e(TARGET_PARTITION, 63);
	t.disk_align_off = 3584;
	t.alignment_offset = 0;	/* the kernel's, of the partition */
	align_compute(&t, &a);
	assert_true(a.known);
	assert_int_equal(a.grid, 3584);
	assert_int_equal(a.offset, 32256);
	expect_known(AB_PHYSICAL, 4096, 0);
	expect_known(AB_MIN_IO, 4096, 0);
	expect_known(AB_4K, 4096, 0);
	expect_known(AB_1M, MiB, 32256 - 3584);		/* 28672 */
	assert_string_equal(align_summary(&a), "misaligned");
}

static void test_grid_3584_start_2048(void **state)
{
	(void)state;
	drive_512e(TARGET_PARTITION, 2048);
	t.disk_align_off = 3584;
	t.alignment_offset = 512;
	align_compute(&t, &a);
	assert_true(a.known);
	assert_int_equal(a.grid, 3584);
	expect_known(AB_PHYSICAL, 4096, 512);
	expect_known(AB_MIN_IO, 4096, 512);
	expect_known(AB_4K, 4096, 512);
	expect_known(AB_1M, MiB, MiB - 3584);		/* 1044992 */
	assert_string_equal(align_summary(&a), "misaligned");
}

/* The whole disk: its own BLKALIGNOFF is the grid; byte 0 sits 512 bytes
 * past the boundary below 3584. */
static void test_grid_3584_whole_disk(void **state)
{
	(void)state;
	drive_512e(TARGET_DISK, 0);
	t.alignment_offset = 3584;
	t.disk_align_off = 3584;
	align_compute(&t, &a);
	assert_true(a.known);
	assert_string_equal(a.basis, "device start");
	assert_int_equal(a.offset, 0);
	assert_int_equal(a.grid, 3584);
	expect_known(AB_PHYSICAL, 4096, 512);
	expect_known(AB_4K, 4096, 512);
	expect_known(AB_1M, MiB, MiB - 3584);
	assert_string_equal(align_summary(&a), "misaligned");

	/* BLKALIGNOFF failed: the sysfs value of the disk is used */
	t.alignment_offset = -1;
	align_compute(&t, &a);
	assert_true(a.known);
	assert_int_equal(a.grid, 3584);
	expect_known(AB_PHYSICAL, 4096, 512);
}

static void test_whole_disk_aligned(void **state)
{
	int b;

	(void)state;
	drive_512e(TARGET_DISK, 0);
	align_compute(&t, &a);
	assert_true(a.known);
	assert_int_equal(a.offset, 0);
	for (b = 0; b < AB_COUNT; b++)
		if (b != AB_OPT_IO)
			expect_known(b, a.v[b].bytes, 0);
	assert_string_equal(align_summary(&a), "aligned");
}

/* Both offsets unknown: nothing can be judged, with the reason. */
static void test_grid_unknown(void **state)
{
	(void)state;
	drive_512e(TARGET_PARTITION, 2048);
	t.disk_align_off = -1;
	t.alignment_offset = -1;
	snprintf(t.unknown[TF_ALIGN_OFF], sizeof(t.unknown[0]),
		 "cannot read /sys/block/sda/alignment_offset: Permission denied");
	align_compute(&t, &a);
	assert_false(a.known);
	assert_string_equal(a.why, "the drive's alignment offset is unknown: cannot read /sys/block/sda/alignment_offset: Permission denied");
	expect_unknown(AB_PHYSICAL, 4096, a.why);
	expect_unknown(AB_4K, 4096, a.why);
	expect_unknown(AB_1M, MiB, a.why);
	assert_string_equal(align_summary(&a), "unknown");
}

/* ------------------------------------------------------------ RAID, opt_io */

static void test_raid_opt_io(void **state)
{
	(void)state;
	drive_512e(TARGET_PARTITION, 2048);
	t.physical = 512;
	t.min_io = 64 * KiB;		/* chunk */
	t.opt_io = 3 * 64 * KiB;	/* 196608: 3 data disks */
	align_compute(&t, &a);
	assert_true(a.known);
	expect_known(AB_PHYSICAL, 512, 0);
	expect_known(AB_MIN_IO, 65536, 0);
	/* 1048576 = 5 x 196608 + 65536 */
	expect_known(AB_OPT_IO, 196608, 65536);
	expect_known(AB_4K, 4096, 0);
	expect_known(AB_1M, MiB, 0);
	assert_string_equal(align_summary(&a), "misaligned");

	/* a start at 3 MiB (6144 sectors) is a whole number of stripes: 16 */
	t.part_start = 6144 * 512;
	align_compute(&t, &a);
	expect_known(AB_OPT_IO, 196608, 0);
	assert_string_equal(align_summary(&a), "aligned");

	/* start 63: off every boundary but the 512 B sector */
	t.part_start = 63 * 512;
	align_compute(&t, &a);
	expect_known(AB_PHYSICAL, 512, 0);
	expect_known(AB_MIN_IO, 65536, 32256);
	expect_known(AB_OPT_IO, 196608, 32256);
}

static void test_opt_io_zero_and_unknown(void **state)
{
	(void)state;
	drive_512e(TARGET_PARTITION, 2048);
	t.opt_io = 0;
	align_compute(&t, &a);
	expect_unknown(AB_OPT_IO, 0, "the device reports no optimal I/O size");
	assert_string_equal(align_summary(&a), "aligned");

	snprintf(t.unknown[TF_OPT_IO], sizeof(t.unknown[0]),
		 "cannot read /sys/block/sda/queue/optimal_io_size: No such file or directory");
	align_compute(&t, &a);
	expect_unknown(AB_OPT_IO, 0, "optimal I/O size unknown: cannot read /sys/block/sda/queue/optimal_io_size: No such file or directory");
	assert_string_equal(align_summary(&a), "aligned");
}

static void test_physical_unknown(void **state)
{
	(void)state;
	drive_512e(TARGET_PARTITION, 63);
	t.physical = 0;
	snprintf(t.unknown[TF_PHYSICAL], sizeof(t.unknown[0]),
		 "cannot read /sys/block/sda/queue/physical_block_size: No such file or directory");
	align_compute(&t, &a);
	assert_true(a.known);
	expect_unknown(AB_PHYSICAL, 0, "physical sector size unknown: cannot read /sys/block/sda/queue/physical_block_size: No such file or directory");
	expect_known(AB_MIN_IO, 4096, 3584);
	expect_known(AB_4K, 4096, 3584);
	assert_string_equal(align_summary(&a), "misaligned");

	t.min_io = 0;
	snprintf(t.unknown[TF_MIN_IO], sizeof(t.unknown[0]), "no queue");
	align_compute(&t, &a);
	expect_unknown(AB_MIN_IO, 0, "minimum I/O size unknown: no queue");
}

static void test_partition_start_unknown(void **state)
{
	int b;

	(void)state;
	drive_512e(TARGET_PARTITION, 0);
	snprintf(t.unknown[TF_PART_START], sizeof(t.unknown[0]),
		 "cannot read /sys/block/sda/sda1/start: Permission denied");
	align_compute(&t, &a);
	assert_false(a.known);
	assert_string_equal(a.basis, "partition start");
	assert_string_equal(a.why, "the partition start is unknown: cannot read /sys/block/sda/sda1/start: Permission denied");
	for (b = 0; b < AB_COUNT; b++) {
		assert_false(a.v[b].known);
		if (b != AB_OPT_IO)
			assert_string_equal(a.v[b].why, a.why);
	}
	assert_string_equal(align_summary(&a), "unknown");
}

/* ------------------------------------------------------------ files */

/* Unplaced extents are skipped; the first placed one sets the basis; an
 * extent is judged by where file offset 0 would fall (physical - logical). */
static void test_file_extents(void **state)
{
	(void)state;
	file_on_512e(2048);			/* sda1 at 1 MiB */
	add_extent(0, 0, 64 * KiB, FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC);
	add_extent(64 * KiB, 100 * 4096, 64 * KiB, 0);		/* aligned */
	add_extent(128 * KiB, 1000 * 4096 + 512, 64 * KiB, 0);	/* 512 past */
	add_extent(192 * KiB, 0, 60, FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_NOT_ALIGNED);
	add_extent(256 * KiB, 2000 * 4096, 4 * KiB, FIEMAP_EXTENT_LAST);
	align_compute(&t, &a);
	assert_true(a.known);
	assert_string_equal(a.basis, "first extent");
	assert_int_equal(a.offset, MiB + 100 * 4096);
	assert_int_equal(a.file_offset, 64 * KiB);
	assert_int_equal(a.extents, 3);
	expect_known(AB_PHYSICAL, 4096, 0);
	assert_int_equal(a.v[AB_PHYSICAL].extents_off, 1);
	expect_known(AB_MIN_IO, 4096, 0);
	assert_int_equal(a.v[AB_MIN_IO].extents_off, 1);
	expect_known(AB_4K, 4096, 0);
	assert_int_equal(a.v[AB_4K].extents_off, 1);
	/* 1 MiB is above the 4 KiB blocks: judged by the first extent,
	 * where file offset 0 would sit: 1 MiB + 100 * 4 KiB - 64 KiB;
	 * the filesystem's start (1 MiB) is aligned, and said beside it */
	expect_known(AB_1M, MiB, 100 * 4096 - 64 * KiB);
	assert_int_equal(a.v[AB_1M].judged_by, AJ_FIRST_EXTENT);
	assert_int_equal(a.v[AB_1M].fs_misalign, 0);
	assert_int_equal(a.v[AB_4K].judged_by, AJ_EXTENTS);
	assert_int_equal(a.fs_start, MiB);
	assert_int_equal(a.v[AB_1M].extents_off, 0);
	assert_int_equal(a.v[AB_OPT_IO].extents_off, 0);
	/* the first extent is aligned, one later one is not */
	assert_string_equal(align_summary(&a), "misaligned");
}

/* A filesystem on a start-63 partition: every block is 3584 bytes off a
 * 4 KiB boundary, on a grid-0 drive; on a grid-3584 drive all are aligned. */
static void test_file_on_start_63(void **state)
{
	(void)state;
	file_on_512e(63);
	add_extent(0, 15360 * 4096ULL, 64 * KiB, 0);
	add_extent(64 * KiB, 1072 * 4096ULL, 64 * KiB, FIEMAP_EXTENT_LAST);
	align_compute(&t, &a);
	assert_true(a.known);
	assert_int_equal(a.offset, 32256 + 15360 * 4096ULL);
	expect_known(AB_4K, 4096, 3584);
	assert_int_equal(a.v[AB_4K].extents_off, 2);
	expect_known(AB_PHYSICAL, 4096, 3584);
	expect_known(AB_1M, MiB, 32256);
	assert_string_equal(align_summary(&a), "misaligned");

	t.disk_align_off = 3584;
	align_compute(&t, &a);
	assert_int_equal(a.grid, 3584);
	expect_known(AB_4K, 4096, 0);
	assert_int_equal(a.v[AB_4K].extents_off, 0);
	expect_known(AB_PHYSICAL, 4096, 0);
	assert_int_equal(a.v[AB_PHYSICAL].extents_off, 0);
	expect_known(AB_1M, MiB, 32256 - 3584);
}

static void test_file_all_unplaced(void **state)
{
	int b;

	(void)state;
	file_on_512e(2048);
	add_extent(0, 0, 8 * KiB, FIEMAP_EXTENT_UNKNOWN);
	add_extent(8 * KiB, 0, 100, FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_LAST);
	align_compute(&t, &a);
	assert_false(a.known);
	assert_int_equal(a.extents, 0);
	assert_string_equal(a.why, "none of the file's first 2 extents has a device location (inline, encoded or delayed allocation)");
	for (b = 0; b < AB_COUNT; b++)
		assert_false(a.v[b].known);
	assert_string_equal(a.v[AB_4K].why, a.why);
	assert_string_equal(align_summary(&a), "unknown");
}

static void test_file_not_mapped(void **state)
{
	(void)state;
	file_on_512e(2048);
	t.place.mapped = false;
	snprintf(t.place.why, sizeof(t.place.why), "FIEMAP failed: Operation not supported");
	align_compute(&t, &a);
	assert_false(a.known);
	assert_string_equal(a.why, "FIEMAP failed: Operation not supported");
	assert_string_equal(align_summary(&a), "unknown");

	t.place.why[0] = '\0';
	align_compute(&t, &a);
	assert_false(a.known);
	assert_string_equal(a.why, "the file's extents were not mapped");
}

static void test_file_device_start_unknown(void **state)
{
	(void)state;
	file_on_512e(2048);
	add_extent(0, 4096, 4096, FIEMAP_EXTENT_LAST);
	t.place.dev_start_known = false;
	snprintf(t.unknown[TF_PART_START], sizeof(t.unknown[0]), "cannot read start");
	align_compute(&t, &a);
	assert_false(a.known);
	assert_string_equal(a.why, "where sda1 starts on its drive is unknown: cannot read start");
	assert_false(a.v[AB_4K].known);
	assert_string_equal(align_summary(&a), "unknown");

	t.place.dev[0] = '\0';
	align_compute(&t, &a);
	assert_string_equal(a.why, "where the filesystem's device starts on its drive is unknown: cannot read start");
}

/* The file's basis sits past file offset 0: a file offset that is itself
 * off the boundary cancels a drive offset off by the same amount. */
static void test_file_offset_cancels(void **state)
{
	(void)state;
	file_on_512e(2048);
	add_extent(3584, 4096 * 10 + 3584, 512, FIEMAP_EXTENT_LAST);
	align_compute(&t, &a);
	assert_true(a.known);
	assert_int_equal(a.file_offset, 3584);
	assert_int_equal(a.offset, MiB + 4096 * 10 + 3584);
	expect_known(AB_4K, 4096, 0);
	assert_int_equal(a.v[AB_4K].extents_off, 0);
	expect_known(AB_1M, MiB, 4096 * 10);	/* the first extent */
	assert_int_equal(a.v[AB_1M].fs_misalign, 0);	/* not its start */
	assert_int_equal(a.v[AB_1M].extents_off, 0);
}

/* The case that misled: ext2 with 1 KiB blocks from byte 0 (aligned to
 * 1 MiB), its file's data 1 KiB past a 1 MiB boundary.  The 1 MiB verdict
 * is the data's: misaligned by 1 KiB; the start is said apart. */
static void test_file_data_not_fs_start(void **state)
{
	(void)state;
	file_on_512e(0);
	snprintf(t.place.fstype, sizeof(t.place.fstype), "ext2");
	t.place.fs_bsize = 1024;
	t.fs_block = 1024;
	add_extent(0, MiB + 1024, 16 * KiB, 0);
	add_extent(16 * KiB, 2 * MiB, 48 * KiB, FIEMAP_EXTENT_LAST);
	align_compute(&t, &a);
	assert_true(a.known);
	expect_known(AB_1M, MiB, 1024);
	assert_int_equal(a.v[AB_1M].judged_by, AJ_FIRST_EXTENT);
	assert_int_equal(a.v[AB_1M].fs_misalign, 0);
	expect_known(AB_4K, 4096, 1024);
	assert_int_equal(a.v[AB_4K].judged_by, AJ_EXTENTS);
	assert_int_equal(a.v[AB_4K].extents_off, 1);
	assert_string_equal(align_summary(&a), "misaligned");
}

/* Boundaries up to the filesystem block (at least 4 KiB) are judged by the
 * extents; a 64 KiB-block filesystem has its 64 KiB opt_io judged so too. */
static void test_file_judged_by_block_size(void **state)
{
	(void)state;
	file_on_512e(2048);
	t.opt_io = 65536;
	add_extent(0, 4096 * 3, 4096, FIEMAP_EXTENT_LAST);
	align_compute(&t, &a);
	expect_known(AB_OPT_IO, 65536, 4096 * 3);
	assert_int_equal(a.v[AB_OPT_IO].judged_by, AJ_FIRST_EXTENT);
	assert_int_equal(a.v[AB_OPT_IO].extents_off, 0);
	t.place.fs_bsize = 65536;
	align_compute(&t, &a);
	expect_known(AB_OPT_IO, 65536, 4096 * 3);
	assert_int_equal(a.v[AB_OPT_IO].judged_by, AJ_EXTENTS);
	assert_int_equal(a.v[AB_OPT_IO].extents_off, 1);
	assert_int_equal(a.v[AB_1M].judged_by, AJ_FIRST_EXTENT);
}

/* ------------------------------------------------------------ helpers */

static void test_mod_sub(void **state)
{
	(void)state;
	assert_int_equal(align_mod_sub(10, 3, 4), 3);
	assert_int_equal(align_mod_sub(3, 10, 4), 1);		/* -7 mod 4 */
	assert_int_equal(align_mod_sub(0, 3584, 4096), 512);
	assert_int_equal(align_mod_sub(32256, 3584, 4096), 0);
	assert_int_equal(align_mod_sub(5, 5, 7), 0);
	assert_int_equal(align_mod_sub(0, 0, 1), 0);
	assert_int_equal(align_mod_sub(123, 456, 1), 0);
	/* x and y near 2^64 */
	assert_int_equal(align_mod_sub(UINT64_MAX, 0, 4096), 4095);
	assert_int_equal(align_mod_sub(0, UINT64_MAX, 4096), 1);
	assert_int_equal(align_mod_sub(UINT64_MAX, UINT64_MAX, 4096), 0);
	assert_int_equal(align_mod_sub(UINT64_MAX - 1, UINT64_MAX, MiB), MiB - 1);
	assert_int_equal(align_mod_sub(UINT64_MAX, UINT64_MAX - 1, 196608),
			 1);
	assert_int_equal(align_mod_sub(UINT64_MAX, 1, UINT64_MAX), UINT64_MAX - 1);
}

/* The residue must stay in [0, m) for every m: with m above 2^63,
 * x % m + m wraps around 2^64 in the inline formula. */
static void test_mod_sub_huge_modulus(void **state)
{
	const uint64_t half = 1ULL << 63;

	(void)state;
	assert_int_equal(align_mod_sub(half, 0, half + 1), half);
	assert_int_equal(align_mod_sub(UINT64_MAX - 1, 0, UINT64_MAX), UINT64_MAX - 1);
	assert_int_equal(align_mod_sub(0, 1, UINT64_MAX), UINT64_MAX - 1);
	assert_int_equal(align_mod_sub(half + 2, 1, half + 5), half + 1);
}

static void test_summary(void **state)
{
	int b;

	(void)state;
	memset(&a, 0, sizeof(a));
	assert_string_equal(align_summary(&a), "unknown");	/* !known */
	a.known = true;
	assert_string_equal(align_summary(&a), "unknown");	/* nothing judged */
	a.v[AB_4K].known = true;
	assert_string_equal(align_summary(&a), "aligned");
	a.v[AB_1M].misalign = 4096;	/* not judged: ignored */
	assert_string_equal(align_summary(&a), "aligned");
	a.v[AB_1M].known = true;
	assert_string_equal(align_summary(&a), "misaligned");
	a.v[AB_1M].misalign = 0;
	a.v[AB_PHYSICAL].known = true;
	a.v[AB_PHYSICAL].extents_off = 2;
	assert_string_equal(align_summary(&a), "misaligned");
	a.known = false;
	assert_string_equal(align_summary(&a), "unknown");

	for (b = 0; b < AB_COUNT; b++) {
		assert_non_null(align_label(b));
		assert_true(strlen(align_cost(b)) > 20);
	}
	assert_string_equal(align_key(AB_PHYSICAL), "physical_sector");
	assert_string_equal(align_key(AB_MIN_IO), "min_io");
	assert_string_equal(align_key(AB_OPT_IO), "opt_io");
	assert_string_equal(align_key(AB_4K), "4KiB");
	assert_string_equal(align_key(AB_1M), "1MiB");
	assert_string_equal(align_label(AB_PHYSICAL), "physical sector");
	assert_string_equal(align_label(AB_4K), "4 KiB");
	assert_string_equal(align_label(AB_1M), "1 MiB");
}

/* ------------------------------------------------------------ reports */

static char *render_layout(void)
{
	static char buf[4096];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	report_layout_line(f, &t);
	fclose(f);
	return buf;
}

static void test_layout_line(void **state)
{
	(void)state;
	drive_512e(TARGET_PARTITION, 63);
	assert_string_equal(render_layout(),
		"Layout: partition sda1 of sda at byte 32256: misaligned to physical sector by 3584 B, minimum I/O by 3584 B, 4 KiB by 3584 B, 1 MiB by 32256 B; no optimal I/O size\n");

	t.disk_align_off = 3584;
	assert_string_equal(render_layout(),
		"Layout: partition sda1 of sda at byte 32256 (grid offset 3584): misaligned to 1 MiB by 28 KiB; aligned to physical sector (4 KiB), minimum I/O (4 KiB), 4 KiB; no optimal I/O size\n");

	drive_512e(TARGET_PARTITION, 2048);
	t.opt_io = 196608;
	t.min_io = 65536;
	assert_string_equal(render_layout(),
		"Layout: partition sda1 of sda at byte 1048576: misaligned to optimal I/O by 64 KiB; aligned to physical sector (4 KiB), minimum I/O (64 KiB), 4 KiB, 1 MiB\n");

	snprintf(t.unknown[TF_PART_START], sizeof(t.unknown[0]), "no start");
	assert_string_equal(render_layout(),
		"Layout: partition sda1 of sda; alignment unknown: the partition start is unknown: no start\n");

	file_on_512e(2048);
	add_extent(0, 4096, 4096, 0);
	add_extent(4096, 8192 + 512, 4096, FIEMAP_EXTENT_LAST);
	assert_string_equal(render_layout(),
		"Layout: file on ext4 (4 KiB blocks) on sda1, first extent at byte 1052672 of sda; judged by its 2 extents: misaligned to physical sector in 1 of 2 extents, minimum I/O in 1 of 2 extents, 4 KiB in 1 of 2 extents; judged by its first extent: misaligned to 1 MiB by 4 KiB; the filesystem starts at byte 1048576 of sda: aligned to 1 MiB; no optimal I/O size\n");

	/* ext2 from byte 0, its data 1 KiB past 1 MiB */
	file_on_512e(0);
	snprintf(t.place.fstype, sizeof(t.place.fstype), "ext2");
	t.place.fs_bsize = 1024;
	add_extent(0, MiB + 1024, 16 * KiB, FIEMAP_EXTENT_LAST);
	assert_string_equal(render_layout(),
		"Layout: file on ext2 (1 KiB blocks) on sda1, first extent at byte 1049600 of sda; judged by its 1 extent: misaligned to physical sector by 1 KiB, minimum I/O by 1 KiB, 4 KiB by 1 KiB; judged by its first extent: misaligned to 1 MiB by 1 KiB; the filesystem starts at byte 0 of sda: aligned to 1 MiB; no optimal I/O size\n");
}

/* The --probe report keeps within 80 columns, even when a reason holds a
 * long sysfs path (a SATA disk's is well over 58 characters). */
static void test_probe_report_width(void **state)
{
	static char buf[1 << 16];
	char *line, *save = NULL;
	int wide = 0;
	FILE *f;

	(void)state;
	drive_512e(TARGET_PARTITION, 63);
	t.rotational = -1;
	snprintf(t.unknown[TF_ROTATIONAL], sizeof(t.unknown[0]),
		 "cannot read /sys/devices/pci0000:00/0000:00:17.0/ata3/host2/target2:0:0/2:0:0:0/block/sda/queue/rotational: Permission denied");
	f = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(f);
	report_probe_human(f, &t, "");
	fclose(f);
	assert_non_null(strstr(buf, "4 KiB               4 KiB     misaligned by 3584 B"));
	assert_non_null(strstr(buf, "Verdict: misaligned."));
	assert_non_null(strstr(buf, "Permission denied"));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strlen(line) > 80) {
			print_error("%zu columns: %s\n", strlen(line), line);
			wide++;
		}
	}
	assert_int_equal(wide, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_512e_start_63),
		cmocka_unit_test(test_512e_start_2048),
		cmocka_unit_test(test_512e_every_start),
		cmocka_unit_test(test_grid_3584_start_63),
		cmocka_unit_test(test_grid_3584_start_2048),
		cmocka_unit_test(test_grid_3584_whole_disk),
		cmocka_unit_test(test_whole_disk_aligned),
		cmocka_unit_test(test_grid_unknown),
		cmocka_unit_test(test_raid_opt_io),
		cmocka_unit_test(test_opt_io_zero_and_unknown),
		cmocka_unit_test(test_physical_unknown),
		cmocka_unit_test(test_partition_start_unknown),
		cmocka_unit_test(test_file_extents),
		cmocka_unit_test(test_file_on_start_63),
		cmocka_unit_test(test_file_all_unplaced),
		cmocka_unit_test(test_file_not_mapped),
		cmocka_unit_test(test_file_device_start_unknown),
		cmocka_unit_test(test_file_offset_cancels),
		cmocka_unit_test(test_file_judged_by_block_size),
		cmocka_unit_test(test_file_data_not_fs_start),
		cmocka_unit_test(test_mod_sub),
		cmocka_unit_test(test_mod_sub_huge_modulus),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_layout_line),
		cmocka_unit_test(test_probe_report_width),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
