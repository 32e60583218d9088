/* test_rate.c - --rate's parser and schedules (src/core/rate.c): the
 * forms accepted and refused, a fixed schedule's exact intervals with the
 * threads interleaved and no drift over a million I/Os, a Poisson
 * schedule's mean and spread from a seed (exponential: the standard
 * deviation equals the mean), the same seed the same schedule, and the
 * figures merged from threads. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/rate.h"

static void test_parse(void **state)
{
	struct rate_spec r;
	char err[512];

	(void)state;
	assert_int_equal(rate_parse("1000", &r, err, sizeof(err)), 0);
	assert_true(r.ops == 1000 && !r.bytes);
	assert_int_equal(rate_parse("2k", &r, err, sizeof(err)), 0);
	assert_true(r.ops == 2000);
	assert_int_equal(rate_parse("1.5m", &r, err, sizeof(err)), 0);
	assert_true(r.ops == 1500000);
	assert_int_equal(rate_parse("0.5", &r, err, sizeof(err)), 0);
	assert_true(r.ops == 0.5);
	assert_int_equal(rate_parse("50m/s", &r, err, sizeof(err)), 0);
	assert_true(r.bytes == 50ULL << 20 && r.ops == 0);
	assert_true(rate_ops(&r, 4096) == 12800);
	assert_int_equal(rate_parse("10m", &r, err, sizeof(err)), 0);
	assert_int_equal(rate_parse("0", &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "above 0"));
	assert_int_equal(rate_parse("-3", &r, err, sizeof(err)), -EINVAL);
	assert_int_equal(rate_parse("10.1m", &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "10000000"));
	assert_int_equal(rate_parse("abc", &r, err, sizeof(err)), -EINVAL);
	assert_int_equal(rate_parse("1000x", &r, err, sizeof(err)), -EINVAL);
	assert_int_equal(rate_parse("0/s", &r, err, sizeof(err)), -EINVAL);
	assert_int_equal(rate_parse("nan", &r, err, sizeof(err)), -EINVAL);
	assert_int_equal(rate_parse("inf", &r, err, sizeof(err)), -EINVAL);
}

/* 3 threads at 3000 ops/s: each 1 ms apart, thread i offset by i/3 ms;
 * after a million I/Os, still on the exact schedule (no drift). */
static void test_fixed(void **state)
{
	struct rate_sched s[3];
	uint64_t base = 1000000000ULL, t;
	unsigned i, k;

	(void)state;
	for (i = 0; i < 3; i++)
		rate_sched_init(&s[i], 3000, 3, i, false, 1, base);
	assert_int_equal(rate_sched_next(&s[0]), base);
	assert_int_equal(rate_sched_next(&s[1]), base + 333333);
	assert_int_equal(rate_sched_next(&s[2]), base + 666666);
	assert_int_equal(rate_sched_next(&s[0]), base + 1000000);
	for (k = 2; k < 1000000; k++)
		t = rate_sched_next(&s[0]);
	assert_int_equal(t, base + 999999ULL * 1000000ULL);
	/* a rate whose interval is not whole ns: 3 ops/us = 333.33 ns */
	rate_sched_init(&s[0], 3e6, 1, 0, false, 1, 0);
	for (k = 0; k < 3000000; k++)
		t = rate_sched_next(&s[0]);
	if (t < 999999666ULL || t > 999999667ULL)
		fail_msg("the 3000000th I/O at %llu ns, want 999999666.67",
			 (unsigned long long)t);
}

/* Exponential intervals: mean and standard deviation both 1 ms over
 * 200000 draws (their standard errors 2.2 us and about 4.5 us: 5 us and
 * 20 us tolerances are beyond 2 and 4 of them); the same seed gives the
 * same schedule, another seed another. */
static void test_poisson(void **state)
{
	struct rate_sched a, b, c;
	double sum = 0, sq = 0, d;
	uint64_t prev, t, tb, tc, same = 0;
	const unsigned n = 200000;
	unsigned k;

	(void)state;
	rate_sched_init(&a, 1000, 1, 0, true, 42, 0);
	rate_sched_init(&b, 1000, 1, 0, true, 42, 0);
	rate_sched_init(&c, 1000, 1, 0, true, 43, 0);
	prev = rate_sched_next(&a);
	rate_sched_next(&b);
	rate_sched_next(&c);
	for (k = 0; k < n; k++) {
		t = rate_sched_next(&a);
		tb = rate_sched_next(&b);
		tc = rate_sched_next(&c);
		assert_int_equal(t, tb);
		same += t == tc;
		d = (double)(t - prev);
		sum += d;
		sq += d * d;
		prev = t;
	}
	d = sum / n;
	if (fabs(d - 1e6) > 5e3)
		fail_msg("mean interval %.1f ns, want 1e6", d);
	d = sqrt(sq / n - d * d);
	if (fabs(d - 1e6) > 2e4)
		fail_msg("interval sd %.1f ns, want 1e6 (exponential)", d);
	assert_true(same < 10);
}

/* Two threads merged: the scheduled rate from the intended starts, the
 * lateness and the verdicts. */
static void test_merge(void **state)
{
	static struct rate_thread t0, t1;
	struct rate_thread *t[2] = { &t0, &t1 };
	static struct rate_result r;
	uint64_t k;

	(void)state;
	rate_thread_reset(&t0);
	rate_thread_reset(&t1);
	/* 500 ops/s each, 1000 I/Os each, on time but for one 3 ms late */
	for (k = 0; k < 1000; k++) {
		rate_thread_record(&t0, k * 2000000, k * 2000000 + 100,
				   k * 2000000 + 50000, true);
		rate_thread_record(&t1, k * 2000000 + 1000000,
				   k * 2000000 + 1000000 + (k == 500 ? 3000000 : 100),
				   k * 2000000 + 1000000 + (k == 500 ? 3050000 : 50000),
				   k != 500);
	}
	r.asked = 1000;
	r.arrival = ARRIVAL_FIXED;
	rate_merge(&r, t, 2, 2000, 2000000000ULL);
	assert_true(fabs(r.scheduled - 1000) < 1e-9);
	assert_int_equal(r.ios, 2000);
	assert_int_equal(r.late, 1);
	assert_int_equal(r.late_max_ns, 3000000);
	assert_true(r.met && !r.behind);
	assert_int_equal(r.intended.count, 2000);
	assert_int_equal(r.intended.max, 3050000);
	/* half the I/Os in the same time: not met */
	rate_merge(&r, t, 2, 1000, 2000000000ULL);
	assert_false(r.met);
	/* the last I/O 3 ms late, more than the 2 ms interval: behind */
	t1.lag_end_ns = 3000000;
	rate_merge(&r, t, 2, 2000, 2000000000ULL);
	assert_true(r.behind && !r.met);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_poisson),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
