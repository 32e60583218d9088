/* spec.h - one workload: what the user asked for, then what it resolved to
 * against its target.
 */
#ifndef REBENCH_SPEC_H
#define REBENCH_SPEC_H

#include <stdbool.h>
#include <stdint.h>

#include "core/delay.h"
#include "core/rate.h"
#include "engines/engine_opts.h"
#include "engines/iokind.h"
#include "gen/mix.h"
#include "core/syncpol.h"
#include "core/units.h"

enum io_dir { DIR_FORWARD, DIR_BACKWARD };
enum dist_kind {
	DIST_UNIFORM, DIST_NORMAL, DIST_POW, DIST_ZIPF, DIST_PARETO,
	DIST_ZONED, DIST_CONST, DIST_POWERLAW,
};
/* --verify and --verify-mode (core/verify.h) */
enum verify_algo { VERIFY_NONE, VERIFY_CRC32C, VERIFY_XXH64, VERIFY_SHA256 };
enum verify_mode { VERIFY_AFTER, VERIFY_INLINE };
/* --fadvise: the advice given for the region (readahead.h) */
enum fadvise_hint {
	FADVISE_NONE, FADVISE_NORMAL, FADVISE_SEQUENTIAL, FADVISE_RANDOM,
	FADVISE_NOREUSE,
};
#define READAHEAD_KEEP UINT64_MAX	/* --readahead not given */
/* spec.given's bit of the engines' k-th own option (engine_opt_get()):
 * from the top, clear of the option table's workload options. */
#define SPEC_ENGINE_OPT_BIT(k) (1ULL << (63 - (k)))
struct spec {
	char *target;
	unsigned line;		/* stdin line number; 0 = command line */
	const char *file;	/* the suite file the line is from (kept to
				 * the end); NULL: stdin */
	uint64_t given;		/* bit i: option i was written for this workload
				 * (its stdin line, or the command line in
				 * single mode); command-line defaults that a
				 * stdin line inherits do not count.  The
				 * engines' own options count down from bit
				 * 63 (SPEC_ENGINE_OPT_BIT) */
	uint64_t inherited;	/* bits of the command-line options a stdin
				 * line inherits (0 in single mode) */
	bool bs_is_sector;	/* -b not chosen, and the target's logical
				 * sector is above the 512-byte default */

	int op;			/* enum io_op */
	double rwmix;		/* % reads for rw */
	struct op_mix opmix;	/* -o as a mix; resolved: every op's shares */
	int seq;		/* 0 rnd, 1 seq (an enum value of -w) */
	int direction;		/* enum io_dir */
	uint64_t bs;		/* the size; with a mix, the largest */
	struct size_mix bsmix;	/* -b as a split or a range */
	uint64_t stride;	/* 0: same as bs */
	int dist;		/* enum dist_kind */
	char *dist_arg;		/* text after "name:" */
	double sigma;
	double center;		/* % of the region; < 0: the distribution's default */
	bool scatter;
	int engine;		/* index in the engine registry */
	uint64_t qd;
	uint64_t batch;		/* async: submit/reap this many at once */
	struct engine_opts eopts[ENGINE_MAX];	/* each engine's own options,
						 * by registry index */
	uint64_t threads;
	bool local_fd;
	struct amount duration;
	struct amount offset;
	struct amount length;
	bool paged;
	bool buffered;		/* -f: the policy none */
	struct sync_policy sync;	/* --sync */
	/* A fio spelling among its options (its line's or the command
	 * line's): fio's defaults for what none of them says
	 * (options_fio.h), and which ones came from there. */
	bool fio_spelled;
	bool fio_default_sync;	/* no --sync, -f or fio sync option */
	bool fio_default_direct;	/* no -p or --direct */
	bool atime;
	bool append;
	uint64_t sample_ns;
	uint64_t pause_ns;
	struct delay_set delay;	/* --delay: waited after each I/O (run.c) */
	struct rate_spec rate;	/* --rate: an open-loop schedule (rate.h);
				 * rate.ops and rate.bytes 0: none */
	int arrival;		/* --arrival: enum rate_arrival */
	char *output;
	uint64_t seed;
	int fadvise;		/* enum fadvise_hint; NONE: no call */
	uint64_t readahead_kb;	/* the disk's read_ahead_kb for the run, or
				 * READAHEAD_KEEP */
	uint64_t cache_bytes;	/* --cache: the run's memory cgroup limit
				 * (memcg.h), 0 none */
	int verify;		/* --verify: enum verify_algo (verify.h),
				 * 0 none */
	int verify_mode;	/* --verify-mode: enum verify_mode */
	bool verify_continue;	/* --verify-continue: count every mismatch */
	bool verify_only;	/* --verify-only: check, write nothing */
	char *verify_state;	/* --verify-state FILE, or NULL */
	char *verify_log;	/* --verify-log FILE, or NULL (verify_log.h) */
	/* Many files (core/fileset.h): --directory DIR (target is then DIR,
	 * target_is_dir set), --nrfiles, --filesize, --file-service; or a
	 * file list, files_len bytes of NUL-terminated paths (several TARGET
	 * words, or fio's --filename a:b:c), whose first is target.  NULL and
	 * 0: one target. */
	char *directory;
	bool target_is_dir;
	uint64_t nrfiles;	/* --nrfiles, 1 unless given */
	uint64_t filesize;	/* --filesize; 0: not given */
	char *file_service;	/* --file-service; NULL: roundrobin */
	char *files;
	size_t files_len;

