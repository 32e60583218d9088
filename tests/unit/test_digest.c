/* test_digest.c - --verify's checksums (src/core/digest.c, sha256.c)
 * against published vectors: SHA-256 of "", "abc", the 448-bit message
 * and a million 'a' (FIPS 180-4's examples), the padding lengths around a
 * block's end (55, 56, 64 bytes, as sha256sum gives them), and the SHA-NI
 * rounds against the portable ones at every length to 300; XXH64 of "",
 * "a", "abc" (xxHash's own tests); crc32c's "123456789"; and how each
 * prints.  Then each through --verify's block: written and checked ok, a
 * flipped payload byte named at its offset with the checksum's name, a
 * flipped digest byte failing the header's crc32c, a block of another
 * checksum refused, and the least block size.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"
#include "core/digest.h"
#include "core/sha256.h"
#include "core/spec.h"
#include "core/verify.h"

static void hex(const unsigned char *v, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", v[i]);
}

static void check_sha(const void *p, size_t len, const char *want)
{
	unsigned char d[SHA256_SIZE];
	char h[2 * SHA256_SIZE + 1];

	sha256(p, len, d);
	hex(d, sizeof(d), h);
	assert_string_equal(h, want);
}

static void test_sha256_vectors(void **state)
{
	char *m = malloc(1000000);

	(void)state;
	check_sha("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check_sha("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check_sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	assert_non_null(m);
	memset(m, 'a', 1000000);
	check_sha(m, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	/* the lengths where the padding spills into a second block (55, 56)
	 * and fills one exactly (64): 'a' repeated, as sha256sum gives them */
	check_sha(m, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
	check_sha(m, 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
	check_sha(m, 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
	free(m);
}

/* SHA-NI (where the CPU has it) against the portable rounds: every length
 * to 300 bytes and a few blocks of 4 KiB, at odd alignments */
static void test_sha256_hw_sw(void **state)
{
	unsigned char buf[4096 + 8], a[SHA256_SIZE], b[SHA256_SIZE];
	size_t i, len;

	(void)state;
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 2654435761U >> 13);
	for (len = 0; len <= 300; len++) {
		sha256(buf + (len & 7), len, a);
		sha256_sw(buf + (len & 7), len, b);
		assert_memory_equal(a, b, SHA256_SIZE);
	}
	for (i = 0; i < 8; i++) {
		sha256(buf + i, 4096, a);
		sha256_sw(buf + i, 4096, b);
		assert_memory_equal(a, b, SHA256_SIZE);
	}
	print_message("sha256: %s\n", sha256_impl());
}

static void test_table(void **state)
{
	const struct digest *c = digest_of(VERIFY_CRC32C);
	const struct digest *x = digest_of(VERIFY_XXH64);
	const struct digest *s = digest_of(VERIFY_SHA256);
	unsigned char v[DIGEST_MAX];
	char buf[64];

	(void)state;
	assert_null(digest_of(VERIFY_NONE));
	assert_non_null(c);
	assert_non_null(x);
	assert_non_null(s);
	assert_int_equal(c->size, 4);
	assert_int_equal(x->size, 8);
	assert_int_equal(s->size, 32);
	/* crc32c stored little-endian, printed as its number */
	c->sum("123456789", 9, v);
	assert_memory_equal(v, "\x83\x92\x06\xe3", 4);
	digest_hex(c, v, buf, sizeof(buf));
	assert_string_equal(buf, "0xe3069283");
	s->sum("abc", 3, v);
	digest_hex(s, v, buf, sizeof(buf));
	assert_string_equal(buf, "0xba7816bf8f01cfea...");
#ifdef HAVE_LIBXXHASH
	assert_true(x->built);
	x->sum("", 0, v);
	digest_hex(x, v, buf, sizeof(buf));
	assert_string_equal(buf, "0xef46db3751d8e999");
	x->sum("a", 1, v);
	digest_hex(x, v, buf, sizeof(buf));
	assert_string_equal(buf, "0xd24ec4f1a98c6e5b");
	x->sum("abc", 3, v);
	digest_hex(x, v, buf, sizeof(buf));
	assert_string_equal(buf, "0x44bc2cf5ad770999");
#else
	assert_false(x->built);
#endif
}

static void test_blocks(void **state)
{
	static const int algos[] = { VERIFY_CRC32C, VERIFY_XXH64, VERIFY_SHA256 };
	enum { BS = 512, OFF = 8192 };
	unsigned char blk[BS], copy[BS];
	struct verify_mismatch m;
	size_t i, at;

	(void)state;
	assert_int_equal(verify_payload_at(VERIFY_CRC32C), 48);
	assert_int_equal(verify_payload_at(VERIFY_XXH64), 56);
	assert_int_equal(verify_payload_at(VERIFY_SHA256), 80);
	assert_int_equal(verify_min_bs(VERIFY_CRC32C), 64);
	assert_int_equal(verify_min_bs(VERIFY_SHA256), 96);
	for (i = 0; i < sizeof(algos) / sizeof(algos[0]); i++) {
		const struct digest *d = digest_of(algos[i]);
		char want[80];

		if (!d->built)
			continue;
		at = verify_payload_at(algos[i]);
		verify_fill(blk, BS, algos[i], OFF, 7, 3);
		assert_int_equal(verify_check(blk, BS, algos[i], OFF, 7, 3, &m), VC_OK);
		/* a payload byte */
		memcpy(copy, blk, BS);
		copy[300] ^= 0x10;
		assert_int_equal(verify_check(copy, BS, algos[i], OFF, 7, 3, &m), VC_CORRUPT);
		snprintf(want, sizeof(want), "payload %s 0x", d->name);
		assert_non_null(strstr(m.found, want));
		assert_non_null(strstr(m.found, "1 byte differs, the first at byte 300 of the block (offset 8492)"));
		/* the digest (or crc32c's field) itself */
		memcpy(copy, blk, BS);
		copy[algos[i] == VERIFY_CRC32C ? 37 : at - 1] ^= 1;
		assert_int_equal(verify_check(copy, BS, algos[i], OFF, 7, 3, &m), VC_CORRUPT);
		assert_non_null(strstr(m.found, "block header fails its crc32c"));
		/* the same write under another checksum */
		assert_int_equal(verify_check(blk, BS, algos[(i + 1) % 3], OFF, 7, 3, &m), VC_CORRUPT);
		assert_non_null(strstr(m.found, "a header of the"));
		/* the classes before the checksum: an older generation */
		assert_int_equal(verify_check(blk, BS, algos[i], OFF, 7, 4, &m), VC_LOST);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256_vectors),
		cmocka_unit_test(test_sha256_hw_sw),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_blocks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
