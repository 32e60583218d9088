/* section_p9999.c - the 99.99th percentile of the latency of the data
 * I/Os (as the headline latency: flushes apart, stats.h): a human line
 * after the headline latency.  JSON has it already (latency_us.p99_99),
 * and -n does not take it: a new field there is a new -n version.  Over
 * fewer than 100000 I/Os fewer than 10 lie beyond it, and it moves from
 * run to run (rebench(1)). */
#include <stdio.h>

#include "report/section.h"
#include "report/summary.h"

static void p9999_human(FILE *f, const struct section_ctx *c)
{
	struct lat_summary l;

	lat_summarize(c->res, &l);
	fprintf(f, "Latency p99.99 (us): %.1f\n", l.p9999);
}

const struct section section_p9999 = {
	.name = "p99.99",
	.human = { [HUMAN_LATENCY] = p9999_human },
};
