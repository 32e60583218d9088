/* emulate.c - see emulate.h.
 *
 * Order: the arguments, both results read and checked, the wait
 * calibrated, the plan made (emulate_plan.c refuses what cannot be
 * emulated) - all before anything runs - then the table on stderr and
 * COMMAND under the interposer.
 */
#include "trace/emulate.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/delay.h"
#include "trace/emulate_plan.h"
#include "trace/interpose.h"
#include "core/json_read.h"
#include "core/mode_args.h"
#include "core/outpath.h"
#include "core/plan.h"
#include "trace/trace_stats.h"

struct emulate_args {
	const char *slow, *fast;	/* --emulate, --baseline */
	bool allow_partial;
	const char *log;		/* --record */
	const char *globs[INTERPOSE_MAX_GLOBS];
	int nglobs;
	char **cmd;			/* NULL-terminated, from argv */
};

static const char usage[] =
	"rebench --emulate SLOW.json --baseline FAST.json [--allow-partial]\n"
	"        [--record LOG] [--record-path GLOB]... -- COMMAND [ARGS...]\n";

static const char help[] =
	"\n"
	"  --emulate SLOW.json   the slow device's result of rebench --replay LOG\n"
	"                        --replay-mode grouped --json\n"
	"  --baseline FAST.json  this machine's result of the same replay\n"
	"  --allow-partial       leave out the operations that are not slower in\n"
	"                        SLOW.json, and emulate the others\n"
	"  --record LOG          log COMMAND's calls too (as --record does)\n"
	"  --record-path GLOB    delay (and log) only the calls on files whose path\n"
	"                        matches GLOB (up to 16)\n"
	"COMMAND waits after each call, per operation, the slow device's time per\n"
	"operation minus this machine's, less what a wait costs by itself.\n"
	"See rebench(1), APPLICATION I/O, Emulate.\n";

bool emulate_wanted(int argc, char **argv)
{
	return mode_given(argc, argv, "--emulate") ||
	       mode_given(argc, argv, "--baseline");
}

static int one_line(const struct mode_grammar *g, void *args,
		    const char *opt, const char *val)
{
	(void)args;
	(void)opt;
	return strchr(val, '\n') ?
		mode_args_bad(g, "--record-path '%s': a pattern is one line", val) : 0;
}

#define FILE_OPT(name, field) { name, MODE_VALUE, \
	offsetof(struct emulate_args, field), \
	.missing = "%s needs a file name", .twice = "%s is given twice", \
	.empty = "%s: the file name is empty" }

static const struct mode_opt opts[] = {
	FILE_OPT("--emulate", slow),
	FILE_OPT("--baseline", fast),
	FILE_OPT("--record", log),
	{ "--record-path", MODE_LIST, offsetof(struct emulate_args, globs),
	  offsetof(struct emulate_args, nglobs), INTERPOSE_MAX_GLOBS,
	  .missing = "%s needs a pattern", .empty = "%s: the pattern is empty",
	  .many = "%s: at most 16 patterns", .check = one_line },
	{ "--allow-partial", MODE_FLAG,
	  offsetof(struct emulate_args, allow_partial) },
	{ "--delay", MODE_REFUSE,
	  .refuse = "--delay gives the delays by hand and --emulate computes them from two results: give one of the two" },
};

const struct mode_grammar emulate_grammar = {
	.usage = usage,
	.sep = "\n",
	.help = help,
	.unknown = "%s has no meaning with --emulate, which takes --baseline, --allow-partial, --record and --record-path before the COMMAND",
	.opts = opts,
	.nopts = sizeof(opts) / sizeof(opts[0]),
	.cmd = offsetof(struct emulate_args, cmd),
};

/* How the options go together. */
static int check_args(const struct emulate_args *a)
{
	const struct mode_grammar *g = &emulate_grammar;

	if (!a->slow)
		return mode_args_bad(g, "--baseline %s is this machine's result for --emulate SLOW.json, the slow device's: give both",
				     a->fast);
	if (!a->fast)
		return mode_args_bad(g, "--emulate %s needs --baseline FAST.json: this machine's result of a grouped replay of the same log (rebench --replay LOG --replay-mode grouped --json TARGET > FAST.json)",
				     a->slow);
	if (!a->cmd || !a->cmd[0])
		return mode_args_bad(g, "--emulate needs a COMMAND to run: rebench --emulate %s --baseline %s -- COMMAND [ARGS...]",
				     a->slow, a->fast);
	return 0;
}

/* 0, 1 after --help, or -EINVAL after a message. */
static int parse_args(int argc, char **argv, struct emulate_args *a)
{
	int ret;

	memset(a, 0, sizeof(*a));
	ret = mode_args_parse(argc, argv, &emulate_grammar, a);
	return ret ? ret : check_args(a);
}

/* ------------------------------------------------------------ results */

struct side {
	struct json_value *root;
	struct emulate_result r;
};

