/* test_sweep.c - ranges and lists in option values (src/core/sweep.c) and how
 * the option parser hands them over (src/core/options.c).
 *
 * Checks: what counts as a range or list; linear ranges with units, where
 * the end is included only when a step lands on it; geometric ranges, with
 * rounding and the dropping of values that round alike for counts; times
 * kept in nanoseconds ("100000000ns") and applied to sample_ns; percentages
 * and doubles, decimal steps reaching the end; lists kept in canonical form
 * for numbers and as written for names; an option given twice replacing its
 * axis in place; every refusal (-EINVAL and a "rebench: invalid range or
 * list" message naming the text, the option and why); the 10000-value and
 * 8-axis limits; npoints as the product (and never wrapping around);
 * sweep_indices in order, first axis slowest, each combination once;
 * sweep_apply through the options' own parsers; and options_parse with and
 * without a sweep to collect into.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "engines/engine.h"
#include "core/options.h"
#include "core/spec.h"
#include "core/sweep.h"
#include "core/units.h"

/* ------------------------------------------------------------ helpers */

#include "capture.h"

static const struct parse_ctx cmdline = { 0, "command line", NULL };

static const struct opt_desc *opt(const char *long_name)
{
	const struct opt_desc *o = options_find_long(long_name);

	if (!o)
		fail_msg("no option --%s in the table", long_name);
	return o;
}

/* sweep_add that must succeed, silently. */
static void add_ok(struct sweep *sw, const char *name, const char *text)
{
	int ret;

	capture_begin();
	ret = sweep_add(sw, opt(name), text, &cmdline);
	capture_end();
	if (ret)
		fail_msg("--%s '%s' refused (%d): %s", name, text, ret, errtext);
	if (errtext[0])
		fail_msg("--%s '%s' accepted but printed: %s", name, text,
			 errtext);
}

/* sweep_add that must be refused with -EINVAL and a message that quotes
 * the text, names the option and holds why. */
static void add_bad_ctx(struct sweep *sw, const char *name, const char *text,
			const char *why, const struct parse_ctx *ctx)
{
	char quoted[256], label[64];
	const struct opt_desc *o = opt(name);
	int ret;

	capture_begin();
	ret = sweep_add(sw, o, text, ctx);
	capture_end();
	if (ret != -EINVAL)
		fail_msg("--%s '%s': got %d, want -EINVAL (stderr: %s)", name,
			 text, ret, errtext);
	snprintf(quoted, sizeof(quoted), "invalid range or list '%s'", text);
	snprintf(label, sizeof(label), "--%s", o->name);
	expect_message(text, quoted, label, why, (const char *)NULL);
}

static void add_bad(const char *name, const char *text, const char *why)
{
	struct sweep sw = { 0 };

	add_bad_ctx(&sw, name, text, why, &cmdline);
	sweep_free(&sw);
}

/* The axis holds exactly these values, in this order (NULL-terminated). */
static void expect_values(const struct sweep_axis *ax, ...)
{
	const char *want;
	size_t i = 0;
	va_list ap;

	va_start(ap, ax);
	while ((want = va_arg(ap, const char *))) {
		if (i >= ax->n)
			fail_msg("--%s: only %zu values, want '%s' at %zu",
				 ax->opt->name, ax->n, want, i);
		if (strcmp(ax->values[i], want))
			fail_msg("--%s: value %zu is '%s', want '%s'",
				 ax->opt->name, i, ax->values[i], want);
		i++;
	}
	va_end(ap);
	if (i != ax->n)
		fail_msg("--%s: %zu values, want %zu (extra: '%s')",
			 ax->opt->name, ax->n, i, ax->values[i]);
}

/* One axis from text; the caller frees. */
static struct sweep one(const char *name, const char *text)
{
	struct sweep sw = { 0 };

	add_ok(&sw, name, text);
	assert_int_equal(sw.naxes, 1);
	assert_ptr_equal(sw.axes[0].opt, opt(name));
	assert_int_equal(sw.npoints, sw.axes[0].n);
	return sw;
}

/* Apply point p to a fresh default spec; must succeed. */
static void apply_ok(const struct sweep *sw, size_t p, struct spec *s)
{
	int ret;

	spec_defaults(s);
	capture_begin();
	ret = sweep_apply(sw, p, s, &cmdline);
	capture_end();
	if (ret)
		fail_msg("sweep_apply point %zu refused (%d): %s", p, ret,
			 errtext);
}

/* options_parse on words split from line, with ctx. */
static int parse_words(const char *line, struct spec *s, struct run_opts *run,
		       const struct parse_ctx *ctx)
{
	char *buf = strdup(line), *words[64];
	int n, ret;

	assert_non_null(buf);
	n = options_split_line(buf, words, 64);
	assert_true(n >= 0);
	capture_begin();
	ret = options_parse(n, words, s, run, ctx);
	capture_end();
	free(buf);
	return ret;
}

/* ------------------------------------------------------------ detection */

