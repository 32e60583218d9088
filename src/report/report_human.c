/* report_human.c - the classic Rebench block, one per workload, '---'
 * between workloads, plus latency, interval and total lines; after several
 * workloads run together, their "All workloads" block.
 */
#include <stdio.h>

#include <math.h>

#include "core/fileset.h"
#include "engines/engine.h"
#include "core/units.h"
#include "core/spec_names.h"
#include "core/plan.h"
#include "report/load_curve.h"
#include "report/report.h"
#include "report/section.h"
#include "report/summary.h"
#include "report/report_target.h"

static void put_human(void *arg, const char *text)
{
	fputs(text, arg);
}

static void print_params(FILE *f, const struct workload *wl)
{
	const struct spec *s = &wl->spec;
	char d[32], b[512], st[32], o[32], l[32], ops[256], mib[32] = "";

	/* -d 5m is the classic 5 MiB of data: say so where it shows */
	if (s->duration.kind == AMOUNT_BYTES && s->duration.bare_m)
		snprintf(mib, sizeof(mib), " (%s of data)",
			 fmt_size_exact(st, sizeof(st), s->duration.value));
	fprintf(f, "[duration: %s%s, threads: %llu, operation: %s, block size: %s%s, workload: %s, dist: %s, direct IO: %s, IO type: %s",
		fmt_duration(d, sizeof(d), &s->duration), mib,
		(unsigned long long)s->threads, spec_op_text(s, ops, sizeof(ops)),
		mix_sizes_text(&s->bsmix, s->bs, b, sizeof(b)),
		s->bs_is_sector ? " (the logical sector: no -b given)" : "",
		s->seq ? "seq" : "rnd",
		s->seq ? "none" : opt_values_name(dist_values, s->dist),
		s->paged ? (s->fio_default_direct ? "off (fio's default)" :
			    "off") : "on",
		engine_name(s));
	if (engine_get(s->engine)->flags & ENGINE_ASYNC) {
		struct engine_words words = { .human = put_human, .arg = f };
		const struct engine_ops *e = engine_get(s->engine);

		fprintf(f, ", queue depth: %llu, batch: %llu",
			(unsigned long long)s->qd, (unsigned long long)s->batch);
		if (e->describe)
			e->describe(&s->eopts[s->engine], &words);
	}
	if (spec_shows_stride(s))
		fprintf(f, ", stride: %s", fmt_size_short(st, sizeof(st), s->stride_eff));
	if (s->seq && s->direction == DIR_BACKWARD)
		fprintf(f, ", direction: backward");
	if (s->op == OP_RW)
		fprintf(f, ", rwmix: %g%% reads", s->rwmix);
	if (s->region_start || s->region_len != wl->tgt.size)
		fprintf(f, ", region: %s+%s", fmt_size_short(o, sizeof(o), s->region_start),
			fmt_size_short(l, sizeof(l), s->region_len));
	if (s->local_fd)
		fprintf(f, ", local fd");
	if (wl->result.warmup_ns)
		fprintf(f, ", warmup: %s", fmt_time(st, sizeof(st), wl->result.warmup_ns));
	if (SPEC_DOES(s, IO_WRITE)) {
		struct sync_policy sp = spec_sync(s);
		char pol[32];

		/* the classic words for the classic pair (dsync, -f's none);
		 * any other --sync policy by its name; and whose default it
		 * is when a fio spelling chose it (options_fio.h) */
		fprintf(f, ", flush: %s%s", sp.mode == SYNC_DSYNC ? "on" :
			sp.mode == SYNC_NONE ? "off" :
			sync_policy_format(&sp, pol, sizeof(pol)),
			s->fio_default_sync && sp.mode == SYNC_NONE ?
			" (fio's default)" : "");
	}
	if (s->fadvise != FADVISE_NONE)
		fprintf(f, ", fadvise: %s",
			opt_values_name(fadvise_values, s->fadvise));
	if (s->cache_bytes)
		fprintf(f, ", cache: %s (memory cgroup)",
			fmt_size_short(o, sizeof(o), s->cache_bytes));
	if (s->readahead_kb != READAHEAD_KEEP)
		fprintf(f, ", read-ahead: %llu KB on %s",
			(unsigned long long)s->readahead_kb, wl->tgt.disk);
	fprintf(f, "]\n");
}

