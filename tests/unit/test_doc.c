/* test_doc.c - the walkers of report/doc.h, which hosts, trace statistics,
 * advise, compare and replay print their rows through: each format takes
 * only the fields that have an entry for it, in the table's order; a value
 * not known is "-" in the text formats and null in JSON (a NaN number is
 * not known); grouped fields sit in an object of their own; a row with no
 * figures (NULL) is unknown in every cell; and the human columns keep
 * their widths, left-aligned when negative. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/json.h"
#include "report/doc.h"

struct row {
	const char *name;
	uint64_t ios;
	double iops;
	double p50, p99;
	bool ok;
};

/* A figure the row does not hold: ios per second of a ctx's time. */
static struct doc_value per_ctx(const void *row, const void *ctx)
{
	const struct row *r = row;
	const double *secs = ctx;

	return *secs > 0 ? doc_num((double)r->ios / *secs) :
			   doc_unknown(DOC_NUM);
}

#define OFF(m) offsetof(struct row, m)

static const struct doc_field fields[] = {
	{ "name", NULL, "%s", "name", "%s", "NAME", -6, DOC_STR, OFF(name) },
	{ "ios", NULL, "%llu", "ios", "%llu", "IOS", 5, DOC_U64, OFF(ios) },
	/* JSON and -n only */
	{ "iops", NULL, "%.1f", NULL, NULL, NULL, 0, DOC_NUM, OFF(iops) },
	{ "p50", "latency_us", "%.2f", "p50_us", "%.1f", "P50", 6, DOC_NUM,
	  OFF(p50) },
	{ "p99", "latency_us", "%.2f", "p99_us", NULL, NULL, 0, DOC_NUM,
	  OFF(p99) },
	{ "ok", NULL, "%d", "ok", NULL, NULL, 0, DOC_BOOL, OFF(ok) },
	/* a getter; human only */
	{ NULL, NULL, NULL, NULL, "%.0f/s", "RATE", 8, DOC_NUM, 0, per_ctx },
};

static const struct doc_table table = DOC_TABLE(fields);

static const struct row row = { "sda", 1500, 2999.5, 51.24, 900.126, true };

/* What fn printed into a memory stream, as a string to free. */
#define CAPTURE(buf, len, f, call) do {				\
	f = open_memstream(&(buf), &(len));			\
	assert_non_null(f);					\
	call;							\
	assert_int_equal(fclose(f), 0);				\
} while (0)

static void test_terse_and_tsv(void **state)
{
	double secs = 3;
	char *out;
	size_t len;
	FILE *f;

	(void)state;
	CAPTURE(out, len, f, doc_cells(f, ' ', DOC_TERSE, &table, &row, &secs));
	assert_string_equal(out, "sda 1500 2999.5 51.24 900.13 1");
	free(out);
	/* the TSV row has the fields with a column, not iops */
	CAPTURE(out, len, f, doc_cells(f, '\t', DOC_TSV, &table, &row, &secs));
	assert_string_equal(out, "sda\t1500\t51.24\t900.13\t1");
	free(out);
	CAPTURE(out, len, f, doc_tsv_head(f, &table));
	assert_string_equal(out, "name\tios\tp50_us\tp99_us\tok");
	free(out);
}

static void test_unknown(void **state)
{
	struct row r = row;
	double secs = 1;
	char *out;
	size_t len;
	FILE *f;

	(void)state;
	r.iops = NAN;		/* not known, as a number */
	r.name = NULL;		/* ... as a string */
	CAPTURE(out, len, f, doc_cells(f, ' ', DOC_TERSE, &table, &r, &secs));
	assert_string_equal(out, "- 1500 - 51.24 900.13 1");
	free(out);
	/* no row: every cell */
	CAPTURE(out, len, f, doc_cells(f, ' ', DOC_TERSE, &table, NULL, &secs));
	assert_string_equal(out, "- - - - - -");
	free(out);
}

static void test_json(void **state)
{
	double secs = 3;
	struct json j;
	struct row r = row;
	char *out;
	size_t len;
	FILE *f;

	(void)state;
	CAPTURE(out, len, f, {
		json_init(&j, f);
		json_obj_begin(&j, NULL);
		doc_json(&j, &table, &row, &secs);
		json_obj_end(&j);
	});
	assert_non_null(strstr(out, "\"name\": \"sda\""));
	assert_non_null(strstr(out, "\"ios\": 1500"));
	assert_non_null(strstr(out, "\"iops\": 2999.5"));
	assert_non_null(strstr(out, "\"ok\": true"));
	/* p50 and p99 together in their group, then the next key outside */
	assert_non_null(strstr(out, "\"latency_us\": {"));
	assert_true(strstr(out, "\"p50\"") > strstr(out, "\"latency_us\""));
	assert_true(strstr(out, "\"p99\"") > strstr(out, "\"p50\""));
	assert_true(strstr(out, "}") < strstr(out, "\"ok\""));
	/* the getter's field has no key */
	assert_null(strstr(out, "RATE"));
	free(out);

	r.iops = NAN;
	CAPTURE(out, len, f, {
		json_init(&j, f);
		json_obj_begin(&j, NULL);
		doc_json(&j, &table, &r, &secs);
		json_obj_end(&j);
	});
	assert_non_null(strstr(out, "\"iops\": null"));
	free(out);
}

static void test_human(void **state)
{
	double secs = 3, none = 0;
	char *out;
	size_t len;
	FILE *f;

	(void)state;
	CAPTURE(out, len, f, doc_human_head(f, &table));
	assert_string_equal(out, "NAME     IOS    P50     RATE");
	free(out);
	CAPTURE(out, len, f, doc_human_row(f, &table, &row, &secs));
	assert_string_equal(out, "sda     1500   51.2    500/s");
	free(out);
	/* the getter says it does not know */
	CAPTURE(out, len, f, doc_human_row(f, &table, &row, &none));
	assert_string_equal(out, "sda     1500   51.2        -");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_terse_and_tsv),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_human),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
