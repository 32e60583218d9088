/* digest.c - --verify's checksums (digest.h). */
#include "core/digest.h"

#include <stdio.h>

#include "config.h"
#include "core/crc32c.h"
#include "core/sha256.h"
#include "core/spec.h"
#ifdef HAVE_LIBXXHASH
#include <xxhash.h>
#endif

static void put_le(unsigned char *out, unsigned long long v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		out[i] = (unsigned char)(v >> (8 * i));
}

static void sum_crc32c(const void *p, size_t len, unsigned char *out)
{
	put_le(out, crc32c(0, p, len), 4);
}

#ifdef HAVE_LIBXXHASH
static void sum_xxh64(const void *p, size_t len, unsigned char *out)
{
	put_le(out, XXH64(p, len, 0), 8);
}
#define XXH64_SUM sum_xxh64
#define XXH64_BUILT true
#else
#define XXH64_SUM NULL
#define XXH64_BUILT false
#endif

static void sum_sha256(const void *p, size_t len, unsigned char *out)
{
	sha256(p, len, out);
}

static const struct digest digests[] = {
	{ VERIFY_CRC32C, "crc32c", 4, true, sum_crc32c },
	{ VERIFY_XXH64, "xxh64", 8, XXH64_BUILT, XXH64_SUM },
	{ VERIFY_SHA256, "sha256", SHA256_SIZE, true, sum_sha256 },
};

const struct digest *digest_of(int algo)
{
	size_t i;

	for (i = 0; i < sizeof(digests) / sizeof(digests[0]); i++)
		if (digests[i].algo == algo)
			return &digests[i];
	return NULL;
}

void digest_hex(const struct digest *d, const unsigned char *v, char *buf,
		size_t len)
{
	size_t i, n = d->size > 8 ? 8 : d->size, at;

	/* little-endian values (crc32c, xxh64) print as the number they
	 * are; sha256 in its own byte order, as sha256sum prints it */
	at = (size_t)snprintf(buf, len, "0x");
	for (i = 0; i < n && at < len; i++) {
		size_t k = d->size > 8 ? i : d->size - 1 - i;

		at += (size_t)snprintf(buf + at, len - at, "%02x", v[k]);
	}
	if (d->size > 8 && at < len)
		snprintf(buf + at, len - at, "...");
}
