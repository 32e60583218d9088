/* report_json.c - --json: one document with the tool version, kernel, and
 * per workload the target geometry, every resolved parameter, the seed,
 * results, interval statistics and warnings.  Field list: rebench(1).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/utsname.h>

#include "core/json.h"
#include "core/spec_names.h"
#include "core/plan.h"
#include "report/version.h"
#include "report/load_curve.h"
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
	const struct delay_calib *c = &wl->result.delay_calib;
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
	json_num(j, "warmup_s", (double)wl->result.warmup_ns / 1e9);
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

/* A latency histogram, whole: what another rebench needs to merge it
 * exactly with others (--hosts).  Buckets as [index, count] pairs of the
 * non-empty ones; hist.h defines the index of a value in ns. */
void report_json_hist(struct json *j, const char *key, const struct hist *h)
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
void report_json_lat(struct json *j, const struct lat_summary *l)
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

/* A workload's results (wl), or the total's (wl NULL). */
static void put_results(struct json *j, const struct report *rep,
			const struct result *r, const struct workload *wl)
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
	sections_json(j, JSON_RATES, &c);
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
	report_json_hist(j, "latency_hist", &r->hist);
	sections_json(j, JSON_LATENCY, &c);
	sections_json(j, JSON_FLUSHES, &c);
	sections_json(j, JSON_CPU, &c);
	put_intervals(j, r);
	sections_json(j, JSON_INTERVALS, &c);
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

static void put_workload(struct json *j, const struct report *rep,
			 const struct workload *wl)
{
	const struct section_ctx c = { rep, wl, wl->result.have_result ? wl->result.stats : NULL };

	json_obj_begin(j, NULL);
	json_u64(j, "workload", wl->index + 1);
	json_str(j, "status", workload_status_name(workload_status(wl, rep->interrupted)));
	report_json_target(j, &wl->tgt, NULL);
	put_params(j, wl);
	if (wl->result.have_result)
		put_results(j, rep, wl->result.stats, wl);
	else
		json_null(j, "results");
	sections_json(j, JSON_AFTER_RESULTS, &c);
	json_str(j, "error", wl->result.error ? wl->result.errmsg : NULL);
	sections_json(j, JSON_ERROR, &c);
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
	const struct section_ctx c = { r, NULL, r->total };

	if (!r->total) {
		json_null(j, "total");
		return;
	}
	json_obj_begin(j, "total");
	json_u64(j, "workloads", r->n);
	json_str(j, "status", workload_status_name(report_total_status(r)));
	put_results(j, r, r->total, NULL);
	sections_json(j, JSON_AFTER_RESULTS, &c);
	sections_json(j, JSON_ERROR, &c);	/* the total has no error */
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
		if (o->scope->curve)
			load_curve_json(j, o->scope->curve);
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
