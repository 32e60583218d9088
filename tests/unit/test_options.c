/* test_options.c - the option table (src/core/options.c) and workload validation
 * (src/core/spec.c, validate.h).
 *
 * One table drives argv, stdin lines, --help and the man page, so this
 * checks: the table itself (unique names and letters, defaults that agree
 * with spec_defaults), every accepted form (long, --name=value, short,
 * bundled, attached), refusals (unknown, missing value, out of range, run
 * options on a stdin line; two targets are a list of files), stdin line splitting, spec_check's
 * refusals and spec_resolve against a hand-filled target.  Every refusal
 * must print a message naming what was wrong; stderr is captured to check.
 * The man page case fails until man/rebench.1 exists and lists every option.
 * fio's spellings (options_fio.h) set what rebench's options do, refuse
 * what fio means otherwise, and are listed in --help and the man page;
 * unknown names and values get the nearest ones (suggest.h); --help groups
 * every option under exactly one heading and fits 80 columns.
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
#include "cli/options_help.h"
#include "core/options_fio.h"
#include "core/spec.h"
#include "core/suggest.h"
#include "target/target.h"
#include "core/validate.h"

#define KiB (1ULL << 10)
#define MiB (1ULL << 20)
#define MAN_PAGE "man/rebench.1"

#include "capture.h"

/* Parse one line as stdin (run == NULL) or command line words. */
static int parse_line(const char *line, struct spec *s, struct run_opts *run,
		      unsigned lineno)
{
	struct parse_ctx ctx = { lineno, lineno ? "stdin" : "command line" };
	char *buf = strdup(line), *words[64];
	int n, ret;

	assert_non_null(buf);
	n = options_split_line(buf, words, 64);
	assert_true(n >= 0);
	capture_begin();
	ret = options_parse(n, words, s, run, &ctx);
	capture_end();
	free(buf);
	if (ret)
		expect_message(line, (const char *)NULL);
	return ret;
}

/* Defaults plus one line, which must parse. */
static void parse_ok(const char *line, struct spec *s, struct run_opts *run)
{
	spec_defaults(s);
	if (run)
		memset(run, 0, sizeof(*run));
	if (parse_line(line, s, run, 0))
		fail_msg("'%s' refused: %s", line, errtext);
}

static void parse_bad(const char *line, struct run_opts *run)
{
	struct spec s;
	int ret;

	spec_defaults(&s);
	if (run)
		memset(run, 0, sizeof(*run));
	ret = parse_line(line, &s, run, 0);
	spec_free(&s);
	if (ret != -EINVAL)
		fail_msg("'%s' accepted (ret %d), want -EINVAL", line, ret);
}

static void test_table_sane(void **state)
{
	const struct engine_opt *eo;
	size_t i, j, own = 0;
	int e;

	(void)state;
	/* the engines' own options: no name of the table's, their bits in
	 * spec->given from the top (SPEC_ENGINE_OPT_BIT) */
	for (; (eo = engine_opt_get((int)own, &e)); own++) {
		assert_null(options_find_long(eo->name));
		assert_non_null(eo->help);
	}
	/* spec->given has a bit per workload option, run->given one per
	 * option of the table */
	assert_true(opt_count <= 128);
	for (i = 0; i < opt_count; i++) {
		const struct opt_desc *o = &opt_table[i];

		if (o->scope == SCOPE_WORKLOAD && i >= 64 - own)
			fail_msg("--%s is workload option %zu: spec->given has 64 bits, the top %zu the engines' own options; put it before the run options",
				 o->name, i, own);

		assert_non_null(o->name);
		assert_non_null(o->help);
		assert_true(options_find_long(o->name) == o);
		assert_int_equal(options_index(o), (int)i);
		if (o->letter)
			assert_true(options_find_letter(o->letter) == o);
		if (o->type != OPT_FLAG)
			assert_non_null(o->metavar);
		if (o->type == OPT_ENUM || o->type == OPT_OPS || o->type == OPT_DIST)
			assert_non_null(o->values);
		if (o->type == OPT_TIME)
			assert_true(o->unit_ns > 0);
		for (j = 0; j < i; j++) {
			assert_string_not_equal(o->name, opt_table[j].name);
			if (o->letter)
				assert_true(o->letter != opt_table[j].letter);
		}
	}
	assert_null(options_find_long("no-such-option"));
	assert_null(options_find_letter('X'));
}

static void test_defaults(void **state)
{
	struct spec s;

	(void)state;
	spec_defaults(&s);
	assert_null(s.target);
	assert_int_equal(s.op, OP_READ);
	assert_false(s.seq);
	assert_int_equal(s.direction, DIR_FORWARD);
	assert_int_equal(s.bs, 512);
	assert_int_equal(s.stride, 0);
	assert_int_equal(s.dist, DIST_UNIFORM);
	assert_null(s.dist_arg);
	assert_true(s.engine >= 0);
	assert_int_equal(s.engine, engine_lookup("stateful"));
	assert_string_equal(engine_get(s.engine)->name, "stateful");
	assert_int_equal(s.qd, 1);
	assert_int_equal(s.threads, 1);
	assert_false(s.local_fd);
	assert_int_equal(s.duration.kind, AMOUNT_TIME);
	assert_true(s.duration.value == 10 * NSEC_PER_SEC);
	assert_int_equal(s.offset.value, 0);
	assert_int_equal(s.length.kind, AMOUNT_NONE);
	assert_false(s.paged);
	assert_false(s.buffered);
	assert_false(s.atime);
	assert_false(s.append);
	assert_true(s.sample_ns == 1000 * NSEC_PER_MSEC);
	assert_int_equal(s.pause_ns, 0);
	assert_true(s.rwmix == 50);
	assert_true(s.sigma == 5);
	assert_null(s.output);
	assert_int_equal(s.given, 0);
}

/* Does field o hold the same value in a and b? */
static bool field_equal(const struct opt_desc *o, const struct spec *a,
			const struct spec *b)
{
	const char *x = (const char *)a + o->off, *y = (const char *)b + o->off;
	const struct amount *p = (const void *)x, *q = (const void *)y;

	switch (o->type) {
	case OPT_FLAG:
		return *(const bool *)x == *(const bool *)y;
	case OPT_SIZE:
	case OPT_BSIZE:
	case OPT_COUNT:
	case OPT_TIME:
	case OPT_SEED:
		return *(const uint64_t *)x == *(const uint64_t *)y;
	case OPT_ENUM:
	case OPT_OPS:
	case OPT_DIST:
	case OPT_ENGINE:
		return *(const int *)x == *(const int *)y;
	case OPT_PERCENT:
	case OPT_DOUBLE:
		return *(const double *)x == *(const double *)y;
	case OPT_DURATION:
	case OPT_EXTENT:
		return p->kind == q->kind && (p->kind == AMOUNT_PERCENT ?
					      p->pct == q->pct :
					      p->value == q->value);
	case OPT_STRING:
		return true;
	case OPT_DELAY:
		return !memcmp(x, y, sizeof(struct delay_set));
	case OPT_SYNC:
		return !memcmp(x, y, sizeof(struct sync_policy));
	case OPT_RATE:
		return !memcmp(x, y, sizeof(struct rate_spec));
	}
	return false;
}

static void test_help_defaults_match(void **state)
{
	struct spec def, s;
	char line[128];
	size_t i;

	(void)state;
	/* the default --help shows is the default the parser starts from */
	spec_defaults(&def);
	for (i = 0; i < opt_count; i++) {
		const struct opt_desc *o = &opt_table[i];

		if (o->scope != SCOPE_WORKLOAD)
			continue;
		if (o->type == OPT_FLAG) {
			assert_false(*(const bool *)((const char *)&def + o->off));
			continue;
		}
		if (o->type == OPT_STRING || o->type == OPT_SEED)
			continue;
		snprintf(line, sizeof(line), "--%s=%s", o->name, o->defval);
		spec_defaults(&s);
		if (parse_line(line, &s, NULL, 0)) {
			/* prose defaults: "block size", "whole target" */
			assert_true(strchr(o->defval, ' ') != NULL);
			spec_free(&s);
			continue;
		}
		if (!field_equal(o, &s, &def))
			fail_msg("--%s: help says default '%s', spec_defaults differs",
				 o->name, o->defval);
		spec_free(&s);
	}
}