static void test_is_range(void **state)
{
	(void)state;
	assert_true(options_is_range("512..4k/512"));
	assert_true(options_is_range("512..64k*2"));
	assert_true(options_is_range("4k..512/512"));	/* refused later */
	assert_true(options_is_range("512,4k"));
	assert_true(options_is_range("uniform,pow"));
	assert_true(options_is_range(","));
	assert_true(options_is_range(".."));
	assert_false(options_is_range(NULL));
	assert_false(options_is_range(""));
	assert_false(options_is_range("4k"));
	assert_false(options_is_range("1.5"));
	assert_false(options_is_range("zipf:1.2"));
	assert_false(options_is_range("zoned:60/10:40/90"));
	assert_false(options_is_range("50%"));
	assert_false(options_is_range("500ms"));
}

/* ------------------------------------------------------------ linear */

static void test_linear_sizes(void **state)
{
	struct sweep sw;

	(void)state;
	sw = one("block-size", "512..4k/512");
	expect_values(&sw.axes[0], "512", "1024", "1536", "2048", "2560",
		      "3072", "3584", "4096", NULL);
	assert_int_equal(sw.npoints, 8);
	assert_true(sw.axes[0].numeric);
	sweep_free(&sw);
	assert_int_equal(sw.naxes, 0);

	/* units on every part */
	sw = one("stride", "1k..3k/1k");
	expect_values(&sw.axes[0], "1024", "2048", "3072", NULL);
	sweep_free(&sw);

	/* the end is included only when a step lands on it */
	sw = one("block-size", "512..2000/512");
	expect_values(&sw.axes[0], "512", "1024", "1536", NULL);
	sweep_free(&sw);

	/* one value when the ends meet */
	sw = one("block-size", "4k..4k/512");
	expect_values(&sw.axes[0], "4096", NULL);
	assert_int_equal(sw.npoints, 1);
	sweep_free(&sw);

	/* a step larger than the span: the start only */
	sw = one("block-size", "4k..8k/1m");
	expect_values(&sw.axes[0], "4096", NULL);
	sweep_free(&sw);

	/* counts */
	sw = one("queue-depth", "1..9/4");
	expect_values(&sw.axes[0], "1", "5", "9", NULL);
	sweep_free(&sw);
}

/* ------------------------------------------------------------ geometric */

static void test_geometric(void **state)
{
	struct sweep sw;

	(void)state;
	sw = one("block-size", "512..64k*2");
	expect_values(&sw.axes[0], "512", "1024", "2048", "4096", "8192",
		      "16384", "32768", "65536", NULL);
	assert_int_equal(sw.npoints, 8);
	sweep_free(&sw);

	/* the end need not be reached exactly */
	sw = one("block-size", "1k..100k*4");
	expect_values(&sw.axes[0], "1024", "4096", "16384", "65536", NULL);
	sweep_free(&sw);

	/* counts round to whole numbers; values that round alike once */
	sw = one("threads", "1..10*1.5");
	expect_values(&sw.axes[0], "1", "2", "3", "5", "8", NULL);
	assert_int_equal(sw.npoints, 5);
	sweep_free(&sw);

	sw = one("queue-depth", "1..64*2");
	expect_values(&sw.axes[0], "1", "2", "4", "8", "16", "32", "64", NULL);
	sweep_free(&sw);

	/* a factor written as a decimal */
	sw = one("batch", "1..8*2.0");
	expect_values(&sw.axes[0], "1", "2", "4", "8", NULL);
	sweep_free(&sw);
}

/* ------------------------------------------------------------ times */

static void test_times(void **state)
{
	struct sweep sw;
	struct spec s;
	size_t p;

	(void)state;
	/* -g: a bare number is milliseconds; kept in nanoseconds */
	sw = one("sample-step", "100..500/100");
	expect_values(&sw.axes[0], "100000000ns", "200000000ns",
		      "300000000ns", "400000000ns", "500000000ns", NULL);
	assert_true(sw.axes[0].numeric);
	for (p = 0; p < sw.npoints; p++) {
		apply_ok(&sw, p, &s);
		assert_int_equal(s.sample_ns, (p + 1) * 100 * NSEC_PER_MSEC);
		spec_free(&s);
	}
	sweep_free(&sw);

	/* suffixes on the end and the step, bare start in the option's unit */
	sw = one("sample-step", "25..100ms/25ms");
	expect_values(&sw.axes[0], "25000000ns", "50000000ns", "75000000ns",
		      "100000000ns", NULL);
	sweep_free(&sw);

	/* -z: a bare number is microseconds */
	sw = one("pause", "0..1ms/250");
	expect_values(&sw.axes[0], "0ns", "250000ns", "500000ns", "750000ns",
		      "1000000ns", NULL);
	apply_ok(&sw, 3, &s);
	assert_int_equal(s.pause_ns, 750 * NSEC_PER_USEC);
	spec_free(&s);
	sweep_free(&sw);

	/* a list of times is canonical too */
	sw = one("sample-step", "250,1s");
	expect_values(&sw.axes[0], "250000000ns", "1000000000ns", NULL);
	apply_ok(&sw, 1, &s);
	assert_int_equal(s.sample_ns, NSEC_PER_SEC);
	spec_free(&s);
	sweep_free(&sw);

	/* geometric times */
	sw = one("sample-step", "10..100*3");
	expect_values(&sw.axes[0], "10000000ns", "30000000ns", "90000000ns",
		      NULL);
	sweep_free(&sw);
}