/* --delay: the delays and the calibration their waits used, one line. */
static void print_delay(FILE *f, const struct workload *wl)
{
	char text[DELAY_TEXT_MAX], calib[256];

	if (!delay_any(&wl->spec.delay))
		return;
	delay_format_units(&wl->spec.delay, text, sizeof(text));
	if (wl->result.delay_calib.clock_ns)
		delay_calib_describe(&wl->result.delay_calib, calib, sizeof(calib));
	else
		snprintf(calib, sizeof(calib), "not run");
	fprintf(f, "Delay: %s after each I/O of that kind, in its latency (calibration: %s)\n",
		text, calib);
}

/* The figures a workload and the total share: the headline over data
 * I/Os, then the sections' (each kind, the flushes and the write+flush
 * latency). */
static void print_rates(FILE *f, const struct section_ctx *c)
{
	const struct result *r = c->res;
	struct lat_summary l;
	char rate[32];

	lat_summarize(r, &l);
	fprintf(f, "Operations/sec: %.0f (%s)\n", r->ops_per_s,
		fmt_rate(rate, sizeof(rate), r->mb_per_s));
	fprintf(f, "Latency (us): min %.1f avg %.1f p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f\n",
		l.min, l.avg, l.p50, l.p90, l.p99, l.p999, l.max);
	sections_human(f, HUMAN_LATENCY, c);
}

/* "Total: 4838 I/Os (2419 reads, 2419 writes) and 2419 flushes (1 after
 * the clock stopped), 19816448 bytes in 2.000 s": the count of each data
 * kind when there are several, the flushes apart. */
static void print_total_line(FILE *f, const struct result *r)
{
	unsigned data = result_kinds(r) & IO_DATA_KINDS;
	bool several = !r->flush_headline && (data & (data - 1));
	int k, n = 0;

	fprintf(f, "Total: %llu I/Os", (unsigned long long)r->ops_total);
	for (k = 0; k < IO_KINDS && several; k++)
		if (data & (1U << k))
			fprintf(f, "%s%llu %ss", n++ ? ", " : " (",
				(unsigned long long)r->ops[k], io_kind_name(k));
	if (several)
		fputc(')', f);
	if (r->flushes && !r->flush_headline) {
		fprintf(f, " and %llu flush%s", (unsigned long long)r->flushes,
			r->flushes == 1 ? "" : "es");
		if (r->end_flushes)
			fprintf(f, " (%llu issued after the clock stopped, owed by the last writes)",
				(unsigned long long)r->end_flushes);
	}
	fprintf(f, ", %llu bytes in %.3f s", (unsigned long long)r->bytes,
		(double)r->elapsed_ns / 1e9);
}

static void print_intervals(FILE *f, const struct result *r)
{
	char step[32];

	if (!r->n_full) {
		/* a min and max of one partial interval would be invented;
		 * the few words, rebench(1) the rest */
		fprintf(f, "Ops/sec over intervals: none complete (run shorter than -g %s)\n",
			fmt_time(step, sizeof(step), r->step_ns));
		return;
	}
	fprintf(f, "Ops/sec over %zu interval%s of %s: min %.0f max %.0f stddev %.1f\n",
		r->n_full, r->n_full == 1 ? "" : "s",
		fmt_time(step, sizeof(step), r->step_ns),
		r->iv_min, r->iv_max, r->iv_sd);
}

