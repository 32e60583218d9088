/* stats.c - growing the per-thread series, merging threads into a
 * workload result with its interval statistics (GSL), and workloads into
 * their total.
 */
#include "core/stats.h"
#include "core/memory.h"

#include <errno.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int thread_stats_init(struct thread_stats *st, uint64_t step_ns,
		      uint64_t expected_ns, bool log_ios)
{
	size_t cap;
	int k;

	memset(st, 0, sizeof(*st));
	for (k = 0; k < IO_KINDS; k++)
		hist_init(&st->hist[k]);
	hist_init(&st->durable);
	st->step_ns = step_ns;
	st->next_edge = step_ns;
	st->log_ios = log_ios;
	st->headline = IO_DATA_KINDS;
	cap = expected_ns ? (size_t)(expected_ns / step_ns) + 4 : 64;
	return thread_stats_grow(st, cap);
}

void stats_fast_sync(struct thread_stats *st)
{
	bool any = !st->log_ios && !st->pend_cap && st->cur < st->cap;
	int k;

	for (k = 0; k < IO_KINDS; k++)
		st->fast_until[k] = any && !st->iv_kind_ops[k] &&
				    (st->headline & (1U << k)) ?
				    st->next_edge : 0;
	st->iv_now = any ? &st->iv[st->cur] : NULL;
}

int stats_record_slow(struct thread_stats *st, int kind, uint64_t off,
		      uint32_t len, uint64_t t_done, uint64_t lat)
{
	/* what can fail comes first: an I/O is counted everywhere or
	 * nowhere, so the totals and the -g 0 log always agree */
	if (t_done >= st->next_edge) {
		while (t_done >= st->next_edge) {
			st->cur++;
			st->next_edge += st->step_ns;
		}
		stats_fast_sync(st);	/* 0 until the series has room */
	}
	if (st->cur >= st->cap && thread_stats_grow(st, st->cur + 1))
		return -1;
	if (st->log_ios && (!st->log_tail || st->log_tail->n == IO_LOG_CHUNK) &&
	    thread_stats_log_chunk(st))
		return -1;
	hist_add(&st->hist[kind], lat);
	st->bytes[kind] += len;
	if (st->iv_kind_ops[kind])
		st->iv_kind_ops[kind][st->cur]++;
	if (st->headline & (1U << kind)) {
		struct iv_sums *v = &st->iv[st->cur];

		v->ops++;
		v->bytes += len;
		v->lat_sum += lat;
		if (lat > v->lat_max)
			v->lat_max = lat;
	}
	if (st->pend_cap)
		stats_durable_record(st, kind, t_done, lat);
	if (st->log_ios) {
		struct io_rec *r = &st->log_tail->recs[st->log_tail->n++];

		r->t_ns = t_done;
		r->off = off;
		r->lat_ns = lat;
		r->len = len;
		r->kind = (uint32_t)kind;
	}
	return 0;
}

/* Bytes per interval: ops, bytes, latency sum and latency max, and one
 * count per tracked kind. */
static size_t series_bytes(const struct thread_stats *st)
{
	size_t n = 4;
	int k;

	for (k = 0; k < IO_KINDS; k++)
		n += st->iv_kind_ops[k] != NULL;
	return n * sizeof(uint64_t);
}

/* One per-interval array from old to cap entries, the new ones zeroed;
 * false (the array kept as it was) when memory is short. */
static bool grow_array(uint64_t **a, size_t old, size_t cap)
{
	uint64_t *p = realloc(*a, cap * sizeof(*p));

	if (!p)
		return false;
	memset(p + old, 0, (cap - old) * sizeof(*p));
	*a = p;
	return true;
}

int thread_stats_grow(struct thread_stats *st, size_t need)
{
	size_t cap = st->cap ? st->cap : 64, bytes;
	struct iv_sums *iv;
	bool ok;
	int k;

	while (cap < need)
		cap *= 2;
	/* every byte of statistics counts against the memory budget */
	bytes = (cap - st->cap) * series_bytes(st);
	if (!memory_take(bytes))
		return -ENOMEM;
	st->mem += bytes;
	iv = realloc(st->iv, cap * sizeof(*iv));
	ok = iv != NULL;
	if (iv) {
		memset(iv + st->cap, 0, (cap - st->cap) * sizeof(*iv));
		st->iv = iv;
	}
	for (k = 0; k < IO_KINDS; k++)
		if (st->iv_kind_ops[k])
			ok = grow_array(&st->iv_kind_ops[k], st->cap, cap) && ok;
	if (!ok)
		return -ENOMEM;
	st->cap = cap;
	stats_fast_sync(st);
	return 0;
}