/* The n-th entry of s's file list (core/fileset.h), or NULL. */
static const char *list_entry(const struct spec *s, unsigned n)
{
	const char *p = s->files;

	while (p && p < s->files + s->files_len) {
		if (!n--)
			return p;
		p += strlen(p) + 1;
	}
	return NULL;
}

/* Many files: several TARGETs and fio's --filename a:b:c are a list
 * ("\:" a colon of a name), --directory becomes the target; a TARGET with
 * --directory, an empty name in a list, a TARGET before --filename are
 * refused. */
static void test_file_lists(void **state)
{
	struct spec s;

	(void)state;
	parse_ok("/a /b /c", &s, NULL);
	assert_string_equal(s.target, "/a");
	assert_string_equal(list_entry(&s, 0), "/a");
	assert_string_equal(list_entry(&s, 2), "/c");
	assert_null(list_entry(&s, 3));
	spec_free(&s);
	parse_ok("--filename=a\\:b:c", &s, NULL);
	assert_string_equal(s.target, "a:b");
	assert_string_equal(list_entry(&s, 1), "c");
	assert_null(list_entry(&s, 2));
	spec_free(&s);
	parse_ok("--filename=x\\:y", &s, NULL);
	assert_string_equal(s.target, "x:y");
	assert_null(s.files);	/* one file, a colon in its name */
	spec_free(&s);
	parse_ok("/dev/disk/by-path/pci-0000:00:1f.2-ata-1", &s, NULL);
	assert_string_equal(s.target, "/dev/disk/by-path/pci-0000:00:1f.2-ata-1");
	assert_null(s.files);	/* a TARGET's colons are its own */
	spec_free(&s);
	parse_ok("--directory /d --nrfiles 8 --filesize 1m", &s, NULL);
	assert_string_equal(s.target, "/d");
	assert_true(s.target_is_dir);
	assert_int_equal(s.nrfiles, 8);
	assert_int_equal(s.filesize, 1 << 20);
	spec_free(&s);
	parse_bad("--directory /d /x", NULL);
	expect_message("TARGET and --directory", "a TARGET (/x) and --directory /d together",
		       (const char *)NULL);
	parse_bad("/x --directory /d", NULL);
	parse_bad("/a /b --directory /d", NULL);
	parse_bad("--filename=a::b", NULL);
	expect_message("empty name", "file 2 of the list is empty", (const char *)NULL);
}

static void test_forms(void **state)
{
	struct run_opts run;
	struct spec s;

	(void)state;
	parse_ok("--block-size 4k /dev/x", &s, NULL);
	assert_int_equal(s.bs, 4096);
	assert_string_equal(s.target, "/dev/x");
	assert_true(spec_given(&s, "block-size"));
	assert_false(spec_given(&s, "stride"));
	spec_free(&s);

	parse_ok("--block-size=8k /dev/x", &s, NULL);
	assert_int_equal(s.bs, 8192);
	spec_free(&s);

	parse_ok("-b 16k /dev/x", &s, NULL);
	assert_int_equal(s.bs, 16384);
	spec_free(&s);

	parse_ok("-b32k /dev/x", &s, NULL);
	assert_int_equal(s.bs, 32768);
	spec_free(&s);

	/* bundled flags, then a letter whose value is attached */
	parse_ok("-pf /dev/x", &s, NULL);
	assert_true(s.paged && s.buffered);
	assert_false(s.local_fd);
	spec_free(&s);

	parse_ok("-plmb4k /dev/x", &s, NULL);
	assert_true(s.paged && s.local_fd && s.atime);
	assert_int_equal(s.bs, 4096);
	spec_free(&s);

	parse_ok("-plc 4 /dev/x", &s, NULL);
	assert_true(s.paged && s.local_fd);
	assert_int_equal(s.threads, 4);
	spec_free(&s);

	/* the target may come first, and the last value wins */
	parse_ok("/dev/x -b 4k -b 8k", &s, NULL);
	assert_int_equal(s.bs, 8192);
	assert_string_equal(s.target, "/dev/x");
	spec_free(&s);

	/* after "--" a word starting with '-' is a target */
	parse_ok("-b 4k -- -odd-name", &s, NULL);
	assert_string_equal(s.target, "-odd-name");
	spec_free(&s);

	parse_ok("-w seq -s 8k -r backward -d 500ms -j 1m -e 50% -g 250 -z 10 /dev/x",
		 &s, NULL);
	assert_true(s.seq);
	assert_int_equal(s.stride, 8192);
	assert_int_equal(s.direction, DIR_BACKWARD);
	assert_int_equal(s.duration.kind, AMOUNT_TIME);
	assert_true(s.duration.value == 500 * NSEC_PER_MSEC);
	assert_int_equal(s.offset.kind, AMOUNT_BYTES);
	assert_true(s.offset.value == MiB);
	assert_int_equal(s.length.kind, AMOUNT_PERCENT);
	assert_true(s.length.pct == 50);
	assert_true(s.sample_ns == 250 * NSEC_PER_MSEC);
	assert_true(s.pause_ns == 10 * NSEC_PER_USEC);
	spec_free(&s);

	parse_ok("-d 1g -o rw --rwmix 70% --seed 18446744073709551615 --output=/tmp/o.tsv /dev/x",
		 &s, NULL);
	assert_int_equal(s.duration.kind, AMOUNT_BYTES);
	assert_true(s.duration.value == 1ULL << 30);
	assert_int_equal(s.op, OP_RW);
	assert_true(s.rwmix == 70);
	assert_true(s.seed == UINT64_MAX);
	assert_string_equal(s.output, "/tmp/o.tsv");
	spec_free(&s);

	parse_ok("-u uniform:3 /dev/x", &s, NULL);
	assert_int_equal(s.dist, DIST_UNIFORM);
	assert_string_equal(s.dist_arg, "3");
	spec_free(&s);

	/* run-wide options land in run_opts on the command line */
	parse_ok("--json -n --yes --drop-caches /dev/x", &s, &run);
	assert_true(run.json && run.silent && run.yes && run.drop_caches);
	assert_int_equal(s.given, 0);
	spec_free(&s);
	parse_ok("-ny", &s, &run);
	assert_true(run.silent && run.yes);
	assert_null(s.target);
	spec_free(&s);
}

static void test_enums(void **state)
{
	static const struct { const char *name; const char *engine; } al[] = {
		{ "psync", "stateless" }, { "sync", "stateful" },
		{ "io_uring", "uring" }, { "libaio", "naio" },
		{ "posixaio", "paio" }, { "PSYNC", "stateless" },
		{ "Stateless", "stateless" }, { "mmap", "mmap" },
	};
	char line[64];
	struct spec s;
	size_t i;

	(void)state;
	parse_ok("-o WRITE -w SEQ -r Backward /dev/x", &s, NULL);
	assert_int_equal(s.op, OP_WRITE);
	assert_true(s.seq);
	assert_int_equal(s.direction, DIR_BACKWARD);
	spec_free(&s);
	parse_ok("--operation=Trim /dev/x", &s, NULL);
	assert_int_equal(s.op, OP_TRIM);
	spec_free(&s);
	parse_ok("-u ZIPF:1.2 /dev/x", &s, NULL);
	assert_int_equal(s.dist, DIST_ZIPF);
	assert_string_equal(s.dist_arg, "1.2");
	spec_free(&s);

	for (i = 0; i < sizeof(al) / sizeof(al[0]); i++) {
		snprintf(line, sizeof(line), "-t %s /dev/x", al[i].name);
		parse_ok(line, &s, NULL);
		assert_string_equal(engine_get(s.engine)->name, al[i].engine);
		spec_free(&s);
	}

	parse_bad("-o erase /dev/x", NULL);
	expect_message("-o erase", "-o/--operation", "erase", "read, write, trim, rw",
		       (const char *)NULL);
	parse_bad("-w random /dev/x", NULL);
	parse_bad("-r sideways /dev/x", NULL);
	parse_bad("-u gauss /dev/x", NULL);
	parse_bad("-t spdk /dev/x", NULL);
	expect_message("-t spdk", "spdk", "stateful", "stateless",
		       (const char *)NULL);
}

