/* verify_log.c - --verify-log: the durable writes' log, written as they
 * become durable and read back by --verify-only (verify_log.h). */
#include "core/verify_log.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/digest.h"
#include "core/infile.h"
#include "core/outpath.h"
#include "core/spec.h"
#include "core/syncpol.h"
#include "engines/iokind.h"
#include "target/sysfs.h"
#include "target/target.h"

/* Read under the input rule: lines as long as a header's target, and a
 * log of a long run (a record is about 20 bytes). */
#define LOG_LIMIT { .bytes = 1ULL << 40, .line = PATH_MAX + 64, .stream = false }
#define PEND_MAX 65536	/* kept writes listed; past that, the bitmap walked */
#define BUF_SIZE 65536	/* records per write(2) at a flush: ~3000 */

/* ------------------------------------------------------------ the checks */

/* Does the policy make writes durable, and each when it returns? */
static bool durable_points(const struct spec *s, bool *per_write)
{
	struct sync_policy p = spec_sync(s);

	*per_write = sync_policy_per_write(&p) || p.mode == SYNC_RWF_DSYNC;
	return *per_write ||
	       (spec_kinds(s) & (1U << IO_FSYNC | 1U << IO_FDATASYNC));
}

int verify_log_check(const struct spec *s)
{
	struct sync_policy p = spec_sync(s);
	bool per_write;
	char pol[32];

	if (!s->verify || !s->verify_log || s->verify_only ||
	    durable_points(s, &per_write))
		return 0;
	sync_policy_format(&p, pol, sizeof(pol));
	if (p.mode == SYNC_SFR)
		spec_error(s, "--verify-log with --sync %s: sync_file_range writes the range back but flushes no cache, so no write is ever known to be durable and the log would name none; use --sync fdatasync:%u (a flush after as many writes) or --sync dsync",
			   pol, p.every);
	else
		spec_error(s, "--verify-log with --sync %s%s: without a sync policy no write is ever known to be durable (the device may keep it in its cache), so the log would name none; give --sync dsync (each write durable when it returns), or fdatasync:N or fsync:N (the writes before each flush durable when it returns)",
			   pol, s->buffered ? " (-f)" : "");
	return -EINVAL;
}

