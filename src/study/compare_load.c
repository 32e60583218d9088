/* compare_load.c - the two documents of --compare: read, checked to be
 * rebench results of the same shape, and paired into rows (compare_rows.h).
 */
#include "study/compare_rows.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_read.h"
#include "report/report.h"
#include "report/version.h"

static const struct {
	const char *label, *key, *repeat_key;
	bool lower_better;
} metrics[CMP_METRICS] = {
	{ "ops/s", "ops_per_s", "ops_per_s", false },
	{ "MiB/s", "mib_per_s", "mib_per_s", false },
	{ "p50 (us)", "p50", "lat_p50_us", true },
	{ "p99 (us)", "p99", "lat_p99_us", true },
};

const char *cmp_metric_label(int m) { return metrics[m].label; }
const char *cmp_metric_key(int m) { return metrics[m].repeat_key; }

static double num(const struct json_value *v)
{
	return v && v->type == JSON_NUMBER ? v->number : NAN;
}

/* A document's runs: the sweep's points, or the document itself. */
static int runs_of(const struct cmp_doc *d, const struct json_value **runs,
		   size_t *n)
{
	const struct json_value *sw = json_get(d->root, "sweep"), *r;

	if (sw && sw->type == JSON_OBJECT) {
		r = json_get(sw, "runs");
		if (!r || r->type != JSON_ARRAY)
			return -EINVAL;
		*runs = r;
		*n = r->n;
		return 0;
	}
	*runs = NULL;
	*n = 1;
	return 0;
}

static const struct json_value *run_at(const struct cmp_doc *d,
				       const struct json_value *runs, size_t i)
{
	return runs ? json_at(runs, i) : d->root;
}

int cmp_load(const char *path, struct cmp_doc *d)
{
	const struct json_value *v;
	char err[PATH_MAX_ERR];

	memset(d, 0, sizeof(*d));
	d->path = path;
	if (json_load(path, &d->root, err, sizeof(err))) {
		fprintf(stderr, "rebench: --compare: %s\n", err);
		return -EINVAL;
	}
	v = json_get(d->root, "tool");
	if (!v || v->type != JSON_STRING || strcmp(v->str, "rebench")) {
		fprintf(stderr, "rebench: --compare: %s is JSON but not a rebench document (no \"tool\": \"rebench\"); compare the output of rebench --json\n",
			path);
		return -EINVAL;
	}
	v = json_get(d->root, "json_version");
	d->version = v && v->type == JSON_NUMBER ? (int)v->number : -1;
	if (json_get(d->root, "tests")) {
		fprintf(stderr, "rebench: --compare: %s is a --suite document; compare single runs, --repeat runs or sweeps (run the suite's test alone with --json)\n",
			path);
		return -EINVAL;
	}
	d->sweep = json_get(d->root, "sweep") != NULL;
	if (!d->sweep && !json_get(d->root, "workloads")) {
		fprintf(stderr, "rebench: --compare: %s has no results (no \"workloads\" and no \"sweep\": a --probe or another mode's document?); compare the output of a run with --json\n",
			path);
		return -EINVAL;
	}
	return 0;
}

void cmp_free(struct cmp_doc *d)
{
	json_free(d->root);
	d->root = NULL;
}

/* "block-size 512..4096 (8 values)"-like words for a message: the sweep's
 * parameters of d. */
static void describe(const struct cmp_doc *d, char *buf, size_t len)
{
	const struct json_value *p = json_get(json_get(d->root, "sweep"),
					      "parameters");
	size_t i, n = 0;

	if (!d->sweep) {
		snprintf(buf, len, "a single run");
		return;
	}
	n = (size_t)snprintf(buf, len, "a sweep of");
	for (i = 0; p && i < p->n && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s %s",
				      i ? "," : "", json_at(p, i)->str);
	if (n < len)
		snprintf(buf + n, len - n, " (%zu points)",
			 (size_t)num(json_get(json_get(d->root, "sweep"), "points")));
}