static void test_refusals(void **state)
{
	(void)state;
	parse_bad("--nope /dev/x", NULL);
	expect_message("--nope", "--nope", (const char *)NULL);
	parse_bad("-X /dev/x", NULL);
	expect_message("-X", "-X", (const char *)NULL);
	parse_bad("-pX /dev/x", NULL);
	parse_bad("/dev/x --block-size", NULL);
	expect_message("missing value", "--block-size", (const char *)NULL);
	parse_bad("/dev/x -b", NULL);
	parse_bad("/dev/x -pb", NULL);
	parse_bad("--paged=yes /dev/x", NULL);
	parse_bad("--block-size= /dev/x", NULL);

	/* ranges from the table */
	parse_bad("-b 0 /dev/x", NULL);
	parse_bad("-b 2g /dev/x", NULL);
	parse_bad("-b 4q /dev/x", NULL);
	expect_message("-b 4q", "-b/--block-size", "4q", (const char *)NULL);
	parse_bad("-b 99999999999t /dev/x", NULL);
	parse_bad("-c 0 /dev/x", NULL);
	parse_bad("-c 4097 /dev/x", NULL);
	parse_bad("-c 2.5 /dev/x", NULL);
	parse_bad("-q 65537 /dev/x", NULL);
	parse_bad("--rwmix 101 /dev/x", NULL);
	parse_bad("--rwmix -1 /dev/x", NULL);
	parse_bad("-i 0 /dev/x", NULL);
	parse_bad("-d 0 /dev/x", NULL);
	parse_bad("-d 0% /dev/x", NULL);
	parse_bad("-d 0ms /dev/x", NULL);
	parse_bad("-d forever /dev/x", NULL);
	parse_bad("-e 0 /dev/x", NULL);
	parse_bad("-e 0% /dev/x", NULL);
	parse_bad("-e 101% /dev/x", NULL);
	parse_bad("-j 101% /dev/x", NULL);
	parse_bad("-g 1m /dev/x", NULL);
	parse_bad("-z -5 /dev/x", NULL);
	parse_bad("--seed -1 /dev/x", NULL);
	parse_bad("--seed 18446744073709551616 /dev/x", NULL);
	parse_bad("--output= /dev/x", NULL);

	/* two TARGETs are a list of files (core/fileset.h, test_file_lists),
	 * not a refusal */
}

static void test_run_scope_on_stdin(void **state)
{
	static const char *const lines[] = {
		"--json /dev/x", "-n /dev/x", "--silent /dev/x",
		"--yes /dev/x", "-y /dev/x", "--drop-caches /dev/x",
		"-pn /dev/x", "--help", "-V",
	};
	struct run_opts run;
	struct spec s;
	size_t i;
	int ret;

	(void)state;
	/* run == NULL is how stdin lines are parsed: run options refused */
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		parse_bad(lines[i], NULL);

	/* and the message names the line */
	spec_defaults(&s);
	ret = parse_line("-b 4k --json /dev/x", &s, NULL, 3);
	assert_int_equal(ret, -EINVAL);
	expect_message("--json on line 3", "stdin line 3", "--json",
		       (const char *)NULL);
	spec_free(&s);
	spec_defaults(&s);
	ret = parse_line("-b 4q /dev/x", &s, NULL, 7);
	assert_int_equal(ret, -EINVAL);
	expect_message("bad value on line 7", "stdin line 7", "4q",
		       (const char *)NULL);
	spec_free(&s);

	/* the same options are fine on the command line */
	parse_ok("--json --drop-caches /dev/x", &s, &run);
	assert_true(run.json && run.drop_caches);
	spec_free(&s);
}

static void test_stdin_line_inherits(void **state)
{
	struct spec base, s;

	(void)state;
	/* command-line options are defaults for every stdin line */
	parse_ok("-b 4k -w seq --output=/tmp/base.tsv", &base, NULL);
	assert_int_equal(spec_copy(&s, &base), 0);
	assert_int_equal(parse_line("-b 8k --output=/tmp/line.tsv /dev/x", &s,
				    NULL, 2), 0);
	assert_int_equal(s.bs, 8192);
	assert_true(s.seq);
	assert_string_equal(s.output, "/tmp/line.tsv");
	/* the copy is deep: the base keeps its own strings */
	assert_string_equal(base.output, "/tmp/base.tsv");
	assert_null(base.target);
	spec_free(&base);
	assert_string_equal(s.target, "/dev/x");
	spec_free(&s);
}

static void test_split_line(void **state)
{
	char *w[8];
	char buf[256];

	(void)state;
	strcpy(buf, "  -b 4k\t  /dev/sdb  \n");
	assert_int_equal(options_split_line(buf, w, 8), 3);
	assert_string_equal(w[0], "-b");
	assert_string_equal(w[1], "4k");
	assert_string_equal(w[2], "/dev/sdb");

	strcpy(buf, "-b '4k' \"/tmp/my file\" --output='a b'");
	assert_int_equal(options_split_line(buf, w, 8), 4);
	assert_string_equal(w[1], "4k");
	assert_string_equal(w[2], "/tmp/my file");
	assert_string_equal(w[3], "--output=a b");

	/* quotes join within a word and protect '#' and the other quote */
	strcpy(buf, "a'b c'd \"it's\" '#x' 'say \"hi\"'");
	assert_int_equal(options_split_line(buf, w, 8), 4);
	assert_string_equal(w[0], "ab cd");
	assert_string_equal(w[1], "it's");
	assert_string_equal(w[2], "#x");
	assert_string_equal(w[3], "say \"hi\"");

	/* comments and blank lines give no words */
	strcpy(buf, "# a comment -b 4k");
	assert_int_equal(options_split_line(buf, w, 8), 0);
	strcpy(buf, "   # indented comment");
	assert_int_equal(options_split_line(buf, w, 8), 0);
	strcpy(buf, "");
	assert_int_equal(options_split_line(buf, w, 8), 0);
	strcpy(buf, " \t \r\n");
	assert_int_equal(options_split_line(buf, w, 8), 0);
	strcpy(buf, "-b 4k /dev/sdb # the fast one");
	assert_int_equal(options_split_line(buf, w, 8), 3);
	assert_string_equal(w[2], "/dev/sdb");

	/* an empty quoted word is a word */
	strcpy(buf, "--output '' x");
	assert_int_equal(options_split_line(buf, w, 8), 3);
	assert_string_equal(w[1], "");

	/* unterminated quotes and too many words are errors */
	strcpy(buf, "-b 4k '/dev/sdb");
	assert_true(options_split_line(buf, w, 8) < 0);
	strcpy(buf, "-b \"4k /dev/sdb");
	assert_true(options_split_line(buf, w, 8) < 0);
	strcpy(buf, "1 2 3 4 5 6 7 8 9");
	assert_true(options_split_line(buf, w, 8) < 0);
	strcpy(buf, "1 2 3 4 5 6 7 8");
	assert_int_equal(options_split_line(buf, w, 8), 8);
}

/* Parse (must succeed) then spec_check. */
static int check_line(const char *line)
{
	struct spec s;
	int ret;

	parse_ok(line, &s, NULL);
	capture_begin();
	ret = spec_check(&s);
	capture_end();
	spec_free(&s);
	if (ret)
		expect_message(line, (const char *)NULL);
	return ret;
}

