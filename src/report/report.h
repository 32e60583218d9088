/* report.h - writers for results: classic human, terse (-n), JSON, the
 * --output TSV series, and the messages on standard error.  They only read
 * workloads; no I/O to targets.
 *
 * Output formats are a table of writers (report_writers[]), each a set of
 * hooks: begin once, report once per run (a single run, the last of its
 * --repeat runs, or each point of a sweep), end once.  Which of them run is
 * decided once, from the run options (report_open), and single runs,
 * repeats and sweeps drive them alike: a new format is one file defining
 * its struct report_writer and one entry in report_writers[].
 */
#ifndef REBENCH_REPORT_H
#define REBENCH_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "stats/precision.h"
#include "core/workload.h"

#define REBENCH_VERSION "0.1.0"
#define TERSE_VERSION 6	/* 2: fields 22-81, per operation kind;
				 * 3: field 82, passes;
				 * 4: fields 83-94, sync_file_range;
				 * 95, durability; 96-97, device reads;
				 * 5: 98-104, the ops/s interval and
				 * --precision; 105-112, --steady-state
				 * and --precondition; 113-117, CPU */
/* -n fields: 21, then a fixed block per operation kind of version 2, the
 * passes of a sequential workload, a block per kind added since (a new
 * kind is a new TERSE_VERSION; no field moves), the durability verdict,
 * the reads that reached the device, the ops/s interval and --precision,
 * --steady-state, the CPU used, then the --repeat fields when given. */
#define TERSE_OP_FIELDS 12
#define TERSE_FIELD_DEV_READS (21 + IO_KINDS * TERSE_OP_FIELDS + 3)
#define TERSE_FIELD_DEV_BYTES (TERSE_FIELD_DEV_READS + 1)
#define TERSE_FIELD_CI (TERSE_FIELD_DEV_BYTES + 1)	/* 98: low .. */
#define TERSE_CI_FIELDS 7
#define TERSE_FIELD_STEADY (TERSE_FIELD_CI + TERSE_CI_FIELDS)	/* 105 */
#define TERSE_STEADY_FIELDS 8
#define TERSE_FIELD_CPU (TERSE_FIELD_STEADY + TERSE_STEADY_FIELDS)	/* 113 */
#define TERSE_CPU_FIELDS 5
/* 118: the write sync policy, 119: whose defaults the workload took */
#define TERSE_FIELD_SYNC (TERSE_FIELD_CPU + TERSE_CPU_FIELDS)
#define TERSE_SYNC_FIELDS 2
#define TERSE_FIELD_DURABLE (TERSE_FIELD_SYNC + TERSE_SYNC_FIELDS)	/* 120 */
#define TERSE_DURABLE_FIELDS 10
#define TERSE_FIELDS (TERSE_FIELD_DURABLE + TERSE_DURABLE_FIELDS - 1)
#define JSON_VERSION 7	/* 2: results.operations, latency p99_99;
				 * 3: run, results.passes, a file judged
				 * by its data (alignment);
				 * 4: operations.sync_file_range,
				 * target.fua, durability, results.device;
				 * 5: results.ops_ci, precision, seconds;
				 * 6: latency_hist (results and each
				 * operation), start_at;
				 * 7: ios, latency and rates over data
				 * I/Os, flushes, end_flushes,
				 * write_flush_latency_us, cpu, devices
				 * (results.device only when alone),
				 * mib_per_s for mb_per_s, defaults,
				 * repeat.shown_run */

struct replay_result;
struct suite;
struct sweep;
struct sweep_axis;
struct sweep_order;

/* One run's results, as every writer sees them. */
struct report {
	const struct workload *wls;
	size_t n;
	bool interrupted;
	size_t point;		/* in a sweep: the point, from 0; in a
				 * suite: the test */
	/* all workloads together when several ran (result_merge), else
	 * NULL: fio's group reporting */
	const struct result *total;
	const struct repeat_data *total_rep;	/* --repeat: the total's */
	const struct replay_result *replay;	/* --replay: its own figures
						 * (replay_result.h), else
						 * NULL */
	double seconds;		/* wall time the run (a sweep's point, with
				 * its --repeat runs) took, preparation
				 * included; 0 when unknown */
};

