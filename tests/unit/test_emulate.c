/* test_emulate.c - the delays of --emulate (emulate_plan.c): two grouped
 * replays' JSON in, required and adjusted delays and notes out.
 *
 * The arithmetic of emulate_plan.h by hand (required = round(slow - fast),
 * adjusted = required - spin_min_ns; not slower, cannot be met, trim), and
 * every refusal with its message: a JSON that is not a replay's, not
 * grouped, measured under --delay, or with a field missing or mistyped (at
 * its line and column); two results of different logs or operations; an
 * operation not slower (unless --allow-partial), none slower, only trims,
 * a delay beyond an hour.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "trace/emulate_plan.h"

#define DIGEST "0123456789abcdef"
#define OTHER "fedcba9876543210"

static char err[2048];
static const struct delay_calib calib = {
	.clock_ns = 20, .spin_min_ns = 45, .sleep_min_ns = 55000,
	.sleep_over_ns = 50000, .spin_below_ns = 155000,
};

/* A result named name: a replay object with mode, digest, extra members
 * and the per_op items given. */
static struct json_value *doc(const char *mode, const char *digest,
			      const char *extra, const char *per_op)
{
	static char text[4096];
	struct json_value *v;

	snprintf(text, sizeof(text),
		 "{\"run\": {\"version\": 3},\n"
		 " \"replay\": {\"log\": \"/tmp/app.log\", \"format\": \"rebench-trace\",\n"
		 "  \"digest\": \"%s\", \"mode\": \"%s\", \"speed\": 1.0,\n"
		 "  \"target\": \"/dev/loop3\", %s\n"
		 "  \"per_op\": [%s]}}\n",
		 digest, mode, extra, per_op);
	if (json_parse(text, strlen(text), "R", &v, err, sizeof(err)))
		fail_msg("test JSON refused: %s", err);
	return v;
}

static void read_ok(struct json_value *v, const char *file,
		    struct emulate_result *r)
{
	if (emulate_read_result(v, file, r, err, sizeof(err)))
		fail_msg("%s refused: %s", file, err);
}

/* The replay of doc(...) refused with exactly want. */
static void read_refused(struct json_value *v, const char *want)
{
	struct emulate_result r;

	err[0] = '\0';
	assert_int_equal(-EINVAL,
			 emulate_read_result(v, "R.json", &r, err, sizeof(err)));
	if (strcmp(err, want))
		fail_msg("\n want \"%s\"\n got  \"%s\"", want, err);
	json_free(v);
}

#define OP(name, n, ns) "{\"op\": \"" name "\", \"operations\": " #n ", \"bytes\": 0, \"ns\": 0, \"ns_per_op\": " ns "}"