/* ------------------------------------------------------------ percentages */

static void test_percent_double(void **state)
{
	struct sweep sw;
	struct spec s;

	(void)state;
	sw = one("rwmix", "0..100/25");
	expect_values(&sw.axes[0], "0", "25", "50", "75", "100", NULL);
	assert_int_equal(sw.npoints, 5);
	assert_true(sw.axes[0].numeric);
	apply_ok(&sw, 1, &s);
	assert_true(s.rwmix == 25.0);
	spec_free(&s);
	sweep_free(&sw);

	/* decimal steps reach the end despite rounding */
	sw = one("rwmix", "0..1/0.1");
	assert_int_equal(sw.axes[0].n, 11);
	assert_string_equal(sw.axes[0].values[0], "0");
	assert_string_equal(sw.axes[0].values[3], "0.3");
	assert_string_equal(sw.axes[0].values[10], "1");
	sweep_free(&sw);

	sw = one("sigma", "1..2/0.1");
	assert_int_equal(sw.axes[0].n, 11);
	assert_string_equal(sw.axes[0].values[10], "2");
	sweep_free(&sw);

	/* geometric doubles keep their fractions */
	sw = one("sigma", "0.5..4*2");
	expect_values(&sw.axes[0], "0.5", "1", "2", "4", NULL);
	apply_ok(&sw, 0, &s);
	assert_true(s.sigma == 0.5);
	spec_free(&s);
	sweep_free(&sw);

	/* percent signs on a list and on a range */
	sw = one("center", "10,20.5%");
	expect_values(&sw.axes[0], "10", "20.5", NULL);
	sweep_free(&sw);
	sw = one("center", "10%..30%/10%");
	expect_values(&sw.axes[0], "10", "20", "30", NULL);
	sweep_free(&sw);
}

/* --rate: ranges in I/Os a second (k and m powers of 1000), lists of
 * SIZE/s kept as text; a 0 end and a SIZE/s range refused with why */
static void test_rates(void **state)
{
	struct sweep sw;
	struct spec s;

	(void)state;
	sw = one("rate", "1k..8k*2");
	expect_values(&sw.axes[0], "1000", "2000", "4000", "8000", NULL);
	assert_true(sw.axes[0].numeric);
	apply_ok(&sw, 2, &s);
	assert_true(s.rate.ops == 4000.0 && s.rate.bytes == 0);
	spec_free(&s);
	sweep_free(&sw);

	sw = one("rate", "250..1000/250");
	expect_values(&sw.axes[0], "250", "500", "750", "1000", NULL);
	sweep_free(&sw);

	sw = one("rate", "1m/s,2m/s");
	expect_values(&sw.axes[0], "1m/s", "2m/s", NULL);
	assert_false(sw.axes[0].numeric);
	apply_ok(&sw, 1, &s);
	assert_true(s.rate.bytes == 2 * 1048576ULL);
	spec_free(&s);
	sweep_free(&sw);

	add_bad("rate", "0..1000/250", "an end of the range: a rate of 0 I/Os a second would never start an I/O");
	add_bad("rate", "1m/s..4m/s*2", "a range of rates is in I/Os a second");
	add_bad("rate", "1k,0,4k", "the element '0': a rate of 0 I/Os a second would never start an I/O");
	add_bad("rate", "1k,2x", "the element '2x': expected I/Os a second");
}

/* ------------------------------------------------------------ lists */

