/* test_units.c - the shared parsers and formatters of src/core/units.c.
 *
 * Every option goes through these, so a wrong suffix or a silently accepted
 * typo here changes what every workload measures.  Checks: size suffixes
 * (powers of 1024, any case, fractions that land on a whole byte), refusal
 * of malformed and overflowing input, times with a per-option unit, the
 * three meanings of -d (time, bytes, %), extents, percentages, and that the
 * formatters print exactly the forms the classic output line uses.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/units.h"

#define KiB (1ULL << 10)
#define MiB (1ULL << 20)
#define GiB (1ULL << 30)
#define TiB (1ULL << 40)
#define PiB (1ULL << 50)

static void expect_size(const char *s, uint64_t want)
{
	uint64_t v = 0xdeadbeef;

	if (parse_size(s, &v) != 0)
		fail_msg("parse_size(\"%s\") refused, want %llu", s,
			 (unsigned long long)want);
	if (v != want)
		fail_msg("parse_size(\"%s\") = %llu, want %llu", s,
			 (unsigned long long)v, (unsigned long long)want);
}

static void expect_size_err(const char *s, int err)
{
	uint64_t v = 0;
	int ret = parse_size(s, &v);

	if (ret != err)
		fail_msg("parse_size(\"%s\") = %d (value %llu), want %d", s,
			 ret, (unsigned long long)v, err);
}

static void test_size_suffixes(void **state)
{
	(void)state;
	expect_size("0", 0);
	expect_size("512", 512);
	expect_size("512b", 512);
	expect_size("512B", 512);
	expect_size("4k", 4 * KiB);
	expect_size("4K", 4 * KiB);
	expect_size("4kb", 4 * KiB);
	expect_size("4KB", 4 * KiB);
	expect_size("4kib", 4 * KiB);
	expect_size("4KiB", 4 * KiB);
	expect_size("1m", MiB);
	expect_size("1M", MiB);
	expect_size("1mib", MiB);
	expect_size("3g", 3 * GiB);
	expect_size("3GiB", 3 * GiB);
	expect_size("2t", 2 * TiB);
	expect_size("2tb", 2 * TiB);
	expect_size("1p", PiB);
	/* the largest size that still fits in 64 bits */
	expect_size("16383p", 16383 * PiB);
	expect_size("18446744073709551615", UINT64_MAX);
}

static void test_size_fractions(void **state)
{
	(void)state;
	expect_size("1.5k", 1536);
	expect_size("0.5k", 512);
	expect_size("1.5g", GiB + GiB / 2);
	expect_size("2.25m", 2 * MiB + MiB / 4);
	expect_size("1.0", 1);
	/* a fraction must land on a whole byte */
	expect_size_err("1.3", -EINVAL);
	expect_size_err("1.1k", -EINVAL);
	expect_size_err("0.5", -EINVAL);
}

static void test_size_rejects(void **state)
{
	uint64_t v = 0;

	(void)state;
	expect_size_err("", -EINVAL);
	expect_size_err("-1", -EINVAL);
	expect_size_err("+1", -EINVAL);
	expect_size_err("abc", -EINVAL);
	expect_size_err("k", -EINVAL);
	expect_size_err(".5k", -EINVAL);
	expect_size_err("4q", -EINVAL);
	expect_size_err("4kk", -EINVAL);
	expect_size_err("4 k", -EINVAL);
	expect_size_err("4k ", -EINVAL);
	expect_size_err(" 4k", -EINVAL);
	expect_size_err("1.5.5k", -EINVAL);
	expect_size_err("4ms", -EINVAL);
	assert_int_equal(parse_size(NULL, &v), -EINVAL);
	expect_size_err("99999999999t", -ERANGE);
	expect_size_err("16384p", -ERANGE);
	expect_size_err("18446744073709551616", -ERANGE);
	expect_size_err("99999999999999999999999", -ERANGE);
	expect_size_err("16384.5p", -ERANGE);
}

