/* rate.c - --rate's parser, the threads' schedules and their figures
 * merged (rate.h). */
#include "core/rate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"

int rate_parse(const char *text, struct rate_spec *r, char *err, size_t len)
{
	const char *slash = strstr(text, "/s");
	char *end;
	double v;

	memset(r, 0, sizeof(*r));
	if (slash && !slash[2]) {
		char size[64];
		size_t n = (size_t)(slash - text);
		uint64_t b;

		if (n >= sizeof(size))
			n = sizeof(size) - 1;
		memcpy(size, text, n);
		size[n] = '\0';
		if (parse_size(size, &b) || !b) {
			snprintf(err, len, "expected a rate in bytes a second above 0, a size with k, m or g (powers of 1024) and /s, such as 50m/s, or I/Os a second such as 1000 or 2k");
			return -EINVAL;
		}
		r->bytes = b;
		return 0;
	}
	if (text[0] == '-' || text[0] == '+') {
		snprintf(err, len, "a rate is above 0: I/Os a second (1000, 2k, 1.5m) or bytes a second (50m/s)");
		return -EINVAL;
	}
	v = strtod(text, &end);
	if (end == text || !isfinite(v)) {
		snprintf(err, len, "expected I/Os a second (1000, 2k, 1.5m: k and m are powers of 1000) or bytes a second (50m/s)");
		return -EINVAL;
	}
	if (*end == 'k' || *end == 'K')
		v *= 1e3, end++;
	else if (*end == 'm' || *end == 'M')
		v *= 1e6, end++;
	if (*end) {
		snprintf(err, len, "expected I/Os a second (1000, 2k, 1.5m: k and m are powers of 1000) or bytes a second with /s (50m/s)");
		return -EINVAL;
	}
	if (!(v > 0)) {
		snprintf(err, len, "a rate of 0 I/Os a second would never start an I/O; give a rate above 0 (1000, 2k), or leave --rate out for as fast as the device goes");
		return -EINVAL;
	}
	if (v > RATE_MAX_OPS) {
		snprintf(err, len, "above the %.0f I/Os a second (%.0f ns apart) that rebench's schedule can keep; leave --rate out for as fast as the device goes",
			 RATE_MAX_OPS, 1e9 / RATE_MAX_OPS);
		return -EINVAL;
	}
	r->ops = v;
	return 0;
}

double rate_ops(const struct rate_spec *r, uint64_t bs)
{
	if (r->bytes)
		return bs ? (double)r->bytes / (double)bs : 0;
	return r->ops;
}

void rate_describe(const struct rate_spec *r, uint64_t bs, char *buf,
		   size_t len)
{
	if (r->bytes)
		snprintf(buf, len, "%.6g MiB/s (%.6g ops/s of %llu bytes)",
			 (double)r->bytes / 1048576.0, rate_ops(r, bs),
			 (unsigned long long)bs);
	else
		snprintf(buf, len, "%.6g ops/s", r->ops);
}

const char *rate_arrival_name(int arrival)
{
	return arrival == ARRIVAL_POISSON ? "poisson" : "fixed";
}

/* ns as whole ns and 2^-32 ns */
static void split_ns(double ns, uint64_t *whole, uint64_t *frac)
{
	double w = floor(ns);

	*whole = (uint64_t)w;
	*frac = (uint64_t)((ns - w) * 4294967296.0);
	if (*frac >> RATE_FRAC)
		*frac = (1ULL << RATE_FRAC) - 1;
}

void rate_sched_init(struct rate_sched *s, double ops, unsigned threads,
		     unsigned index, bool poisson, uint64_t seed,
		     uint64_t base)
{
	/* between two I/Os of the workload: ops/s in long double, so that a
	 * thread's interval is split exactly enough */
	long double gap = 1e9L / (long double)ops;
	uint64_t off, off_frac;

	memset(s, 0, sizeof(*s));
	s->interval_ns = (double)(gap * threads);
	s->step_ns = (uint64_t)(gap * threads);
	s->step_frac = (uint64_t)((gap * threads - (long double)s->step_ns) *
				  4294967296.0L);
	s->poisson = poisson;
	/* the threads interleaved: thread i starts i gaps after thread 0 */
	split_ns((double)(gap * index), &off, &off_frac);
	s->next_ns = base + off;
	s->next_frac = off_frac;
	prng_seed(&s->prng, seed ^ 0x7261746573636864ULL, index);
}

void rate_exp_step(struct rate_sched *s)
{
	/* u in (0, 1]: 53 random bits, never 0 */
	double u = ((double)(prng_next(&s->prng) >> 11) + 1.0) / 9007199254740992.0;

	split_ns(-log(u) * s->interval_ns, &s->step_ns, &s->step_frac);
}

void rate_thread_reset(struct rate_thread *t)
{
	hist_init(&t->intended);
	t->ios = t->late = t->late_sum_ns = t->late_max_ns = 0;
	t->first_ns = t->last_ns = t->first_sub_ns = t->last_sub_ns = 0;
	t->lag_end_ns = 0;
}

void rate_merge(struct rate_result *r, struct rate_thread *const *t,
		size_t n, uint64_t ops_total, uint64_t elapsed_ns)
{
	size_t i;

	hist_init(&r->intended);
	r->ios = r->late = r->late_sum_ns = r->late_max_ns = 0;
	r->lag_end_ns = 0;
	r->scheduled = r->submitted = 0;
	r->behind = false;
	for (i = 0; i < n; i++) {
		const struct rate_thread *x = t[i];

		hist_merge(&r->intended, &x->intended);
		r->ios += x->ios;
		r->late += x->late;
		r->late_sum_ns += x->late_sum_ns;
		if (x->late_max_ns > r->late_max_ns)
			r->late_max_ns = x->late_max_ns;
		if (x->lag_end_ns > r->lag_end_ns)
			r->lag_end_ns = x->lag_end_ns;
		if (x->ios > 1 && x->last_ns > x->first_ns)
			r->scheduled += (double)(x->ios - 1) * 1e9 /
					(double)(x->last_ns - x->first_ns);
		if (x->ios > 1 && x->last_sub_ns > x->first_sub_ns)
			r->submitted += (double)(x->ios - 1) * 1e9 /
					(double)(x->last_sub_ns - x->first_sub_ns);
	}
	r->interval_ns = n && r->asked > 0 ? 1e9 * (double)n / r->asked : 0;
	r->achieved = elapsed_ns ? (double)ops_total * 1e9 / (double)elapsed_ns : 0;
	r->behind = r->lag_end_ns > r->interval_ns;
	/* a Poisson schedule's own mean moves by 1/sqrt(I/Os): held to it.
	 * Behind at the end counts for a fixed schedule only: there a
	 * device that keeps up starts every I/O on time, while Poisson's
	 * bursts leave a queue of random length at any moment (a model at
	 * 62% of its capacity ended 5 intervals behind, its rate achieved) */
	if (r->arrival == ARRIVAL_POISSON)
		r->met = r->achieved >= 0.99 * (r->scheduled > 0 ? r->scheduled :
							       r->asked);
	else
		r->met = !r->behind && r->achieved >= 0.99 * r->asked;
	r->present = true;
}
