/* test_characterize.c - what --characterize concludes from its
 * measurements (src/characterize/characterize_judge.c and
 * characterize_advice.c), fed by hand: the unit is the smallest boundary
 * whose crossing costs more, between it and the undecided ones below;
 * nothing is concluded when a larger boundary costs the same, when a
 * crossing is faster, or when nothing costs more; parallelism by Little's
 * law (the most ops/s times one read's median time alone) with its
 * interval; what the device reports held against the unit;
 * the erase block from random against sequential writes by size; and
 * the layout that follows (ashift, stride, partition start). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "characterize/characterize.h"

static struct characterize_result *fresh(unsigned logical, unsigned physical)
{
	struct characterize_result *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	r->tgt.kind = TARGET_DISK;
	r->tgt.logical = logical;
	r->tgt.physical = physical;
	r->tgt.rotational = 0;
	strcpy(r->tgt.path, "/dev/loop9");
	strcpy(r->tgt.disk, "loop9");
	r->read_bytes = 2 * logical;
	return r;
}

/* Boundaries from two sectors up, each with its ratio interval. */
static void boundaries(struct characterize_result *r, const double (*iv)[2],
		       size_t n)
{
	uint64_t b = r->read_bytes;
	size_t i;

	for (i = 0; i < n; i++, b *= 2) {
		r->b[i].bytes = b;
		r->b[i].low = iv[i][0];
		r->b[i].high = iv[i][1];
		r->b[i].ratio = (iv[i][0] + iv[i][1]) / 2;
		r->b[i].verdict = char_verdict_of(iv[i][0], iv[i][1]);
	}
	r->nb = n;
}

static const char *advice(const struct characterize_result *r,
			  const char *setting)
{
	size_t i;

	for (i = 0; i < r->nadv; i++)
		if (!strcmp(r->adv[i].setting, setting))
			return r->adv[i].value;
	fail_msg("no advice for %s", setting);
	return NULL;
}

static bool reported(const struct characterize_result *r, const char *what)
{
	size_t i;

	for (i = 0; i < r->nreports; i++)
		if (strstr(r->reports[i], what))
			return true;
	return false;
}

static void test_verdicts(void **state)
{
	(void)state;
	assert_int_equal(char_verdict_of(1.5, 1.9), CHAR_MORE);
	assert_int_equal(char_verdict_of(0.95, 1.05), CHAR_SAME);
	assert_int_equal(char_verdict_of(1.05, 1.2), CHAR_UNSURE);
	assert_int_equal(char_verdict_of(0.3, 0.5), CHAR_LESS);
	/* the bound itself is not more than 10% */
	assert_int_equal(char_verdict_of(CHAR_MATERIAL, 2), CHAR_UNSURE);
}

/* 1 KiB .. 64 KiB at 512 B sectors; crossings of 8 KiB and up cost 2x. */
static void test_unit_8k(void **state)
{
	static const double iv[][2] = {
		{ 0.98, 1.02 }, { 0.97, 1.03 }, { 0.99, 1.04 },
		{ 1.9, 2.0 }, { 1.9, 2.1 }, { 1.85, 2.0 }, { 1.9, 2.0 },
	};
	struct characterize_result *r = fresh(512, 512);

	(void)state;
	boundaries(r, iv, 7);
	char_judge_boundaries(r);
	assert_true(r->page.known);
	assert_int_equal((int)r->page.value, 8192);
	assert_int_equal((int)r->page.low, 8192);
	assert_int_equal((int)r->page.high, 8192);
	char_judge_report(r);
	assert_true(reported(r, "physical sector of 512 B, but reads cost more across 8 KiB boundaries"));
	char_advise(r);
	assert_string_equal(advice(r, "zfs ashift"), "13");
	assert_string_equal(advice(r, "mkfs.ext4"), "-b 4096 -E stride=2,stripe_width=2");
	assert_string_equal(advice(r, "mkfs.xfs"), "-d su=8192,sw=1");
	assert_string_equal(advice(r, "b-tree node size"), "at least 8 KiB");
	assert_string_equal(advice(r, "partition start"),
			    "a multiple of 1 MiB (sector 2048 of 512 B)");
	free(r);
}

