/* test_stream.c - the synthetic I/O stream (src/gen/stream_synth.c) and the
 * mixes it draws from (src/gen/mix.c).
 *
 * With fixed seeds: exact operation counts and size shares (the stream is
 * reproducible), chi-square of the achieved size shares against the
 * intended ones, a range that is exactly uniform over its steps, flushes
 * without offset or size, contiguous sequential I/O with varying sizes,
 * byte budgets, and the parser's refusals.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <gsl/gsl_cdf.h>

#include "gen/mix.h"
#include "gen/stream.h"

#define MiB (1ULL << 20)
#define N 200000

static void parse_ops_ok(const char *text, struct op_mix *m)
{
	char err[256] = "";
	int op = -1;

	if (mix_parse_ops(text, &op, m, err, sizeof(err)))
		fail_msg("mix_parse_ops(%s): %s", text, err);
	assert_int_equal(op, OP_MIX);
}

static void parse_sizes_ok(const char *text, uint64_t *bs, struct size_mix *m)
{
	char err[256] = "";

	if (mix_parse_sizes(text, bs, m, err, sizeof(err)))
		fail_msg("mix_parse_sizes(%s): %s", text, err);
}

/* A refusal, and the words its message must hold. */
static void refused(bool ops, const char *text, const char *words)
{
	struct op_mix om;
	struct size_mix sm;
	char err[256] = "";
	uint64_t bs;
	int op, ret;

	ret = ops ? mix_parse_ops(text, &op, &om, err, sizeof(err)) :
		    mix_parse_sizes(text, &bs, &sm, err, sizeof(err));
	if (!ret)
		fail_msg("'%s' was accepted", text);
	if (!strstr(err, words))
		fail_msg("'%s': message '%s' lacks '%s'", text, err, words);
}

static void test_parse(void **state)
{
	struct op_mix om;
	struct size_mix sm;
	uint64_t bs;

	(void)state;
	parse_ops_ok("read/70:write/30", &om);
	assert_true(om.pct[IO_READ] == 70 && om.pct[IO_WRITE] == 30);
	/* blanks share what is left evenly */
	parse_ops_ok("write/90:fsync:fdatasync/", &om);
	assert_true(om.pct[IO_FSYNC] == 5 && om.pct[IO_FDATASYNC] == 5);
	parse_ops_ok("fsync", &om);
	assert_true(om.pct[IO_FSYNC] == 100);
	assert_int_equal(mix_kinds(&om), 1U << IO_FSYNC);

	parse_sizes_ok("4k/10:64k/50:32k/40", &bs, &sm);
	assert_int_equal(bs, 65536);
	assert_int_equal(sm.n, 3);
	assert_false(sm.range);
	assert_int_equal(size_mix_min(&sm, bs), 4096);
	parse_sizes_ok("4k:8k/50:16k", &bs, &sm);
	assert_true(sm.pct[0] == 25 && sm.pct[2] == 25);
	parse_sizes_ok("100-400/1", &bs, &sm);
	assert_true(sm.range && sm.step_given);
	assert_int_equal(bs, 400);
	assert_int_equal(sm.step, 1);
	parse_sizes_ok("4k", &bs, &sm);
	assert_int_equal(bs, 4096);
	assert_false(size_mix_active(&sm));

	refused(true, "read/70:write/40", "more than 100%");
	refused(true, "read/70:write/20", "not 100%");
	refused(true, "read/50:read/50", "named twice");
	refused(true, "read/50:fsink/50", "not an operation");
	refused(true, "read/0:write/0", "add up to 0%");
	refused(true, "read/:", "empty");
	refused(true, "read/abc", "percentage");
	refused(false, "4k/60:8k/60", "more than 100%");
	refused(false, "0", "0 bytes");
	refused(false, "4k/50:0/50", "0 bytes");
	refused(false, "4k/50:4k/50", "named twice");
	refused(false, "100-400/7", "does not divide");
	refused(false, "400-100", "empty");
	refused(false, "2g", "1g");
}

/* n draws of a stream; counts per kind and per size. */
struct tally {
	uint64_t kind[IO_KINDS];
	uint64_t bytes;
	uint64_t by_size[1024];	/* index: size / granule */
};

static void draw(struct io_stream *s, size_t n, uint64_t granule,
		 struct tally *t)
{
	struct io_req r;
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < n; i++) {
		assert_true(stream_next(s, &r));
		t->kind[r.kind]++;
		t->bytes += r.len;
		if (IO_IS_FLUSH(r.kind)) {
			assert_int_equal(r.len, 0);
			assert_int_equal(r.off, 0);
			continue;
		}
		assert_true(r.len % granule == 0 && r.len / granule < 1024);
		t->by_size[r.len / granule]++;
	}
}

