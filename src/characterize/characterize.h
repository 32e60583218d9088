/* characterize.h - rebench --characterize TARGET: measure what a drive
 * does not say (the unit it reads in, how many I/Os it serves at once),
 * hold it against what it reports, and turn it into a layout.
 *
 * Each test measures, says what it measured and concludes only where the
 * noise allows: every figure has a 95% interval and a basis (what was
 * measured, or why nothing was concluded).  Reads only unless --write;
 * the target is opened read-only for the read tests, as for any read
 * workload.
 *
 *   characterize_run.c   the checks, the order of the tests, the first
 *                        two (boundary crossing, queue depth)
 *   characterize_measure.c one run of a test, medians, the time budget
 *   characterize_cache.c the read cache (working sets)
 *   characterize_disk.c  rotation, seeks and zones
 *   characterize_flush.c --write: flush honesty
 *   characterize_erase.c --write: the erase block
 *   characterize_plot.c  --plot: the one-page report
 *   characterize_judge.c what the measurements mean: the unit, the
 *                        parallelism, the device's report
 *   characterize_advice.c the layout that follows
 *   characterize_out.c   human text and JSON
 */
#ifndef REBENCH_CHARACTERIZE_H
#define REBENCH_CHARACTERIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/plan.h"
#include "core/spec.h"
#include "core/sweep.h"
#include "target/target.h"

#define CHAR_MAX_BOUNDARY (64 * 1024)	/* largest boundary tested */
#define CHAR_BOUNDARIES 8	/* 1 KiB .. 64 KiB at 512 B sectors */
#define CHAR_MAX_QD 64
#define CHAR_QDS 7		/* 1, 2, 4 ... 64 */
#define CHAR_MATERIAL 1.10	/* a crossing costs more: > 10% slower */
#define CHAR_ROUNDS 3		/* rounds per boundary, inside then across ... */
#define CHAR_MAX_ROUNDS 6	/* ... and more while its verdict is open */
#define CHAR_ROUND_READS 200	/* reads a round each way, at most */
#define CHAR_ROUND_MIN 30	/* ... at least */
#define CHAR_ROUND_SECONDS 0.15	/* ... what a round each way may take */
#define CHAR_QD_SECONDS 2	/* run per queue depth, at most ... */
#define CHAR_QD_PRECISION 2	/* ... stopping once ops/s are known to +-2% */
#define CHAR_QD_STEP "25ms"	/* in intervals of (--precision judges from 20) */
#define CHAR_MAX_ADVICE 9
#define CHAR_MAX_REPORTS 8
#define CHAR_CACHE_SETS 8	/* working sets 256 KiB x 4^k */
#define CHAR_CACHE_FIRST (256 * 1024)
#define CHAR_CACHE_MAX (256ULL << 20)	/* the largest set tried */
#define CHAR_CACHE_READS 400	/* random reads a set, measured ... */
#define CHAR_CACHE_MAX_READS 1600	/* ... and more while undecided */
#define CHAR_CACHE_GAP 3.0	/* a cache hit is 3x faster than a miss */
#define CHAR_SPIN_READS 60	/* one-sector reads, backward and forward */
#define CHAR_SPIN_STRIDE1 (8 * 1024)	/* the backward reads' strides */
#define CHAR_SPIN_STRIDE2 (32 * 1024)
#define CHAR_SEEK_READS 300	/* random reads across the target */
#define CHAR_SEEK_BAND_READS 150	/* ... and across its first 32 MiB */
#define CHAR_SEEK_BINS 16	/* distances 1 MiB x 2^k */
#define CHAR_SEEK_MIN_N 10	/* reads a distance needs for a median */
#define CHAR_SEEK_FIGURE_N 30	/* ... for seek_ms.min or max */
#define CHAR_ZONES 8
#define CHAR_FLUSH_WRITES 100	/* --write: writes, each way, in ... */
#define CHAR_FLUSH_ROUNDS 4	/* ... rounds of each, side by side */
#define CHAR_ERASE_SIZES 13	/* --write: writes of 16 KiB .. 64 MiB */

/* A figure concluded from the measurements: its value and 95% interval,
 * and the basis (what was measured, or why nothing was concluded). */
struct char_figure {
	bool known;
	double value, low, high;
	char basis[600];
};

enum char_verdict { CHAR_SAME, CHAR_MORE, CHAR_UNSURE, CHAR_LESS };

/* Reads straddling boundaries of `bytes` (odd multiples of it) against
 * reads inside one: median latencies and their ratio. */
struct char_boundary {
	uint64_t bytes;
	unsigned rounds;
	uint64_t reads;
	double p50_us, p50_lo_us, p50_hi_us;	/* the crossing reads' */
	double ratio, low, high;	/* crossing / inside, 95% */
	enum char_verdict verdict;
};

/* Random reads of one unit at one queue depth. */
struct char_qd {
	unsigned qd;
	bool known;		/* its ops/s has an interval */
	double iops, low, high;
	double p50_us, p50_lo_us, p50_hi_us;	/* median latency, 95% */
	double seconds;		/* how long it ran */
};

/* Random reads over a working set of `bytes`, again and again after one
 * pass: the share answered as fast as a cache answers. */
struct char_cacheset {
	uint64_t bytes, reads, fast;
	double share, low, high;	/* fast / reads, 95% (Wilson) */
	double p50_us;
};

/* Seeks of `lo` to `hi` bytes between consecutive random reads: the
 * median read and the seek it implies (less half a revolution). */
