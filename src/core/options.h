/* options.h - the one option table.
 *
 * Each entry names the option (long, letter), its value type, where the value
 * goes (an offset into struct spec or struct run_opts), its default as shown
 * to users, and its help.  The same table parses argv and stdin lines, prints
 * --help and is checked by the unit tests against the man page.
 */
#ifndef REBENCH_OPTIONS_H
#define REBENCH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/spec.h"
#include "core/spec_names.h"

enum opt_type {
	OPT_FLAG,	/* bool, no value */
	OPT_SIZE,	/* uint64_t bytes, k/m/g suffixes */
	OPT_BSIZE,	/* -b: a size, a size split or a range (mix.h) */
	OPT_OPS,	/* -o: an operation name or an operation mix */
	OPT_COUNT,	/* uint64_t plain integer */
	OPT_ENUM,	/* int, one of opt->values */
	OPT_DIST,	/* int + dist_arg: NAME[:PARAM] */
	OPT_ENGINE,	/* int, engine registry index, fio aliases accepted */
	OPT_PERCENT,	/* double in [0,100] */
	OPT_DOUBLE,	/* double > 0 */
	OPT_DURATION,	/* struct amount: time, bytes or % */
	OPT_EXTENT,	/* struct amount: bytes or % */
	OPT_TIME,	/* uint64_t ns; bare number in opt->unit_ns */
	OPT_STRING,	/* char * */
	OPT_SEED,	/* uint64_t, a whole number; never swept */
	OPT_DELAY,	/* struct delay_set: --delay's spec (delay.h); never swept */
	OPT_SYNC,	/* struct sync_policy: --sync's policy (syncpol.h) */
	OPT_RATE,	/* struct rate_spec: --rate's ops/s or SIZE/s (rate.h) */
};

enum opt_scope {
	SCOPE_WORKLOAD,	/* struct spec: command line and stdin lines */
	SCOPE_RUN,	/* struct run_opts: command line only */
};

struct opt_desc {
	const char *name;
	char letter;		/* 0: long only */
	enum opt_type type;
	enum opt_scope scope;
	size_t off;
	const char *metavar;
	const char *defval;	/* as shown in --help */
	const char *help;
	const struct opt_value *values;
	uint64_t min, max;	/* sizes and counts: max 0 = none; percentages:
				 * max 0 = 100, min 1 = 0 excluded */
	uint64_t unit_ns;	/* OPT_TIME: unit of a bare number */
};

extern const struct opt_desc opt_table[];
extern const size_t opt_count;

/* The engines' own options (engines/engine_opts.h) are in no table here:
 * the parser finds them in the engines', and they take their place after
 * this option wherever options are listed in order (--help, "did you
 * mean", options_first_given()). */
#define OPT_ENGINE_OPTS_AFTER "batch"

/* Every option in that order: opt_table's, with each of the engines' own
 * (once per name) as a workload flag whose field is in its engine's block
 * of struct spec.  Start from a zeroed iterator. */
struct opt_iter {
	const struct opt_desc *o;	/* the option */
	uint64_t bit;			/* its bit in spec->given; 0: a run
					 * option */
	size_t next;			/* opt_table's next */
	bool in_engines;		/* among the engines' own */
	int k;				/* the engines' own next */
	struct opt_desc own;		/* o, for one of the engines' own */
};

bool options_next(struct opt_iter *it);
/* The engines' own option name (its first engine's) in buf; NULL when no
 * engine has one by that name. */
const struct opt_desc *options_find_engine(const char *name,
					   struct opt_desc *buf);
/* The first workload option given for s (spec.h), in that order, that is
 * not one of skip (NULL-terminated, or NULL); NULL when none is. */
const char *options_first_given(const struct spec *s,
				const char *const *skip);

struct parse_ctx;

/* Where the parser sends an option's range or list (A..B/STEP, a,b,c).
 * The sweep (sweep.h) provides these hooks, so the parser does not depend
 * on it; without them ranges are refused. */
