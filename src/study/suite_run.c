/* suite_run.c - the --suite driver.
 *
 * Every test is checked and resolved against the target before the first
 * one runs, as stdin lines are.  The tests that would change data (writes,
 * and reads that must first fill a sparse file's holes) are confirmed once
 * for the whole suite: --yes, or y on the terminal; otherwise they are
 * skipped, with the reason and how to include them, and the others run.
 * Tests then run one after another, each a run of one workload through the
 * same prepare-and-run step as a single run (with its --repeat runs), and
 * each is reported as it ends: a row of the table, an object of the JSON
 * document's "tests", or -n lines.
 */
#include "study/suite.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/confirm.h"
#include "core/outpath.h"
#include "core/plan.h"
#include "stats/progress.h"
#include "stats/repeat_run.h"
#include "report/report.h"
#include "report/summary.h"
#include "core/options.h"
#include "core/validate.h"
#include "study/confirm_set.h"

/* The engine a suite gives lines that name none: the asynchronous one with
 * the least overhead that this build has. */
static const char *const engine_preference[] = { "uring", "naio", "paio" };

#define N_PREFERENCE (sizeof(engine_preference) / sizeof(engine_preference[0]))

static const char *pick_engine(void)
{
	const struct engine_ops *e;
	size_t i;

	for (i = 0; i < N_PREFERENCE; i++) {
		e = engine_get(engine_lookup(engine_preference[i]));

		if (e && !e->unavailable)
			return e->name;
	}
	return NULL;
}

/* What a suite refuses before reading its file: options that have no
 * meaning for it, and a missing TARGET. */
static int refuse(const struct spec *base, const struct run_opts *run,
		  bool swept)
{
	const char *what = NULL;

	/* --probe and --fio: main.c, before this */
	if (swept)
		what = "a range or list of values (a sweep)";
	else if (run->plot)
		what = "--plot";
	if (what) {
		fprintf(stderr, "rebench: --suite runs its own list of tests; %s does not combine with it yet: run the test you want alone with it\n",
			what);
		return -EINVAL;
	}
	if (base->output) {
		fprintf(stderr, "rebench: --suite: --output on the command line would be every test's file, each test overwriting the one before; give --output on a line of the suite file instead\n");
		return -EINVAL;
	}
	if (!base->target) {
		fprintf(stderr, "rebench: --suite %s needs a TARGET: rebench --suite %s /dev/sdb (a block device, partition or file; the tests do not come from stdin)\n",
			run->suite, run->suite);
		return -EINVAL;
	}
	return 0;
}

/* The suite's defaults under the command line's: SUITE_DURATION_S per test
 * and an asynchronous engine for the queue depths. */
static void suite_defaults(struct suite *s, struct spec *base)
{
	if (!spec_given(base, "duration")) {
		base->duration.kind = AMOUNT_TIME;
		base->duration.value = SUITE_DURATION_S * NSEC_PER_SEC;
		base->duration.bare_m = false;
	}
	s->engine = NULL;
	if (!spec_given(base, "type")) {
		s->engine = pick_engine();
		if (s->engine)
			base->engine = engine_lookup(s->engine);
	}
}

/* Test t alone in ctx, checked and resolved: 0 or -EINVAL. */
static int build_test(struct run_ctx *ctx, const struct suite *s, size_t t,
		      const struct spec *base)
{
	cleanup_all(ctx);
	if (add_workload(ctx, &s->tests[t].spec) || validate_all(ctx, base))
		return -EINVAL;
	return 0;
}

/* Every test checked, named, and those that change data kept in set (one
 * per target and operation kinds, for the one question, as a sweep). */