/* Undecided boundaries just below the first that costs more: the unit
 * is somewhere between them and it. */
static void test_unit_between(void **state)
{
	static const double iv[][2] = {
		{ 0.98, 1.02 }, { 1.02, 1.2 }, { 1.05, 1.3 }, { 1.5, 2.0 },
		{ 1.6, 2.0 },
	};
	struct characterize_result *r = fresh(512, 512);

	(void)state;
	boundaries(r, iv, 5);
	char_judge_boundaries(r);
	assert_true(r->page.known);
	assert_int_equal((int)r->page.value, 8192);
	assert_int_equal((int)r->page.low, 2048);
	assert_non_null(strstr(r->page.basis, "within the noise"));
	free(r);
}

static void test_no_unit(void **state)
{
	static const double same[][2] = {
		{ 0.98, 1.02 }, { 0.97, 1.03 }, { 0.99, 1.04 }, { 0.95, 1.05 },
	};
	static const double unsure[][2] = {
		{ 0.98, 1.02 }, { 0.97, 1.15 }, { 0.99, 1.04 }, { 0.95, 1.05 },
	};
	static const double broken[][2] = {
		{ 0.98, 1.02 }, { 1.5, 1.7 }, { 0.99, 1.04 }, { 1.5, 1.6 },
	};
	static const double faster[][2] = {
		{ 0.98, 1.02 }, { 0.2, 0.3 }, { 1.5, 1.7 }, { 1.5, 1.6 },
	};
	struct characterize_result *r = fresh(512, 512);

	(void)state;
	boundaries(r, same, 4);
	char_judge_boundaries(r);
	assert_false(r->page.known);
	assert_non_null(strstr(r->page.basis, "reads cost the same"));
	memset(&r->page, 0, sizeof(r->page));
	boundaries(r, unsure, 4);
	char_judge_boundaries(r);
	assert_false(r->page.known);
	assert_non_null(strstr(r->page.basis, "undecided"));
	memset(&r->page, 0, sizeof(r->page));
	boundaries(r, broken, 4);
	char_judge_boundaries(r);
	assert_false(r->page.known);
	assert_non_null(strstr(r->page.basis, "inconsistent"));
	memset(&r->page, 0, sizeof(r->page));
	boundaries(r, faster, 4);
	char_judge_boundaries(r);
	assert_false(r->page.known);
	assert_non_null(strstr(r->page.basis, "faster"));
	/* without a unit the layout follows the reported physical sector */
	char_advise(r);
	assert_string_equal(advice(r, "zfs ashift"), "9");
	free(r);
}

static void test_parallelism(void **state)
{
	struct characterize_result *r = fresh(512, 512);
	static const double iops[] = { 1000, 1900, 3600, 3900, 3950 };
	size_t i;

	(void)state;
	for (i = 0; i < 5; i++) {
		r->q[i].qd = 1U << i;
		r->q[i].known = true;
		r->q[i].iops = iops[i];
		r->q[i].low = iops[i] * 0.95;
		r->q[i].high = iops[i] * 1.05;
	}
	/* one read alone: 1 ms (980-1020 us) */
	r->q[0].p50_us = 1000;
	r->q[0].p50_lo_us = 980;
	r->q[0].p50_hi_us = 1020;
	r->nq = 5;
	char_judge_parallelism(r);
	assert_true(r->parallelism.known);
	assert_true(fabs(r->parallelism.value - 3.95) < 1e-9);
	assert_true(fabs(r->parallelism.low - 3950 * 0.95 * 980e-6) < 1e-9);
	assert_true(fabs(r->parallelism.high - 3950 * 1.05 * 1020e-6) < 1e-9);
	/* the first depth with 90% of the most: 3600 >= 3555 */
	assert_int_equal(r->knee_qd, 4);
	char_advise(r);
	assert_string_equal(advice(r, "queue depth"), "4");
	free(r);
}

/* A partition at sector 63 over 4 KiB units: said, and re-created at
 * sector 2048. */