/* Two values of a point are the same (numbers by value, strings by text). */
static bool same_value(const struct json_value *x, const struct json_value *y)
{
	if (!x || !y || x->type != y->type)
		return false;
	if (x->type == JSON_NUMBER)
		return x->number == y->number;
	return x->type == JSON_STRING && !strcmp(x->str, y->str);
}

/* Run of b with the point number of a's run ra (runs are in the order
 * they ran: --order shuffled). */
static const struct json_value *match_point(const struct json_value *runs,
					    const struct json_value *ra)
{
	double p = num(json_get(ra, "point"));
	size_t i;

	for (i = 0; runs && i < runs->n; i++)
		if (num(json_get(json_at(runs, i), "point")) == p)
			return json_at(runs, i);
	return NULL;
}

/* One side of one metric of workload w. */
static void side_of(const struct json_value *w, int m, struct cmp_side *s,
		    double **runs_buf)
{
	const struct json_value *res = json_get(w, "results");
	const struct json_value *rep = json_get(json_get(w, "repeat"),
						metrics[m].repeat_key);
	const struct json_value *ci = json_get(res, "ops_ci");
	const struct json_value *vals = json_get(rep, "values");
	double scale = 1;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->value = m >= 2 ? num(json_get(json_get(res, "latency_us"),
					 metrics[m].key)) :
			    num(json_get(res, metrics[m].key));
	if (vals && vals->type == JSON_ARRAY && vals->n >= 2) {
		*runs_buf = calloc(vals->n, sizeof(double));
		for (i = 0; *runs_buf && i < vals->n; i++)
			(*runs_buf)[i] = num(json_at(vals, i));
		if (*runs_buf) {
			s->runs = *runs_buf;
			s->nruns = vals->n;
			s->value = num(json_get(rep, "median"));
		}
	}
	if (m >= 2 || !ci || ci->type != JSON_OBJECT)
		return;
	/* MB/s: the same I/Os, so the same relative interval */
	if (m == 1)
		scale = num(json_get(res, "mib_per_s")) /
			num(json_get(res, "ops_per_s"));
	if (!isfinite(scale) || !isfinite(num(json_get(ci, "dof"))))
		return;
	s->ci_mean = num(json_get(ci, "mean")) * scale;
	s->ci_low = num(json_get(ci, "low")) * scale;
	s->ci_high = num(json_get(ci, "high")) * scale;
	s->dof = (unsigned)num(json_get(ci, "dof"));
}

/* Every row of run ra (A) against rb (B); point 0 for a single run. */
static int add_rows(struct cmp_rows *rows, const struct json_value *ra,
		    const struct json_value *rb, size_t point,
		    const struct cmp_doc *a, const struct cmp_doc *b)
{
	const struct json_value *wa = json_get(ra, "workloads");
	const struct json_value *wb = json_get(rb, "workloads");
	size_t k;
	int m;

	if (!wa || !wb || wa->type != JSON_ARRAY || wb->type != JSON_ARRAY ||
	    wa->n != wb->n) {
		fprintf(stderr, "rebench: --compare: %s has %zu workload%s%s and %s has %zu: compare runs of the same workload lines\n",
			a->path, wa ? wa->n : 0, wa && wa->n == 1 ? "" : "s",
			point ? " at a point" : "", b->path, wb ? wb->n : 0);
		return -EINVAL;
	}
	for (k = 0; k < wa->n; k++) {
		const struct json_value *xa = json_at(wa, k), *xb = json_at(wb, k);

		if (!json_get(xa, "results") || json_get(xa, "results")->type != JSON_OBJECT ||
		    !json_get(xb, "results") || json_get(xb, "results")->type != JSON_OBJECT) {
			fprintf(stderr, "rebench: --compare: workload %zu%s has no results in %s: a run that failed or was stopped before it measured has nothing to compare\n",
				k + 1, point ? " of a point" : "",
				json_get(xa, "results") && json_get(xa, "results")->type == JSON_OBJECT ?
				b->path : a->path);
			return -EINVAL;
		}
		for (m = 0; m < CMP_METRICS; m++) {
			struct cmp_row *r;

			if (rows->n == rows->cap) {
				size_t cap = rows->cap ? 2 * rows->cap : 64;
				struct cmp_row *nr = realloc(rows->row, cap * sizeof(*nr));

				if (!nr)
					return -ENOMEM;
				rows->row = nr;
				rows->cap = cap;
			}
			r = &rows->row[rows->n++];
			memset(r, 0, sizeof(*r));
			r->point = point;
			r->run_a = ra;
			r->workload = k + 1;
			r->metric = m;
			side_of(xa, m, &r->a, &r->buf_a);
			side_of(xb, m, &r->b, &r->buf_b);
			compare_ratio(&r->a, &r->b, metrics[m].lower_better,
				      &r->res);
		}
	}
	return 0;
}