static int load_side(const char *opt, const char *file, struct side *s)
{
	char err[PATH_MAX + 1024];

	if (json_load(file, &s->root, err, sizeof(err)) ||
	    emulate_read_result(s->root, file, &s->r, err, sizeof(err))) {
		fprintf(stderr, "rebench: %s: %s\n", opt, err);
		return -EINVAL;
	}
	return 0;
}

static bool same_file(const char *x, const char *y)
{
	struct stat a, b;

	return !stat(x, &a) && !stat(y, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/* One file given twice compares a device with itself; a log over a
 * result would destroy it. */
static int check_files(const struct emulate_args *a)
{
	if (same_file(a->slow, a->fast)) {
		fprintf(stderr, "rebench: --emulate %s and --baseline %s are one file: --emulate takes the slow device's result, --baseline this machine's\n",
			a->slow, a->fast);
		return -EINVAL;
	}
	if (a->log && (same_file(a->log, a->slow) ||
		       same_file(a->log, a->fast))) {
		fprintf(stderr, "rebench: --record %s is the %s file: the log would overwrite it; give the log a name of its own\n",
			a->log, same_file(a->log, a->slow) ? "--emulate" :
			"--baseline");
		return -EINVAL;
	}
	return 0;
}

/* ------------------------------------------------------------ the table */

static void print_plan(FILE *f, const struct emulate_plan *p,
		       const struct emulate_result *slow,
		       const struct emulate_result *fast,
		       const struct delay_calib *c)
{
	char calib[256], note[256], adj[32], delays[DELAY_TEXT_MAX];
	int k;

	fprintf(f, "rebench: --emulate: %s (replayed on %s) on this machine, whose baseline is %s (replayed on %s); log %s, digest %s\n",
		slow->file, slow->target ? slow->target : "?", fast->file,
		fast->target ? fast->target : "?", slow->log, slow->digest);
	delay_calib_describe(c, calib, sizeof(calib));
	fprintf(f, "rebench: --emulate: calibration: %s\n", calib);
	fprintf(f, "  %-9s %12s %12s %12s %12s  %s\n", "op", "slow ns/op",
		"fast ns/op", "required ns", "adjusted ns", "note");
	for (k = 0; k < IO_KINDS; k++) {
		const struct emulate_op *o = &p->op[k];

		if (!o->present)
			continue;
		if (o->note == EMU_DELAYED)
			snprintf(adj, sizeof(adj), "%llu",
				 (unsigned long long)o->adjusted_ns);
		else
			snprintf(adj, sizeof(adj), "-");
		emulate_note_text(p, k, note, sizeof(note));
		fprintf(f, "  %-9s %12.10g %12.10g %12.0f %12s  %s\n",
			io_kind_name(k), o->slow_ns, o->fast_ns,
			o->required_ns, adj, note);
	}
	fprintf(f, "rebench: --emulate: required = slow - fast, rounded to a ns; adjusted = required - %llu ns, the zero wait (a wait adds it by itself): the delay COMMAND's calls get\n",
		(unsigned long long)p->spin_min_ns);
	delay_format(&p->delays, delays, sizeof(delays));
	fprintf(f, "rebench: --emulate: %s after each call that succeeds on a followed file (rebench(1), APPLICATION I/O)\n",
		delays);
	fflush(f);
}

/* ------------------------------------------------------------ the mode */

static int emulate(const struct emulate_args *a)
{
	struct side slow = { 0 }, fast = { 0 };
	char err[PATH_MAX + 4096];
	struct delay_calib calib;
	struct emulate_plan plan;
	int status = EXIT_BAD_ARGS, fd = -1;

	if (check_files(a) ||
	    load_side("--emulate", a->slow, &slow) ||
	    load_side("--baseline", a->fast, &fast))
		goto out;
	if (a->log && outpath_check("--record", a->log, err, sizeof(err))) {
		fprintf(stderr, "rebench: %s\n", err);
		goto out;
	}
	if (interpose_check("--emulate", a->cmd)) {
		status = EXIT_PREP_FAILED;	/* before the plan is printed */
		goto out;
	}
	delay_calibrate(&calib);
	if (emulate_plan(&slow.r, &fast.r, a->allow_partial, &calib, &plan,
			 err, sizeof(err))) {
		fprintf(stderr, "rebench: --emulate: %s\n", err);
		goto out;
	}
	print_plan(stderr, &plan, &slow.r, &fast.r, &calib);
	status = interpose_exec("--emulate", a->cmd, a->log, a->globs,
				(unsigned)a->nglobs, &plan.delays, &calib,
				a->log ? &fd : NULL);
	if (status < 0) {
		status = EXIT_PREP_FAILED;
		goto out;
	}
	/* as --record: the log's statistics on stderr, stdout is COMMAND's */
	if (a->log)
		trace_stats_report_fd("--record", a->log, fd, TSF_HUMAN);
out:
	json_free(slow.root);
	json_free(fast.root);
	return status;
}

int emulate_main(int argc, char **argv)
{
	struct emulate_args a;
	int ret = parse_args(argc, argv, &a);

	if (ret)
		return ret > 0 ? EXIT_OK : EXIT_BAD_ARGS;
	return emulate(&a);
}
