/* test_pattern.c - offset generators (src/gen/pattern.c) and the bounded PRNG
 * they draw from (src/gen/prng.h).
 *
 * The contract of pattern.h: every offset is start + k * stride with
 * 0 <= k < slots = (len - bs) / stride + 1, so an I/O never passes the
 * region end; seq walks the slots forward or backward and wraps; thread t of
 * T starts on its own share of the region; nothing overflows on huge
 * regions.  prng_below must stay in range, be uniform (chi-square with a
 * fixed seed) and be reproducible per (seed, stream).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gen/pattern.h"
#include "gen/prng.h"

#define KiB (1ULL << 10)
#define MiB (1ULL << 20)
#define TiB (1ULL << 40)

static void test_slots_formula(void **state)
{
	(void)state;
	assert_int_equal(pattern_slots(4096, 512, 512), 8);
	assert_int_equal(pattern_slots(4096, 512, 1024), 4);
	assert_int_equal(pattern_slots(4096, 1024, 512), 7);
	assert_int_equal(pattern_slots(4096, 4096, 4096), 1);
	assert_int_equal(pattern_slots(4096, 4096, 512), 1);
	/* a partial block at the end is not a slot */
	assert_int_equal(pattern_slots(1000, 512, 512), 1);
	assert_int_equal(pattern_slots(4607, 512, 512), 8);
	assert_int_equal(pattern_slots(4608, 512, 512), 9);
	assert_int_equal(pattern_slots(1024, 512, 513), 1);
	/* not even one block, or no stride: nothing to do */
	assert_int_equal(pattern_slots(511, 512, 512), 0);
	assert_int_equal(pattern_slots(0, 512, 512), 0);
	assert_int_equal(pattern_slots(4096, 512, 0), 0);
	assert_true(pattern_slots(16 * TiB, 512, 512) == (16 * TiB) / 512);
	assert_true(pattern_slots(UINT64_MAX, 1, 1) == UINT64_MAX);
}

/* Offset is start + k * stride, inside the region; returns k. */
static uint64_t check_offset(const struct pattern *p, uint64_t off,
			     uint64_t start, uint64_t len, uint64_t bs)
{
	uint64_t k;

	if (off < start || (off - start) % p->stride)
		fail_msg("offset %llu not start %llu + k * stride %llu",
			 (unsigned long long)off, (unsigned long long)start,
			 (unsigned long long)p->stride);
	k = (off - start) / p->stride;
	if (k >= p->slots)
		fail_msg("offset %llu is slot %llu of %llu",
			 (unsigned long long)off, (unsigned long long)k,
			 (unsigned long long)p->slots);
	if ((unsigned __int128)off + bs > (unsigned __int128)start + len)
		fail_msg("offset %llu + bs %llu passes region end %llu",
			 (unsigned long long)off, (unsigned long long)bs,
			 (unsigned long long)(start + len));
	return k;
}

static void test_rnd_inside_region(void **state)
{
	/* odd start: the phase every offset keeps */
	const uint64_t start = 3 * MiB + 512, len = 8 * MiB + 1000;
	static const uint64_t shapes[][2] = {
		{ 512, 512 }, { 4096, 4096 }, { 4096, 512 }, { 512, 4096 },
		{ 65536, 4096 }, { 1000, 24 },
	};
	struct pattern p;
	struct prng r;
	size_t s;
	int i;

	(void)state;
	prng_seed(&r, 11, 0);
	for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		uint64_t bs = shapes[s][0], stride = shapes[s][1];

		pattern_init(&p, start, len, bs, stride, true, false, 0, 1);
		assert_true(p.slots == pattern_slots(len, bs, stride));
		for (i = 0; i < 100000; i++)
			check_offset(&p, pattern_next(&p, &r), start, len, bs);
	}
}

static void test_rnd_covers_all_slots(void **state)
{
	const uint64_t start = 8192, len = 20 * 4096 + 100;
	bool seen[20] = { false };
	struct pattern p;
	struct prng r;
	uint64_t k;
	int i;

	(void)state;
	prng_seed(&r, 12, 0);
	pattern_init(&p, start, len, 4096, 4096, true, false, 0, 1);
	assert_int_equal(p.slots, 20);
	for (i = 0; i < 20000; i++) {
		k = check_offset(&p, pattern_next(&p, &r), start, len, 4096);
		seen[k] = true;
	}
	/* both ends included: the first and the last block get I/O */
	for (k = 0; k < 20; k++)
		if (!seen[k])
			fail_msg("slot %llu never drawn", (unsigned long long)k);
}