static int by_point(const void *x, const void *y)
{
	const struct cmp_row *p = x, *q = y;

	if (p->point != q->point)
		return p->point < q->point ? -1 : 1;
	if (p->workload != q->workload)
		return p->workload < q->workload ? -1 : 1;
	return p->metric - q->metric;
}

int cmp_pair(const struct cmp_doc *a, const struct cmp_doc *b,
	     struct cmp_rows *rows)
{
	const struct json_value *runs_a, *runs_b, *pa, *pb;
	char da[512], db[512];
	size_t na, nb, i, j;
	int ret = 0;

	memset(rows, 0, sizeof(*rows));
	if (a->version != b->version || a->version != JSON_VERSION) {
		fprintf(stderr, "rebench: --compare: %s has json_version %d and %s has %d; this rebench reads version %d (the ops/s interval came in 5): run both again with this rebench --json\n",
			a->path, a->version, b->path, b->version, JSON_VERSION);
		return -EINVAL;
	}
	describe(a, da, sizeof(da));
	describe(b, db, sizeof(db));
	if (a->sweep != b->sweep || runs_of(a, &runs_a, &na) ||
	    runs_of(b, &runs_b, &nb) || na != nb) {
		fprintf(stderr, "rebench: --compare: %s is %s and %s is %s; compare documents of the same shape (the same sweep, or two single runs)\n",
			a->path, da, b->path, db);
		return -EINVAL;
	}
	pa = json_get(json_get(a->root, "sweep"), "parameters");
	pb = json_get(json_get(b->root, "sweep"), "parameters");
	if (a->sweep) {
		bool same = pa && pb && pa->n == pb->n;

		for (j = 0; same && j < pa->n; j++)
			same = same_value(json_at(pa, j), json_at(pb, j));
		if (!same) {
			fprintf(stderr, "rebench: --compare: %s is %s and %s is %s; compare sweeps of the same options\n",
				a->path, da, b->path, db);
			return -EINVAL;
		}
	}
	for (i = 0; i < na && !ret; i++) {
		const struct json_value *ra = run_at(a, runs_a, i);
		const struct json_value *rb = a->sweep ? match_point(runs_b, ra) :
							 b->root;
		const struct json_value *va = json_get(ra, "values");
		const struct json_value *vb = json_get(rb, "values");
		size_t point = a->sweep ? (size_t)num(json_get(ra, "point")) : 0;

		for (j = 0; a->sweep && rb && j < pa->n; j++) {
			const char *name = json_at(pa, j)->str;

			if (!same_value(json_get(va, name), json_get(vb, name)))
				rb = NULL;
		}
		if (!rb) {
			fprintf(stderr, "rebench: --compare: point %zu of %s has no twin with the same values in %s: the sweeps' ranges differ; compare sweeps of the same values\n",
				point, a->path, b->path);
			return -EINVAL;
		}
		ret = add_rows(rows, ra, rb, point, a, b);
	}
	/* the runs are in the order they ran (--order shuffled): the rows
	 * in point order; within a point they were made in order */
	if (!ret)
		qsort(rows->row, rows->n, sizeof(*rows->row), by_point);
	return ret;
}

void cmp_rows_free(struct cmp_rows *rows)
{
	size_t i;

	for (i = 0; i < rows->n; i++) {
		free(rows->row[i].buf_a);
		free(rows->row[i].buf_b);
	}
	free(rows->row);
	memset(rows, 0, sizeof(*rows));
}