static void test_lists(void **state)
{
	struct sweep sw;
	struct spec s;

	(void)state;
	/* numbers in canonical form */
	sw = one("block-size", "512,4k");
	expect_values(&sw.axes[0], "512", "4096", NULL);
	assert_true(sw.axes[0].numeric);
	assert_int_equal(sw.npoints, 2);
	sweep_free(&sw);

	/* in the order given, repeats kept */
	sw = one("block-size", "64k,512,1m,512");
	expect_values(&sw.axes[0], "65536", "512", "1048576", "512", NULL);
	sweep_free(&sw);

	/* names with parameters, kept as written */
	sw = one("dist", "uniform,zipf:1.2");
	expect_values(&sw.axes[0], "uniform", "zipf:1.2", NULL);
	assert_false(sw.axes[0].numeric);
	apply_ok(&sw, 1, &s);
	assert_int_equal(s.dist, DIST_ZIPF);
	assert_non_null(s.dist_arg);
	assert_string_equal(s.dist_arg, "1.2");
	spec_free(&s);
	apply_ok(&sw, 0, &s);
	assert_int_equal(s.dist, DIST_UNIFORM);
	assert_null(s.dist_arg);
	spec_free(&s);
	sweep_free(&sw);

	/* engine names are kept as written (not checked until a point is) */
	sw = one("type", "naio,uring");
	expect_values(&sw.axes[0], "naio", "uring", NULL);
	assert_false(sw.axes[0].numeric);
	sweep_free(&sw);

	sw = one("type", "stateless,psync,stateful");
	expect_values(&sw.axes[0], "stateless", "psync", "stateful", NULL);
	apply_ok(&sw, 1, &s);
	assert_int_equal(s.engine, engine_lookup("stateless"));
	spec_free(&s);
	apply_ok(&sw, 2, &s);
	assert_int_equal(s.engine, engine_lookup("stateful"));
	spec_free(&s);
	sweep_free(&sw);

	/* operations and directions: lists, applied as their enums */
	sw = one("operation", "read,write,rw");
	apply_ok(&sw, 2, &s);
	assert_int_equal(s.op, OP_RW);
	spec_free(&s);
	sweep_free(&sw);
	sw = one("workload", "rnd,seq");
	apply_ok(&sw, 1, &s);
	assert_int_equal(s.seq, 1);
	spec_free(&s);
	sweep_free(&sw);

	/* -d, -j, -e: lists kept as written (their values mix kinds) */
	sw = one("duration", "1,500ms,1g,50%");
	expect_values(&sw.axes[0], "1", "500ms", "1g", "50%", NULL);
	assert_false(sw.axes[0].numeric);
	apply_ok(&sw, 2, &s);
	assert_int_equal(s.duration.kind, AMOUNT_BYTES);
	assert_int_equal(s.duration.value, 1ULL << 30);
	spec_free(&s);
	sweep_free(&sw);
	sw = one("offset", "0,512,1k");
	expect_values(&sw.axes[0], "0", "512", "1k", NULL);
	apply_ok(&sw, 2, &s);
	assert_int_equal(s.offset.value, 1024);
	spec_free(&s);
	sweep_free(&sw);
}

/* ------------------------------------------------------------ replacing */

static void test_replace_axis(void **state)
{
	struct sweep sw = { 0 };

	(void)state;
	add_ok(&sw, "block-size", "512,1k");
	add_ok(&sw, "stride", "512..2k/512");
	assert_int_equal(sw.naxes, 2);
	assert_int_equal(sw.npoints, 8);
	/* given again: replaced in place, keeps its position */
	add_ok(&sw, "block-size", "2k..8k/2k");
	assert_int_equal(sw.naxes, 2);
	assert_ptr_equal(sw.axes[0].opt, opt("block-size"));
	assert_ptr_equal(sw.axes[1].opt, opt("stride"));
	expect_values(&sw.axes[0], "2048", "4096", "6144", "8192", NULL);
	assert_int_equal(sw.npoints, 16);
	/* replacing with a list of a different kind of text */
	add_ok(&sw, "stride", "4k,8k");
	expect_values(&sw.axes[1], "4096", "8192", NULL);
	assert_int_equal(sw.npoints, 8);
	sweep_free(&sw);
}

/* ------------------------------------------------------------ refusals */

static void test_refusals(void **state)
{
	(void)state;
	add_bad("block-size", "4k..512/512", "empty range");
	add_bad("block-size", "512..4k/0", "the step must be positive");
	add_bad("sample-step", "100..500/0", "the step must be positive");
	add_bad("rwmix", "0..100/0", "the step must be positive");
	add_bad("rwmix", "0..100/0.0", "the step must be positive");
	/* a negative step is not a value of a size option at all */
	add_bad("block-size", "512..4k/-512", "step");
	add_bad("rwmix", "0..100/-25", "step");
	add_bad("block-size", "512..4k*1", "the factor must be greater than 1");
	add_bad("block-size", "512..4k*0.5", "the factor must be greater than 1");
	add_bad("queue-depth", "1..64*1.0", "the factor must be greater than 1");
	add_bad("block-size", "512..4k*x", "the factor after '*' is not a number");
	add_bad("block-size", "512..4k*", "the factor after '*' is not a number");
	add_bad("block-size", "0..4k*2", "a geometric range must start above 0");
	add_bad("rwmix", "0..100*2", "a geometric range must start above 0");
	add_bad("block-size", "512..4k", "a range needs a step");
	add_bad("block-size", "512..", "a range needs a step");
	add_bad("block-size", "x..4k/512", "the ends of the range are not valid values");
	add_bad("block-size", "512..4q/512", "the ends of the range are not valid values");
	add_bad("block-size", "..4k/512", "the ends of the range are not valid values");
	add_bad("block-size", "512../512", "the ends of the range are not valid values");
	add_bad("block-size", "512..4k/x", "the step after '/' is not a valid value");
	add_bad("block-size", "512..4k/", "the step after '/' is not a valid value");
	/* lists */
	add_bad("block-size", "512,,4k", "empty element in the list");
	add_bad("block-size", ",512", "empty element in the list");
	add_bad("block-size", "512,", "empty element in the list");
	add_bad("block-size", ",", "empty element in the list");
	add_bad("dist", "uniform,", "empty element in the list");
	add_bad("block-size", "512,4q", "not a valid value");
	/* ranges on non-numeric options; lists would do */
	add_bad("operation", "read..write/1", "ranges take sizes, counts, times, percentages or rates");
	add_bad("dist", "1..3/1", "ranges take sizes, counts, times, percentages or rates");
	add_bad("duration", "1..5/1", "ranges take sizes, counts, times, percentages or rates");
	add_bad("offset", "0..4k/512", "ranges take sizes, counts, times, percentages or rates");
	/* options that take one value: no range, no list */
	add_bad("seed", "1,2", "this option takes one value");
	add_bad("seed", "1..5/1", "this option takes one value");
	add_bad("output", "a,b", "this option takes one value");
	add_bad("paged", "1,2", "this option takes one value");
	add_bad("scatter", "1..2/1", "this option takes one value");
	add_bad("plot", "a.png,b.png", "this option takes one value");
	add_bad("yes", "1,2", "this option takes one value");
}

