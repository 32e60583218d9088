/* test_report.c - result merging (src/core/stats.c) and the writers that print
 * it: human (report_human.c), terse -n (report_terse.c), --json
 * (report_json.c, json.c).
 *
 * Results are made the way a run makes them: thread_stats_init, one
 * stats_record per I/O, stats_merge.  Checks: ops/s and MB/s (2^20) from
 * the counts and elapsed time; only complete intervals enter min/max/sd;
 * the classic human lines; the terse line's 21 fields and fixed version
 * field; JSON that parses (a small validator here, and python3's json when
 * installed) with the documented keys; JSON string escaping.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "core/json.h"
#include "core/options.h"
#include "report/version.h"
#include "report/report.h"
#include "stats/repeat.h"
#include "core/stats.h"
#include "report/summary.h"
#include "core/sweep.h"
#include "core/validate.h"
#include "core/workload.h"

#include "temp_text.h"

#define MiB (1ULL << 20)
#define SEC NSEC_PER_SEC
#define SEED 1311768467294899695ULL

/* Record n I/Os of len bytes spread evenly over [from, to), latencies
 * 50..150 us. */
static void record_sized(struct thread_stats *st, int kind, uint64_t n,
			 uint64_t from, uint64_t to, uint32_t len)
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		uint64_t t = from + (to - from) * i / n;

		assert_int_equal(stats_record(st, kind, i * len, len, t,
					      50000 + (i * 7919) % 100001), 0);
	}
}

static void record(struct thread_stats *st, int kind, uint64_t n,
		   uint64_t from, uint64_t to)
{
	record_sized(st, kind, n, from, to, 4096);
}

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* 100, 200, 300 I/Os in three whole seconds, then 50 in half a second. */
static void classic_series(struct result *res, uint64_t bs)
{
	struct thread_stats st, *threads[1] = { &st };

	assert_int_equal(thread_stats_init(&st, SEC, 10 * SEC, false), 0);
	record_sized(&st, IO_READ, 100, 0, SEC, (uint32_t)bs);
	record_sized(&st, IO_READ, 200, SEC, 2 * SEC, (uint32_t)bs);
	record_sized(&st, IO_READ, 300, 2 * SEC, 3 * SEC, (uint32_t)bs);
	record_sized(&st, IO_READ, 50, 3 * SEC, 3 * SEC + SEC / 2, (uint32_t)bs);
	assert_int_equal(stats_merge(res, threads, 1, 3 * SEC + SEC / 2), 0);
	thread_stats_free(&st);
}

/* Reads at 10 us and writes at 500 us in two threads: each kind keeps its
 * own histogram, the total is their merge (counts add up, the total's
 * percentiles come from the merged buckets), and op_summarize() gives each
 * kind's rate over the run's time. */
static void test_per_op_histograms(void **state)
{
	struct thread_stats a, b, *threads[2] = { &a, &b };
	struct result res;
	struct op_summary r, w;
	struct lat_summary l;
	uint64_t i;

	(void)state;
	assert_int_equal(thread_stats_init(&a, SEC, 2 * SEC, false), 0);
	assert_int_equal(thread_stats_init(&b, SEC, 2 * SEC, false), 0);
	for (i = 0; i < 700; i++)
		assert_int_equal(stats_record(i % 2 ? &a : &b, IO_READ, 0, 4096,
					      i * 1000000, 10000), 0);
	for (i = 0; i < 300; i++)
		assert_int_equal(stats_record(i % 2 ? &a : &b, IO_WRITE, 0, 4096,
					      i * 1000000, 500000), 0);
	assert_int_equal(stats_merge(&res, threads, 2, SEC), 0);
	thread_stats_free(&a);
	thread_stats_free(&b);
	assert_int_equal(res.op_hist[IO_READ].count, 700);
	assert_int_equal(res.op_hist[IO_WRITE].count, 300);
	assert_int_equal(res.op_hist[IO_TRIM].count, 0);
	assert_int_equal(res.hist.count, 1000);
	assert_int_equal(result_kinds(&res), (1U << IO_READ) | (1U << IO_WRITE));
	op_summarize(&res, IO_READ, &r);
	op_summarize(&res, IO_WRITE, &w);
	assert_int_equal(r.ios + w.ios, res.ops_total);
	assert_true(near(r.ops_per_s, 700.0));
	assert_true(near(w.mb_per_s, 300.0 * 4096 / 1048576.0));
	/* each kind's percentiles are its own, within the 0.78% bound */
	assert_true(fabs(r.lat.p50 - 10.0) <= 10.0 / 128);
	assert_true(fabs(w.lat.p99 - 500.0) <= 500.0 / 128);
	assert_true(fabs(r.lat.p9999 - 10.0) <= 10.0 / 128);
	/* the total: p50 among the reads, p90 among the writes */
	lat_summarize(&res, &l);
	assert_true(fabs(l.p50 - 10.0) <= 10.0 / 128);
	assert_true(fabs(l.p90 - 500.0) <= 500.0 / 128);
	assert_true(near(l.min, 10.0) && near(l.max, 500.0));
	result_free(&res);
}

/* One workload's result: n I/Os of kind over [0, dur), latency lat(i). */
static void workload_result(struct result *res, int kind, uint64_t n,
			    uint64_t dur, uint64_t step,
			    uint64_t (*lat)(uint64_t i))
{
	struct thread_stats st, *threads[1] = { &st };
	uint64_t i;

	assert_int_equal(thread_stats_init(&st, step, dur, false), 0);
	for (i = 0; i < n; i++)
		assert_int_equal(stats_record(&st, kind, i * 4096, 4096,
					      dur * i / n, lat(i)), 0);
	assert_int_equal(stats_merge(res, threads, 1, dur), 0);
	thread_stats_free(&st);
}

static uint64_t lat_fast(uint64_t i) { return 8000 + (i * 37) % 4000; }
static uint64_t lat_slow(uint64_t i) { return 900000 + (i * 7919) % 200000; }

/* The total of two workloads run together: counts and bytes add, rates
 * add, elapsed is the longest, and the percentiles are those of all the
 * I/Os together (the merged buckets), not an average of the two workloads'
 * percentiles; each kind keeps its own; same steps add their series. */
static void test_result_merge(void **state)
{
	struct result a, b, t;
	const struct result *parts[2] = { &a, &b };
	struct hist all;
	const double ps[] = { 1, 50, 90, 95, 99, 99.9, 99.99, 100 };
	uint64_t i;
	size_t p;

	(void)state;
	/* 9000 fast reads in 3 s, 1000 slow writes in 2 s */
	workload_result(&a, IO_READ, 9000, 3 * SEC, SEC, lat_fast);
	workload_result(&b, IO_WRITE, 1000, 2 * SEC, SEC, lat_slow);
	assert_int_equal(result_merge(&t, parts, 2), 0);
	assert_int_equal(t.ops_total, 10000);
	assert_int_equal(t.ops[IO_READ], 9000);
	assert_int_equal(t.ops[IO_WRITE], 1000);
	assert_int_equal(t.bytes, 10000 * 4096);
	assert_int_equal(t.op_bytes[IO_WRITE], 1000 * 4096);
	assert_true(t.elapsed_ns == 3 * SEC);
	assert_true(near(t.ops_per_s, 3000.0 + 500.0));
	assert_true(near(t.mb_per_s, a.mb_per_s + b.mb_per_s));
	/* the merged data's own percentiles, bucket for bucket */
	hist_init(&all);
	for (i = 0; i < 9000; i++)
		hist_add(&all, lat_fast(i));
	for (i = 0; i < 1000; i++)
		hist_add(&all, lat_slow(i));
	assert_int_equal(t.hist.count, all.count);
	assert_int_equal(t.hist.min, all.min);
	assert_int_equal(t.hist.max, all.max);
	assert_int_equal(t.hist.sum, all.sum);
	for (p = 0; p < sizeof(ps) / sizeof(ps[0]); p++)
		assert_true(hist_percentile(&t.hist, ps[p]) ==
			    hist_percentile(&all, ps[p]));
	/* p50 is a fast read's, p95 a slow write's: no average of the two
	 * workloads' p50s (about 455 us) is either */
	assert_true(hist_percentile(&t.hist, 50) < 12000 * 1.01);
	assert_true(hist_percentile(&t.hist, 95) > 900000 * 0.99);
	/* each kind is its workload's own */
	assert_true(hist_percentile(&t.op_hist[IO_READ], 99) ==
		    hist_percentile(&a.op_hist[IO_READ], 99));
	assert_true(hist_percentile(&t.op_hist[IO_WRITE], 50) ==
		    hist_percentile(&b.op_hist[IO_WRITE], 50));
	/* same step: the series add, with a series per kind */
	assert_true(t.step_ns == SEC);
	assert_int_equal(t.n_iv, 3);
	assert_int_equal(t.n_full, 3);
	assert_int_equal(t.iv_ops[0], 3000 + 500);
	assert_int_equal(t.iv_ops[2], 3000);
	assert_non_null(t.iv_kind_ops[IO_READ]);
	assert_non_null(t.iv_kind_ops[IO_WRITE]);
	assert_null(t.iv_kind_ops[IO_TRIM]);
	assert_int_equal(t.iv_kind_ops[IO_WRITE][1], 500);
	assert_int_equal(t.iv_kind_ops[IO_WRITE][2], 0);
	assert_int_equal(t.iv_kind_ops[IO_READ][1], 3000);
	assert_true(t.iv_min == 3000 && t.iv_max == 3500);
	assert_true(t.iv_lat_max[0] == a.iv_lat_max[0] ||
		    t.iv_lat_max[0] == b.iv_lat_max[0]);
	assert_true(t.iv_lat_max[0] >= 900000);
	result_free(&t);
	result_free(&b);

	/* different steps: no common series, the rest as before */
	workload_result(&b, IO_WRITE, 1000, 2 * SEC, SEC / 2, lat_slow);
	assert_int_equal(result_merge(&t, parts, 2), 0);
	assert_true(t.step_ns == 0);
	assert_int_equal(t.n_iv, 0);
	assert_null(t.iv_ops);
	assert_int_equal(t.ops_total, 10000);
	assert_true(hist_percentile(&t.hist, 99.9) == hist_percentile(&all, 99.9));
	result_free(&t);

	/* one part: the total is that part */
	assert_int_equal(result_merge(&t, parts, 1), 0);
	assert_true(t.ops_per_s == a.ops_per_s && t.ops_total == a.ops_total);
	assert_int_equal(t.iv_ops[1], a.iv_ops[1]);
	assert_null(t.iv_kind_ops[IO_READ]);	/* one kind: its series is iv_ops */
	result_free(&t);
	result_free(&a);
	result_free(&b);
}

