/* report.h - writers for results: classic human, terse (-n), JSON, the
 * --output TSV series, and the messages on standard error.  They only read
 * workloads; no I/O to targets.
 *
 * Output formats are a table of writers (report_writers[]), each a set of
 * hooks: begin once, report once per run (a single run, the last of its
 * --repeat runs, or each point of a sweep), end once.  Which of them run is
 * decided once, from the run options (report_open), and single runs,
 * repeats and sweeps drive them alike: a new format is one file defining
 * its struct report_writer and one entry in report_writers[].
 */
#ifndef REBENCH_REPORT_H
#define REBENCH_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct repeat_data;
struct result;
struct run_opts;
struct workload;
struct replay_result;
struct suite;
struct sweep;
struct sweep_axis;
struct sweep_order;

/* One run's results, as every writer sees them. */
struct report {
	const struct workload *wls;
	size_t n;
	bool interrupted;
	size_t point;		/* in a sweep: the point, from 0; in a
				 * suite: the test */
	/* all workloads together when several ran (result_merge), else
	 * NULL: fio's group reporting */
	const struct result *total;
	const struct repeat_data *total_rep;	/* --repeat: the total's */
	/* a mode's own figures after the workloads' (--replay's), and
	 * their argument; NULL: none */
	const struct report_extra *extra;
	const void *extra_arg;
	double seconds;		/* wall time the run (a sweep's point, with
				 * its --repeat runs) took, preparation
				 * included; 0 when unknown */
};

struct json;

/* Figures a mode adds after the workloads' (--replay's), in each format:
 * the mode fills the hooks (trace/report_replay.c), so no writer includes
 * the mode. */
struct report_extra {
	void (*human)(FILE *f, const void *arg);
	void (*terse)(FILE *f, const void *arg);
	void (*json)(struct json *j, const void *arg);
};

/* A study whose reports are items of its own (--suite's tests), printed
 * as a table: its hooks, which the writers call where a plain run prints
 * its blocks; the study fills them (study/report_suite.c). */
struct report_study {
	void (*human_head)(FILE *f, const void *arg);
	void (*human_row)(FILE *f, const void *arg, const struct report *r);
	void (*json_begin)(struct json *j, const void *arg);	/* "tests" */
	void (*json_item)(struct json *j, const void *arg, size_t point);
	void (*terse_suffix)(const void *arg, size_t point, char *buf,
			     size_t len);
};

/* What the writers are told once, before the first report. */
struct report_scope {
	const struct run_opts *run;
	FILE *out;		/* standard output (a test's buffer in tests) */
	const struct sweep *sw;	/* NULL: one run and its --repeat runs */
	const char *table;	/* sweep: the --output file that takes a
				 * copy of the table (the driver writes it),
				 * or NULL; the table goes to out either way
				 * (the human writer) */
	/* a study whose reports are its items (--suite: each report is a
	 * test, report.point), and its argument; NULL: none */
	const struct report_study *study;
	const void *study_arg;
	const struct sweep_order *order;	/* a sweep's --order, or NULL */
	unsigned table_cols;	/* a sweep table's optional columns (TSV_*,
				 * section.h) */
	/* a sweep of --rate alone: its knee, judged after the last point
	 * (the writers read it at their end); NULL: none */
	const struct load_curve *curve;
};

struct report_set;

/* One writer at work: its hooks, and what it keeps between them. */
struct report_out {
	const struct report_writer *w;
	const struct report_scope *scope;
	const struct report_set *set;
	bool shows_warnings;	/* begin says: warnings are in its output */
	bool uses_stdout;	/* begin says: it writes to scope->out */
	bool open_line;		/* begin says: between reports, its last
				 * line on scope->out is left unfinished */
	void *priv;		/* the writer's own state, begin to end */
};

/*
 * A format.  Hooks return 0, or -errno after printing what failed (the
 * driver then exits with EXIT_OUTPUT_FAILED); a missing hook does nothing.
 */
struct report_writer {
	const char *name;
	/* Does a run with these options want it?  Asked once. */
	bool (*wanted)(const struct run_opts *run);
	int (*begin)(struct report_out *o);
	int (*report)(struct report_out *o, const struct report *r);
	int (*end)(struct report_out *o);
};

extern const struct report_writer report_human_writer;
extern const struct report_writer report_terse_writer;
extern const struct report_writer report_json_writer;
extern const struct report_writer report_stderr_writer;
extern const struct report_writer report_series_writer;

/* Every writer, in the order they run: the standard output formats, then
 * the messages on standard error (which need to know whether warnings were
 * shown), then the files. */
extern const struct report_writer *const report_writers[];
extern const size_t report_nwriters;

#define REPORT_MAX_WRITERS 8

/* The writers a run uses, chosen once from its options. */
struct report_set {
	struct report_scope scope;
	struct report_out out[REPORT_MAX_WRITERS];
	size_t n;
};

/* Choose the writers scope->run wants and begin them; 0 or -errno. */
int report_open(struct report_set *set, const struct report_scope *scope);
/* One run's results to every writer of the set; 0 or the first -errno. */
int report_emit(struct report_set *set, const struct report *r);
/* End every writer; 0 or the first -errno. */
int report_close(struct report_set *set);
/* Is some writer of the set showing the warnings (else stderr has them)? */
bool report_shows_warnings(const struct report_set *set);
/* Does some writer of the set write to standard output? */
bool report_uses_stdout(const struct report_set *set);
/* Does some writer of the set leave a line unfinished between reports? */
bool report_open_line(const struct report_set *set);
/* One writer alone, begin to end, for one run: for tests and tools. */
int report_write(const struct report_writer *w,
		 const struct report_scope *scope, const struct report *r);

/* A sweep's table (--output, or standard output): the header, and a row per
 * workload of a point; and a swept value as the table, -n and JSON give it
 * (times in the option's own unit). */
/* The table's header; cols: its optional columns (TSV_*, section.h). */
void report_table_header(FILE *f, const struct sweep *sw, unsigned cols);
void report_table_rows(FILE *f, const struct sweep *sw, const struct report *r,
		       unsigned cols);
void report_sweep_cell(const struct sweep_axis *ax, size_t i, char *buf,
		       size_t len);

struct run_ctx;
/* The run's results as the writers take them (point: a sweep's). */
void run_ctx_report(const struct run_ctx *ctx, bool interrupted, size_t point,
		    struct report *r);

#endif
