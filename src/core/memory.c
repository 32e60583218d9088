/* memory.c - see memory.h. */
#include "core/memory.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "core/validate.h"
#include "core/workload.h"

/* Engine state per slot of -q (ring entries, aiocbs, unit records): a
 * bound, not a measurement; io_uring's SQE+CQE are 80 bytes, an aiocb 168. */
#define PER_SLOT_BYTES 256
#define SERIES_ENTRY_BYTES (4 * sizeof(uint64_t))	/* ops, bytes, latency sum, max */

static uint64_t budget;
static char budget_text[96];
static _Atomic uint64_t used;

static uint64_t mem_available(void)
{
	char line[256];
	unsigned long long kib = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	fclose(f);
	return (uint64_t)kib * 1024;
}

uint64_t memory_budget(void)
{
	const char *env = getenv("REBENCH_MEMORY_BUDGET");
	char a[32], b[32];
	uint64_t avail;

	if (budget)
		return budget;
	if (env && *env && !parse_size(env, &budget) && budget) {
		snprintf(budget_text, sizeof(budget_text), "%s (REBENCH_MEMORY_BUDGET)",
			 fmt_size_human(a, sizeof(a), budget));
		return budget;
	}
	avail = mem_available();
	budget = avail ? avail / 2 : (uint64_t)1 << 30;
	snprintf(budget_text, sizeof(budget_text), "%s (half of the %s available)",
		 fmt_size_human(a, sizeof(a), budget),
		 fmt_size_human(b, sizeof(b), avail));
	return budget;
}

const char *memory_budget_text(void)
{
	memory_budget();
	return budget_text;
}

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
	bool async = wl->eng && (wl->eng->flags & ENGINE_ASYNC);
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

bool memory_take(uint64_t bytes)
{
	uint64_t before = atomic_fetch_add(&used, bytes);

	if (before + bytes > memory_budget()) {
		atomic_fetch_sub(&used, bytes);
		return false;
	}
	return true;
}

void memory_give(uint64_t bytes)
{
	atomic_fetch_sub(&used, bytes);
}

bool memory_take_held(uint64_t *held, uint64_t bytes)
{
	if (!memory_take(bytes))
		return false;
	*held += bytes;
	return true;
}

void memory_give_held(uint64_t *held, uint64_t bytes)
{
	memory_give(bytes);
	*held -= bytes;
}

void *memory_realloc(void *p, size_t old_bytes, size_t new_bytes,
		     uint64_t *held, int *err)
{
	void *q;

	if (!memory_take_held(held, new_bytes - old_bytes)) {
		*err = -E2BIG;
		return NULL;
	}
	q = realloc(p, new_bytes);
	if (!q) {
		memory_give_held(held, new_bytes - old_bytes);
		*err = -ENOMEM;
	}
	return q;
}

uint64_t memory_held(void)
{
	return atomic_load(&used);
}

int memory_refuse_log(char *buf, size_t len, const char *log,
		      unsigned long line, const char *what)
{
	char a[32];

	/* twice the budget, in MiB: a value REBENCH_MEMORY_BUDGET takes */
	snprintf(buf, len, "%s: at line %lu the log needs more than rebench's memory budget of %s: %s hold %s so far (see MEMORY in rebench(1)); raise the budget (REBENCH_MEMORY_BUDGET=%llum, for example), or give a shorter log",
		 log, line, memory_budget_text(), what,
		 fmt_size_human(a, sizeof(a), memory_held()),
		 (unsigned long long)((2 * memory_budget() + (1 << 20) - 1) >> 20));
	return -E2BIG;
}