static void test_merge_rates(void **state)
{
	struct result res;

	(void)state;
	classic_series(&res, 4096);
	assert_int_equal(res.ops_total, 650);
	assert_int_equal(res.ops[IO_READ], 650);
	assert_int_equal(res.ops[IO_WRITE], 0);
	assert_int_equal(res.bytes, 650 * 4096);
	assert_int_equal(res.hist.count, 650);
	assert_true(near(res.ops_per_s, 650 * 1e9 / 3.5e9));
	/* MB is 2^20 bytes, as in the original */
	assert_true(near(res.mb_per_s, 650.0 * 4096 / 1048576.0 / 3.5));
	result_free(&res);
}

static void test_merge_intervals(void **state)
{
	struct result res;
	uint64_t i;

	(void)state;
	classic_series(&res, 4096);
	assert_true(res.step_ns == SEC);
	assert_int_equal(res.n_iv, 4);
	assert_int_equal(res.n_full, 3);
	assert_int_equal(res.iv_ops[0], 100);
	assert_int_equal(res.iv_ops[1], 200);
	assert_int_equal(res.iv_ops[2], 300);
	assert_int_equal(res.iv_ops[3], 50);
	/* the half-second tail (100/s) is neither the min nor in the sd */
	assert_true(res.iv_min == 100);
	assert_true(res.iv_max == 300);
	assert_true(near(res.iv_sd, 100));	/* sample sd of 100, 200, 300 */
	for (i = 0; i < 4; i++) {
		assert_true(res.iv_lat_max[i] >= 50000);
		assert_true(res.iv_lat_max[i] <= 150000);
		assert_true(res.iv_lat_sum[i] >= res.iv_ops[i] * 50000);
	}
	result_free(&res);
}

static void test_interval_edges(void **state)
{
	struct thread_stats st, *threads[1] = { &st };
	struct result res;

	(void)state;
	/* interval i is [i * step, (i + 1) * step): an edge starts the next */
	assert_int_equal(thread_stats_init(&st, SEC / 4, 0, false), 0);
	assert_int_equal(stats_record(&st, IO_READ, 0, 512, 0, 10), 0);
	assert_int_equal(stats_record(&st, IO_READ, 0, 512, SEC / 4 - 1, 10), 0);
	assert_int_equal(stats_record(&st, IO_READ, 0, 512, SEC / 4, 10), 0);
	/* a gap: intervals 2..4 see nothing, then one far later */
	assert_int_equal(stats_record(&st, IO_READ, 0, 512, 5 * SEC / 4, 10), 0);
	/* far beyond the initial 64 intervals: the series grows */
	assert_int_equal(stats_record(&st, IO_READ, 0, 512, 100 * SEC, 10), 0);
	assert_int_equal(stats_merge(&res, threads, 1, 100 * SEC + 1), 0);
	assert_int_equal(res.n_iv, 401);
	assert_int_equal(res.n_full, 400);
	assert_int_equal(res.iv_ops[0], 2);
	assert_int_equal(res.iv_ops[1], 1);
	assert_int_equal(res.iv_ops[2], 0);
	assert_int_equal(res.iv_ops[5], 1);
	assert_int_equal(res.iv_ops[400], 1);
	/* rates are per second: 2 I/Os in 250 ms is 8/s; stalls show as 0 */
	assert_true(res.iv_max == 8);
	assert_true(res.iv_min == 0);
	result_free(&res);
	thread_stats_free(&st);
}

static void test_merge_no_full_interval(void **state)
{
	struct thread_stats st, *threads[1] = { &st };
	struct result res;

	(void)state;
	/* shorter than one step: min and max are the run's mean, sd 0 */
	assert_int_equal(thread_stats_init(&st, SEC, SEC, false), 0);
	record(&st, IO_WRITE, 10, 0, SEC / 2);
	assert_int_equal(stats_merge(&res, threads, 1, SEC / 2), 0);
	assert_int_equal(res.n_full, 0);
	assert_int_equal(res.n_iv, 1);
	assert_true(near(res.ops_per_s, 20));
	assert_true(res.iv_min == res.ops_per_s);
	assert_true(res.iv_max == res.ops_per_s);
	assert_true(res.iv_sd == 0);
	assert_int_equal(res.ops[IO_WRITE], 10);
	result_free(&res);

	/* exactly one complete interval: sd 0, min == max == its rate */
	thread_stats_free(&st);
	assert_int_equal(thread_stats_init(&st, SEC, 0, false), 0);
	record(&st, IO_READ, 40, 0, SEC);
	record(&st, IO_READ, 1, SEC, SEC + 1);
	assert_int_equal(stats_merge(&res, threads, 1, SEC + 1), 0);
	assert_int_equal(res.n_full, 1);
	assert_true(res.iv_min == 40 && res.iv_max == 40);
	assert_true(res.iv_sd == 0);
	result_free(&res);
	thread_stats_free(&st);
}

/* CPU (getrusage per thread): a workload keeps each thread's and their
 * sum; a total keeps every part's threads in turn and their sum. */
static void test_merge_cpu(void **state)
{
	struct thread_stats a, b, *threads[2] = { &a, &b };
	struct result w[2], total;
	const struct result *parts[2] = { &w[0], &w[1] };

	(void)state;
	assert_int_equal(thread_stats_init(&a, SEC, SEC, false), 0);
	assert_int_equal(thread_stats_init(&b, SEC, SEC, false), 0);
	record(&a, IO_READ, 10, 0, SEC);
	record(&b, IO_FSYNC, 10, 0, SEC);	/* a flush is not a data I/O */
	a.cpu = (struct cpu_use){ 100, 200, 3, 1 };
	b.cpu = (struct cpu_use){ 10, 20, 5, 0 };
	assert_int_equal(stats_merge(&w[0], threads, 2, SEC), 0);
	assert_int_equal(w[0].cpu_nthreads, 2);
	assert_int_equal(w[0].cpu.user_us, 110);
	assert_int_equal(w[0].cpu.sys_us, 220);
	assert_int_equal(w[0].cpu.nvcsw, 8);
	assert_int_equal(w[0].cpu.nivcsw, 1);
	assert_int_equal(w[0].cpu_thread[1].sys_us, 20);
	assert_int_equal(result_data_ios(&w[0]), 10);
	assert_true(result_cpu_us_per_io(&w[0]) == 33.0);	/* 330 / 10 */
	assert_int_equal(stats_merge(&w[1], threads, 1, SEC), 0);
	assert_int_equal(result_merge(&total, parts, 2), 0);
	assert_int_equal(total.cpu_nthreads, 3);
	assert_int_equal(total.cpu.user_us, 210);
	assert_int_equal(total.cpu.sys_us, 420);
	assert_int_equal(total.cpu_thread[2].user_us, 100);
	assert_int_equal(result_data_ios(&total), 20);
	result_free(&total);
	result_free(&w[0]);
	result_free(&w[1]);
	/* no data I/O: no figure per I/O */
	thread_stats_reset(&a);
	assert_int_equal(stats_merge(&w[0], threads, 1, SEC), 0);
	assert_true(isnan(result_cpu_us_per_io(&w[0])));
	result_free(&w[0]);
	thread_stats_free(&a);
	thread_stats_free(&b);
}

