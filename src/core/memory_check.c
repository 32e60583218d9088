/* memory_check.c - what a run's workloads will need, checked against the
 * budget (memory.h) before the run: memory.c keeps the budget itself, which
 * the statistics draw on, apart from the workloads it sizes. */
#include "core/memory_check.h"

#include <errno.h>
#include <stdio.h>

#include "core/memory.h"
#include "core/units.h"
#include "core/workload.h"

/* Engine state per slot of -q (ring entries, aiocbs, unit records): a
 * bound, not a measurement; io_uring's SQE+CQE are 80 bytes, an aiocb 168. */
#define PER_SLOT_BYTES 256
#define SERIES_ENTRY_BYTES (4 * sizeof(uint64_t))	/* ops, bytes, latency sum, max */

/* Entries thread_stats_grow() allocates for need: 64 doubled until it fits. */
static uint64_t series_cap(uint64_t need)
{
	uint64_t cap = 64;

	while (cap < need)
		cap *= 2;
	return cap;
}

struct estimate {
	uint64_t buffers, series, log, other;
};

static void estimate(const struct workload *wl, struct estimate *e)
{
	const struct spec *s = &wl->spec;
	bool async = wl->run.eng && (wl->run.eng->flags & ENGINE_ASYNC);
	uint64_t slots = async ? s->qd : 1, step = s->sample_ns ? s->sample_ns : NSEC_PER_SEC;
	uint64_t need = s->time_limit_ns ? s->time_limit_ns / step + 4 : 64;

	/* the first -g 0 log chunk, or a byte-limited run's whole log */
	uint64_t ios = s->ops_limit ? s->ops_limit / s->threads + 1 : IO_LOG_CHUNK;

	unsigned kinds = spec_kinds(s);
	bool two_sets = SPEC_READS_AND_WRITES(s);

	/* a stream that reads and writes has a second set for its writes
	 * (prepare.c), each of the largest size */
	e->buffers = s->threads * slots * s->bs * (two_sets ? 2 : 1);
	/* each thread's series, the merged one and its rates */
	/* ... with a count per operation kind when the stream mixes them */
	e->series = (s->threads + 1) * series_cap(need) *
		    (SERIES_ENTRY_BYTES + (__builtin_popcount(kinds) > 1 ?
		     __builtin_popcount(kinds) * sizeof(uint64_t) : 0)) +
		    need * sizeof(double);
	e->log = s->sample_ns ? 0 : s->threads * ((ios + IO_LOG_CHUNK - 1) /
			IO_LOG_CHUNK) * sizeof(struct io_log_chunk);
	/* a histogram per operation kind in each thread and in the result */
	e->other = (s->threads + 1) * (IO_KINDS + 1) * sizeof(struct hist) +
		   s->threads * (sizeof(struct worker) + slots * PER_SLOT_BYTES);
}

uint64_t memory_estimate(const struct workload *wl)
{
	struct estimate e;

	estimate(wl, &e);
	return e.buffers + e.series + e.log + e.other;
}

int memory_check(const struct workload *wls, size_t n)
{
	uint64_t total = 0, big = 0, held = memory_held();
	const struct workload *worst = NULL;
	struct estimate e, we = { 0 };
	char a[32], b[32], c[32];
	size_t k;

	for (k = 0; k < n; k++) {
		uint64_t t = memory_estimate(&wls[k]);

		total += t;
		if (t > big) {
			big = t;
			worst = &wls[k];
		}
	}
	total += held;
	if (total <= memory_budget() || !worst)
		return 0;
	estimate(worst, &we);
	e = we;
	if (held >= e.series && held >= e.buffers && held >= e.log)
		spec_error(&worst->spec, "this run needs about %s of memory, more than rebench's budget of %s: %s of it is held already by what was loaded before the run (a replay's log) or kept from earlier runs (--repeat's runs that may be the median run); raise REBENCH_MEMORY_BUDGET, or give a shorter log or fewer runs",
			   fmt_size_human(a, sizeof(a), total), memory_budget_text(),
			   fmt_size_human(b, sizeof(b), held));
	else if (e.series >= e.buffers && e.series >= e.log)
		spec_error(&worst->spec, "this run needs about %s of memory, more than rebench's budget of %s: %s of it is the time series, %llu intervals of -g %s in each of %llu threads; use a larger -g, fewer threads (-c) or a shorter -d",
			   fmt_size_human(a, sizeof(a), total), memory_budget_text(),
			   fmt_size_human(b, sizeof(b), e.series),
			   (unsigned long long)(worst->spec.time_limit_ns /
				(worst->spec.sample_ns ? worst->spec.sample_ns : NSEC_PER_SEC)),
			   fmt_time(c, sizeof(c), worst->spec.sample_ns ? worst->spec.sample_ns : NSEC_PER_SEC),
			   (unsigned long long)worst->spec.threads);
	else if (e.buffers >= e.log)
		spec_error(&worst->spec, "this run needs about %s of memory, more than rebench's budget of %s: %s of it is I/O buffers (-q x -b x -c); use a smaller -q, -b or -c",
			   fmt_size_human(a, sizeof(a), total), memory_budget_text(),
			   fmt_size_human(b, sizeof(b), e.buffers));
	else
		spec_error(&worst->spec, "this run needs about %s of memory, more than rebench's budget of %s: %s of it is the per-I/O log of -g 0 (32 bytes per I/O); use -g N for a time series, or a smaller -d",
			   fmt_size_human(a, sizeof(a), total), memory_budget_text(),
			   fmt_size_human(b, sizeof(b), e.log));
	return -E2BIG;
}