static int check_tests(struct run_ctx *ctx, struct suite *s,
		       const struct spec *base, struct confirm_set *set)
{
	char size[32], each[32] = "", d[32];
	size_t t;
	int ret = 0;

	for (t = 0; t < s->n && !ret; t++) {
		struct suite_test *st = &s->tests[t];
		struct workload *wl;

		if (build_test(ctx, s, t, base))
			return -EINVAL;
		wl = &ctx->wls[0];
		st->destroys = workload_destroys_data(wl);
		suite_name_test(st, &wl->spec);
		if ((int)strlen(st->name) > s->name_w)
			s->name_w = (int)strlen(st->name);
		if ((int)strlen(st->op) > s->op_w)
			s->op_w = (int)strlen(st->op);
		fmt_duration(d, sizeof(d), &wl->spec.duration);
		if (!t)
			snprintf(each, sizeof(each), "%s", d);
		else if (strcmp(each, d))
			snprintf(each, sizeof(each), "-");
		if (!t)
			snprintf(s->target, sizeof(s->target), "%s (%s%s, %s)",
				 wl->tgt.path, wl->tgt.exists ? "" : "new ",
				 target_kind_name(wl->tgt.kind),
				 fmt_size_exact(size, sizeof(size),
						wl->tgt.exists ? wl->tgt.size :
								 wl->run.create_size));
		if (st->destroys)
			ret = confirm_set_keep(set, wl);
	}
	snprintf(s->each, sizeof(s->each), "%s", strcmp(each, "-") ? each : "");
	cleanup_all(ctx);
	return ret;
}

/* Skip the tests that change data, saying why in s->skip_why. */
static void skip_destroyers(struct suite *s, const char *why)
{
	size_t t;

	s->nskipped = 0;
	for (t = 0; t < s->n; t++)
		if (s->tests[t].destroys) {
			s->tests[t].state = SUITE_SKIPPED;
			s->nskipped++;
		}
	snprintf(s->skip_why, sizeof(s->skip_why), "%.*s",
		 (int)sizeof(s->skip_why) - 1, why);
}

/*
 * Which tests that change data run: all with --yes (after the refusals of
 * a target in use or read-only, which stop the run as they always do);
 * without it none when the target may not be written, with -n, or with no
 * terminal to ask on; else the answer to one question.  0, or the exit
 * status that ends the run.
 */
static int decide_writes(struct suite *s, struct workload *set, size_t n,
			 const struct run_opts *run)
{
	char why[512], msg[640];
	size_t k;
	int ret;

	if (!n)
		return 0;
	if (run->yes) {
		ret = confirm_destructive(set, n, true);
		return ret ? confirm_exit_status(ret) : 0;
	}
	for (k = 0; k < n; k++) {
		if (!confirm_forbidden(&set[k], why, sizeof(why)))
			continue;
		snprintf(msg, sizeof(msg), "%s; rebench never writes to anything in use or read-only",
			 why);
		skip_destroyers(s, msg);
		s->forbidden = true;
		return 0;
	}
	if (run->silent) {
		skip_destroyers(s, "-n asks nothing, and does not confirm a suite's writes");
		return 0;
	}
	ret = confirm_ask(set, n, "Run the tests that write too? [y/N] ", NULL);
	if (ret == -EINTR)
		return EXIT_INTERRUPTED;
	if (ret == -EPERM)
		skip_destroyers(s, "there is no terminal to ask on");
	else if (ret)
		skip_destroyers(s, "not confirmed");
	return 0;
}

/* Before the first test: which tests are skipped, why, and the way to
 * include them; EXIT_BAD_ARGS when that leaves none to run (as a refused
 * confirmation is), else EXIT_OK. */
static int say_skipped(const struct suite *s, const struct spec *base)
{
	char how[PATH_MAX + 96] = "";

	if (!s->nskipped)
		return EXIT_OK;
	if (!s->forbidden)
		snprintf(how, sizeof(how), " Add --yes to %s them (the data on %s is then lost).",
			 s->nskipped == s->n ? "run" : "include", base->target);
	if (s->nskipped == s->n) {
		fprintf(stderr, "rebench: suite %s: every test writes to %s, and %s; nothing ran.%s\n",
			s->name, base->target, s->skip_why, how);
		return EXIT_BAD_ARGS;
	}
	fprintf(stderr, "rebench: suite %s: %zu of %zu tests skipped, the ones that write to %s: %s.%s\n",
		s->name, s->nskipped, s->n, base->target, s->skip_why, how);
	return EXIT_OK;
}

