/* characterize_measure.c - one run of a --characterize test and what is
 * read back from it (characterize_measure.h).
 */
#include "characterize/characterize_measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/delay.h"
#include "core/options.h"
#include "core/validate.h"

/* The 95% interval of a median from a histogram of n values: the values
 * at ranks n/2 -+ 0.98 sqrt(n) (the normal approximation to the binomial
 * order statistics), widened to the edges of their buckets (a value is
 * known to its bucket, 1/64 of it, and a median of values in one bucket
 * is not known better). */
void char_median(const struct hist *h, double *p50, double *lo, double *hi)
{
	double n = (double)h->count, d = n > 0 ? 98.0 / sqrt(n) : 50;
	uint64_t l = (uint64_t)hist_percentile(h, d < 50 ? 50 - d : 0);
	uint64_t u = (uint64_t)hist_percentile(h, d < 50 ? 50 + d : 100);
	uint64_t blo, bw;

	*p50 = hist_percentile(h, 50) / 1000.0;
	hist_bucket_range(hist_index(l), &blo, &bw);
	*lo = (double)blo / 1000.0;
	hist_bucket_range(hist_index(u), &blo, &bw);
	*hi = (double)(blo + bw) / 1000.0;
}

uint64_t char_count_below(const struct hist *h, uint64_t ns)
{
	unsigned i, end = hist_index(ns);
	uint64_t n = 0;

	for (i = 0; i < end && i < HIST_BUCKETS; i++)
		n += h->buckets[i];
	return n;
}

void char_wilson(uint64_t k, uint64_t n, double *lo, double *hi)
{
	const double z = 1.96;
	double p, c, w;

	if (!n) {
		*lo = 0;
		*hi = 1;
		return;
	}
	p = (double)k / (double)n;
	c = (p + z * z / (2.0 * n)) / (1 + z * z / n);
	w = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / (1 + z * z / n);
	*lo = fmax(0, c - w);
	*hi = fmin(1, c + w);
}

bool char_time_for(const struct char_ctx *c, struct char_figure *g)
{
	if (!c->deadline_ns || delay_now_ns() < c->deadline_ns)
		return true;
	if (g && !g->known)
		snprintf(g->basis, sizeof(g->basis),
			 "not measured: the time budget (--max-duration) ran out before this test");
	return false;
}

void char_fmt_u64(char *buf, size_t len, uint64_t v)
{
	snprintf(buf, len, "%llu", (unsigned long long)v);
}

const char *char_seed(struct char_ctx *c, char *buf, size_t len)
{
	snprintf(buf, len, "%u", ++c->seeds);
	return buf;
}

int char_measure(struct char_ctx *c, const char *const *set, bool log,
		 struct char_run *m, struct hist *acc)
{
	struct workload *wl;
	bool interrupted;
	int status;
	size_t i;

	cleanup_all(c->ctx);
	if (add_workload(c->ctx, c->base))
		return EXIT_BAD_ARGS;
	wl = &c->ctx->wls[0];
	free(wl->spec.output);	/* --output is the characterization's */
	wl->spec.output = NULL;
	for (i = 0; set[i]; i += 2)
		if (spec_set(&wl->spec, set[i], set[i + 1], &c->pctx))
			return EXIT_BAD_ARGS;
	if (validate_all(c->ctx, c->base))
		return EXIT_BAD_ARGS;
	/* -g 0's per-I/O log without its file: the test reads it here */
	if (log)
		wl->spec.sample_ns = 0;
	if (c->precision_pct > 0) {
		struct run_opts ro = *c->run;

		ro.precision_pct = c->precision_pct;
		status = prepare_and_run(c->ctx, &ro, &interrupted);
	} else {
		status = prepare_and_run(c->ctx, c->run, &interrupted);
	}
	if (interrupted)
		c->r->interrupted = true;
	if (status != EXIT_OK)
		return status;
	if (!wl->result.have_result || !wl->result.stats->ops_total) {
		fprintf(stderr, "rebench: --characterize: a run on %s did no I/O\n",
			wl->tgt.path);
		return EXIT_IO_FAILED;
	}
	m->wl = wl;
	m->ios = wl->result.stats->ops_total;
	char_median(&wl->result.stats->hist, &m->p50, &m->p50_lo, &m->p50_hi);
	if (acc)
		hist_merge(acc, &wl->result.stats->hist);
	ci_of_result(wl->result.stats, 0, &m->ops);
	return EXIT_OK;
}

uint64_t char_drive_offset(const struct characterize_result *r,
			   uint64_t stride, uint64_t disk_off)
{
	return (disk_off + stride - r->disk_offset % stride) % stride;
}

int char_reads_at(struct char_ctx *c, uint64_t len, uint64_t stride,
		  uint64_t disk_off, uint64_t n, struct char_run *m,
		  struct hist *acc)
{
	char b[24], s[24], o[24], d[32], sd[16];
	const char *const set[] = {
		"operation", "read", "workload", "rnd", "block-size", b,
		"stride", s, "offset", o, "duration", d, "sample-step", "1s",
		"seed", sd, NULL
	};

	char_fmt_u64(b, sizeof(b), len);
	char_fmt_u64(s, sizeof(s), stride);
	char_fmt_u64(o, sizeof(o), char_drive_offset(c->r, stride, disk_off));
	snprintf(d, sizeof(d), "%llub", (unsigned long long)(len * n));
	char_seed(c, sd, sizeof(sd));
	return char_measure(c, set, false, m, acc);
}