static void test_plan(void **state)
{
	struct json_value *s, *f;
	struct emulate_result rs, rf;
	struct emulate_plan p;
	char note[256];

	(void)state;
	s = doc("grouped", DIGEST, "",
		OP("read", 1004, "52137.1") ", " OP("write", 1000, "80000")
		", " OP("trim", 3, "900") ", " OP("fsync", 10, "2000000")
		", " OP("fdatasync", 7, "1000.4"));
	f = doc("grouped", DIGEST, "\"delay\": null,",
		OP("read", 1004, "12000.1") ", " OP("write", 1000, "20000.6")
		", " OP("trim", 3, "100") ", " OP("fsync", 10, "100000")
		", " OP("fdatasync", 7, "990"));
	read_ok(s, "slow.json", &rs);
	read_ok(f, "fast.json", &rf);
	assert_string_equal("slow.json", rs.file);
	assert_string_equal("/tmp/app.log", rs.log);
	assert_string_equal(DIGEST, rs.digest);
	assert_string_equal("/dev/loop3", rs.target);
	assert_int_equal(1004, rs.ops[IO_READ]);
	assert_true(rs.ns_per_op[IO_READ] == 52137.1);
	assert_int_equal(0, emulate_plan(&rs, &rf, false, &calib, &p, err,
					 sizeof(err)));
	assert_int_equal(45, p.spin_min_ns);
	/* 52137.1 - 12000.1 = 40137; - 45 */
	assert_true(p.op[IO_READ].present);
	assert_true(p.op[IO_READ].required_ns == 40137);
	assert_int_equal(40092, p.op[IO_READ].adjusted_ns);
	assert_int_equal(EMU_DELAYED, p.op[IO_READ].note);
	/* 80000 - 20000.6 = 59999.4: 59999 */
	assert_true(p.op[IO_WRITE].required_ns == 59999);
	assert_int_equal(59954, p.op[IO_WRITE].adjusted_ns);
	assert_int_equal(1899955, p.op[IO_FSYNC].adjusted_ns);
	/* 10.4 ns: below the zero wait */
	assert_true(p.op[IO_FDATASYNC].required_ns == 10);
	assert_int_equal(EMU_CANNOT_BE_MET, p.op[IO_FDATASYNC].note);
	assert_int_equal(0, p.op[IO_FDATASYNC].adjusted_ns);
	assert_int_equal(EMU_NOT_INTERPOSED, p.op[IO_TRIM].note);
	assert_true(p.op[IO_TRIM].required_ns == 800);
	/* what the interposer gets: the delayed kinds only */
	assert_int_equal(40092, p.delays.ns[IO_READ]);
	assert_int_equal(59954, p.delays.ns[IO_WRITE]);
	assert_int_equal(0, p.delays.ns[IO_TRIM]);
	assert_int_equal(1899955, p.delays.ns[IO_FSYNC]);
	assert_int_equal(0, p.delays.ns[IO_FDATASYNC]);
	emulate_note_text(&p, IO_READ, note, sizeof(note));
	assert_string_equal("delayed", note);
	emulate_note_text(&p, IO_FDATASYNC, note, sizeof(note));
	assert_string_equal("cannot be met: not above the zero wait (45 ns), the least a wait adds; not delayed",
			    note);
	emulate_note_text(&p, IO_TRIM, note, sizeof(note));
	assert_string_equal("not delayed: no call the interposer delays is a trim",
			    note);
	json_free(s);
	json_free(f);
}

/* slow ns_per_op exactly at the zero wait and one ns above it */
static void test_zero_wait_edge(void **state)
{
	struct json_value *s, *f;
	struct emulate_result rs, rf;
	struct emulate_plan p;

	(void)state;
	s = doc("grouped", DIGEST, "",
		OP("read", 5, "1045") ", " OP("write", 5, "1046"));
	f = doc("grouped", DIGEST, "", OP("read", 5, "1000") ", "
		OP("write", 5, "1000"));
	read_ok(s, "s", &rs);
	read_ok(f, "f", &rf);
	assert_int_equal(0, emulate_plan(&rs, &rf, false, &calib, &p, err,
					 sizeof(err)));
	assert_int_equal(EMU_CANNOT_BE_MET, p.op[IO_READ].note);
	assert_int_equal(0, p.delays.ns[IO_READ]);
	assert_int_equal(EMU_DELAYED, p.op[IO_WRITE].note);
	assert_int_equal(1, p.delays.ns[IO_WRITE]);
	assert_false(p.op[IO_FSYNC].present);
	json_free(s);
	json_free(f);
}

