/* compare_rows.h - --compare's inner pieces: the two documents, read and
 * checked (compare_load.c), paired into a row per point, workload and
 * metric, and written out (compare_out.c). */
#ifndef REBENCH_COMPARE_ROWS_H
#define REBENCH_COMPARE_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/mode_args.h"
#include "study/compare.h"

#define CMP_METRICS 4	/* ops/s, MB/s, p50, p99 */
#define PATH_MAX_ERR 4352

struct json_value;

/* The words of rebench --compare (compare_args.c). */
struct cmp_args {
	const char *a, *b, *plot;
	enum out_format fmt;
	bool fmt_given;
};

/* 0, 1 after the help was printed, -EINVAL after a message. */
int cmp_parse_args(int argc, char **argv, struct cmp_args *a);

struct cmp_doc {
	const char *path;
	struct json_value *root;
	int version;		/* json_version, -1 when missing */
	bool sweep;
};

struct cmp_row {
	size_t point;		/* a sweep's point number, 0: a single run */
	const struct json_value *run_a;	/* its run in A: values, target */
	size_t workload;	/* from 1 */
	int metric;		/* 0 .. CMP_METRICS - 1 */
	struct cmp_side a, b;
	double *buf_a, *buf_b;	/* the --repeat values the sides point to */
	struct cmp_result res;
};

struct cmp_rows {
	struct cmp_row *row;
	size_t n, cap;
};

/* Read path; 0, or -EINVAL after a message (not JSON, not rebench's, a
 * suite, no results). */
int cmp_load(const char *path, struct cmp_doc *d);
void cmp_free(struct cmp_doc *d);
/* Check that a and b have the same shape and make their rows, in point,
 * workload and metric order; 0, or -EINVAL / -ENOMEM after a message
 * saying what differs. */
int cmp_pair(const struct cmp_doc *a, const struct cmp_doc *b,
	     struct cmp_rows *rows);
void cmp_rows_free(struct cmp_rows *rows);

/* "ops/s", "MB/s", "p50 (us)", "p99 (us)"; and their JSON keys
 * "ops_per_s" .. "lat_p99_us". */
const char *cmp_metric_label(int m);
const char *cmp_metric_key(int m);

#endif
