/* report_json.c - --json: one document with the tool version, kernel, and
 * per workload the target geometry, every resolved parameter, the seed,
 * results, interval statistics and warnings.  Field list: rebench(1).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "core/json.h"
#include "core/spec_names.h"
#include "core/plan.h"
#include "stats/repeat.h"
#include "report/version.h"
#include "report/report.h"
#include "report/section.h"
#include "report/summary.h"
#include "core/workload.h"
#include "report/report_target.h"
#include "core/runinfo.h"
#include "core/sweep_order.h"
#include "core/sweep.h"

/* --delay: the delays in ns (delay_format(), "" without), and the
 * calibration the waits used (null without). */
static void put_delay(struct json *j, const struct workload *wl)
{
	const struct delay_calib *c = &wl->delay_calib;
	char text[DELAY_TEXT_MAX];

	delay_format(&wl->spec.delay, text, sizeof(text));
	json_str(j, "delay", text);
	if (!delay_any(&wl->spec.delay) || !c->clock_ns) {
		json_null(j, "delay_calibration");
		return;
	}
	json_obj_begin(j, "delay_calibration");
	json_u64(j, "clock_ns", c->clock_ns);
	json_u64(j, "spin_min_ns", c->spin_min_ns);
	json_u64(j, "sleep_min_ns", c->sleep_min_ns);
	json_u64(j, "sleep_over_ns", c->sleep_over_ns);
	json_u64(j, "spin_below_ns", c->spin_below_ns);
	json_obj_end(j);
}

static void put_flag(void *arg, const char *key, bool on)
{
	json_bool(arg, key, on);
}

static void put_params(struct json *j, const struct workload *wl)
{
	const struct spec *s = &wl->spec;
	struct engine_words words = { .flag = put_flag, .arg = j };
	char d[32], ops[256];

	json_obj_begin(j, "parameters");
	json_str(j, "operation", spec_op_text(s, ops, sizeof(ops)));
	if (s->op == OP_RW)
		json_num(j, "rwmix_read_pct", s->rwmix);
	report_json_mix_params(j, s);
	json_str(j, "workload", s->seq ? "seq" : "rnd");
	json_u64(j, "block_size", s->bs);
	json_u64(j, "stride", s->stride_eff);
	json_str(j, "direction", s->direction == DIR_BACKWARD ? "backward" : "forward");
	json_str(j, "dist", s->seq ? NULL : opt_values_name(dist_values, s->dist));
	json_str(j, "dist_param", s->dist_arg);
	json_num(j, "sigma_pct", s->sigma);
	if (s->center >= 0)
		json_num(j, "center_pct", s->center);
	else
		json_null(j, "center_pct");
	json_bool(j, "scatter", s->scatter);
	json_str(j, "engine", engine_name(s));
	json_u64(j, "queue_depth", s->qd);
	json_u64(j, "batch", s->batch);
	engine_describe_all(s->engine, &s->eopts[s->engine], &words);
	json_u64(j, "threads", s->threads);
	json_bool(j, "local_fd", s->local_fd);
	json_str(j, "duration", fmt_duration(d, sizeof(d), &s->duration));
	if (s->time_limit_ns)
		json_num(j, "duration_s", (double)s->time_limit_ns / 1e9);
	else
		json_u64(j, "duration_ios", s->ops_limit);
	json_num(j, "warmup_s", (double)wl->warmup_ns / 1e9);
	json_u64(j, "region_offset", s->region_start);
	json_u64(j, "region_length", s->region_len);
	json_u64(j, "slots", s->slots);
	json_bool(j, "direct", !s->paged);
	if (SPEC_DOES(s, IO_WRITE)) {
		struct sync_policy sp = spec_sync(s);
		char pol[32];

		json_bool(j, "flush", sp.mode != SYNC_NONE);
		json_str(j, "sync", sync_policy_format(&sp, pol, sizeof(pol)));
	} else {
		json_null(j, "flush");
		json_null(j, "sync");
	}
	/* whose defaults the options not given took (options_fio.h) */
	json_str(j, "defaults", s->fio_spelled ? "fio" : "rebench");
	json_bool(j, "atime", s->atime);
	json_bool(j, "append", s->append);
	json_str(j, "fadvise", s->fadvise == FADVISE_NONE ? NULL :
		 opt_values_name(fadvise_values, s->fadvise));
	if (s->readahead_kb != READAHEAD_KEEP)
		json_u64(j, "readahead_kb", s->readahead_kb);
	else
		json_null(j, "readahead_kb");
	/* --cache: the memory cgroup's limit, or null */
	if (s->cache_bytes)
		json_u64(j, "cache_bytes", s->cache_bytes);
	else
		json_null(j, "cache_bytes");
	json_num(j, "sample_step_ms", (double)s->sample_ns / 1e6);
	json_num(j, "pause_us", (double)s->pause_ns / 1e3);
	put_delay(j, wl);
	json_str(j, "output", s->output);
	json_u64(j, "seed", s->seed);
	json_u64(j, "line", s->line);
	json_obj_end(j);
}

