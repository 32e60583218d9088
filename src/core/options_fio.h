/* options_fio.h - fio's spellings of rebench's options.
 *
 * A fio user types --bs=4k --iodepth=32 --rw=randread: where fio's option
 * means what one of rebench's does, its name is accepted as an alias that
 * sets rebench's option (or options: --rw sets -o and -w), on the command
 * line and on stdin lines alike, through the same parser, so the values,
 * ranges, lists and error messages are the option's own; a message names
 * both, "--bs (-b/--block-size)".  Where fio's meaning differs the alias
 * refuses the value (--bs=4k,8k: fio's separate read and write sizes) or
 * prints a note (--size: fio's also ends the job).  fio options with no
 * alias but a rebench counterpart get a hint when refused.
 *
 * The table is separate from opt_table (options.h): an alias is not an
 * option of its own, and --help and rebench(1) list them apart ("fio
 * spellings").
 */
#ifndef REBENCH_OPTIONS_FIO_H
#define REBENCH_OPTIONS_FIO_H

#include <stdbool.h>
#include <stdio.h>

#include "core/options.h"

struct fio_alias;

/* What an alias sets: the parse's workload, run options and context. */
struct fio_set {
	struct spec *spec;
	struct run_opts *run;		/* NULL on stdin lines */
	const struct parse_ctx *ctx;	/* with ctx->alias set */
	unsigned *used;			/* bit i: fio_aliases[i] given */
};

struct fio_alias {
	const char *name;	/* fio's option name */
	const char *opt;	/* rebench's long option it sets; NULL: none */
	const char *metavar;	/* NULL: a flag, a value only after '='
				 * (fio's bools: --direct=0) */
	int (*set)(const struct fio_alias *a, const char *val,
		   const struct fio_set *st);
	const char *help;	/* for --help: the rebench form, differences */
	const char *unlike;	/* a flag's refusal of "=0": what rebench
				 * always does instead */
};

extern const struct fio_alias fio_aliases[];
extern const size_t fio_alias_count;

/* The alias called name ('_' and '-' alike), or NULL. */
const struct fio_alias *fio_alias_find(const char *name);
/* Apply alias a with its value (NULL for a flag given bare); 0 or -EINVAL
 * after a message. */
int fio_alias_apply(const struct fio_alias *a, const char *val,
		    const struct fio_set *st);
/* A workload with a fio spelling among its options (on its line or the
 * command line) takes fio's defaults for what none of its options says,
 * so a line a fio user types does what fio would: no sync (fio's sync=none,
 * fsync=0: rebench's own default is O_DSYNC) unless --sync, -f or fio's
 * --sync=1, --fsync, --fdatasync, --end_fsync say, and the page cache
 * (fio's direct=0: rebench's own default is O_DIRECT) unless -p or
 * --direct says; and fio's bs=4k, rw=read (sequential) and
 * ioengine=psync (-t stateless) where -b, -w or -t are not said.  Sets
 * them, and spec's fio_default_* flags for the
 * output; after every parse of a fio-spelled workload. */
void fio_defaults(struct spec *s);
/* After one parse (command line or stdin line): notes on stderr where
 * the aliases in used mean something other than in fio. */
void fio_alias_notes(unsigned used, const struct spec *spec,
		     const struct parse_ctx *ctx);
/* The hint for an fio option with no alias (--bssplit: "-b takes ..."),
 * in buf or a constant, or NULL. */
const char *fio_option_hint(const char *name, char *buf, size_t len);

#endif
