/* test_json_read.c - the strict JSON reader (json_read.c).
 *
 * Every kind of value is read back exactly (integers to 2^64-1 and -2^63,
 * every escape, surrogate pairs, raw UTF-8, \u0000 inside a string), looked
 * up by key and index and freed; every refusal of the grammar is checked
 * with its whole message, line and column (characters, not bytes); files
 * and pipes are read whole, and a missing file, a directory, an empty
 * device, a failing read and an oversized file are refused with the path
 * and the reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/json_read.h"

static char err[512];

static struct json_value *parse_ok(const char *text)
{
	struct json_value *v = NULL;
	int ret = json_parse(text, strlen(text), "T", &v, err, sizeof(err));

	if (ret)
		fail_msg("'%s' refused (%d): %s", text, ret, err);
	assert_non_null(v);
	return v;
}

/* text (len bytes) refused with exactly want. */
static void refused_n(const char *text, size_t len, const char *want)
{
	struct json_value *v = (struct json_value *)1;
	int ret;

	err[0] = '\0';
	ret = json_parse(text, len, "T", &v, err, sizeof(err));
	if (ret != -EINVAL)
		fail_msg("'%.*s' gave %d, not -EINVAL", (int)len, text, ret);
	assert_null(v);
	if (strcmp(err, want))
		fail_msg("'%.*s':\n want \"%s\"\n got  \"%s\"", (int)len, text,
			 want, err);
}

static void refused(const char *text, const char *want)
{
	refused_n(text, strlen(text), want);
}

static void test_values(void **state)
{
	struct json_value *v;
	const struct json_value *a, *o;

	(void)state;
	v = parse_ok("{\"replay\": {\"mode\": \"grouped\", \"speed\": 1.5,\n"
		     " \"per_op\": [ {\"op\": \"read\"}, null, true, false, [] ],\n"
		     " \"empty\": {}, \"n\": 2017}}");
	assert_int_equal(JSON_OBJECT, v->type);
	assert_int_equal(1, v->n);
	o = json_get(v, "replay");
	assert_non_null(o);
	assert_int_equal(JSON_OBJECT, o->type);
	assert_int_equal(1, o->line);
	assert_int_equal(12, o->column);
	assert_string_equal("grouped", json_get(o, "mode")->str);
	assert_true(json_get(o, "speed")->number == 1.5);
	assert_false(json_get(o, "speed")->has_u64);
	assert_int_equal(2017, json_get(o, "n")->u64);
	assert_null(json_get(o, "missing"));
	assert_null(json_get(json_get(o, "mode"), "x"));	/* not an object */
	assert_null(json_get(NULL, "x"));
	a = json_get(o, "per_op");
	assert_int_equal(JSON_ARRAY, a->type);
	assert_int_equal(5, a->n);
	assert_int_equal(2, a->line);
	assert_int_equal(12, a->column);
	assert_string_equal("read", json_get(json_at(a, 0), "op")->str);
	assert_int_equal(JSON_NULL, json_at(a, 1)->type);
	assert_int_equal(JSON_BOOL, json_at(a, 2)->type);
	assert_true(json_at(a, 2)->boolean);
	assert_false(json_at(a, 3)->boolean);
	assert_int_equal(0, json_at(a, 4)->n);
	assert_null(json_at(a, 5));
	assert_null(json_at(json_get(o, "n"), 0));
	assert_int_equal(0, json_get(o, "empty")->n);
	/* an object's members by index too, with their names */
	assert_string_equal("mode", json_at(o, 0)->key);
	assert_int_equal(1, json_at(o, 0)->key_line);
	assert_int_equal(13, json_at(o, 0)->key_column);
	json_free(v);
	json_free(NULL);

	/* any value at the top, white space around it */
	v = parse_ok(" \t\r\n 42 \n");
	assert_int_equal(JSON_NUMBER, v->type);
	assert_int_equal(2, v->line);
	assert_int_equal(2, v->column);
	json_free(v);
	v = parse_ok("\xEF\xBB\xBF\"bom\"");	/* a byte order mark */
	assert_string_equal("bom", v->str);
	assert_int_equal(1, v->column);
	json_free(v);

	assert_string_equal("a string", json_type_name(JSON_STRING));
	assert_string_equal("an object", json_type_name(JSON_OBJECT));
	assert_string_equal("null", json_type_name(JSON_NULL));
}

