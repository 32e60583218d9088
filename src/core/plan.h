/* plan.h - the workloads of one run (one sweep point): the run context. */
#ifndef REBENCH_PLAN_H
#define REBENCH_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/spec.h"
#include "core/precondition.h"
#include "core/workload.h"


struct progress;
struct repeat_state;
struct steady_data;

/* Exit statuses, documented in rebench(1). */
enum exit_status {
	EXIT_OK = 0,
	EXIT_BAD_ARGS = 1,
	EXIT_PREP_FAILED = 2,
	EXIT_IO_FAILED = 3,
	EXIT_PLOT_FAILED = 4,
	EXIT_OUTPUT_FAILED = 5,	/* stdout or a data file could not be written */
	EXIT_HOST_FAILED = 6,	/* --hosts: a host failed; the others' results
				 * were reported */
	EXIT_INTERRUPTED = 130,
};

/*
 * The workloads of one run (a single run, one of its --repeat runs, one
 * sweep point), from the plan to the run to the reports.  Empty when
 * zeroed.  wls grows with add_workload() and is kept by cleanup_all(), so
 * the next run (a --repeat run, a sweep point) reuses it in place: a
 * workload's creator and a kept --repeat run point into it.  From
 * run_ctx_new(), given back by run_ctx_free().
 */
struct run_ctx {
	struct workload *wls;	/* [cap], the first n in use */
	size_t n;
	size_t cap;
	/* all workloads together, after a run of more than one: on the
	 * heap with the context (its histograms are 240 KB) */
	struct result *total;
	bool have_total;
	const struct repeat_data *total_rep;	/* --repeat: the total's */
	uint64_t spent_ns;	/* wall time of its runs, preparation and
				 * every --repeat run included */
	/* --repeat and the rounds of --steady-state: their figures over the
	 * runs (stats/repeat_run.c, stats/steady_run.c), else NULL */
	struct repeat_state *repeat;
	struct steady_data *steady;	/* [steady_n] */
	struct precond_memo precond;	/* --precondition: once per rebench
					 * run, its first run's record */
	size_t steady_n;
	/* what its runs are given: the watchers that follow them from the
	 * main thread (main adds the progress line and --precision) and
	 * --start-at; and the progress line's state */
	struct run_env env;
	struct progress *progress;
	/* --plot without a sweep: the series it draws, a temporary file
	 * (removed at the end) when there is no --output */
	char series_path[PATH_MAX];
	bool series_is_temp;
};

/* Append a workload copied from s; 0 or -errno after a message. */
int add_workload(struct run_ctx *ctx, const struct spec *s);
/* One workload per stdin line, command-line options as defaults. */
int read_stdin_specs(struct run_ctx *ctx, const struct spec *base);
/* Does stdin hold data now: a pipe, FIFO or socket with bytes to read
 * (FIONREAD > 0), or a regular file with bytes past its offset?  A
 * terminal, /dev/null, an empty file, a closed stdin or a pipe nothing has
 * been written to yet do not.  What it says: "a pipe", "a file", "a FIFO". */
bool stdin_holds_data(const char **what);
uint64_t random_seed(void);
/* Check and resolve every workload against its target; no I/O. */
int validate_all(struct run_ctx *ctx, const struct spec *base);
int drop_caches(void);
/* --output must be writable before the run, not discovered after it:
 * the rule of outpath.h, and not the target of any workload. */
int check_output_path(const struct run_ctx *ctx, const struct spec *s);
/* path (named what in messages) is none of the workloads' targets. */
int check_path_free(const struct run_ctx *ctx, const char *what,
		    const char *path);
/*
 * Prepare every workload, drop the caches when asked, and run them together
 * (after run->warmup_ns).  EXIT_OK, EXIT_IO_FAILED when an I/O failed (the
 * results are kept), or the status of a failed preparation (also when
 * the threads cannot all be created: none has done any I/O).
 */
int prepare_and_run(struct run_ctx *ctx, const struct run_opts *run,
		    bool *interrupted);
/* Free every workload and drop the device claims; the set is empty after. */
void cleanup_all(struct run_ctx *ctx);
/* An empty run context, or NULL after a message. */
struct run_ctx *run_ctx_new(void);
/* cleanup_all(), then the context and its workloads' array go. */
void run_ctx_free(struct run_ctx *ctx);

#endif