/* What the writers are told once, before the first report. */
struct report_scope {
	const struct run_opts *run;
	FILE *out;		/* standard output (a test's buffer in tests) */
	const struct sweep *sw;	/* NULL: one run and its --repeat runs */
	const char *table;	/* sweep: the --output file that takes a
				 * copy of the table (the driver writes it),
				 * or NULL; the table goes to out either way
				 * (the human writer) */
	const struct suite *suite;	/* --suite: each report is a test
					 * (report.point), else NULL */
	const struct sweep_order *order;	/* a sweep's --order, or NULL */
};

struct report_set;

/* One writer at work: its hooks, and what it keeps between them. */
struct report_out {
	const struct report_writer *w;
	const struct report_scope *scope;
	const struct report_set *set;
	bool shows_warnings;	/* begin says: warnings are in its output */
	bool uses_stdout;	/* begin says: it writes to scope->out */
	bool open_line;		/* begin says: between reports, its last
				 * line on scope->out is left unfinished */
	void *priv;		/* the writer's own state, begin to end */
};

/*
 * A format.  Hooks return 0, or -errno after printing what failed (the
 * driver then exits with EXIT_OUTPUT_FAILED); a missing hook does nothing.
 */
struct report_writer {
	const char *name;
	/* Does a run with these options want it?  Asked once. */
	bool (*wanted)(const struct run_opts *run);
	int (*begin)(struct report_out *o);
	int (*report)(struct report_out *o, const struct report *r);
	int (*end)(struct report_out *o);
};

extern const struct report_writer report_human_writer;
extern const struct report_writer report_terse_writer;
extern const struct report_writer report_json_writer;
extern const struct report_writer report_stderr_writer;
extern const struct report_writer report_series_writer;

/* Every writer, in the order they run: the standard output formats, then
 * the messages on standard error (which need to know whether warnings were
 * shown), then the files. */
extern const struct report_writer *const report_writers[];
extern const size_t report_nwriters;

#define REPORT_MAX_WRITERS 8

/* The writers a run uses, chosen once from its options. */
struct report_set {
	struct report_scope scope;
	struct report_out out[REPORT_MAX_WRITERS];
	size_t n;
};

/* Choose the writers scope->run wants and begin them; 0 or -errno. */
int report_open(struct report_set *set, const struct report_scope *scope);
/* One run's results to every writer of the set; 0 or the first -errno. */
int report_emit(struct report_set *set, const struct report *r);
/* End every writer; 0 or the first -errno. */
int report_close(struct report_set *set);
/* Is some writer of the set showing the warnings (else stderr has them)? */
bool report_shows_warnings(const struct report_set *set);
/* Does some writer of the set write to standard output? */
bool report_uses_stdout(const struct report_set *set);
/* Does some writer of the set leave a line unfinished between reports? */
bool report_open_line(const struct report_set *set);
/* One writer alone, begin to end, for one run: for tests and tools. */
int report_write(const struct report_writer *w,
		 const struct report_scope *scope, const struct report *r);

/* A sweep's table (--output, or standard output): the header, and a row per
 * workload of a point; and a swept value as the table, -n and JSON give it
 * (times in the option's own unit). */
void report_table_header(FILE *f, const struct sweep *sw, bool repeated);
void report_table_rows(FILE *f, const struct sweep *sw, const struct report *r);
void report_sweep_cell(const struct sweep_axis *ax, size_t i, char *buf,
		       size_t len);

/* How a workload ended, as -n field 18 and JSON "status" give it. */
enum wl_status {
	WL_COMPLETE = 0,
	WL_INTERRUPTED = 1,	/* SIGINT/SIGTERM/SIGHUP */
	WL_IO_ERROR = 2,	/* one of its I/Os failed */
	WL_STOPPED = 3,		/* stopped because another workload failed */
	WL_MEMORY = 4,		/* its statistics reached the memory budget */
};

int workload_status(const struct workload *wl, bool interrupted);
const char *workload_status_name(int status);

/* Is warning w of wl said to a person (terse: to -n's reader)?  All but
 * the too-few-I/Os one, which nearly every short run has and nobody acts
 * on: that one only with -n and --json (no other place says it there)
 * and --precision (asked about precision); rebench(1) explains it. */