/* Accepted only as the value it spells, or refused: never something else. */
static void expect_not_misread(const char *s, uint64_t unit, uint64_t meant)
{
	struct amount a = { 0 };
	uint64_t v = 0;

	if (!parse_size(s, &v) && v != meant)
		fail_msg("parse_size(\"%s\") = %llu, want %llu or an error", s,
			 (unsigned long long)v, (unsigned long long)meant);
	if (!parse_time(s, unit, &v) && v != meant * unit)
		fail_msg("parse_time(\"%s\") = %llu ns, want %llu or an error",
			 s, (unsigned long long)v,
			 (unsigned long long)(meant * unit));
	if (!parse_duration(s, &a) && a.value != meant * NSEC_PER_SEC)
		fail_msg("parse_duration(\"%s\") = %llu ns, want %llu or an error",
			 s, (unsigned long long)a.value,
			 (unsigned long long)(meant * NSEC_PER_SEC));
}

static void test_no_exponent_or_hex(void **state)
{
	uint64_t v = 0;

	(void)state;
	/*
	 * strtod() reads exponents and hex, the integer path does not:
	 * "1e3" must not quietly become 1 (-b 1e3 = 1-byte I/O, -d 1e3 =
	 * 1 s), nor "0x10" 0.  Refusing is right; the spelled value too.
	 */
	expect_not_misread("1e3", NSEC_PER_MSEC, 1000);
	expect_not_misread("1E2", NSEC_PER_MSEC, 100);
	expect_not_misread("0x10", NSEC_PER_MSEC, 16);
	if (!parse_size("1e3k", &v) && v != 1000 * KiB)
		fail_msg("parse_size(\"1e3k\") = %llu, want %llu or an error",
			 (unsigned long long)v,
			 (unsigned long long)(1000 * KiB));
	if (!parse_size("0x1k", &v) && v != KiB)
		fail_msg("parse_size(\"0x1k\") = %llu, want %llu or an error",
			 (unsigned long long)v, (unsigned long long)KiB);
}

