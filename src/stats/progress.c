/* progress.c - see progress.h.  The lines are redrawn in place with the
 * cursor moved up over them, and erased at the end of the run. */
#include "stats/progress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/plan.h"
#include "core/units.h"
#include "core/workload.h"

#define PROGRESS_LINE 79	/* columns when the terminal does not say */
#define PROGRESS_MAX_LINES 16	/* workloads shown; a screen holds no more */
#define PIPE_DELAY_NS (NSEC_PER_SEC / 5)

/* The lines of a run context's runs: what its modes set, and what one
 * run has drawn. */
struct progress {
	bool enabled;
	char context[512];
	const struct workload *pw;	/* the run's, NULL between runs */
	size_t pn, drawn;
	uint64_t t_start, t_last;
	uint64_t last_ops[PROGRESS_MAX_LINES];
	struct hist snap;
	size_t width;		/* columns a line may take */
	uint64_t first_draw;	/* no line before this time */
};

void progress_enable(const struct run_ctx *ctx, bool on)
{
	if (ctx->progress)
		ctx->progress->enabled = on;
}

void progress_context(const struct run_ctx *ctx, const char *text)
{
	if (ctx->progress)
		snprintf(ctx->progress->context,
			 sizeof(ctx->progress->context), "%s",
			 text ? text : "");
}

static uint64_t load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* I/Os so far, and the latency histogram so far merged into snap: the
 * headline's kinds (stats.h), so a flush is not an I/O here either. */
static uint64_t sample(struct hist *snap, const struct workload *wl)
{
	uint64_t ops = 0;
	unsigned t, k, i;

	memset(snap, 0, sizeof(*snap));
	snap->min = UINT64_MAX;
	for (t = 0; t < wl->spec.threads; t++) {
		const struct thread_stats *st = &wl->run.workers[t].st;
		uint64_t v;

		for (k = 0; k < IO_KINDS; k++)
			if (st->headline & (1U << k))
				ops += load(&st->hist[k].count);
		for (k = 0; k < IO_KINDS; k++) {
			const struct hist *h = &st->hist[k];

			if (!(st->headline & (1U << k)))
				continue;
			for (i = 0; i < HIST_BUCKETS; i++)
				snap->buckets[i] += load(&h->buckets[i]);
			snap->count += load(&h->count);
			v = load(&h->min);
			if (v < snap->min)
				snap->min = v;
			v = load(&h->max);
			if (v > snap->max)
				snap->max = v;
		}
	}
	return ops;
}

/* Columns a line may take: one less than the terminal's, so the cursor
 * never wraps to a line of its own. */
static size_t line_width(void)
{
	struct winsize ws;

	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 1)
		return ws.ws_col - 1U;
	return PROGRESS_LINE;
}

static bool stdout_is_pipe(void)
{
	struct stat st;

	return !fstat(STDOUT_FILENO, &st) &&
	       (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

static void put_line(const struct progress *p, const char *line)
{
	fprintf(stderr, "\r\033[K%.*s", (int)p->width, line);
}

/* Move to the first line drawn, to draw them again or erase them. */
static void rewind_lines(const struct progress *p)
{
	if (p->drawn > 1)
		fprintf(stderr, "\033[%zuA", p->drawn - 1);
}

/* The run's start: nothing drawn yet (see progress.h on a pipe). */
static void progress_begin(void *arg, const struct workload *wls, size_t n,
			   uint64_t start_ns)
{
	struct progress *p = arg;

	p->pw = wls;
	p->pn = n < PROGRESS_MAX_LINES ? n : PROGRESS_MAX_LINES;
	p->drawn = 0;
	p->t_start = p->t_last = start_ns;
	memset(p->last_ops, 0, sizeof(p->last_ops));
	if (!p->enabled)
		return;
	/* what was printed comes first: out now, and through a pipe given
	 * time to reach the terminal before a line is drawn */
	fflush(stdout);
	p->width = line_width();
	p->first_draw = start_ns + (stdout_is_pipe() ? PIPE_DELAY_NS : 0);
	if (p->context[0] && p->first_draw == start_ns) {
		put_line(p, p->context);
		p->drawn = 1;
		fflush(stderr);
	}
}

static void draw(struct progress *p, size_t k, uint64_t now, double dt)
{
	const struct workload *wl = &p->pw[k];
	const struct spec *s = &wl->spec;
	char line[256], a[32], b[32];
	uint64_t ops = sample(&p->snap, wl);
	double rate = dt > 0 ? (double)(ops - p->last_ops[k]) / dt : 0;
	size_t len;

	p->last_ops[k] = ops;
	if (s->time_limit_ns)
		len = (size_t)snprintf(line, sizeof(line), "[%s/%s]",
			fmt_time(a, sizeof(a), (now - p->t_start) / NSEC_PER_SEC * NSEC_PER_SEC),
			fmt_time(b, sizeof(b), s->time_limit_ns));
	else
		len = (size_t)snprintf(line, sizeof(line), "[%3.0f%%]",
			s->ops_limit ? 100.0 * (double)ops / (double)s->ops_limit : 0);
	snprintf(line + len, sizeof(line) - len,
		 " %s: %.0f ops/s, %.1f %s, p99 %.1f us so far",
		 s->target, rate, rate_value(rate * (double)s->bs / 1048576.0),
		 rate_unit(),
		 p->snap.count ? hist_percentile(&p->snap, 99) / 1e3 : 0.0);
	put_line(p, line);
}

/* From the main thread's wait loop; prints at most once a second. */
static void progress_tick(struct progress *p, uint64_t now_ns)
{
	bool second = now_ns - p->t_last >= NSEC_PER_SEC;
	double dt;
	size_t k;

	if (!p->enabled || !p->pw || now_ns < p->first_draw)
		return;
	if (!second) {
		/* a context line held back for a pipe: its time has come */
		if (p->context[0] && !p->drawn) {
			fflush(stdout);
			put_line(p, p->context);
			p->drawn = 1;
			fflush(stderr);
		}
		return;
	}
	dt = (double)(now_ns - p->t_last) / 1e9;
	p->t_last = now_ns;
	fflush(stdout);
	rewind_lines(p);
	if (p->context[0])
		put_line(p, p->context);
	for (k = 0; k < p->pn; k++) {
		if (k || p->context[0])
			fputc('\n', stderr);
		draw(p, k, now_ns, dt);
	}
	p->drawn = p->pn + (p->context[0] ? 1 : 0);
	fflush(stderr);
}

/* Erase the lines, so the report starts on a clean screen. */
static void progress_end(void *arg)
{
	struct progress *p = arg;

	if (p->enabled && p->drawn) {
		rewind_lines(p);
		fprintf(stderr, "\r\033[J");
		fflush(stderr);
	}
	p->drawn = 0;
	p->pw = NULL;
}

static bool progress_watch_tick(void *arg, struct workload *wls, size_t n,
				uint64_t now, uint64_t elapsed, bool stopping)
{
	(void)wls;
	(void)n;
	(void)elapsed;
	(void)stopping;
	progress_tick(arg, now);
	return false;		/* it only shows the run */
}

static const struct run_watcher progress_watcher = {
	.start = progress_begin,
	.tick = progress_watch_tick,
	.stop = progress_end,
	.release = free,
};

int progress_watch(struct run_ctx *ctx)
{
	ctx->progress = run_watch_new(&ctx->env.watch, &progress_watcher,
				      sizeof(struct progress),
				      "the progress line");
	return ctx->progress ? 0 : -ENOMEM;
}