void thread_stats_headline(struct thread_stats *st, unsigned kinds)
{
	st->headline = kinds & IO_DATA_KINDS ? IO_DATA_KINDS : ~0U;
	stats_fast_sync(st);
}

int thread_stats_durable(struct thread_stats *st, uint32_t n)
{
	if (!n || n > STATS_DURABLE_MAX)
		return 0;	/* not measured: the figure says "-" */
	if (!memory_take(n * sizeof(uint64_t)))
		return -ENOMEM;
	st->pend_t0 = malloc(n * sizeof(uint64_t));
	if (!st->pend_t0) {
		memory_give(n * sizeof(uint64_t));
		return -ENOMEM;
	}
	st->mem += n * sizeof(uint64_t);
	st->pend_cap = n;
	stats_fast_sync(st);
	return 0;
}

void stats_durable_record(struct thread_stats *st, int kind, uint64_t t_done,
			  uint64_t lat)
{
	uint32_t i;

	if (kind == IO_WRITE) {
		/* a mix's own flushes can be further apart than the policy's
		 * n: the writes beyond n wait uncounted, and the figure is
		 * over the writes whose wait was kept */
		if (st->pend_n < st->pend_cap)
			st->pend_t0[st->pend_n++] = t_done - lat;
		return;
	}
	if (kind != IO_FSYNC && kind != IO_FDATASYNC)
		return;		/* a sync_file_range makes nothing durable */
	for (i = 0; i < st->pend_n; i++)
		hist_add(&st->durable, t_done - st->pend_t0[i]);
	st->pend_n = 0;
}

void stats_record_end(struct thread_stats *st, int kind, uint64_t t_done,
		      uint64_t lat)
{
	hist_add(&st->hist[kind], lat);
	st->end_flushes++;
	if (st->pend_cap)
		stats_durable_record(st, kind, t_done, lat);
}

int thread_stats_track_kinds(struct thread_stats *st, unsigned mask)
{
	int k;

	for (k = 0; k < IO_KINDS; k++) {
		if (!(mask & (1U << k)) || st->iv_kind_ops[k])
			continue;
		if (!memory_take(st->cap * sizeof(uint64_t)))
			return -ENOMEM;
		st->mem += st->cap * sizeof(uint64_t);
		st->iv_kind_ops[k] = calloc(st->cap ? st->cap : 1,
					    sizeof(uint64_t));
		if (!st->iv_kind_ops[k])
			return -ENOMEM;
		stats_fast_sync(st);
	}
	return 0;
}

int thread_stats_log_chunk(struct thread_stats *st)
{
	struct io_log_chunk *c;

	/* after a reset, the chunks already linked are used again */
	if (st->log_tail && st->log_tail->next) {
		st->log_tail = st->log_tail->next;
		st->log_tail->n = 0;
		return 0;
	}
	if (!memory_take(sizeof(*c)))
		return -ENOMEM;
	c = malloc(sizeof(*c));
	if (!c) {
		memory_give(sizeof(*c));
		return -ENOMEM;
	}
	st->mem += sizeof(*c);
	c->next = NULL;
	c->n = 0;
	if (st->log_tail)
		st->log_tail->next = c;
	else
		st->log_head = c;
	st->log_tail = c;
	return 0;
}

void thread_stats_reset(struct thread_stats *st)
{
	struct io_log_chunk *c;
	int k;

	for (k = 0; k < IO_KINDS; k++)
		hist_init(&st->hist[k]);
	memset(st->bytes, 0, sizeof(st->bytes));
	st->cur = 0;
	st->next_edge = st->step_ns;
	memset(st->iv, 0, st->cap * sizeof(*st->iv));
	for (k = 0; k < IO_KINDS; k++)
		if (st->iv_kind_ops[k])
			memset(st->iv_kind_ops[k], 0, st->cap * sizeof(uint64_t));
	for (c = st->log_head; c; c = c->next)
		c->n = 0;
	st->log_tail = st->log_head;
	hist_init(&st->durable);
	st->pend_n = 0;
	st->end_flushes = 0;
	stats_fast_sync(st);
}