/* The file system the log is (or will be) on: its device number. */
static bool log_dev(const char *path, dev_t *dev)
{
	char dir[PATH_MAX];
	struct stat st;

	if (!stat(path, &st)) {
		*dev = st.st_dev;
		return true;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	if (stat(dirname(dir), &st))
		return false;
	*dev = st.st_dev;
	return true;
}

#define ELSEWHERE "put the log on another device (another disk, or a file system over the network), as diskchecker.pl keeps its on another machine"

static int check_write_path(const struct spec *s, const struct target *t)
{
	const char *path = s->verify_log;
	char why[PATH_MAX + 1200], disk[64], ddir[PATH_MAX];
	dev_t dev, tdev = t->kind == TARGET_FILE ? t->st_dev : t->rdev;

	if (outpath_same_file(path, s->target)) {
		spec_error(s, "--verify-log %s is the target of this workload: the log would be overwritten by what it logs; " ELSEWHERE,
			   path);
		return -EINVAL;
	}
	if (outpath_check("--verify-log", path, why, sizeof(why))) {
		spec_error(s, "%s", why);
		return -EINVAL;
	}
	if (s->verify_state && outpath_same_file(path, s->verify_state)) {
		spec_error(s, "--verify-log %s is also the --verify-state file: the log's records and the state's generations are two files; give each its own name",
			   path);
		return -EINVAL;
	}
	if (!log_dev(path, &dev))
		return 0;	/* outpath_check() proved the directory */
	if (dev == tdev) {
		spec_error(s, "--verify-log %s: on %s %s: a power cut that loses the target's writes takes the log's with it, and the log must outlive the target; " ELSEWHERE,
			   path, t->kind == TARGET_FILE ? "the file system of the target" : "a file system on the target",
			   s->target);
		return -EINVAL;
	}
	if (sysfs_disk_of(dev, ddir, disk, sizeof(disk)) && t->disk[0] &&
	    !strcmp(disk, t->disk)) {
		spec_error(s, "--verify-log %s: on a file system of /dev/%s, the disk under the target %s: a power cut of the disk loses the log's writes with the target's, and the log must outlive the target; " ELSEWHERE,
			   path, disk, s->target);
		return -EINVAL;
	}
	return 0;
}

/* The target as a header names it: its resolved path (of its directory,
 * for a file still to be created). */
static void target_name(const char *path, char *out, size_t len)
{
	char dir[PATH_MAX], base[PATH_MAX], real[PATH_MAX];

	if (realpath(path, real)) {
		snprintf(out, len, "%s", real);
		return;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	snprintf(base, sizeof(base), "%s", path);
	if (!realpath(dirname(dir), real) ||
	    snprintf(out, len, "%.*s/%s", PATH_MAX - 2,
		     strcmp(real, "/") ? real : "", basename(base)) >= (int)len)
		snprintf(out, len, "%s", path);
}

/* The head of a log against the workload: 0, or -EINVAL after a
 * message. */
static int head_matches(const struct spec *s, const struct verify_log_head *h)
{
	const char *path = s->verify_log;
	const char *algo = digest_of(s->verify)->name;
	uint64_t blocks = s->region_len / s->bs;
	char tname[PATH_MAX];

	target_name(s->target, tname, sizeof(tname));
	if (strcmp(h->target, tname)) {
		spec_error(s, "--verify-log %s: the log of %s, not of this run's target %s: its records name blocks of that target; give %s as the target (or the log a run wrote on %s)",
			   path, h->target, tname, h->target, tname);
		return -EINVAL;
	}
	if (strcmp(h->algo, algo)) {
		spec_error(s, "--verify-log %s: written by a run of --verify %s, not this one's %s: its blocks carry that checksum; give --verify %s",
			   path, h->algo, algo, h->algo);
		return -EINVAL;
	}
	if (h->bs != s->bs || h->region_start != s->region_start ||
	    h->blocks != blocks) {
		spec_error(s, "--verify-log %s: written by a run of -b %llu over %llu blocks from offset %llu, not this one's -b %llu, %llu blocks from %llu; give the writing run's -b, -j and -e",
			   path, (unsigned long long)h->bs,
			   (unsigned long long)h->blocks,
			   (unsigned long long)h->region_start,
			   (unsigned long long)s->bs, (unsigned long long)blocks,
			   (unsigned long long)s->region_start);
		return -EINVAL;
	}
	if (h->seed != s->seed) {
		spec_error(s, "--verify-log %s: written by a run of --seed %llu, not this one's %llu: its blocks carry that seed; give --seed %llu",
			   path, (unsigned long long)h->seed,
			   (unsigned long long)s->seed,
			   (unsigned long long)h->seed);
		return -EINVAL;
	}
	return 0;
}

#define NOT_A_LOG "not a log of rebench --verify-log (line %d is not what one holds); give the file a writing run with --verify-log wrote"

static FILE *open_read(const struct spec *s)
{
	struct infile_limit lim = LOG_LIMIT;
	char why[256];
	FILE *f = infile_open(s->verify_log, &lim, why, sizeof(why));

	if (!f)
		spec_error(s, "--verify-log %s: %s (--verify-only reads the log a writing run wrote)",
			   s->verify_log, why);
	return f;
}

/* The log of s read: its head against the workload, then its records
 * (into durable[], or only checked when durable is NULL), r filled.  0,
 * or -errno after a message. */
static int read_log(const struct spec *s, uint32_t *durable,
		    struct verify_log_result *r)
{
	struct verify_log_head *h = malloc(sizeof(*h));
	struct infile_limit lim = LOG_LIMIT;
	FILE *f = open_read(s);
	char why[256];
	uint64_t line;
	int n, ret = -EINVAL;

	if (!f || !h)
		goto out;
	if (verify_log_read_head(f, h, &n)) {
		spec_error(s, "--verify-log %s: " NOT_A_LOG, s->verify_log, n);
		goto out;
	}
	if (head_matches(s, h))
		goto out;
	snprintf(r->sync, sizeof(r->sync), "%s", h->sync);
	ret = verify_log_read_records(f, h, durable, r, &line, why,
				      sizeof(why));
	if (ret == -EINVAL)
		spec_error(s, "--verify-log %s: line %llu: %s: not a log of rebench --verify-log; give the file a writing run with --verify-log wrote",
			   s->verify_log, (unsigned long long)line, why);
	else if (ret)
		spec_error(s, "--verify-log %s: cannot read it: %s",
			   s->verify_log, infile_strerror(-ret, &lim, why, sizeof(why)));
out:
	if (f)
		fclose(f);
	free(h);
	return ret;
}

/* --verify-only: the whole log checked before any I/O, so that a bad one
 * is refused as bad input (the map is read in verify_log_load()). */
static int check_read(const struct spec *s)
{
	struct verify_log_result r;

	memset(&r, 0, sizeof(r));
	return read_log(s, NULL, &r) ? -EINVAL : 0;
}

int verify_log_resolve(const struct spec *s, const struct target *t)
{
	if (!s->verify || !s->verify_log)
		return 0;
	if (s->verify_only)
		return check_read(s);
	return check_write_path(s, t);
}

int verify_log_check_pair(const struct spec *a, const struct spec *b)
{
	if (!a->verify || !b->verify || !a->verify_log || !b->verify_log ||
	    a->verify_only || b->verify_only ||
	    !outpath_same_file(a->verify_log, b->verify_log))
		return 0;
	spec_error(b, "--verify-log %s: another workload of this run logs to this file too, and each starts its log anew; give each workload (each stdin line) a log of its own",
		   b->verify_log);
	return -EINVAL;
}

/* ------------------------------------------------------------ the writer */

struct verify_log {
	FILE *f;		/* outpath_open()'s; written by write(2) */
	int fd;
	const char *path;
	bool per_write;
	bool dead;		/* a write failed: nothing more is logged */
	const uint32_t *gen;
	uint64_t region_start, bs, nblocks;
	uint64_t *pending;	/* bitmap: written since the last flush */
	uint64_t *seen;		/* bitmap: named by a record */
	uint64_t *list;		/* the pending blocks, up to PEND_MAX */
	size_t nlist;
	bool overflow;		/* more than PEND_MAX: walk the bitmap */
	uint64_t waiting;	/* writes acknowledged since the last flush */
	size_t used;		/* bytes in buf */
	uint64_t buf_records, buf_new;	/* in buf: records, new blocks */
	struct verify_log_result *r;
	char buf[BUF_SIZE];
};

static bool bit_get(const uint64_t *m, uint64_t b)
{
	return m[b / 64] >> (b % 64) & 1;
}

static void bit_set(uint64_t *m, uint64_t b)
{
	m[b / 64] |= 1ULL << (b % 64);
}

static void bit_clear(uint64_t *m, uint64_t b)
{
	m[b / 64] &= ~(1ULL << (b % 64));
}

/* The buffer to the log in one write(2) (more only when the kernel
 * takes part of it); counted once written. */
static void write_out(struct verify_log *l)
{
	size_t done = 0;
	ssize_t n;

	while (!l->dead && done < l->used) {
		n = write(l->fd, l->buf + done, l->used - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			l->r->err = n < 0 ? errno : EIO;
			l->dead = true;
			break;
		}
		done += (size_t)n;
	}
	if (!l->dead) {
		l->r->records += l->buf_records;
		l->r->durable_blocks += l->buf_new;
	}
	l->used = 0;
	l->buf_records = l->buf_new = 0;
}

/* Block b's record (its generation now) into the buffer. */
static void emit(struct verify_log *l, uint64_t b)
{
	int n;

	if (BUF_SIZE - l->used < 48)
		write_out(l);
	n = snprintf(l->buf + l->used, BUF_SIZE - l->used, "%llu %u\n",
		     (unsigned long long)(l->region_start + b * l->bs),
		     l->gen[b]);
	l->used += (size_t)n;
	l->buf_records++;
	if (!bit_get(l->seen, b)) {
		bit_set(l->seen, b);
		l->buf_new++;
	}
}

int verify_log_open_head(struct verify_log **lp, const char *path,
			 const struct verify_log_head *h, bool per_write,
			 const uint32_t *gen, struct verify_log_result *r)
{
	size_t words = (size_t)((h->blocks + 63) / 64) + 1;
	struct verify_log *l = calloc(1, sizeof(*l));

	*lp = NULL;
	if (!l)
		return -ENOMEM;
	l->seen = calloc(words, sizeof(*l->seen));
	if (!per_write) {
		l->pending = calloc(words, sizeof(*l->pending));
		l->list = malloc((h->blocks < PEND_MAX ? h->blocks + 1 : PEND_MAX) *
				 sizeof(*l->list));
	}
	if (!l->seen || (!per_write && (!l->pending || !l->list))) {
		fprintf(stderr, "rebench: --verify-log %s: no memory for the maps of %llu blocks (2 bits each); verify a smaller region (-e) or larger blocks\n",
			path, (unsigned long long)h->blocks);
		goto fail;
	}
	l->f = outpath_open("--verify-log", path);
	if (!l->f)
		goto fail;
	l->fd = fileno(l->f);
	l->path = path;
	l->per_write = per_write;
	l->gen = gen;
	l->region_start = h->region_start;
	l->bs = h->bs;
	l->nblocks = h->blocks;
	l->r = r;
	memset(r, 0, sizeof(*r));
	r->on = true;
	r->path = path;
	snprintf(r->sync, sizeof(r->sync), "%s", h->sync);
	r->per_write = per_write;
	l->used = (size_t)snprintf(l->buf, BUF_SIZE,
		VERIFY_LOG_MAGIC "\nseed %llu block-size %llu region-start %llu blocks %llu algorithm %s sync %s\ntarget %.*s\n",
		(unsigned long long)h->seed, (unsigned long long)h->bs,
		(unsigned long long)h->region_start,
		(unsigned long long)h->blocks, h->algo, h->sync,
		BUF_SIZE - 512, h->target);
	write_out(l);
	if (l->dead) {
		fprintf(stderr, "rebench: --verify-log %s: cannot write its header: %s\n",
			path, strerror(r->err));
		fclose(l->f);
		goto fail;
	}
	*lp = l;
	return 0;
fail:
	free(l->seen);
	free(l->pending);
	free(l->list);
	free(l);
	return -EIO;
}

int verify_log_open(struct verify_log **lp, const struct spec *s,
		    const uint32_t *gen, uint64_t nblocks,
		    struct verify_log_result *r)
{
	struct verify_log_head *h = calloc(1, sizeof(*h));
	struct sync_policy p = spec_sync(s);
	bool per_write;
	int ret;

	if (!h)
		return -ENOMEM;
	durable_points(s, &per_write);
	h->seed = s->seed;
	h->bs = s->bs;
	h->region_start = s->region_start;
	h->blocks = nblocks;
	snprintf(h->algo, sizeof(h->algo), "%s", digest_of(s->verify)->name);
	sync_policy_format(&p, h->sync, sizeof(h->sync));
	target_name(s->target, h->target, sizeof(h->target));
	ret = verify_log_open_head(lp, s->verify_log, h, per_write, gen, r);
	free(h);
	return ret;
}

void verify_log_acked(struct verify_log *l, uint64_t b)
{
	if (l->per_write) {
		emit(l, b);
		write_out(l);
		return;
	}
	l->waiting++;
	if (bit_get(l->pending, b))
		return;
	bit_set(l->pending, b);
	if (l->nlist < PEND_MAX)
		l->list[l->nlist++] = b;
	else
		l->overflow = true;
}

void verify_log_flushed(struct verify_log *l)
{
	uint64_t w, b;
	size_t i;

	if (l->per_write || !l->waiting)
		return;
	if (!l->overflow) {
		for (i = 0; i < l->nlist; i++) {
			emit(l, l->list[i]);
			bit_clear(l->pending, l->list[i]);
		}
	} else {
		/* in offset order, each pending block once */
		for (w = 0; w <= l->nblocks / 64; w++)
			while (l->pending[w]) {
				b = w * 64 + (uint64_t)__builtin_ctzll(l->pending[w]);
				emit(l, b);
				bit_clear(l->pending, b);
			}
	}
	write_out(l);
	l->nlist = 0;
	l->overflow = false;
	l->waiting = 0;
}

void verify_log_close(struct verify_log *l)
{
	if (!l)
		return;
	l->r->not_durable = l->waiting;
	/* the records onto the log's own device: a later crash of the host
	 * then loses none of them */
	if (!l->dead && fdatasync(l->fd) && errno != EINVAL)
		l->r->err = errno;
	if (fclose(l->f) && !l->r->err)
		l->r->err = errno;
	free(l->seen);
	free(l->pending);
	free(l->list);
	free(l);
}

/* ------------------------------------------------------------ the reader */

/* One line of f into buf without its newline: 1, 0 at the end, -1 for a
 * last line without one (left in buf), -errno of a failed read. */
static int get_line(FILE *f, char **buf, size_t *cap)
{
	ssize_t n = getline(buf, cap, f);

	if (n < 0)
		return ferror(f) ? -(errno ? errno : EIO) : 0;
	if (n == 0 || (*buf)[n - 1] != '\n')
		return -1;
	(*buf)[n - 1] = '\0';
	return 1;
}

int verify_log_read_head(FILE *f, struct verify_log_head *h, int *line)
{
	unsigned long long seed, bs, start, blocks;
	char *buf = NULL;
	size_t cap = 0;
	int n = -1, ret = -EINVAL;

	memset(h, 0, sizeof(*h));
	*line = 1;
	if (get_line(f, &buf, &cap) != 1 || strcmp(buf, VERIFY_LOG_MAGIC))
		goto out;
	*line = 2;
	if (get_line(f, &buf, &cap) != 1 ||
	    sscanf(buf, "seed %llu block-size %llu region-start %llu blocks %llu algorithm %15s sync %31s%n",
		   &seed, &bs, &start, &blocks, h->algo, h->sync, &n) != 6 ||
	    buf[n] || !bs || !blocks)
		goto out;
	*line = 3;
	if (get_line(f, &buf, &cap) != 1 || strncmp(buf, "target ", 7) ||
	    !buf[7] || strlen(buf + 7) >= sizeof(h->target))
		goto out;
	snprintf(h->target, sizeof(h->target), "%s", buf + 7);
	h->seed = seed;
	h->bs = bs;
	h->region_start = start;
	h->blocks = blocks;
	*line = 0;
	ret = 0;
out:
	free(buf);
	return ret;
}

/* A decimal number of at most 20 digits that fits 64 bits; *p past it. */
static bool parse_num(const char **p, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	*p = s;
	return true;
}

int verify_log_parse_record(const char *text, uint64_t *off, uint64_t *gen)
{
	const char *p = text;

	if (!parse_num(&p, off) || *p++ != ' ' || !parse_num(&p, gen) || *p)
		return -EINVAL;
	return 0;
}

int verify_log_read_records(FILE *f, const struct verify_log_head *h,
			    uint32_t *durable, struct verify_log_result *r,
			    uint64_t *line, char *why, size_t len)
{
	uint64_t off, gen, b;
	char *buf = NULL;
	size_t cap = 0;
	int got, ret = 0;

	r->records = r->durable_blocks = 0;
	r->torn = false;
	*line = 3;
	while ((got = get_line(f, &buf, &cap)) == 1) {
		++*line;
		if (verify_log_parse_record(buf, &off, &gen)) {
			snprintf(why, len, "not a record (OFFSET GENERATION)");
			ret = -EINVAL;
			break;
		}
		if (off < h->region_start || (off - h->region_start) % h->bs ||
		    (b = (off - h->region_start) / h->bs) >= h->blocks) {
			snprintf(why, len, "offset %llu is not a block of the header's region (-b %llu, %llu blocks from %llu)",
				 (unsigned long long)off, (unsigned long long)h->bs,
				 (unsigned long long)h->blocks,
				 (unsigned long long)h->region_start);
			ret = -EINVAL;
			break;
		}
		if (!gen || gen > UINT32_MAX) {
			snprintf(why, len, "generation %llu: a generation is 1 to %u",
				 (unsigned long long)gen, UINT32_MAX);
			ret = -EINVAL;
			break;
		}
		r->records++;
		if (!durable)
			continue;	/* checked only */
		if (!durable[b])
			r->durable_blocks++;
		if (gen > durable[b])
			durable[b] = (uint32_t)gen;
	}
	if (!ret && got == -1) {
		/* a last line without its newline: the record a crash tore */
		++*line;
		r->torn = true;
	} else if (!ret && got < 0) {
		snprintf(why, len, "%s", strerror(-got));
		ret = got;
	}
	free(buf);
	return ret;
}

int verify_log_load(const struct spec *s, uint32_t *durable,
		    uint64_t nblocks, struct verify_log_result *r)
{
	memset(r, 0, sizeof(r[0]));
	r->on = true;
	r->read = true;
	r->path = s->verify_log;
	if (nblocks != s->region_len / s->bs)
		return -EINVAL;
	return read_log(s, durable, r);
}