static void expect_number(const char *text, double d, int u, uint64_t uv,
			  int i, int64_t iv)
{
	struct json_value *v = parse_ok(text);

	assert_int_equal(JSON_NUMBER, v->type);
	if (v->number != d)
		fail_msg("%s: %.17g, not %.17g", text, v->number, d);
	if (v->has_u64 != u || (u && v->u64 != uv))
		fail_msg("%s: u64 %d %llu", text, v->has_u64,
			 (unsigned long long)v->u64);
	if (v->has_i64 != i || (i && v->i64 != iv))
		fail_msg("%s: i64 %d %lld", text, v->has_i64,
			 (long long)v->i64);
	json_free(v);
}

static void test_numbers(void **state)
{
	(void)state;
	expect_number("0", 0, 1, 0, 1, 0);
	expect_number("-0", 0, 1, 0, 1, 0);
	expect_number("52137", 52137, 1, 52137, 1, 52137);
	expect_number("-7", -7, 0, 0, 1, -7);
	expect_number("9223372036854775807", 9223372036854775807.0, 1,
		      INT64_MAX, 1, INT64_MAX);
	expect_number("9223372036854775808", 9223372036854775808.0, 1,
		      (uint64_t)INT64_MAX + 1, 0, 0);
	expect_number("18446744073709551615", 18446744073709551615.0, 1,
		      UINT64_MAX, 0, 0);
	expect_number("18446744073709551616", 18446744073709551616.0, 0, 0,
		      0, 0);
	expect_number("-9223372036854775808", -9223372036854775808.0, 0, 0,
		      1, INT64_MIN);
	expect_number("-9223372036854775809", -9223372036854775809.0, 0, 0,
		      0, 0);
	expect_number("52137.1", 52137.1, 0, 0, 0, 0);
	expect_number("1e3", 1000, 0, 0, 0, 0);	/* an exponent: not integral */
	expect_number("1E+2", 100, 0, 0, 0, 0);
	expect_number("-1.5e-3", -0.0015, 0, 0, 0, 0);
	expect_number("1e-400", 0, 0, 0, 0, 0);	/* underflow: 0 */
}

static void test_strings(void **state)
{
	struct json_value *v;

	(void)state;
	v = parse_ok("\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t\"");
	assert_string_equal("q\" b\\ s/ \b\f\n\r\t", v->str);
	json_free(v);
	/* \u: one, two and three UTF-8 bytes, a pair: four */
	v = parse_ok("\"\\u0041\\u00e9\\u20AC\\ud83d\\ude00\"");
	assert_string_equal("A\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", v->str);
	assert_int_equal(10, v->len);
	json_free(v);
	/* raw UTF-8 as it is */
	v = parse_ok("\"caf\xC3\xA9 \xF0\x9F\x98\x80\"");
	assert_string_equal("caf\xC3\xA9 \xF0\x9F\x98\x80", v->str);
	json_free(v);
	/* \u0000 is a character of the string: len counts it */
	v = parse_ok("{\"a\\u0000b\": \"x\\u0000y\"}");
	assert_int_equal(3, v->items[0].key_len);
	assert_int_equal(3, v->items[0].len);
	assert_memory_equal("x\0y", v->items[0].str, 4);
	assert_null(json_get(v, "a"));
	json_free(v);
	v = parse_ok("\"\"");
	assert_string_equal("", v->str);
	assert_int_equal(0, v->len);
	json_free(v);
}

/* Strings and arrays far beyond their first allocation. */
static void test_long(void **state)
{
	size_t n = 100000, i;
	char *text = malloc(2 * n + 8);
	struct json_value *v;

	(void)state;
	assert_non_null(text);
	text[0] = '"';
	memset(text + 1, 'x', n);
	memcpy(text + 1 + n / 2, "\\n", 2);	/* an escape midway */
	strcpy(text + 1 + n, "\"");
	v = parse_ok(text);
	assert_int_equal(n - 1, v->len);
	assert_int_equal('\n', v->str[n / 2]);
	assert_int_equal('x', v->str[n - 2]);
	json_free(v);
	text[0] = '[';
	for (i = 0; i < n; i++) {
		text[1 + 2 * i] = '7';
		text[2 + 2 * i] = ',';
	}
	strcpy(text + 2 * n, "]");
	v = parse_ok(text);
	assert_int_equal(n, v->n);
	assert_int_equal(7, json_at(v, n - 1)->u64);
	json_free(v);
	free(text);
}

