/* replay_collect.c - a replay's figures from its log and its workload's
 * run (replay_result.h), and what the run's own report must not say of a
 * replay. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace/replay_dir.h"
#include "trace/replay_result.h"
#include "trace/stream_trace.h"
#include "core/workload.h"

/* Grouped: a group's wall time, from the clock where its first operation
 * was taken to the one where the next type's (or the end) was; a group
 * that a stop cut short ends where its worker stopped. */
static uint64_t group_ns(const struct worker *w, int k)
{
	const struct trace_cursor *c = &w->stream.tc;
	uint64_t end = c->group_t1[k];

	if (!c->group_t0[k])
		return 0;	/* never reached */
	if (end < c->group_t0[k])
		end = c->start_ns + w->t_end;
	return end > c->group_t0[k] ? end - c->group_t0[k] : 0;
}

/* Timed: the workers' lateness together. */
static void add_lateness(struct replay_result *rr, const struct workload *wl,
			 uint32_t nworkers)
{
	uint64_t sum = 0, max = 0;
	uint32_t i;

	for (i = 0; i < nworkers; i++) {
		const struct trace_cursor *c = &wl->run.workers[i].stream.tc;

		rr->issued += c->issued;
		rr->late_operations += c->late;
		sum += c->late_sum_ns;
		if (c->late_max_ns > max)
			max = c->late_max_ns;
	}
	rr->lateness_mean_us = rr->issued ?
		(double)sum / (double)rr->issued / 1e3 : 0.0;
	rr->lateness_max_us = (double)max / 1e3;
	rr->kept_up = rr->late_operations == 0;
}

void replay_collect(struct replay_result *rr, const struct stream_trace *t,
		    const struct workload *wl, const struct replay_dir *d)
{
	int k;

	rr->format = t->format;
	rr->digest = t->digest;
	rr->files = t->nfiles;
	rr->map_bytes = t->total;
	rr->directory = d != NULL;
	rr->recorded = t->files;
	rr->placed = d ? d->paths : NULL;
	rr->operations = t->n;
	rr->recorded_threads = t->nthreads;
	rr->workers = t->nworkers;
	rr->aligned = t->aligned;
	rr->skipped_failed = t->skipped_failed;
	rr->skipped_empty = t->skipped_empty;
	delay_format(&wl->spec.delay, rr->delay, sizeof(rr->delay));
	for (k = 0; k < IO_KINDS; k++) {
		struct replay_op_result *o = &rr->per_op[k];

		o->in_log = t->count[k] > 0;
		if (!wl->result.have_result)
			continue;
		o->operations = wl->result.stats->ops[k];
		o->bytes = wl->result.stats->op_bytes[k];
		o->ns = rr->grouped ? group_ns(&wl->run.workers[0], k) :
				      wl->result.stats->op_hist[k].sum;
	}
	if (rr->timed)
		add_lateness(rr, wl, t->nworkers);
}

void replay_forget_passes(struct workload *wl)
{
	int i;

	wl->result.passes.known = false;
	if (wl->result.wrap_warning < 0)
		return;
	free(wl->result.warnings[wl->result.wrap_warning]);
	for (i = wl->result.wrap_warning; i + 1 < wl->result.nwarn; i++)
		wl->result.warnings[i] = wl->result.warnings[i + 1];
	wl->result.nwarn--;
	wl->result.wrap_warning = -1;
}

void replay_say_failed_line(struct workload *wl, const struct stream_trace *t,
			    const struct replay_dir *d, const char *log)
{
	const struct trace_op *o;
	unsigned i;

	for (i = 0; i < wl->spec.threads && !wl->run.workers[i].error; i++)
		;
	if (i == wl->spec.threads || wl->run.workers[i].err_kind < 0 ||
	    wl->run.workers[i].stream.tc.next == t->ops + t->wbegin[i])
		return;
	o = wl->run.workers[i].stream.tc.next - 1;
	workload_warn(wl, "the failed operation is line %" PRIu32 " of %s: a %s of %s%s%s",
		      o->line, log, io_kind_name(o->kind),
		      o->file == TRACE_NO_FILE ? "a file never read or written" :
						 t->files[o->file].path,
		      d ? ", replayed on " : "",
		      !d ? "" : o->file == TRACE_NO_FILE ? d->dir :
							  d->paths[o->file]);
}