static void test_seq_forward_wraps(void **state)
{
	const uint64_t start = 4096, len = 5 * 4096 + 2048;
	struct pattern p;
	struct prng r;
	uint64_t k;

	(void)state;
	prng_seed(&r, 13, 0);
	pattern_init(&p, start, len, 4096, 4096, false, false, 0, 1);
	assert_int_equal(p.slots, 5);
	/* three laps: 0, 1, .., 4, 0, 1, ... */
	for (k = 0; k < 15; k++)
		assert_true(pattern_next(&p, &r) == start + (k % 5) * 4096);
}

static void test_seq_backward_wraps(void **state)
{
	const uint64_t start = 4096, len = 5 * 4096;
	struct pattern p;
	struct prng r;
	uint64_t k;

	(void)state;
	prng_seed(&r, 14, 0);
	pattern_init(&p, start, len, 4096, 4096, false, true, 0, 1);
	/* starts at the last slot, goes down to 0, wraps to the last */
	for (k = 0; k < 15; k++)
		assert_true(pattern_next(&p, &r) ==
			    start + (4 - k % 5) * 4096);
}

static void test_seq_single_slot(void **state)
{
	struct pattern p;
	struct prng r;
	int i;

	(void)state;
	prng_seed(&r, 15, 0);
	pattern_init(&p, 512, 4096, 4096, 4096, false, false, 0, 1);
	for (i = 0; i < 3; i++)
		assert_int_equal(pattern_next(&p, &r), 512);
	pattern_init(&p, 512, 4096, 4096, 4096, false, true, 0, 1);
	for (i = 0; i < 3; i++)
		assert_int_equal(pattern_next(&p, &r), 512);
}

static void test_thread_starts(void **state)
{
	const uint64_t slots = 10;
	struct pattern p;
	struct prng r;
	unsigned t;

	(void)state;
	prng_seed(&r, 16, 0);
	/* forward: thread t of T begins at slot t * slots / T */
	for (t = 0; t < 4; t++) {
		pattern_init(&p, 0, slots * 512, 512, 512, false, false, t, 4);
		assert_true(pattern_next(&p, &r) == (t * slots / 4) * 512);
	}
	/* one thread per slot: every slot is someone's start */
	for (t = 0; t < slots; t++) {
		pattern_init(&p, 0, slots * 512, 512, 512, false, false, t,
			     (unsigned)slots);
		assert_true(pattern_next(&p, &r) == t * 512);
	}
	/* backward mirrors it, so thread 0 still begins at the end */
	for (t = 0; t < 4; t++) {
		pattern_init(&p, 0, slots * 512, 512, 512, false, true, t, 4);
		assert_true(pattern_next(&p, &r) ==
			    (slots - 1 - t * slots / 4) * 512);
	}
	/* nthreads 0 is treated as 1 rather than dividing by zero */
	pattern_init(&p, 0, slots * 512, 512, 512, false, false, 0, 0);
	assert_int_equal(pattern_next(&p, &r), 0);
}

static void test_stride_gaps(void **state)
{
	const uint64_t bs = 512, stride = 2048, len = 8192;
	struct pattern p;
	struct prng r;
	uint64_t off;
	int i;

	(void)state;
	prng_seed(&r, 17, 0);
	/* seq: 0, 2048, 4096, 6144: 1.5 KiB untouched after each block */
	pattern_init(&p, 0, len, bs, stride, false, false, 0, 1);
	assert_int_equal(p.slots, 4);
	for (i = 0; i < 8; i++)
		assert_true(pattern_next(&p, &r) == (uint64_t)(i % 4) * stride);
	/* rnd: never inside a gap either */
	pattern_init(&p, 0, len, bs, stride, true, false, 0, 1);
	for (i = 0; i < 10000; i++) {
		off = pattern_next(&p, &r);
		check_offset(&p, off, 0, len, bs);
		assert_true(off % stride == 0);
	}
}

static void test_rnd_stride_below_bs(void **state)
{
	const uint64_t bs = 4096, stride = 512, len = 64 * KiB;
	bool seen[121] = { false };
	struct pattern p;
	struct prng r;
	uint64_t k;
	int i;

	(void)state;
	prng_seed(&r, 18, 0);
	/* overlapping blocks at every 512-byte boundary: allowed for rnd */
	pattern_init(&p, 0, len, bs, stride, true, false, 0, 1);
	assert_int_equal(p.slots, 121);
	for (i = 0; i < 50000; i++) {
		k = check_offset(&p, pattern_next(&p, &r), 0, len, bs);
		seen[k] = true;
	}
	assert_true(seen[0] && seen[120]);
}