struct range_hooks {
	int (*add)(void *arg, const struct opt_desc *o, const char *text,
		   const struct parse_ctx *ctx);
	/* a plain value given after a range replaces it */
	void (*remove)(void *arg, const struct opt_desc *o);
};

/* Where an error happened, for messages, and where ranges go. */
struct parse_ctx {
	unsigned line;
	const char *source;	/* "command line" or "stdin" */
	void *ranges_arg;	/* what ranges->add gets; NULL: refused */
	const struct range_hooks *ranges;
	const char *file;	/* lines of a suite file: its name in
				 * messages instead of "stdin" */
	const char *alias;	/* fio's name the option was given as (--bs),
				 * for messages; NULL: its own */
	struct argv_map *map;	/* options_parse() fills it, when set */
};

/* What each word of a parsed command line was, so that --hosts can pass
 * the workloads on without its own options: the option it belongs to
 * (its name, or its value after it), "--", or the target. */
enum argv_role { ARGV_OPTION, ARGV_VALUE, ARGV_SEPARATOR, ARGV_TARGET };

struct argv_map {
	int n;				/* words */
	enum argv_role *role;		/* n of them */
	const struct opt_desc **opt;	/* n: the option (NULL for a fio
					 * spelling, "--" and the target) */
};

/* Is this value a range or a list (the sweep syntax)? */
bool options_is_range(const char *val);

/*
 * options_parse.c: parse argv-style words into spec (workload options) and run (run-wide
 * options; NULL refuses them, as on stdin lines).  The one non-option word
 * becomes spec->target.  Returns 0, or -EINVAL after printing an error that
 * names the option, the value, the line and what is valid.
 */
int options_parse(int argc, char **argv, struct spec *spec,
		  struct run_opts *run, const struct parse_ctx *ctx);

/* Split a stdin line into words (whitespace, '...' and "..." quoting,
 * '#' starts a comment).  Returns the word count or -EINVAL. */
int options_split_line(char *line, char **words, int max_words);

/* --NAME of the engines' own (o from options_find_engine()): set the flag
 * in the block of every engine that takes it. */
int options_apply_engine_flag(const struct opt_desc *o, struct spec *spec,
			      const struct parse_ctx *ctx);

/* Set one workload option from its text, as if typed (no ranges). */
int options_set(struct spec *spec, const struct opt_desc *o, const char *val,
		const struct parse_ctx *ctx);

/* Set option o from val (NULL for a flag) as if typed: into spec or run,
 * or to the sweep when val is a range or list.  0 or -EINVAL after a
 * message. */
int options_apply(const struct opt_desc *o, const char *val, struct spec *spec,
		  struct run_opts *run, const struct parse_ctx *ctx);
/* Setters for code that builds a spec (a replay's, from its log), never
 * a command line written to be parsed: the workload option name set to
 * val (NULL for a flag; v followed by unit, "" or "b" for bytes of -d)
 * through the option's own parser, with its checks and messages, and
 * marked given.  0, or -EINVAL after the parser's message. */
int spec_set(struct spec *s, const char *name, const char *val,
	     const struct parse_ctx *ctx);
int spec_set_flag(struct spec *s, const char *name,
		  const struct parse_ctx *ctx);
int spec_set_count(struct spec *s, const char *name, uint64_t v,
		   const char *unit, const struct parse_ctx *ctx);
/* For messages: "stdin line 3: " (or ""), and an option's name as given,
 * "-b/--block-size" or, through an fio alias, "--bs (-b/--block-size)". */
void options_where(const struct parse_ctx *ctx, char *buf, size_t len);
void options_label(const struct opt_desc *o, const struct parse_ctx *ctx,
		   char *buf, size_t len);

const struct opt_desc *options_find_long(const char *name);
const struct opt_desc *options_find_letter(char c);
int options_index(const struct opt_desc *o);
bool spec_given(const struct spec *s, const char *long_name);
/* Was the run option long_name given on the command line? */
bool run_given(const struct run_opts *run, const char *long_name);

const char *opt_value_name(const struct opt_desc *o, int value);

#endif
