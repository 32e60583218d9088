/* verify.c - --verify's blocks, checks, map and state file (verify.h). */
#include "core/verify.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/crc32c.h"
#include "core/infile.h"
#include "core/outpath.h"
#include "core/spec.h"
#include "core/units.h"

static const char *const class_names[VC_CLASSES] = {
	"ok", "corrupt", "misdirected", "lost", "unwritten",
};

const char *verify_class_name(int cls)
{
	return cls >= 0 && cls < VC_CLASSES ? class_names[cls] : "?";
}

static void put64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put32(unsigned char *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

size_t verify_payload_at(int algo)
{
	const struct digest *d = digest_of(algo);

	return VERIFY_HDR_SIZE + (d && algo != VERIFY_CRC32C ? d->size : 0);
}

size_t verify_min_bs(int algo)
{
	size_t n = verify_payload_at(algo) + VERIFY_MIN_PAYLOAD;

	return n < VERIFY_MIN_BS ? VERIFY_MIN_BS : n;
}

/* The header's own checksum: bytes 0-43, then the digest that follows a
 * header of xxh64 or sha256 (dlen bytes from 48). */
static uint32_t hdr_sum(const unsigned char *p, size_t dlen)
{
	uint32_t c = crc32c(0, p, 44);

	return dlen ? crc32c(c, p + VERIFY_HDR_SIZE, dlen) : c;
}

void verify_hdr_encode(void *blk, struct verify_hdr *h)
{
	unsigned char *p = blk;
	size_t dlen = verify_payload_at((int)h->algo) - VERIFY_HDR_SIZE;

	put64(p, h->magic);
	put64(p + 8, h->offset);
	put64(p + 16, h->seed);
	put64(p + 24, h->gen);
	put32(p + 32, h->bs);
	put32(p + 36, h->payload_crc);
	put32(p + 40, h->algo);
	memcpy(p + VERIFY_HDR_SIZE, h->digest, dlen);
	h->hdr_crc = hdr_sum(p, dlen);
	put32(p + 44, h->hdr_crc);
}

int verify_hdr_decode(const void *blk, struct verify_hdr *h)
{
	const unsigned char *p = blk;
	size_t dlen;

	h->magic = get64(p);
	h->offset = get64(p + 8);
	h->seed = get64(p + 16);
	h->gen = get64(p + 24);
	h->bs = get32(p + 32);
	h->payload_crc = get32(p + 36);
	h->algo = get32(p + 40);
	h->hdr_crc = get32(p + 44);
	if (h->magic != VERIFY_MAGIC)
		return -1;
	if (!digest_of((int)h->algo))
		return crc32c(0, p, 44) != h->hdr_crc ? -2 : -3;
	dlen = verify_payload_at((int)h->algo) - VERIFY_HDR_SIZE;
	memcpy(h->digest, p + VERIFY_HDR_SIZE, dlen);
	if (hdr_sum(p, dlen) != h->hdr_crc)
		return -2;
	return 0;
}

static inline uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

typedef uint64_t u64x2 __attribute__((vector_size(16)));

/* The payload of (seed, off, gen): two interleaved xorshift64 streams
 * (Marsaglia's 13, 7, 17), each from a splitmix64 of their mix, so that
 * no two writes carry the same bytes and none compresses.  Two lanes of
 * one vector: 16 bytes in about 13 instructions, where a splitmix64 a
 * word cost 17 a word (a 4 KiB block's fill 8,600 instructions, 70% of
 * verify's cost per write). */
static void payload_fill(unsigned char *p, size_t len, uint64_t off,
			 uint64_t seed, uint64_t gen)
{
	uint64_t k = seed ^ (off * 0xd6e8feb86659fd93ULL) ^
		     (gen * 0x9e3779b97f4a7c15ULL);
	u64x2 x;
	size_t i;

	x[0] = splitmix(&k) | 1;	/* xorshift's state is never 0 */
	x[1] = splitmix(&k) | 1;
	for (i = 0; i + 16 <= len; i += 16) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(p + i, &x, 16);
	}
	if (i < len) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(p + i, &x, len - i);
	}
}

/* The payload's digest by algo into h (crc32c in its header field). */
static void payload_sum(const unsigned char *p, size_t bs, int algo,
			struct verify_hdr *h)
{
	size_t at = verify_payload_at(algo);

