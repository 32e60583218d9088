/* record.c - see record.h.
 *
 * Exit statuses: 1 for bad arguments (a bad --delay spec among them) and a
 * log path that breaks the rule of outpath.h (nothing run); 2 when COMMAND
 * cannot be run under the interposer (interpose.h: not found, not
 * executable, statically linked, setuid, the interposer not found, the log
 * not created; nothing run); otherwise COMMAND's own status, 128+N when a
 * signal N ended it, except 5 (EXIT_OUTPUT_FAILED) in place of 0 when the
 * log is incomplete (record_log.h: lines lost, a process that could not
 * write it, its path replaced).
 */
#include "trace/record.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/delay.h"
#include "trace/interpose.h"
#include "core/mode_args.h"
#include "core/outpath.h"
#include "core/plan.h"
#include "core/signals.h"
#include "trace/trace_stats.h"

struct record_args {
	const char *log;	/* --record */
	const char *stats;	/* --trace-stats */
	const char *delay;	/* --delay */
	const char *globs[INTERPOSE_MAX_GLOBS];
	int nglobs;
	enum out_format fmt;
	bool fmt_given;
	char **cmd;		/* NULL-terminated, from argv */
};

static const char usage[] =
	"rebench --record LOG [--record-path GLOB]... [-n | --json] -- COMMAND [ARGS...]\n"
	"rebench --delay SPEC [--record LOG] [--record-path GLOB]... -- COMMAND [ARGS...]\n"
	"rebench --trace-stats LOG [-n | --json]\n";

static const char help[] =
	"\n"
	"  --record LOG         run COMMAND, logging its calls on files, block devices\n"
	"                       and directories to LOG; the statistics on stderr;\n"
	"                       exit 5 when LOG is incomplete (lines lost, a process\n"
	"                       that could not write it) and COMMAND exited 0\n"
	"  --record-path GLOB   only the files whose path matches GLOB (up to 16)\n"
	"  --delay SPEC         wait after COMMAND's calls on those files, e.g.\n"
	"                       read=8us,write=10us,fsync=200us (ns, us, ms, s)\n"
	"  --trace-stats LOG    what LOG holds, per operation type and per file\n"
	"  -n, --json           the statistics as lines of fields, or as JSON\n"
	"See rebench(1), APPLICATION I/O.\n";

/* --delay SPEC -- COMMAND: --delay, maybe --record-path, and nothing else
 * of the workload grammar before "--" (where "--" would end a workload's
 * options, as in rebench --delay read=1ms -o read -- /dev/sdX). */
static bool delay_command(int argc, char **argv)
{
	bool delay = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return delay && i + 1 < argc;
		if (mode_is(argv[i], "--delay") ||
		    mode_is(argv[i], "--record-path")) {
			delay |= mode_is(argv[i], "--delay");
			if (!strchr(argv[i], '='))
				i++;
		} else if (strcmp(argv[i], "-h") && strcmp(argv[i], "--help")) {
			return false;
		}
	}
	return false;
}

bool record_wanted(int argc, char **argv)
{
	return mode_given(argc, argv, "--record") ||
	       mode_given(argc, argv, "--trace-stats") ||
	       delay_command(argc, argv);
}

/* "--record -- true" would log to a file named "--": a LOG that reads as
 * an option is a LOG left out */
static int log_named(const struct mode_grammar *g, void *args,
		     const char *opt, const char *val)
{
	(void)args;
	if (val[0] != '-')
		return 0;
	return mode_args_bad(g, "%s: the LOG is missing ('%s' is not taken as a file name): give one, e.g. %s calls.log -- COMMAND (a file whose name starts with '-' as ./%s)",
			     opt, val, opt, val);
}

static int one_line(const struct mode_grammar *g, void *args,
		    const char *opt, const char *val)
{
	(void)args;
	(void)opt;
	if (*val && !strchr(val, '\n'))
		return 0;
	return mode_args_bad(g, "--record-path '%s': a pattern is one line, not empty",
			     val);
}

#define LOG_OPT(name, field) { name, MODE_VALUE, \
	offsetof(struct record_args, field), .twice = "%s is given twice", \
	.empty = "%s: the file name is empty", .check = log_named }

/* A value missing after --record, --trace-stats or --delay makes the word
 * an unknown one (.missing NULL), as it always has. */
static const struct mode_opt opts[] = {
	LOG_OPT("--record", log),
	LOG_OPT("--trace-stats", stats),
	{ "--delay", MODE_VALUE, offsetof(struct record_args, delay),
	  .twice = "%s is given twice: give every delay in one spec, e.g. --delay read=8us,fsync=200us" },
	{ "--record-path", MODE_LIST, offsetof(struct record_args, globs),
	  offsetof(struct record_args, nglobs), INTERPOSE_MAX_GLOBS,
	  .missing = "%s needs a value",
	  .many = "%s: at most 16 patterns", .check = one_line },
	{ NULL, MODE_FORMAT, offsetof(struct record_args, fmt),
	  offsetof(struct record_args, fmt_given),
	  .twice = "-n and --json are two formats: give one (%s)" },
};