static void test_merge_threads(void **state)
{
	struct thread_stats a, b, c, *threads[3] = { &a, &b, &c };
	struct result res;

	(void)state;
	assert_int_equal(thread_stats_init(&a, SEC, 4 * SEC, false), 0);
	assert_int_equal(thread_stats_init(&b, SEC, 4 * SEC, false), 0);
	assert_int_equal(thread_stats_init(&c, SEC, 4 * SEC, false), 0);
	/* one slow I/O first: its latency is interval 0's max */
	assert_int_equal(stats_record(&a, IO_READ, 0, 4096, 10, 999999), 0);
	record(&a, IO_READ, 10, 20, SEC);
	record(&a, IO_READ, 20, SEC, 2 * SEC);
	record(&b, IO_WRITE, 5, 0, SEC);
	record_sized(&b, IO_WRITE, 5, SEC, 2 * SEC, 65536);
	record(&b, IO_WRITE, 7, 2 * SEC, 2 * SEC + 100);
	/* c did nothing (it may have failed at once): it adds nothing */
	assert_int_equal(stats_merge(&res, threads, 3, 2 * SEC + 100), 0);
	assert_int_equal(res.ops[IO_READ], 31);
	assert_int_equal(res.ops[IO_WRITE], 17);
	assert_int_equal(res.ops_total, 48);
	assert_int_equal(res.hist.count, 48);
	assert_int_equal(res.hist.max, 999999);
	assert_int_equal(res.n_iv, 3);
	assert_int_equal(res.n_full, 2);
	assert_int_equal(res.iv_ops[0], 16);
	assert_int_equal(res.iv_ops[1], 25);
	assert_int_equal(res.iv_ops[2], 7);
	/* bytes per interval from each I/O's own size (the series' MB/s) */
	assert_int_equal(res.iv_bytes[0], 16 * 4096);
	assert_int_equal(res.iv_bytes[1], 20 * 4096 + 5 * 65536);
	assert_int_equal(res.iv_bytes[2], 7 * 4096);
	assert_int_equal(res.bytes, 43 * 4096 + 5 * 65536);
	assert_int_equal(res.op_bytes[IO_WRITE], 12 * 4096 + 5 * 65536);
	assert_int_equal(res.iv_lat_max[0], 999999);
	assert_true(res.iv_min == 16 && res.iv_max == 25);
	result_free(&res);
	thread_stats_free(&a);
	thread_stats_free(&b);
	thread_stats_free(&c);
}

/* n I/Os per whole second for 3 s, then tail I/Os ending at 3 s + tail. */
static void tail_series(struct result *res, uint64_t tail)
{
	struct thread_stats st, *threads[1] = { &st };

	assert_int_equal(thread_stats_init(&st, SEC, 0, false), 0);
	record(&st, IO_READ, 30, 0, 3 * SEC);
	assert_int_equal(stats_record(&st, IO_READ, 0, 512, 3 * SEC + tail, 1),
			 0);
	assert_int_equal(stats_merge(res, threads, 1, 3 * SEC + tail), 0);
	thread_stats_free(&st);
}

static void test_series_tail(void **state)
{
	struct result res;

	(void)state;
	/*
	 * The series ends with the partial tail only when it lasted at
	 * least a tenth of a step; its I/Os always count in the totals.
	 */
	tail_series(&res, SEC / 20);
	assert_int_equal(res.n_full, 3);
	assert_int_equal(res.n_iv, 4);
	assert_int_equal(res.n_series, 3);
	assert_int_equal(res.ops_total, 31);
	assert_true(res.iv_min == 10 && res.iv_max == 10 && res.iv_sd == 0);
	result_free(&res);

	tail_series(&res, SEC / 10);
	assert_int_equal(res.n_full, 3);
	assert_int_equal(res.n_series, 4);
	assert_int_equal(res.iv_ops[3], 1);
	result_free(&res);

	/* no tail at all: the series is the complete intervals */
	classic_series(&res, 512);
	assert_int_equal(res.n_series, 4);
	result_free(&res);
}

static void test_merge_empty(void **state)
{
	struct thread_stats st, *threads[1] = { &st };
	struct result res;

	(void)state;
	assert_int_equal(thread_stats_init(&st, SEC, 0, false), 0);
	assert_int_equal(stats_merge(&res, threads, 1, 0), 0);
	assert_int_equal(res.ops_total, 0);
	assert_int_equal(res.n_iv, 0);
	assert_int_equal(res.n_full, 0);
	assert_true(res.ops_per_s == 0 && res.mb_per_s == 0);
	assert_true(res.iv_min == 0 && res.iv_max == 0 && res.iv_sd == 0);
	result_free(&res);
	thread_stats_free(&st);
}

static void test_io_log(void **state)
{
	struct thread_stats st;
	struct io_log_chunk *c;
	uint64_t i, n = 0;

	(void)state;
	/* -g 0: every I/O kept, across more than one chunk */
	assert_int_equal(thread_stats_init(&st, SEC, SEC, true), 0);
	for (i = 0; i < IO_LOG_CHUNK + 10; i++)
		assert_int_equal(stats_record(&st, IO_READ, i * 512, 512, i,
					      i + 1), 0);
	for (c = st.log_head; c; c = c->next) {
		size_t k;

		for (k = 0; k < c->n; k++, n++) {
			assert_int_equal(c->recs[k].off, n * 512);
			assert_int_equal(c->recs[k].lat_ns, n + 1);
		}
	}
	assert_int_equal(n, IO_LOG_CHUNK + 10);
	thread_stats_free(&st);
}

/* The workloads' results: on the heap in rebench, here in place. */
static struct result results[3];

/* A workload as main() would hand it to the writers after a run. */
static void make_workload(struct workload *wl, unsigned index)
{
	memset(wl, 0, sizeof(*wl));
	assert_true(index < sizeof(results) / sizeof(results[0]));
	wl->result.stats = &results[index];
	memset(wl->result.stats, 0, sizeof(*wl->result.stats));
	spec_defaults(&wl->spec);
	wl->spec.target = (char *)"/dev/fake";
	wl->spec.seed = SEED;
	wl->index = index;
	strcpy(wl->tgt.path, "/dev/fake");
	strcpy(wl->tgt.name, "fake");
	strcpy(wl->tgt.disk, "fake");
	wl->tgt.kind = TARGET_DISK;
	wl->tgt.exists = true;
	wl->tgt.size = 64 * MiB;
	wl->tgt.logical = 512;
	wl->tgt.physical = 4096;
	wl->tgt.alignment_offset = -1;
	wl->tgt.rotational = -1;
	assert_int_equal(spec_resolve(&wl->spec, &wl->tgt), 0);
	classic_series(wl->result.stats, wl->spec.bs);
	wl->result.have_result = true;
}

static const struct run_opts plain_run;

/* What writer w prints for one run r, as a single run with no options. */
static char *render(const struct report_writer *w, const struct report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct report_scope sc = { &plain_run, f, NULL, NULL };

	assert_non_null(f);
	assert_int_equal(report_write(w, &sc, r), 0);
	fclose(f);
	assert_non_null(buf);
	return buf;
}