static void test_partition_63(void **state)
{
	static const double iv[][2] = {
		{ 0.98, 1.02 }, { 0.97, 1.03 }, { 1.8, 2.0 }, { 1.9, 2.0 },
	};
	struct characterize_result *r = fresh(512, 512);

	(void)state;
	r->tgt.kind = TARGET_PARTITION;
	r->disk_offset = 63 * 512;
	strcpy(r->tgt.path, "/dev/loop9p1");
	boundaries(r, iv, 4);
	char_judge_boundaries(r);
	char_judge_report(r);
	assert_true(reported(r, "starts at byte 32256 of loop9, 3584 B past a 4 KiB boundary"));
	char_advise(r);
	assert_non_null(strstr(r->adv[0].reason, "re-create it at sector 2048"));
	free(r);
}

/* Backward one-sector reads 8 KiB apart of 8.20 ms and 32 KiB apart of
 * 7.84 ms (a 7200 rpm platter with 512 KiB tracks: 8.333 less 15 and 63
 * sectors' share of 1024), forward ones of 20 us: it spins, a revolution
 * of 8.20 + (15/48) 0.36 = 8.3125 ms, the interval holding 7200 rpm; the
 * seeks are the medians less half a revolution, from the bins with 30
 * reads or more. */
static void test_spin(void **state)
{
	struct characterize_result *r = fresh(512, 512);

	(void)state;
	r->back_p50_us = 8200;
	r->back_lo_us = 8180;
	r->back_hi_us = 8220;
	r->back2_p50_us = 7840;
	r->back2_lo_us = 7820;
	r->back2_hi_us = 7860;
	r->fwd_p50_us = 20;
	r->spins = true;
	r->sk[0] = (struct char_seek){ 1 << 20, 2 << 20, 12, 6, 5, 7, 0, 0, 0 };
	r->sk[1] = (struct char_seek){ 2 << 20, 4 << 20, 40, 5.5, 5, 6, 0, 0, 0 };
	r->sk[2] = (struct char_seek){ 4 << 20, 8 << 20, 45, 16.0, 15, 17, 0, 0, 0 };
	r->sk[3] = (struct char_seek){ 8 << 20, 16 << 20, 9, 18, 15, 20, 0, 0, 0 };
	r->nsk = 4;
	char_judge_spin(r);
	assert_true(r->rpm.known);
	assert_true(fabs(r->rev_us - (8200 + 7680.0 / 24576 * 360)) < 1e-6);
	assert_true(fabs(r->rpm.value - 60e6 / r->rev_us) < 1e-6);
	assert_true(r->rpm.low <= 7200 && r->rpm.high >= 7200);
	assert_non_null(strstr(r->rpm.basis, "a 7200 rpm drive"));
	assert_true(r->seek_min.known);
	assert_true(fabs(r->seek_min.value - (5.5 - r->rev_us / 2000)) < 1e-9);
	assert_true(fabs(r->seek_max.value - (16.0 - r->rev_us / 2000)) < 1e-9);
	assert_non_null(strstr(r->seek_max.basis, "4 MiB to 8 MiB"));
	free(r);
}

/* Flash: backward reads cost what forward ones do; no rotation, no seeks. */
static void test_no_spin(void **state)
{
	struct characterize_result *r = fresh(512, 512);

	(void)state;
	r->back_p50_us = 530;
	r->fwd_p50_us = 528;
	r->back_spread = 0.08;
	char_judge_spin(r);
	assert_false(r->rpm.known);
	assert_non_null(strstr(r->rpm.basis, "no rotation"));
	assert_false(r->seek_min.known);
	free(r);
}

/* A cache of about 1 MiB: a 256 KiB set all hits, a 4 MiB one 25%: the
 * cache is the share times the set, its interval the share's. */