	if (algo == VERIFY_CRC32C)
		h->payload_crc = crc32c(0, p + at, bs - at);
	else
		digest_of(algo)->sum(p + at, bs - at, h->digest);
}

void verify_fill(void *blk, size_t bs, int algo, uint64_t off,
		 uint64_t seed, uint64_t gen)
{
	unsigned char *p = blk;
	size_t at = verify_payload_at(algo);
	struct verify_hdr h = {
		.magic = VERIFY_MAGIC, .offset = off, .seed = seed,
		.gen = gen, .bs = (uint32_t)bs, .algo = (uint32_t)algo,
	};

	payload_fill(p + at, bs - at, off, seed, gen);
	payload_sum(p, bs, algo, &h);
	verify_hdr_encode(p, &h);
}

static bool all_zero(const unsigned char *p, size_t len)
{
	uint64_t w, acc = 0;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		acc |= w;
	}
	for (; i < len; i++)
		acc |= p[i];
	return !acc;
}

/* What was expected at off, in words: one generation, or from lo on. */
static void expected_text(struct verify_mismatch *m, uint64_t off,
			  uint64_t seed, uint64_t lo, uint64_t hi)
{
	if (lo == hi)
		snprintf(m->expected, sizeof(m->expected),
			 "offset %" PRIu64 " generation %" PRIu64 " of seed %" PRIu64,
			 off, lo, seed);
	else if (hi == UINT64_MAX)
		snprintf(m->expected, sizeof(m->expected),
			 "offset %" PRIu64 " generation %" PRIu64 " (durable) or a later one, of seed %" PRIu64,
			 off, lo, seed);
	else
		snprintf(m->expected, sizeof(m->expected),
			 "offset %" PRIu64 " generation %" PRIu64 " (durable) to %" PRIu64 " of seed %" PRIu64,
			 off, lo, hi, seed);
}

#define SET(m, cls_, ...) do {						\
	if (m) {							\
		(m)->offset = off;					\
		(m)->cls = (cls_);					\
		expected_text((m), off, seed, lo, hi);			\
		snprintf((m)->found, sizeof((m)->found), __VA_ARGS__);	\
	}								\
	return (cls_);							\
} while (0)

/* A payload that fails its checksum: where the first byte differs from
 * what generation h->gen carries. */
static int payload_mismatch(const unsigned char *p, size_t bs, uint64_t off,
			    uint64_t seed, uint64_t lo, uint64_t hi,
			    const struct verify_hdr *got,
			    const struct verify_hdr *h,
			    struct verify_mismatch *m)
{
	const struct digest *d = digest_of((int)h->algo);
	size_t at = verify_payload_at((int)h->algo);
	unsigned char *want = malloc(bs);
	size_t i, n = 0, first = bs;
	char sum[40], stored[40];

	if (h->algo == VERIFY_CRC32C) {
		snprintf(sum, sizeof(sum), "0x%08x", got->payload_crc);
		snprintf(stored, sizeof(stored), "0x%08x", h->payload_crc);
	} else {
		digest_hex(d, got->digest, sum, sizeof(sum));
		digest_hex(d, h->digest, stored, sizeof(stored));
	}
	if (want) {
		payload_fill(want + at, bs - at, off, seed, h->gen);
		for (i = at; i < bs; i++) {
			if (want[i] == p[i])
				continue;
			if (first == bs)
				first = i;
			n++;
		}
	}
	if (want && first < bs) {
		unsigned char w = want[first];

		free(want);
		SET(m, VC_CORRUPT,
		    "payload %s %s, not the header's %s: %zu byte%s differ%s, the first at byte %zu of the block (offset %" PRIu64 "): 0x%02x where 0x%02x was written",
		    d->name, sum, stored, n, n == 1 ? "" : "s",
		    n == 1 ? "s" : "", first, off + first, p[first], w);
	}
	free(want);
	SET(m, VC_CORRUPT, "payload %s %s, not the header's %s", d->name, sum,
	    stored);
}

int verify_check(const void *blk, size_t bs, int algo, uint64_t off,
		 uint64_t seed, uint64_t gen, struct verify_mismatch *m)
{
	return verify_check_range(blk, bs, algo, off, seed, gen, gen, m);
}

int verify_check_range(const void *blk, size_t bs, int algo, uint64_t off,
		       uint64_t seed, uint64_t lo, uint64_t hi,
		       struct verify_mismatch *m)
{
	const unsigned char *p = blk;
	struct verify_hdr h, got;
	int ret;