static void init(struct io_stream *s, const struct op_mix *om,
		 const struct size_table *st, uint64_t bs, uint64_t stride,
		 bool random, uint64_t budget, uint64_t seed)
{
	struct synth_params p = {
		.region_start = 0, .region_len = 64 * MiB, .bs = bs,
		.stride = stride, .random = random, .ops = om, .sizes = st,
		.seed = seed, .thread = 0, .nthreads = 1, .budget = budget,
		.contiguous = !random && st && st->active,
	};

	stream_synth_init(s, &p);
}

/* Pearson's p-value of observed against expected counts. */
static double chi2_p(const uint64_t *obs, const double *expect, unsigned n)
{
	double chi2 = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		chi2 += ((double)obs[i] - expect[i]) * ((double)obs[i] - expect[i]) /
			expect[i];
	return gsl_cdf_chisq_Q(chi2, n - 1);
}

static void test_op_mix_counts(void **state)
{
	struct op_mix om;
	struct io_stream s, again;
	struct tally a, b;
	double expect[3];
	uint64_t obs[3];

	(void)state;
	parse_ops_ok("read/70:write/20:fsync/10", &om);
	init(&s, &om, NULL, 4096, 4096, true, 0, 42);
	draw(&s, N, 4096, &a);
	assert_int_equal(a.kind[IO_READ] + a.kind[IO_WRITE] + a.kind[IO_FSYNC], N);
	/* the same seed gives exactly the same stream */
	init(&again, &om, NULL, 4096, 4096, true, 0, 42);
	draw(&again, N, 4096, &b);
	assert_memory_equal(a.kind, b.kind, sizeof(a.kind));
	/* and the shares are what was asked, by chi-square */
	obs[0] = a.kind[IO_READ], obs[1] = a.kind[IO_WRITE], obs[2] = a.kind[IO_FSYNC];
	expect[0] = 0.7 * N, expect[1] = 0.2 * N, expect[2] = 0.1 * N;
	assert_true(chi2_p(obs, expect, 3) > 0.001);
	assert_int_equal(a.bytes, (a.kind[IO_READ] + a.kind[IO_WRITE]) * 4096);
	/* a plain rw mix draws as the classic rw coin did: r < rwmix * 2^53 */
	mix_ops_of(OP_RW, 70, &om);
	init(&s, &om, NULL, 4096, 4096, true, 0, 7);
	{
		struct prng coin;
		struct io_req r;
		int i;

		prng_seed(&coin, 7, 0);
		for (i = 0; i < 1000; i++) {
			int want = (prng_next(&coin) >> 11) <
				   (uint64_t)(0.7 * (double)(1ULL << 53)) ?
				   IO_READ : IO_WRITE;

			prng_below(&coin, s.pat.slots);	/* the offset draw */
			assert_true(stream_next(&s, &r));
			assert_int_equal(r.kind, want);
		}
	}
}

static void test_size_split(void **state)
{
	struct op_mix om;
	struct size_mix sm;
	struct size_table st;
	struct size_fit fit;
	struct io_stream s;
	struct tally t;
	const uint64_t *hits[1];
	uint64_t bs, obs[3];
	double expect[3];

	(void)state;
	mix_ops_of(OP_READ, 0, &om);
	parse_sizes_ok("4k/10:64k/50:32k/40", &bs, &sm);
	size_table_build(&st, &sm);
	assert_int_equal(st.nbins, 3);
	init(&s, &om, &st, bs, 4096, true, 0, 1);
	draw(&s, N, 4096, &t);
	obs[0] = t.by_size[1], obs[1] = t.by_size[16], obs[2] = t.by_size[8];
	assert_int_equal(obs[0] + obs[1] + obs[2], N);
	expect[0] = 0.1 * N, expect[1] = 0.5 * N, expect[2] = 0.4 * N;
	assert_true(chi2_p(obs, expect, 3) > 0.001);
	/* the stream's own bins agree with what it returned */
	assert_int_equal(s.size_hits[0], obs[0]);
	assert_int_equal(s.size_hits[1], obs[1]);
	assert_int_equal(s.size_hits[2], obs[2]);
	hits[0] = s.size_hits;
	size_fit_compute(&fit, &st, hits, 1);
	assert_true(fit.present);
	assert_int_equal(fit.n, N);
	assert_int_equal(fit.dof, 2);
	assert_true(fit.p_value > 0.001);
	/* every offset keeps the largest size inside the region */
	{
		struct io_req r;
		int i;

		for (i = 0; i < 10000; i++) {
			assert_true(stream_next(&s, &r));
			assert_true(r.off % 4096 == 0);
			assert_true(r.off + r.len <= 64 * MiB);
		}
	}
}

