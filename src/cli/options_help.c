/* options_help.c - --help: one screen of the usual options; --help all:
 * the option table under headings, wrapped to 80 columns, then the modes'
 * own words, fio's spellings, units, exit statuses and examples; --help
 * TOPIC: a mode's or a group's part of it. */
#include "cli/options_help.h"

#include "core/options.h"

#include <errno.h>
#include <string.h>

#include "cli/modes.h"
#include "core/mode_args.h"
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
	"duration", "pause", "delay", "rate", "arrival", "warmup", "drop-caches",
	"ready-fd", NULL
};
static const char *const output_opts[] = {
	"silent", "json", "output", "sample-step", "units", "fio", "help",
	"version", NULL
};
static const char *const files_opts[] = {
	"directory", "nrfiles", "filesize", "file-service", NULL
};
static const char *const safety_opts[] = { "yes", "probe", "dry-run", NULL };
static const char *const verify_opts[] = {
	"verify", "verify-mode", "verify-continue", "verify-state",
	"verify-only", "verify-log", NULL
};
static const char *const hosts_opts[] = {
	"hosts", "hosts-file", "ssh", "remote-rebench", "outlier", "max-offset",
	"start-at", "stop-on-eof", NULL
};
static const char *const advise_opts[] = {
	"advise", "rows", "key-size", "fill", "value-size", "from",
	"characterize", "write", NULL
};
static const char *const study_opts[] = {
	"repeat", "precision", "max-duration", "order", "precondition",
	"steady-state", "round", "max-rounds", "plot", "plot-metric", "suite",
	"latency-target", NULL
};

/* The few of each group that plain --help shows, a line each: what most
 * runs set. */
static const char *const workload_common[] = {
	"operation", "workload", "block-size", "length", NULL
};
static const char *const engine_common[] = {
	"type", "queue-depth", "threads", "paged", NULL
};
static const char *const run_common[] = { "duration", "warmup", NULL };
static const char *const output_common[] = {
	"silent", "json", "output", NULL
};
static const char *const safety_common[] = { "yes", "probe", "dry-run", NULL };
static const char *const study_common[] = {
	"repeat", "precision", "plot", "suite", NULL
};
static const char *const verify_common[] = { "verify", NULL };
static const char *const files_common[] = { "directory", NULL };
static const char *const advise_common[] = { "advise", NULL };
static const char *const hosts_common[] = { "hosts", NULL };

/* Every option of opt_table in exactly one group (tests/unit/
 * test_options.c checks): a new option goes in here too. */
