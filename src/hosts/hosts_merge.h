/* hosts_merge.h - the figures of --hosts: each host's per workload from its
 * --json document, and the merged ones across hosts: ops/s and MB/s summed
 * (the hosts ran at once), latency percentiles from the sum of their
 * histograms (exact: never an average of percentiles), and the outliers
 * (ops/s or p99 further than a stated % from the median host's). */
#ifndef REBENCH_HOSTS_MERGE_H
#define REBENCH_HOSTS_MERGE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/hist.h"
#include "core/json_read.h"

struct host_fig {
	bool known;		/* the host has a result for the workload */
	char status[32];	/* the document's: complete, interrupted, ... */
	double ops_per_s, mb_per_s;
	double ios;
	double min, avg, p50, p90, p99, p999, max;	/* latency, us */
	size_t hosts;		/* merged: how many hosts it sums */
	/* outliers (a host): how far from the median host, % */
	bool outlier;
	double ops_dev_pct, p99_dev_pct;
};

/* A --json document's workload k (from 0) into f, and its histogram
 * added to h (hist_init'ed by the caller); 0, or -EINVAL with why (no
 * results, no latency_hist: an older rebench). */
int hosts_fig_of(const struct json_value *doc, size_t k, struct host_fig *f,
		 struct hist *h, char *why, size_t len);

/* The merged figure from the summed histogram h and the hosts' figs (the
 * known ones summed). */
void hosts_fig_merge(const struct host_fig *figs, size_t nhosts,
		     const struct hist *h, struct host_fig *merged);

/* Mark the outliers of the known figs: ops/s or p99 more than pct % from
 * the median of the known hosts (3 of them at least; fewer: none);
 * returns how many. */
size_t hosts_outliers(struct host_fig *figs, size_t nhosts, double pct);

#endif