static void test_partial(void **state)
{
	struct json_value *s, *f;
	struct emulate_result rs, rf;
	struct emulate_plan p;
	char note[256];

	(void)state;
	s = doc("grouped", DIGEST, "", OP("read", 4, "3000") ", "
		OP("write", 4, "9000") ", " OP("fsync", 1, "500"));
	f = doc("grouped", DIGEST, "", OP("read", 4, "3000") ", "
		OP("write", 4, "1000") ", " OP("fsync", 1, "700.5"));
	read_ok(s, "slow.json", &rs);
	read_ok(f, "fast.json", &rf);
	assert_int_equal(-EINVAL, emulate_plan(&rs, &rf, false, &calib, &p,
					       err, sizeof(err)));
	assert_string_equal("not slower in slow.json than in fast.json: read (3000 ns per operation in slow.json, 3000 in fast.json), fsync (500 ns per operation in slow.json, 700.5 in fast.json); a delay cannot make this machine faster: add --allow-partial to emulate the other operations and leave these out",
			    err);
	assert_int_equal(0, emulate_plan(&rs, &rf, true, &calib, &p, err,
					 sizeof(err)));
	assert_int_equal(EMU_NOT_SLOWER, p.op[IO_READ].note);
	assert_true(p.op[IO_FSYNC].required_ns == -201);	/* round(-200.5) */
	assert_int_equal(0, p.delays.ns[IO_READ]);
	assert_int_equal(0, p.delays.ns[IO_FSYNC]);
	assert_int_equal(7955, p.delays.ns[IO_WRITE]);
	emulate_note_text(&p, IO_READ, note, sizeof(note));
	assert_string_equal("left out (--allow-partial): not slower than the baseline, and a delay cannot speed it up",
			    note);
	json_free(f);

	/* one kind: "this one" */
	f = doc("grouped", DIGEST, "", OP("read", 4, "1000") ", "
		OP("write", 4, "1000") ", " OP("fsync", 1, "600"));
	read_ok(f, "fast.json", &rf);
	assert_int_equal(-EINVAL, emulate_plan(&rs, &rf, false, &calib, &p,
					       err, sizeof(err)));
	assert_string_equal("not slower in slow.json than in fast.json: fsync (500 ns per operation in slow.json, 600 in fast.json); a delay cannot make this machine faster: add --allow-partial to emulate the other operations and leave this one out",
			    err);
	json_free(f);

	/* the two swapped: nothing slower, with or without --allow-partial */
	f = doc("grouped", DIGEST, "", OP("read", 4, "3000") ", "
		OP("write", 4, "9000") ", " OP("fsync", 1, "500"));
	read_ok(f, "fast.json", &rf);
	assert_int_equal(-EINVAL, emulate_plan(&rf, &rs, true, &calib, &p,
					       err, sizeof(err)));
	json_free(s);
	s = doc("grouped", DIGEST, "", OP("read", 4, "2000") ", "
		OP("write", 4, "1000") ", " OP("fsync", 1, "500"));
	read_ok(s, "slow.json", &rs);
	assert_int_equal(-EINVAL, emulate_plan(&rs, &rf, true, &calib, &p,
					       err, sizeof(err)));
	assert_string_equal("no operation is slower in slow.json than in fast.json: read (2000 ns per operation in slow.json, 3000 in fast.json), write (1000 ns per operation in slow.json, 9000 in fast.json), fsync (500 ns per operation in slow.json, 500 in fast.json); there is nothing to emulate: is slow.json the slow device's result (--emulate) and fast.json this machine's (--baseline)?",
			    err);
	json_free(s);
	json_free(f);
}

