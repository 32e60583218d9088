/* compare.h - rebench --compare A.json B.json: is B faster than A?
 *
 * For each workload (of each sweep point) and each metric, the ratio B/A
 * with a 95% interval and a verdict.  The interval, by what both sides
 * have:
 *
 *   --repeat runs (n >= 2 each): Welch's t on the logarithms of the runs'
 *     values; the ratio is that of their geometric means,
 *     exp(mean ln B - mean ln A) * exp(+- t(0.975, df) * se) with
 *     se = sqrt(var ln A / nA + var ln B / nB) and df by Welch-Satterthwaite;
 *   otherwise, for ops/s and MB/s, each run's batch-means interval
 *     (ci.h): its relative standard error s = (high - low) / 2 / mean /
 *     t(0.975, dof), then on the log scale se = sqrt(sA^2 + sB^2), df by
 *     Welch-Satterthwaite, and the ratio of the runs' figures;
 *   otherwise no interval (a single run's latency, a run too short for
 *     batch means): the ratio alone.
 *
 * Verdict: faster or slower when the interval leaves out 1 (for a latency
 * a ratio below 1 is faster), else no difference detectable.
 */
#ifndef REBENCH_COMPARE_H
#define REBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

/* One side's figure of one metric. */
struct cmp_side {
	double value;		/* the run's (with --repeat: the median) */
	const double *runs;	/* --repeat: every run's value, else NULL */
	size_t nruns;
	/* batch means (ops/s, MB/s; ops_ci scaled), dof 0: none */
	double ci_mean, ci_low, ci_high;
	unsigned dof;
};

enum cmp_method { CMP_NONE, CMP_REPEAT, CMP_BATCH };
enum cmp_verdict { CMP_NO_INTERVAL, CMP_SAME, CMP_FASTER, CMP_SLOWER };

struct cmp_result {
	double ratio;		/* B / A */
	double low, high;	/* its 95% interval; NaN without one */
	double df;		/* the t's degrees of freedom (Welch) */
	enum cmp_method method;
	enum cmp_verdict verdict;
};

/* B against A; lower_better for latencies. */
void compare_ratio(const struct cmp_side *a, const struct cmp_side *b,
		   bool lower_better, struct cmp_result *out);

/* "repeat", "batch-means", "none"; "faster", "slower", "same" (no
 * difference detectable), "no-interval". */
const char *compare_method_name(enum cmp_method m);
const char *compare_verdict_name(enum cmp_verdict v);

/* rebench --compare A.json B.json [-n | --json] [--plot FILE]: the
 * exit status (rebench(1), COMPARE). */
bool compare_wanted(int argc, char **argv);
int compare_main(int argc, char **argv);
/* Its words (mode_args.h), for --help all and rebench(1)'s OPTIONS. */
extern const struct mode_grammar compare_grammar;

#endif