	ret = verify_hdr_decode(p, &h);
	/* zeroes only where no magic is (a block of ours is never zero) */
	if (ret == -1 && all_zero(p, bs))
		SET(m, VC_UNWRITTEN, "all %zu bytes zero: never written", bs);
	if (ret == -1)
		SET(m, VC_CORRUPT, "no block header: magic 0x%016" PRIx64 ", not RBVERIFY (0x%016llx)",
		    h.magic, (unsigned long long)VERIFY_MAGIC);
	if (ret == -2)
		SET(m, VC_CORRUPT, "block header fails its crc32c: 0x%08x stored, 0x%08x computed (header: offset %" PRIu64 " generation %" PRIu64 ")",
		    h.hdr_crc, hdr_sum(p, verify_payload_at((int)h.algo) - VERIFY_HDR_SIZE),
		    h.offset, h.gen);
	if (ret == -3)
		SET(m, VC_CORRUPT, "a header of checksum algorithm %" PRIu32 ", which rebench does not know (offset %" PRIu64 " generation %" PRIu64 ")",
		    h.algo, h.offset, h.gen);
	if (h.offset != off)
		SET(m, VC_MISDIRECTED, "the block written for offset %" PRIu64 " (generation %" PRIu64 " of seed %" PRIu64 "): a misdirected write",
		    h.offset, h.gen, h.seed);
	if (h.seed != seed)
		SET(m, VC_LOST, "a block of another run, seed %" PRIu64 " generation %" PRIu64 ": this run's write was lost",
		    h.seed, h.gen);
	if (h.bs != bs)
		SET(m, VC_CORRUPT, "a header of block size %" PRIu32 ", not %zu",
		    h.bs, bs);
	if (h.gen < lo)
		SET(m, VC_LOST, "generation %" PRIu64 ", an older write: generation %" PRIu64 " was lost",
		    h.gen, lo);
	if (h.gen > hi)
		SET(m, VC_CORRUPT, "generation %" PRIu64 ", newer than any written (%" PRIu64 ")",
		    h.gen, hi);
	if ((int)h.algo != algo)
		SET(m, VC_CORRUPT, "a header of the %s checksum, not the %s this run writes",
		    digest_of((int)h.algo)->name, digest_of(algo)->name);
	memset(&got, 0, sizeof(got));
	payload_sum(p, bs, algo, &got);
	if (algo == VERIFY_CRC32C ? got.payload_crc != h.payload_crc :
	    memcmp(got.digest, h.digest, digest_of(algo)->size) != 0)
		return payload_mismatch(p, bs, off, seed, lo, hi, &got, &h, m);
	return VC_OK;
}

int verify_check_block(const struct verify_run *v, const void *blk,
		       uint64_t off, uint64_t b, struct verify_mismatch *m)
{
	uint64_t hi = v->gen[b];

	if (!v->durable)
		return verify_check(blk, v->bs, v->res.algo, off, v->seed, hi,
				    m);
	return verify_check_range(blk, v->bs, v->res.algo, off, v->seed,
				  v->durable[b],
				  v->gen_known ? hi : UINT64_MAX, m);
}

int verify_note(struct verify_run *v, int cls, const struct verify_mismatch *m)
{
	v->res.checked++;
	v->res.count[cls]++;
	if (cls != VC_OK && !v->res.have_first && m) {
		v->res.first = *m;
		v->res.have_first = true;
	}
	return cls;
}

void verify_spec_adapt(struct spec *s)
{
	if (!s->verify || !s->verify_only)
		return;
	s->op = OP_READ;
	memset(&s->opmix, 0, sizeof(s->opmix));
	s->seq = 1;
	s->direction = DIR_FORWARD;
	s->duration.kind = AMOUNT_PERCENT;
	s->duration.pct = 100;
	s->duration.value = 0;
}

#define STATE_MAGIC "rebench-verify-state 1"
#define STATE_LIMIT { .bytes = 1ULL << 36, .line = 256, .stream = false }

/* The state file's first two lines against the workload: 0, or -EINVAL
 * after a message (*n: the lines read). */