void thread_stats_free(struct thread_stats *st)
{
	struct io_log_chunk *c, *next;
	int k;

	for (c = st->log_head; c; c = next) {
		next = c->next;
		free(c);
	}
	free(st->iv);
	for (k = 0; k < IO_KINDS; k++)
		free(st->iv_kind_ops[k]);
	free(st->pend_t0);
	memory_give(st->mem);
	memset(st, 0, sizeof(*st));
}

static void interval_stats(struct result *res)
{
	double step_s = (double)res->step_ns / 1e9;
	double *rates;
	size_t i;

	res->n_full = res->step_ns ? (size_t)(res->elapsed_ns / res->step_ns) : 0;
	if (res->n_full > res->n_iv)
		res->n_full = res->n_iv;
	res->n_series = res->n_full;
	if (res->n_iv > res->n_full && res->step_ns &&
	    res->elapsed_ns - res->n_full * res->step_ns >= res->step_ns / 10)
		res->n_series++;
	if (res->n_full == 0) {
		res->iv_min = res->iv_max = res->ops_per_s;
		res->iv_sd = 0;
		return;
	}
	rates = malloc(res->n_full * sizeof(*rates));
	if (!rates) {
		res->iv_min = res->iv_max = res->ops_per_s;
		res->iv_sd = 0;
		return;
	}
	for (i = 0; i < res->n_full; i++)
		rates[i] = (double)res->iv_ops[i] / step_s;
	gsl_stats_minmax(&res->iv_min, &res->iv_max, rates, 1, res->n_full);
	res->iv_sd = res->n_full > 1 ? gsl_stats_sd(rates, 1, res->n_full) : 0;
	free(rates);
}

/* The headline from the kinds' counts and histograms: the merge of the
 * data kinds' histograms (never an average of their percentiles), or of
 * every kind's when the result only flushes. */
static void headline_sum(struct result *res)
{
	uint64_t data = 0;
	int k;

	res->ops_total = res->bytes = res->flushes = 0;
	hist_init(&res->hist);
	for (k = 0; k < IO_KINDS; k++) {
		if (IO_IS_FLUSH(k))
			res->flushes += res->ops[k];
		else
			data += res->ops[k];
	}
	/* a flush is an I/O of the headline only where nothing else is */
	res->flush_headline = !data && res->flushes;
	for (k = 0; k < IO_KINDS; k++) {
		if (IO_IS_FLUSH(k) && !res->flush_headline)
			continue;
		res->ops_total += res->ops[k];
		res->bytes += res->op_bytes[k];
		hist_merge(&res->hist, &res->op_hist[k]);
	}
}

static void cpu_add(struct cpu_use *dst, const struct cpu_use *c)
{
	dst->user_us += c->user_us;
	dst->sys_us += c->sys_us;
	dst->nvcsw += c->nvcsw;
	dst->nivcsw += c->nivcsw;
}

/* The threads' CPU into res: each thread's, in order, and their sum;
 * from threads (a workload) or from srcs' own lists (a total). */
static int cpu_merge(struct result *res, const struct result *const *srcs,
		     struct thread_stats *const *threads, size_t n)
{
	size_t i, j, m = 0;

	for (i = 0; i < n; i++)
		m += srcs ? srcs[i]->cpu_nthreads : 1;
	if (!m)
		return 0;
	res->cpu_thread = calloc(m, sizeof(*res->cpu_thread));
	if (!res->cpu_thread)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (!srcs) {
			res->cpu_thread[res->cpu_nthreads++] = threads[i]->cpu;
			continue;
		}
		for (j = 0; j < srcs[i]->cpu_nthreads; j++)
			res->cpu_thread[res->cpu_nthreads++] =
				srcs[i]->cpu_thread[j];
	}
	for (i = 0; i < res->cpu_nthreads; i++)
		cpu_add(&res->cpu, &res->cpu_thread[i]);
	return 0;
}