static void print_one(FILE *f, const struct report *rep,
		      const struct workload *wl, bool interrupted)
{
	const struct result *r = wl->result.stats;
	const struct section_ctx c = { rep, wl, r };
	char size[32], files[PATH_MAX + 64];

	if (wl->files) {	/* many files: the set, each file's size */
		fileset_label(wl, files, sizeof(files));
		fprintf(f, "Benchmarking results for [%s] (%s each)\n", files,
			fmt_size_human(size, sizeof(size), wl->tgt.size));
	} else {
		fprintf(f, "Benchmarking results for [%s] (%s)\n", wl->tgt.path,
			fmt_size_human(size, sizeof(size), wl->tgt.size));
	}
	print_params(f, wl);
	sections_human(f, HUMAN_HEAD, &c);
	print_delay(f, wl);
	report_layout_line(f, &wl->tgt);
	if (!wl->result.have_result) {
		fprintf(f, "No results.\n");
		return;
	}
	print_rates(f, &c);
	print_intervals(f, r);
	sections_human(f, HUMAN_INTERVALS, &c);
	print_total_line(f, r);
	fprintf(f, ", seed %llu%s\n", (unsigned long long)wl->spec.seed,
		interrupted ? " (interrupted)" : "");
	sections_human(f, HUMAN_TOTALS, &c);
	sections_human(f, HUMAN_END, &c);
	if (wl->result.error)
		fprintf(f, "Error: %s\n", wl->result.errmsg);
	sections_human(f, HUMAN_ERROR, &c);
}

/* "All workloads": the total of several run together, shaped like a
 * workload's block (fio's group reporting). */
static void print_total(FILE *f, const struct report *rep)
{
	const struct result *r = rep->total;
	const struct section_ctx c = { rep, NULL, r };

	fprintf(f, "All workloads: %zu, run together\n", rep->n);
	fprintf(f, "[ops/sec and %s: the sum of the workloads'; latency: all their I/Os together]\n",
		rate_unit());
	sections_human(f, HUMAN_HEAD, &c);
	print_rates(f, &c);
	if (r->step_ns)
		print_intervals(f, r);
	else
		fprintf(f, "Ops/sec over intervals: none (the workloads' sample steps, -g, differ)\n");
	sections_human(f, HUMAN_INTERVALS, &c);
	print_total_line(f, r);
	fprintf(f, "%s\n", rep->interrupted ? " (interrupted)" : "");
	sections_human(f, HUMAN_TOTALS, &c);
	sections_human(f, HUMAN_END, &c);
	sections_human(f, HUMAN_ERROR, &c);
}

static bool human_wanted(const struct run_opts *run)
{
	return !run->quiet_stdout && !run->json && !run->silent;
}

/* A sweep prints its table instead of blocks, on standard output also
 * when --output takes a copy (a sweep that printed nothing left the one at
 * the terminal with no result), and its warnings go to standard error. */
static int human_begin(struct report_out *o)
{
	const struct report_scope *sc = o->scope;

	if (sc->study) {	/* its table; warnings on standard error */
		o->uses_stdout = true;
		sc->study->human_head(sc->out, sc->study_arg);
		return 0;
	}
	o->shows_warnings = !sc->sw;
	o->uses_stdout = true;
	if (sc->sw)
		report_table_header(sc->out, sc->sw, sc->table_cols);
	return 0;
}

static int human_report(struct report_out *o, const struct report *r)
{
	const struct report_scope *sc = o->scope;
	size_t k;

	if (sc->sw) {
		report_table_rows(sc->out, sc->sw, r, sc->table_cols);
		return 0;
	}
	if (sc->study) {
		sc->study->human_row(sc->out, sc->study_arg, r);
		return 0;
	}
	for (k = 0; k < r->n; k++) {
		if (k)
			fprintf(sc->out, "---\n");
		print_one(sc->out, r, &r->wls[k], r->interrupted);
	}
	if (r->total) {
		fprintf(sc->out, "---\n");
		print_total(sc->out, r);
	}
	sections_run_human(sc->out, r);
	if (r->extra)
		r->extra->human(sc->out, r->extra_arg);
	return 0;
}

/* A --rate sweep's knee, under its table. */
static int human_end(struct report_out *o)
{
	if (o->scope->curve)
		load_curve_human(o->scope->out, o->scope->curve);
	return 0;
}

const struct report_writer report_human_writer = {
	.name = "human",
	.wanted = human_wanted,
	.begin = human_begin,
	.report = human_report,
	.end = human_end,
};
