/* test_mode_args.c - the kinds of core/mode_args.c that the modes without
 * a COMMAND read through (--trace-to, --compare, --replay): a word that is
 * no option (MODE_WORD), "--name A B" (MODE_PAIR), the workload options
 * handed on as written (MODE_PASS), a value refused again before its
 * absence, a missing value given to the check, a later value that wins,
 * and "--" as a word like any other.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include "capture.h"
#include "core/mode_args.h"

struct t_args {
	const char *one, *last, *word, *a, *b;
	char *pass[4];
	int npass;
	const char *checked;
	bool missing_seen;
};

static int see(const struct mode_grammar *g, void *args, const char *name,
	       const char *v)
{
	struct t_args *t = args;

	(void)g;
	(void)name;
	t->missing_seen |= !v;
	t->checked = v;
	return 0;
}

static const struct mode_opt opts[] = {
	{ "--one", MODE_VALUE, offsetof(struct t_args, one),
	  .twice_first = true, .twice = "%s is given twice",
	  .missing = "%s needs a value" },
	{ "--last", MODE_VALUE, offsetof(struct t_args, last),
	  .check_missing = true, .check = see },
	{ "--pair", MODE_PAIR, offsetof(struct t_args, a),
	  offsetof(struct t_args, b), .twice = "--pair twice",
	  .second = "--pair needs two" },
	{ NULL, MODE_WORD, offsetof(struct t_args, word),
	  .twice = "'%s': one word" },
	{ "--seed", MODE_PASS, offsetof(struct t_args, pass),
	  offsetof(struct t_args, npass), 4, .value = true,
	  .missing = "%s: no value", .many = "%s: too many" },
	{ "--paged", MODE_PASS, offsetof(struct t_args, pass),
	  offsetof(struct t_args, npass), 4, .letter = "-p",
	  .many = "%s: too many" },
};

static const struct mode_grammar grammar = {
	.usage = "rebench --t WORD\n",
	.sep = " ",
	.unknown = "%s is unknown",
	.opts = opts,
	.nopts = sizeof(opts) / sizeof(opts[0]),
	.no_cmd = true,
};

static int parse(struct t_args *t, int argc, char **argv)
{
	int ret;

	memset(t, 0, sizeof(*t));
	capture_begin();
	ret = mode_args_parse(argc, argv, &grammar, t);
	capture_end();
	return ret;
}

#define ARGV(...) (char *[]){ "rebench", __VA_ARGS__ }
#define PARSE(t, ...) parse(t, sizeof(ARGV(__VA_ARGS__)) / sizeof(char *), \
			    ARGV(__VA_ARGS__))

static void test_word(void **state)
{
	struct t_args t;

	(void)state;
	assert_int_equal(PARSE(&t, "--one", "x", "-", "--one=y"), -EINVAL);
	assert_string_equal(t.word, "-");
	expect_message("a second --one", "--one is given twice", NULL);
	assert_int_equal(PARSE(&t, "a", "b"), -EINVAL);
	expect_message("two words", "'b': one word", "usage: rebench --t", NULL);
	/* no COMMAND: "--" is refused like any other unknown word */
	assert_int_equal(PARSE(&t, "a", "--"), -EINVAL);
	expect_message("--", "-- is unknown", NULL);
	/* -h is unknown without a help text */
	assert_int_equal(PARSE(&t, "-h"), -EINVAL);
	expect_message("-h", "-h is unknown", NULL);
}

static void test_twice_first(void **state)
{
	struct t_args t;

	(void)state;
	assert_int_equal(PARSE(&t, "--one", "x", "--one"), -EINVAL);
	expect_message("again, no value", "--one is given twice", NULL);
	assert_int_equal(PARSE(&t, "--one"), -EINVAL);
	expect_message("no value", "--one needs a value", NULL);
}

static void test_later_wins(void **state)
{
	struct t_args t;

	(void)state;
	assert_int_equal(PARSE(&t, "--last", "x", "--last=y"), 0);
	assert_string_equal(t.last, "y");
	assert_string_equal(t.checked, "y");
	assert_int_equal(PARSE(&t, "--last"), 0);
	assert_true(t.missing_seen);
	assert_null(t.last);
}

static void test_pair(void **state)
{
	struct t_args t;

	(void)state;
	assert_int_equal(PARSE(&t, "--pair=A", "B", "w"), 0);
	assert_string_equal(t.a, "A");
	assert_string_equal(t.b, "B");
	assert_string_equal(t.word, "w");
	assert_int_equal(PARSE(&t, "--pair", "A", "-p"), -EINVAL);
	expect_message("B an option", "--pair needs two", NULL);
	assert_int_equal(PARSE(&t, "--pair", "A"), -EINVAL);
	expect_message("no B", "--pair needs two", NULL);
	assert_int_equal(PARSE(&t, "--pair", "A", "B", "--pair", "C", "D"),
			 -EINVAL);
	expect_message("twice", "--pair twice", NULL);
	/* a missing A makes --pair an unknown word */
	assert_int_equal(PARSE(&t, "--pair"), -EINVAL);
	expect_message("no A", "--pair is unknown", NULL);
}

static void test_pass(void **state)
{
	struct t_args t;

	(void)state;
	assert_int_equal(PARSE(&t, "-p", "--seed", "7", "w"), 0);
	assert_int_equal(t.npass, 3);
	assert_string_equal(t.pass[0], "-p");
	assert_string_equal(t.pass[1], "--seed");
	assert_string_equal(t.pass[2], "7");
	assert_int_equal(PARSE(&t, "--seed=7", "--paged"), 0);
	assert_int_equal(t.npass, 2);
	assert_int_equal(PARSE(&t, "--seed"), -EINVAL);
	expect_message("no value", "--seed: no value", NULL);
	/* room for a word and its value, or refused */
	assert_int_equal(PARSE(&t, "-p", "-p", "-p", "--seed=1"), -EINVAL);
	expect_message("full", "--seed=1: too many", NULL);
	/* a flag takes no "=value", -p no "=" either */
	assert_int_equal(PARSE(&t, "--paged=1"), -EINVAL);
	expect_message("--paged=1", "--paged=1 is unknown", NULL);
	assert_int_equal(PARSE(&t, "-p=1"), -EINVAL);
	expect_message("-p=1", "-p=1 is unknown", NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_word),
		cmocka_unit_test(test_twice_first),
		cmocka_unit_test(test_later_wins),
		cmocka_unit_test(test_pair),
		cmocka_unit_test(test_pass),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
