/* verify.h - --verify: every written block carries a header (magic,
 * offset, seed, generation, size, the payload's checksum) and a payload
 * made from the seed, the offset and the generation; a block read back is
 * checked against what was last written there, and a mismatch is named by
 * its class:
 *   corrupt      the header or the payload fails its checksum (a flipped
 *                bit), or names a size or generation never written
 *   misdirected  a whole, valid block written for another offset
 *   lost         a valid block of this offset, of an older generation
 *                (or of another run's seed): the last write never landed
 *   unwritten    all zeroes: no write of this run ever landed
 * Checked right after each write (--verify-mode inline), after the write
 * phase (after), or by a later run from the state file (--verify-only).
 * Nothing here is on the path of a run without --verify.
 */
#ifndef REBENCH_VERIFY_H
#define REBENCH_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/digest.h"
#include "core/spec.h"
#include "core/verify_log.h"

enum verify_class {
	VC_OK, VC_CORRUPT, VC_MISDIRECTED, VC_LOST, VC_UNWRITTEN, VC_CLASSES
};

/* The header at the start of every block, little-endian on the medium:
 *   0 magic "RBVERIFY"   8 offset   16 seed   24 generation (all u64)
 *   32 block size   36 crc32c of the payload (0 for the other checksums)
 *   40 algorithm (enum verify_algo: 1 crc32c, 2 xxh64, 3 sha256)
 *   44 crc32c of bytes 0-43 and of the digest after the header (all u32)
 * then, for xxh64 and sha256, their digest of the payload (8 or 32 bytes,
 * digest.h), then the payload.  A crc32c block is laid out as before the
 * other checksums came, so older state files still verify. */
#define VERIFY_HDR_SIZE 48
#define VERIFY_MIN_PAYLOAD 16	/* the least payload a block carries */
#define VERIFY_MIN_BS 64	/* crc32c's: a header and some payload */
#define VERIFY_NAMED 100	/* --verify-continue: mismatches named on stderr */
#define VERIFY_MAGIC 0x5946495245564252ULL	/* "RBVERIFY" */

struct verify_hdr {
	uint64_t magic, offset, seed, gen;
	uint32_t bs, payload_crc, algo, hdr_crc;
	unsigned char digest[DIGEST_MAX];	/* the payload's, by algo */
};

/* Where the payload starts in a block of algorithm algo. */
size_t verify_payload_at(int algo);
/* The least block size algo can verify: its header, digest and
 * VERIFY_MIN_PAYLOAD bytes. */
size_t verify_min_bs(int algo);

/* Encode h into the start of blk (the header and, past crc32c, the
 * digest), its hdr_crc computed (and set in h). */
void verify_hdr_encode(void *blk, struct verify_hdr *h);
/* Decode: 0, -1 wrong magic, -2 wrong header checksum, -3 an unknown
 * algorithm (h filled either way). */
int verify_hdr_decode(const void *blk, struct verify_hdr *h);
/* The whole block as a write of generation gen at off carries it, its
 * payload summed by algo (enum verify_algo). */
void verify_fill(void *blk, size_t bs, int algo, uint64_t off,
		 uint64_t seed, uint64_t gen);

struct verify_mismatch {
	uint64_t offset;	/* the block's */
	int cls;		/* enum verify_class */
	char expected[192];
	char found[256];
};

/* blk, read from off, against generation gen of seed written with
 * algo: the class, and for a mismatch m filled (m may be NULL). */
int verify_check(const void *blk, size_t bs, int algo, uint64_t off,
		 uint64_t seed, uint64_t gen, struct verify_mismatch *m);
/* As verify_check(), any generation from lo to hi being right: an older
 * one is lost, a newer one corrupt (hi UINT64_MAX: none is too new). */
int verify_check_range(const void *blk, size_t bs, int algo, uint64_t off,
		       uint64_t seed, uint64_t lo, uint64_t hi,
		       struct verify_mismatch *m);
const char *verify_class_name(int cls);

/* What a workload's verification found (wl_result.verify). */
struct verify_result {
	bool on;		/* --verify was given */
	int algo, mode;
	bool only;		/* --verify-only */
	uint64_t written;	/* blocks written at least once this run */
	uint64_t checked;	/* blocks read back and checked */
	uint64_t count[VC_CLASSES];
	bool have_first;
	struct verify_mismatch first;
	uint64_t pass_ns;	/* the read-back pass after the writes (after,
				 * --verify-only is the run itself) */
	uint64_t inline_read_bytes;	/* read back right after each write
				 * (inline), while the device counters ran */
	bool stopped;		/* the first mismatch stopped the run */
	char state_err[320];	/* the state file could not be saved */
	struct verify_log_result log;	/* --verify-log (verify_log.h) */
};

/* A workload's verification while it runs (wl_state.verify): the last
 * generation of every block of the region, and the counts. */
struct verify_run {
	uint32_t *gen;		/* per block, 0: never written */
	uint64_t nblocks, region_start, bs, seed;
	struct verify_result res;
	struct verify_log *log;	/* --verify-log: the writer, or NULL */
	uint32_t *durable;	/* --verify-only --verify-log: per block, the
				 * log's generation (0: not named), or NULL */
	bool gen_known;		/* gen is the last written (the writing run,
				 * or --verify-state): a newer one is corrupt */
};

/* The state file against the resolved workload (its seed, -b, region),
 * and the right to write it, before any I/O: 0 or -EINVAL after a
 * message. */
int verify_spec_resolve(const struct spec *s);
/* --verify-only: the run is a sequential read of the region, once. */
void verify_spec_adapt(struct spec *s);
/* Before the run: the map, from the state file when there is one.  0, or
 * -errno after a message. */
int verify_prepare(struct verify_run *v, const struct spec *s);
void verify_free(struct verify_run *v);
/* A block at off checked: the counts, and the first mismatch kept.
 * Returns the class. */
int verify_note(struct verify_run *v, int cls,
		const struct verify_mismatch *m);
/* The block index of off, or UINT64_MAX outside the map. */
static inline uint64_t verify_block(const struct verify_run *v, uint64_t off)
{
	uint64_t b;

	if (off < v->region_start)
		return UINT64_MAX;
	b = (off - v->region_start) / v->bs;
	return b < v->nblocks ? b : UINT64_MAX;
}
/* The blocks a run checks when it reads them: those written (gen), or
 * with --verify-log's durable map those it names. */
static inline bool verify_wanted(const struct verify_run *v, uint64_t b)
{
	return v->durable ? v->durable[b] != 0 : v->gen[b] != 0;
}
/* Block b, read from off into blk, checked against the map (and the
 * log's generation with --verify-log): its class, m filled. */
int verify_check_block(const struct verify_run *v, const void *blk,
		       uint64_t off, uint64_t b, struct verify_mismatch *m);
/* Save the map to the state file (--verify-state); 0 or -errno, the
 * reason in v->res.state_err. */
int verify_save(struct verify_run *v, const char *path);
/* One line of the human report, for the error message too. */
void verify_summary(const struct verify_result *r, char *buf, size_t len);

#endif