static int state_head(const struct spec *s, FILE *f, int *n)
{
	unsigned long long seed, bs, start, blocks;
	uint64_t nblocks = s->region_len / s->bs;
	char line[300], algo[16] = "crc32c";
	const struct digest *d;

	*n = 0;
	if (!fgets(line, sizeof(line), f) || strncmp(line, STATE_MAGIC, strlen(STATE_MAGIC)))
		goto bad;
	*n = 1;
	/* " algorithm NAME" since xxh64 and sha256: crc32c without it */
	if (!fgets(line, sizeof(line), f) ||
	    sscanf(line, "seed %llu block-size %llu region-start %llu blocks %llu algorithm %15s",
		   &seed, &bs, &start, &blocks, algo) < 4)
		goto bad;
	*n = 2;
	d = digest_of(s->verify);
	if (d && strcmp(algo, d->name)) {
		spec_error(s, "--verify-state %s: saved by a run of --verify %s, not this one's %s: its blocks carry that checksum; give --verify %s",
			   s->verify_state, algo, d->name, algo);
		return -EINVAL;
	}
	if (bs != s->bs || start != s->region_start || blocks != nblocks) {
		spec_error(s, "--verify-state %s: saved by a run of -b %llu over %llu blocks from offset %llu, not this one's -b %llu, %llu blocks from %llu; give the writing run's -b, -j and -e",
			   s->verify_state, bs, blocks, start,
			   (unsigned long long)s->bs,
			   (unsigned long long)nblocks,
			   (unsigned long long)s->region_start);
		return -EINVAL;
	}
	if (seed != s->seed) {
		spec_error(s, "--verify-state %s: saved by a run of --seed %llu, not this one's %llu: its blocks carry that seed; give --seed %llu",
			   s->verify_state, seed, (unsigned long long)s->seed,
			   seed);
		return -EINVAL;
	}
	return 0;
bad:
	spec_error(s, "--verify-state %s: not a state file of rebench --verify (line %d is not what one holds); give the file a writing run with --verify-state saved",
		   s->verify_state, *n + 1);
	return -EINVAL;
}

/* Open the state file under the input rule: NULL with *ret 0 when a
 * writing run starts it, else NULL with *ret -errno after a message. */
static FILE *state_open(const struct spec *s, int *ret)
{
	struct infile_limit lim = STATE_LIMIT;
	char why[256];
	FILE *f;

	*ret = 0;
	f = infile_open(s->verify_state, &lim, why, sizeof(why));
	if (f || (errno == ENOENT && !s->verify_only))
		return f;
	*ret = errno ? -errno : -EINVAL;
	spec_error(s, "--verify-state %s: %s%s", s->verify_state, why,
		   s->verify_only ? " (--verify-only reads the file a writing run saved)" : "");
	return NULL;
}

int verify_spec_resolve(const struct spec *s)
{
	char why[256];
	FILE *f;
	int n, ret;

	if (!s->verify || !s->verify_state)
		return 0;
	f = state_open(s, &ret);
	if (ret)
		return -EINVAL;
	if (f) {
		ret = state_head(s, f, &n);
		fclose(f);
		if (ret)
			return -EINVAL;
	}
	if (!s->verify_only &&
	    outpath_check("--verify-state", s->verify_state, why, sizeof(why))) {
		spec_error(s, "%s", why);
		return -EINVAL;
	}
	return 0;
}

static int state_load(struct verify_run *v, const struct spec *s, FILE *f)
{
	unsigned long long off, gen, b;
	char line[300];
	int n = 0;

	if (state_head(s, f, &n))
		return -EINVAL;
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (sscanf(line, "%llu %llu", &off, &gen) != 2 || !gen ||
		    gen > UINT32_MAX ||
		    (b = verify_block(v, off)) == UINT64_MAX ||
		    (off - v->region_start) % v->bs)
			goto bad;
		v->gen[b] = (uint32_t)gen;
	}
	if (ferror(f))
		goto bad;
	return 0;
bad:
	spec_error(s, "--verify-state %s: not a state file of rebench --verify (line %d is not what one holds); give the file a writing run with --verify-state saved",
		   s->verify_state, n + 2);
	return -EINVAL;
}

/* --verify-only --verify-log: the log's generations, held against the
 * state file's when there is one (the log's can be no newer). */