/* A refusal on a stdin line says which line. */
static void test_refusal_names_line(void **state)
{
	struct parse_ctx line3 = { 3, "stdin", NULL };
	struct sweep sw = { 0 };

	(void)state;
	add_bad_ctx(&sw, "block-size", "4k..512/512", "empty range", &line3);
	expect_message("line", "stdin line 3: ", (const char *)NULL);
	sweep_free(&sw);
}

/* A refused value leaves no usable axis behind: the caller stops, and
 * sweep_free must still cope with whatever is left. */
static void test_refusal_then_free(void **state)
{
	struct sweep sw = { 0 };

	(void)state;
	add_ok(&sw, "block-size", "512,1k");
	add_bad_ctx(&sw, "stride", "1k..512/512", "empty range", &cmdline);
	add_bad_ctx(&sw, "block-size", "512,,1k", "empty element", &cmdline);
	sweep_free(&sw);
	assert_int_equal(sw.naxes, 0);
	assert_int_equal(sw.npoints, 0);
}

/* ------------------------------------------------------------ limits */

static void test_value_limit(void **state)
{
	struct sweep sw;
	char *list, *p;
	size_t i;

	(void)state;
	sw = one("queue-depth", "1..10000/1");
	assert_int_equal(sw.axes[0].n, SWEEP_MAX_VALUES);
	assert_string_equal(sw.axes[0].values[9999], "10000");
	sweep_free(&sw);

	add_bad("queue-depth", "1..10001/1", "more than 10000 values");
	add_bad("block-size", "1..1g/1", "more than 10000 values");

	/* a list of 10001 elements */
	list = malloc(10001 * 7 + 1);
	assert_non_null(list);
	p = list;
	for (i = 1; i <= 10001; i++)
		p += sprintf(p, "%s%zu", i > 1 ? "," : "", i);
	add_bad("threads", list, "more than 10000 values");
	/* 10000 is fine */
	*strrchr(list, ',') = '\0';
	sw = one("threads", list);
	assert_int_equal(sw.axes[0].n, 10000);
	sweep_free(&sw);
	free(list);
}

static const char *const nine[][2] = {
	{ "block-size", "512,1k" }, { "stride", "512,1k" },
	{ "queue-depth", "1,2" }, { "batch", "1,2" }, { "threads", "1,2" },
	{ "sample-step", "100,200" }, { "pause", "0,1" },
	{ "rwmix", "25,75" }, { "sigma", "1,2" },
};

static void test_axis_limit(void **state)
{
	struct sweep sw = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < SWEEP_MAX_AXES; i++) {
		add_ok(&sw, nine[i][0], nine[i][1]);
		assert_int_equal(sw.naxes, i + 1);
		assert_int_equal(sw.npoints, 1u << (i + 1));
	}
	add_bad_ctx(&sw, nine[8][0], nine[8][1], "at most 8 options can be swept at once",
		    &cmdline);
	assert_int_equal(sw.naxes, SWEEP_MAX_AXES);
	assert_int_equal(sw.npoints, 256);
	/* replacing one of the 8 is still allowed */
	add_ok(&sw, "block-size", "512,1k,2k");
	assert_int_equal(sw.naxes, SWEEP_MAX_AXES);
	assert_int_equal(sw.npoints, 384);
	/* a list of names is an axis too */
	add_bad_ctx(&sw, "dist", "uniform,pow", "at most 8", &cmdline);
	sweep_free(&sw);
}

/* npoints is the product of the axes' value counts. */
static void test_npoints_product(void **state)
{
	struct sweep sw = { 0 };

	(void)state;
	add_ok(&sw, "block-size", "512..4k/512");	/* 8 */
	assert_int_equal(sw.npoints, 8);
	add_ok(&sw, "dist", "uniform,pow,zipf");	/* 3 */
	assert_int_equal(sw.npoints, 24);
	add_ok(&sw, "queue-depth", "1..16*2");		/* 5 */
	assert_int_equal(sw.npoints, 120);
	add_ok(&sw, "rwmix", "50,75");			/* 2 */
	assert_int_equal(sw.naxes, 4);
	assert_int_equal(sw.npoints, 240);
	sweep_free(&sw);
}

