/* latency_target.c - --latency-target's search (latency_target.h). */
#include "study/latency_target.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/options.h"
#include "core/plan.h"
#include "core/sweep.h"
#include "core/units.h"
#include "core/validate.h"
#include "report/summary.h"

#define LT_MAX_STEPS 16
#define LT_BISECTIONS 4
#define LT_HALVINGS 8		/* down to X / 256 */
#define LT_STEP_NS (2 * NSEC_PER_SEC)	/* a step without -d */

struct lt_step {
	double asked;		/* ops/s; 0: step 0, no rate */
	double achieved;
	double p_intended, p_submitted;	/* us */
	bool rate_met, held;
	uint64_t ios;
};

struct lt_search {
	struct latency_target t;
	struct lt_step step[LT_MAX_STEPS];
	size_t n;
	int best;		/* the step with the highest rate that held, -1 */
	double max_ops;		/* step 0's ops/s */
	uint64_t step_ns;
	bool interrupted;
};

int latency_target_parse(const char *text, struct latency_target *t,
			 char *err, size_t len)
{
	const char *lt = strchr(text, '<');
	char pct[32];
	char *end;
	size_t n;

	if (text[0] != 'p' || !lt) {
		snprintf(err, len, "expected a percentile and a bound, pNN<BOUND, such as p99<2ms or p99.9<500us");
		return -EINVAL;
	}
	n = (size_t)(lt - text - 1);
	if (!n || n >= sizeof(pct)) {
		snprintf(err, len, "no percentile before '<': write it as p99, p99.9 or p50 (p99<2ms)");
		return -EINVAL;
	}
	memcpy(pct, text + 1, n);
	pct[n] = '\0';
	t->pct = strtod(pct, &end);
	if (*end || !(t->pct > 0 && t->pct < 100)) {
		snprintf(err, len, "the percentile p%s is not a number above 0 and below 100: write p99, p99.9 or p50", pct);
		return -EINVAL;
	}
	if (!lt[1]) {
		snprintf(err, len, "no bound after '<': give a time with its unit, p%s<2ms or p%s<500us", pct, pct);
		return -EINVAL;
	}
	if (strspn(lt + 1, "0123456789.") == strlen(lt + 1) ||
	    parse_time(lt + 1, 1, &t->bound_ns) || !t->bound_ns) {
		snprintf(err, len, "the bound '%s' is not a time above 0 with its unit (ns, us, ms, s): p%s<2ms", lt + 1, pct);
		return -EINVAL;
	}
	return 0;
}

static int refuse(const char *fmt, const char *a)
{
	fprintf(stderr, "rebench: --latency-target: ");
	fprintf(stderr, fmt, a);
	fputc('\n', stderr);
	return EXIT_BAD_ARGS;
}

/* What the search cannot combine with. */
static int check_options(const struct spec *base, const struct run_opts *run,
			 const struct sweep *sw)
{
	static const char *const never[] = {
		"repeat", "precision", "steady-state", "precondition", "suite",
		"advise", "characterize", "hosts", "hosts-file", "plot", "fio",
		"probe", "dry-run", NULL
	};
	const char *const *o;
	struct spec tmp;

	if (sw && sw->naxes)
		return refuse("a range or list (--%s) has no place in it: the search chooses its own rates",
			      sw->axes[0].opt->name);
	if (base->rate.ops > 0 || base->rate.bytes)
		return refuse("%s: the search sets the rate of each step itself; leave --rate out (--arrival stays)",
			      "--rate");
	for (o = never; *o; o++)
		if (run_given(run, *o))
			return refuse("--%s does not combine with it; run the two apart", *o);
	if (spec_given(base, "duration") && base->duration.kind != AMOUNT_TIME)
		return refuse("-d: each step is a time (-d 2, -d 500ms), not an amount of data or a share of the region; give -d %s", "1");
	if (!base->target)
		return refuse("%s", "it measures one workload: give its target on the command line (rebench --latency-target p99<2ms -b 4k /dev/sdb)");
	/* what --rate refuses (an async engine, -z ...), before any step */
	tmp = *base;
	tmp.rate.ops = 1;
	tmp.rate.bytes = 0;
	if (spec_check(&tmp))
		return EXIT_BAD_ARGS;
	return EXIT_OK;
}

/* One step: the workload at rate ops/s (0: none), its figures in st. */
static int run_step(struct run_ctx *ctx, struct spec *base,
		    struct run_opts *run, struct lt_search *ls, double ops,
		    struct lt_step *st)
{
	const struct workload *wl;
	bool interrupted = false;
	int status;