static void test_human(void **state)
{
	struct workload wl[2];
	struct report r = { wl, 1, false };
	char *out, want[128];

	(void)state;
	make_workload(&wl[0], 0);
	out = render(&report_human_writer, &r);
	/* the classic lines, as the original printed them */
	assert_non_null(strstr(out, "Benchmarking results for [/dev/fake] (64 MiB)\n"));
	assert_non_null(strstr(out, "[duration: 10s, threads: 1, operation: read, block size: 512b, workload: rnd, dist: uniform, direct IO: on, IO type: stateful]\n"));
	snprintf(want, sizeof(want), "Operations/sec: %.0f (%.2f MiB/s)\n",
		 wl[0].result.stats->ops_per_s, wl[0].result.stats->mb_per_s);
	assert_non_null(strstr(out, want));
	assert_non_null(strstr(out, "Operations/sec: 186 (0.09 MiB/s)\n"));
	assert_non_null(strstr(out, "\nLatency (us): min "));
	assert_non_null(strstr(out, " p99.9 "));
	assert_non_null(strstr(out, "Ops/sec over 3 intervals of 1s: min 100 max 300 stddev 100.0\n"));
	assert_non_null(strstr(out, "Total: 650 I/Os"));
	assert_null(strstr(out, "---"));
	assert_true(strncmp(out, "Benchmarking results for [", 26) == 0);
	free(out);

	/* two workloads: one '---' between; no result says so */
	make_workload(&wl[1], 1);
	result_free(wl[1].result.stats);
	wl[1].result.have_result = false;
	wl[1].spec.op = OP_WRITE;
	wl[1].spec.seq = true;
	wl[1].spec.bs = 4096;
	r.n = 2;
	out = render(&report_human_writer, &r);
	assert_non_null(strstr(out, "\n---\nBenchmarking results for [/dev/fake]"));
	assert_non_null(strstr(out, "operation: write, block size: 4k, workload: seq"));
	assert_non_null(strstr(out, "No results.\n"));
	free(out);
	result_free(wl[0].result.stats);
}

/* Split a line into at most max fields; returns how many. */
static int split_fields(char *line, char **fields, int max)
{
	char *save, *tok;
	int n = 0;

	for (tok = strtok_r(line, " \n", &save); tok && n < max;
	     tok = strtok_r(NULL, " \n", &save))
		fields[n++] = tok;
	return n;
}

/* Field i (from 1) of block kind: 22 + 12 * kind + offset. */
/* 0-based index of a kind's field: sync_file_range's block comes after
 * the passes (field 82) */
#define OPF(kind, off) (21 + (kind) * TERSE_OP_FIELDS + \
			((kind) >= IO_SYNC_RANGE) + (off))

static void test_terse(void **state)
{
	struct workload wl[2];
	struct report r = { wl, 2, false };
	char *out, *line, *save, *end, *fields[TERSE_FIELDS + 8];
	char want[32];
	int n, i, k;

	(void)state;
	make_workload(&wl[0], 0);
	make_workload(&wl[1], 1);
	/* a workload without a result prints no terse line */
	result_free(wl[1].result.stats);
	wl[1].result.have_result = false;
	/* CPU: 1.3 s user, 0.65 s system over 650 I/Os: 3000 us per I/O */
	wl[0].result.stats->cpu = (struct cpu_use){ 1300000, 650000, 7, 3 };
	out = render(&report_terse_writer, &r);
	line = strtok_r(out, "\n", &save);
	assert_non_null(line);
	assert_null(strtok_r(NULL, "\n", &save));
	n = split_fields(line, fields, TERSE_FIELDS + 8);
	/* 18 fields, the distribution's KS D, p-value and dof, then 12 per
	 * operation kind, the passes ("-": a random workload) after the
	 * fdatasync block, before the sync_file_range one, then the
	 * durability ("-": no verdict), the device reads ("- -": no
	 * device counters in this test), then the ops/s interval ("- - -
	 * 0": three intervals are too few), --precision ("- -": not asked)
	 * and the seconds the run took (0: this report was not timed),
	 * --steady-state and --precondition, then the CPU, the sync policy
	 * and whose defaults, the write+flush latency ("0 - ...": not
	 * measured) and the flushes after the clock (0) */
	assert_int_equal(TERSE_FIELDS, 129);
	assert_int_equal(TERSE_FIELD_DEV_READS, 96);
	assert_int_equal(TERSE_FIELD_CI, 98);
	assert_int_equal(TERSE_FIELD_CPU, 113);
	assert_int_equal(TERSE_FIELD_SYNC, 118);
	assert_int_equal(TERSE_FIELD_DURABLE, 120);
	assert_int_equal(n, 129);
	assert_string_equal(fields[TERSE_FIELD_DURABLE - 1], "0");
	assert_string_equal(fields[TERSE_FIELD_DURABLE], "-");
	assert_string_equal(fields[TERSE_FIELDS - 1], "0");
	assert_string_equal(fields[81], "-");
	assert_string_equal(fields[94], "-");
	assert_string_equal(fields[95], "-");
	assert_string_equal(fields[96], "-");
	for (i = 97; i < 100; i++)
		assert_string_equal(fields[i], "-");
	assert_string_equal(fields[100], "0");
	assert_string_equal(fields[101], "-");
	assert_string_equal(fields[102], "-");
	assert_string_equal(fields[103], "0.000");
	/* no --steady-state ("-" x 7), no --precondition */
	for (i = 104; i < 111; i++)
		assert_string_equal(fields[i], "-");
	assert_string_equal(fields[111], "no");
	assert_string_equal(fields[112], "1.300000");
	assert_string_equal(fields[113], "0.650000");
	assert_string_equal(fields[114], "3000.000");
	assert_string_equal(fields[115], "7");
	assert_string_equal(fields[116], "3");
	/* a workload that does not write has no sync policy; rebench's
	 * own defaults (no fio spelling) */
	assert_string_equal(fields[117], "-");
	assert_string_equal(fields[118], "rebench");
	for (i = 0; i < n; i++) {	/* 112, 118 and 119 are words */
		if (i == 111 || i == 117 || i == 118)
			continue;
		strtod(fields[i], &end);
		if (*end && i != 111 && !(i >= 18 && !strcmp(fields[i], "-")))
			fail_msg("terse field %d '%s' is not a number", i + 1,
				 fields[i]);
	}
	/* field 13 is the format version and never moves */
	assert_int_equal(atoi(fields[12]), TERSE_VERSION);
	assert_string_equal(fields[13], "650");
	snprintf(want, sizeof(want), "%llu",
		 (unsigned long long)wl[0].result.stats->bytes);
	assert_string_equal(fields[14], want);
	snprintf(want, sizeof(want), "%llu", (unsigned long long)SEED);
	assert_string_equal(fields[16], want);
	assert_string_equal(fields[17], "0");
	assert_true(fabs(strtod(fields[0], NULL) - wl[0].result.stats->ops_per_s) < 0.01);
	assert_true(strtod(fields[2], NULL) == 100);
	assert_true(strtod(fields[3], NULL) == 300);
	assert_true(strtod(fields[15], NULL) == 3.5);
	/* latency fields in us, ordered min <= avg, p50 <= p90 <= ... <= max */
	assert_true(strtod(fields[5], NULL) >= 50);
	assert_true(strtod(fields[5], NULL) <= strtod(fields[6], NULL));
	for (i = 7; i < 11; i++)
		assert_true(strtod(fields[i], NULL) <=
			    strtod(fields[i + 1], NULL));
	assert_true(strtod(fields[11], NULL) <= 150.001);
	/* read, fields 22-33: all of it, so the same figures as 1-2, 6-15 */
	assert_string_equal(fields[OPF(IO_READ, 0)], "650");
	assert_string_equal(fields[OPF(IO_READ, 1)], fields[14]);
	assert_string_equal(fields[OPF(IO_READ, 2)], fields[0]);
	assert_string_equal(fields[OPF(IO_READ, 3)], fields[1]);
	for (i = 0; i < 6; i++)	/* min avg p50 p90 p99 p99.9 */
		assert_string_equal(fields[OPF(IO_READ, 4 + i)], fields[5 + i]);
	assert_true(strtod(fields[OPF(IO_READ, 10)], NULL) >=
		    strtod(fields[10], NULL));	/* p99.99 >= p99.9 */
	assert_string_equal(fields[OPF(IO_READ, 11)], fields[11]);	/* max */
	/* the kinds that did not occur: 0s, and no latency */
	for (k = IO_WRITE; k < IO_KINDS; k++) {
		assert_string_equal(fields[OPF(k, 0)], "0");
		assert_string_equal(fields[OPF(k, 1)], "0");
		assert_string_equal(fields[OPF(k, 2)], "0.00");
		assert_string_equal(fields[OPF(k, 3)], "0.0000");
		for (i = 4; i < TERSE_OP_FIELDS; i++)
			assert_string_equal(fields[OPF(k, i)], "-");
	}
	assert_int_equal(OPF(IO_FDATASYNC, TERSE_OP_FIELDS), 81);
	assert_int_equal(OPF(IO_SYNC_RANGE, 0), 82);
	assert_int_equal(OPF(IO_SYNC_RANGE, TERSE_OP_FIELDS), 94);
	free(out);

	/* interrupted runs say so in field 18 (status) */
	r.interrupted = true;
	r.n = 1;
	out = render(&report_terse_writer, &r);
	n = split_fields(out, fields, TERSE_FIELDS + 8);
	assert_int_equal(n, TERSE_FIELDS);
	assert_string_equal(fields[17], "1");
	free(out);

	/* a sequential workload's passes: field 82, 6 decimals */
	r.interrupted = false;
	wl[0].result.passes.known = true;
	wl[0].result.passes.count = 600.0 / 256;
	wl[0].result.passes.ios = 256;
	/* and the device's reads: requests and bytes, fields 96-97 */
	wl[0].result.devr.known = true;
	wl[0].result.devr.reads = 1234;
	wl[0].result.devr.bytes = 5054464;
	snprintf(wl[0].result.devr.name, sizeof(wl[0].result.devr.name), "fake");
	out = render(&report_terse_writer, &r);
	/* the device's own line follows the workload's */
	assert_non_null(strstr(out, "\ndevice fake "));
	*strchr(out, '\n') = '\0';
	n = split_fields(out, fields, TERSE_FIELDS + 8);
	assert_int_equal(n, TERSE_FIELDS);
	assert_string_equal(fields[81], "2.343750");
	assert_string_equal(fields[TERSE_FIELD_DEV_READS - 1], "1234");
	assert_string_equal(fields[TERSE_FIELD_DEV_BYTES - 1], "5054464");
	free(out);
	wl[0].result.devr.known = false;
	result_free(wl[0].result.stats);
}

