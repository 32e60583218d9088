/* verify_log.h - --verify-log FILE: the writes a --verify run was told are
 * durable, and a later --verify-only that checks each survived (the test
 * of diskchecker.pl: write, pull the plug, check).
 *
 * A writing run appends a record to FILE as each write becomes durable by
 * its --sync policy, after the acknowledgement and never before: a write
 * of dsync, sync or rwf-dsync when it returns, the writes before a flush
 * (fsync:N, fdatasync:N, end, an fsync or fdatasync of the mix) when the
 * flush returns.  A crash of the host can only lose records from FILE's
 * end (claims), never add one.  Without such a policy nothing is ever
 * durable, and --verify-log is refused.
 *
 * FILE is text:
 *   rebench-verify-log 1
 *   seed S block-size B region-start R blocks N algorithm A sync P
 *   target PATH
 * then one record a line, "OFFSET GENERATION": the block of B bytes at
 * OFFSET, written with seed S, carried generation GENERATION (1 for its
 * first write) when it became durable.  A block written again has a record
 * per durable generation; the highest counts.  A last line without its
 * newline (a record torn by a crash) is left out and said.
 *
 * --verify-only --verify-log FILE checks each block FILE names against
 * the highest generation it names: an older one found is lost, zeroes
 * unwritten, and so on (verify.h); a newer one is fine (a later write,
 * acknowledged but not yet durable, that landed), unless --verify-state
 * says no such write was made.
 */
#ifndef REBENCH_VERIFY_LOG_H
#define REBENCH_VERIFY_LOG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct spec;
struct target;

#define VERIFY_LOG_MAGIC "rebench-verify-log 1"

/* The header: what the log is of. */
struct verify_log_head {
	uint64_t seed, bs, region_start, blocks;
	char algo[16];
	char sync[32];
	char target[PATH_MAX];
};

/* What the log of a workload holds (verify_result.log). */
struct verify_log_result {
	bool on;		/* --verify-log was given */
	bool read;		/* --verify-only read it; else this run wrote it */
	const char *path;	/* the spec's */
	char sync[32];		/* the policy that made the writes durable */
	bool per_write;		/* writing: each durable when it returned */
	uint64_t records;	/* records written (read) */
	uint64_t durable_blocks;	/* distinct blocks among them */
	uint64_t not_durable;	/* writing: writes acknowledged after the
				 * last durable point, so not in the log */
	bool torn;		/* read: a last line without its newline
				 * was left out */
	uint64_t survived, lost;	/* read: blocks the log names that were
				 * checked and ok, and not */
	int err;		/* writing: errno of the first failed write of
				 * the log (logging stopped), or 0 */
};

/* --verify-log against the workload alone (spec_check): the option's
 * companions and the sync policy.  0 or -EINVAL after a message. */
int verify_log_check(const struct spec *s);
/* Against the probed target, before any I/O (spec_resolve): a writing
 * run's FILE under the rule of every output path (outpath.h) and on
 * another device than the target; --verify-only's FILE readable and of
 * this target and workload.  0 or -EINVAL after a message. */
int verify_log_resolve(const struct spec *s, const struct target *t);
/* Two workloads of one run writing one log: 0 or -EINVAL after a
 * message. */
int verify_log_check_pair(const struct spec *a, const struct spec *b);

/* The writer of a run (opaque). */
struct verify_log;

/* Open the log of spec s for writing (truncating it) and write its
 * header; gen is the run's map (nblocks generations from s's region), r
 * the result it keeps up to date.  0, or -errno after a message. */
int verify_log_open(struct verify_log **lp, const struct spec *s,
		    const uint32_t *gen, uint64_t nblocks,
		    struct verify_log_result *r);
/* As verify_log_open(), with the header given: for the unit tests. */
int verify_log_open_head(struct verify_log **lp, const char *path,
			 const struct verify_log_head *h, bool per_write,
			 const uint32_t *gen, struct verify_log_result *r);
/* The write of block b returned: logged now when each write is durable
 * on return, else kept until the next flush. */
void verify_log_acked(struct verify_log *l, uint64_t b);
/* A flush (fsync, fdatasync) returned: every write kept is durable now. */
void verify_log_flushed(struct verify_log *l);
/* The run is over: the log synced to its device and closed, the writer
 * freed; r->err set when something failed.  NULL is fine. */
void verify_log_close(struct verify_log *l);

/* --verify-only: the log's records into durable[] (the highest
 * generation of each block, 0 for a block it does not name), r filled.
 * 0, or -errno after a message. */
int verify_log_load(const struct spec *s, uint32_t *durable,
		    uint64_t nblocks, struct verify_log_result *r);

/* The parser, apart for the unit tests: the header's three lines (0, or
 * -EINVAL with *line the first that is not what a header holds); one
 * record without its newline (0, or -EINVAL); the records after the
 * header into durable[], r's records, durable_blocks and torn counted
 * (0, or -EINVAL with *line the first bad line and why in words, or
 * -errno of a read that failed). */
int verify_log_read_head(FILE *f, struct verify_log_head *h, int *line);
int verify_log_parse_record(const char *text, uint64_t *off, uint64_t *gen);
int verify_log_read_records(FILE *f, const struct verify_log_head *h,
			    uint32_t *durable, struct verify_log_result *r,
			    uint64_t *line, char *why, size_t len);

#endif
