/* report_human.c - the classic Rebench block, one per workload, '---'
 * between workloads, plus latency, interval and total lines; after several
 * workloads run together, their "All workloads" block.
 */
#include <stdio.h>

#include <math.h>
#include <string.h>

#include "engines/engine.h"
#include "core/units.h"
#include "cli/options.h"
#include "core/plan.h"
#include "stats/precision.h"
#include "trace/replay_result.h"
#include "report/report.h"
#include "report/summary.h"
#include "report/report_target.h"
#include "study/suite.h"

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

/* --repeat: which run the block above is, "run 3 of 5, the median run by
 * ops/s, seed 13" (repeat_run.h); the total has no seed of its own. */
static void print_shown(FILE *f, const struct repeat_data *rd, bool seeds)
{
	size_t n = rd->runs, k = rd->shown;

	if (k >= n)
		fprintf(f, "the figures above are run %zu, which did not complete", k + 1);
	else
		fprintf(f, "the figures above are run %zu of %zu, %s by %sops/s", k + 1,
			n, n % 2 ? "the median run" : "the lower of the two middle runs",
			seeds ? "" : "total ");
	if (seeds)
		fprintf(f, ", seed %llu", rd->seed0 + k);
}

/* --repeat: the spread over the runs, and which run the block shows. */
static void print_repeat(FILE *f, const struct repeat_data *rd, bool seeds)
{
	size_t i, r;

	fprintf(f, "Over %zu runs (", rd->runs);
	if (seeds)
		fprintf(f, "seeds %llu..%llu; ", rd->seed0, rd->seed0 + rd->runs - 1);
	print_shown(f, rd, seeds);
	fprintf(f, "):\n");
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

/* A kind's own line: its count, rate and latency.  With more than one
 * data kind each gets one (a blend of 3 us reads and 500 us writes
 * describes neither); a flush always has its own, apart from the data
 * I/Os of the headline (fio's IOPS counts no flush). */
static void print_kind(FILE *f, const struct report *rep,
		       const struct result *res, int k, int width)
{
	struct op_summary o;
	const struct lat_summary *l = &o.lat;
	char rate[32];

	report_op_summarize(rep, res, k, &o);
	if (IO_IS_FLUSH(k) && !res->flush_headline)
		fprintf(f, "Flushes: %llu %s, %.0f/sec; latency (us):",
			(unsigned long long)o.ios, io_kind_name(k), o.ops_per_s);
	else if (IO_IS_FLUSH(k))	/* it moves no data: no MiB/s */
		fprintf(f, "  %-*s %llu I/Os, %.0f ops/sec; latency (us):",
			width, io_kind_name(k), (unsigned long long)o.ios,
			o.ops_per_s);
	else
		fprintf(f, "  %-*s %llu I/Os, %.0f ops/sec (%s); latency (us):",
			width, io_kind_name(k), (unsigned long long)o.ios,
			o.ops_per_s, fmt_rate(rate, sizeof(rate), o.mb_per_s));
	fprintf(f, " min %.1f avg %.1f p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f p99.99 %.1f max %.1f\n",
		l->min, l->avg, l->p50, l->p90, l->p99, l->p999, l->p9999,
		l->max);
}

static void print_per_op(FILE *f, const struct report *rep,
			 const struct result *res)
{
	unsigned kinds = result_kinds(res), data = kinds & IO_DATA_KINDS;
	/* names in one column, as wide as the longest shown, at least
	 * "write" */
	int width = 5, w;
	int k;

	if (res->flush_headline)
		data = kinds;	/* the flushes are its I/Os */
	for (k = 0; k < IO_KINDS; k++) {
		w = (int)strlen(io_kind_name(k));
		if (data & (1U << k) && w > width)
			width = w;
	}
	/* one kind: the lines above are its own */
	for (k = 0; k < IO_KINDS && (data & (data - 1)); k++)
		if (data & (1U << k))
			print_kind(f, rep, res, k, width);
	for (k = 0; k < IO_KINDS; k++)
		if (kinds & ~data & (1U << k))
			print_kind(f, rep, res, k, width);
}

/* The original Rebench timed a write and its fdatasync as one operation:
 * the write+flush latency (stats.h) is that figure. */
static void print_durable(FILE *f, const struct result *r)
{
	struct lat_summary l;

	if (!r->durable_known || !r->durable.count)
		return;
	lat_summarize_hist(&r->durable, &l);
	fprintf(f, "Write+flush latency (us): min %.1f avg %.1f p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f (%llu writes, each from its start to the end of the flush that made it durable)\n",
		l.min, l.avg, l.p50, l.p90, l.p99, l.p999, l.max,
		(unsigned long long)r->durable.count);
}

/* The figures a workload and the total share: the headline over data
 * I/Os, then each kind, the flushes and the write+flush latency. */
static void print_rates(FILE *f, const struct report *rep,
			const struct result *r)
{
	struct lat_summary l;
	char rate[32];

	lat_summarize(r, &l);
	fprintf(f, "Operations/sec: %.0f (%s)\n", r->ops_per_s,
		fmt_rate(rate, sizeof(rate), r->mb_per_s));
	fprintf(f, "Latency (us): min %.1f avg %.1f p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f\n",
		l.min, l.avg, l.p50, l.p90, l.p99, l.p999, l.max);
	print_per_op(f, rep, r);
	print_durable(f, r);
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

/* "Device reads: 1234 (0.98 per read request), 4.8MB, loop3 (this
 * workload alone on it)": a workload's own requests to its device, per
 * request of the same kind, for each kind it issued; only when it alone
 * used the device (report_dev_own), else the device's block says all. */
static void print_device(FILE *f, const struct report *rep,
			 const struct result *r, const struct workload *wl)
{
	static const struct {
		const char *label, *req;
		int dev, io;
	} kinds[] = {
		{ "reads", "read", DEV_READ, IO_READ },
		{ "writes", "write", DEV_WRITE, IO_WRITE },
		{ "discards", "trim", DEV_DISCARD, IO_TRIM },
	};
	struct dev_reads d;
	char size[32];
	size_t i;

	if (!report_dev_own(rep, wl, &d))
		return;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (!r->ops[kinds[i].io] || !d.has[kinds[i].dev])
			continue;
		fprintf(f, "Device %s: %llu (%.2f per %s request), %s, %s (this workload alone on it)\n",
			kinds[i].label,
			(unsigned long long)d.ios[kinds[i].dev],
			(double)d.ios[kinds[i].dev] /
				(double)r->ops[kinds[i].io],
			kinds[i].req,
			fmt_size_human(size, sizeof(size), d.nbytes[kinds[i].dev]),
			d.name);
	}
}

/* One count of a device's block: "-" when the kernel does not keep it. */
static void put_count(FILE *f, const struct dev_reads *d, int k,
		      const char *what, bool merges)
{
	char size[32];

	if (!d->has[k]) {
		fprintf(f, "%s - (not counted by this kernel)", what);
		return;
	}
	fprintf(f, "%s %llu", what, (unsigned long long)d->ios[k]);
	if (k == DEV_FLUSH)
		return;
	fprintf(f, " (%s", fmt_size_human(size, sizeof(size), d->nbytes[k]));
	if (merges)
		fprintf(f, ", %llu merged", (unsigned long long)d->merges[k]);
	fputc(')', f);
}

/* Each device of the run once, after the workloads and their total:
 * device-wide counts, as iostat -x and fio's "Disk stats" give them. */
static void print_devices(FILE *f, const struct report *rep)
{
	const struct dev_reads *devs[MAX_WORKLOADS];
	size_t i, n = report_devices(rep, devs);
	char users[128];

	for (i = 0; i < n; i++) {
		const struct dev_reads *d = devs[i];

		if (!d->name[0] && !d->why[0])
			continue;	/* not looked for (no run) */
		fprintf(f, "---\n");
		report_dev_users(rep, d, users, sizeof(users));
		if (!d->name[0] || !d->known) {
			fprintf(f, "Device%s%s of workload%s %s: unknown (%s)\n",
				d->name[0] ? " " : "", d->name,
				strchr(users, ',') ? "s" : "", users, d->why);
			continue;
		}
		fprintf(f, "Device %s (device-wide: all requests to it during the run, by workload%s %s and any other user; over %.3f s)\n",
			d->name, strchr(users, ',') ? "s" : "", users,
			(double)d->elapsed_ns / 1e9);
		fprintf(f, "  ");
		put_count(f, d, DEV_READ, "reads", true);
		put_count(f, d, DEV_WRITE, ", writes", true);
		put_count(f, d, DEV_DISCARD, ", discards", true);
		put_count(f, d, DEV_FLUSH, ", flushes", false);
		fprintf(f, "\n  utilization %.1f%%, mean queue depth %.2f; shared: %s%s\n",
			devstat_util_pct(d), devstat_queue_depth(d),
			d->shared ? "yes: " : "no",
			d->shared ? d->shared_why : "");
	}
}

/* "CPU: usr 0.412 s, sys 1.204 s, 8.6 us per I/O; 10234 voluntary and 12
 * involuntary context switches (4 threads)": the measured run's, from
 * getrusage of each thread (stats.h), per data I/O (flushes not counted). */
static void print_cpu(FILE *f, const struct result *r)
{
	double per = result_cpu_us_per_io(r);

	fprintf(f, "CPU: usr %.3f s, sys %.3f s, ", (double)r->cpu.user_us / 1e6,
		(double)r->cpu.sys_us / 1e6);
	if (isnan(per))
		fprintf(f, "no data I/O");
	else
		fprintf(f, "%.1f us per I/O", per);
	fprintf(f, "; %llu voluntary and %llu involuntary context switches (%zu thread%s)\n",
		(unsigned long long)r->cpu.nvcsw,
		(unsigned long long)r->cpu.nivcsw, r->cpu_nthreads,
		r->cpu_nthreads == 1 ? "" : "s");
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
	else	/* on most short runs: the few words, rebench(1) the why */
		fprintf(f, "Ops/sec 95%% interval: unknown (run too short)\n");
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
	print_total_line(f, r);
	fprintf(f, ", seed %llu%s\n", (unsigned long long)wl->spec.seed,
		interrupted ? " (interrupted)" : "");
	print_cpu(f, r);
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
		if (report_warning_said(wl, i, false))
			fprintf(f, "Warning: %s\n", wl->warnings[i]);
}

/* "All workloads": the total of several run together, shaped like a
 * workload's block (fio's group reporting). */
static void print_total(FILE *f, const struct report *rep)
{
	const struct workload *worst;
	const struct result *r = rep->total;

	fprintf(f, "All workloads: %zu, run together\n", rep->n);
	fprintf(f, "[ops/sec and %s: the sum of the workloads'; latency: all their I/Os together]\n",
		rate_unit());
	print_rates(f, rep, r);
	if (r->step_ns) {
		print_intervals(f, r);
		print_ci(f, rep, NULL);
	} else
		fprintf(f, "Ops/sec over intervals: none (the workloads' sample steps, -g, differ)\n");
	print_total_line(f, r);
	fprintf(f, "%s\n", rep->interrupted ? " (interrupted)" : "");
	print_cpu(f, r);
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

/* A sweep prints its table instead of blocks, on standard output also
 * when --output takes a copy (a sweep that printed nothing left the one at
 * the terminal with no result), and its warnings go to standard error. */
static int human_begin(struct report_out *o)
{
	const struct report_scope *sc = o->scope;

	if (sc->suite) {	/* its table; warnings on standard error */
		o->uses_stdout = true;
		report_suite_head(sc->out, sc->suite);
		return 0;
	}
	o->shows_warnings = !sc->sw;
	o->uses_stdout = true;
	if (sc->sw)
		report_table_header(sc->out, sc->sw, sc->run->repeat > 1);
	return 0;
}

static int human_report(struct report_out *o, const struct report *r)
{
	const struct report_scope *sc = o->scope;
	size_t k;

	if (sc->sw) {
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
	print_devices(sc->out, r);
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