int stats_merge(struct result *res, struct thread_stats *const *threads,
		size_t n, uint64_t elapsed_ns)
{
	size_t i, j, k, n_iv = 0;

	memset(res, 0, sizeof(*res));
	hist_init(&res->hist);
	hist_init(&res->durable);
	for (j = 0; j < IO_KINDS; j++)
		hist_init(&res->op_hist[j]);
	res->elapsed_ns = elapsed_ns;
	for (i = 0; i < n; i++) {
		size_t used = thread_stats_count(threads[i]) ? threads[i]->cur + 1 : 0;

		if (used > n_iv)
			n_iv = used;
		res->step_ns = threads[i]->step_ns;
	}
	res->n_iv = n_iv;
	if (n_iv) {
		res->iv_ops = calloc(n_iv, sizeof(uint64_t));
		res->iv_bytes = calloc(n_iv, sizeof(uint64_t));
		res->iv_lat_sum = calloc(n_iv, sizeof(uint64_t));
		res->iv_lat_max = calloc(n_iv, sizeof(uint64_t));
		if (!res->iv_ops || !res->iv_bytes || !res->iv_lat_sum ||
		    !res->iv_lat_max)
			return -ENOMEM;
		for (j = 0; j < IO_KINDS; j++) {
			for (i = 0; i < n && !threads[i]->iv_kind_ops[j]; i++)
				;
			if (i == n)
				continue;
			res->iv_kind_ops[j] = calloc(n_iv, sizeof(uint64_t));
			if (!res->iv_kind_ops[j])
				return -ENOMEM;
		}
	}
	for (i = 0; i < n; i++) {
		const struct thread_stats *st = threads[i];
		size_t used = thread_stats_count(st) ? st->cur + 1 : 0;

		if (st->pend_cap)
			res->durable_known = true;
		hist_merge(&res->durable, &st->durable);
		res->end_flushes += st->end_flushes;
		for (j = 0; j < IO_KINDS; j++)
			hist_merge(&res->op_hist[j], &st->hist[j]);
		for (j = 0; j < IO_KINDS; j++) {
			res->ops[j] += thread_stats_ops(st, j);
			res->op_bytes[j] += st->bytes[j];
			if (res->iv_kind_ops[j] && st->iv_kind_ops[j])
				for (k = 0; k < used; k++)
					res->iv_kind_ops[j][k] += st->iv_kind_ops[j][k];
		}
		for (j = 0; j < used; j++) {
			res->iv_ops[j] += st->iv[j].ops;
			res->iv_bytes[j] += st->iv[j].bytes;
			res->iv_lat_sum[j] += st->iv[j].lat_sum;
			if (st->iv[j].lat_max > res->iv_lat_max[j])
				res->iv_lat_max[j] = st->iv[j].lat_max;
		}
	}
	headline_sum(res);
	if (elapsed_ns) {
		res->ops_per_s = (double)res->ops_total * 1e9 / (double)elapsed_ns;
		res->mb_per_s = (double)res->bytes * 1e9 / (double)elapsed_ns /
				1048576.0;
	}
	interval_stats(res);
	return cpu_merge(res, NULL, threads, n);
}

/* Only kind k in res? */
static bool only_kind(const struct result *res, int k)
{
	int j;

	for (j = 0; j < IO_KINDS; j++)
		if (j != k && res->ops[j])
			return false;
	return res->ops[k] != 0;
}