	/* Resolved against the target by spec_resolve(). */
	uint64_t region_start;
	uint64_t region_len;
	uint64_t stride_eff;
	uint64_t slots;
	uint64_t time_limit_ns;	/* 0: not time-limited */
	uint64_t ops_limit;	/* 0: not limited by amount of data; with a
				 * size mix, the expected I/Os */
	uint64_t bytes_limit;	/* bytes of data I/O asked for, or 0 */
};

/* --advise: which advisor (advise.h) */
enum advise_kind { ADVISE_NONE, ADVISE_BTREE };
/* --plot-metric: what --plot draws and a sweep's matrix holds (plot.h) */
enum plot_metric {
	PLOT_METRIC_AUTO, PLOT_METRIC_OPS, PLOT_METRIC_MBS, PLOT_METRIC_P50,
	PLOT_METRIC_P99,
};
#define REPEAT_MAX 1000		/* --repeat's most runs (repeat.h) */

/* Whole-run options; only valid on the command line. */
struct run_opts {
	bool silent;
	bool json;
	bool yes;
	bool drop_caches;
	bool help;
	bool version;
	bool engines;
	bool probe;		/* --probe: report geometry and alignment only */
	bool fio;		/* --fio: print the fio job file only */
	uint64_t warmup_ns;	/* --warmup: unmeasured time before the run */
	uint64_t repeat;	/* --repeat: runs of the same workloads */
	char *plot;		/* --plot FILE.png|svg|pdf|jpg */
	int plot_metric;	/* --plot-metric: enum plot_metric */
	int units;		/* --units: enum units_mode (units.h) */
	char *suite;		/* --suite NAME|FILE, or "list" */
	double precision_pct;	/* --precision: 95% half-width of ops/s, in %
				 * of the mean (precision.h); 0 none */
	uint64_t max_duration_ns;	/* --max-duration: --precision's limit */
	char *latency_target;	/* --latency-target pNN<BOUND
				 * (study/latency_target.h), NULL none */
	char *order;		/* --order: a sweep's order of points
				 * (sweep_order.h), NULL: as given */
	bool precondition;	/* --precondition (precondition.h) */
	bool steady_state;	/* --steady-state (steady.h) */
	uint64_t round_ns;	/* --round */
	uint64_t max_rounds;	/* --max-rounds */
	int advise;		/* --advise: enum advise_kind */
	bool characterize;	/* --characterize (characterize.h) */
	bool char_write;	/* --write: --characterize's write tests */
	uint64_t rows;		/* --rows */
	uint64_t key_size;	/* --key-size */
	double fill_pct;	/* --fill, 0 when not given (100) */
	uint64_t value_size;	/* --value-size, 0 none */
	char *from;		/* --from TABLE: no I/O */
	bool dry_run;		/* --dry-run: check, print, run nothing */
	char *start_at;		/* --start-at T (seconds since the epoch) */
	uint64_t stop_on_eof;	/* --stop-on-eof FD */
	uint64_t ready_fd;	/* --ready-fd FD (stats/ready.h) */
	char *hosts;		/* --hosts h1,h2 */
	char *hosts_file;	/* --hosts-file FILE */
	char *ssh;		/* --ssh CMD */
	char *remote_rebench;	/* --remote-rebench PATH */
	double outlier_pct;	/* --outlier PCT, 0 when not given (20) */
	uint64_t max_offset_ns;	/* --max-offset D */
	bool quiet_stdout;	/* not an option: a driver that reports on
				 * its own (--advise) runs a sweep whose
				 * points print nothing on stdout */
	uint64_t given[2];	/* bit i: option i of the table was given
				 * (run_given()) */
};

void spec_defaults(struct spec *s);
/* "rebench: stdin line N: <message>" on stderr (a suite line: "FILE line
 * N: ..."). */
void spec_error(const struct spec *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Deep copy: a stdin line starts from the command-line defaults. */
int spec_copy(struct spec *dst, const struct spec *src);
void spec_free(struct spec *s);
/* The workload's target, a copy of target: 0 or -ENOMEM. */
int spec_set_target(struct spec *s, const char *target);
/* The strings a parse gave the run options (--plot, --suite ...). */
void run_opts_free(struct run_opts *r);
/* The operation kinds the workload issues (a bit per enum io_kind),
 * with the flushes of its --sync policy. */
unsigned spec_kinds(const struct spec *s);
#define SPEC_DOES(s, kind) ((spec_kinds(s) >> (kind)) & 1U)
/* The write sync policy in effect: --sync, or none with -f. */
struct sync_policy spec_sync(const struct spec *s);
/* Does it write or trim? */
bool spec_is_destructive(const struct spec *s);
/* Does it both read and write?  Then its writes get buffers of their own
 * (prepare.c), so a read never becomes the next write's data. */
#define SPEC_READS_AND_WRITES(s) (SPEC_DOES(s, IO_READ) && SPEC_DOES(s, IO_WRITE))

#endif
