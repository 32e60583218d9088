/* hosts_result.h - what a --hosts run measured, point by point (one point
 * without a sweep), for its writers (hosts_out.c). */
#ifndef REBENCH_HOSTS_RESULT_H
#define REBENCH_HOSTS_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hosts/hosts.h"
#include "hosts/hosts_merge.h"

#define HOSTS_TERSE_VERSION 1

/* One host's run of one point. */
struct host_run {
	enum host_state state;
	char reason[1024];	/* why not HOST_OK */
	/* its --json document, as printed, when it passed the checks of
	 * hosts_doc.h and --json shows it (else NULL); counted in the
	 * memory budget, text_charged bytes */
	char *text;
	size_t len, text_charged;
	/* ... parsed, until the point's figures are merged */
	struct json_value *doc;
	uint64_t doc_charged;
	uint64_t late_ns;	/* how late it started (its start_at) */
};

struct hosts_point {
	size_t index;		/* the sweep's point, from 0 */
	char values[512];	/* "block-size=4096 queue-depth=8", or "" */
	uint64_t start_ns;	/* the common start, this machine's clock */
	struct host_run *run;	/* a host each */
	size_t nwl;		/* workloads */
	struct host_fig *fig;	/* [host * nwl + workload] */
	struct host_fig *merged;	/* [workload] */
	size_t outliers;	/* host figures marked */
};

struct hosts_result {
	const struct host_list *hosts;
	const struct run_opts *run;
	const struct spec *base;	/* what each host runs (its target may
					 * be the host's own) */
	const struct sweep *sw;	/* NULL without one */
	double outlier_pct;
	uint64_t max_offset_ns;
	struct hosts_point *pt;
	size_t npt;		/* points that ran */
	bool interrupted;
};

const char *host_state_name(enum host_state s);

void hosts_human(FILE *f, const struct hosts_result *r);
/* Each host that failed, a line each: "rebench: [point N (VALUES): ]host
 * H: STATUS: REASON" (stderr, beside -n's lines). */
void hosts_failures(FILE *f, const struct hosts_result *r);
void hosts_terse(FILE *f, const struct hosts_result *r);
void hosts_json(FILE *f, const struct hosts_result *r);
/* --output: a row per point, host and workload, and the merged rows,
 * written under outpath.h's rule; 0, or -errno after a message. */
int hosts_tsv(const char *what, const char *path,
	      const struct hosts_result *r);
/* --plot: the TSV at tsv drawn by plots/hosts.gp. */
int hosts_plot(const char *tsv, const char *plot, const char *note,
	       const struct hosts_result *r);

#endif