static void test_plan_refusals(void **state)
{
	struct json_value *s, *f;
	struct emulate_result rs, rf;
	struct emulate_plan p;

	(void)state;
	/* different logs */
	s = doc("grouped", DIGEST, "", OP("read", 4, "3000"));
	f = doc("grouped", OTHER, "", OP("read", 4, "1000"));
	read_ok(s, "slow.json", &rs);
	read_ok(f, "fast.json", &rf);
	rf.log = "/tmp/other.log";
	assert_int_equal(-EINVAL, emulate_plan(&rs, &rf, true, &calib, &p,
					       err, sizeof(err)));
	assert_string_equal("slow.json and fast.json are replays of different logs (slow.json: /tmp/app.log, digest 0123456789abcdef; fast.json: /tmp/other.log, digest fedcba9876543210): --emulate compares the same operations on two devices; replay one log on both",
			    err);
	json_free(f);

	/* an operation in one only, either way */
	f = doc("grouped", DIGEST, "", OP("read", 4, "1000") ", "
		OP("fsync", 2, "10"));
	read_ok(f, "fast.json", &rf);
	assert_int_equal(-EINVAL, emulate_plan(&rs, &rf, true, &calib, &p,
					       err, sizeof(err)));
	assert_string_equal("slow.json and fast.json do not describe the same operations although their logs' digests agree (0123456789abcdef): fsync is in fast.json (2 operations) but not in slow.json; they must be replays of the same log",
			    err);
	assert_int_equal(-EINVAL, emulate_plan(&rf, &rs, true, &calib, &p,
					       err, sizeof(err)));
	assert_string_equal("fast.json and slow.json do not describe the same operations although their logs' digests agree (0123456789abcdef): fsync is in fast.json (2 operations) but not in slow.json; they must be replays of the same log",
			    err);
	json_free(f);

	/* as many of each */
	f = doc("grouped", DIGEST, "", OP("read", 5, "1000"));
	read_ok(f, "fast.json", &rf);
	assert_int_equal(-EINVAL, emulate_plan(&rs, &rf, true, &calib, &p,
					       err, sizeof(err)));
	assert_string_equal("slow.json and fast.json do not describe the same operations although their logs' digests agree (0123456789abcdef): read has 4 operations in slow.json and 5 in fast.json; they must be replays of the same log",
			    err);
	json_free(f);
	json_free(s);

	/* only trims */
	s = doc("grouped", DIGEST, "", OP("trim", 4, "3000"));
	f = doc("grouped", DIGEST, "", OP("trim", 4, "1000"));
	read_ok(s, "slow.json", &rs);
	read_ok(f, "fast.json", &rf);
	assert_int_equal(-EINVAL, emulate_plan(&rs, &rf, true, &calib, &p,
					       err, sizeof(err)));
	assert_string_equal("slow.json and fast.json hold only trims, and the interposer delays no trim: there is nothing to emulate",
			    err);
	json_free(s);
	json_free(f);

	/* beyond an hour */
	s = doc("grouped", DIGEST, "", OP("fsync", 4, "3600000001000"));
	f = doc("grouped", DIGEST, "", OP("fsync", 4, "999"));
	read_ok(s, "slow.json", &rs);
	read_ok(f, "fast.json", &rf);
	assert_int_equal(-EINVAL, emulate_plan(&rs, &rf, true, &calib, &p,
					       err, sizeof(err)));
	assert_string_equal("fsync: the delay slow.json needs, 3600000000001 ns (3.600000001e+12 - 999), is more than the largest a wait makes, an hour: are slow.json and fast.json results of the same log?",
			    err);
	json_free(s);
	json_free(f);
}

