/* options_help.c - --help: the option table under headings, wrapped to 80
 * columns, then fio's spellings, units, exit statuses and examples. */
#include "cli/options_help.h"

#include "core/options.h"

#include <string.h>

#include "cli/modes.h"
#include "core/options_fio.h"

static const char *const workload_opts[] = {
	"operation", "workload", "block-size", "stride", "direction", "dist",
	"sigma", "center", "scatter", "offset", "length", "rwmix", "seed", NULL
};
static const char *const engine_opts[] = {
	"type", "queue-depth", "batch", OPT_GROUP_ENGINE_OPTS, "threads",
	"local-fd", "paged", "buffered", "sync", "do-atime", "append", "fadvise",
	"readahead", "cache", "engines", NULL
};
static const char *const run_opts[] = {
	"duration", "pause", "delay", "warmup", "drop-caches", NULL
};
static const char *const output_opts[] = {
	"silent", "json", "output", "sample-step", "units", "fio", "help",
	"version", NULL
};
static const char *const safety_opts[] = { "yes", "probe", "dry-run", NULL };
static const char *const hosts_opts[] = {
	"hosts", "hosts-file", "ssh", "remote-rebench", "outlier", "max-offset",
	"start-at", "stop-on-eof", NULL
};
static const char *const advise_opts[] = {
	"advise", "rows", "key-size", "fill", "value-size", "from", NULL
};
static const char *const study_opts[] = {
	"repeat", "precision", "max-duration", "order", "precondition",
	"steady-state", "round", "max-rounds", "plot", "plot-metric", "suite",
	NULL
};

/* Every option of opt_table in exactly one group (tests/unit/
 * test_options.c checks): a new option goes in here too. */
const struct opt_group opt_groups[] = {
	{ "Workload options", workload_opts },
	{ "Engine options", engine_opts },
	{ "Run options", run_opts },
	{ "Output options", output_opts },
	{ "Safety options", safety_opts },
	{ "Sweeps and studies", study_opts },
	{ "Advisors", advise_opts },
	{ "Many hosts", hosts_opts },
};

const size_t opt_group_count = sizeof(opt_groups) / sizeof(opt_groups[0]);

/* Print text from column col, wrapped at spaces to HELP_WIDTH, each new
 * line indented to indent.  A '\1' is a space no line breaks at (a
 * default "[512, or the logical sector if larger]" stays whole). */