static void want_check(const char *line, int want)
{
	int ret = check_line(line);

	if (ret != want)
		fail_msg("spec_check('%s') = %d, want %d; %s", line, ret, want,
			 errtext);
}

static void test_spec_check(void **state)
{
	(void)state;
	want_check("/dev/x", 0);
	want_check("-b 4k", -EINVAL);
	expect_message("no target", "target", (const char *)NULL);

	/* engine combinations */
	want_check("-t mmap /dev/x", -EINVAL);
	expect_message("mmap needs -p", "-p", (const char *)NULL);
	want_check("-t mmap -p /dev/x", 0);
	want_check("-t stateless /dev/x", 0);
	want_check("-t paio -q 8 /dev/x", 0);
	want_check("-t stateless --batch 2 /dev/x", -EINVAL);
	want_check("-t paio -q 4 --batch 8 /dev/x", -EINVAL);
	want_check("-t paio -q 4 -z 10 /dev/x", -EINVAL);
	want_check("-t paio -q 4 -o trim /dev/x", -EINVAL);
	want_check("-t stateless --sqpoll /dev/x", -EINVAL);
	want_check("-t paio -q 4 -o write -w seq -a /dev/x", -EINVAL);

	/* distributions and their parameters */
	want_check("-u normal /dev/x", 0);
	want_check("-u zipf:1.2 /dev/x", 0);
	want_check("-u zipf /dev/x", 0);
	want_check("-u zipf:0 /dev/x", -EINVAL);
	expect_message("zipf:0", "THETA", "(0, 100]", (const char *)NULL);
	want_check("-u zipf:-2 /dev/x", -EINVAL);
	want_check("-u pareto:0.2 /dev/x", 0);
	want_check("-u pareto:1 /dev/x", -EINVAL);
	want_check("-u powerlaw -i 100 /dev/x", -EINVAL);
	want_check("-u pow -i 100 /dev/x", 0);	/* the original's: any mean */
	want_check("-u zoned:80/20:20/80 /dev/x", 0);
	want_check("-u zoned:80/20:10/80 /dev/x", -EINVAL);
	expect_message("zones", "sum to 100", (const char *)NULL);
	want_check("-u uniform:3 /dev/x", -EINVAL);
	want_check("-u normal:3 /dev/x", -EINVAL);
	want_check("-u UNIFORM /dev/x", 0);
	want_check("-u const --center 10 /dev/x", 0);
	want_check("-w seq -u normal /dev/x", -EINVAL);
	want_check("-w seq --scatter /dev/x", -EINVAL);

	/* synchronous engines keep one I/O in flight */
	want_check("-q 4 /dev/x", -EINVAL);
	expect_message("-q 4", "-q/--queue-depth", (const char *)NULL);
	want_check("-q 4 -t stateless /dev/x", -EINVAL);
	want_check("-q 1 /dev/x", 0);

	/* stateful threads must not share a file position */
	want_check("-c 2 /dev/x", -EINVAL);
	expect_message("-c 2", "-c/--threads", "-l", (const char *)NULL);
	want_check("-c 2 -l /dev/x", 0);
	want_check("-c 2 -t stateless /dev/x", 0);
	want_check("-c 2 -t psync /dev/x", 0);

	/* append: sequential writes only */
	want_check("-a /dev/x", -EINVAL);
	want_check("-a -o write /dev/x", -EINVAL);
	want_check("-a -w seq /dev/x", -EINVAL);
	want_check("-a -o write -w seq /dev/x", 0);

	/* direction: sequential only */
	want_check("-r backward /dev/x", -EINVAL);
	want_check("-r backward -w seq /dev/x", 0);
	want_check("-r forward /dev/x", 0);

	/* --rwmix needs -o rw */
	want_check("--rwmix 70 /dev/x", -EINVAL);
	want_check("--rwmix 70 -o write /dev/x", -EINVAL);
	want_check("--rwmix 70 -o rw /dev/x", 0);
	want_check("-o rw /dev/x", 0);

	/* per-I/O log needs a file */
	want_check("-g 0 /dev/x", -EINVAL);
	want_check("-g 0 --output /tmp/x.tsv /dev/x", 0);

	/* seq I/Os must not overlap; rnd may use a finer stride */
	want_check("-w seq -b 4k -s 512 /dev/x", -EINVAL);
	expect_message("seq stride", "-s/--stride", (const char *)NULL);
	want_check("-w seq -b 4k -s 4k /dev/x", 0);
	want_check("-w seq -b 4k -s 8k /dev/x", 0);
	want_check("-b 4k -s 512 /dev/x", 0);
}

static void fake_disk(struct target *t, unsigned logical)
{
	memset(t, 0, sizeof(*t));
	strcpy(t->path, "/dev/fake");
	strcpy(t->name, "fake");
	strcpy(t->disk, "fake");
	t->kind = TARGET_DISK;
	t->exists = true;
	t->size = 64 * MiB;
	t->logical = logical;
	t->physical = logical;
	t->alignment_offset = -1;
	t->rotational = -1;
}

/* Parse line, then spec_resolve against t; s is left for inspection. */
static int resolve_line(const char *line, const struct target *t,
			struct spec *s)
{
	int ret;

	parse_ok(line, s, NULL);
	capture_begin();
	ret = spec_resolve(s, t);
	capture_end();
	if (ret)
		expect_message(line, (const char *)NULL);
	return ret;
}

static void expect_resolve(const char *line, const struct target *t, int want)
{
	struct spec s;
	int ret = resolve_line(line, t, &s);

	spec_free(&s);
	if (ret != want)
		fail_msg("spec_resolve('%s') = %d, want %d; %s", line, ret,
			 want, errtext);
}

static void test_resolve_region(void **state)
{
	struct target t;
	struct spec s;

	(void)state;
	fake_disk(&t, 512);
	assert_int_equal(resolve_line("/dev/fake", &t, &s), 0);
	assert_int_equal(s.region_start, 0);
	assert_true(s.region_len == 64 * MiB);
	assert_int_equal(s.stride_eff, 512);
	assert_true(s.slots == 64 * MiB / 512);
	assert_true(s.time_limit_ns == 10 * NSEC_PER_SEC);
	assert_int_equal(s.ops_limit, 0);
	spec_free(&s);

	assert_int_equal(resolve_line("-j 50% -e 25% -b 4k -s 8k /dev/fake", &t,
				      &s), 0);
	assert_true(s.region_start == 32 * MiB);
	assert_true(s.region_len == 16 * MiB);
	assert_int_equal(s.stride_eff, 8192);
	assert_true(s.slots == (16 * MiB - 4096) / 8192 + 1);
	spec_free(&s);

	/* the region ends exactly at the end of the target: fine */
	expect_resolve("-j 32m -e 32m /dev/fake", &t, 0);
	expect_resolve("-j 32m /dev/fake", &t, 0);
	expect_resolve("-j 32m -e 33m /dev/fake", &t, -EINVAL);
	expect_message("region beyond", "region beyond the target",
		       (const char *)NULL);
	expect_resolve("-e 65m /dev/fake", &t, -EINVAL);
	expect_resolve("-j 50% -e 60% /dev/fake", &t, -EINVAL);
	/* offset at or past the end */
	expect_resolve("-j 64m /dev/fake", &t, -EINVAL);
	expect_message("offset at end", "-j/--offset", (const char *)NULL);
	expect_resolve("-j 1g /dev/fake", &t, -EINVAL);
	expect_resolve("-j 100% /dev/fake", &t, -EINVAL);
	/* not even one block in the region */
	expect_resolve("-e 4k -b 8k /dev/fake", &t, -EINVAL);
	expect_resolve("-j 65532k -b 4k /dev/fake", &t, 0);
	expect_resolve("-j 65532k -b 8k /dev/fake", &t, -EINVAL);
}