/* A range is exactly uniform over its steps: every one of 301 sizes, by
 * chi-square, including both ends. */
static void test_size_range_uniform(void **state)
{
	struct op_mix om;
	struct size_mix sm;
	struct size_table st;
	struct io_stream s;
	struct tally t;
	uint64_t bs, obs[301];
	double expect[301];
	unsigned i;

	(void)state;
	mix_ops_of(OP_READ, 0, &om);
	parse_sizes_ok("100-400/1", &bs, &sm);
	size_table_build(&st, &sm);
	assert_int_equal(st.nsizes, 301);
	assert_int_equal(st.per_bin, 5);	/* 301 sizes in 61 bins */
	assert_int_equal(st.nbins, 61);
	init(&s, &om, &st, bs, 100, true, 0, 3);
	draw(&s, N, 1, &t);
	for (i = 0; i < 301; i++) {
		obs[i] = t.by_size[100 + i];
		expect[i] = (double)N / 301;
	}
	assert_true(obs[0] > 0 && obs[300] > 0);
	assert_true(chi2_p(obs, expect, 301) > 0.001);
}

/* Sequential with varying sizes: each I/O starts where the last ended,
 * and the stream wraps at the region's end. */
static void test_contiguous(void **state)
{
	struct op_mix om;
	struct size_mix sm;
	struct size_table st;
	struct io_stream s;
	struct io_req r;
	uint64_t bs, next = 0, wraps = 0;
	int i;

	(void)state;
	mix_ops_of(OP_WRITE, 0, &om);
	parse_sizes_ok("4k/50:1m/50", &bs, &sm);
	size_table_build(&st, &sm);
	init(&s, &om, &st, bs, 4096, false, 0, 5);
	for (i = 0; i < 1000; i++) {
		assert_true(stream_next(&s, &r));
		if (r.off != next) {
			assert_int_equal(r.off, 0);	/* a wrap */
			assert_true(next + r.len > 64 * MiB);
			wraps++;
		}
		assert_true(r.off + r.len <= 64 * MiB);
		next = r.off + r.len;
	}
	assert_true(wraps >= 1);
}

/* A byte budget ends the stream once its bytes are issued; flushes do not
 * count against it. */
static void test_budget(void **state)
{
	struct op_mix om;
	struct io_stream s;
	struct io_req r;
	uint64_t bytes = 0, ios = 0, flushes = 0;

	(void)state;
	parse_ops_ok("write/80:fdatasync/20", &om);
	init(&s, &om, NULL, 4096, 4096, true, 100 * 4096, 9);
	while (stream_next(&s, &r)) {
		bytes += r.len;
		ios++;
		flushes += IO_IS_FLUSH(r.kind);
	}
	assert_int_equal(bytes, 100 * 4096);
	assert_int_equal(ios - flushes, 100);
	assert_true(flushes > 0);
	assert_false(stream_next(&s, &r));
}

/* --sync's flushes: one right after every N-th write, never drawn, so a
 * read/write mix of 70 writes gives floor(70 / N) of them, each after its
 * N-th write; end gives one after the last write; the data I/Os are the
 * ones the stream draws without a policy. */
static void test_policy_flushes(void **state)
{
	static const struct { uint32_t every; bool end; int kind; } c[] = {
		{ 1, false, IO_FDATASYNC }, { 4, false, IO_FSYNC },
		{ 7, false, IO_FDATASYNC }, { 200, false, IO_FSYNC },
		{ 0, true, IO_FSYNC },
	};
	struct op_mix om;
	struct io_stream s, plain;
	struct io_req r, q;
	unsigned i;

	(void)state;
	parse_ops_ok("read/50:write/50", &om);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		uint64_t writes = 0, flushes = 0, since = 0;
		int last = -1;

		init(&s, &om, NULL, 4096, 4096, true, 140 * 4096, 3);
		init(&plain, &om, NULL, 4096, 4096, true, 140 * 4096, 3);
		s.flush_kind = c[i].kind;
		s.flush_every = c[i].every;
		s.end_flush = c[i].end;
		while (stream_next(&s, &r)) {
			last = r.kind;
			if (IO_IS_FLUSH(r.kind)) {
				assert_int_equal(r.kind, c[i].kind);
				assert_int_equal(r.len, 0);
				if (!c[i].end)
					assert_int_equal(since, c[i].every);
				since = 0;
				flushes++;
				continue;
			}
			assert_true(stream_next(&plain, &q));
			assert_int_equal(r.kind, q.kind);
			assert_int_equal(r.off, q.off);
			if (r.kind == IO_WRITE) {
				writes++;
				since++;
			}
		}
		assert_false(stream_next(&plain, &q));
		assert_true(writes > 40 && writes < 100);
		if (c[i].end) {
			assert_int_equal(flushes, 1);
			/* the stream's very last I/O */
			assert_int_equal(last, IO_FSYNC);
		} else {
			assert_int_equal(flushes, writes / c[i].every);
		}
	}
}