const struct opt_group opt_groups[] = {
	{ "Workload options", "workload", workload_opts, workload_common },
	{ "Engine options", "engine", engine_opts, engine_common },
	{ "Run options", "run", run_opts, run_common },
	{ "Many files", "files", files_opts, files_common },
	{ "Output options", "output", output_opts, output_common },
	{ "Safety options", "safety", safety_opts, safety_common },
	{ "Data verification", "verify", verify_opts, verify_common },
	{ "Sweeps and studies", "sweep", study_opts, study_common },
	{ "Advisors", "advise", advise_opts, advise_common },
	{ "Many hosts", "hosts", hosts_opts, hosts_common },
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

/* "-b, --block-size SIZE", or "    --seed N" */
static void option_left(char *left, size_t len, const struct opt_desc *o)
{
	if (o->letter)
		snprintf(left, len, "-%c, --%s%s%s", o->letter, o->name,
			 o->metavar ? " " : "", o->metavar ? o->metavar : "");
	else
		snprintf(left, len, "    --%s%s%s", o->name,
			 o->metavar ? " " : "", o->metavar ? o->metavar : "");
}

static void print_option(FILE *f, const struct opt_desc *o)
{
	char left[64], text[1024], list[512];
	const struct opt_value *v;
	size_t n, i;

	option_left(left, sizeof(left), o);
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

bool opt_in_group(const struct opt_desc *o)
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

void opt_group_each(const struct opt_group *g,
		    void (*fn)(FILE *f, const struct opt_desc *o), FILE *f)
{
	const struct opt_desc *o;
	const char *const *name;
	size_t i;

	if (!g) {
		for (i = 0; i < opt_count; i++)
			if (!opt_in_group(&opt_table[i]))
				fn(f, &opt_table[i]);
		return;
	}
	for (name = g->names; *name; name++) {
		if (!strcmp(*name, OPT_GROUP_ENGINE_OPTS)) {
			struct opt_iter it = { 0 };

			while (options_next(&it))
				if (it.o == &it.own)
					fn(f, it.o);
		}
		o = options_find_long(*name);
		if (o)
			fn(f, o);
	}
}

const struct mode_grammar *mode_grammar_next(size_t *i)
{
	size_t k;

	for (; *i < mode_count; (*i)++) {
		const struct mode_grammar *g = modes[*i].grammar;

		for (k = 0; g && k < *i; k++)
			if (modes[k].grammar == g)
				break;
		if (g && k == *i)
			return modes[(*i)++].grammar;
	}
	return NULL;
}

/* A mode's synopsis: its usage lines (wrapped under their second word
 * when wider than the screen), then its help, as its own --help prints them. */
static void print_grammar(FILE *f, const struct mode_grammar *g)
{
	const char *p = g->usage;
	char line[512];

	while (*p) {
		size_t n = strcspn(p, "\n");

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		if (n > HELP_WIDTH) {	/* "rebench " then the rest under it */
			int k = (int)strcspn(line, " ") + 1;

			fprintf(f, "%.*s", k, line);
			wrap(f, k, k, line + k);
		} else {
			fprintf(f, "%s\n", line);
		}
		p += n + (p[n] == '\n');
	}
	if (g->help)
		fputs(g->help, f);
}

void options_print_help(FILE *f)
{
	const struct mode_grammar *mg;
	size_t g, i = 0;

	modes_print_usage(f, usage_line);
	for (g = 0; g < opt_group_count; g++) {
		fprintf(f, "\n%s:\n", opt_groups[g].title);
		opt_group_each(&opt_groups[g], print_option, f);
	}
	while (i < opt_count && opt_in_group(&opt_table[i]))
		i++;
	if (i < opt_count) {	/* a stray the groups miss, still shown */
		fprintf(f, "\nOther options:\n");
		opt_group_each(NULL, print_option, f);
	}
	i = 0;
	fprintf(f, "\nThe modes' own words (rebench MODE --help where it takes one):\n");
	while ((mg = mode_grammar_next(&i))) {
		fputc('\n', f);
		print_grammar(f, mg);
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

/* The first clause of text, up to a ";" or a " (" (not before the
 * twelfth character: "seconds (10, 500ms), bytes ..." stays whole),
 * wrapped at col: plain --help's line or two per option. */
static void first_clause(FILE *f, int col, const char *text)
{
	size_t n = strcspn(text, ";");
	const char *paren = strstr(text, " (");
	char buf[512];

	if (paren && paren - text >= 12 && (size_t)(paren - text) < n)
		n = (size_t)(paren - text);
	snprintf(buf, sizeof(buf), "%.*s", (int)n, text);
	wrap(f, col, col, buf);
}

/* Plain --help's line of an option: its left part, its first clause. */
static void print_common(FILE *f, const struct opt_desc *o)
{
	char left[64];
	int n;

	option_left(left, sizeof(left), o);
	n = fprintf(f, "  %s", left);
	if (n + 1 > HELP_TEXT_COL)
		fprintf(f, "\n%*s", HELP_TEXT_COL, "");
	else
		fprintf(f, "%*s", HELP_TEXT_COL - n, "");
	first_clause(f, HELP_TEXT_COL, o->help);
}

/* The words --help TOPIC takes, and the modes' list, wrapped at indent. */
static void print_topics(FILE *f, int col, int indent)
{
	char list[512];
	size_t i, g, n;

	n = (size_t)snprintf(list, sizeof(list), "all");
	for (i = 0; i < mode_count; i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, ", %s",
				      modes[i].name);
	for (g = 0; g < opt_group_count; g++) {
		for (i = 0; i < mode_count; i++)
			if (!strcmp(modes[i].name, opt_groups[g].topic))
				break;
		if (i == mode_count)	/* a mode's name already */
			n += (size_t)snprintf(list + n, sizeof(list) - n,
					      ", %s", opt_groups[g].topic);
	}
	snprintf(list + n, sizeof(list) - n, ", fio");
	wrap(f, col, indent, list);
}

/* One screen: how to call it, the usual options, where the rest is. */
static void print_short(FILE *f)
{
	const struct mode *run = &modes[0];	/* the workload grammar */
	char list[512];
	size_t g, u, i;
	int n;

	for (u = 0; u < MODE_MAX_USAGE && run->usage[u].args; u++) {
		n = fprintf(f, "%s rebench %s", u ? "      " : "Usage:",
			    run->usage[u].args);
		fprintf(f, "%*s", n < 40 ? 40 - n : 1, "");
		first_clause(f, 40, run->usage[u].what);
	}
	n = (int)snprintf(list, sizeof(list), "MODE:");
	for (i = 1; i < mode_count; i++)	/* run is the default */
		n += snprintf(list + n, sizeof(list) - (size_t)n, " %s%s",
			      modes[i].name, i + 1 < mode_count ? "," : "");
	fprintf(f, "%-40s", "       rebench MODE ...");
	wrap(f, 40, 40, list);
	for (g = 0; g < opt_group_count; g++) {
		const char *const *name;

		fprintf(f, "%s (--help %s):\n", opt_groups[g].title,
			opt_groups[g].topic);
		for (name = opt_groups[g].common; *name; name++)
			print_common(f, options_find_long(*name));
	}
	fprintf(f, "\nEvery option, the modes' own words, fio's spellings, units, exit statuses\n"
		"and examples: rebench --help all.  A mode's or a group's: rebench --help TOPIC,\n"
		"TOPIC one of:");
	print_topics(f, 13, 0);
	fprintf(f, "The reference: man rebench.\n");
}

/* --help TOPIC: a mode's synopsis, its own words, and the group of the
 * same name; a group alone; fio's spellings.  Whether any matched. */
static bool print_topic(FILE *f, const char *topic)
{
	const struct opt_desc *o;
	bool found = false;
	size_t i, u, g;

	for (i = 0; i < mode_count; i++) {
		const struct mode *m = &modes[i];

		if (strcmp(m->name, topic))
			continue;
		for (u = 0; u < MODE_MAX_USAGE && m->usage[u].args; u++) {
			char cmd[128];

			snprintf(cmd, sizeof(cmd), "%s rebench %s",
				 u ? "      " : "Usage:", m->usage[u].args);
			usage_line(f, cmd, m->usage[u].what);
		}
		if (m->grammar) {
			fputc('\n', f);
			print_grammar(f, m->grammar);
		}
		o = m->option ? options_find_long(m->option + 2) : NULL;
		if (o) {	/* the option table's mode: its option */
			fputc('\n', f);
			print_option(f, o);
		}
		found = true;
	}
	for (g = 0; g < opt_group_count; g++) {
		if (strcmp(opt_groups[g].topic, topic))
			continue;
		fprintf(f, "%s%s:\n", found ? "\n" : "", opt_groups[g].title);
		opt_group_each(&opt_groups[g], print_option, f);
		found = true;
	}
	if (!strcmp(topic, "fio")) {
		fio_alias_print_help(f);
		found = true;
	}
	return found;
}

static void print_name(FILE *f, const struct opt_desc *o)
{
	fprintf(f, "--%s\n", o->name);
}

/* Every long option, a line each: the table's, the engines' own, and the
 * modes' own words, for the tests to hold --help all and rebench(1) to. */
static void print_names(FILE *f)
{
	const struct mode_grammar *mg;
	size_t g, k, i = 0;

	for (g = 0; g < opt_group_count; g++)
		opt_group_each(&opt_groups[g], print_name, f);
	opt_group_each(NULL, print_name, f);
	while ((mg = mode_grammar_next(&i)))
		for (k = 0; k < mg->nopts; k++)
			if (mg->opts[k].name && mg->opts[k].kind != MODE_REFUSE)
				fprintf(f, "%s\n", mg->opts[k].name);
}

int options_help(FILE *f, FILE *err, const char *topic)
{
	if (!topic)
		print_short(f);
	else if (!strcmp(topic, "all"))
		options_print_help(f);
	else if (!strcmp(topic, "roff"))
		options_print_roff(f);
	else if (!strcmp(topic, "names"))
		print_names(f);
	else if (!print_topic(f, topic)) {
		fprintf(err, "rebench: --help %s: no such topic; give one of:",
			topic);
		print_topics(err, 49 + (int)strlen(topic), 0);
		return -EINVAL;
	}
	return 0;
}

void fio_alias_print_help(FILE *f)
{
	char left[64];
	size_t i;

	fprintf(f, "\nfio spellings (the same meaning; see rebench(1), OPTIONS, fio spellings):\n");
	for (i = 0; i < fio_alias_count; i++) {
		const struct fio_alias *a = &fio_aliases[i];

		snprintf(left, sizeof(left), "--%s%s%s", a->name,
			 a->metavar ? "=" : "", a->metavar ? a->metavar : "");
		options_help_item(f, left, a->help);
	}
	options_help_item(f, "--offset=SIZE", "fio's name already: -j SIZE");
}
