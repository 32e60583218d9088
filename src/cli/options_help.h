/* options_help.h - --help: the option table under headings, fio's
 * spellings, units, exit statuses and examples (options_help.c). */
#ifndef REBENCH_OPTIONS_HELP_H
#define REBENCH_OPTIONS_HELP_H

#include <stdio.h>

/* --help groups the options under headings (options_help.c): every option
 * of opt_table in exactly one group, checked by the unit tests; one the
 * groups miss is still printed, under "Other options". */
struct opt_group {
	const char *title;
	const char *const *names;	/* long names, NULL-terminated */
};

/* Among a group's names: the engines' own options, here. */
#define OPT_GROUP_ENGINE_OPTS "*engines*"

extern const struct opt_group opt_groups[];
extern const size_t opt_group_count;

#define HELP_WIDTH 80		/* no --help line is wider */
#define HELP_TEXT_COL 31	/* where an option's help text starts */

void options_print_help(FILE *f);
/* One --help entry: left ("-b, --block-size SIZE") at column 2, text
 * wrapped at word boundaries to HELP_WIDTH under HELP_TEXT_COL; a left
 * part too wide puts the text on the next line. */
void options_help_item(FILE *f, const char *left, const char *text);
/* fio's spellings under their heading (the table of options_fio.h) */
void fio_alias_print_help(FILE *f);

#endif
