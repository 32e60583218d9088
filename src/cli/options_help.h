/* options_help.h - --help: a screen of the usual options; --help all:
 * the option table under headings, the modes' own words, fio's
 * spellings, units, exit statuses and examples; --help TOPIC: a mode's or
 * a group's (options_help.c); rebench(1)'s OPTIONS (options_roff.c). */
#ifndef REBENCH_OPTIONS_HELP_H
#define REBENCH_OPTIONS_HELP_H

#include <stdbool.h>
#include <stdio.h>

struct opt_desc;
struct mode_grammar;

/* --help groups the options under headings (options_help.c): every option
 * of opt_table in exactly one group, checked by the unit tests; one the
 * groups miss is still printed, under "Other options". */
struct opt_group {
	const char *title;
	const char *topic;		/* rebench --help TOPIC */
	const char *const *names;	/* long names, NULL-terminated */
	const char *const *common;	/* the few of plain --help */
};

/* Among a group's names: the engines' own options, here. */
#define OPT_GROUP_ENGINE_OPTS "*engines*"

extern const struct opt_group opt_groups[];
extern const size_t opt_group_count;

#define HELP_WIDTH 80		/* no --help line is wider */
#define HELP_TEXT_COL 31	/* where an option's help text starts */

/* --help all: every option, the modes' words, fio's spellings, units,
 * exit statuses and examples. */
void options_print_help(FILE *f);
/* --help TOPIC (NULL: the one screen): 0, or -EINVAL after a message
 * with the topics on err.  Two topics are not listed: "roff" (rebench(1)'s
 * OPTIONS, options_roff.c) and "names" (every long option, a line each,
 * for the tests). */
int options_help(FILE *f, FILE *err, const char *topic);
/* Is o in one of opt_groups? */
bool opt_in_group(const struct opt_desc *o);
/* Each option of group g in its order (the engines' own where it names
 * them), or, with g NULL, those of no group. */
void opt_group_each(const struct opt_group *g,
		    void (*fn)(FILE *f, const struct opt_desc *o), FILE *f);
/* The modes' own words (mode_args.h), a grammar once though modes share
 * it: from *i = 0 until NULL. */
const struct mode_grammar *mode_grammar_next(size_t *i);
/* rebench(1)'s OPTIONS section between its markers (options_roff.c). */
void options_print_roff(FILE *f);
/* One --help entry: left ("-b, --block-size SIZE") at column 2, text
 * wrapped at word boundaries to HELP_WIDTH under HELP_TEXT_COL; a left
 * part too wide puts the text on the next line. */
void options_help_item(FILE *f, const char *left, const char *text);
/* fio's spellings under their heading (the table of options_fio.h) */
void fio_alias_print_help(FILE *f);

#endif