const struct mode_grammar record_grammar = {
	.usage = usage,
	.sep = "\n",
	.help = help,
	.unknown = "%s has no meaning with --record or --trace-stats, which take only --record-path and --delay (with a COMMAND), -n and --json",
	.opts = opts,
	.nopts = sizeof(opts) / sizeof(opts[0]),
	.cmd = offsetof(struct record_args, cmd),
};

/* How the options go together. */
static int check_args(const struct record_args *a)
{
	const struct mode_grammar *g = &record_grammar;

	if (a->log && a->stats)
		return mode_args_bad(g, "--record and --trace-stats are two modes: give one");
	if (a->stats && a->nglobs)
		return mode_args_bad(g, "--record-path belongs to --record, not --trace-stats");
	if (a->stats && a->cmd)
		return mode_args_bad(g, "--trace-stats LOG runs nothing: '%s' has no meaning with it",
				     a->cmd[0] ? a->cmd[0] : "--");
	if (a->stats && a->delay)
		return mode_args_bad(g, "--delay belongs to a COMMAND (rebench --delay SPEC -- COMMAND) or to a workload, not to --trace-stats");
	if (a->log && (!a->cmd || !a->cmd[0]))
		return mode_args_bad(g, "--record %s needs a COMMAND to run: rebench --record LOG -- COMMAND [ARGS...]",
				     a->log);
	return 0;
}

/* 0, 1 after --help, or -EINVAL after a message. */
static int parse_args(int argc, char **argv, struct record_args *a)
{
	int ret;

	memset(a, 0, sizeof(*a));
	ret = mode_args_parse(argc, argv, &record_grammar, a);
	return ret ? ret : check_args(a);
}

/* The delays and the calibration, on stderr before COMMAND runs (its
 * stdout is its own). */
static void say_delays(const struct delay_set *d, const struct delay_calib *c)
{
	char text[DELAY_TEXT_MAX], calib[256];

	delay_format_units(d, text, sizeof(text));
	delay_calib_describe(c, calib, sizeof(calib));
	fprintf(stderr, "rebench: --delay: %s after each call that succeeds on a followed file (rebench(1), APPLICATION I/O)\n",
		text);
	fprintf(stderr, "rebench: --delay: calibration: %s\n", calib);
}

static int do_record(const struct record_args *a)
{
	char err[PATH_MAX + 1200];
	struct delay_calib calib = { 0 };
	struct delay_set d = { { 0 } };
	int status, fd = -1;

	if (a->delay && delay_parse(a->delay, &d, err, sizeof(err))) {
		fprintf(stderr, "rebench: --delay %s: %s\n", a->delay, err);
		return EXIT_BAD_ARGS;
	}
	if (a->log && outpath_check("--record", a->log, err, sizeof(err))) {
		fprintf(stderr, "rebench: %s\n", err);
		return EXIT_BAD_ARGS;
	}
	if (delay_any(&d)) {
		/* a command that cannot run is refused before the delays
		 * are printed as if it would */
		if (interpose_check("--delay", a->cmd))
			return EXIT_PREP_FAILED;
		delay_calibrate(&calib);
		say_delays(&d, &calib);
	}
	status = interpose_exec(a->log ? "--record" : "--delay", a->cmd,
				a->log, a->globs, (unsigned)a->nglobs, &d,
				&calib, &fd);
	if (status < 0)
		return EXIT_PREP_FAILED;
	if (!a->log)
		return status;
	trace_stats_report_fd("--record", a->log, fd, a->fmt);
	return status;
}

static int do_stats(const struct record_args *a)
{
	char err[PATH_MAX + 1200];
	struct trace_stats st;

	if (trace_stats_load(a->stats, &st, err, sizeof(err))) {
		fprintf(stderr, "rebench: --trace-stats: %s\n", err);
		/* a stop while it was read is no bad argument */
		return signals_stop_requested() ? EXIT_INTERRUPTED :
						  EXIT_BAD_ARGS;
	}
	trace_stats_print(stdout, &st, a->fmt);
	trace_stats_free(&st);
	return outpath_finish_stdout() ? EXIT_OUTPUT_FAILED : EXIT_OK;
}

int record_main(int argc, char **argv)
{
	struct record_args a;
	int ret = parse_args(argc, argv, &a);

	if (ret)
		return ret > 0 ? EXIT_OK : EXIT_BAD_ARGS;
	return a.stats ? do_stats(&a) : do_record(&a);
}
