/* hosts_merge.c - see hosts_merge.h. */
#include "hosts/hosts_merge.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/summary.h"

static double num(const struct json_value *v)
{
	return v && v->type == JSON_NUMBER ? v->number : NAN;
}

static bool u64_of(const struct json_value *v, uint64_t *out)
{
	if (!v || v->type != JSON_NUMBER || !v->has_u64)
		return false;
	*out = v->u64;
	return true;
}

/* A latency_hist object added into h; 0 or -EINVAL. */
static int add_hist(const struct json_value *o, struct hist *h)
{
	const struct json_value *b = json_get(o, "buckets");
	uint64_t count, min, max, sum, sub, idx, c, total = 0;
	struct hist one;
	size_t i;

	if (!u64_of(json_get(o, "count"), &count) ||
	    !u64_of(json_get(o, "min"), &min) ||
	    !u64_of(json_get(o, "max"), &max) ||
	    !u64_of(json_get(o, "sum"), &sum) ||
	    !u64_of(json_get(o, "sub_bits"), &sub) || sub != HIST_SUB_BITS ||
	    !b || b->type != JSON_ARRAY)
		return -EINVAL;
	hist_init(&one);
	for (i = 0; i < b->n; i++) {
		const struct json_value *pair = json_at(b, i);

		if (!pair || pair->type != JSON_ARRAY || pair->n != 2 ||
		    !u64_of(json_at(pair, 0), &idx) ||
		    !u64_of(json_at(pair, 1), &c) || idx >= HIST_BUCKETS)
			return -EINVAL;
		one.buckets[idx] += c;
		total += c;
	}
	if (total != count)
		return -EINVAL;
	one.count = count;
	one.sum = sum;
	one.min = count ? min : UINT64_MAX;
	one.max = max;
	hist_merge(h, &one);
	return 0;
}

static void fig_latency(struct host_fig *f, const struct hist *h)
{
	struct lat_summary l;

	lat_summarize_hist(h, &l);
	f->min = l.min;
	f->avg = l.avg;
	f->p50 = l.p50;
	f->p90 = l.p90;
	f->p99 = l.p99;
	f->p999 = l.p999;
	f->max = l.max;
}

int hosts_fig_of(const struct json_value *doc, size_t k, struct host_fig *f,
		 struct hist *h, char *why, size_t len)
{
	const struct json_value *w = json_at(json_get(doc, "workloads"), k);
	const struct json_value *res = json_get(w, "results");
	const struct json_value *st = json_get(w, "status");
	struct hist mine;

	memset(f, 0, sizeof(*f));
	if (!w) {
		snprintf(why, len, "its document has no workload %zu", k + 1);
		return -EINVAL;
	}
	if (st && st->type == JSON_STRING)
		snprintf(f->status, sizeof(f->status), "%s", st->str);
	if (!res || res->type != JSON_OBJECT) {
		snprintf(why, len, "workload %zu has no results (%s)", k + 1,
			 f->status[0] ? f->status : "none");
		return -EINVAL;
	}
	hist_init(&mine);
	if (add_hist(json_get(res, "latency_hist"), &mine)) {
		snprintf(why, len, "workload %zu has no whole latency_hist (a rebench older than json_version 6?)",
			 k + 1);
		return -EINVAL;
	}
	hist_merge(h, &mine);
	fig_latency(f, &mine);
	f->known = true;
	f->ops_per_s = num(json_get(res, "ops_per_s"));
	f->mb_per_s = num(json_get(res, "mib_per_s"));
	f->ios = num(json_get(res, "ios"));
	f->hosts = 1;
	return 0;
}

void hosts_fig_merge(const struct host_fig *figs, size_t nhosts,
		     const struct hist *h, struct host_fig *merged)
{
	size_t i;

	memset(merged, 0, sizeof(*merged));
	for (i = 0; i < nhosts; i++) {
		if (!figs[i].known)
			continue;
		merged->ops_per_s += figs[i].ops_per_s;
		merged->mb_per_s += figs[i].mb_per_s;
		merged->ios += figs[i].ios;
		merged->hosts++;
	}
	merged->known = merged->hosts > 0;
	snprintf(merged->status, sizeof(merged->status), "merged");
	fig_latency(merged, h);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

size_t hosts_outliers(struct host_fig *figs, size_t nhosts, double pct)
{
	double *ops = calloc(nhosts ? nhosts : 1, sizeof(double));
	double *p99 = calloc(nhosts ? nhosts : 1, sizeof(double));
	double mo, mp;
	size_t i, n = 0, out = 0;

	if (!ops || !p99)
		goto done;
	for (i = 0; i < nhosts; i++)
		if (figs[i].known) {
			ops[n] = figs[i].ops_per_s;
			p99[n++] = figs[i].p99;
		}
	if (n < 3)
		goto done;
	mo = median(ops, n);
	mp = median(p99, n);
	for (i = 0; i < nhosts; i++) {
		struct host_fig *f = &figs[i];

		if (!f->known)
			continue;
		f->ops_dev_pct = mo > 0 ? (f->ops_per_s / mo - 1) * 100 : 0;
		f->p99_dev_pct = mp > 0 ? (f->p99 / mp - 1) * 100 : 0;
		f->outlier = fabs(f->ops_dev_pct) > pct ||
			     fabs(f->p99_dev_pct) > pct;
		out += f->outlier;
	}
done:
	free(ops);
	free(p99);
	return out;
}