	cleanup_all(ctx);
	if (add_workload(ctx, base))
		return EXIT_BAD_ARGS;
	ctx->wls[0].spec.rate.ops = ops;
	ctx->wls[0].spec.rate.bytes = 0;
	if (!spec_given(base, "duration")) {
		ctx->wls[0].spec.duration.kind = AMOUNT_TIME;
		ctx->wls[0].spec.duration.value = ls->step_ns;
	}
	if (validate_all(ctx, base))
		return EXIT_BAD_ARGS;
	status = prepare_and_run(ctx, run, &interrupted);
	if (interrupted)
		ls->interrupted = true;
	if (status != EXIT_OK)
		return status;
	wl = &ctx->wls[0];
	if (!wl->result.have_result || !wl->result.stats->ops_total) {
		fprintf(stderr, "rebench: --latency-target: a step on %s did no I/O\n",
			wl->tgt.path);
		return EXIT_IO_FAILED;
	}
	memset(st, 0, sizeof(*st));
	st->asked = ops;
	st->ios = wl->result.stats->ops_total;
	st->achieved = wl->result.stats->ops_per_s;
	st->p_submitted = hist_percentile(&wl->result.stats->hist, ls->t.pct) / 1e3;
	if (wl->result.rate && wl->result.rate->present) {
		st->p_intended = hist_percentile(&wl->result.rate->intended,
						 ls->t.pct) / 1e3;
		st->rate_met = wl->result.rate->met;
	} else {
		/* as fast as it goes: no schedule, each I/O starts when it
		 * is submitted */
		st->p_intended = st->p_submitted;
		st->rate_met = true;
	}
	st->held = st->rate_met &&
		   st->p_intended * 1e3 <= (double)ls->t.bound_ns;
	ls->n++;
	if (ops > 0 && st->held &&
	    (ls->best < 0 || ops > ls->step[ls->best].asked))
		ls->best = (int)(st - ls->step);
	return EXIT_OK;
}

static int search(struct run_ctx *ctx, struct spec *base,
		  struct run_opts *run, struct lt_search *ls)
{
	double lo = 0, hi, r;
	int status, k;


	status = run_step(ctx, base, run, ls, 0, &ls->step[0]);
	if (status)
		return status;
	ls->max_ops = ls->step[0].achieved;
	hi = ls->max_ops;
	/* from X down, halving while the target is missed: the steps at
	 * high rates, which hold the most I/Os, come first */
	for (r = ls->max_ops, k = 0; !ls->interrupted; r /= 2, k++) {
		status = run_step(ctx, base, run, ls, r, &ls->step[ls->n]);
		if (status)
			return status;
		if (ls->step[ls->n - 1].held) {
			lo = r;
			if (!k)
				return EXIT_OK;	/* held at the most it does */
			break;
		}
		hi = r;
		if (k == LT_HALVINGS)
			return EXIT_OK;	/* none found */
	}
	/* the bracket [lo, hi] halved */
	for (k = 0; k < LT_BISECTIONS && !ls->interrupted &&
		    ls->n < LT_MAX_STEPS; k++) {
		r = (lo + hi) / 2;
		status = run_step(ctx, base, run, ls, r, &ls->step[ls->n]);
		if (status)
			return status;
		if (ls->step[ls->n - 1].held)
			lo = r;
		else
			hi = r;
	}
	return EXIT_OK;
}