static void test_uint_double(void **state)
{
	uint64_t u;
	double d;

	(void)state;
	assert_int_equal(parse_uint("42", &u), 0);
	assert_int_equal(u, 42);
	assert_int_equal(parse_uint("18446744073709551615", &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(parse_uint("18446744073709551616", &u), -ERANGE);
	assert_int_equal(parse_uint("", &u), -EINVAL);
	assert_int_equal(parse_uint("4k", &u), -EINVAL);
	assert_int_equal(parse_uint("-1", &u), -EINVAL);
	assert_int_equal(parse_double("2.5", &d), 0);
	assert_true(d == 2.5);
	assert_int_equal(parse_double(".5", &d), 0);
	assert_true(d == 0.5);
	assert_int_equal(parse_double("-2", &d), -EINVAL);
	assert_int_equal(parse_double("2x", &d), -EINVAL);
	assert_int_equal(parse_double("1e999", &d), -EINVAL);
}

static void expect_time(const char *s, uint64_t unit, uint64_t want)
{
	uint64_t v = 0;

	if (parse_time(s, unit, &v) != 0)
		fail_msg("parse_time(\"%s\") refused", s);
	if (v != want)
		fail_msg("parse_time(\"%s\", unit %llu) = %llu, want %llu", s,
			 (unsigned long long)unit, (unsigned long long)v,
			 (unsigned long long)want);
}

static void test_time(void **state)
{
	uint64_t v;

	(void)state;
	/* a bare number is in the option's unit: ms for -g, us for -z */
	expect_time("10", NSEC_PER_MSEC, 10 * NSEC_PER_MSEC);
	expect_time("10", NSEC_PER_USEC, 10 * NSEC_PER_USEC);
	expect_time("0", NSEC_PER_MSEC, 0);
	expect_time("1.5", NSEC_PER_MSEC, 1500 * NSEC_PER_USEC);
	/* a suffix overrides the unit */
	expect_time("100ns", NSEC_PER_MSEC, 100);
	expect_time("5us", NSEC_PER_MSEC, 5 * NSEC_PER_USEC);
	expect_time("5US", NSEC_PER_MSEC, 5 * NSEC_PER_USEC);
	expect_time("250ms", NSEC_PER_USEC, 250 * NSEC_PER_MSEC);
	expect_time("3s", NSEC_PER_MSEC, 3 * NSEC_PER_SEC);
	expect_time("3sec", NSEC_PER_MSEC, 3 * NSEC_PER_SEC);
	expect_time("2min", NSEC_PER_MSEC, 120 * NSEC_PER_SEC);
	expect_time("1h", NSEC_PER_MSEC, 3600 * NSEC_PER_SEC);
	expect_time("1.5s", NSEC_PER_MSEC, 1500 * NSEC_PER_MSEC);
	/* "m" is a size suffix, not minutes: refused as a time */
	assert_int_equal(parse_time("10m", NSEC_PER_MSEC, &v), -EINVAL);
	assert_int_equal(parse_time("10k", NSEC_PER_MSEC, &v), -EINVAL);
	assert_int_equal(parse_time("", NSEC_PER_MSEC, &v), -EINVAL);
	assert_int_equal(parse_time("-5ms", NSEC_PER_MSEC, &v), -EINVAL);
	assert_int_equal(parse_time("0.5ns", NSEC_PER_MSEC, &v), -EINVAL);
	assert_int_equal(parse_time("99999999999h", NSEC_PER_MSEC, &v),
			 -ERANGE);
}

static void expect_amount(int (*fn)(const char *, struct amount *),
			  const char *s, enum amount_kind kind,
			  uint64_t value, double pct)
{
	struct amount a = { 0 };

	if (fn(s, &a) != 0)
		fail_msg("\"%s\" refused", s);
	if (a.kind != kind)
		fail_msg("\"%s\": kind %d, want %d", s, a.kind, kind);
	if (kind == AMOUNT_PERCENT) {
		if (a.pct != pct)
			fail_msg("\"%s\": %g%%, want %g%%", s, a.pct, pct);
	} else if (a.value != value) {
		fail_msg("\"%s\": value %llu, want %llu", s,
			 (unsigned long long)a.value,
			 (unsigned long long)value);
	}
}

static void test_duration(void **state)
{
	struct amount a;

	(void)state;
	/* bare number: seconds (classic -d 10) */
	expect_amount(parse_duration, "10", AMOUNT_TIME, 10 * NSEC_PER_SEC, 0);
	expect_amount(parse_duration, "500ms", AMOUNT_TIME,
		      500 * NSEC_PER_MSEC, 0);
	expect_amount(parse_duration, "1.5s", AMOUNT_TIME,
		      1500 * NSEC_PER_MSEC, 0);
	expect_amount(parse_duration, "2min", AMOUNT_TIME,
		      120 * NSEC_PER_SEC, 0);
	expect_amount(parse_duration, "1h", AMOUNT_TIME,
		      3600 * NSEC_PER_SEC, 0);
	/* size suffix: an amount of data (classic -d 1g; "1m" is 1 MiB) */
	expect_amount(parse_duration, "1g", AMOUNT_BYTES, GiB, 0);
	expect_amount(parse_duration, "1m", AMOUNT_BYTES, MiB, 0);
	expect_amount(parse_duration, "1M", AMOUNT_BYTES, MiB, 0);
	expect_amount(parse_duration, "64k", AMOUNT_BYTES, 64 * KiB, 0);
	expect_amount(parse_duration, "4kib", AMOUNT_BYTES, 4 * KiB, 0);
	expect_amount(parse_duration, "1t", AMOUNT_BYTES, TiB, 0);
	expect_amount(parse_duration, "1.5g", AMOUNT_BYTES,
		      GiB + GiB / 2, 0);
	/* share of the region */
	expect_amount(parse_duration, "50%", AMOUNT_PERCENT, 0, 50);
	expect_amount(parse_duration, "12.5%", AMOUNT_PERCENT, 0, 12.5);
	expect_amount(parse_duration, "200%", AMOUNT_PERCENT, 0, 200);

	assert_int_not_equal(parse_duration("", &a), 0);
	assert_int_not_equal(parse_duration("abc", &a), 0);
	assert_int_not_equal(parse_duration("%", &a), 0);
	assert_int_not_equal(parse_duration("-1", &a), 0);
	assert_int_not_equal(parse_duration("10q", &a), 0);
	assert_int_not_equal(parse_duration("99999999999h", &a), 0);
}

static void test_extent(void **state)
{
	struct amount a;

	(void)state;
	expect_amount(parse_extent, "0", AMOUNT_BYTES, 0, 0);
	expect_amount(parse_extent, "4096", AMOUNT_BYTES, 4096, 0);
	expect_amount(parse_extent, "1m", AMOUNT_BYTES, MiB, 0);
	expect_amount(parse_extent, "1.5k", AMOUNT_BYTES, 1536, 0);
	expect_amount(parse_extent, "25%", AMOUNT_PERCENT, 0, 25);
	expect_amount(parse_extent, "0.5%", AMOUNT_PERCENT, 0, 0.5);
	assert_int_not_equal(parse_extent("", &a), 0);
	assert_int_not_equal(parse_extent("x", &a), 0);
	assert_int_not_equal(parse_extent("10s", &a), 0);
	assert_int_not_equal(parse_extent("-5%", &a), 0);
}

static void test_percent(void **state)
{
	double p;

	(void)state;
	assert_int_equal(parse_percent("50", &p), 0);
	assert_true(p == 50);
	assert_int_equal(parse_percent("50%", &p), 0);
	assert_true(p == 50);
	assert_int_equal(parse_percent("12.5%", &p), 0);
	assert_true(p == 12.5);
	assert_int_equal(parse_percent("0", &p), 0);
	assert_true(p == 0);
	assert_int_equal(parse_percent("", &p), -EINVAL);
	assert_int_equal(parse_percent("%", &p), -EINVAL);
	assert_int_equal(parse_percent("5%%", &p), -EINVAL);
	assert_int_equal(parse_percent("-5", &p), -EINVAL);
	assert_int_equal(parse_percent("abc", &p), -EINVAL);
	assert_int_equal(parse_percent("5 %", &p), -EINVAL);
}

static void expect_fmt(char *(*fn)(char *, size_t, uint64_t), uint64_t v,
		       const char *want)
{
	char buf[64];

	assert_string_equal(fn(buf, sizeof(buf), v), want);
}

static void test_fmt_size_short(void **state)
{
	(void)state;
	/* exact: only a whole number of a unit gets that unit */
	expect_fmt(fmt_size_short, 0, "0b");
	expect_fmt(fmt_size_short, 1, "1b");
	expect_fmt(fmt_size_short, 512, "512b");
	expect_fmt(fmt_size_short, 1023, "1023b");
	expect_fmt(fmt_size_short, 1024, "1k");
	expect_fmt(fmt_size_short, 1536, "1536b");
	expect_fmt(fmt_size_short, 4096, "4k");
	expect_fmt(fmt_size_short, 1025 * KiB, "1025k");
	expect_fmt(fmt_size_short, MiB, "1m");
	expect_fmt(fmt_size_short, MiB + MiB / 2, "1536k");
	expect_fmt(fmt_size_short, MiB + 512, "1049088b");
	expect_fmt(fmt_size_short, 3 * GiB, "3g");
	expect_fmt(fmt_size_short, TiB, "1t");
	expect_fmt(fmt_size_short, PiB, "1p");
	expect_fmt(fmt_size_short, 1ULL << 60, "1024p");
	expect_fmt(fmt_size_short, UINT64_MAX, "18446744073709551615b");
}

static void test_fmt_size_short_roundtrip(void **state)
{
	static const uint64_t vals[] = {
		0, 1, 511, 512, 1536, 4096, 12288, 65536, MiB + 4096,
		7 * GiB, 3 * TiB + GiB, 5 * PiB, UINT64_MAX - 1,
	};
	char buf[64];
	uint64_t back;
	size_t i;

	(void)state;
	/* the short form is exact, so parsing it gives the value back */
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		fmt_size_short(buf, sizeof(buf), vals[i]);
		assert_int_equal(parse_size(buf, &back), 0);
		assert_true(back == vals[i]);
	}
}

static void test_fmt_size_human(void **state)
{
	(void)state;
	expect_fmt(fmt_size_human, 0, "0 B");
	expect_fmt(fmt_size_human, 512, "512 B");
	expect_fmt(fmt_size_human, 1023, "1023 B");
	expect_fmt(fmt_size_human, 1024, "1 KiB");
	expect_fmt(fmt_size_human, 1536, "1.5 KiB");
	expect_fmt(fmt_size_human, 64 * MiB, "64 MiB");
	expect_fmt(fmt_size_human, 15 * GiB, "15 GiB");
	expect_fmt(fmt_size_human, GiB + GiB / 2, "1.5 GiB");
	expect_fmt(fmt_size_human, 2 * TiB, "2 TiB");
	expect_fmt(fmt_size_human, 3 * PiB, "3 PiB");
}

/* --units si: powers of 1000, as drive data sheets count; rates too. */
static void test_units_si(void **state)
{
	char buf[64];

	(void)state;
	units_set(UNITS_SI);
	expect_fmt(fmt_size_human, 999, "999 B");
	expect_fmt(fmt_size_human, 1000, "1 kB");
	expect_fmt(fmt_size_human, 256 * MiB, "268.4 MB");
	expect_fmt(fmt_size_human, 4000000000ULL, "4 GB");
	assert_string_equal(fmt_rate(buf, sizeof(buf), 1.0), "1.05 MB/s");
	assert_string_equal(rate_unit(), "MB/s");
	units_set(UNITS_IEC);
	assert_string_equal(fmt_rate(buf, sizeof(buf), 30.59), "30.59 MiB/s");
	assert_string_equal(rate_unit(), "MiB/s");
	expect_fmt(fmt_size_human, 256 * MiB, "256 MiB");
}

static void test_fmt_size_human_below_1024(void **state)
{
	static const uint64_t vals[] = {
		GiB - 512, GiB - 1, MiB - 1, 1048535, TiB - 4096,
	};
	char buf[64], *end;
	size_t i;

	(void)state;
	/*
	 * Compact means the number stays below 1024 of its unit: a target
	 * of 1 GiB - 512 bytes is "1.0GB", not "1024.0MB".  The unit must be
	 * chosen after rounding to one decimal.
	 */
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		fmt_size_human(buf, sizeof(buf), vals[i]);
		if (strtod(buf, &end) >= 1024.0)
			fail_msg("fmt_size_human(%llu) = \"%s\": 1024 or more of a unit",
				 (unsigned long long)vals[i], buf);
	}
}