/* Test t's report (none for a test that did not run) to every writer. */
static void emit_empty(struct report_set *out, size_t t)
{
	struct report rep;

	memset(&rep, 0, sizeof(rep));
	rep.point = t;
	report_emit(out, &rep);
}

/* Test t, every --repeat run of it, reported; the exit status. */
static int run_test(struct run_ctx *ctx, struct suite *s, size_t t,
		    struct spec *base, const struct run_opts *run,
		    struct report_set *out, bool *interrupted)
{
	struct report rep;
	int status;

	if (build_test(ctx, s, t, base))
		return EXIT_BAD_ARGS;
	if (s->runs > 1 && repeat_begin(ctx, s->runs))
		return EXIT_PREP_FAILED;
	status = repeat_runs(ctx, run, s->runs, repeat_rebuild_same, base,
			     interrupted);
	if (status != EXIT_OK && status != EXIT_IO_FAILED)
		return status;
	s->tests[t].state = SUITE_RAN;
	run_ctx_report(ctx, *interrupted, t, &rep);
	if (report_emit(out, &rep))
		status = EXIT_OUTPUT_FAILED;
	ctx->wls[0].result.rep = NULL;
	repeat_free(ctx);
	if (report_uses_stdout(out) && outpath_flush_stdout()) {
		fprintf(stderr, "rebench: standard output failed after test %zu of %zu: the suite stops there\n",
			t + 1, s->n);
		status = EXIT_OUTPUT_FAILED;
	}
	return status;
}

/* The tests in order; a failure or a signal stops them, and the rest are
 * reported as not run. */
static int run_tests(struct run_ctx *ctx, struct suite *s, struct spec *base,
		     const struct run_opts *run)
{
	struct report_scope scope = { run, stdout, NULL, NULL,
				      &suite_report_study, s };
	struct report_set out;
	bool interrupted = false, stop = false;
	int status = EXIT_OK, e;
	size_t t;

	if (report_open(&out, &scope))
		return EXIT_OUTPUT_FAILED;
	progress_enable(ctx, isatty(STDERR_FILENO) && !run->silent);
	for (t = 0; t < s->n; t++) {
		if (stop || s->tests[t].state == SUITE_SKIPPED) {
			emit_empty(&out, t);
			continue;
		}
		status = run_test(ctx, s, t, base, run, &out, &interrupted);
		if (s->tests[t].state != SUITE_RAN)
			emit_empty(&out, t);
		stop = status != EXIT_OK || interrupted;
	}
	repeat_free(ctx);	/* when a test ended early */
	e = report_close(&out);
	if (e && status == EXIT_OK)
		status = EXIT_OUTPUT_FAILED;
	if (interrupted && status == EXIT_OK)
		status = EXIT_INTERRUPTED;
	return status;
}

int suite_main(struct run_ctx *ctx, struct spec *base,
	       const struct run_opts *run, bool swept)
{
	struct confirm_set set = { 0 };
	struct suite *s;
	int status;

	if (refuse(base, run, swept))
		return EXIT_BAD_ARGS;
	s = calloc(1, sizeof(*s));	/* its tests: large */
	if (!s)
		return EXIT_PREP_FAILED;
	suite_defaults(s, base);
	if (!spec_given(base, "seed"))
		base->seed = random_seed();
	s->runs = run->repeat > 1 ? run->repeat : 1;
	s->name_w = (int)strlen("Test");
	s->op_w = (int)strlen("Op");
	if (suite_load(s, run->suite, base) ||
	    check_tests(ctx, s, base, &set)) {
		status = EXIT_BAD_ARGS;
		goto out_free;
	}
	status = decide_writes(s, set.wls, set.n, run);
	if (status)
		goto out_free;
	status = say_skipped(s, base);
	if (!status)
		status = run_tests(ctx, s, base, run);
out_free:
	confirm_set_free(&set);
	suite_free(s);
	free(s);
	return status;
}