static void test_cache(void **state)
{
	struct characterize_result *r = fresh(512, 512);

	(void)state;
	r->nq = 1;
	r->q[0].p50_us = 540;
	r->hit_below_us = 180;
	r->cs[0] = (struct char_cacheset){ 256 << 10, 400, 398, 0.995, 0.98, 1, 60 };
	r->cs[1] = (struct char_cacheset){ 1 << 20, 400, 399, 0.9975, 0.98, 1, 60 };
	r->cs[2] = (struct char_cacheset){ 4 << 20, 400, 100, 0.25, 0.21, 0.29, 530 };
	r->cs[3] = (struct char_cacheset){ 16 << 20, 400, 20, 0.05, 0.03, 0.08, 540 };
	r->ncs = 4;	/* the first set not held gives it, not the last */
	char_judge_cache(r);
	assert_true(r->read_cache.known);
	assert_true(fabs(r->read_cache.value - 0.25 * (4 << 20)) < 1);
	assert_true(fabs(r->read_cache.low - 0.21 * (4 << 20)) < 1);
	assert_true(fabs(r->read_cache.high - 0.29 * (4 << 20)) < 1);
	/* no fast reads at all: none seen, said as an upper bound */
	r->hit_below_us = -1;
	r->ncs = 1;
	memset(&r->read_cache, 0, sizeof(r->read_cache));
	char_judge_cache(r);
	assert_true(r->read_cache.known);
	assert_true(r->read_cache.value == 0);
	assert_non_null(strstr(r->read_cache.basis, "none seen"));
	/* every set answered from it: at least the largest, no figure */
	r->hit_below_us = 180;
	r->ncs = 2;
	memset(&r->read_cache, 0, sizeof(r->read_cache));
	char_judge_cache(r);
	assert_false(r->read_cache.known);
	assert_non_null(strstr(r->read_cache.basis, "at least 1 MiB"));
	free(r);
}

/* Flushes against half a random read (the media's least time): a cache
 * that acknowledges in 50 us with flushes of 40 us lies, with flushes of
 * 2 ms it does not; writes as slow as the media leave no verdict. */
static void test_flush(void **state)
{
	struct characterize_result *r = fresh(512, 512);

	(void)state;
	r->nq = 1;
	r->q[0].p50_us = 540;
	r->wrote = true;
	r->flush_bytes = 4096;
	strcpy(r->tgt.write_cache, "write back");
	r->write_p50_us = 50, r->write_lo_us = 48, r->write_hi_us = 52;
	r->flush_p50_us = 40, r->flush_lo_us = 38, r->flush_hi_us = 42;
	char_judge_flush(r);
	assert_true(r->flush_honest.known);
	assert_true(r->flush_honest.value == 0);
	assert_true(fabs(r->bound_us - 270) < 1e-9);
	/* a busy machine stretched the median's interval up to 3.8 ms:
	 * still a median of lying flushes (stalls only add time) */
	memset(&r->flush_honest, 0, sizeof(r->flush_honest));
	r->flush_p50_us = 105, r->flush_lo_us = 82, r->flush_hi_us = 3768;
	char_judge_flush(r);
	assert_true(r->flush_honest.known);
	assert_true(r->flush_honest.value == 0);
	/* a median over the bound whose interval reaches under it: no
	 * verdict */
	memset(&r->flush_honest, 0, sizeof(r->flush_honest));
	r->flush_p50_us = 400, r->flush_lo_us = 200, r->flush_hi_us = 600;
	char_judge_flush(r);
	assert_false(r->flush_honest.known);
	assert_non_null(strstr(r->flush_honest.basis, "too near"));
	memset(&r->flush_honest, 0, sizeof(r->flush_honest));
	r->flush_p50_us = 2000, r->flush_lo_us = 1950, r->flush_hi_us = 2050;
	char_judge_flush(r);
	assert_true(r->flush_honest.known);
	assert_true(r->flush_honest.value == 1);
	memset(&r->flush_honest, 0, sizeof(r->flush_honest));
	r->write_p50_us = 2000, r->write_lo_us = 1990, r->write_hi_us = 2010;
	char_judge_flush(r);
	assert_false(r->flush_honest.known);
	assert_non_null(strstr(r->flush_honest.basis, "no volatile write cache seen"));
	memset(&r->flush_honest, 0, sizeof(r->flush_honest));
	strcpy(r->tgt.write_cache, "write through");
	char_judge_flush(r);
	assert_false(r->flush_honest.known);
	assert_non_null(strstr(r->flush_honest.basis, "write-through"));
	free(r);
}