static void test_fmt_time(void **state)
{
	(void)state;
	expect_fmt(fmt_time, 0, "0s");
	expect_fmt(fmt_time, 1, "1ns");
	expect_fmt(fmt_time, 1500, "1500ns");
	expect_fmt(fmt_time, 250 * NSEC_PER_USEC, "250us");
	expect_fmt(fmt_time, 500 * NSEC_PER_MSEC, "500ms");
	expect_fmt(fmt_time, 1500 * NSEC_PER_MSEC, "1500ms");
	expect_fmt(fmt_time, NSEC_PER_SEC, "1s");
	expect_fmt(fmt_time, 10 * NSEC_PER_SEC, "10s");
	expect_fmt(fmt_time, 120 * NSEC_PER_SEC, "120s");
}

static void test_fmt_truncates_safely(void **state)
{
	char buf[4];

	(void)state;
	/* a short buffer is cut, never overrun (ASan would catch it) */
	fmt_size_short(buf, sizeof(buf), UINT64_MAX);
	assert_string_equal(buf, "184");
	fmt_size_human(buf, sizeof(buf), GiB + GiB / 2);
	assert_string_equal(buf, "1.5");
	fmt_time(buf, sizeof(buf), 1500);
	assert_string_equal(buf, "150");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_suffixes),
		cmocka_unit_test(test_size_fractions),
		cmocka_unit_test(test_size_rejects),
		cmocka_unit_test(test_no_exponent_or_hex),
		cmocka_unit_test(test_uint_double),
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_extent),
		cmocka_unit_test(test_percent),
		cmocka_unit_test(test_fmt_size_short),
		cmocka_unit_test(test_fmt_size_short_roundtrip),
		cmocka_unit_test(test_fmt_size_human),
		cmocka_unit_test(test_units_si),
		cmocka_unit_test(test_fmt_size_human_below_1024),
		cmocka_unit_test(test_fmt_time),
		cmocka_unit_test(test_fmt_truncates_safely),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
