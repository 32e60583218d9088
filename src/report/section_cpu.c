/* section_cpu.c - the CPU the run's threads used (stats.h: getrusage of
 * each worker thread over the measured run): the human "CPU:" line, JSON
 * results.cpu, -n fields 113-117 (TERSE_FIELD_CPU ..) and the sweep
 * table's cpu_us_io. */
#include <math.h>
#include <stdio.h>

#include "core/json.h"
#include "report/section.h"
#include "report/summary.h"

/* "CPU: usr 0.412 s, sys 1.204 s, 8.6 us per I/O; 10234 voluntary and 12
 * involuntary context switches (4 threads)": per data I/O (flushes not
 * counted). */
static void cpu_human(FILE *f, const struct section_ctx *c)
{
	const struct result *r = c->res;
	double per = result_cpu_us_per_io(r);

	fprintf(f, "CPU: usr %.3f s, sys %.3f s, ", (double)r->cpu.user_us / 1e6,
		(double)r->cpu.sys_us / 1e6);
	if (isnan(per))
		fprintf(f, "no data I/O");
	else
		fprintf(f, "%.1f us per I/O", per);
	fprintf(f, "; %llu voluntary and %llu involuntary context switches (%zu thread%s)\n",
		(unsigned long long)r->cpu.nvcsw,
		(unsigned long long)r->cpu.nivcsw, r->cpu_nthreads,
		r->cpu_nthreads == 1 ? "" : "s");
}

/* One thread's CPU, or the sum's, in seconds and switches. */
static void put_cpu_use(struct json *j, const struct cpu_use *c)
{
	json_num(j, "user_s", (double)c->user_us / 1e6);
	json_num(j, "system_s", (double)c->sys_us / 1e6);
	json_u64(j, "ctx_voluntary", c->nvcsw);
	json_u64(j, "ctx_involuntary", c->nivcsw);
}

/* results.cpu: the sum, per data I/O, and each thread's. */
static void cpu_json(struct json *j, const struct section_ctx *c)
{
	const struct result *r = c->res;
	double per = result_cpu_us_per_io(r);
	size_t i;

	json_obj_begin(j, "cpu");
	put_cpu_use(j, &r->cpu);
	if (isnan(per))
		json_null(j, "us_per_io");
	else
		json_num(j, "us_per_io", per);
	json_arr_begin(j, "threads");
	for (i = 0; i < r->cpu_nthreads; i++) {
		json_obj_begin(j, NULL);
		put_cpu_use(j, &r->cpu_thread[i]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* Fields 113-117: user and system CPU seconds, CPU microseconds per data
 * I/O ("-" without any), voluntary and involuntary context switches. */
static void cpu_terse(FILE *f, const struct section_ctx *c)
{
	const struct result *res = c->res;

	fprintf(f, " %.6f %.6f", (double)res->cpu.user_us / 1e6,
		(double)res->cpu.sys_us / 1e6);
	report_put_num(f, ' ', "%.3f", result_cpu_us_per_io(res));
	fprintf(f, " %llu %llu", (unsigned long long)res->cpu.nvcsw,
		(unsigned long long)res->cpu.nivcsw);
}

/* CPU microseconds per data I/O */
static void cpu_tsv(FILE *f, const struct section_ctx *c)
{
	report_put_num(f, '\t', "%.3f", result_cpu_us_per_io(c->res));
}

const struct section section_cpu = {
	.name = "cpu",
	.human = { [HUMAN_TOTALS] = cpu_human },
	.json = { [JSON_FLUSHES] = cpu_json },
	.terse = { [TERSE_PASSES] = cpu_terse },
	.tsv_head = "\tcpu_us_io",
	.tsv = cpu_tsv,
};
