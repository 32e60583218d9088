/* compare_args.c - the words of rebench --compare A.json B.json [-n |
 * --json] [--plot FILE] (compare_rows.h). */
#include "study/compare_rows.h"

#include <stddef.h>
#include <string.h>

#include "core/mode_args.h"

static const char usage[] =
	"rebench --compare A.json B.json [-n | --json] [--plot FILE]\n";

static const char help[] =
	"  compares two results of rebench --json (single runs, --repeat runs\n"
	"  or sweeps of the same shape): the ratio B/A of ops/s, MB/s, p50 and p99\n"
	"  latency per workload and point, its 95% interval and a verdict.\n"
	"  See rebench(1), COMPARE.\n";

/* A value missing after --compare makes the word an unknown one, and a
 * later --plot the one that counts, as they always have. */
static const struct mode_opt opts[] = {
	{ "--compare", MODE_PAIR, offsetof(struct cmp_args, a),
	  offsetof(struct cmp_args, b), .twice = "--compare: given twice",
	  .second = "--compare: needs two files, A.json and B.json (B is compared with A)" },
	{ "--plot", MODE_VALUE, offsetof(struct cmp_args, plot),
	  .missing = "--compare: %s needs a value" },
	{ NULL, MODE_FORMAT, offsetof(struct cmp_args, fmt),
	  offsetof(struct cmp_args, fmt_given),
	  .twice = "--compare: give one output format: -n or --json" },
};

const struct mode_grammar compare_grammar = {
	.usage = usage,
	.sep = " ",
	.help = help,
	.unknown = "--compare: %s is not one of its words: it compares two JSON documents and runs nothing, so workload options and targets do not apply",
	.opts = opts,
	.nopts = sizeof(opts) / sizeof(opts[0]),
	.no_cmd = true,
};

bool compare_wanted(int argc, char **argv)
{
	return mode_given(argc, argv, "--compare");
}

int cmp_parse_args(int argc, char **argv, struct cmp_args *a)
{
	int ret;

	memset(a, 0, sizeof(*a));
	ret = mode_args_parse(argc, argv, &compare_grammar, a);
	if (ret)
		return ret;
	if (!a->a)
		return mode_args_bad(&compare_grammar, "--compare: needs two files, A.json and B.json");
	return 0;
}
