/* crc32c.c - CRC-32C, reflected polynomial 0x82F63B78 (crc32c.h). */
#include "core/crc32c.h"

#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#define POLY 0x82F63B78U

static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void table_build(void)
{
	uint32_t c;
	int i, k, s;

	for (i = 0; i < 256; i++) {
		c = (uint32_t)i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ POLY : c >> 1;
		table[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (s = 1; s < 8; s++)
			table[s][i] = (table[s - 1][i] >> 8) ^
				      table[0][table[s - 1][i] & 0xff];
}

uint32_t crc32c_sw(uint32_t crc, const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t w;

	pthread_once(&table_once, table_build);
	crc = ~crc;
	while (len && ((uintptr_t)b & 7)) {
		crc = (crc >> 8) ^ table[0][(crc ^ *b++) & 0xff];
		len--;
	}
	while (len >= 8) {
		memcpy(&w, b, 8);	/* little-endian (x86, arm64) */
		w ^= crc;
		crc = table[7][w & 0xff] ^ table[6][(w >> 8) & 0xff] ^
		      table[5][(w >> 16) & 0xff] ^ table[4][(w >> 24) & 0xff] ^
		      table[3][(w >> 32) & 0xff] ^ table[2][(w >> 40) & 0xff] ^
		      table[1][(w >> 48) & 0xff] ^ table[0][w >> 56];
		b += 8;
		len -= 8;
	}
	while (len--)
		crc = (crc >> 8) ^ table[0][(crc ^ *b++) & 0xff];
	return ~crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t crc32c_hw(uint32_t crc, const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t c = ~crc, w;

	while (len && ((uintptr_t)b & 7)) {
		c = __builtin_ia32_crc32qi((uint32_t)c, *b++);
		len--;
	}
	while (len >= 8) {
		memcpy(&w, b, 8);
		c = __builtin_ia32_crc32di(c, w);
		b += 8;
		len -= 8;
	}
	while (len--)
		c = __builtin_ia32_crc32qi((uint32_t)c, *b++);
	return ~(uint32_t)c;
}

static bool have_hw(void)
{
	static int known;	/* 0 not asked, 1 yes, 2 no */

	if (!known)
		known = __builtin_cpu_supports("sse4.2") ? 1 : 2;
	return known == 1;
}
#else
static uint32_t crc32c_hw(uint32_t crc, const void *p, size_t len)
{
	return crc32c_sw(crc, p, len);
}

static bool have_hw(void)
{
	return false;
}
#endif

uint32_t crc32c(uint32_t crc, const void *p, size_t len)
{
	return have_hw() ? crc32c_hw(crc, p, len) : crc32c_sw(crc, p, len);
}

const char *crc32c_impl(void)
{
	return have_hw() ? "sse4.2" : "slice-by-8";
}