static void put_shares(struct json *j, const char *key, const uint64_t *c,
		       uint64_t n)
{
	int i;

	json_arr_begin(j, key);
	for (i = 0; i < DIST_SLICES; i++)
		json_num(j, NULL, (double)c[i] / (double)n);
	json_arr_end(j);
}

static void put_fit(struct json *j, const struct fit *f)
{
	int i;

	if (!f || !f->present) {
		json_null(j, "distribution");
		return;
	}
	json_obj_begin(j, "distribution");
	json_str(j, "name", f->name);
	json_u64(j, "ios", f->n);
	json_u64(j, "slices", DIST_SLICES);
	json_str(j, "fit_space", f->rank_space ? "rank" : "offset");
	put_shares(j, "achieved", f->slices, f->n);
	if (f->rank_space)
		put_shares(j, "achieved_rank", f->fitted, f->n);
	json_arr_begin(j, "intended");
	for (i = 0; i < DIST_SLICES; i++)
		json_num(j, NULL, f->intended[i]);
	json_arr_end(j);
	json_num(j, "chi2", f->chi2);
	json_u64(j, "dof", f->dof);
	json_num(j, "p_value", f->p_value);
	json_num(j, "ks_d", f->ks_d);
	json_obj_end(j);
}

/* A latency histogram, whole: what another rebench needs to merge it
 * exactly with others (--hosts).  Buckets as [index, count] pairs of the
 * non-empty ones; hist.h defines the index of a value in ns. */