/*
 * Eight axes of 256 values are 2^64 points: the count must not wrap around
 * to 0 (or to any small number), which would run nothing (or a few points)
 * without the --yes that a large sweep needs.  Either sweep_add refuses the
 * axis that makes the product too large, or npoints stays at least as large
 * as before each axis was added.
 */
static struct sweep wrap_sw;	/* freed by the teardown, even on failure */

static int free_wrap_sw(void **state)
{
	(void)state;
	sweep_free(&wrap_sw);
	return 0;
}

static void test_npoints_no_wraparound(void **state)
{
	static const char *const names[] = {
		"block-size", "stride", "queue-depth", "batch", "threads",
		"sample-step", "pause", "rwmix",
	};
	struct sweep *sw = &wrap_sw;
	size_t i, before;
	int ret;

	(void)state;
	for (i = 0; i < 8; i++) {
		const char *text = strcmp(names[i], "rwmix") ? "1..256/1" : "0..255/1";

		before = sw->npoints;
		capture_begin();
		ret = sweep_add(sw, opt(names[i]), text, &cmdline);
		capture_end();
		if (ret) {
			assert_int_equal(ret, -EINVAL);
			expect_message("too many points", (const char *)NULL);
			break;
		}
		assert_int_equal(sw->axes[sw->naxes - 1].n, 256);
		if (sw->npoints < before || sw->npoints == 0)
			fail_msg("after %zu axes of 256 values npoints is %zu (was %zu): the product wrapped around",
				 i + 1, sw->npoints, before);
	}
	sweep_free(sw);
}

/* ------------------------------------------------------------ order */

static void test_indices_order(void **state)
{
	struct sweep sw = { 0 };
	size_t idx[SWEEP_MAX_AXES], p, seen[2][3][4] = { { { 0 } } };
	size_t a, b, c;

	(void)state;
	add_ok(&sw, "block-size", "512,4k");			/* 2 */
	add_ok(&sw, "dist", "uniform,pow,zipf");		/* 3 */
	add_ok(&sw, "stride", "512..2k/512");			/* 4 */
	assert_int_equal(sw.npoints, 24);
	for (p = 0; p < sw.npoints; p++) {
		memset(idx, 0xff, sizeof(idx));
		sweep_indices(&sw, p, idx);
		/* first axis slowest, last fastest */
		assert_int_equal(idx[0], p / 12);
		assert_int_equal(idx[1], (p / 4) % 3);
		assert_int_equal(idx[2], p % 4);
		seen[idx[0]][idx[1]][idx[2]]++;
	}
	for (a = 0; a < 2; a++)
		for (b = 0; b < 3; b++)
			for (c = 0; c < 4; c++)
				assert_int_equal(seen[a][b][c], 1);
	/* the man page's example: -b 512,4k -s 512,4k */
	sweep_free(&sw);
	add_ok(&sw, "block-size", "512,4k");
	add_ok(&sw, "stride", "512,4k");
	{
		static const uint64_t want[4][2] = {
			{ 512, 512 }, { 512, 4096 }, { 4096, 512 }, { 4096, 4096 },
		};
		struct spec s;

		for (p = 0; p < 4; p++) {
			apply_ok(&sw, p, &s);
			assert_int_equal(s.bs, want[p][0]);
			assert_int_equal(s.stride, want[p][1]);
			spec_free(&s);
		}
	}
	sweep_free(&sw);
}

/* sweep_apply sets every axis's value, point by point. */
static void test_apply_every_axis(void **state)
{
	struct sweep sw = { 0 };
	struct spec s;
	size_t p, idx[SWEEP_MAX_AXES];
	static const uint64_t bs[] = { 512, 1024, 1536, 2048 };
	static const uint64_t stride[] = { 4096, 8192 };
	static const int dist[] = { DIST_UNIFORM, DIST_POW, DIST_ZIPF };

	(void)state;
	add_ok(&sw, "block-size", "512..2k/512");
	add_ok(&sw, "stride", "4k,8k");
	add_ok(&sw, "dist", "uniform,pow,zipf:0.8");
	assert_int_equal(sw.npoints, 24);
	for (p = 0; p < sw.npoints; p++) {
		sweep_indices(&sw, p, idx);
		apply_ok(&sw, p, &s);
		assert_int_equal(s.bs, bs[idx[0]]);
		assert_int_equal(s.stride, stride[idx[1]]);
		assert_int_equal(s.dist, dist[idx[2]]);
		if (idx[2] == 2)
			assert_string_equal(s.dist_arg, "0.8");
		else
			assert_null(s.dist_arg);
		/* nothing else changed */
		assert_int_equal(s.op, OP_READ);
		assert_int_equal(s.qd, 1);
		spec_free(&s);
	}
	sweep_free(&sw);
}

