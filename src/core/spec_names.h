/* spec_names.h - the names of a spec's enum values (-o, -w, --direction,
 * -u, --fadvise) with their help: the option table lists them (cli/
 * options.c), and every layer that prints a spec names its values from
 * here, not from the option table above it. */
#ifndef REBENCH_SPEC_NAMES_H
#define REBENCH_SPEC_NAMES_H

/* A value of an enumerated option: its name, its value, its help. */
struct opt_value {
	const char *name;
	int value;
	const char *help;
};

/* Each ends with a NULL name. */
extern const struct opt_value verify_algo_values[];	/* --verify */
extern const struct opt_value verify_mode_values[];	/* --verify-mode */
extern const struct opt_value op_values[];		/* -o: enum io_op */
extern const struct opt_value workload_values[];	/* -w: 0 rnd, 1 seq */
extern const struct opt_value direction_values[];	/* enum io_dir */
extern const struct opt_value dist_values[];		/* -u: enum dist_kind */
extern const struct opt_value fadvise_values[];		/* enum fadvise_hint */

/* The first name of value in the list v (pow, not exp), or "?". */
const char *opt_values_name(const struct opt_value *v, int value);

#endif