static void test_resolve_direct_alignment(void **state)
{
	struct target t;
	struct spec s;

	(void)state;
	fake_disk(&t, 4096);
	expect_resolve("-b 4k /dev/fake", &t, 0);
	/* no -b: the default follows the logical sector, and says so */
	assert_int_equal(resolve_line("/dev/fake", &t, &s), 0);
	assert_int_equal(s.bs, 4096);
	assert_true(s.bs_is_sector);
	spec_free(&s);
	/* a -b of the user's own is kept, and refused */
	expect_resolve("-b 512 /dev/fake", &t, -EINVAL);
	expect_message("bs 512 on 4k sector", "-b/--block-size", "4096",
		       (const char *)NULL);
	expect_resolve("-b 6k /dev/fake", &t, -EINVAL);
	expect_resolve("-b 4k -s 512 /dev/fake", &t, -EINVAL);
	expect_resolve("-b 4k -j 512 /dev/fake", &t, -EINVAL);
	expect_resolve("-b 4k -j 8k -s 12k /dev/fake", &t, 0);
	/* page cache I/O has no alignment rule */
	expect_resolve("-p /dev/fake", &t, 0);
	expect_resolve("-p -b 1000 -s 24 -j 7 /dev/fake", &t, 0);

	fake_disk(&t, 512);
	expect_resolve("/dev/fake", &t, 0);
	expect_resolve("-b 1536 -j 1536 /dev/fake", &t, 0);
	expect_resolve("-b 1000 /dev/fake", &t, -EINVAL);
	expect_resolve("-b 1000 -p /dev/fake", &t, 0);
	/* logical 0 (unknown) is taken as 512 */
	fake_disk(&t, 0);
	expect_resolve("/dev/fake", &t, 0);
	expect_resolve("-b 100 /dev/fake", &t, -EINVAL);
}

static void test_resolve_amounts(void **state)
{
	struct target t;
	struct spec s;

	(void)state;
	fake_disk(&t, 512);
	/* bytes: rounded up to whole I/Os */
	assert_int_equal(resolve_line("-d 1m -b 4k /dev/fake", &t, &s), 0);
	assert_int_equal(s.time_limit_ns, 0);
	assert_int_equal(s.ops_limit, 256);
	spec_free(&s);
	assert_int_equal(resolve_line("-d 10k -b 4k /dev/fake", &t, &s), 0);
	assert_int_equal(s.ops_limit, 3);
	spec_free(&s);
	assert_int_equal(resolve_line("-d 1k -b 4k /dev/fake", &t, &s), 0);
	assert_int_equal(s.ops_limit, 1);
	spec_free(&s);
	/* percent of the region, not of the target */
	assert_int_equal(resolve_line("-d 50% -b 4k /dev/fake", &t, &s), 0);
	assert_int_equal(s.ops_limit, 32 * MiB / 4096);
	spec_free(&s);
	assert_int_equal(resolve_line("-d 50% -e 1m -b 4k /dev/fake", &t, &s), 0);
	assert_int_equal(s.ops_limit, 128);
	spec_free(&s);
	assert_int_equal(resolve_line("-d 200% -e 1m -b 4k /dev/fake", &t, &s),
			 0);
	assert_int_equal(s.ops_limit, 512);
	spec_free(&s);
	/* time */
	assert_int_equal(resolve_line("-d 2min /dev/fake", &t, &s), 0);
	assert_true(s.time_limit_ns == 120 * NSEC_PER_SEC);
	assert_int_equal(s.ops_limit, 0);
	spec_free(&s);
}

static void test_resolve_missing_file(void **state)
{
	struct target t;
	struct spec s;

	(void)state;
	memset(&t, 0, sizeof(t));
	strcpy(t.path, "/tmp/rebench-none");
	t.kind = TARGET_FILE;
	t.exists = false;
	t.alignment_offset = -1;
	t.rotational = -1;

	assert_true(resolve_line("/tmp/rebench-none", &t, &s) < 0);
	expect_message("missing file", "/tmp/rebench-none", "-e",
		       (const char *)NULL);
	spec_free(&s);
	assert_true(resolve_line("-e 50% /tmp/rebench-none", &t, &s) < 0);
	spec_free(&s);
	assert_true(resolve_line("-j 10% -e 1m /tmp/rebench-none", &t, &s) < 0);
	spec_free(&s);

	/* with -e the file will be created: its size is offset + length */
	assert_int_equal(resolve_line("-e 1m /tmp/rebench-none", &t, &s), 0);
	assert_int_equal(s.region_start, 0);
	assert_true(s.region_len == MiB);
	assert_true(s.slots == MiB / 512);
	spec_free(&s);
	assert_int_equal(resolve_line("-j 1m -e 2m -b 4k /tmp/rebench-none", &t,
				      &s), 0);
	assert_true(s.region_start == MiB);
	assert_true(s.region_len == 2 * MiB);
	assert_true(s.slots == 2 * MiB / 4096);
	spec_free(&s);
}

static void test_resolve_device_only(void **state)
{
	struct target t;

	(void)state;
	fake_disk(&t, 512);
	/* O_APPEND has no meaning on a block device */
	expect_resolve("-a -o write -w seq /dev/fake", &t, -EINVAL);
	/* trim needs discard support */
	expect_resolve("-o trim /dev/fake", &t, -EINVAL);
	expect_message("no discard", "discard", (const char *)NULL);
	t.discard_max = 1ULL << 30;
	t.discard_granularity = 512;
	expect_resolve("-o trim /dev/fake", &t, 0);
	expect_resolve("-o trim -p -b 1000 /dev/fake", &t, -EINVAL);
	/* a file takes both */
	t.kind = TARGET_FILE;
	t.discard_max = 0;
	expect_resolve("-a -o write -w seq /dev/fake", &t, 0);
	expect_resolve("-o trim /dev/fake", &t, 0);
	/* appends go to the end of the file, which O_DIRECT must find aligned */
	t.size = 64 * MiB + 100;
	expect_resolve("-a -o write -w seq /dev/fake", &t, -EINVAL);
	expect_message("unaligned append", "-a/--append", (const char *)NULL);
	expect_resolve("-a -o write -w seq -p /dev/fake", &t, 0);
}

/* Does text contain "--name" as an option, not as part of a longer one? */
static bool has_option(const char *text, const char *prefix, const char *name)
{
	char needle[96];
	const char *p;
	size_t n;

	n = (size_t)snprintf(needle, sizeof(needle), "%s%s", prefix, name);
	for (p = strstr(text, needle); p; p = strstr(p + 1, needle)) {
		char c = p[n];

		if (!(c == '-' || c == '_' || (c >= 'a' && c <= 'z') ||
		      (c >= '0' && c <= '9')))
			return true;
	}
	return false;
}

static void test_help_lists_every_option(void **state)
{
	struct opt_iter it = { 0 };
	char *text = NULL, want[96];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	options_print_help(f);
	fclose(f);
	/* the table's options and the engines' own */
	while (options_next(&it)) {
		const struct opt_desc *o = it.o;

		if (!has_option(text, "--", o->name))
			fail_msg("--help does not list --%s", o->name);
		if (o->letter) {
			snprintf(want, sizeof(want), "-%c, --%s", o->letter,
				 o->name);
			if (!strstr(text, want))
				fail_msg("--help lacks '%s'", want);
		}
		if (o->defval) {
			snprintf(want, sizeof(want), "[%s]", o->defval);
			if (!strstr(text, want))
				fail_msg("--help lacks the default of --%s",
					 o->name);
		}
	}
	free(text);
}

/* The help text, as --help prints it. */
static char *help_text(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	options_print_help(f);
	fclose(f);
	return text;
}

