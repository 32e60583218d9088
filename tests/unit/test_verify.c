/* test_verify.c - --verify's pieces (src/core/crc32c.c, verify.c):
 * crc32c against the published vectors (RFC 3720 B.4 and the "123456789"
 * check value), the SSE4.2 and table versions against each other at every
 * length and alignment; the block header encoded and decoded; and each
 * class of verify_check() on a block damaged as the device would damage
 * it: a flipped payload byte and a flipped header byte (corrupt), another
 * offset's block (misdirected), an older generation and another run's
 * seed (lost), zeroes (unwritten), and the ok block.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/crc32c.h"
#include "core/verify.h"

static void test_crc32c_vectors(void **state)
{
	unsigned char buf[48];
	int i;

	(void)state;
	assert_int_equal(crc32c(0, "123456789", 9), 0xE3069283U);
	assert_int_equal(crc32c_sw(0, "123456789", 9), 0xE3069283U);
	assert_int_equal(crc32c(0, "", 0), 0);
	/* RFC 3720, B.4: 32 bytes of zeroes, of ones, ascending, descending */
	memset(buf, 0, 32);
	assert_int_equal(crc32c(0, buf, 32), 0x8A9136AAU);
	memset(buf, 0xff, 32);
	assert_int_equal(crc32c(0, buf, 32), 0x62A8AB43U);
	for (i = 0; i < 32; i++)
		buf[i] = (unsigned char)i;
	assert_int_equal(crc32c(0, buf, 32), 0x46DD794EU);
	assert_int_equal(crc32c_sw(0, buf, 32), 0x46DD794EU);
	for (i = 0; i < 32; i++)
		buf[i] = (unsigned char)(31 - i);
	assert_int_equal(crc32c(0, buf, 32), 0x113FDB5CU);
	/* continuing a CRC is the CRC of the whole */
	assert_int_equal(crc32c(crc32c(0, "12345", 5), "6789", 4),
			 0xE3069283U);
}

static void test_crc32c_hw_sw(void **state)
{
	unsigned char buf[600];
	size_t len, off;

	(void)state;
	for (len = 0; len < sizeof(buf); len++)
		buf[len] = (unsigned char)(len * 131 + 7);
	for (off = 0; off < 8; off++)
		for (len = 0; len + off <= 520; len++)
			assert_int_equal(crc32c(0, buf + off, len),
					 crc32c_sw(0, buf + off, len));
}

static void test_header_round_trip(void **state)
{
	unsigned char blk[64] = { 0 };
	struct verify_hdr h = {
		.magic = VERIFY_MAGIC, .offset = 0x123456789abcULL,
		.seed = 42, .gen = 7, .bs = 4096, .payload_crc = 0xdeadbeef,
		.algo = VERIFY_CRC32C,
	}, d;

	(void)state;
	verify_hdr_encode(blk, &h);
	assert_memory_equal(blk, "RBVERIFY", 8);	/* readable in a dump */
	assert_int_equal(blk[8], 0xbc);			/* little-endian */
	assert_int_equal(verify_hdr_decode(blk, &d), 0);
	assert_true(d.offset == h.offset && d.seed == 42 && d.gen == 7 &&
		    d.bs == 4096 && d.payload_crc == 0xdeadbeef &&
		    d.algo == VERIFY_CRC32C && d.hdr_crc == h.hdr_crc);
	blk[20] ^= 1;
	assert_int_equal(verify_hdr_decode(blk, &d), -2);
	blk[0] ^= 1;
	assert_int_equal(verify_hdr_decode(blk, &d), -1);
}

#define BS 4096
#define OFF (10 * BS)

static int check(const unsigned char *blk, uint64_t gen,
		 struct verify_mismatch *m)
{
	memset(m, 0, sizeof(*m));
	return verify_check(blk, BS, VERIFY_CRC32C, OFF, 7, gen, m);
}