static int durable_load(struct verify_run *v, const struct spec *s)
{
	size_t n = v->nblocks ? v->nblocks : 1;
	uint64_t b;
	int ret;

	v->durable = calloc(n, sizeof(*v->durable));
	if (!v->durable) {
		spec_error(s, "--verify-log: no memory for the map of %llu blocks (4 bytes each); verify a smaller region (-e) or larger blocks",
			   (unsigned long long)v->nblocks);
		return -ENOMEM;
	}
	ret = verify_log_load(s, v->durable, v->nblocks, &v->res.log);
	if (ret)
		return ret;
	if (!s->verify_state) {
		/* written at least: what the log says became durable */
		memcpy(v->gen, v->durable, n * sizeof(*v->gen));
		return 0;
	}
	for (b = 0; b < v->nblocks; b++) {
		if (v->durable[b] <= v->gen[b])
			continue;
		spec_error(s, "--verify-log %s names generation %u of offset %llu, but --verify-state %s says the last write there was %s%.0u: they are not of one run; give the state file of the run that wrote the log, or leave --verify-state out",
			   s->verify_log, v->durable[b],
			   (unsigned long long)(v->region_start + b * v->bs),
			   s->verify_state,
			   v->gen[b] ? "generation " : "none", v->gen[b]);
		return -EINVAL;
	}
	return 0;
}

int verify_prepare(struct verify_run *v, const struct spec *s)
{
	FILE *f;
	int ret;

	memset(v, 0, sizeof(*v));
	if (!s->verify)
		return 0;
	v->res.on = true;
	v->res.algo = s->verify;
	v->res.mode = s->verify_mode;
	v->res.only = s->verify_only;
	v->region_start = s->region_start;
	v->bs = s->bs;
	v->seed = s->seed;
	v->nblocks = s->region_len / s->bs;
	v->gen = calloc(v->nblocks ? v->nblocks : 1, sizeof(*v->gen));
	if (!v->gen) {
		spec_error(s, "--verify: no memory for the map of %llu blocks (4 bytes each); verify a smaller region (-e) or larger blocks",
			   (unsigned long long)v->nblocks);
		return -ENOMEM;
	}
	v->gen_known = !s->verify_only || s->verify_state;
	if (s->verify_state) {
		f = state_open(s, &ret);
		if (ret)
			return ret;
		if (f) {	/* else the first run, which starts the file */
			ret = state_load(v, s, f);
			fclose(f);
			if (ret)
				return ret;
		}
	}
	if (!s->verify_log)
		return 0;
	if (!s->verify_only)
		return verify_log_open(&v->log, s, v->gen, v->nblocks,
				       &v->res.log);
	return durable_load(v, s);
}

void verify_free(struct verify_run *v)
{
	verify_log_close(v->log);	/* a run that never ran */
	v->log = NULL;
	free(v->gen);
	free(v->durable);
	v->gen = v->durable = NULL;
}

int verify_save(struct verify_run *v, const char *path)
{
	FILE *f = outpath_open("--verify-state", path);
	uint64_t b;

	if (!f) {
		snprintf(v->res.state_err, sizeof(v->res.state_err),
			 "the state file %.200s could not be opened", path);
		return -EIO;
	}
	fprintf(f, STATE_MAGIC "\nseed %llu block-size %llu region-start %llu blocks %llu algorithm %s\n",
		(unsigned long long)v->seed, (unsigned long long)v->bs,
		(unsigned long long)v->region_start,
		(unsigned long long)v->nblocks, digest_of(v->res.algo)->name);
	for (b = 0; b < v->nblocks; b++)
		if (v->gen[b])
			fprintf(f, "%llu %u\n",
				(unsigned long long)(v->region_start + b * v->bs),
				v->gen[b]);
	if (outpath_close("--verify-state", path, f)) {
		snprintf(v->res.state_err, sizeof(v->res.state_err),
			 "the state file %.200s could not be written", path);
		return -EIO;
	}
	return 0;
}

void verify_summary(const struct verify_result *r, char *buf, size_t len)
{
	const uint64_t *c = r->count;

	snprintf(buf, len, "%llu blocks checked: %llu ok, %llu corrupt, %llu misdirected, %llu lost, %llu unwritten",
		 (unsigned long long)r->checked, (unsigned long long)c[VC_OK],
		 (unsigned long long)c[VC_CORRUPT],
		 (unsigned long long)c[VC_MISDIRECTED],
		 (unsigned long long)c[VC_LOST],
		 (unsigned long long)c[VC_UNWRITTEN]);
}