struct char_seek {
	uint64_t lo, hi, n;
	double p50_ms, p50_lo_ms, p50_hi_ms;
	double ms, low, high;	/* the seek, 95% */
};

struct char_zone {
	uint64_t offset;	/* in the target */
	double mb_per_s;	/* sequential reads there, 2^20 B/s */
};

/* A write rate, MiB/s, with its 95% interval when known. */
struct char_rate {
	bool known;
	double mbs, low, high;
};

/* Writes of `bytes`: sequential ones, then random ones once the drive is
 * full; the cost of random over sequential. */
struct char_erase {
	uint64_t bytes;
	struct char_rate seq, rnd;
	bool measured;		/* the random writes ran */
	double ratio, low, high;	/* seq / rnd MiB/s, 95% */
	enum char_verdict verdict;
};

struct char_advice {
	const char *setting;	/* "partition start", "zfs ashift" ... */
	char value[96];
	char reason[400];
};

struct characterize_result {
	struct target tgt;
	uint64_t disk_offset;	/* where the target starts on its drive */
	char engine[16];	/* the queue-depth test's engine */
	/* 1. the unit: reads of read_bytes inside a unit, then across */
	uint64_t read_bytes;
	uint64_t round_reads;	/* reads a round, each way */
	uint64_t inside_reads;
	double inside_p50_us, inside_lo_us, inside_hi_us;
	struct char_boundary b[CHAR_BOUNDARIES];
	size_t nb;
	struct char_figure page;
	/* 3. parallelism */
	uint64_t qd_bytes;	/* the queue-depth test's block size */
	struct char_qd q[CHAR_QDS];
	size_t nq;
	unsigned knee_qd;	/* 0: not found */
	struct char_figure parallelism;
	/* 4. read cache: working sets of growing size */
	struct char_cacheset cs[CHAR_CACHE_SETS];
	size_t ncs;
	double hit_below_us;	/* a read faster than this was a hit */
	struct char_figure read_cache;
	/* 5. flush honesty (--write): writes alone, writes then a flush */
	bool wrote;
	uint64_t flush_bytes;
	double write_p50_us, write_lo_us, write_hi_us;
	double flush_p50_us, flush_lo_us, flush_hi_us;
	uint64_t flushes;
	double bound_us;	/* what the media needs at least */
	char bound_basis[160];
	struct char_figure flush_honest;
	/* 6. rotation: one-sector reads backward (a revolution each) and
	 * forward; seeks by distance; sequential bandwidth by position */
	bool spins;
	double back_p50_us, back_lo_us, back_hi_us, back_spread;
	double back2_p50_us, back2_lo_us, back2_hi_us;	/* the longer stride */
	double fwd_p50_us;
	double rev_us, rev_lo_us, rev_hi_us;	/* one revolution, 95% */
	struct char_figure rpm, seek_min, seek_max;
	struct char_seek sk[CHAR_SEEK_BINS];
	size_t nsk;
	struct char_zone z[CHAR_ZONES];
	size_t nz;
	/* 2. the erase block (--write): sizes largest first */
	struct char_erase es[CHAR_ERASE_SIZES];
	size_t nes;
	unsigned erase_qd;
	bool erase_trim;	/* the target was trimmed first */
	bool preconditioned;	/* the target was written whole */
	double pre_mbs;		/* ... at this speed, its first 16th */
	double erase_passes;	/* the target's size written, in all */
	struct char_figure erase_block;
	/* 7. the device's report against the measurements */
	char reports[CHAR_MAX_REPORTS][400];
	size_t nreports;
	struct char_advice adv[CHAR_MAX_ADVICE];
	size_t nadv;
	bool interrupted;
};

/* The whole --characterize run after the command line was parsed; the
 * exit status. */
int characterize_main(struct run_ctx *ctx, struct spec *base,
		      struct run_opts *run, struct sweep *sw);

/* --write without --characterize: 0, or -EINVAL after a message */
int characterize_check_unused(const struct run_opts *run);

/* characterize_judge.c */
void char_judge_boundaries(struct characterize_result *r);
void char_judge_parallelism(struct characterize_result *r);
void char_judge_report(struct characterize_result *r);
void char_advise(struct characterize_result *r);
/* The ratio's verdict from its interval, against CHAR_MATERIAL. */
enum char_verdict char_verdict_of(double low, double high);

/* the tests after the first two, each with its judgement; EXIT_OK or a
 * run's exit status (an interruption ends them) */
struct char_ctx;
int char_test_cache(struct char_ctx *c);
void char_judge_cache(struct characterize_result *r);
int char_test_spin(struct char_ctx *c);
void char_judge_spin(struct characterize_result *r);
/* The seek of bin s: its median less half a revolution, with the 95%
 * interval (ms). */
void char_seek_of(const struct characterize_result *r,
		  const struct char_seek *s, double *ms, double *lo, double *hi);
int char_confirm_writes(struct char_ctx *c);
int char_test_flush(struct char_ctx *c);
void char_judge_flush(struct characterize_result *r);
int char_test_erase(struct char_ctx *c);
void char_judge_erase(struct characterize_result *r);

/* characterize_plot.c: the tests' points into keep (--output), and with
 * path (--plot) drawn; 0 or -errno after a message */
int char_write_data(const struct characterize_result *r, const char *keep);
int char_plot(const struct characterize_result *r, const char *path,
	      const char *keep);

/* characterize_out.c */
void char_print_human(FILE *f, const struct characterize_result *r);
void char_print_json(FILE *f, const struct characterize_result *r);

#endif