/* A read/write mix: each kind's block has its own figures, in enum order;
 * --repeat's fields follow the blocks. */
static void test_terse_per_op(void **state)
{
	struct thread_stats st, *threads[1] = { &st };
	struct repeat_data rd;
	struct workload wl[1];
	struct report r = { wl, 1, false };
	struct op_summary w;
	char *out, *fields[TERSE_FIELDS + 40], want[64];
	double v[3] = { 1, 2, 3 };
	uint64_t i;
	int n, m;

	(void)state;
	make_workload(&wl[0], 0);
	result_free(wl[0].result.stats);
	assert_int_equal(thread_stats_init(&st, SEC, 2 * SEC, false), 0);
	for (i = 0; i < 300; i++)
		assert_int_equal(stats_record(&st, IO_READ, 0, 4096,
					      i * 1000000, 10000), 0);
	for (i = 0; i < 100; i++)
		assert_int_equal(stats_record(&st, IO_WRITE, 0, 8192,
					      i * 1000000, 500000 + i), 0);
	for (i = 0; i < 7; i++)
		assert_int_equal(stats_record(&st, IO_FSYNC, 0, 0,
					      i * 1000000, 2000000), 0);
	for (i = 0; i < 3; i++)	/* a range's start, no bytes */
		assert_int_equal(stats_record(&st, IO_SYNC_RANGE, 4096 * i, 0,
					      i * 1000000, 30000), 0);
	assert_int_equal(stats_merge(wl[0].result.stats, threads, 1, SEC), 0);
	thread_stats_free(&st);

	wl[0].result.dur.verdict = DUR_NOT_DURABLE;	/* it writes: field 95 */
	/* CPU per data I/O: over the 400 reads and writes, not the 10
	 * flushes (field 115) */
	wl[0].result.stats->cpu = (struct cpu_use){ 500, 300, 0, 0 };
	out = render(&report_terse_writer, &r);
	n = split_fields(out, fields, TERSE_FIELDS + 40);
	assert_int_equal(n, TERSE_FIELDS);
	assert_string_equal(fields[114], "2.000");
	assert_string_equal(fields[94], "not-durable");
	/* the headline's I/Os are the data I/Os: the 300 reads and 100
	 * writes, not the 10 flushes (fio's IOPS counts no sync) */
	assert_string_equal(fields[13], "400");
	assert_string_equal(fields[OPF(IO_READ, 0)], "300");
	assert_string_equal(fields[OPF(IO_READ, 1)], "1228800");
	assert_string_equal(fields[OPF(IO_READ, 2)], "300.00");
	assert_string_equal(fields[OPF(IO_READ, 6)], "10.000");	/* p50 */
	assert_string_equal(fields[OPF(IO_WRITE, 0)], "100");
	assert_string_equal(fields[OPF(IO_WRITE, 1)], "819200");
	op_summarize(wl[0].result.stats, IO_WRITE, &w);
	snprintf(want, sizeof(want), "%.4f", w.mb_per_s);
	assert_string_equal(fields[OPF(IO_WRITE, 3)], want);
	snprintf(want, sizeof(want), "%.3f", w.lat.p99);
	assert_string_equal(fields[OPF(IO_WRITE, 8)], want);
	assert_string_equal(fields[OPF(IO_WRITE, 4)], "500.000");	/* min */
	assert_string_equal(fields[OPF(IO_WRITE, 11)], "500.099");	/* max */
	assert_string_equal(fields[OPF(IO_TRIM, 0)], "0");
	assert_string_equal(fields[OPF(IO_TRIM, 4)], "-");
	/* a flush has no size: I/Os, no bytes */
	assert_string_equal(fields[OPF(IO_FSYNC, 0)], "7");
	assert_string_equal(fields[OPF(IO_FSYNC, 1)], "0");
	assert_string_equal(fields[OPF(IO_FSYNC, 3)], "0.0000");
	assert_string_equal(fields[OPF(IO_FSYNC, 6)], "2000.000");
	assert_string_equal(fields[OPF(IO_FDATASYNC, 0)], "0");
	/* sync_file_range: after the passes (field 82), fields 83-94 */
	assert_string_equal(fields[81], "-");
	assert_string_equal(fields[82], "3");
	assert_string_equal(fields[OPF(IO_SYNC_RANGE, 1)], "0");
	assert_string_equal(fields[OPF(IO_SYNC_RANGE, 6)], "30.000");
	free(out);

	/* --repeat: runs, 25 figures and the shown run after the last
	 * fixed field */
	memset(&rd, 0, sizeof(rd));
	rd.runs = 3;
	rd.shown = 1;	/* the second run, from 0 */
	for (m = 0; m < RM_COUNT; m++)
		assert_int_equal(repeat_summarize(v, 3, &rd.stat[m]), 0);
	wl[0].result.rep = &rd;
	out = render(&report_terse_writer, &r);
	n = split_fields(out, fields, TERSE_FIELDS + 40);
	assert_int_equal(n, TERSE_FIELDS + 27);
	assert_string_equal(fields[81], "-");	/* field 82: no passes */
	assert_string_equal(fields[94], "not-durable");	/* field 95 */
	assert_string_equal(fields[96], "-");	/* field 97: no device */
	assert_string_equal(fields[100], "0");	/* field 101: no batches */
	assert_string_equal(fields[TERSE_FIELDS], "3");	/* runs */
	assert_string_equal(fields[TERSE_FIELDS + 1], "2.000");	/* ops/s median */
	assert_string_equal(fields[TERSE_FIELDS + 26], "2");	/* run 2 shown */
	free(out);
	result_free(wl[0].result.stats);
}

/* A read/write mix with its per-kind series: 300 reads and 100 writes in
 * second 0, 200 and 200 in second 1. */
static void mixed_series(struct result *res)
{
	struct thread_stats st, *threads[1] = { &st };

	assert_int_equal(thread_stats_init(&st, SEC, 2 * SEC, false), 0);
	assert_int_equal(thread_stats_track_kinds(&st, (1U << IO_READ) |
						       (1U << IO_WRITE)), 0);
	record(&st, IO_READ, 300, 0, SEC);
	record(&st, IO_WRITE, 100, 0, SEC);
	record(&st, IO_READ, 200, SEC, 2 * SEC);
	record(&st, IO_WRITE, 200, SEC, 2 * SEC);
	assert_int_equal(stats_merge(res, threads, 1, 2 * SEC), 0);
	thread_stats_free(&st);
}

/* The lines of the --output file the series writer wrote for r. */
static char *series_file(const struct report *r, const char *path)
{
	char *text;
	long len;
	FILE *f;

	free(render(&report_series_writer, r));	/* nothing on stdout */
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)len + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	unlink(path);
	return text;
}