static void test_grammar_errors(void **state)
{
	(void)state;
	refused("", "T: line 1, column 1: the file is empty: a JSON value was expected (rebench writes one with --json)");
	refused(" \n\t", "T: line 2, column 2: nothing but white space: a JSON value was expected (rebench writes one with --json)");
	refused("1 2", "T: line 1, column 3: '2' after the value that began at line 1, column 1: a JSON text holds one value");
	refused("{}\n}", "T: line 2, column 1: '}' after the value that began at line 1, column 1: a JSON text holds one value");
	refused("[,]", "T: line 1, column 2: a value (an object, array, string, number, true, false or null) was expected, not ','");
	refused("[1,]", "T: line 1, column 4: a ',' before ']': JSON allows no comma after the last item of an array; remove it");
	refused("{\"a\":1,}", "T: line 1, column 8: a ',' before '}': JSON allows no comma after the last item of an object; remove it");
	refused("[1 2]", "T: line 1, column 4: ',' or ']' was expected after an item of the array that began at line 1, column 1, not '2'");
	refused("{\"a\":1 \"b\":2}", "T: line 1, column 8: ',' or '}' was expected after an item of the object that began at line 1, column 1, not '\"'");
	refused("{1:2}", "T: line 1, column 2: a member name (a string in double quotes) was expected, not '1'");
	refused("{a:2}", "T: line 1, column 2: a member name (a string in double quotes) was expected, not 'a'");
	refused("{\"a\" 1}", "T: line 1, column 6: ':' was expected after the member name \"a\", not '1'");
	refused("{\"a\"", "T: line 1, column 5: ':' was expected after the member name \"a\", not the end of the file");
	refused("{\"a\":", "T: line 1, column 6: a value was expected, not the end of the file");
	refused("{", "T: line 1, column 2: the file ends inside the object that began at line 1, column 1: a '}' is missing");
	refused("{\"a\":1", "T: line 1, column 7: the file ends inside the object that began at line 1, column 1: a '}' is missing");
	refused("[\n[1,\n2", "T: line 3, column 2: the file ends inside the array that began at line 2, column 1: a ']' is missing");
	refused("{\"op\": 1,\n \"op\": 2}", "T: line 2, column 2: the member \"op\" is in this object twice (first at line 1, column 2): names must be unique");
	refused("+1", "T: line 1, column 1: a number has no '+' sign in JSON: write the digits alone");
	refused("[.5]", "T: line 1, column 2: a number needs a digit before its decimal point in JSON (0.5, not .5)");
	refused("'a'", "T: line 1, column 1: a string is in double quotes in JSON, not single ones");
	refused("01", "T: line 1, column 1: a number cannot begin with a 0 followed by digits (JSON has no octal): write it without leading zeros");
	refused("-01", "T: line 1, column 1: a number cannot begin with a 0 followed by digits (JSON has no octal): write it without leading zeros");
	refused("-", "T: line 1, column 2: '-' must be followed by a digit, not the end of the file");
	refused("-Infinity", "T: line 1, column 2: '-' must be followed by a digit, not 'I'");
	refused("1.", "T: line 1, column 3: a digit was expected after the decimal point, not the end of the file");
	refused("1.e3", "T: line 1, column 3: a digit was expected after the decimal point, not 'e'");
	refused("1e", "T: line 1, column 3: a digit was expected in the exponent, not the end of the file");
	refused("[1e+]", "T: line 1, column 5: a digit was expected in the exponent, not ']'");
	refused("1e400", "T: line 1, column 1: the number 1e400 is beyond the range of a double (about 1.8e308)");
	refused("nul", "T: line 1, column 1: 'nul' is not a JSON value: the words are true, false and null, in lower case, and a string is in double quotes");
	refused("True", "T: line 1, column 1: 'True' is not a JSON value: the words are true, false and null, in lower case, and a string is in double quotes");
	refused("NaN", "T: line 1, column 1: 'NaN' is not a JSON value: the words are true, false and null, in lower case, and a string is in double quotes");
	refused("[truex]", "T: line 1, column 2: 'truex' is not a JSON value: the words are true, false and null, in lower case, and a string is in double quotes");
	refused("\x01", "T: line 1, column 1: a value (an object, array, string, number, true, false or null) was expected, not the control character 0x01");
	refused("\xFF", "T: line 1, column 1: a value (an object, array, string, number, true, false or null) was expected, not byte 0xFF, which is not UTF-8 (JSON text is UTF-8)");
	refused("[\xC3\xA9]", "T: line 1, column 2: a value (an object, array, string, number, true, false or null) was expected, not '\xC3\xA9'");
	refused("/* c */ 1", "T: line 1, column 1: a value (an object, array, string, number, true, false or null) was expected, not '/'");
	/* a NUL byte outside strings */
	refused_n("[1,\0]", 5, "T: line 1, column 4: a value (an object, array, string, number, true, false or null) was expected, not the control character 0x00");
	/* lines and columns: characters, not bytes; a tab is one */
	refused("{\n\t\"\xC3\xA9t\xC3\xA9\": tru\n}", "T: line 2, column 9: 'tru' is not a JSON value: the words are true, false and null, in lower case, and a string is in double quotes");
}

