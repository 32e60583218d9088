/* report_human.c - the classic Rebench block, one per workload, '---'
 * between workloads, plus latency, interval and total lines; after several
 * workloads run together, their "All workloads" block.
 */
#include <stdio.h>

#include <math.h>
#include <string.h>

#include "engine.h"
#include "options.h"
#include "precision.h"
#include "replay_result.h"
#include "report.h"
#include "report_target.h"
#include "suite.h"

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
		s->seq ? "none" : opt_value_name(options_find_long("dist"), s->dist),
		s->paged ? (s->fio_default_direct ? "off (fio's default)" :
			    "off") : "on",
		engine_name(s));
	if (engine_get(s->engine)->flags & ENGINE_ASYNC)
		fprintf(f, ", queue depth: %llu, batch: %llu%s%s",
			(unsigned long long)s->qd, (unsigned long long)s->batch,
			s->sqpoll ? ", sqpoll" : "", s->hipri ? ", hipri" : "");
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
	if (wl->warmup_ns)
		fprintf(f, ", warmup: %s", fmt_time(st, sizeof(st), wl->warmup_ns));
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
			opt_value_name(options_find_long("fadvise"), s->fadvise));
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
	if (wl->delay_calib.clock_ns)
		delay_calib_describe(&wl->delay_calib, calib, sizeof(calib));
	else
		snprintf(calib, sizeof(calib), "not run");
	fprintf(f, "Delay: %s after each I/O of that kind, in its latency (calibration: %s)\n",
		text, calib);
}

/* The verdict in words: "not-durable" is the token of -n and JSON. */
static const char *dur_words(int verdict)
{
	return verdict == DUR_NOT_DURABLE ? "not durable" : dur_name(verdict);
}

/* A write run's verdict (durability.h) and why. */
static void print_durability(FILE *f, const struct dur_verdict *d)
{
	if (d->verdict == DUR_NA)
		return;
	fprintf(f, "Durability: %s: %s\n", dur_words(d->verdict), d->reason);
}

/* --repeat: the spread over the runs; the block above is the last run.
 * The total has no seed of its own. */
static void print_repeat(FILE *f, const struct repeat_data *rd, bool seeds)
{
	size_t i, r;

	if (seeds)
		fprintf(f, "Over %zu runs (seeds %llu..%llu; the figures above are the last run):\n",
			rd->runs, rd->seed0, rd->seed0 + rd->runs - 1);
	else
		fprintf(f, "Over %zu runs (the figures above are the last run):\n",
			rd->runs);
	for (i = 0; i < REPEAT_SHOWN; i++) {
		const struct repeat_stat *st = &rd->stat[repeat_shown[i]];
		const char *fmt = repeat_shown[i] == RM_OPS ? "%.0f" : "%.1f";
		char med[32], tm[32], lo[32], hi[32];

		snprintf(med, sizeof(med), fmt, st->median);
		snprintf(tm, sizeof(tm), fmt, st->trimmed_mean);
		fprintf(f, "  %-11s median %s, trimmed mean %s, stddev %.1f (CV %.1f%%)",
			repeat_label(repeat_shown[i]), med, tm, st->stddev, st->cv_pct);
		if (st->n >= 2) {
			snprintf(lo, sizeof(lo), fmt, st->ci_low);
			snprintf(hi, sizeof(hi), fmt, st->ci_high);
			fprintf(f, ", 95%% CI %s..%s", lo, hi);
		}
		fputc('\n', f);
	}
	fprintf(f, "  runs ops/s:");
	for (r = 0; r < rd->runs; r++)
		fprintf(f, " %.0f", rd->v[RM_OPS][r]);
	fputc('\n', f);
}

/* With more than one kind of operation, each gets its own line: a blend
 * of 3 us reads and 500 us writes describes neither. */
static void print_per_op(FILE *f, const struct report *rep,
			 const struct result *res)
{
	unsigned kinds = result_kinds(res);
	/* names in one column, as wide as the longest shown, at least
	 * "write" */
	int width = 5, w;
	struct op_summary o;
	char mb[32];
	int k;

	if (!kinds || !(kinds & (kinds - 1)))
		return;		/* one kind: the lines above are its own */
	for (k = 0; k < IO_KINDS; k++) {
		w = (int)strlen(io_kind_name(k));
		if (kinds & (1U << k) && w > width)
			width = w;
	}
	for (k = 0; k < IO_KINDS; k++) {
		if (!(kinds & (1U << k)))
			continue;
		report_op_summarize(rep, res, k, &o);
		/* a flush moves no data of its own: no MB/sec */
		if (IO_IS_FLUSH(k))
			mb[0] = '\0';
		else
			snprintf(mb, sizeof(mb), " (%.2f MB/sec)", o.mb_per_s);
		fprintf(f, "  %-*s %llu I/Os, %.0f ops/sec%s; latency (us): min %.1f avg %.1f p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f p99.99 %.1f max %.1f\n",
			width, io_kind_name(k), (unsigned long long)o.ios,
			o.ops_per_s, mb, o.lat.min, o.lat.avg,
			o.lat.p50, o.lat.p90, o.lat.p99, o.lat.p999,
			o.lat.p9999, o.lat.max);
	}
}