/* The series after its comment lines (what produced it: "# target:
 * ..", each workload's name), which must come first. */
static const char *series_rows(const char *out)
{
	assert_true(out[0] == '#');
	while (*out == '#') {
		out = strchr(out, '\n');
		assert_non_null(out);
		out++;
	}
	return out;
}

/* --output: a workload that keeps per-kind series adds an ops/s column
 * per kind to its file; a workload of one kind in the same file fills its
 * kind's column from its whole series; without any, the 7 columns.  The
 * header row follows the comment lines that say what produced the file:
 * the shared target, each workload's name. */
static void test_series_per_op(void **state)
{
	static const char head[] = "workload\ttime_s\tios\tops_per_s\tmib_per_s\tlat_avg_us\tlat_max_us\n";
	static const char head_kinds[] = "workload\ttime_s\tios\tops_per_s\tmib_per_s\tlat_avg_us\tlat_max_us\tread_ops_per_s\twrite_ops_per_s\n";
	char path[] = "/tmp/rebench-test-series-XXXXXX", *out;
	struct workload wl[2];
	struct report r = { wl, 2, false };
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	make_workload(&wl[0], 0);
	make_workload(&wl[1], 1);
	result_free(wl[0].result.stats);
	mixed_series(wl[0].result.stats);
	wl[0].spec.output = path;
	wl[1].spec.output = path;

	out = series_file(&r, path);
	assert_true(strncmp(out, "# target: /dev/fake\n", 20) == 0);
	assert_non_null(strstr(out, "\n# workload 1: /dev/fake: "));
	assert_non_null(strstr(out, "\n# workload 2: /dev/fake: "));
	assert_true(strncmp(series_rows(out), head_kinds, strlen(head_kinds)) == 0);
	/* the mix: each kind's own count per second */
	assert_non_null(strstr(out, "\n1\t1.000000\t400\t400.00\t"));
	assert_non_null(strstr(out, "\t300.00\t100.00\n1\t2.000000\t400\t400.00\t"));
	assert_non_null(strstr(out, "\t200.00\t200.00\n2\t1.000000\t100\t"));
	/* workload 2 reads only: its read column is its ops/s */
	assert_non_null(strstr(out, "\t100.00\t0.00\n2\t2.000000\t200\t"));
	assert_non_null(strstr(out, "\t300.00\t0.00\n2\t3.500000\t50\t100.00\t"));
	assert_true(strlen(out) > 13 &&
		    !strcmp(out + strlen(out) - 13, "\t100.00\t0.00\n"));
	free(out);

	/* no per-kind series in the file: the classic 7 columns */
	r.wls = &wl[1];
	r.n = 1;
	out = series_file(&r, path);
	assert_true(strncmp(series_rows(out), head, strlen(head)) == 0);
	assert_null(strstr(out, "# workload 1:"));	/* only 2 writes it */
	assert_non_null(strstr(out, "# workload 2: /dev/fake: "));
	assert_null(strstr(out, "_ops_per_s"));
	free(out);
	result_free(wl[0].result.stats);
	result_free(wl[1].result.stats);
}

/*
 * A strict JSON validator (RFC 8259 grammar, no extensions): enough to
 * catch a missing or trailing comma, an unquoted key or a bad escape.
 */
static const char *js_value(const char *p, int depth);

static const char *js_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *js_string(const char *p)
{
	int i;

	if (*p++ != '"')
		return NULL;
	for (; *p != '"'; p++) {
		if ((unsigned char)*p < 0x20)
			return NULL;	/* raw control character or end */
		if (*p != '\\')
			continue;
		p++;
		if (*p == 'u') {
			for (i = 1; i <= 4; i++)
				if (!strchr("0123456789abcdefABCDEF", p[i]) ||
				    !p[i])
					return NULL;
			p += 4;
		} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
			return NULL;
		}
	}
	return p + 1;
}

static const char *js_number(const char *p)
{
	const char *s;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return NULL;
	if (*p == '.') {
		s = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == s)
			return NULL;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		s = p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == s)
			return NULL;
	}
	return p;
}

