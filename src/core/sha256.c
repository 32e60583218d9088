/* sha256.c - SHA-256 as FIPS 180-4 section 6.2 gives it: 64-byte blocks,
 * a message schedule of 64 words, 64 rounds; the message padded with a
 * 1 bit, zeroes and its length in bits (sha256.h).  One call hashes a
 * whole block of --verify, so there is no streaming interface.
 *
 * Where the CPU has the SHA extensions (x86 SHA-NI: sha256rnds2 does two
 * rounds, sha256msg1/msg2 the message schedule), the blocks go through
 * them: about a tenth of the portable code's instructions.  The state is
 * kept in the order the instructions want it, ABEF and CDGH. */
#include "core/sha256.h"

#include <stdbool.h>
#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_SHA_NI_BUILD 1
#endif

/* the first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes (FIPS 180-4, 4.2.2) */
static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t ror(uint32_t x, int n)
{
	return x >> n | x << (32 - n);
}

static inline uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* One 64-byte block into the state h. */
static void compress(uint32_t h[8], const unsigned char *blk)
{
	uint32_t w[64], a, b, c, d, e, f, g, k, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = be32(blk + 4 * i);
	for (i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = h[0], b = h[1], c = h[2], d = h[3];
	e = h[4], f = h[5], g = h[6], k = h[7];
	for (i = 0; i < 64; i++) {
		t1 = k + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) +
		     ((e & f) ^ (~e & g)) + K[i] + w[i];
		t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) +
		     ((a & b) ^ (a & c) ^ (b & c));
		k = g, g = f, f = e, e = d + t1;
		d = c, c = b, b = a, a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d;
	h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

static void compress_sw(uint32_t h[8], const unsigned char *blk, size_t n)
{
	for (; n; n--, blk += 64)
		compress(h, blk);
}

#ifdef HAVE_SHA_NI_BUILD
/* n blocks through SHA-NI.  Group g of 4 rounds adds K[4g..4g+3] to the
 * schedule's words in register M[g % 4]; from group 1 sha256msg1 starts
 * the words 16 later in the previous register, from group 3 sha256msg2
 * finishes them in the next (the last groups compute words never used,
 * which costs less than telling them apart). */
__attribute__((target("sha,sse4.1,ssse3")))
static void compress_ni(uint32_t h[8], const unsigned char *blk, size_t n)
{
	const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL,
					    0x0405060700010203ULL);
	__m128i st0, st1, tmp, msg, m[4], abef, cdgh;
	int g;

	tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xB1);	/* CDAB */
	st1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1B);	/* EFGH */
	st0 = _mm_alignr_epi8(tmp, st1, 8);		/* ABEF */
	st1 = _mm_blend_epi16(st1, tmp, 0xF0);		/* CDGH */
	for (; n; n--, blk += 64) {
		abef = st0;
		cdgh = st1;
		for (g = 0; g < 16; g++) {
			__m128i *cur = &m[g & 3], *prev = &m[(g + 3) & 3],
				*next = &m[(g + 1) & 3];

			if (g < 4)
				*cur = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blk + 16 * g)), swap);
			msg = _mm_add_epi32(*cur, _mm_loadu_si128((const __m128i *)&K[4 * g]));
			st1 = _mm_sha256rnds2_epu32(st1, st0, msg);
			if (g >= 3) {
				tmp = _mm_alignr_epi8(*cur, *prev, 4);
				*next = _mm_sha256msg2_epu32(_mm_add_epi32(*next, tmp), *cur);
			}
			msg = _mm_shuffle_epi32(msg, 0x0E);
			st0 = _mm_sha256rnds2_epu32(st0, st1, msg);
			if (g >= 1)
				*prev = _mm_sha256msg1_epu32(*prev, *cur);
		}
		st0 = _mm_add_epi32(st0, abef);
		st1 = _mm_add_epi32(st1, cdgh);
	}
	tmp = _mm_shuffle_epi32(st0, 0x1B);		/* FEBA */
	st1 = _mm_shuffle_epi32(st1, 0xB1);		/* DCHG */
	_mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(tmp, st1, 0xF0));	/* DCBA */
	_mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(st1, tmp, 8));	/* HGFE */
}

static bool cpu_has_sha_ni(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSE4_1) ||
	    !(c & bit_SSSE3))
		return false;
	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
}
#endif

typedef void (*compress_fn)(uint32_t h[8], const unsigned char *blk, size_t n);

static compress_fn pick(bool hw)
{
#ifdef HAVE_SHA_NI_BUILD
	static int have = -1;

	if (have < 0)
		have = cpu_has_sha_ni();
	if (hw && have)
		return compress_ni;
#else
	(void)hw;
#endif
	return compress_sw;
}

const char *sha256_impl(void)
{
	return pick(true) == compress_sw ? "portable" : "sha-ni";
}

static void digest(const void *p, size_t len, unsigned char out[SHA256_SIZE],
		   compress_fn blocks)
{
	/* the first 32 bits of the fractional parts of the square roots of
	 * the first 8 primes (FIPS 180-4, 5.3.3) */
	uint32_t h[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};
	const unsigned char *s = p;
	unsigned char tail[128];
	uint64_t bits = (uint64_t)len * 8;
	size_t n = len, rest, padded, i;

	blocks(h, s, n / 64);
	s += n / 64 * 64;
	n %= 64;
	/* the last bytes, the 1 bit, zeroes to 56 mod 64, the length */
	rest = n;
	memcpy(tail, s, rest);
	tail[rest] = 0x80;
	padded = rest + 1 + 8 <= 64 ? 64 : 128;
	memset(tail + rest + 1, 0, padded - rest - 1 - 8);
	for (i = 0; i < 8; i++)
		tail[padded - 1 - i] = (unsigned char)(bits >> (8 * i));
	blocks(h, tail, padded / 64);
	for (i = 0; i < 8; i++) {
		out[4 * i] = (unsigned char)(h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(h[i] >> 8);
		out[4 * i + 3] = (unsigned char)h[i];
	}
}

void sha256(const void *p, size_t len, unsigned char out[SHA256_SIZE])
{
	digest(p, len, out, pick(true));
}

void sha256_sw(const void *p, size_t len, unsigned char out[SHA256_SIZE])
{
	digest(p, len, out, compress_sw);
}