static void test_large_region(void **state)
{
	const uint64_t start = TiB, len = 16 * TiB;
	struct pattern p;
	struct prng r;
	uint64_t off, max_off = 0;
	unsigned t;
	int i;

	(void)state;
	prng_seed(&r, 19, 0);
	pattern_init(&p, start, len, 512, 512, true, false, 0, 1);
	assert_true(p.slots == len / 512);
	for (i = 0; i < 100000; i++) {
		off = pattern_next(&p, &r);
		check_offset(&p, off, start, len, 512);
		if (off > max_off)
			max_off = off;
	}
	/* offsets reach the far end, not only the first 4 GiB or so */
	assert_true(max_off > start + len / 2);

	/* thread starts need slots * t beyond 64 bits on such regions */
	pattern_init(&p, 0, 1ULL << 63, 512, 512, false, false, 4095, 4096);
	assert_true(p.next == (1ULL << 54) / 4096 * 4095);
	for (t = 0; t < 4096; t += 1365) {
		pattern_init(&p, start, len, 512, 512, false, false, t, 4096);
		off = pattern_next(&p, &r);
		assert_true(off == start + (len / 512) / 4096 * t * 512);
	}
	/* the last slot of the largest region and its wrap */
	pattern_init(&p, 0, UINT64_MAX, 512, 512, false, true, 0, 1);
	off = pattern_next(&p, &r);
	assert_true(off == (UINT64_MAX - 512) / 512 * 512);
	check_offset(&p, off, 0, UINT64_MAX, 512);
}

static void test_prng_range(void **state)
{
	static const uint64_t ns[] = {
		1, 2, 3, 7, 10, 1000, 4096, (1ULL << 32) + 1,
		(1ULL << 63) + 1, UINT64_MAX,
	};
	struct prng r;
	size_t i;
	int j;

	(void)state;
	prng_seed(&r, 20, 0);
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		for (j = 0; j < 20000; j++)
			assert_true(prng_below(&r, ns[i]) < ns[i]);
	for (j = 0; j < 100; j++)
		assert_int_equal(prng_below(&r, 1), 0);
}

/*
 * Pearson chi-square over k equal buckets.  Thresholds are the 0.999
 * quantiles (df 9: 27.88, df 2: 13.82): with a fixed seed the test is
 * deterministic, and a generator with a real bias exceeds them by far.
 */
static double chi_square(const uint64_t *counts, int k, uint64_t total)
{
	double expect = (double)total / k, chi = 0;
	int i;

	for (i = 0; i < k; i++) {
		double d = (double)counts[i] - expect;

		chi += d * d / expect;
	}
	return chi;
}

static void test_prng_uniform(void **state)
{
	const uint64_t total = 1000000, big = 3ULL << 62;
	uint64_t counts[10] = { 0 };
	struct prng r;
	uint64_t i;
	double chi;

	(void)state;
	prng_seed(&r, 21, 0);
	for (i = 0; i < total; i++)
		counts[prng_below(&r, 10)]++;
	chi = chi_square(counts, 10, total);
	if (chi > 27.88)
		fail_msg("prng_below(10): chi-square %.2f > 27.88 (df 9)", chi);

	/*
	 * n = 3 * 2^62: a plain modulo would put half again as many draws
	 * in the lowest third.  Lemire's rejection must keep thirds equal.
	 */
	memset(counts, 0, sizeof(counts));
	for (i = 0; i < total; i++)
		counts[prng_below(&r, big) / (1ULL << 62)]++;
	chi = chi_square(counts, 3, total);
	if (chi > 13.82)
		fail_msg("prng_below(3 * 2^62): chi-square %.2f > 13.82 (df 2)",
			 chi);
}

