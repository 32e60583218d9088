/* suite.h - --suite: a preset list of tests (workloads/NAME.suite), run one
 * after another on the command line's TARGET and reported as one table, in
 * the spirit of CrystalDiskMark and KDiskMark.
 *
 * A suite file has one test per line in the stdin spec syntax, without a
 * TARGET; blank lines and '#' comments are skipped, and the first comment
 * line describes the suite (--suite list).  Command-line options are
 * defaults for every line, as on stdin, over the suite's own defaults:
 * SUITE_DURATION_S per test and the best asynchronous engine of the build.
 * Tests that change data run only when confirmed (--yes, or y on the
 * terminal); otherwise they are skipped and the rest run.
 */
#ifndef REBENCH_SUITE_H
#define REBENCH_SUITE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/spec.h"

#define SUITE_MAX_TESTS 64
#define SUITE_DURATION_S 5	/* each test, unless -d says otherwise */
#define SUITE_EXT ".suite"

enum suite_state {
	SUITE_PENDING,	/* not run (yet): a run stopped before it */
	SUITE_RAN,	/* has results (complete or not: status says) */
	SUITE_SKIPPED,	/* changes data, and that was not confirmed */
};

struct suite_test {
	struct spec spec;	/* the line over the command line's defaults */
	char *text;		/* the line as written, comment dropped */
	char name[96];		/* "SEQ1M Q8T1": pattern, size, depth, threads */
	char op[64];		/* "read", "write", a mix as given */
	bool destroys;		/* changes data the user has (checked) */
	enum suite_state state;
};

struct suite {
	char name[64];		/* "quick", or the file's name without .suite */
	char path[PATH_MAX];	/* the file read */
	char label[80];		/* the file in messages: "quick.suite line 3" */
	char desc[256];		/* its first comment line, or "" */
	struct suite_test tests[SUITE_MAX_TESTS];
	size_t n;
	const char *engine;	/* the engine given to lines that name none,
				 * or NULL when -t was given */
	char target[PATH_MAX + 96];	/* "/dev/sdb (disk, 64 MiB)" */
	char each[32];		/* every test's -d ("5s"), or "" if they differ */
	int name_w, op_w;	/* the table's first two columns */
	size_t runs;		/* --repeat: runs of each test */
	size_t nskipped;
	/* why the tests that change data were skipped */
	char skip_why[PATH_MAX + 512];
	bool forbidden;		/* ... because the target may never be
				 * written (in use, read-only): --yes would
				 * not run them either */
};

struct report;
struct run_ctx;
struct run_opts;

/* Find --suite VALUE (a name, or a file when it has a '/') and read its
 * tests over base (the command line's options, TARGET included); 0, or
 * -errno after a message that names the file and line. */
int suite_load(struct suite *s, const char *value, const struct spec *base);
void suite_free(struct suite *s);
/* A test's name ("RND4K Q32T1") and operation, from its resolved spec. */
void suite_name_test(struct suite_test *t, const struct spec *resolved);

/* rebench --suite list: each suite found, its file and description. */
int suite_list(FILE *f);
/* The whole --suite run on base->target: check every test, confirm (or
 * skip) the ones that change data, run them one after another, report;
 * the exit status. */
int suite_main(struct run_ctx *ctx, struct spec *base,
	       const struct run_opts *run, bool swept);

/* Writers (report_suite.c): the table's head and a test's row (r->point is
 * the test); the JSON "suite" object up to its "tests" array, and a test's
 * fields at the start of its object in that array; -n's suffix. */
void report_suite_head(FILE *f, const struct suite *s);
void report_suite_row(FILE *f, const struct suite *s, const struct report *r);
struct json;
void report_suite_json_begin(struct json *j, const struct suite *s);
void report_suite_json_test(struct json *j, const struct suite *s, size_t t);
void report_suite_terse_suffix(const struct suite *s, size_t t, char *buf,
			       size_t len);
/* The same as the writers' hooks, the suite their argument. */
extern const struct report_study suite_report_study;

#endif