static void test_read_refusals(void **state)
{
	struct json_value *v;
	const char *text;

	(void)state;
	text = "{\"workloads\": []}";
	assert_int_equal(0, json_parse(text, strlen(text), "R", &v, err,
				       sizeof(err)));
	read_refused(v, "R.json is not the JSON result of a rebench --replay: it has no \"replay\" object (the JSON of a run, a sweep or a suite?); make one with rebench --replay LOG --replay-mode grouped --json TARGET > FILE");
	text = "[1]";
	assert_int_equal(0, json_parse(text, strlen(text), "R", &v, err,
				       sizeof(err)));
	read_refused(v, "R.json is not the JSON result of a rebench --replay: it has an array at the top, not an object; make one with rebench --replay LOG --replay-mode grouped --json TARGET > FILE");
	text = "\"x\"";
	assert_int_equal(0, json_parse(text, strlen(text), "R", &v, err,
				       sizeof(err)));
	read_refused(v, "R.json is not the JSON result of a rebench --replay: it has a single value at the top, not an object; make one with rebench --replay LOG --replay-mode grouped --json TARGET > FILE");
	text = "{\n\"replay\": [1]}";
	assert_int_equal(0, json_parse(text, strlen(text), "R", &v, err,
				       sizeof(err)));
	read_refused(v, "R.json: line 2, column 11: \"replay\" is an array; an object was expected: not the JSON of a rebench --replay (make it with rebench --replay LOG --replay-mode grouped --json TARGET > FILE)");

	read_refused(doc("asap", DIGEST, "", OP("read", 1, "1")),
		     "R.json was replayed asap; --emulate needs --replay-mode grouped, whose per-operation times are db4o's (each type of operation timed alone): replay the log again with --replay-mode grouped");
	read_refused(doc("timed", DIGEST, "", OP("read", 1, "1")),
		     "R.json was replayed timed; --emulate needs --replay-mode grouped, whose per-operation times are db4o's (each type of operation timed alone): replay the log again with --replay-mode grouped");
	read_refused(doc("Grouped", DIGEST, "", OP("read", 1, "1")),
		     "R.json: line 3, column 41: replay.mode \"Grouped\" is not a mode of rebench --replay (asap, grouped, timed)");
	read_refused(doc("grouped", DIGEST, "\"delay\": \"read=8000ns\",",
			 OP("read", 1, "1")),
		     "R.json was replayed with --delay read=8000ns: its times are the device's plus those delays, not the device's own; replay the log again without --delay");
	read_refused(doc("grouped", "0123456789ABCDEF", "", OP("read", 1, "1")),
		     "R.json: line 3, column 13: replay.digest \"0123456789ABCDEF\" is not 16 lower-case hexadecimal digits (rebench's FNV-1a 64 of the log)");
	read_refused(doc("grouped", "0123", "", OP("read", 1, "1")),
		     "R.json: line 3, column 13: replay.digest \"0123\" is not 16 lower-case hexadecimal digits (rebench's FNV-1a 64 of the log)");
	read_refused(doc("grouped", DIGEST, "", ""),
		     "R.json: line 5, column 13: replay.per_op is empty: the replay ran no operation, so it has no time to emulate");
	read_refused(doc("grouped", DIGEST, "", "1"),
		     "R.json: line 5, column 14: replay.per_op[0] is a number; an object was expected: not the JSON of a rebench --replay (make it with rebench --replay LOG --replay-mode grouped --json TARGET > FILE)");
	read_refused(doc("grouped", DIGEST, "", "{\"operations\": 1}"),
		     "R.json: line 5, column 14: replay.per_op[0] has no \"op\": not the JSON of a rebench --replay (make it with rebench --replay LOG --replay-mode grouped --json TARGET > FILE)");
	read_refused(doc("grouped", DIGEST, "", "{\"op\": \"read\", \"ns_per_op\": 5}"),
		     "R.json: line 5, column 14: replay.per_op[0] has no \"operations\": not the JSON of a rebench --replay (make it with rebench --replay LOG --replay-mode grouped --json TARGET > FILE)");
	read_refused(doc("grouped", DIGEST, "", "{\"op\": \"read\", \"operations\": 1, \"ns_per_op\": \"5\"}"),
		     "R.json: line 5, column 59: replay.per_op[0].ns_per_op is a string; a number was expected: not the JSON of a rebench --replay (make it with rebench --replay LOG --replay-mode grouped --json TARGET > FILE)");
	read_refused(doc("grouped", DIGEST, "", OP("read", 1, "5") ", " OP("flush", 1, "5")),
		     "R.json: line 5, column 91: replay.per_op[1].op \"flush\" is not an operation of rebench (read, write, trim, fsync, fdatasync)");
	read_refused(doc("grouped", DIGEST, "", OP("read", 1, "5") ", " OP("write", 1, "5") ", " OP("read", 1, "7")),
		     "R.json: line 5, column 162: replay.per_op[2].op: read is listed twice (first in replay.per_op[0]): a replay lists each operation once");
	read_refused(doc("grouped", DIGEST, "", OP("read", 0, "5")),
		     "R.json: line 5, column 43: replay.per_op[0].operations is not a whole number of at least 1: an operation listed is one the replay ran");
	read_refused(doc("grouped", DIGEST, "", OP("read", 1.5, "5")),
		     "R.json: line 5, column 43: replay.per_op[0].operations is not a whole number of at least 1: an operation listed is one the replay ran");
	read_refused(doc("grouped", DIGEST, "", OP("read", 1, "-5")),
		     "R.json: line 5, column 80: replay.per_op[0].ns_per_op is negative: not a time");
}

