/* options_roff.c - rebench(1)'s OPTIONS from the option table, the modes'
 * words and fio's spellings: what `rebench --help roff` prints and `make
 * man` puts between the page's markers, so that --help and the manual
 * cannot disagree (tests/integration/test_help.sh compares them). */
#include "cli/options_help.h"

#include <string.h>

#include "core/mode_args.h"
#include "core/options.h"
#include "core/options_fio.h"

/* Text as roff: a hyphen is \-, a backslash \e, and a line never starts
 * with a control character; '\1' (--help's unbreakable space) a space. */
static void roff_text(FILE *f, const char *s, bool line_start)
{
	for (; *s; s++) {
		if (line_start && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		line_start = *s == '\n';
		if (*s == '-')
			fputs("\\-", f);
		else if (*s == '\\')
			fputs("\\e", f);
		else
			fputc(*s == '\1' ? ' ' : *s, f);
	}
}

static void roff_option(FILE *f, const struct opt_desc *o)
{
	const struct opt_value *v;

	fputs(".TP\n", f);
	if (o->letter)
		fprintf(f, "\\fB\\-%c\\fR, ", o->letter);
	fputs("\\fB\\-\\-", f);
	roff_text(f, o->name, false);
	fputs("\\fR", f);
	if (o->metavar) {
		fputs(" \\fI", f);
		roff_text(f, o->metavar, false);
		fputs("\\fR", f);
	}
	fputc('\n', f);
	roff_text(f, o->help, true);
	fputs(".\n", f);
	if (o->defval) {
		fputs("Default: ", f);
		roff_text(f, o->defval, false);
		fputs(".\n", f);
	}
	if (!o->values)
		return;
	fputs(".RS\n", f);
	for (v = o->values; v->name; v++) {
		fputs(".TP\n.B ", f);
		roff_text(f, v->name, false);
		fputc('\n', f);
		roff_text(f, v->help ? v->help : "", true);
		fputc('\n', f);
	}
	fputs(".RE\n", f);
}

/* A mode's synopsis and words, as its --help prints them. */
static void roff_grammar(FILE *f, const struct mode_grammar *g)
{
	fputs(".PP\n.EX\n", f);
	roff_text(f, g->usage, true);
	if (g->help)
		roff_text(f, g->help, true);
	fputs(".EE\n", f);
}

void options_print_roff(FILE *f)
{
	const struct mode_grammar *mg;
	size_t g, i;

	for (g = 0; g < opt_group_count; g++) {
		fprintf(f, ".SS %s\n", opt_groups[g].title);
		opt_group_each(&opt_groups[g], roff_option, f);
	}
	for (i = 0; i < opt_count && opt_in_group(&opt_table[i]); i++)
		;
	if (i < opt_count) {	/* a stray the groups miss, still shown */
		fputs(".SS Other options\n", f);
		opt_group_each(NULL, roff_option, f);
	}
	fputs(".SS The modes' own words\n"
	      "The modes with a grammar of their own take these words, and the\n"
	      "workload options they name, before a\n.B \\-\\-\n"
	      "that starts their COMMAND.\n", f);
	i = 0;
	while ((mg = mode_grammar_next(&i)))
		roff_grammar(f, mg);
	fputs(".SS fio spellings\n"
	      "fio's option names, with rebench's meaning:\n", f);
	for (i = 0; i < fio_alias_count; i++) {
		const struct fio_alias *a = &fio_aliases[i];

		fputs(".TP\n\\fB\\-\\-", f);
		roff_text(f, a->name, false);
		if (a->metavar) {
			fputs("=\\fI", f);
			roff_text(f, a->metavar, false);
		}
		fputs("\\fR\n", f);
		roff_text(f, a->help, true);
		fputc('\n', f);
	}
}