/* The figures a workload and the total share. */
static void print_rates(FILE *f, const struct report *rep,
			const struct result *r)
{
	struct lat_summary l;

	lat_summarize(r, &l);
	fprintf(f, "Operations/sec: %.0f (%.2f MB/sec)\n", r->ops_per_s, r->mb_per_s);
	fprintf(f, "Latency (us): min %.1f avg %.1f p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f\n",
		l.min, l.avg, l.p50, l.p90, l.p99, l.p999, l.max);
	print_per_op(f, rep, r);
}

/* "Device reads: 1234 (0.98 per read request), 4.8 MiB, loop3": what
 * reached the device during the run (devstat.h), per read request when
 * the workload read, else per request. */
static void print_device(FILE *f, const struct report *rep,
			 const struct result *r, const struct workload *wl)
{
	struct dev_reads d;
	char size[32];
	bool reads = r->ops[IO_READ] > 0;

	report_dev_reads(rep, wl, &d);
	if (!d.known) {
		fprintf(f, "Device reads: unknown (%s)\n", d.why);
		return;
	}
	fprintf(f, "Device reads: %llu", (unsigned long long)d.reads);
	if (r->ops_total)
		fprintf(f, " (%.2f per %srequest)",
			devstat_per(&d, reads ? r->ops[IO_READ] : r->ops_total),
			reads ? "read " : "");
	fprintf(f, ", %s, %s\n", fmt_size_human(size, sizeof(size), d.bytes),
		d.name);
}

static void print_intervals(FILE *f, const struct result *r)
{
	char step[32];

	if (!r->n_full) {
		/* a min and max of one partial interval would be invented */
		fprintf(f, "Ops/sec over intervals: none complete (the run took %.3f s, less than one interval of %s; -g sets the interval)\n",
			(double)r->elapsed_ns / 1e9,
			fmt_time(step, sizeof(step), r->step_ns));
		return;
	}
	fprintf(f, "Ops/sec over %zu interval%s of %s: min %.0f max %.0f stddev %.1f\n",
		r->n_full, r->n_full == 1 ? "" : "s",
		fmt_time(step, sizeof(step), r->step_ns),
		r->iv_min, r->iv_max, r->iv_sd);
}

/* "Ops/sec 95% interval: 20431..21012 (+-1.4%, batch means: 10 batches
 * of 10 intervals)", and with --precision whether it was reached. */
static void print_ci(FILE *f, const struct report *rep,
		     const struct workload *wl)
{
	const struct result *r = wl ? &wl->res : rep->total;
	double target_pct;
	struct ci c;
	enum precision_verdict v = report_precision(rep, wl, &c, &target_pct);

	if (!r->step_ns)
		return;
	if (c.known)
		fprintf(f, "Ops/sec 95%% interval: %.0f..%.0f (+-%.1f%%, batch means: %zu batches of %zu intervals)\n",
			c.low, c.high, c.half_pct, c.batches, c.per_batch);
	else
		fprintf(f, "Ops/sec 95%% interval: unknown (%zu complete intervals, %d needed; a longer run or a shorter -g gives one)\n",
			r->n_full, CI_MIN_INTERVALS);
	if (v == PRECISION_REACHED)
		fprintf(f, "Precision: +-%.1f%% reached (asked +-%g%%) in %.1f s\n",
			c.half_pct, target_pct, rep->seconds);
	else if (v == PRECISION_NOT_REACHED && c.known)
		fprintf(f, "Precision: not reached: +-%.1f%%, asked +-%g%%, after %.1f s (--max-duration ends a run; a longer one, or a steadier workload, gets there)\n",
			c.half_pct, target_pct, rep->seconds);
	else if (v == PRECISION_NOT_REACHED)
		fprintf(f, "Precision: not reached: no interval yet, asked +-%g%%, after %.1f s\n",
			target_pct, rep->seconds);
}

