/* characterize.h - rebench --characterize TARGET: measure what a drive
 * does not say (the unit it reads in, how many I/Os it serves at once),
 * hold it against what it reports, and turn it into a layout.
 *
 * Each test measures, says what it measured and concludes only where the
 * noise allows: every figure has a 95% interval and a basis (what was
 * measured, or why nothing was concluded).  Reads only; the target is
 * opened read-only, as for any read workload.
 *
 *   characterize_run.c   the tests (boundary crossing, queue depth)
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
#define CHAR_ROUNDS 3		/* rounds per boundary, inside then across */
#define CHAR_ROUND_READS 200	/* reads a round each way, at most */
#define CHAR_ROUND_MIN 30	/* ... at least */
#define CHAR_ROUND_SECONDS 0.15	/* ... what a round each way may take */
#define CHAR_QD_SECONDS 1	/* run per queue depth */
#define CHAR_MAX_ADVICE 8
#define CHAR_MAX_REPORTS 6

/* A figure concluded from the measurements: its value and 95% interval,
 * and the basis (what was measured, or why nothing was concluded). */
struct char_figure {
	bool known;
	double value, low, high;
	char basis[400];
};

enum char_verdict { CHAR_SAME, CHAR_MORE, CHAR_UNSURE, CHAR_LESS };

/* Reads straddling boundaries of `bytes` (odd multiples of it) against
 * reads inside one: median latencies and their ratio. */
struct char_boundary {
	uint64_t bytes;
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
	/* not measured by these read tests: their basis says so */
	struct char_figure erase_block, read_cache, flush_honest, rpm,
			   seek_min, seek_max;
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

/* characterize_judge.c */
void char_judge_boundaries(struct characterize_result *r);
void char_judge_parallelism(struct characterize_result *r);
void char_judge_report(struct characterize_result *r);
void char_advise(struct characterize_result *r);
/* The ratio's verdict from its interval, against CHAR_MATERIAL. */
enum char_verdict char_verdict_of(double low, double high);

/* characterize_out.c */
void char_print_human(FILE *f, const struct characterize_result *r);
void char_print_json(FILE *f, const struct characterize_result *r);

#endif