static void test_prng_streams(void **state)
{
	struct prng a, b, c, d;
	int i, same_stream = 0, same_seed = 0;

	(void)state;
	prng_seed(&a, 1234, 0);
	prng_seed(&b, 1234, 0);
	prng_seed(&c, 1234, 1);
	prng_seed(&d, 1235, 0);
	for (i = 0; i < 1000; i++) {
		uint64_t x = prng_next(&a);

		assert_true(x == prng_next(&b));
		same_stream += x == prng_next(&c);
		same_seed += x == prng_next(&d);
	}
	assert_int_equal(same_stream, 0);
	assert_int_equal(same_seed, 0);

	/* seed 0 must not give the all-zero state xoshiro never leaves */
	prng_seed(&a, 0, 0);
	assert_true(a.s[0] | a.s[1] | a.s[2] | a.s[3]);
	assert_true(prng_next(&a) != prng_next(&a));
}

static void test_pattern_reproducible(void **state)
{
	struct pattern p1, p2;
	struct prng r1, r2;
	int i;

	(void)state;
	/* same seed and stream: same offsets, so a run can be repeated */
	prng_seed(&r1, 99, 3);
	prng_seed(&r2, 99, 3);
	pattern_init(&p1, 0, 1ULL << 30, 4096, 4096, true, false, 0, 1);
	pattern_init(&p2, 0, 1ULL << 30, 4096, 4096, true, false, 0, 1);
	for (i = 0; i < 1000; i++)
		assert_true(pattern_next(&p1, &r1) == pattern_next(&p2, &r2));
}

/* Passes, by hand: a 256 MiB region in 1 MiB I/Os has 256 slots, so 600
 * I/Os are 600 / 256 passes; the seq walk wraps after slot 255, so the
 * passes agree with the wraps the walk makes. */
static void test_seq_passes(void **state)
{
	struct seq_passes p;
	struct pattern pat;
	struct prng r;
	uint64_t i, off, prev = 0, wraps = 0;

	(void)state;
	seq_passes_compute(&p, 256, MiB, MiB, false, false, 600, 600 * MiB);
	assert_true(p.known);
	assert_true(p.count == 2.34375);
	assert_int_equal(p.ios, 256);
	assert_int_equal(p.bytes, 256 * MiB);
	prng_seed(&r, 1, 0);
	pattern_init(&pat, 0, 256 * MiB, MiB, MiB, false, false, 0, 1);
	for (i = 0; i < 600; i++) {
		off = pattern_next(&pat, &r);
		if (i && off < prev)
			wraps++;
		prev = off;
	}
	assert_int_equal(wraps, 2);	/* 3 passes begun, the last partial */
	/* gaps: -s 2m -b 1m, 128 slots; a pass moves 128 MiB */
	seq_passes_compute(&p, pattern_slots(256 * MiB, MiB, 2 * MiB),
			   2 * MiB, MiB, false, false, 300, 300 * MiB);
	assert_true(p.count == 2.34375);
	assert_int_equal(p.ios, 128);
	assert_int_equal(p.bytes, 128 * MiB);
	/* slots with sizes that vary (-s and a size mix): I/Os count, bytes
	 * per pass are not one number */
	seq_passes_compute(&p, 128, 2 * MiB, MiB, false, true, 64, 40 * MiB);
	assert_true(p.count == 0.5);
	assert_int_equal(p.bytes, 0);
	/* contiguous: 4k..8k sizes, slots = (256 MiB - 8 KiB) / 4 KiB + 1,
	 * the span (slots - 1) * 4 KiB + 8 KiB = 256 MiB */
	seq_passes_compute(&p, pattern_slots(256 * MiB, 8 * KiB, 4 * KiB),
			   4 * KiB, 8 * KiB, true, true, 12345, 384 * MiB);
	assert_int_equal(p.ios, 0);
	assert_int_equal(p.bytes, 256 * MiB);
	assert_true(p.count == 1.5);
	/* nothing fits: not known */
	seq_passes_compute(&p, 0, MiB, MiB, false, false, 0, 0);
	assert_false(p.known);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slots_formula),
		cmocka_unit_test(test_seq_passes),
		cmocka_unit_test(test_rnd_inside_region),
		cmocka_unit_test(test_rnd_covers_all_slots),
		cmocka_unit_test(test_seq_forward_wraps),
		cmocka_unit_test(test_seq_backward_wraps),
		cmocka_unit_test(test_seq_single_slot),
		cmocka_unit_test(test_thread_starts),
		cmocka_unit_test(test_stride_gaps),
		cmocka_unit_test(test_rnd_stride_below_bs),
		cmocka_unit_test(test_large_region),
		cmocka_unit_test(test_prng_range),
		cmocka_unit_test(test_prng_uniform),
		cmocka_unit_test(test_prng_streams),
		cmocka_unit_test(test_pattern_reproducible),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
