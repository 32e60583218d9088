/* stats.c - growing the per-thread series, and merging threads into a
 * workload result with its interval statistics (GSL).
 */
#include "stats.h"
#include "memory.h"

#include <errno.h>
#include <gsl/gsl_statistics_double.h>
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
	st->step_ns = step_ns;
	st->next_edge = step_ns;
	st->log_ios = log_ios;
	cap = expected_ns ? (size_t)(expected_ns / step_ns) + 4 : 64;
	return thread_stats_grow(st, cap);
}

/* Bytes per interval: ops, latency sum and latency max. */
#define SERIES_BYTES (3 * sizeof(uint64_t))

int thread_stats_grow(struct thread_stats *st, size_t need)
{
	size_t cap = st->cap ? st->cap : 64;
	uint64_t *a, *b, *c;

	while (cap < need)
		cap *= 2;
	/* every byte of statistics counts against the memory budget */
	if (!memory_take((cap - st->cap) * SERIES_BYTES))
		return -ENOMEM;
	st->mem += (cap - st->cap) * SERIES_BYTES;
	a = realloc(st->iv_ops, cap * sizeof(*a));
	if (a)
		st->iv_ops = a;
	b = realloc(st->iv_lat_sum, cap * sizeof(*b));
	if (b)
		st->iv_lat_sum = b;
	c = realloc(st->iv_lat_max, cap * sizeof(*c));
	if (c)
		st->iv_lat_max = c;
	if (!a || !b || !c)
		return -ENOMEM;
	memset(a + st->cap, 0, (cap - st->cap) * sizeof(*a));
	memset(b + st->cap, 0, (cap - st->cap) * sizeof(*b));
	memset(c + st->cap, 0, (cap - st->cap) * sizeof(*c));
	st->cap = cap;
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
	memset(st->ops, 0, sizeof(st->ops));
	st->cur = 0;
	st->next_edge = st->step_ns;
	memset(st->iv_ops, 0, st->cap * sizeof(*st->iv_ops));
	memset(st->iv_lat_sum, 0, st->cap * sizeof(*st->iv_lat_sum));
	memset(st->iv_lat_max, 0, st->cap * sizeof(*st->iv_lat_max));
	for (c = st->log_head; c; c = c->next)
		c->n = 0;
	st->log_tail = st->log_head;
}

void thread_stats_free(struct thread_stats *st)
{
	struct io_log_chunk *c, *next;

	for (c = st->log_head; c; c = next) {
		next = c->next;
		free(c);
	}
	free(st->iv_ops);
	free(st->iv_lat_sum);
	free(st->iv_lat_max);
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

int stats_merge(struct result *res, struct thread_stats *const *threads,
		size_t n, uint64_t bs, uint64_t elapsed_ns)
{
	size_t i, j, n_iv = 0;

	memset(res, 0, sizeof(*res));
	hist_init(&res->hist);
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
		res->iv_lat_sum = calloc(n_iv, sizeof(uint64_t));
		res->iv_lat_max = calloc(n_iv, sizeof(uint64_t));
		if (!res->iv_ops || !res->iv_lat_sum || !res->iv_lat_max)
			return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		const struct thread_stats *st = threads[i];
		size_t used = thread_stats_count(st) ? st->cur + 1 : 0;

		for (j = 0; j < IO_KINDS; j++)
			hist_merge(&res->op_hist[j], &st->hist[j]);
		for (j = 0; j < IO_KINDS; j++)
			res->ops[j] += st->ops[j];
		for (j = 0; j < used; j++) {
			res->iv_ops[j] += st->iv_ops[j];
			res->iv_lat_sum[j] += st->iv_lat_sum[j];
			if (st->iv_lat_max[j] > res->iv_lat_max[j])
				res->iv_lat_max[j] = st->iv_lat_max[j];
		}
	}
	/* the total is the merge of the kinds' histograms, never an
	 * average of their percentiles */
	for (j = 0; j < IO_KINDS; j++) {
		res->ops_total += res->ops[j];
		hist_merge(&res->hist, &res->op_hist[j]);
	}
	res->bytes = res->ops_total * bs;
	if (elapsed_ns) {
		res->ops_per_s = (double)res->ops_total * 1e9 / (double)elapsed_ns;
		res->mb_per_s = (double)res->bytes * 1e9 / (double)elapsed_ns /
				1048576.0;
	}
	interval_stats(res);
	return 0;
}

void result_free(struct result *res)
{
	free(res->iv_ops);
	free(res->iv_lat_sum);
	free(res->iv_lat_max);
	res->iv_ops = res->iv_lat_sum = res->iv_lat_max = NULL;
}