/* Add the parts' interval series into dst (same step, common start). */
static int merge_series(struct result *dst, const struct result *const *srcs,
			size_t n)
{
	size_t i, j, kinds = 0;
	int k;

	for (i = 0; i < n; i++)
		if (srcs[i]->n_iv > dst->n_iv)
			dst->n_iv = srcs[i]->n_iv;
	if (!dst->n_iv)
		return 0;
	dst->iv_ops = calloc(dst->n_iv, sizeof(uint64_t));
	dst->iv_bytes = calloc(dst->n_iv, sizeof(uint64_t));
	dst->iv_lat_sum = calloc(dst->n_iv, sizeof(uint64_t));
	dst->iv_lat_max = calloc(dst->n_iv, sizeof(uint64_t));
	if (!dst->iv_ops || !dst->iv_bytes || !dst->iv_lat_sum ||
	    !dst->iv_lat_max)
		return -ENOMEM;
	for (k = 0; k < IO_KINDS; k++)
		kinds += dst->ops[k] != 0;
	/* a kind's own series when the total mixes kinds and every part with
	 * that kind has its series: its own, or all of it (its only kind) */
	for (k = 0; k < IO_KINDS && kinds > 1; k++) {
		for (i = 0; i < n; i++)
			if (srcs[i]->ops[k] && !srcs[i]->iv_kind_ops[k] &&
			    !only_kind(srcs[i], k))
				break;
		if (i < n || !dst->ops[k])
			continue;
		dst->iv_kind_ops[k] = calloc(dst->n_iv, sizeof(uint64_t));
		if (!dst->iv_kind_ops[k])
			return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		const struct result *s = srcs[i];

		for (j = 0; j < s->n_iv; j++) {
			dst->iv_ops[j] += s->iv_ops[j];
			dst->iv_bytes[j] += s->iv_bytes[j];
			dst->iv_lat_sum[j] += s->iv_lat_sum[j];
			if (s->iv_lat_max[j] > dst->iv_lat_max[j])
				dst->iv_lat_max[j] = s->iv_lat_max[j];
		}
		for (k = 0; k < IO_KINDS; k++) {
			const uint64_t *from = s->iv_kind_ops[k];

			if (!dst->iv_kind_ops[k] || !s->ops[k])
				continue;
			if (!from)
				from = s->iv_ops;	/* its only kind */
			for (j = 0; j < s->n_iv; j++)
				dst->iv_kind_ops[k][j] += from[j];
		}
	}
	return 0;
}

int result_merge(struct result *dst, const struct result *const *srcs,
		 size_t n)
{
	size_t i;
	int k, ret;

	memset(dst, 0, sizeof(*dst));
	hist_init(&dst->hist);
	hist_init(&dst->durable);
	for (k = 0; k < IO_KINDS; k++)
		hist_init(&dst->op_hist[k]);
	for (i = 0; i < n; i++) {
		const struct result *s = srcs[i];

		for (k = 0; k < IO_KINDS; k++) {
			hist_merge(&dst->op_hist[k], &s->op_hist[k]);
			dst->ops[k] += s->ops[k];
			dst->op_bytes[k] += s->op_bytes[k];
		}
		hist_merge(&dst->durable, &s->durable);
		dst->durable_known = dst->durable_known || s->durable_known;
		dst->end_flushes += s->end_flushes;
		if (s->elapsed_ns > dst->elapsed_ns)
			dst->elapsed_ns = s->elapsed_ns;
		if (!i || s->step_ns == dst->step_ns)
			dst->step_ns = s->step_ns;
		else
			dst->step_ns = 0;	/* steps differ: no series */
	}
	headline_sum(dst);
	/* the rates are the parts' own (each over its elapsed time), but a
	 * part that only flushed has no data rate in a total that has data */
	for (i = 0; i < n; i++) {
		if (srcs[i]->flush_headline && !dst->flush_headline)
			continue;
		dst->ops_per_s += srcs[i]->ops_per_s;
		dst->mb_per_s += srcs[i]->mb_per_s;
	}
	if (dst->step_ns) {
		ret = merge_series(dst, srcs, n);
		if (ret) {
			result_free(dst);
			return ret;
		}
	}
	ret = cpu_merge(dst, srcs, NULL, n);
	if (ret) {
		result_free(dst);
		return ret;
	}
	interval_stats(dst);
	return 0;
}

void result_free(struct result *res)
{
	free(res->iv_ops);
	free(res->iv_bytes);
	free(res->iv_lat_sum);
	free(res->iv_lat_max);
	res->iv_ops = res->iv_bytes = res->iv_lat_sum = res->iv_lat_max = NULL;
	for (int k = 0; k < IO_KINDS; k++) {
		free(res->iv_kind_ops[k]);
		res->iv_kind_ops[k] = NULL;
	}
	free(res->cpu_thread);
	res->cpu_thread = NULL;
	res->cpu_nthreads = 0;
}

uint64_t result_data_ios(const struct result *res)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < IO_KINDS; k++)
		if (!IO_IS_FLUSH(k))
			n += res->ops[k];
	return n;
}

double result_cpu_us_per_io(const struct result *res)
{
	uint64_t n = result_data_ios(res);

	return n ? (double)(res->cpu.user_us + res->cpu.sys_us) / (double)n :
		   NAN;
}