bool report_warning_said(const struct workload *wl, int w, bool terse);

/* Latency figures in microseconds, the same in every format. */
struct lat_summary {
	double min, avg, p50, p90, p99, p999, p9999, max;
};

void lat_summarize(const struct result *res, struct lat_summary *l);
void lat_summarize_hist(const struct hist *h, struct lat_summary *l);

/* A number after sep (fmt without it), "-" when not finite: the cells of
 * -n lines and TSV rows. */
void report_put_num(FILE *f, char sep, const char *fmt, double v);

/* One operation kind's share of a result. */
struct op_summary {
	uint64_t ios, bytes;
	double ops_per_s, mb_per_s;
	struct lat_summary lat;
};

/* The workload whose writes are least durable (the order of enum
 * durability: not durable, unknown, durable), the total's verdict; NULL
 * when none wrote. */
const struct workload *report_dur_worst(const struct report *r);

/* The 95% interval of ops/s (ci.h) of workload wl, or with wl NULL of the
 * total, and --precision's verdict with the half-width asked for in
 * *target_pct (0 when not asked): the total reached it when every
 * workload did. */
enum precision_verdict report_precision(const struct report *r,
					const struct workload *wl,
					struct ci *c, double *target_pct);

/* The kinds with I/Os in res (a bit per enum io_kind). */
unsigned result_kinds(const struct result *res);
void op_summarize(const struct result *res, int kind, struct op_summary *o);
/* op_summarize() of a workload's result or of r->total; the total's rates
 * are the sums of the workloads' (as its ops/s is). */
void report_op_summarize(const struct report *r, const struct result *res,
			 int kind, struct op_summary *o);
/* How the total ended (-n field 18, JSON status): complete when every
 * workload completed, else the cause: the failure that stopped the run (an
 * I/O error or the memory budget of the first such workload), a workload
 * stopped by it, or the interruption. */
int report_total_status(const struct report *r);
/* The device counters (devstat.h) of wl into out, and whether they are
 * the workload's own: true only when it alone used its device (no other
 * workload of the run on it, and the device not shared; rebench(1),
 * "Device").  With wl NULL, the total: each device of the run once, its
 * own when every device is. */
bool report_dev_own(const struct report *r, const struct workload *wl,
		    struct dev_reads *out);
/* The run's devices, each once (the first workload's counters on it, in
 * workload order), into out (MAX_WORKLOADS entries): how many.  A
 * workload whose target has no device is an entry of its own, name
 * empty, with why. */
size_t report_devices(const struct report *r, const struct dev_reads **out);
/* The workloads (numbers from 1) on device d of r, "1" or "1, 2", in buf. */
char *report_dev_users(const struct report *r, const struct dev_reads *d,
		       char *buf, size_t len);
const char *op_name(int op);
/* -o as given: "read", or a mix "read/70:write/30". */
const char *spec_op_text(const struct spec *s, char *buf, size_t len);
/* Is the stride worth a mention in the header? */
bool spec_shows_stride(const struct spec *s);
const char *engine_name(const struct spec *s);
/* Requested duration as the user wrote it: "10s", "1g", "50%". */
char *fmt_duration(char *buf, size_t len, const struct amount *a);

struct json;
/* report_mix.c: the mixes asked for, and the sizes achieved */
void report_human_sizes(FILE *f, const struct workload *wl);
void report_json_mix_params(struct json *j, const struct spec *s);
void report_json_sizes(struct json *j, const struct workload *wl);
void report_json_head(struct json *j);
/* report_steady.c: --steady-state's rounds, --precondition's writes */
void report_human_steady_note(FILE *f, const struct workload *wl);
void report_human_steady(FILE *f, const struct workload *wl);
void report_terse_steady(FILE *f, const struct report *r,
			 const struct workload *wl);
void report_json_steady(struct json *j, const struct workload *wl);

struct run_ctx;
/* The run's results as the writers take them (point: a sweep's). */
void run_ctx_report(const struct run_ctx *ctx, bool interrupted, size_t point,
		    struct report *r);

#endif