static void wrap(FILE *f, int col, int indent, const char *text)
{
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, " "), k;

		if (col > indent && col + 1 + (int)n > HELP_WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		for (k = 0; k < n; k++)
			fputc(p[k] == '\1' ? ' ' : p[k], f);
		col += (int)n;
		p += n;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

void options_help_item(FILE *f, const char *left, const char *text)
{
	int n = fprintf(f, "  %s", left);

	if (n + 1 > HELP_TEXT_COL)
		fprintf(f, "\n%*s", HELP_TEXT_COL, "");
	else
		fprintf(f, "%*s", HELP_TEXT_COL - n, "");
	wrap(f, HELP_TEXT_COL, HELP_TEXT_COL, text);
}

static void print_option(FILE *f, const struct opt_desc *o)
{
	char left[64], text[1024], list[512];
	const struct opt_value *v;
	size_t n, i;

	if (o->letter)
		snprintf(left, sizeof(left), "-%c, --%s%s%s", o->letter,
			 o->name, o->metavar ? " " : "",
			 o->metavar ? o->metavar : "");
	else
		snprintf(left, sizeof(left), "    --%s%s%s", o->name,
			 o->metavar ? " " : "", o->metavar ? o->metavar : "");
	n = (size_t)snprintf(text, sizeof(text), "%s", o->help);
	if (o->defval && n + strlen(o->defval) + 3 < sizeof(text)) {
		/* the default is one unbreakable piece */
		for (i = n + 2; o->defval[i - n - 2]; i++)
			text[i] = o->defval[i - n - 2] == ' ' ? '\1' :
				  o->defval[i - n - 2];
		text[n] = ' ';
		text[n + 1] = '[';
		text[i] = ']';
		text[i + 1] = '\0';
	}
	options_help_item(f, left, text);
	if (o->values && o->type != OPT_ENUM && o->type != OPT_OPS) {
		n = (size_t)snprintf(list, sizeof(list), "one of:");
		for (v = o->values; v->name && n < sizeof(list); v++)
			n += (size_t)snprintf(list + n, sizeof(list) - n,
					      " %s%s", v->name,
					      v[1].name ? "," : "");
		fprintf(f, "%*s", HELP_TEXT_COL + 2, "");
		wrap(f, HELP_TEXT_COL + 2, HELP_TEXT_COL + 2, list);
	}
}

static bool in_group(const struct opt_desc *o)
{
	const char *const *name;
	size_t g;

	for (g = 0; g < opt_group_count; g++)
		for (name = opt_groups[g].names; *name; name++)
			if (!strcmp(*name, o->name))
				return true;
	return false;
}

/* A synopsis line: the command, its description from column 40. */
static void usage_line(FILE *f, const char *cmd, const char *text)
{
	int n = fprintf(f, "%s", cmd);

	if (n + 1 > 40)
		fprintf(f, "\n%40s", "");
	else
		fprintf(f, "%*s", 40 - n, "");
	wrap(f, 40, 40, text);
}

/* The engines' own options, where their group names them. */
static void print_engine_options(FILE *f)
{
	struct opt_iter it = { 0 };

	while (options_next(&it))
		if (it.o == &it.own)
			print_option(f, it.o);
}

void options_print_help(FILE *f)
{
	const struct opt_desc *o;
	const char *const *name;
	bool other = false;
	size_t g, i;

	modes_print_usage(f, usage_line);
	for (g = 0; g < opt_group_count; g++) {
		fprintf(f, "\n%s:\n", opt_groups[g].title);
		for (name = opt_groups[g].names; *name; name++) {
			if (!strcmp(*name, OPT_GROUP_ENGINE_OPTS))
				print_engine_options(f);
			o = options_find_long(*name);
			if (o)
				print_option(f, o);
		}
	}
	for (i = 0; i < opt_count; i++) {
		if (in_group(&opt_table[i]))
			continue;
		if (!other)
			fprintf(f, "\nOther options:\n");
		other = true;
		print_option(f, &opt_table[i]);
	}
	fio_alias_print_help(f);
	fprintf(f,
		"\nSizes take k, m, g, t suffixes (powers of 1024). A numeric option given a\n"
		"range A..B/STEP, A..B*F or a list a,b,c (and -o -w -r -u -t a list of names)\n"
		"makes a sweep: every combination runs in turn and the result is a TSV table.\n"
		"An unknown option or value is refused before anything runs, with the nearest\n"
		"names (\"did you mean --block-size?\").\n"
		"\nExit status: 0 success; 1 bad arguments, a refused output path, a run over\n"
		"the memory budget or a refused confirmation; 2 preparation failed (a target\n"
		"in use or read-only); 3 I/O failed during the run; 4 --plot failed (data\n"
		"kept); 5 stdout or a data file could not be written (a closed pipe, a full\n"
		"disk); 130 interrupted.\n"
		"\nExamples:\n"
		"  sudo rebench /dev/sdb                       512-byte random reads for 10 s\n"
		"  sudo rebench -w seq -b 1m -d 5 /dev/sdb     sequential 1 MiB reads for 5 s\n"
		"  printf '%%s\\n' '-b 4k /dev/sdb' '-w seq -b 1m /dev/sdc' | sudo rebench -d 5\n"
		"  sudo rebench -b 512..4k/512 -s 512..4k/512 -d 5 --plot align.png /dev/sdb\n"
		"  sudo rebench --probe /dev/sdb1              is this partition aligned?\n"
		"  sudo rebench -b 4k -d 3 --repeat 5 /dev/sdb five runs: median, spread, 95%% CI\n"
		"  rebench --fio -t uring -q 16 -b 4k /dev/sdb  the same work as an fio job file\n"
		"  sudo rebench --rw=randread --bs=4k --iodepth=32 --ioengine=libaio /dev/sdb\n"
		"\nSee rebench(1) for every option, output field and exit status.\n");
}

void fio_alias_print_help(FILE *f)
{
	char left[64];
	size_t i;

	fprintf(f, "\nfio spellings (the same meaning; see rebench(1), FIO SPELLINGS):\n");
	for (i = 0; i < fio_alias_count; i++) {
		const struct fio_alias *a = &fio_aliases[i];

		snprintf(left, sizeof(left), "--%s%s%s", a->name,
			 a->metavar ? "=" : "", a->metavar ? a->metavar : "");
		options_help_item(f, left, a->help);
	}
	options_help_item(f, "--offset=SIZE", "fio's name already: -j SIZE");
}