static void test_help_groups(void **state)
{
	const char *const *name;
	size_t i, g, seen;

	(void)state;
	/* every option in exactly one group, every group name an option */
	for (i = 0; i < opt_count; i++) {
		seen = 0;
		for (g = 0; g < opt_group_count; g++)
			for (name = opt_groups[g].names; *name; name++)
				seen += !strcmp(*name, opt_table[i].name);
		if (seen != 1)
			fail_msg("--%s is in %zu --help groups, want 1 (add it to opt_groups in src/cli/options_help.c)",
				 opt_table[i].name, seen);
	}
	for (g = 0; g < opt_group_count; g++) {
		assert_non_null(opt_groups[g].title);
		assert_non_null(opt_groups[g].names[0]);
		for (name = opt_groups[g].names; *name; name++)
			if (!options_find_long(*name) &&
			    strcmp(*name, OPT_GROUP_ENGINE_OPTS))
				fail_msg("group '%s' names --%s, which is no option",
					 opt_groups[g].title, *name);
	}
}

static void test_help_layout(void **state)
{
	static const char *const headings[] = {
		"Workload options:", "Engine options:", "Run options:",
		"Output options:", "Safety options:", "Data verification:",
		"Sweeps and studies:",
		"fio spellings",
	};
	char *text = help_text(), *line, *save = NULL;
	const char *last = NULL;
	unsigned n = 0;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(headings) / sizeof(headings[0]); i++) {
		const char *at = strstr(text, headings[i]);

		if (!at)
			fail_msg("--help lacks the heading '%s'", headings[i]);
		if (last && at < last)
			fail_msg("--help: '%s' out of order", headings[i]);
		last = at;
	}
	/* no option outside the groups: "Other options" only for strays */
	assert_null(strstr(text, "Other options:"));
	/* an option sits under its group's heading: -b after Workload and
	 * before Engine, --yes under Safety */
	assert_true(strstr(text, "--block-size") > strstr(text, "Workload options:"));
	assert_true(strstr(text, "--block-size") < strstr(text, "Engine options:"));
	assert_true(strstr(text, "-y, --yes") > strstr(text, "Safety options:"));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		n++;
		if (strlen(line) > HELP_WIDTH)
			fail_msg("--help line %u is %zu columns (> %d): '%s'",
				 n, strlen(line), HELP_WIDTH, line);
		if (strchr(line, '\1') || strchr(line, '\t'))
			fail_msg("--help line %u has a control character: '%s'",
				 n, line);
	}
	assert_true(n > 50);
	free(text);
}

/* stderr of parsing one line as stdin line lineno (0: command line) */
static int parse_err(const char *line, unsigned lineno)
{
	struct spec s;
	int ret;

	spec_defaults(&s);
	ret = parse_line(line, &s, NULL, lineno);
	spec_free(&s);
	return ret;
}

static void test_did_you_mean(void **state)
{
	(void)state;
	assert_int_equal(suggest_distance("kitten", "sitting"), 3);
	assert_int_equal(suggest_distance("iodpeth", "iodepth"), 1);
	assert_int_equal(suggest_distance("Block_Size", "block-size"), 0);

	assert_int_equal(parse_err("--blocksize 4k /dev/x", 0), -EINVAL);
	expect_message("--blocksize", "unknown option '--blocksize'",
		       "did you mean --block-size?", (const char *)NULL);
	assert_int_equal(parse_err("--block_size=4k /dev/x", 0), -EINVAL);
	expect_message("--block_size", "did you mean --block-size?",
		       (const char *)NULL);
	assert_int_equal(parse_err("--queuedepth 4 /dev/x", 0), -EINVAL);
	expect_message("--queuedepth", "did you mean --queue-depth?",
		       (const char *)NULL);
	assert_int_equal(parse_err("--iodpeth=4 /dev/x", 0), -EINVAL);
	expect_message("--iodpeth", "did you mean --iodepth?",
		       (const char *)NULL);
	assert_int_equal(parse_err("--dur 5 /dev/x", 0), -EINVAL);
	expect_message("--dur", "did you mean --duration?", (const char *)NULL);
	/* nothing near: no guess */
	assert_int_equal(parse_err("--xyzzy /dev/x", 0), -EINVAL);
	expect_message("--xyzzy", "unknown option '--xyzzy'; see rebench --help",
		       (const char *)NULL);
	/* the line is named on stdin */
	assert_int_equal(parse_err("-b 4k --blocksize 4k /dev/x", 3), -EINVAL);
	expect_message("stdin line 3", "stdin line 3: unknown option '--blocksize'",
		       "did you mean --block-size?", (const char *)NULL);
	/* a long name after one dash */
	assert_int_equal(parse_err("-bs=4k /dev/x", 0), -EINVAL);
	expect_message("-bs=4k", "two dashes", "--bs=4k", (const char *)NULL);
	assert_int_equal(parse_err("-iodepth 4 /dev/x", 2), -EINVAL);
	expect_message("-iodepth", "stdin line 2", "--iodepth",
		       (const char *)NULL);
	/* fio's options with no alias: what to give instead */
	assert_int_equal(parse_err("--bssplit=4k/50:8k/50 /dev/x", 0), -EINVAL);
	expect_message("--bssplit", "fio's bssplit", "-b 4k/10:64k/90",
		       (const char *)NULL);
	assert_int_equal(parse_err("--randseed=7 /dev/x", 0), -EINVAL);
	expect_message("--randseed", "fio's randseed", "--seed",
		       (const char *)NULL);

	/* values */
	assert_int_equal(parse_err("-o randread /dev/x", 0), -EINVAL);
	expect_message("-o randread", "fio's --rw spelling", "-o read -w rnd",
		       "--rw=randread", (const char *)NULL);
	assert_int_equal(parse_err("-o randwrite /dev/x", 4), -EINVAL);
	expect_message("-o randwrite", "stdin line 4", "-o write -w rnd",
		       (const char *)NULL);
	assert_int_equal(parse_err("-o raed /dev/x", 0), -EINVAL);
	expect_message("-o raed", "did you mean read?", (const char *)NULL);
	assert_int_equal(parse_err("-w random /dev/x", 0), -EINVAL);
	expect_message("-w random", "rnd, seq", "did you mean rnd?",
		       (const char *)NULL);
	assert_int_equal(parse_err("-w sequential /dev/x", 0), -EINVAL);
	expect_message("-w sequential", "did you mean seq?", (const char *)NULL);
	assert_int_equal(parse_err("-r backwards /dev/x", 0), -EINVAL);
	expect_message("-r backwards", "did you mean backward?",
		       (const char *)NULL);
	assert_int_equal(parse_err("-u zipfian /dev/x", 0), -EINVAL);
	expect_message("-u zipfian", "did you mean zipf?", (const char *)NULL);
	assert_int_equal(parse_err("-u random /dev/x", 0), -EINVAL);
	expect_message("-u random", "did you mean uniform", (const char *)NULL);
	assert_int_equal(parse_err("-t iouring /dev/x", 0), -EINVAL);
	expect_message("-t iouring", "did you mean io_uring?", (const char *)NULL);
	assert_int_equal(parse_err("--rw=randomread /dev/x", 0), -EINVAL);
	expect_message("--rw=randomread", "did you mean randread?",
		       (const char *)NULL);
}

static void test_fio_alias_table(void **state)
{
	size_t i, j;

	(void)state;
	/* bits of the used mask */
	assert_true(fio_alias_count <= 32);
	for (i = 0; i < fio_alias_count; i++) {
		const struct fio_alias *a = &fio_aliases[i];

		assert_non_null(a->name);
		assert_non_null(a->set);
		assert_non_null(a->help);
		assert_true(fio_alias_find(a->name) == a);
		if (a->opt && !options_find_long(a->opt))
			fail_msg("--%s sets --%s, which is no option", a->name,
				 a->opt);
		if (!a->metavar && !a->opt && !a->unlike)
			fail_msg("--%s: a flag with nothing to set says why", a->name);
		if (options_find_long(a->name))
			fail_msg("--%s is an alias and an option", a->name);
		for (j = 0; j < i; j++)
			assert_string_not_equal(a->name, fio_aliases[j].name);
	}
	/* '_' and '-' alike */
	assert_true(fio_alias_find("ramp-time") == fio_alias_find("ramp_time"));
	assert_null(fio_alias_find("blocksize"));
}