static void put_hist(struct json *j, const char *key, const struct hist *h)
{
	unsigned i;

	json_obj_begin(j, key);
	json_str(j, "unit", "ns");
	json_u64(j, "sub_bits", HIST_SUB_BITS);
	json_u64(j, "count", h->count);
	json_u64(j, "min", h->count ? h->min : 0);
	json_u64(j, "max", h->max);
	json_u64(j, "sum", h->sum);
	json_arr_begin(j, "buckets");
	for (i = 0; i < HIST_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		json_arr_begin(j, NULL);
		json_u64(j, NULL, i);
		json_u64(j, NULL, h->buckets[i]);
		json_arr_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* A latency object's figures, min to max, in microseconds. */
static void put_lat(struct json *j, const struct lat_summary *l)
{
	json_num(j, "min", l->min);
	json_num(j, "avg", l->avg);
	json_num(j, "p50", l->p50);
	json_num(j, "p90", l->p90);
	json_num(j, "p99", l->p99);
	json_num(j, "p99_9", l->p999);
	json_num(j, "p99_99", l->p9999);
	json_num(j, "max", l->max);
}

/* results.operations: each kind that occurred, with its own latency. */
static void put_operations(struct json *j, const struct report *rep,
			   const struct result *res)
{
	unsigned kinds = result_kinds(res);
	struct op_summary o;
	int k;

	json_obj_begin(j, "operations");
	for (k = 0; k < IO_KINDS; k++) {
		if (!(kinds & (1U << k)))
			continue;
		report_op_summarize(rep, res, k, &o);
		json_obj_begin(j, io_kind_name(k));
		json_u64(j, "ios", o.ios);
		json_u64(j, "bytes", o.bytes);
		json_num(j, "ops_per_s", o.ops_per_s);
		json_num(j, "mib_per_s", o.mb_per_s);
		json_obj_begin(j, "latency_us");
		put_lat(j, &o.lat);
		json_obj_end(j);
		put_hist(j, "latency_hist", &res->op_hist[k]);
		json_obj_end(j);
	}
	json_obj_end(j);
}

/* The interval statistics and series; null for a total whose workloads
 * had different steps (no common series). */
static void put_intervals(struct json *j, const struct result *r)
{
	size_t i;

	if (!r->step_ns) {
		json_null(j, "intervals");
		return;
	}
	json_obj_begin(j, "intervals");
	json_num(j, "step_ms", (double)r->step_ns / 1e6);
	json_u64(j, "complete", r->n_full);
	if (r->n_full) {
		json_num(j, "ops_per_s_min", r->iv_min);
		json_num(j, "ops_per_s_max", r->iv_max);
		json_num(j, "ops_per_s_stddev", r->iv_sd);
	} else {	/* no complete interval: nothing to spread */
		json_null(j, "ops_per_s_min");
		json_null(j, "ops_per_s_max");
		json_null(j, "ops_per_s_stddev");
	}
	json_arr_begin(j, "ios");
	for (i = 0; i < r->n_series; i++)
		json_u64(j, NULL, r->iv_ops[i]);
	json_arr_end(j);
	json_obj_end(j);
}

/* A sequential workload's passes over its region (pattern.h); null for
 * a random one, -a, and the total. */
static void put_passes(struct json *j, const struct workload *wl)
{
	const struct seq_passes *p = wl ? &wl->passes : NULL;

	if (!p || !p->known) {
		json_null(j, "passes");
		json_null(j, "pass_ios");
		json_null(j, "pass_bytes");
		return;
	}
	json_num(j, "passes", p->count);
	if (p->ios)
		json_u64(j, "pass_ios", p->ios);
	else
		json_null(j, "pass_ios");
	if (p->bytes)
		json_u64(j, "pass_bytes", p->bytes);
	else
		json_null(j, "pass_bytes");
}

/* The flushes, apart from the data I/Os of "ios" and "latency_us" (those
 * of a workload that only flushes are its "ios"), and the write+flush
 * latency (stats.h): null where it was not measured. */
static void put_flushes(struct json *j, const struct result *r)
{
	struct lat_summary l;

	json_u64(j, "flushes", r->flushes);
	json_u64(j, "end_flushes", r->end_flushes);
	json_bool(j, "flushes_in_ios", r->flush_headline);
	if (!r->durable_known || !r->durable.count) {
		json_null(j, "write_flush_latency_us");
		return;
	}
	lat_summarize_hist(&r->durable, &l);
	json_obj_begin(j, "write_flush_latency_us");
	json_u64(j, "writes", r->durable.count);
	put_lat(j, &l);
	json_obj_end(j);
}

/* A workload's results (fit: its distribution, wl: its sizes and passes),
 * or the total's (fit and wl NULL: "distribution", "sizes" and "passes"
 * are null). */
static void put_results(struct json *j, const struct report *rep,
			const struct result *r, const struct fit *fit,
			const struct workload *wl)
{
	const struct section_ctx c = { rep, wl, r };
	struct lat_summary l;

	lat_summarize(r, &l);
	json_obj_begin(j, "results");
	json_num(j, "elapsed_s", (double)r->elapsed_ns / 1e9);
	json_u64(j, "ios", r->ops_total);
	json_u64(j, "reads", r->ops[IO_READ]);
	json_u64(j, "writes", r->ops[IO_WRITE]);
	json_u64(j, "trims", r->ops[IO_TRIM]);
	json_u64(j, "bytes", r->bytes);
	json_num(j, "ops_per_s", r->ops_per_s);
	json_num(j, "mib_per_s", r->mb_per_s);
	put_passes(j, wl);
	sections_json(j, JSON_PASSES, &c);
	json_obj_begin(j, "latency_us");
	json_num(j, "min", l.min);
	json_num(j, "avg", l.avg);
	json_num(j, "p50", l.p50);
	json_num(j, "p90", l.p90);
	json_num(j, "p99", l.p99);
	json_num(j, "p99_9", l.p999);
	json_num(j, "max", l.max);
	json_num(j, "p99_99", l.p9999);
	json_num(j, "error_bound_pct", 100.0 / (1 << HIST_SUB_BITS));
	json_obj_end(j);
	put_hist(j, "latency_hist", &r->hist);
	put_flushes(j, r);
	sections_json(j, JSON_FLUSHES, &c);
	put_operations(j, rep, r);
	put_intervals(j, r);
	sections_json(j, JSON_INTERVALS, &c);
	put_fit(j, fit);
	if (wl)
		report_json_sizes(j, wl);
	else
		json_null(j, "sizes");
	sections_json(j, JSON_RESULTS_END, &c);
	json_obj_end(j);
}

void report_json_head(struct json *j)
{
	struct utsname u;

	uname(&u);
	json_obj_begin(j, NULL);
	json_str(j, "tool", "rebench");
	json_str(j, "version", REBENCH_VERSION);
	json_u64(j, "json_version", JSON_VERSION);
	json_str(j, "kernel", u.release);
	runinfo_json(j);
	/* --start-at: when the measurement was to start and did (realtime) */
	if (runinfo_start_at()->at_ns) {
		const struct run_start_at *sa = runinfo_start_at();

		json_obj_begin(j, "start_at");
		json_u64(j, "requested_ns", sa->at_ns);
		json_u64(j, "started_ns", sa->real_ns);
		json_u64(j, "late_ns", sa->late_ns);
		json_obj_end(j);
	}
}

/* --repeat: every run's figure and their spread, per metric (the total
 * has no seeds of its own: null), and the run the results are (from 1,
 * with its seed; version 7): the median run by ops/s, or runs + 1 when
 * that run did not complete. */
static void put_repeat(struct json *j, const struct repeat_data *rd,
		       bool seeds)
{
	size_t r;
	int m;

	json_obj_begin(j, "repeat");
	json_u64(j, "runs", rd->runs);
	if (seeds) {
		json_arr_begin(j, "seeds");
		for (r = 0; r < rd->runs; r++)
			json_u64(j, NULL, rd->seed0 + r);
		json_arr_end(j);
	} else {
		json_null(j, "seeds");
	}
	json_u64(j, "shown_run", rd->shown + 1);
	if (seeds)
		json_u64(j, "shown_seed", rd->seed0 + rd->shown);
	else
		json_null(j, "shown_seed");
	for (m = 0; m < RM_COUNT; m++) {
		const struct repeat_stat *st = &rd->stat[m];

		json_obj_begin(j, repeat_key(m));
		json_arr_begin(j, "values");
		for (r = 0; r < rd->runs; r++)
			json_num(j, NULL, rd->v[m][r]);
		json_arr_end(j);
		json_num(j, "median", st->median);
		json_num(j, "trimmed_mean", st->trimmed_mean);
		json_num(j, "mean", st->mean);
		json_num(j, "stddev", st->stddev);
		json_num(j, "cv_pct", st->cv_pct);
		if (st->n >= 2) {
			json_num(j, "ci95_low", st->ci_low);
			json_num(j, "ci95_high", st->ci_high);
		} else {
			json_null(j, "ci95_low");
			json_null(j, "ci95_high");
		}
		json_obj_end(j);
	}
	json_obj_end(j);
}

static void put_workload(struct json *j, const struct report *rep,
			 const struct workload *wl)
{
	int i;

	json_obj_begin(j, NULL);
	json_u64(j, "workload", wl->index + 1);
	json_str(j, "status", workload_status_name(workload_status(wl, rep->interrupted)));
	report_json_target(j, &wl->tgt, NULL);
	put_params(j, wl);
	if (wl->have_result)
		put_results(j, rep, &wl->res, &wl->fit, wl);
	else
		json_null(j, "results");
	sections_json(j, JSON_AFTER_RESULTS, &(struct section_ctx){ rep, wl,
		      wl->have_result ? &wl->res : NULL });
	if (wl->rep)
		put_repeat(j, wl->rep, true);
	else
		json_null(j, "repeat");
	json_str(j, "error", wl->error ? wl->errmsg : NULL);
	json_arr_begin(j, "warnings");
	for (i = 0; i < wl->nwarn; i++)
		json_str(j, NULL, wl->warnings[i]);
	json_arr_end(j);
	json_obj_end(j);
}

static bool json_wanted(const struct run_opts *run)
{
	return !run->quiet_stdout && run->json;
}

/* The document's head; a sweep's "runs" stay open until the end. */
static int json_begin(struct report_out *o)
{
	const struct sweep *sw = o->scope->sw;
	struct json *j = malloc(sizeof(*j));
	size_t a;

	if (!j) {
		fprintf(stderr, "rebench: --json: out of memory\n");
		return -ENOMEM;
	}
	o->priv = j;
	o->shows_warnings = true;
	o->uses_stdout = true;
	o->open_line = true;	/* a comma may follow the last value */
	json_init(j, o->scope->out);
	report_json_head(j);
	if (o->scope->study)
		o->scope->study->json_begin(j, o->scope->study_arg);
	if (!sw)
		return 0;
	json_obj_begin(j, "sweep");
	json_arr_begin(j, "parameters");
	for (a = 0; a < sw->naxes; a++)
		json_str(j, NULL, sw->axes[a].opt->name);
	json_arr_end(j);
	json_u64(j, "points", sw->npoints);
	/* --order: the runs below are in the order they ran */
	if (o->scope->order && o->scope->order->shuffled) {
		json_str(j, "order", "shuffled");
		json_u64(j, "order_seed", o->scope->order->seed);
	} else {
		json_str(j, "order", "given");
		json_null(j, "order_seed");
	}
	json_arr_begin(j, "runs");
	return 0;
}

/* "total": all workloads together when several ran, else null. */
static void put_total(struct json *j, const struct report *r)
{
	if (!r->total) {
		json_null(j, "total");
		return;
	}
	json_obj_begin(j, "total");
	json_u64(j, "workloads", r->n);
	json_str(j, "status", workload_status_name(report_total_status(r)));
	put_results(j, r, r->total, NULL, NULL);
	sections_json(j, JSON_AFTER_RESULTS,
		      &(struct section_ctx){ r, NULL, r->total });
	if (r->total_rep)
		put_repeat(j, r->total_rep, false);
	else
		json_null(j, "repeat");
	json_obj_end(j);
}

static void put_workloads(struct json *j, const struct report *r)
{
	size_t k;

	json_bool(j, "interrupted", r->interrupted);
	/* the run's wall time, preparation and --repeat runs included */
	json_num(j, "seconds", r->seconds);
	json_arr_begin(j, "workloads");
	for (k = 0; k < r->n; k++)
		put_workload(j, r, &r->wls[k]);
	json_arr_end(j);
	put_total(j, r);
	sections_run_json(j, r);
	if (r->extra)
		r->extra->json(j, r->extra_arg);
}

/* A sweep point: its number and values, then what a run has. */
static void put_point(struct json *j, const struct sweep *sw,
		      const struct report *r)
{
	size_t idx[SWEEP_MAX_AXES], a;
	char c[64];

	sweep_indices(sw, r->point, idx);
	json_obj_begin(j, NULL);
	json_u64(j, "point", r->point + 1);
	json_obj_begin(j, "values");
	for (a = 0; a < sw->naxes; a++) {
		report_sweep_cell(&sw->axes[a], idx[a], c, sizeof(c));
		if (sw->axes[a].numeric)
			json_num(j, sw->axes[a].opt->name, strtod(c, NULL));
		else
			json_str(j, sw->axes[a].opt->name, c);
	}
	json_obj_end(j);
	put_workloads(j, r);
	json_obj_end(j);
}

static int json_report(struct report_out *o, const struct report *r)
{
	if (o->scope->sw) {
		put_point(o->priv, o->scope->sw, r);
	} else if (o->scope->study) {
		json_obj_begin(o->priv, NULL);
		o->scope->study->json_item(o->priv, o->scope->study_arg, r->point);
		put_workloads(o->priv, r);
		json_obj_end(o->priv);
	} else {
		put_workloads(o->priv, r);
	}
	return 0;
}

static int json_end(struct report_out *o)
{
	struct json *j = o->priv;

	if (o->scope->sw || o->scope->study) {
		json_arr_end(j);	/* "runs" or "tests" */
		json_obj_end(j);
	}
	json_obj_end(j);
	free(j);
	o->priv = NULL;
	return 0;
}

const struct report_writer report_json_writer = {
	.name = "json",
	.wanted = json_wanted,
	.begin = json_begin,
	.report = json_report,
	.end = json_end,
};
