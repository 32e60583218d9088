/* summary.h - the figures every writer derives from a run the same way:
 * how a workload ended, latency and per-kind summaries, the total's
 * verdicts, the devices of the run, and the names and texts of a spec's
 * parameters (report_common.c, report_mix.c).  Read-only helpers of the
 * writers and of the modes that print a result of their own. */
#ifndef REBENCH_SUMMARY_H
#define REBENCH_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stats/precision.h"
#include "core/workload.h"

struct report;

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
/* report_mix.c: the mixes asked for */
void report_json_mix_params(struct json *j, const struct spec *s);
void report_json_head(struct json *j);
/* A latency object's figures, min to max, in microseconds. */
void report_json_lat(struct json *j, const struct lat_summary *l);
/* A latency histogram, whole (its buckets), as key. */
void report_json_hist(struct json *j, const char *key, const struct hist *h);

#endif