/* A point's value that its option refuses fails at apply time, with the
 * option's own message. */
static void test_apply_refused_value(void **state)
{
	struct sweep sw = { 0 };
	struct spec s;
	int ret;

	(void)state;
	add_ok(&sw, "dist", "uniform,bogus");
	add_ok(&sw, "rwmix", "50..150/50");		/* 150 is not a % */
	spec_defaults(&s);
	capture_begin();
	ret = sweep_apply(&sw, 0, &s, &cmdline);
	capture_end();
	assert_int_equal(ret, 0);
	spec_free(&s);
	spec_defaults(&s);
	capture_begin();
	ret = sweep_apply(&sw, 2, &s, &cmdline);	/* uniform, 150 */
	capture_end();
	assert_int_equal(ret, -EINVAL);
	expect_message("rwmix 150", "'150'", "--rwmix", (const char *)NULL);
	spec_free(&s);
	spec_defaults(&s);
	capture_begin();
	ret = sweep_apply(&sw, 3, &s, &cmdline);	/* bogus, 50 */
	capture_end();
	assert_int_equal(ret, -EINVAL);
	expect_message("dist bogus", "'bogus'", "--dist", (const char *)NULL);
	spec_free(&s);
	sweep_free(&sw);
}

/* ------------------------------------------------------------ options_parse */

static void test_parse_collects(void **state)
{
	static struct sweep sw;
	struct parse_ctx ctx = { 0, "command line", &sw, &sweep_range_hooks };
	struct run_opts run = { 0 };
	struct spec s;

	(void)state;
	spec_defaults(&s);
	if (parse_words("-b 512..4k/512 --stride=512,1k --yes -u uniform,pow -d 100ms --output a,b /dev/null",
			&s, &run, &ctx))
		fail_msg("refused: %s", errtext);
	assert_string_equal(errtext, "");
	assert_int_equal(sw.naxes, 3);
	assert_ptr_equal(sw.axes[0].opt, opt("block-size"));
	assert_ptr_equal(sw.axes[1].opt, opt("stride"));
	assert_ptr_equal(sw.axes[2].opt, opt("dist"));
	assert_int_equal(sw.npoints, 8 * 2 * 2);
	expect_values(&sw.axes[1], "512", "1024", NULL);
	/* the base spec keeps its defaults for swept options */
	assert_int_equal(s.bs, 512);
	assert_int_equal(s.stride, 0);
	/* swept options count as given */
	assert_true(spec_given(&s, "block-size"));
	assert_true(spec_given(&s, "dist"));
	/* everything else parsed as usual; a file name keeps its comma */
	assert_true(run.yes);
	assert_string_equal(s.target, "/dev/null");
	assert_non_null(s.output);
	assert_string_equal(s.output, "a,b");
	assert_int_equal(s.duration.value, 100 * NSEC_PER_MSEC);
	spec_free(&s);
	sweep_free(&sw);

	/* attached short values and bundles */
	spec_defaults(&s);
	memset(&run, 0, sizeof(run));
	if (parse_words("-b512,1k -pq1..4*2 /dev/null", &s, &run, &ctx))
		fail_msg("refused: %s", errtext);
	assert_int_equal(sw.naxes, 2);
	expect_values(&sw.axes[1], "1", "2", "4", NULL);
	assert_true(s.paged);
	spec_free(&s);
	sweep_free(&sw);

	/* given twice: the later range or list replaces the earlier one in
	 * its place */
	spec_defaults(&s);
	if (parse_words("-b 512,1k -s 4k,8k -b 2k..8k*2 /dev/null", &s, &run,
			&ctx))
		fail_msg("refused: %s", errtext);
	assert_int_equal(sw.naxes, 2);
	assert_ptr_equal(sw.axes[0].opt, opt("block-size"));
	assert_ptr_equal(sw.axes[1].opt, opt("stride"));
	expect_values(&sw.axes[0], "2048", "4096", "8192", NULL);
	assert_int_equal(sw.npoints, 6);
	spec_free(&s);
	sweep_free(&sw);

	/* a plain value after a range cancels it (sweep.h, sweep_remove):
	 * the option is no longer swept and the value is the base's */
	spec_defaults(&s);
	if (parse_words("-b 512,1k -s 4k,8k -b 16k /dev/null", &s, &run, &ctx))
		fail_msg("refused: %s", errtext);
	assert_int_equal(sw.naxes, 1);
	assert_ptr_equal(sw.axes[0].opt, opt("stride"));
	expect_values(&sw.axes[0], "4096", "8192", NULL);
	assert_int_equal(sw.npoints, 2);
	assert_int_equal(s.bs, 16384);
	spec_free(&s);
	sweep_free(&sw);

	/* and a range after a plain value sweeps */
	spec_defaults(&s);
	if (parse_words("-b 16k -b 512,1k /dev/null", &s, &run, &ctx))
		fail_msg("refused: %s", errtext);
	assert_int_equal(sw.naxes, 1);
	assert_int_equal(sw.npoints, 2);
	spec_free(&s);
	sweep_free(&sw);

	/* the only axis cancelled: no sweep left */
	spec_defaults(&s);
	if (parse_words("-u uniform,pow -u zipf /dev/null", &s, &run, &ctx))
		fail_msg("refused: %s", errtext);
	assert_int_equal(sw.naxes, 0);
	assert_int_equal(s.dist, DIST_ZIPF);
	spec_free(&s);
	sweep_free(&sw);
}