/* line parses as a command line; want parses to the same workload */
static void same_as(const char *line, const char *want)
{
	struct run_opts ra, rb;
	struct spec a, b;
	size_t i;

	parse_ok(line, &a, &ra);
	parse_ok(want, &b, &rb);
	for (i = 0; i < opt_count; i++) {
		const struct opt_desc *o = &opt_table[i];

		if (o->scope == SCOPE_RUN) {
			if (memcmp((char *)&ra + o->off, (char *)&rb + o->off,
				   o->type == OPT_FLAG ? sizeof(bool) :
				   sizeof(uint64_t)))
				fail_msg("'%s': --%s differs from '%s'", line,
					 o->name, want);
			continue;
		}
		if (!field_equal(o, &a, &b))
			fail_msg("'%s': --%s differs from '%s'", line, o->name,
				 want);
		if (spec_given(&a, o->name) != spec_given(&b, o->name))
			fail_msg("'%s': --%s given %d, '%s' %d", line, o->name,
				 spec_given(&a, o->name), want,
				 spec_given(&b, o->name));
	}
	if (strcmp(a.target ? a.target : "", b.target ? b.target : ""))
		fail_msg("'%s': target '%s', '%s' has '%s'", line, a.target,
			 want, b.target);
	spec_free(&a);
	spec_free(&b);
}

/* A fio line against rebench's words with fio's defaults: --thread, a fio
 * spelling that sets nothing, makes want take them too. */
static void fio_same_as(const char *line, const char *want)
{
	char w[512];

	snprintf(w, sizeof(w), "--thread %s", want);
	same_as(line, w);
}

/* What a fio spelling leaves unsaid takes fio's default; rebench's own
 * spellings keep rebench's. */
static void test_fio_defaults(void **state)
{
	struct spec s;

	(void)state;
	parse_ok("--rw=randwrite /dev/x", &s, NULL);
	assert_true(s.fio_spelled && s.fio_default_sync && s.fio_default_direct);
	assert_int_equal(s.sync.mode, SYNC_NONE);
	assert_true(s.paged);
	assert_int_equal(s.bs, 4096);
	assert_string_equal(engine_get(s.engine)->name, "stateless");
	spec_free(&s);
	parse_ok("--bs=8k /dev/x", &s, NULL);
	assert_true(s.seq);	/* fio's rw=read */
	spec_free(&s);
	parse_ok("-o write -w rnd /dev/x", &s, NULL);
	assert_false(s.fio_spelled || s.fio_default_sync || s.paged);
	assert_int_equal(s.sync.mode, SYNC_DSYNC);
	assert_int_equal(s.bs, 512);
	spec_free(&s);
	parse_ok("--rw=randwrite --direct=1 --sync dsync /dev/x", &s, NULL);
	assert_false(s.fio_default_sync || s.fio_default_direct || s.paged);
	assert_int_equal(s.sync.mode, SYNC_DSYNC);
	spec_free(&s);
}

static void test_fio_aliases(void **state)
{
	static const char *const rw[][2] = {
		{ "read", "-o read -w seq" }, { "write", "-o write -w seq" },
		{ "trim", "-o trim -w seq" }, { "randread", "-o read -w rnd" },
		{ "randwrite", "-o write -w rnd" },
		{ "randtrim", "-o trim -w rnd" }, { "rw", "-o rw -w seq" },
		{ "readwrite", "-o rw -w seq" }, { "randrw", "-o rw -w rnd" },
	};
	char line[128], want[128];
	struct spec s;
	size_t i;

	(void)state;
	fio_same_as("--bs=4k /dev/x", "-b 4k /dev/x");
	fio_same_as("--bs 64k /dev/x", "-b 64k /dev/x");
	fio_same_as("--bs=4k/10:64k/90 /dev/x", "-b 4k/10:64k/90 /dev/x");
	fio_same_as("--iodepth=32 /dev/x", "-q 32 /dev/x");
	fio_same_as("--numjobs=4 /dev/x", "-c 4 -l /dev/x");
	fio_same_as("--runtime=30 /dev/x", "-d 30 /dev/x");
	fio_same_as("--runtime=1m /dev/x", "-d 60s /dev/x");
	fio_same_as("--runtime=2h /dev/x", "-d 7200 /dev/x");
	fio_same_as("--runtime=1d /dev/x", "-d 86400 /dev/x");
	fio_same_as("--runtime=1500ms /dev/x", "-d 1500ms /dev/x");
	fio_same_as("--runtime=250000us /dev/x", "-d 250ms /dev/x");
	fio_same_as("--runtime=1.5 /dev/x", "-d 1500ms /dev/x");
	fio_same_as("--size=8m /dev/x", "-e 8m /dev/x");
	fio_same_as("--size=50% /dev/x", "-e 50% /dev/x");
	same_as("--offset=1m /dev/x", "-j 1m /dev/x");	/* rebench's own name too */
	for (i = 0; i < sizeof(rw) / sizeof(rw[0]); i++) {
		snprintf(line, sizeof(line), "--rw=%s /dev/x", rw[i][0]);
		snprintf(want, sizeof(want), "%s /dev/x", rw[i][1]);
		fio_same_as(line, want);
		snprintf(line, sizeof(line), "--readwrite %s /dev/x", rw[i][0]);
		fio_same_as(line, want);
	}
	/* fio's rwmixread default is rebench's --rwmix default */
	parse_ok("--rw=randrw /dev/x", &s, NULL);
	assert_true(s.rwmix == 50);
	spec_free(&s);
	fio_same_as("--rw=randrw --rwmixread=70 /dev/x", "-o rw -w rnd --rwmix 70 /dev/x");
	fio_same_as("--ioengine=libaio /dev/x", "-t naio /dev/x");
	fio_same_as("--ioengine=psync /dev/x", "-t stateless /dev/x");
	fio_same_as("--direct=0 /dev/x", "-p /dev/x");
	fio_same_as("-p --direct=1 /dev/x", "--paged /dev/x --direct");
	fio_same_as("--filename=/dev/x", "/dev/x");
	fio_same_as("--thinktime=50 /dev/x", "-z 50 /dev/x");
	fio_same_as("--thinktime=2ms /dev/x", "-z 2000 /dev/x");
	fio_same_as("--ramp_time=2 /dev/x", "--warmup 2 /dev/x");
	fio_same_as("--time_based --thread --group_reporting --norandommap /dev/x",
		"/dev/x");
	fio_same_as("--time_based=1 /dev/x", "/dev/x");
	/* a later option wins, as for rebench's own */
	fio_same_as("--rw=randread -w seq /dev/x", "-o read -w seq /dev/x");
	/* a whole fio command line */
	fio_same_as("--name=x --filename=/dev/x --rw=randread --bs=4k --iodepth=16 --ioengine=io_uring --direct=1 --numjobs=2 --runtime=20 --time_based --group_reporting",
		"-o read -w rnd -b 4k -q 16 -t uring -c 2 -l -d 20 /dev/x --direct");
	/* fio's flush options */
	fio_same_as("--rw=write --fsync=4 /dev/x", "-o write -w seq --sync fsync:4 /dev/x");
	fio_same_as("--rw=write --fdatasync=1 /dev/x", "-o write -w seq --sync fdatasync:1 /dev/x");
	fio_same_as("--rw=write --fsync=0 /dev/x", "-o write -w seq --sync none /dev/x");
	fio_same_as("--rw=write --end_fsync -d 1m /dev/x", "-o write -w seq --sync end -d 1m /dev/x");
	fio_same_as("--rw=write --sync=1 /dev/x", "-o write -w seq --sync sync /dev/x");
}

