/* progress.c - see progress.h.  The lines are redrawn in place with the
 * cursor moved up over them, and erased at the end of the run. */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "units.h"
#include "workload.h"

#define PROGRESS_LINE 79
#define PROGRESS_MAX_LINES 16	/* workloads shown; a screen holds no more */

static bool enabled;
static const struct workload *pw;
static size_t pn, drawn;
static uint64_t t_start, t_last;
static uint64_t last_ops[PROGRESS_MAX_LINES];
static struct hist snap;

void progress_enable(bool on)
{
	enabled = on;
}

static uint64_t load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* I/Os so far, and the latency histogram so far merged into snap. */
static uint64_t sample(const struct workload *wl)
{
	uint64_t ops = 0;
	unsigned t, k, i;

	memset(&snap, 0, sizeof(snap));
	snap.min = UINT64_MAX;
	for (t = 0; t < wl->spec.threads; t++) {
		const struct thread_stats *st = &wl->workers[t].st;
		uint64_t v;

		for (k = 0; k < IO_KINDS; k++)
			ops += load(&st->ops[k]);
		for (k = 0; k < IO_KINDS; k++) {
			const struct hist *h = &st->hist[k];

			for (i = 0; i < HIST_BUCKETS; i++)
				snap.buckets[i] += load(&h->buckets[i]);
			snap.count += load(&h->count);
			v = load(&h->min);
			if (v < snap.min)
				snap.min = v;
			v = load(&h->max);
			if (v > snap.max)
				snap.max = v;
		}
	}
	return ops;
}

void progress_begin(const struct workload *wls, size_t n, uint64_t start_ns)
{
	pw = wls;
	pn = n < PROGRESS_MAX_LINES ? n : PROGRESS_MAX_LINES;
	drawn = 0;
	t_start = t_last = start_ns;
	memset(last_ops, 0, sizeof(last_ops));
}

static void draw(size_t k, uint64_t now, double dt)
{
	const struct workload *wl = &pw[k];
	const struct spec *s = &wl->spec;
	char line[256], a[32], b[32];
	uint64_t ops = sample(wl);
	double rate = dt > 0 ? (double)(ops - last_ops[k]) / dt : 0;
	size_t len;

	last_ops[k] = ops;
	if (s->time_limit_ns)
		len = (size_t)snprintf(line, sizeof(line), "[%s/%s]",
			fmt_time(a, sizeof(a), (now - t_start) / NSEC_PER_SEC * NSEC_PER_SEC),
			fmt_time(b, sizeof(b), s->time_limit_ns));
	else
		len = (size_t)snprintf(line, sizeof(line), "[%3.0f%%]",
			s->ops_limit ? 100.0 * (double)ops / (double)s->ops_limit : 0);
	len += (size_t)snprintf(line + len, sizeof(line) - len,
		" %s: %.0f ops/s, %.1f MB/s, p99 %.1f us so far",
		s->target, rate, rate * (double)s->bs / 1048576.0,
		snap.count ? hist_percentile(&snap, 99) / 1e3 : 0.0);
	if (len > PROGRESS_LINE)
		line[PROGRESS_LINE] = '\0';
	fprintf(stderr, "\r\033[K%s", line);
}

void progress_tick(uint64_t now_ns)
{
	double dt;
	size_t k;

	if (!enabled || !pw || now_ns - t_last < NSEC_PER_SEC)
		return;
	dt = (double)(now_ns - t_last) / 1e9;
	t_last = now_ns;
	if (drawn > 1)
		fprintf(stderr, "\033[%zuA", drawn - 1);
	for (k = 0; k < pn; k++) {
		if (k)
			fputc('\n', stderr);
		draw(k, now_ns, dt);
	}
	drawn = pn;
	fflush(stderr);
}

void progress_end(void)
{
	if (enabled && drawn) {
		if (drawn > 1)
			fprintf(stderr, "\033[%zuA", drawn - 1);
		fprintf(stderr, "\r\033[J");
		fflush(stderr);
	}
	drawn = 0;
	pw = NULL;
}