/* The stream of --sync sfr:N with the data I/Os of a plain stream. */
static void init_sfr(struct io_stream *s, const struct op_mix *om,
		     uint64_t region, bool random, uint32_t every,
		     uint64_t budget)
{
	struct synth_params p = {
		.region_start = 0, .region_len = region, .bs = 4096,
		.stride = 4096, .random = random, .ops = om, .seed = 5,
		.thread = 0, .nthreads = 1, .budget = budget,
		.flush_kind = IO_SYNC_RANGE, .flush_every = every,
	};

	stream_synth_init(s, &p);
}

/* sfr:N: a sync_file_range after every N-th write, covering exactly the
 * writes since the one before, from the lowest offset to the highest end
 * (reads do not count); the data I/Os are those of the stream without
 * it.  Sequential writes give back-to-back ranges of N blocks; a range
 * over 4 GiB is "to the end of the file" (span 0) from its lowest
 * offset.  A mix cannot draw one. */
static void test_sync_range(void **state)
{
	struct op_mix om, wo;
	struct io_stream s, plain;
	struct io_req r, q;
	uint64_t lo = UINT64_MAX, hi = 0, writes = 0, ranges = 0, since = 0;
	char err[256];
	int op;

	(void)state;
	parse_ops_ok("read/30:write/70", &om);
	init_sfr(&s, &om, 64 * MiB, true, 5, 2000 * 4096);
	init(&plain, &om, NULL, 4096, 4096, true, 2000 * 4096, 5);
	while (stream_next(&s, &r)) {
		if (r.kind == IO_SYNC_RANGE) {
			assert_int_equal(since, 5);
			assert_int_equal(r.len, 0);
			assert_int_equal(r.off, lo);
			assert_int_equal(r.span, hi - lo);
			assert_true(r.span >= 4096);
			lo = UINT64_MAX;
			hi = 0;
			since = 0;
			ranges++;
			continue;
		}
		assert_true(stream_next(&plain, &q));
		assert_int_equal(r.kind, q.kind);
		assert_int_equal(r.off, q.off);
		assert_int_equal(r.span, 0);
		if (r.kind != IO_WRITE)
			continue;
		writes++;
		since++;
		if (r.off < lo)
			lo = r.off;
		if (r.off + r.len > hi)
			hi = r.off + r.len;
	}
	assert_false(stream_next(&plain, &q));
	assert_true(writes > 1200 && writes < 1600);
	assert_int_equal(ranges, writes / 5);

	/* sequential: ranges of 4 blocks, one after the other */
	parse_ops_ok("write", &wo);
	init_sfr(&s, &wo, 64 * MiB, false, 4, 400 * 4096);
	ranges = 0;
	while (stream_next(&s, &r)) {
		if (r.kind != IO_SYNC_RANGE)
			continue;
		assert_int_equal(r.off, ranges * 4 * 4096);
		assert_int_equal(r.span, 4 * 4096);
		ranges++;
	}
	assert_int_equal(ranges, 100);

	/* 1000 random writes over 64 GiB span more than 4 GiB */
	init_sfr(&s, &wo, 64ULL << 30, true, 1000, 1000 * 4096);
	lo = UINT64_MAX;
	ranges = 0;
	while (stream_next(&s, &r)) {
		if (r.kind == IO_SYNC_RANGE) {
			assert_int_equal(r.off, lo);
			assert_int_equal(r.span, 0);
			ranges++;
		} else if (r.off < lo) {
			lo = r.off;
		}
	}
	assert_int_equal(ranges, 1);

	assert_int_equal(mix_parse_ops("write/90:sync_file_range/10", &op, &om,
				       err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--sync sfr:N"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_op_mix_counts),
		cmocka_unit_test(test_size_split),
		cmocka_unit_test(test_size_range_uniform),
		cmocka_unit_test(test_contiguous),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_policy_flushes),
		cmocka_unit_test(test_sync_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