/* Sizes from 256 KiB down, each with its sequential and random MiB/s. */
static void erase_sizes(struct characterize_result *r, const double (*mbs)[2],
			size_t n)
{
	uint64_t b = 256 << 10;
	size_t i;

	for (i = 0; i < n; i++, b /= 2) {
		struct char_erase *e = &r->es[i];

		e->bytes = b;
		e->measured = true;
		e->seq = (struct char_rate){ true, mbs[i][0], mbs[i][0] * 0.99,
					     mbs[i][0] * 1.01 };
		e->rnd = (struct char_rate){ true, mbs[i][1], mbs[i][1] * 0.99,
					     mbs[i][1] * 1.01 };
	}
	r->nes = n;
	memset(&r->erase_block, 0, sizeof(r->erase_block));
}

/* Random writes as fast as sequential ones down to 128 KiB, half as fast
 * below: the erase block is 128 KiB, and the layout stripes by it. */
static void test_erase(void **state)
{
	static const double step[][2] = {
		{ 17, 17 }, { 16.8, 16.8 }, { 16.6, 8 }, { 16.2, 4.5 }, { 15.8, 3.3 },
	};
	static const double flat[][2] = { { 17, 17 }, { 16, 16 }, { 15, 15 } };
	static const double inconsistent[][2] = { { 17, 17 }, { 16, 8 }, { 15, 15 } };
	static const double big[][2] = { { 17, 8 }, { 16, 7 } };
	/* the largest just over the line (1.09, 1.07-1.11), the next two
	 * the same, then costing more */
	static const double noisy_top[][2] = {
		{ 36.7, 33.7 }, { 35.7, 35.5 }, { 36.6, 36.3 }, { 37.7, 9.2 },
	};
	struct characterize_result *r = fresh(512, 512);
	size_t i;

	(void)state;
	erase_sizes(r, step, 5);
	char_judge_erase(r);
	assert_true(r->erase_block.known);
	assert_true(r->erase_block.value == 128 << 10);
	assert_true(r->erase_block.low == 128 << 10);
	assert_int_equal(r->es[2].verdict, CHAR_MORE);
	assert_true(fabs(r->es[2].ratio - 16.6 / 8) < 1e-9);
	r->page = (struct char_figure){ true, 4096, 4096, 4096, "" };
	char_advise(r);
	for (i = 0; i < r->nadv && strcmp(r->adv[i].setting, "mkfs.ext4"); i++)
		;
	assert_true(i < r->nadv);
	assert_string_equal(r->adv[i].value, "-b 4096 -E stride=1,stripe_width=32");
	assert_string_equal(r->adv[i + 1].value, "-d su=4096,sw=32");
	/* the same at every size: nothing concluded, said as none seen */
	erase_sizes(r, flat, 3);
	char_judge_erase(r);
	assert_false(r->erase_block.known);
	assert_non_null(strstr(r->erase_block.basis, "none seen"));
	/* a smaller size as fast again after a slow one: noise, no unit */
	erase_sizes(r, inconsistent, 3);
	char_judge_erase(r);
	assert_false(r->erase_block.known);
	assert_non_null(strstr(r->erase_block.basis, "inconsistent"));
	/* a larger size within the noise does not hide the unit */
	erase_sizes(r, noisy_top, 4);
	char_judge_erase(r);
	assert_int_equal(r->es[0].verdict, CHAR_UNSURE);
	assert_true(r->erase_block.known);
	assert_true(r->erase_block.value == 64 << 10);
	/* the largest already slow: the unit is larger, not concluded */
	erase_sizes(r, big, 2);
	char_judge_erase(r);
	assert_false(r->erase_block.known);
	assert_non_null(strstr(r->erase_block.basis, "the largest tried"));
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_unit_8k),
		cmocka_unit_test(test_unit_between),
		cmocka_unit_test(test_no_unit),
		cmocka_unit_test(test_parallelism),
		cmocka_unit_test(test_partition_63),
		cmocka_unit_test(test_spin),
		cmocka_unit_test(test_no_spin),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_flush),
		cmocka_unit_test(test_erase),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