/* a field the reader needs, missing: named with its object's place */
static void test_missing_fields(void **state)
{
	const char *text;
	struct json_value *v;

	(void)state;
	text = "{\"replay\": {\"mode\": \"grouped\", \"digest\": \"" DIGEST "\", \"per_op\": []}}";
	assert_int_equal(0, json_parse(text, strlen(text), "R", &v, err,
				       sizeof(err)));
	read_refused(v, "R.json: line 1, column 12: replay has no \"log\": not the JSON of a rebench --replay (make it with rebench --replay LOG --replay-mode grouped --json TARGET > FILE)");
	text = "{\"replay\": {\"log\": \"/l\", \"digest\": \"" DIGEST "\", \"per_op\": []}}";
	assert_int_equal(0, json_parse(text, strlen(text), "R", &v, err,
				       sizeof(err)));
	read_refused(v, "R.json: line 1, column 12: replay has no \"mode\": not the JSON of a rebench --replay (make it with rebench --replay LOG --replay-mode grouped --json TARGET > FILE)");
	text = "{\"replay\": {\"mode\": \"grouped\", \"log\": \"/l\", \"per_op\": []}}";
	assert_int_equal(0, json_parse(text, strlen(text), "R", &v, err,
				       sizeof(err)));
	read_refused(v, "R.json: line 1, column 12: replay has no \"digest\": not the JSON of a rebench --replay (make it with rebench --replay LOG --replay-mode grouped --json TARGET > FILE)");
	text = "{\"replay\": {\"mode\": \"grouped\", \"log\": \"/l\", \"digest\": \"" DIGEST "\", \"per_op\": {}}}";
	assert_int_equal(0, json_parse(text, strlen(text), "R", &v, err,
				       sizeof(err)));
	read_refused(v, "R.json: line 1, column 85: replay.per_op is an object; an array was expected: not the JSON of a rebench --replay (make it with rebench --replay LOG --replay-mode grouped --json TARGET > FILE)");
	text = "{\"replay\": {\"mode\": \"grouped\", \"log\": 7}}";
	assert_int_equal(0, json_parse(text, strlen(text), "R", &v, err,
				       sizeof(err)));
	read_refused(v, "R.json: line 1, column 39: replay.log is a number; a string was expected: not the JSON of a rebench --replay (make it with rebench --replay LOG --replay-mode grouped --json TARGET > FILE)");
	/* no target: read all the same (it is only shown) */
	text = "{\"replay\": {\"mode\": \"grouped\", \"log\": \"/l\", \"digest\": \"" DIGEST "\", \"per_op\": [" OP("read", 1, "5") "]}}";
	assert_int_equal(0, json_parse(text, strlen(text), "R", &v, err,
				       sizeof(err)));
	{
		struct emulate_result r;

		read_ok(v, "R.json", &r);
		assert_null(r.target);
	}
	json_free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_zero_wait_edge),
		cmocka_unit_test(test_partial),
		cmocka_unit_test(test_plan_refusals),
		cmocka_unit_test(test_read_refusals),
		cmocka_unit_test(test_missing_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