static void test_fio_alias_refusals(void **state)
{
	(void)state;
	/* where fio means something else */
	assert_int_equal(parse_err("--bs=4k,8k /dev/x", 0), -EINVAL);
	expect_message("--bs=4k,8k", "--bs=4k,8k", "reads, writes",
		       "-b 4k,64k", (const char *)NULL);
	assert_int_equal(parse_err("--rw=read,write /dev/x", 0), -EINVAL);
	expect_message("--rw list", "cannot be swept", "-o read,write",
		       (const char *)NULL);
	assert_int_equal(parse_err("--rw=read:4k /dev/x", 0), -EINVAL);
	expect_message("--rw=read:4k", "-s/--stride", (const char *)NULL);
	assert_int_equal(parse_err("--rw=trimwrite /dev/x", 0), -EINVAL);
	expect_message("--rw=trimwrite", "no rebench form", (const char *)NULL);
	assert_int_equal(parse_err("--runtime=0 /dev/x", 0), -EINVAL);
	expect_message("--runtime=0", "no time limit", "-d 100%",
		       (const char *)NULL);
	assert_int_equal(parse_err("--runtime=1g /dev/x", 0), -EINVAL);
	expect_message("--runtime=1g", "--runtime (-d/--duration)",
		       "m (minutes)", (const char *)NULL);
	assert_int_equal(parse_err("--runtime=50% /dev/x", 0), -EINVAL);
	assert_int_equal(parse_err("--direct=2 /dev/x", 0), -EINVAL);
	expect_message("--direct=2", "--direct=2", (const char *)NULL);
	assert_int_equal(parse_err("--time_based=0 /dev/x", 0), -EINVAL);
	expect_message("--time_based=0", "-d 100%", (const char *)NULL);
	/* a second --name is a second fio job */
	assert_int_equal(parse_err("--name=a /dev/x --name=b", 0), -EINVAL);
	expect_message("two --name", "--name=b", "second fio job",
		       (const char *)NULL);
	/* fio's a:b is a list of files (core/fileset.h); a TARGET before
	 * --filename is a second target given two ways */
	assert_int_equal(parse_err("--filename=a:b", 0), 0);
	assert_int_equal(parse_err("/dev/x --filename=/dev/y", 0), -EINVAL);
	expect_message("two targets", "/dev/x", "/dev/y", (const char *)NULL);
	/* the option's own checks, naming both spellings */
	assert_int_equal(parse_err("--bs=0 /dev/x", 0), -EINVAL);
	expect_message("--bs=0", "invalid value '0' for --bs (-b/--block-size)",
		       (const char *)NULL);
	assert_int_equal(parse_err("--iodepth=0 /dev/x", 5), -EINVAL);
	expect_message("--iodepth=0", "stdin line 5",
		       "--iodepth (-q/--queue-depth)", (const char *)NULL);
	assert_int_equal(parse_err("--rwmixread=101 /dev/x", 0), -EINVAL);
	expect_message("--rwmixread=101", "--rwmixread (--rwmix)",
		       (const char *)NULL);
	assert_int_equal(parse_err("--bs /dev/x", 0), -EINVAL);
	assert_int_equal(parse_err("/dev/x --bs", 0), -EINVAL);
	expect_message("--bs without a value", "--bs needs a value",
		       (const char *)NULL);
	/* run-wide ones stay on the command line */
	assert_int_equal(parse_err("--ramp_time=1 /dev/x", 2), -EINVAL);
	expect_message("--ramp_time on a line", "stdin line 2",
		       "--ramp_time (--warmup)", "whole run", (const char *)NULL);
	/* ranges on a stdin line: the command line's business */
	assert_int_equal(parse_err("--bs=4k..16k*2 /dev/x", 2), -EINVAL);
	expect_message("range on a line", "--bs (-b/--block-size)",
		       "on the command line", (const char *)NULL);
}

static void test_fio_alias_notes(void **state)
{
	struct spec s;

	(void)state;
	/* fio's size also ends the job; rebench's -d decides */
	parse_ok("--size=8m /dev/x", &s, NULL);
	assert_non_null(strstr(errtext, "note: --size"));
	assert_non_null(strstr(errtext, "-d 100%"));
	spec_free(&s);
	parse_ok("--size=8m -d 5 /dev/x", &s, NULL);
	assert_null(strstr(errtext, "note: --size"));
	spec_free(&s);
	parse_ok("--size=8m --runtime=5 /dev/x", &s, NULL);
	assert_non_null(strstr(errtext, "time_based"));
	spec_free(&s);
	parse_ok("--size=8m --runtime=5 --time_based /dev/x", &s, NULL);
	assert_string_equal(errtext, "");
	spec_free(&s);
	/* fio's jobs each start at the region's start */
	parse_ok("--numjobs=4 --rw=read /dev/x", &s, NULL);
	assert_non_null(strstr(errtext, "--numjobs 4"));
	spec_free(&s);
	parse_ok("--numjobs=4 --rw=randread /dev/x", &s, NULL);
	assert_string_equal(errtext, "");
	spec_free(&s);
	/* rebench's own options say nothing */
	parse_ok("-e 8m /dev/x", &s, NULL);
	assert_string_equal(errtext, "");
	spec_free(&s);
}

static void test_man_lists_every_option(void **state)
{
	FILE *f = fopen(MAN_PAGE, "r");
	char *text, missing[1024] = "";
	const struct engine_opt *eo;
	size_t len, i, n = 0;
	long size;
	int e;

	(void)state;
	if (!f)
		fail_msg("%s not found (run from the repository root; the man page must list every option)",
			 MAN_PAGE);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)size + 1);
	assert_non_null(text);
	len = fread(text, 1, (size_t)size, f);
	text[len] = '\0';
	fclose(f);
	/* roff writes a literal hyphen as "\-": read "\-" as "-" */
	for (char *r = text, *w = text;; r++) {
		if (r[0] == '\\' && r[1] == '-')
			continue;
		if (!(*w++ = *r))
			break;
	}
	for (i = 0; (eo = engine_opt_get((int)i, &e)); i++)
		if (!has_option(text, "--", eo->name)) {
			snprintf(missing + strlen(missing),
				 sizeof(missing) - strlen(missing), " --%s",
				 eo->name);
			n++;
		}
	for (i = 0; i < opt_count + fio_alias_count; i++) {
		const char *name = i < opt_count ? opt_table[i].name :
				   fio_aliases[i - opt_count].name;

		if (!has_option(text, "--", name)) {
			snprintf(missing + strlen(missing),
				 sizeof(missing) - strlen(missing), " --%s",
				 name);
			n++;
		}
	}
	if (!strstr(text, ".SH EXAMPLES"))
		fail_msg("%s lacks its EXAMPLES section", MAN_PAGE);
	if (!strstr(text, ".SS fio spellings"))
		fail_msg("%s lacks the fio spellings subsection", MAN_PAGE);
	free(text);
	if (n)
		fail_msg("%s lacks %zu option(s) or fio spelling(s):%s",
			 MAN_PAGE, n, missing);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_sane),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_help_defaults_match),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_file_lists),
		cmocka_unit_test(test_enums),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_run_scope_on_stdin),
		cmocka_unit_test(test_stdin_line_inherits),
		cmocka_unit_test(test_split_line),
		cmocka_unit_test(test_spec_check),
		cmocka_unit_test(test_resolve_region),
		cmocka_unit_test(test_resolve_direct_alignment),
		cmocka_unit_test(test_resolve_amounts),
		cmocka_unit_test(test_resolve_missing_file),
		cmocka_unit_test(test_resolve_device_only),
		cmocka_unit_test(test_help_lists_every_option),
		cmocka_unit_test(test_help_groups),
		cmocka_unit_test(test_help_layout),
		cmocka_unit_test(test_did_you_mean),
		cmocka_unit_test(test_fio_alias_table),
		cmocka_unit_test(test_fio_aliases),
		cmocka_unit_test(test_fio_defaults),
		cmocka_unit_test(test_fio_alias_refusals),
		cmocka_unit_test(test_fio_alias_notes),
		cmocka_unit_test(test_man_lists_every_option),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