static void test_parse_refusals_with_sweep(void **state)
{
	static struct sweep sw;
	struct parse_ctx ctx = { 0, "command line", &sw, &sweep_range_hooks };
	struct run_opts run = { 0 };
	struct spec s;

	(void)state;
	spec_defaults(&s);
	assert_int_equal(parse_words("-b 4k..512/512 /dev/null", &s, &run, &ctx), -EINVAL);
	expect_message("-b 4k..512/512", "empty range", "-b/--block-size", (const char *)NULL);
	spec_free(&s);
	sweep_free(&sw);

	spec_defaults(&s);
	assert_int_equal(parse_words("--seed 1,2 /dev/null", &s, &run, &ctx), -EINVAL);
	expect_message("--seed 1,2", "--seed", "takes one value", (const char *)NULL);
	spec_free(&s);
	sweep_free(&sw);

	spec_defaults(&s);
	assert_int_equal(parse_words("-o read..write/1 /dev/null", &s, &run, &ctx), -EINVAL);
	expect_message("-o range", "-o/--operation", "give a list", (const char *)NULL);
	spec_free(&s);
	sweep_free(&sw);

	/* a run-wide string option keeps its comma, and is not a sweep */
	spec_defaults(&s);
	memset(&run, 0, sizeof(run));
	if (parse_words("--plot a,b.png /dev/null", &s, &run, &ctx))
		fail_msg("refused: %s", errtext);
	assert_int_equal(sw.naxes, 0);
	assert_string_equal(run.plot, "a,b.png");
	free(run.plot);
	spec_free(&s);
	sweep_free(&sw);
}

/* With no sweep to collect into (stdin lines, options_set), ranges and
 * lists are refused with a message that says where they belong. */
static void test_parse_refused_without_sweep(void **state)
{
	struct parse_ctx line2 = { 2, "stdin", NULL };
	struct parse_ctx cl = { 0, "command line", NULL };
	struct spec s;

	(void)state;
	spec_defaults(&s);
	assert_int_equal(parse_words("-b 512,1k /dev/null", &s, NULL, &line2), -EINVAL);
	expect_message("stdin list", "stdin line 2: ", "-b/--block-size 512,1k",
		       "ranges and lists go on the command line", (const char *)NULL);
	assert_int_equal(s.bs, 512);
	spec_free(&s);

	spec_defaults(&s);
	assert_int_equal(parse_words("-s 512..4k/512 /dev/null", &s, NULL, &line2), -EINVAL);
	expect_message("stdin range", "stdin line 2: ", "-s/--stride 512..4k/512",
		       (const char *)NULL);
	spec_free(&s);

	spec_defaults(&s);
	assert_int_equal(parse_words("-u uniform,pow /dev/null", &s, NULL, &line2), -EINVAL);
	expect_message("stdin names", "stdin line 2: ", "uniform,pow", (const char *)NULL);
	spec_free(&s);

	/* no range hooks on the command line refuses too */
	spec_defaults(&s);
	assert_int_equal(parse_words("-b 512,1k /dev/null", &s, NULL, &cl), -EINVAL);
	expect_message("no sweep", "ranges and lists go on the command line", (const char *)NULL);
	spec_free(&s);

	/* options_set never makes a sweep */
	spec_defaults(&s);
	capture_begin();
	assert_int_equal(options_set(&s, opt("block-size"), "512,1k", &cl), -EINVAL);
	capture_end();
	expect_message("options_set", "ranges and lists", (const char *)NULL);
	spec_free(&s);

	/* but a file name with a comma is fine anywhere */
	spec_defaults(&s);
	if (parse_words("--output x,y.tsv /dev/null", &s, NULL, &line2))
		fail_msg("refused: %s", errtext);
	assert_string_equal(s.output, "x,y.tsv");
	spec_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_is_range),
		cmocka_unit_test(test_linear_sizes),
		cmocka_unit_test(test_geometric),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_percent_double),
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_replace_axis),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_refusal_names_line),
		cmocka_unit_test(test_refusal_then_free),
		cmocka_unit_test(test_value_limit),
		cmocka_unit_test(test_axis_limit),
		cmocka_unit_test(test_npoints_product),
		cmocka_unit_test_teardown(test_npoints_no_wraparound, free_wrap_sw),
		cmocka_unit_test(test_indices_order),
		cmocka_unit_test(test_apply_every_axis),
		cmocka_unit_test(test_apply_refused_value),
		cmocka_unit_test(test_parse_collects),
		cmocka_unit_test(test_parse_refusals_with_sweep),
		cmocka_unit_test(test_parse_refused_without_sweep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