static void print_human(FILE *f, const struct lt_search *ls,
			const struct spec *base)
{
	const struct lt_step *b = ls->best >= 0 ? &ls->step[ls->best] : NULL;
	char p[16];
	size_t i;

	snprintf(p, sizeof(p), "p%g", ls->t.pct);
	fprintf(f, "Latency target on %s: %s of the latency from the intended start <= %.1f us; each step %.3f s\n",
		base->target, p, (double)ls->t.bound_ns / 1e3,
		(double)ls->step_ns / 1e9);
	fprintf(f, "step   asked ops/s  achieved ops/s     I/Os  %8s intended us  %8s submission us  rate met  target\n",
		p, p);
	for (i = 0; i < ls->n; i++) {
		const struct lt_step *s = &ls->step[i];

		if (s->asked > 0)
			fprintf(f, "%4zu  %12.1f", i, s->asked);
		else
			fprintf(f, "%4zu  %12s", i, "(no rate)");
		fprintf(f, "  %14.1f  %7llu  %20.1f  %22.1f  %8s  %s%s\n",
			s->achieved, (unsigned long long)s->ios, s->p_intended,
			s->p_submitted, s->rate_met ? "yes" : "no",
			s->held ? "held" : "missed",
			(double)s->ios * (1 - ls->t.pct / 100) < 10 ?
			" (few I/Os beyond the percentile)" : "");
	}
	if (b)
		fprintf(f, "Result: %.1f ops/s is the highest rate found whose %s from the intended start (%.1f us) is within %.1f us (as fast as it goes: %.1f ops/s)\n",
			b->asked, p, b->p_intended, (double)ls->t.bound_ns / 1e3,
			ls->max_ops);
	else
		fprintf(f, "Result: no rate found: even at %.1f ops/s the %s from the intended start was above %.1f us (the device's own %s at that rate: %.1f us)\n",
			ls->n > 1 ? ls->step[1].asked : 0, p,
			(double)ls->t.bound_ns / 1e3, p,
			ls->n > 1 ? ls->step[1].p_submitted : 0);
	for (i = 0; i < ls->n; i++)
		if ((double)ls->step[i].ios * (1 - ls->t.pct / 100) < 10)
			break;
	if (i < ls->n)
		fprintf(f, "Note: a step with fewer than 10 I/Os beyond %s has a percentile that moves from run to run; a longer -d gives each step more\n",
			p);
	if (ls->interrupted)
		fprintf(f, "Interrupted: the search stopped early\n");
}

static void print_json(FILE *f, const struct lt_search *ls,
		       const struct spec *base)
{
	struct json jw, *j = &jw;
	size_t i;

	json_init(j, f);
	report_json_head(j);
	json_obj_begin(j, "latency_target");
	json_str(j, "target", base->target);
	json_num(j, "percentile", ls->t.pct);
	json_num(j, "bound_us", (double)ls->t.bound_ns / 1e3);
	json_num(j, "step_s", (double)ls->step_ns / 1e9);
	json_num(j, "max_ops_per_s", ls->max_ops);
	json_arr_begin(j, "steps");
	for (i = 0; i < ls->n; i++) {
		const struct lt_step *s = &ls->step[i];

		json_obj_begin(j, NULL);
		if (s->asked > 0)
			json_num(j, "asked", s->asked);
		else
			json_null(j, "asked");
		json_num(j, "achieved", s->achieved);
		json_u64(j, "ios", s->ios);
		json_num(j, "intended_us", s->p_intended);
		json_num(j, "submission_us", s->p_submitted);
		json_bool(j, "rate_met", s->rate_met);
		json_bool(j, "held", s->held);
		json_obj_end(j);
	}
	json_arr_end(j);
	if (ls->best >= 0) {
		json_num(j, "rate", ls->step[ls->best].asked);
		json_num(j, "rate_intended_us", ls->step[ls->best].p_intended);
	} else {
		json_null(j, "rate");
		json_null(j, "rate_intended_us");
	}
	json_bool(j, "interrupted", ls->interrupted);
	json_obj_end(j);
	json_obj_end(j);
	fputc('\n', f);
}

int latency_target_main(struct run_ctx *ctx, struct spec *base,
			struct run_opts *run, struct sweep *sw)
{
	struct run_opts quiet = *run;
	struct lt_search *ls;
	char err[512];
	int status;

	if (latency_target_parse(run->latency_target, &(struct latency_target){ 0 },
				 err, sizeof(err))) {
		fprintf(stderr, "rebench: invalid value '%s' for --latency-target: %s\n",
			run->latency_target, err);
		return EXIT_BAD_ARGS;
	}
	status = check_options(base, run, sw);
	if (status)
		return status;
	ls = calloc(1, sizeof(*ls));
	if (!ls) {
		fprintf(stderr, "rebench: --latency-target: out of memory\n");
		return EXIT_PREP_FAILED;
	}
	latency_target_parse(run->latency_target, &ls->t, err, sizeof(err));
	ls->best = -1;
	ls->step_ns = spec_given(base, "duration") &&
		      base->duration.kind == AMOUNT_TIME ?
		      base->duration.value : LT_STEP_NS;
	quiet.quiet_stdout = true;	/* the search is the output */
	status = search(ctx, base, &quiet, ls);
	if (!status || ls->interrupted) {
		if (run->json)
			print_json(stdout, ls, base);
		else
			print_human(stdout, ls, base);
	}
	if (ls->interrupted)
		status = EXIT_INTERRUPTED;
	free(ls);
	return status;
}