static void test_string_errors(void **state)
{
	(void)state;
	refused("\"abc", "T: line 1, column 5: the file ends inside the string that began at line 1, column 1: a closing '\"' is missing");
	refused("[\"a\nb\"]", "T: line 1, column 4: the control character 0x0A inside a string (that began at column 2): write it escaped, as \\n");
	refused("\"\tx\"", "T: line 1, column 2: the control character 0x09 inside a string (that began at column 1): write it escaped, as \\t");
	refused("\"\x01\"", "T: line 1, column 2: the control character 0x01 inside a string (that began at column 1): write it escaped, as \\u0001");
	refused_n("\"a\0\"", 4, "T: line 1, column 3: the control character 0x00 inside a string (that began at column 1): write it escaped, as \\u0000");
	refused("\"\xFF\"", "T: line 1, column 2: byte 0xFF inside a string is not UTF-8 (JSON text is UTF-8; convert the file, e.g. with iconv)");
	refused("\"\xC0\x80\"", "T: line 1, column 2: byte 0xC0 inside a string is not UTF-8 (JSON text is UTF-8; convert the file, e.g. with iconv)");
	refused("\"\xE0\x80\xAF\"", "T: line 1, column 2: byte 0xE0 inside a string is not UTF-8 (JSON text is UTF-8; convert the file, e.g. with iconv)");
	refused("\"\xED\xA0\x80\"", "T: line 1, column 2: byte 0xED inside a string is not UTF-8 (JSON text is UTF-8; convert the file, e.g. with iconv)");
	refused("\"\xF4\x90\x80\x80\"", "T: line 1, column 2: byte 0xF4 inside a string is not UTF-8 (JSON text is UTF-8; convert the file, e.g. with iconv)");
	refused("\"\xE2\x82\"", "T: line 1, column 2: byte 0xE2 inside a string is not UTF-8 (JSON text is UTF-8; convert the file, e.g. with iconv)");
	refused("\"\xE2\x82", "T: line 1, column 2: byte 0xE2 inside a string is not UTF-8 (JSON text is UTF-8; convert the file, e.g. with iconv)");
	refused("\"\\x41\"", "T: line 1, column 2: unknown escape '\\' followed by 'x': the escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\u with four hexadecimal digits");
	refused("\"\\ \"", "T: line 1, column 2: unknown escape '\\' followed by a space: the escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\u with four hexadecimal digits");
	refused("\"\\", "T: line 1, column 3: the file ends inside an escape of a string");
	refused("\"\\u12\"", "T: line 1, column 2: \\u must be followed by four hexadecimal digits (\\u00E9)");
	refused("\"\\u12g4\"", "T: line 1, column 2: \\u must be followed by four hexadecimal digits (\\u00E9)");
	refused("\"x\\udc00\"", "T: line 1, column 3: \\uDC00 is a low surrogate without the high surrogate (\\uD800 to \\uDBFF) that must come before it");
	refused("\"\\uD83Dx\"", "T: line 1, column 2: \\uD83D is a high surrogate: it must be followed by a low surrogate, \\uDC00 to \\uDFFF (the pair is one character above U+FFFF)");
	refused("\"\\uD83D\\u0041\"", "T: line 1, column 2: \\uD83D is a high surrogate: it must be followed by a low surrogate, \\uDC00 to \\uDFFF (the pair is one character above U+FFFF)");
	refused("\"\\uD83D\\uD83D\"", "T: line 1, column 2: \\uD83D is a high surrogate: it must be followed by a low surrogate, \\uDC00 to \\uDFFF (the pair is one character above U+FFFF)");
	/* a member name is a string like any other */
	refused("{\"a\x01\": 1}", "T: line 1, column 4: the control character 0x01 inside a string (that began at column 2): write it escaped, as \\u0001");
}