static void print_one(FILE *f, const struct report *rep,
		      const struct workload *wl, bool interrupted)
{
	const struct result *r = &wl->res;
	char size[32];
	int i;

	fprintf(f, "Benchmarking results for [%s] (%s)\n", wl->tgt.path,
		fmt_size_human(size, sizeof(size), wl->tgt.size));
	print_params(f, wl);
	report_human_steady_note(f, wl);
	print_delay(f, wl);
	report_layout_line(f, &wl->tgt);
	if (!wl->have_result) {
		fprintf(f, "No results.\n");
		return;
	}
	print_rates(f, rep, r);
	print_intervals(f, r);
	print_ci(f, rep, wl);
	fprintf(f, "Total: %llu I/Os", (unsigned long long)r->ops_total);
	if (wl->spec.op == OP_RW)
		fprintf(f, " (%llu reads, %llu writes)",
			(unsigned long long)r->ops[IO_READ],
			(unsigned long long)r->ops[IO_WRITE]);
	fprintf(f, ", %llu bytes in %.3f s, seed %llu%s\n",
		(unsigned long long)r->bytes, (double)r->elapsed_ns / 1e9,
		(unsigned long long)wl->spec.seed,
		interrupted ? " (interrupted)" : "");
	if (wl->fit.present) {
		const struct fit *d = &wl->fit;

		fprintf(f, "Distribution: %s: ", d->name);
		if (d->dof)
			fprintf(f, "chi-square %.1f on %u dof (p %.3g), ", d->chi2,
				d->dof, d->p_value);
		fprintf(f, "KS D %.4f over %d slices%s\n", d->ks_d, DIST_SLICES,
			d->rank_space ? " (before scatter)" : "");
	}
	report_human_sizes(f, wl);
	print_durability(f, &wl->dur);
	print_device(f, rep, r, wl);
	report_human_steady(f, wl);
	if (wl->rep)
		print_repeat(f, wl->rep, true);
	if (wl->error)
		fprintf(f, "Error: %s\n", wl->errmsg);
	for (i = 0; i < wl->nwarn; i++)
		fprintf(f, "Warning: %s\n", wl->warnings[i]);
}

/* "All workloads": the total of several run together, shaped like a
 * workload's block (fio's group reporting). */
static void print_total(FILE *f, const struct report *rep)
{
	const struct workload *worst;
	const struct result *r = rep->total;
	unsigned kinds = result_kinds(r);
	bool several = kinds & (kinds - 1);
	int k, n = 0;

	fprintf(f, "All workloads: %zu, run together\n", rep->n);
	fprintf(f, "[ops/sec and MB/sec: the sum of the workloads'; latency: all their I/Os together]\n");
	print_rates(f, rep, r);
	if (r->step_ns) {
		print_intervals(f, r);
		print_ci(f, rep, NULL);
	} else
		fprintf(f, "Ops/sec over intervals: none (the workloads' sample steps, -g, differ)\n");
	/* the count of each kind when there are several: "(9 reads, 3 writes)" */
	fprintf(f, "Total: %llu I/Os", (unsigned long long)r->ops_total);
	for (k = 0; k < IO_KINDS && several; k++)
		if (kinds & (1U << k))
			fprintf(f, "%s%llu %ss", n++ ? ", " : " (",
				(unsigned long long)r->ops[k], io_kind_name(k));
	fprintf(f, "%s, %llu bytes in %.3f s%s\n", several ? ")" : "",
		(unsigned long long)r->bytes, (double)r->elapsed_ns / 1e9,
		rep->interrupted ? " (interrupted)" : "");
	print_device(f, rep, r, NULL);
	worst = report_dur_worst(rep);
	if (worst)
		fprintf(f, "Durability: %s (the least durable workload's: %u)\n",
			dur_words(worst->dur.verdict), worst->index + 1);
	if (rep->total_rep)
		print_repeat(f, rep->total_rep, false);
}

static bool human_wanted(const struct run_opts *run)
{
	return !run->quiet_stdout && !run->json && !run->silent;
}

/* A sweep prints its table instead of blocks (on standard output unless
 * --output takes it), and its warnings go to standard error. */
static int human_begin(struct report_out *o)
{
	const struct report_scope *sc = o->scope;

	if (sc->suite) {	/* its table; warnings on standard error */
		o->uses_stdout = true;
		report_suite_head(sc->out, sc->suite);
		return 0;
	}
	o->shows_warnings = !sc->sw;
	o->uses_stdout = !sc->sw || !sc->table;
	if (sc->sw && !sc->table)
		report_table_header(sc->out, sc->sw, sc->run->repeat > 1);
	return 0;
}

static int human_report(struct report_out *o, const struct report *r)
{
	const struct report_scope *sc = o->scope;
	size_t k;

	if (sc->sw) {
		if (!sc->table)
			report_table_rows(sc->out, sc->sw, r);
		return 0;
	}
	if (sc->suite) {
		report_suite_row(sc->out, sc->suite, r);
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
	if (r->replay)
		report_replay_human(sc->out, r->replay);
	return 0;
}

const struct report_writer report_human_writer = {
	.name = "human",
	.wanted = human_wanted,
	.begin = human_begin,
	.report = human_report,
};
