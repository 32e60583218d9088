/* sha256.h - SHA-256 (FIPS 180-4), for --verify sha256: a digest no
 * accident or misdirected copy will match, at a few times crc32c's cost.
 * sha256("abc") is ba7816bf 8f01cfea 414140de 5dae2223 b00361a3 96177a9c
 * b410ff61 f20015ad.
 */
#ifndef REBENCH_SHA256_H
#define REBENCH_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_SIZE 32

/* The digest of len bytes at p, into out (big-endian, as printed). */
void sha256(const void *p, size_t len, unsigned char out[SHA256_SIZE]);
/* The portable version alone (the unit tests hold both to the vectors). */
void sha256_sw(const void *p, size_t len, unsigned char out[SHA256_SIZE]);
/* "sha-ni" or "portable": the one sha256() uses on this CPU. */
const char *sha256_impl(void);

#endif
