/* engine_opts.h - the options an engine owns, fio-style.
 *
 * As fio's engines declare a struct fio_option[] over their own option
 * struct, an engine here declares a table of struct engine_opt whose
 * fields are offsets into its own option struct.  A workload's spec keeps
 * one opaque block per engine (struct engine_opts); only the engine reads
 * its block, and only the engine's file names its options.  The option
 * parser finds an option in these tables when its own table has none, and
 * the writers ask the engine to describe its block (engine.h).
 */
#ifndef REBENCH_ENGINE_OPTS_H
#define REBENCH_ENGINE_OPTS_H

#include <stddef.h>
#include <stdint.h>

#define ENGINE_MAX 8		/* engines in the registry, at most */
#define ENGINE_OPTS_SIZE 16	/* bytes of an engine's option struct, at most */

/* An engine's option struct, as the spec keeps it; all zero is every
 * option's default. */
struct engine_opts {
	union {
		unsigned char b[ENGINE_OPTS_SIZE];
		uint64_t align_;
	};
};

/* One option of an engine: a flag (a bool at off in the engine's option
 * struct) given as --NAME. */
struct engine_opt {
	const char *name;
	size_t off;
	const char *help;	/* --help's text; its default is "off" */
	const char *fio;	/* fio's name for it, when not NAME: an
				 * unknown --FIO says to use --NAME */
};

#endif