static const char *js_members(const char *p, int depth, char close,
			      bool keyed)
{
	p = js_ws(p);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (keyed) {
			p = js_string(js_ws(p));
			if (!p)
				return NULL;
			p = js_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		p = js_value(p, depth + 1);
		if (!p)
			return NULL;
		p = js_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *js_value(const char *p, int depth)
{
	if (depth > 64)
		return NULL;
	p = js_ws(p);
	switch (*p) {
	case '{':
		return js_members(p + 1, depth, '}', true);
	case '[':
		return js_members(p + 1, depth, ']', false);
	case '"':
		return js_string(p);
	case 't':
		return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f':
		return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n':
		return strncmp(p, "null", 4) ? NULL : p + 4;
	default:
		return js_number(p);
	}
}

static bool json_valid(const char *text)
{
	const char *p = js_value(text, 0);

	return p && *js_ws(p) == '\0';
}

/* Extra checks by python3's own parser, when it is installed: -1 when it
 * is not, else the exit status of script run with the document as d. */
static int python_check(const char *text, const char *script, bool quiet)
{
	char path[] = "/tmp/rebench-test-json-XXXXXX", cmd[4096];
	int st;

	if (system("python3 -c '' >/dev/null 2>&1") != 0)
		return -1;
	write_temp_text(path, text);
	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import json, sys\nd = json.load(open(sys.argv[1]))\n%s' %s%s",
		 script, path, quiet ? " >/dev/null 2>&1" : "");
	st = system(cmd);
	unlink(path);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

/* The writers a run's options choose, by name, in the order they run. */
static void chosen(const struct run_opts *run, char *names, size_t len)
{
	struct report_set set;
	struct report_scope sc = { run, NULL, NULL, NULL };
	char *buf = NULL;
	size_t blen = 0, i, n = 0;

	sc.out = open_memstream(&buf, &blen);
	assert_non_null(sc.out);
	assert_int_equal(report_open(&set, &sc), 0);
	names[0] = '\0';
	for (i = 0; i < set.n; i++)
		n += (size_t)snprintf(names + n, len - n, "%s%s", i ? " " : "",
				      set.out[i].w->name);
	assert_int_equal(report_close(&set), 0);
	fclose(sc.out);
	free(buf);
}

/* One table of writers: each has a name and a report hook; the options
 * choose one standard output format, the messages and the files; every
 * format prints the same result from the same struct report. */
static void test_writer_table(void **state)
{
	struct run_opts run = { 0 };
	struct workload wl[1];
	struct report r = { wl, 1, false };
	char names[128], want[64];
	size_t i, j;

	(void)state;
	assert_true(report_nwriters >= 5);
	for (i = 0; i < report_nwriters; i++) {
		assert_non_null(report_writers[i]->name);
		assert_non_null(report_writers[i]->report);
		for (j = 0; j < i; j++)
			assert_string_not_equal(report_writers[i]->name,
						report_writers[j]->name);
	}
	chosen(&run, names, sizeof(names));
	assert_string_equal(names, "human stderr series");
	run.silent = true;
	chosen(&run, names, sizeof(names));
	assert_string_equal(names, "terse stderr series");
	run.json = true;	/* --json wins over -n */
	chosen(&run, names, sizeof(names));
	assert_string_equal(names, "json stderr series");

	make_workload(&wl[0], 0);
	snprintf(want, sizeof(want), "%.2f ", wl[0].result.stats->ops_per_s);
	for (i = 0; i < report_nwriters; i++) {
		const struct report_writer *w = report_writers[i];
		char *out = render(w, &r);

		if (!strcmp(w->name, "human"))
			assert_true(strncmp(out, "Benchmarking results for [/dev/fake]", 36) == 0);
		else if (!strcmp(w->name, "terse"))
			assert_true(strncmp(out, want, strlen(want)) == 0);
		else if (!strcmp(w->name, "json"))
			assert_true(json_valid(out) && strstr(out, "\"workloads\": ["));
		else	/* messages and files: nothing on standard output */
			assert_string_equal(out, "");
		free(out);
	}
	result_free(wl[0].result.stats);
}

/* Two workloads run together, and their total as a run makes it. */
static void make_pair(struct workload wl[2], struct result *total,
		      struct report *r)
{
	const struct result *parts[2];

	make_workload(&wl[0], 0);
	make_workload(&wl[1], 1);
	wl[1].spec.seed = SEED + 1;
	parts[0] = wl[0].result.stats;
	parts[1] = wl[1].result.stats;
	assert_int_equal(result_merge(total, parts, 2), 0);
	memset(r, 0, sizeof(*r));
	r->wls = wl;
	r->n = 2;
	r->total = total;
}

/* Several workloads: each format adds the total, after the workloads. */
static void test_total_writers(void **state)
{
	struct workload wl[2];
	struct result total;
	struct report r;
	char *out, *p, want[128], *save, *line, *last = NULL;
	int lines = 0, nf = 0;

	(void)state;
	make_pair(wl, &total, &r);
	assert_true(near(total.ops_per_s, 2 * wl[0].result.stats->ops_per_s));

	out = render(&report_human_writer, &r);
	p = strstr(out, "\n---\nAll workloads: 2, run together\n");
	assert_non_null(p);
	assert_null(strstr(p + 1, "Benchmarking results"));
	snprintf(want, sizeof(want), "\nOperations/sec: %.0f (%.2f MiB/s)\n",
		 total.ops_per_s, total.mb_per_s);
	assert_non_null(strstr(p, want));
	assert_non_null(strstr(p, "\nLatency (us): min "));
	assert_non_null(strstr(p, "\nOps/sec over 3 intervals of 1s: min 200 max 600 stddev 200.0\n"));
	assert_non_null(strstr(p, "\nTotal: 1300 I/Os, "));
	assert_null(strstr(p, "seed"));
	free(out);

	out = render(&report_terse_writer, &r);
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		lines++;
		last = line;
	}
	assert_int_equal(lines, 3);
	for (line = strtok_r(last, " ", &save); line;
	     line = strtok_r(NULL, " ", &save)) {
		nf++;
		if (nf == 1)
			assert_true(fabs(strtod(line, NULL) - total.ops_per_s) < 0.01);
		if (nf == 14)
			assert_string_equal(line, "1300");
		if (nf == 17)
			assert_string_equal(line, "all");
		if (nf == 18)
			assert_string_equal(line, "0");
		if (nf >= 19 && nf <= 21)
			assert_string_equal(line, "-");
		if (nf == 22)	/* the read block: every I/O of both */
			assert_string_equal(line, "1300");
		if (nf == 24)	/* its ops/s: the sum, as field 1 */
			assert_true(fabs(strtod(line, NULL) - total.ops_per_s) < 0.01);
	}
	assert_int_equal(nf, TERSE_FIELDS);	/* a workload line's layout */
	free(out);

	out = render(&report_json_writer, &r);
	if (!json_valid(out))
		fail_msg("invalid JSON:\n%s", out);
	assert_non_null(strstr(out, "\"total\": {"));
	if (python_check(out,
		"t = d[\"total\"]\n"
		"w = d[\"workloads\"]\n"
		"assert t[\"workloads\"] == 2 and t[\"status\"] == \"complete\"\n"
		"r = t[\"results\"]\n"
		"assert r[\"ios\"] == 1300 and r[\"reads\"] == 1300\n"
		"assert abs(r[\"ops_per_s\"] - sum(x[\"results\"][\"ops_per_s\"] for x in w)) < 1e-6\n"
		"assert r[\"operations\"][\"read\"][\"ios\"] == 1300\n"
		"assert r[\"intervals\"][\"ios\"] == [200, 400, 600, 100]\n"
		"assert r[\"distribution\"] is None and t[\"repeat\"] is None\n",
		false) > 0)
		fail_msg("python3 rejected the total:\n%s", out);
	free(out);

	/* one workload: no total anywhere */
	r.n = 1;
	r.total = NULL;
	out = render(&report_json_writer, &r);
	assert_non_null(strstr(out, "\"total\": null"));
	free(out);
	out = render(&report_human_writer, &r);
	assert_null(strstr(out, "All workloads"));
	free(out);
	result_free(&total);
	result_free(wl[0].result.stats);
	result_free(wl[1].result.stats);
}

/* The total's status says why the run ended. */
static void test_total_status(void **state)
{
	struct workload wl[3];
	struct report r = { wl, 3, false };

	(void)state;
	memset(wl, 0, sizeof(wl));
	assert_int_equal(report_total_status(&r), WL_COMPLETE);
	r.interrupted = true;
	assert_int_equal(report_total_status(&r), WL_INTERRUPTED);
	wl[0].result.stopped_early = true;
	assert_int_equal(report_total_status(&r), WL_STOPPED);
	wl[2].result.error = -5;
	assert_int_equal(report_total_status(&r), WL_IO_ERROR);
	wl[1].result.error = -12;
	wl[1].result.error_is_memory = true;	/* first in workload order wins */
	assert_int_equal(report_total_status(&r), WL_MEMORY);
}

/* A sweep through the same writers: the human format is the table, -n
 * lines end with the point's values, JSON has one object per point. */
static char *render_sweep(const struct report_writer *w,
			  const struct run_opts *run, const struct sweep *sw,
			  struct report *r, size_t points)
{
	struct report_set set;
	struct report_scope sc = { run, NULL, sw, NULL };
	char *buf = NULL;
	size_t len = 0, p;

	sc.out = open_memstream(&buf, &len);
	assert_non_null(sc.out);
	memset(&set, 0, sizeof(set));
	set.scope = sc;
	set.n = 1;
	set.out[0].w = w;
	set.out[0].scope = &set.scope;
	set.out[0].set = &set;
	assert_int_equal(w->begin ? w->begin(&set.out[0]) : 0, 0);
	for (p = 0; p < points; p++) {
		r->point = p;
		assert_int_equal(report_emit(&set, r), 0);
	}
	assert_int_equal(report_close(&set), 0);
	fclose(sc.out);
	return buf;
}

static void test_sweep_writers(void **state)
{
	static struct sweep sw;
	struct parse_ctx ctx = { 0, "command line", NULL };
	struct run_opts run = { 0 };
	struct workload wl[1];
	struct report r = { wl, 1, false };
	char *out, *nl;

	(void)state;
	assert_int_equal(sweep_add(&sw, options_find_long("block-size"),
				   "512,4k", &ctx), 0);
	make_workload(&wl[0], 0);

	out = render_sweep(&report_human_writer, &run, &sw, &r, 2);
	assert_true(strncmp(out, "block-size\tworkload\ttarget\tops_per_s\t", 37) == 0);
	assert_non_null(strstr(out, "\n512\t1\t/dev/fake\t"));
	assert_non_null(strstr(out, "\n4096\t1\t/dev/fake\t"));
	free(out);

	out = render_sweep(&report_terse_writer, &run, &sw, &r, 2);
	nl = strchr(out, '\n');
	assert_non_null(nl);
	assert_true(nl - out > 4 && strncmp(nl - 4, " 512", 4) == 0);
	assert_true(strlen(out) > 6 && strcmp(out + strlen(out) - 6, " 4096\n") == 0);
	free(out);

	out = render_sweep(&report_json_writer, &run, &sw, &r, 2);
	if (!json_valid(out))
		fail_msg("sweep JSON is not valid:\n%s", out);
	assert_non_null(strstr(out, "\"sweep\": {"));
	assert_non_null(strstr(out, "\"point\": 2"));
	assert_non_null(strstr(out, "\"block-size\": 4096"));
	free(out);
	result_free(wl[0].result.stats);
	sweep_free(&sw);
}

static void test_json_validator_itself(void **state)
{
	(void)state;
	/* the checker must refuse what the writer must never produce */
	assert_true(json_valid("{\"a\": [1, 2.5e3, -0, true, null, \"x\\n\"]}\n"));
	assert_true(json_valid("{}"));
	assert_false(json_valid("{\"a\": 1,}"));
	assert_false(json_valid("[1, 2,]"));
	assert_false(json_valid("{a: 1}"));
	assert_false(json_valid("{\"a\" 1}"));
	assert_false(json_valid("{\"a\": 1} x"));
	assert_false(json_valid("{\"a\": \"x\ny\"}"));
	assert_false(json_valid("{\"a\": \"\\q\"}"));
	assert_false(json_valid("{\"a\": nan}"));
	assert_false(json_valid("{\"a\": 01}"));
	assert_false(json_valid("{\"a\": [1 2]}"));
	assert_false(json_valid("{\"a\": {}"));
	/* and the python3 check, when present, can fail */
	if (python_check("{}", "assert d == {}", true) == 0)
		assert_true(python_check("{}", "assert d == []", true) > 0);
}

static void test_json_report(void **state)
{
	struct workload wl[2];
	struct report r = { wl, 2, false };
	char want[64], *out;
	int ret;

	(void)state;
	make_workload(&wl[0], 0);
	make_workload(&wl[1], 1);
	result_free(wl[1].result.stats);
	wl[1].result.have_result = false;
	/* hostile text where users and the kernel put it */
	strcpy(wl[1].tgt.path, "/tmp/we\"ird\\name\nwith\ttabs\x01");
	wl[1].tgt.kind = TARGET_FILE;
	strcpy(wl[1].tgt.model, "Model \"X\"");
	wl[1].result.warnings[0] = (char *)"a \"quoted\" warning\nover two lines";
	wl[1].result.warnings[1] = (char *)"control \x1f char";
	wl[1].result.nwarn = 2;
	wl[1].result.error = -5;
	strcpy(wl[1].result.errmsg, "read failed: \"Input/output error\"");

	out = render(&report_json_writer, &r);
	if (!json_valid(out))
		fail_msg("report_json output is not valid JSON:\n%s", out);
	assert_non_null(strstr(out, "\"json_version\": 7"));
	/* make_workload's runs write nothing: no verdict */
	assert_non_null(strstr(out, "\"durability\": null"));
	snprintf(want, sizeof(want), "\"seed\": %llu", (unsigned long long)SEED);
	assert_non_null(strstr(out, want));
	assert_non_null(strstr(out, "\"latency_us\": {"));
	assert_non_null(strstr(out, "\"results\": null"));
	assert_non_null(strstr(out, "\"tool\": \"rebench\""));

	ret = python_check(out,
		"assert d[\"json_version\"] == 7\n"
		"w = d[\"workloads\"]\n"
		"assert len(w) == 2\n"
		"r = w[0][\"results\"]\n"
		"assert w[0][\"parameters\"][\"seed\"] == 1311768467294899695\n"
		"assert r[\"ios\"] == 650 and r[\"reads\"] == 650\n"
		"assert r[\"intervals\"][\"complete\"] == 3\n"
		"assert r[\"intervals\"][\"ios\"] == [100, 200, 300, 50]\n"
		"l = r[\"latency_us\"]\n"
		"assert l[\"min\"] <= l[\"p50\"] <= l[\"p90\"] <= l[\"p99\"] <= l[\"p99_9\"] <= l[\"max\"]\n"
		"assert w[1][\"results\"] is None\n"
		"assert w[1][\"target\"][\"path\"] == \"/tmp/we\\\"ird\\\\name\\nwith\\ttabs\\x01\"\n"
		"assert w[1][\"warnings\"][0] == \"a \\\"quoted\\\" warning\\nover two lines\"\n"
		"assert w[1][\"error\"] == \"read failed: \\\"Input/output error\\\"\"\n",
		false);
	if (ret > 0)
		fail_msg("python3 rejected the JSON or its values (exit %d):\n%s",
			 ret, out);
	free(out);
	result_free(wl[0].result.stats);
}

static char *json_doc(void (*build)(struct json *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	assert_non_null(f);
	json_init(&j, f);
	build(&j);
	fclose(f);
	return buf;
}

static void build_escapes(struct json *j)
{
	json_obj_begin(j, NULL);
	json_str(j, "s", "q\"b\\n\nt\tc\x01\x1f" "e\x7f");
	json_str(j, "k\"ey", "v");
	json_str(j, "utf8", "\xc3\xa9");
	json_str(j, "nul", NULL);
	json_obj_end(j);
}

static void test_json_escaping(void **state)
{
	char *out;

	(void)state;
	out = json_doc(build_escapes);
	assert_true(json_valid(out));
	assert_non_null(strstr(out, "\"s\": \"q\\\"b\\\\n\\nt\\tc\\u0001\\u001fe\x7f\""));
	assert_non_null(strstr(out, "\"k\\\"ey\": \"v\""));
	/* UTF-8 passes through untouched */
	assert_non_null(strstr(out, "\"utf8\": \"\xc3\xa9\""));
	assert_non_null(strstr(out, "\"nul\": null"));
	free(out);
}

static void build_shapes(struct json *j)
{
	json_obj_begin(j, NULL);
	json_str(j, "a", "x");
	json_arr_begin(j, "l");
	json_u64(j, NULL, 1);
	json_u64(j, NULL, 2);
	json_arr_end(j);
	json_obj_begin(j, "e");
	json_obj_end(j);
	json_arr_begin(j, "z");
	json_arr_end(j);
	json_obj_end(j);
}

static void build_numbers(struct json *j)
{
	json_obj_begin(j, NULL);
	json_u64(j, "max", UINT64_MAX);
	json_i64(j, "neg", -42);
	json_num(j, "half", 0.5);
	json_num(j, "nan", NAN);
	json_num(j, "inf", INFINITY);
	json_num(j, "big", 1e300);
	json_bool(j, "t", true);
	json_bool(j, "f", false);
	json_null(j, "n");
	json_obj_end(j);
}

static void build_deep(struct json *j)
{
	int i;

	/* as deep as the writer supports, with siblings at each level */
	json_arr_begin(j, NULL);
	for (i = 0; i < JSON_MAX_DEPTH - 2; i++) {
		json_u64(j, NULL, (uint64_t)i);
		json_arr_begin(j, NULL);
	}
	for (i = 0; i < JSON_MAX_DEPTH - 2; i++) {
		json_arr_end(j);
		json_u64(j, NULL, (uint64_t)i);
	}
	json_arr_end(j);
}

static void test_json_shapes(void **state)
{
	char *out;

	(void)state;
	out = json_doc(build_shapes);
	assert_string_equal(out,
		"{\n  \"a\": \"x\",\n  \"l\": [\n    1,\n    2\n  ],\n  \"e\": {},\n  \"z\": []\n}\n");
	free(out);

	out = json_doc(build_numbers);
	if (!json_valid(out))
		fail_msg("invalid JSON:\n%s", out);
	assert_non_null(strstr(out, "\"max\": 18446744073709551615"));
	assert_non_null(strstr(out, "\"neg\": -42"));
	assert_non_null(strstr(out, "\"half\": 0.5"));
	/* JSON has no NaN or infinity */
	assert_non_null(strstr(out, "\"nan\": null"));
	assert_non_null(strstr(out, "\"inf\": null"));
	assert_non_null(strstr(out, "\"t\": true"));
	assert_non_null(strstr(out, "\"f\": false"));
	free(out);

	out = json_doc(build_deep);
	if (!json_valid(out))
		fail_msg("invalid JSON:\n%s", out);
	free(out);
}

static void test_fmt_duration(void **state)
{
	struct amount a = { AMOUNT_TIME, 10 * SEC, 0 };
	char buf[32];

	(void)state;
	/* the duration as the user wrote it */
	assert_string_equal(fmt_duration(buf, sizeof(buf), &a), "10s");
	a.value = 500 * NSEC_PER_MSEC;
	assert_string_equal(fmt_duration(buf, sizeof(buf), &a), "500ms");
	a.kind = AMOUNT_BYTES;
	a.value = 1ULL << 30;
	assert_string_equal(fmt_duration(buf, sizeof(buf), &a), "1g");
	a.kind = AMOUNT_PERCENT;
	a.pct = 50;
	assert_string_equal(fmt_duration(buf, sizeof(buf), &a), "50%");
	a.pct = 12.5;
	assert_string_equal(fmt_duration(buf, sizeof(buf), &a), "12.5%");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_rates),
		cmocka_unit_test(test_result_merge),
		cmocka_unit_test(test_per_op_histograms),
		cmocka_unit_test(test_merge_intervals),
		cmocka_unit_test(test_interval_edges),
		cmocka_unit_test(test_merge_no_full_interval),
		cmocka_unit_test(test_merge_threads),
		cmocka_unit_test(test_series_tail),
		cmocka_unit_test(test_merge_empty),
		cmocka_unit_test(test_io_log),
		cmocka_unit_test(test_series_per_op),
		cmocka_unit_test(test_human),
		cmocka_unit_test(test_terse),
		cmocka_unit_test(test_terse_per_op),
		cmocka_unit_test(test_json_validator_itself),
		cmocka_unit_test(test_writer_table),
		cmocka_unit_test(test_sweep_writers),
		cmocka_unit_test(test_total_writers),
		cmocka_unit_test(test_merge_cpu),
		cmocka_unit_test(test_total_status),
		cmocka_unit_test(test_json_report),
		cmocka_unit_test(test_json_escaping),
		cmocka_unit_test(test_json_shapes),
		cmocka_unit_test(test_fmt_duration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
