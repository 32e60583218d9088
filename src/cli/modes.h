/* modes.h - rebench's modes as one table, as git's and perf's commands:
 * each is a first word (rebench probe /dev/sdb1, rebench record LOG --
 * COMMAND) and the option it has always been (--probe, --record ...),
 * which stays an alias.  The table gives --help its synopsis, and main()
 * the modes with a grammar of their own, in the order they are asked.
 */
#ifndef REBENCH_MODES_H
#define REBENCH_MODES_H

#include <stdbool.h>
#include <stdio.h>

struct mode_grammar;

#define MODE_MAX_USAGE 3

struct mode {
	const char *name;	/* the first word: rebench NAME ... */
	const char *option;	/* the same as an option word, or NULL (run) */
	/* --help's synopsis lines: the command after "rebench ", and what
	 * it does */
	struct { const char *args, *what; } usage[MODE_MAX_USAGE];
	/* A grammar of its own (the rest take the option table): is it
	 * asked for in argv, and its main; NULL for the others. */
	bool (*wanted)(int argc, char **argv);
	int (*run)(int argc, char **argv);
	int order;		/* 1, 2 ...: which is asked first, when
				 * wanted() of two could say yes (--emulate
				 * takes --record) */
	bool command;		/* its status is its COMMAND's, which a stop
				 * never changes */
	/* its words, for --help all and rebench(1)'s OPTIONS; NULL: the
	 * option table's (or none) */
	const struct mode_grammar *grammar;
};

extern const struct mode modes[];
extern const size_t mode_count;

/* The mode named by argv[1] as a first word, or NULL. */
const struct mode *mode_named(int argc, char **argv);

/* argv with a first-word mode spelled as its option (rebench record L --
 * C: rebench --record L -- C; rebench run ...: rebench ...), in *out
 * (argc + 1 pointers, NULL-terminated); the new argc.  Without a mode
 * word, a copy of argv. */
int mode_as_options(int argc, char **argv, char **out);

/* A mode with a grammar of its own that argv asks for: its exit status
 * (*command: a COMMAND's), or -1 for the option table's modes. */
int mode_run_own(int argc, char **argv, bool *command);

/* --help's synopsis: each mode's usage lines. */
void modes_print_usage(FILE *f,
		       void (*line)(FILE *f, const char *cmd, const char *text));

#endif
