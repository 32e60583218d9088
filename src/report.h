/* report.h - writers for results: classic human, terse (-n), JSON, and the
 * --output TSV series.  They only read workloads; no I/O to targets.
 */
#ifndef REBENCH_REPORT_H
#define REBENCH_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "workload.h"

#define REBENCH_VERSION "0.1.0"
#define TERSE_VERSION 1
#define JSON_VERSION 2	/* 2: results.operations, latency p99_99 */

struct report {
	struct workload *wls;
	size_t n;
	bool interrupted;
};

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

/* Latency figures in microseconds, the same in every format. */
struct lat_summary {
	double min, avg, p50, p90, p99, p999, p9999, max;
};

void lat_summarize(const struct result *res, struct lat_summary *l);
void lat_summarize_hist(const struct hist *h, struct lat_summary *l);

/* One operation kind's share of a result. */
struct op_summary {
	uint64_t ios, bytes;
	double ops_per_s, mb_per_s;
	struct lat_summary lat;
};

const char *io_kind_name(int kind);
/* The kinds with I/Os in res (a bit per enum io_kind). */
unsigned result_kinds(const struct result *res);
void op_summarize(const struct result *res, int kind, struct op_summary *o);
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
void report_json_workload(struct json *j, const struct workload *wl,
			  bool interrupted);
/* One -n line; suffix (swept values, " v1 v2") is appended when given. */
void report_terse_line(FILE *f, const struct workload *wl, bool interrupted,
		       const char *suffix);

void report_human(FILE *f, const struct report *r);
void report_terse(FILE *f, const struct report *r);
void report_json(FILE *f, const struct report *r);
/* Write every --output file; 0 or -errno after printing the error. */
int report_series(const struct report *r);

#endif