static void test_classes(void **state)
{
	static unsigned char blk[BS], other[BS];
	struct verify_mismatch m;

	(void)state;
	verify_fill(blk, BS, VERIFY_CRC32C, OFF, 7, 3);
	assert_int_equal(check(blk, 3, &m), VC_OK);
	/* the same block is reproducible; another generation differs */
	verify_fill(other, BS, VERIFY_CRC32C, OFF, 7, 3);
	assert_memory_equal(blk, other, BS);
	verify_fill(other, BS, VERIFY_CRC32C, OFF, 7, 4);
	assert_memory_not_equal(blk + VERIFY_HDR_SIZE,
				other + VERIFY_HDR_SIZE, BS - VERIFY_HDR_SIZE);

	/* a flipped payload byte: where, and what was written there */
	blk[1000] ^= 0x10;
	assert_int_equal(check(blk, 3, &m), VC_CORRUPT);
	assert_int_equal(m.offset, OFF);
	assert_non_null(strstr(m.found, "at byte 1000 of the block"));
	assert_non_null(strstr(m.found, "1 byte differs"));
	blk[1000] ^= 0x10;
	/* a flipped header byte */
	blk[30] ^= 1;
	assert_int_equal(check(blk, 3, &m), VC_CORRUPT);
	assert_non_null(strstr(m.found, "header fails its crc32c"));
	blk[30] ^= 1;

	/* a newer generation expected: this one is an older write */
	assert_int_equal(check(blk, 4, &m), VC_LOST);
	assert_non_null(strstr(m.found, "generation 3"));
	assert_non_null(strstr(m.expected, "generation 4"));
	/* a generation newer than any written */
	assert_int_equal(check(blk, 2, &m), VC_CORRUPT);

	/* another offset's block, whole */
	verify_fill(other, BS, VERIFY_CRC32C, 20 * BS, 7, 3);
	assert_int_equal(check(other, 3, &m), VC_MISDIRECTED);
	assert_non_null(strstr(m.found, "offset 81920"));
	assert_non_null(strstr(m.expected, "offset 40960"));

	/* another run's block at this offset */
	verify_fill(other, BS, VERIFY_CRC32C, OFF, 8, 3);
	assert_int_equal(check(other, 3, &m), VC_LOST);
	assert_non_null(strstr(m.found, "seed 8"));

	/* zeroes */
	memset(other, 0, BS);
	assert_int_equal(check(other, 3, &m), VC_UNWRITTEN);
	/* not a block of ours at all */
	memset(other, 0xaa, BS);
	assert_int_equal(check(other, 3, &m), VC_CORRUPT);
	assert_non_null(strstr(m.found, "no block header"));
}

static void test_note(void **state)
{
	struct verify_run v;
	struct verify_mismatch m = { .offset = 512, .cls = VC_LOST };

	(void)state;
	memset(&v, 0, sizeof(v));
	verify_note(&v, VC_OK, NULL);
	verify_note(&v, VC_LOST, &m);
	m.offset = 1024;
	verify_note(&v, VC_CORRUPT, &m);
	assert_int_equal(v.res.checked, 3);
	assert_int_equal(v.res.count[VC_OK], 1);
	assert_int_equal(v.res.count[VC_LOST], 1);
	assert_int_equal(v.res.count[VC_CORRUPT], 1);
	assert_true(v.res.have_first);
	assert_int_equal(v.res.first.offset, 512);	/* the first kept */
	v.region_start = 4096;
	v.bs = 4096;
	v.nblocks = 4;
	assert_int_equal(verify_block(&v, 4096 + 3 * 4096), 3);
	assert_true(verify_block(&v, 0) == UINT64_MAX);
	assert_true(verify_block(&v, 5 * 4096) == UINT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32c_vectors),
		cmocka_unit_test(test_crc32c_hw_sw),
		cmocka_unit_test(test_header_round_trip),
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_note),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
