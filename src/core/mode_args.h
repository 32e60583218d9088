/* mode_args.h - the words of the modes with a grammar of their own
 * (--record, --record-block, --delay -- COMMAND, --trace-to, --replay,
 * --emulate): "--name VALUE" or "--name=VALUE", before a "--" that starts
 * COMMAND.  One reading for all of them, so that "--record=LOG" and
 * "--record LOG" mean the same in every mode and "--record-path" is never
 * taken for "--record".
 */
#ifndef REBENCH_MODE_ARGS_H
#define REBENCH_MODE_ARGS_H

#include <stdbool.h>
#include <stddef.h>

/* How a mode prints its figures: the text, the -n line or JSON (the
 * format words -n, --silent and --json of every mode). */
enum out_format { TSF_HUMAN, TSF_TERSE, TSF_JSON };

/* Is w the option name, alone or as "name=value"? */
bool mode_is(const char *w, const char *name);

/* Is the option name one of argv's words before "--"? */
bool mode_given(int argc, char **argv, const char *name);

/* The value of the option name at argv[*i] ("name=V", or "name V", then
 * *i moves past V); NULL when the word is another option, or when V is
 * missing (then *missing is set). */
const char *mode_value(int argc, char **argv, int *i, const char *name,
		       bool *missing);

/* The statistics format word at w: "-n" or "--silent" (terse), "--json".
 * 0 when taken into *fmt (*given set); -EINVAL when another format was
 * given before; 1 when w is no format word. */
int mode_format(const char *w, enum out_format *fmt, bool *given);

/* A mode's words as a table, read by mode_args_parse() in order until
 * "--" (COMMAND follows) or the first word that is no option (COMMAND
 * itself): "--name VALUE" and "--name=VALUE", -n, --silent and --json,
 * -h and --help; any other word starting with '-' is refused with the
 * mode's own message.  A mode without a COMMAND (no_cmd) reads every
 * word: "--" is a word like any other, and a word that is no option is
 * its MODE_WORD's, or refused.  A mode checks how its options go together
 * after the parse.
 *
 * Messages are printf formats with one %s at most: the option's name in
 * those about its value (twice, empty, many), the word as written in the
 * others (missing, refuse, the format's twice, the mode's unknown, a
 * MODE_WORD's twice). */
enum mode_opt_kind {
	MODE_VALUE,	/* const char * at off; again: twice, or the later
			 * one when twice is NULL */
	MODE_LIST,	/* const char *[max] at off, their int count at count */
	MODE_FORMAT,	/* enum out_format at off, bool given at count */
	MODE_FLAG,	/* bool at off */
	MODE_REFUSE,	/* another mode's word: refused with refuse */
	MODE_PAIR,	/* "--name A B": const char * A at off, B at count */
	MODE_WORD,	/* a word that is no option ("-" is one), name NULL:
			 * const char * at off, as MODE_VALUE */
	MODE_PASS,	/* an option of the workload grammar, name or letter,
			 * and its value when it takes one: the words as
			 * written, char *[max] at off, their int count at
			 * count (room for two words, or many) */
};

struct mode_grammar;

struct mode_opt {
	const char *name;	/* MODE_FORMAT, MODE_WORD: none */
	enum mode_opt_kind kind;
	size_t off, count;	/* into the mode's own args */
	int max;		/* MODE_LIST, MODE_PASS: the most words held */
	bool prefix;		/* MODE_REFUSE: every word that starts so */
	const char *letter;	/* MODE_PASS: its short spelling, "-t" */
	bool value;		/* MODE_PASS: takes a value */
	bool twice_first;	/* MODE_VALUE: twice before missing */
	bool check_missing;	/* a missing value goes to check as NULL */
	const char *missing;	/* no value; NULL: the word is unknown */
	const char *twice;	/* MODE_VALUE again; MODE_FORMAT another */
	const char *empty;	/* a value ""; NULL: "" is a value */
	const char *many;	/* MODE_LIST, MODE_PASS: a value over max */
	const char *second;	/* MODE_PAIR: B missing, or an option */
	const char *refuse;	/* MODE_REFUSE */
	/* what else the value must be, and what it means beyond its text,
	 * after the checks above: 0, or -EINVAL after a message (most
	 * often mode_args_bad()); MODE_PASS: the option's word */
	int (*check)(const struct mode_grammar *g, void *args,
		     const char *name, const char *v);
};

struct mode_grammar {
	const char *usage;	/* the synopsis lines */
	const char *sep;	/* between "usage:" and them: "\n" or " " */
	const char *help;	/* after the synopsis, for -h and --help;
				 * NULL: they are unknown words */
	const char *unknown;	/* any other word starting with '-' */
	const struct mode_opt *opts;
	size_t nopts;
	size_t cmd;		/* of the char ** COMMAND in the args */
	bool no_cmd;		/* the mode runs no COMMAND: cmd unused */
};

/* argv's words into args (zeroed by the caller) as g says: 0, 1 after
 * the help was printed, -EINVAL after a message. */
int mode_args_parse(int argc, char **argv, const struct mode_grammar *g,
		    void *args);

/* "rebench: MESSAGE" and the mode's usage on stderr: -EINVAL. */
__attribute__((format(printf, 2, 3)))
int mode_args_bad(const struct mode_grammar *g, const char *fmt, ...);

#endif