static void test_depth(void **state)
{
	char text[2 * JSON_READ_MAX_DEPTH + 8];
	struct json_value *v;
	char want[256];
	int i;

	(void)state;
	for (i = 0; i < JSON_READ_MAX_DEPTH; i++) {
		text[i] = '[';
		text[2 * JSON_READ_MAX_DEPTH - 1 - i] = ']';
	}
	text[2 * JSON_READ_MAX_DEPTH] = '\0';
	v = parse_ok(text);	/* 64 levels: read */
	json_free(v);
	for (i = 0; i <= JSON_READ_MAX_DEPTH; i++) {
		text[i] = '[';
		text[2 * JSON_READ_MAX_DEPTH + 1 - i] = ']';
	}
	text[2 * JSON_READ_MAX_DEPTH + 2] = '\0';
	snprintf(want, sizeof(want), "T: line 1, column %d: objects and arrays nested deeper than %d levels: rebench writes nothing that deep",
		 JSON_READ_MAX_DEPTH + 1, JSON_READ_MAX_DEPTH);
	refused(text, want);
}

static void test_files(void **state)
{
	char dir[] = "/tmp/test_json_read.XXXXXX", path[128], want[256];
	struct json_value *v = NULL;
	FILE *f;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\n  \"replay\": {\"digest\": \"00ff\"}\n}\n", f);
	fclose(f);
	assert_int_equal(0, json_load(path, &v, err, sizeof(err)));
	assert_string_equal("00ff",
			    json_get(json_get(v, "replay"), "digest")->str);
	json_free(v);

	/* a parse error names the file */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\n  \"replay\": {\"digest\": 00}\n}\n", f);
	fclose(f);
	assert_int_equal(-EINVAL, json_load(path, &v, err, sizeof(err)));
	assert_null(v);
	snprintf(want, sizeof(want), "%s: line 2, column 24: a number cannot begin with a 0 followed by digits (JSON has no octal): write it without leading zeros",
		 path);
	assert_string_equal(want, err);

	/* a file too large to be a result: refused, not read into memory
	 * without end (sparse: no disk space) */
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(0, ftruncate(fd, (off_t)JSON_READ_MAX_BYTES + 1));
	close(fd);
	assert_int_equal(-EFBIG, json_load(path, &v, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s: cannot open it: it is longer than 256 MiB, the most rebench reads of such a file (rebench(1), FILES)",
		 path);
	assert_string_equal(want, err);
	unlink(path);

	assert_int_equal(-ENOENT, json_load(path, &v, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s: cannot open it: No such file or directory",
		 path);
	assert_string_equal(want, err);
	assert_int_equal(-EISDIR, json_load(dir, &v, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s: cannot open it: it is a directory; rebench reads regular files, pipes and FIFOs",
		 dir);
	assert_string_equal(want, err);
	/* a pipe: no size known, read to its end, far past the first 4 KiB */
	{
		int fds[2], status;
		char name[64];
		pid_t pid;

		assert_int_equal(0, pipe(fds));
		pid = fork();
		assert_true(pid >= 0);
		if (!pid) {
			close(fds[0]);
			f = fdopen(fds[1], "w");
			fputc('[', f);
			for (int i = 0; i < 20000; i++)
				fprintf(f, "%s%d", i ? "," : "", i);
			fputs("]\n", f);
			_exit(fclose(f) ? 1 : 0);
		}
		close(fds[1]);
		snprintf(name, sizeof(name), "/dev/fd/%d", fds[0]);
		assert_int_equal(0, json_load(name, &v, err, sizeof(err)));
		assert_int_equal(20000, v->n);
		assert_int_equal(19999, json_at(v, 19999)->u64);
		json_free(v);
		close(fds[0]);
		assert_int_equal(pid, waitpid(pid, &status, 0));
		assert_int_equal(0, status);
	}
	/* a read that fails: the reason */
	assert_int_equal(-EIO, json_load("/proc/self/mem", &v, err, sizeof(err)));
	assert_string_equal("/proc/self/mem: cannot read it: Input/output error",
			    err);
	/* a device: refused (/dev/zero would never end), not read */
	assert_int_equal(-EINVAL, json_load("/dev/null", &v, err, sizeof(err)));
	assert_string_equal("/dev/null: cannot open it: it is a character device; rebench reads regular files, pipes and FIFOs",
			    err);
	assert_null(v);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_grammar_errors),
		cmocka_unit_test(test_string_errors),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
