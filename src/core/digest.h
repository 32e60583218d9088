/* digest.h - the checksums --verify can put in a block's header, as one
 * table: crc32c (4 bytes, in the header's own field, the default),
 * xxh64 (8 bytes, libxxhash where it was built in) and sha256 (32
 * bytes, sha256.c).  The longer ones follow the 48-byte header, before
 * the payload (verify.h). */
#ifndef REBENCH_DIGEST_H
#define REBENCH_DIGEST_H

#include <stdbool.h>
#include <stddef.h>

#define DIGEST_MAX 32

struct digest {
	int algo;		/* enum verify_algo (spec.h) */
	const char *name;	/* as --verify takes it */
	size_t size;		/* bytes */
	bool built;		/* false: its library was missing at build */
	/* the digest of len bytes at p into out (size bytes) */
	void (*sum)(const void *p, size_t len, unsigned char *out);
};

/* The algorithm's entry, or NULL for VERIFY_NONE or an unknown one. */
const struct digest *digest_of(int algo);
/* Its digest as hex into buf ("0x" and at most 16 digits, then "..."
 * for a longer one). */
void digest_hex(const struct digest *d, const unsigned char *v, char *buf,
		size_t len);

#endif
