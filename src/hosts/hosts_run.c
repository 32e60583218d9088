/* hosts_run.c - the --hosts driver: the checks (hosts_check.c), then per
 * point a common start on every host, each host's document collected,
 * merged (hosts_merge.c) and written out (hosts_out.c).
 *
 * Nothing runs here but ssh: each host's own rebench validates, measures
 * and prints its --json document; this side only decides the start and
 * reads the documents.
 */
#include "hosts/hosts_plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/confirm.h"
#include "core/delay.h"
#include "hosts/hosts_doc.h"
#include "report/plot.h"
#include "core/options.h"
#include "core/outpath.h"
#include "core/signals.h"

/* What does not combine with --hosts (yet), and why. */
static const struct {
	const char *name, *why;
} refused[] = {
	{ "repeat", "each host would repeat on its own clock; run --hosts again for another run" },
	{ "steady-state", "the rounds of the hosts would not start together" },
	{ "suite", "a suite is a run per test; run its tests as workload lines" },
	{ "advise", "the advisor models one drive" },
	{ "fio", "it prints one job file; run rebench --fio on one host" },
	{ "probe", "run rebench --probe on each host" },
	{ "order", "the points run in the given order on every host" },
	{ "plot-metric", "the hosts' plot draws ops/s per host" },
};

const char *host_state_name(enum host_state s)
{
	static const char *const names[] = {
		[HOST_OK] = "complete", [HOST_UNREACHABLE] = "unreachable",
		[HOST_REFUSED] = "refused", [HOST_FAILED] = "failed",
		[HOST_IO_FAILED] = "io-failed",
		[HOST_INTERRUPTED] = "interrupted",
	};

	return names[s];
}

/* Its state from its exit status, once its document passed the checks. */
static void state_of(struct host_run *o, int code, const char *err)
{
	if (code == EXIT_OK) {
		o->state = HOST_OK;
	} else if (code == EXIT_IO_FAILED) {
		o->state = HOST_IO_FAILED;
		snprintf(o->reason, sizeof(o->reason), "an I/O failed: %s", err);
	} else if (code == EXIT_INTERRUPTED) {
		o->state = HOST_INTERRUPTED;
		snprintf(o->reason, sizeof(o->reason), "stopped early: %s", err);
	} else {
		snprintf(o->reason, sizeof(o->reason), "exit status %d: %s",
			 code, err);
	}
}

/* A host's run of a point: its document, checked against what was sent,
 * or why there is none. */
static void *run_thread(void *arg)
{
	struct host_task *t = arg;
	struct host_run *o = t->out;
	size_t i = (size_t)(t->h - t->list->h), n, len, charged;
	char **w = calloc(hosts_max_words(t->pl), sizeof(char *)), why[512], err[512];
	const struct json_value *late;
	char *text;
	int code;

	o->state = HOST_FAILED;
	if (!w) {
		snprintf(o->reason, sizeof(o->reason), "out of memory");
		goto out;
	}
	n = hosts_words(t->pl, t->h, t->extra, t->nextra, t->point, t->npoint, w);
	if (hosts_run_words(t->pl, t->h, w, n, REMOTE_FD3_SSH, false, &t->job)) {
		snprintf(o->reason, sizeof(o->reason), "cannot run %s", t->pl->ssh);
		__atomic_store_n(&t->spawned, -1, __ATOMIC_RELEASE);
		goto out;
	}
	__atomic_store_n(&t->spawned, 1, __ATOMIC_RELEASE);
	if (t->end_ns)	/* a host silent past its run and the time limit */
		ssh_end_by(&t->job, t->end_ns);
	ssh_finish(&t->job);
	if (t->job.ended != SSH_NOT_ENDED) {
		ssh_ended_why(&t->job, o->reason, sizeof(o->reason));
		/* ended because the run was stopped: interrupted, not failed */
		if (t->job.ended == SSH_TIMED_OUT && signals_stop_requested())
			o->state = HOST_INTERRUPTED;
		goto out;
	}
	code = t->job.code;
	ssh_last_error(&t->job, err, sizeof(err));
	text = ssh_take_out(&t->job, &len, &charged);
	if (code == 255) {
		snprintf(o->reason, sizeof(o->reason), "the connection was lost: %s", err);
	} else if (hosts_doc_parse(text, len, t->h->name, &o->doc,
				   &o->doc_charged, why, sizeof(why))) {
		snprintf(o->reason, sizeof(o->reason), "no result (exit status %d): %s",
			 code, code ? err : why);
	} else if (hosts_doc_check_run(t->list, i, o->doc, t->start_ns, why,
				       sizeof(why))) {
		snprintf(o->reason, sizeof(o->reason), "%s", why);
		hosts_doc_free(o->doc, o->doc_charged);
		o->doc = NULL;
		o->doc_charged = 0;
	} else {
		state_of(o, code, err);
		late = json_get(json_get(o->doc, "start_at"), "late_ns");
		o->late_ns = late->u64;
		if (t->pl->run->json) {
			o->text = text;
			o->len = len;
			o->text_charged = charged;
		}
	}
	if (o->text != text)
		ssh_give_out(text, charged);
out:
	/* a host's words go on one line of -n, TSV and the terminal */
	hosts_printable(o->reason, sizeof(o->reason), o->reason);
	free(w);
	ssh_job_free(&t->job);
	__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* The figures of a point: each host's per workload, merged, outliers;
 * then the parsed documents go (their text stays for --json). */
static void merge_point(const struct hosts_result *r, struct hosts_point *p)
{
	size_t nh = r->hosts->n, i, k;
	struct hist *h = malloc(sizeof(*h));
	char why[256];

	p->nwl = 0;
	for (i = 0; i < nh; i++)
		if (r->hosts->h[i].nwl > p->nwl)
			p->nwl = r->hosts->h[i].nwl;
	p->fig = calloc(nh * (p->nwl ? p->nwl : 1), sizeof(*p->fig));
	p->merged = calloc(p->nwl ? p->nwl : 1, sizeof(*p->merged));
	if (!h || !p->fig || !p->merged) {
		free(h);
		p->nwl = 0;
		goto out;
	}
	for (k = 0; k < p->nwl; k++) {
		struct host_fig *col = calloc(nh, sizeof(*col));

		hist_init(h);
		for (i = 0; i < nh; i++) {
			struct host_fig *f = &p->fig[i * p->nwl + k];

			if (p->run[i].doc &&
			    hosts_fig_of(p->run[i].doc, k, f, h, why, sizeof(why)) &&
			    p->run[i].state == HOST_OK) {
				p->run[i].state = HOST_FAILED;
				snprintf(p->run[i].reason, sizeof(p->run[i].reason),
					 "%s", why);
			}
			if (col)
				col[i] = *f;
		}
		if (col) {
			hosts_fig_merge(col, nh, h, &p->merged[k]);
			p->outliers += hosts_outliers(col, nh, r->outlier_pct);
			for (i = 0; i < nh; i++)
				p->fig[i * p->nwl + k] = col[i];
		}
		free(col);
	}
	free(h);
out:
	for (i = 0; i < nh; i++) {
		hosts_doc_free(p->run[i].doc, p->run[i].doc_charged);
		p->run[i].doc = NULL;
		p->run[i].doc_charged = 0;
	}
}

/* "4096" of axis a at point p, as the option takes it */
static void point_words(const struct sweep *sw, size_t p, char **out,
			char *store, size_t len, char *values, size_t vlen)
{
	size_t idx[SWEEP_MAX_AXES], a, n = 0, v = 0;

	values[0] = '\0';
	if (!sw || !sw->naxes)
		return;
	sweep_indices(sw, p, idx);
	for (a = 0; a < sw->naxes; a++) {
		const char *val = sw->axes[a].values[idx[a]];
		int w = snprintf(store + n, len - n, "--%s", sw->axes[a].opt->name);

		out[2 * a] = store + n;
		n += (size_t)w + 1;
		out[2 * a + 1] = (char *)val;
		v += (size_t)snprintf(values + v, vlen - v, "%s%s=%s",
				      a ? " " : "", sw->axes[a].opt->name, val);
	}
}

/* Point p on every host at once, from a common start. */
static int run_point(const struct hosts_plan *pl, struct host_list *l,
		     struct hosts_result *r, size_t p, bool chatty)
{
	struct hosts_point *pt = &r->pt[r->npt];
	struct host_task *t = calloc(l->n, sizeof(*t));
	char (*at)[32] = calloc(l->n, sizeof(*at)), store[SWEEP_MAX_AXES * 72];
	char *point[2 * SWEEP_MAX_AXES];
	const char **extra = calloc(l->n * 6, sizeof(char *));
	double lead = 2;
	uint64_t end_ns;
	size_t i, naxes = pl->sw ? pl->sw->naxes : 0;

	memset(pt, 0, sizeof(*pt));
	pt->index = p;
	pt->run = calloc(l->n, sizeof(*pt->run));
	if (!t || !at || !extra || !pt->run) {
		free(t);
		free(at);
		free(extra);
		return EXIT_PREP_FAILED;
	}
	point_words(pl->sw, p, point, store, sizeof(store), pt->values,
		    sizeof(pt->values));
	/* far enough ahead for the slowest host to be ready: three times
	 * its check (ssh, rebench, the target's checks), at least 2 s */
	for (i = 0; i < l->n; i++)
		if (3 * l->h[i].check_s > lead)
			lead = 3 * l->h[i].check_s;
	pt->start_ns = run_realtime_ns() + (uint64_t)(lead * 1e9);
	/* a host that has not answered by the start, the point's run and
	 * the time limit after it is ended (when the run's length is known) */
	end_ns = pl->run_ns ? delay_now_ns() + (uint64_t)(lead * 1e9) +
			      pl->run_ns + pl->timeout_ns : 0;
	for (i = 0; i < l->n; i++) {
		uint64_t host_t = (uint64_t)((int64_t)pt->start_ns + l->h[i].offset_ns);

		snprintf(at[i], sizeof(at[i]), "%llu.%09llu",
			 (unsigned long long)(host_t / 1000000000ULL),
			 (unsigned long long)(host_t % 1000000000ULL));
		extra[6 * i] = "--json";
		extra[6 * i + 1] = "--yes";
		extra[6 * i + 2] = "--start-at";
		extra[6 * i + 3] = at[i];
		extra[6 * i + 4] = "--stop-on-eof";
		extra[6 * i + 5] = "3";
		t[i] = (struct host_task){ .pl = pl, .list = l, .h = &l->h[i],
					   .extra = &extra[6 * i], .nextra = 6,
					   .point = point, .npoint = 2 * naxes,
					   .out = &pt->run[i], .start_ns = host_t,
					   .end_ns = end_ns };
	}
	if (chatty)
		fprintf(stderr, "rebench: %s%s%son %zu host%s, starting together in %.1f s\n",
			naxes ? "point " : "", naxes ? pt->values : "",
			naxes ? " " : "", l->n, l->n == 1 ? "" : "s", lead);
	hosts_each(t, l->n, run_thread);
	r->npt++;
	merge_point(r, pt);
	free(t);
	free(at);
	free(extra);
	return EXIT_OK;
}

/* --plot: from the --output table, or a temporary one; the status. */
static int plot_hosts(const struct hosts_result *r, const char *plot,
		      const char *output)
{
	char dir[OUTPATH_TMPDIR_MAX], tsv[PATH_MAX];
	int ret;

	if (output)
		return hosts_plot(output, plot, "the data is in the --output file", r) ?
		       EXIT_PLOT_FAILED : EXIT_OK;
	if (outpath_make_tmpdir("--plot", "hosts", dir, sizeof(dir)))
		return EXIT_PLOT_FAILED;
	snprintf(tsv, sizeof(tsv), "%s/hosts.tsv", dir);
	ret = hosts_tsv("--plot", tsv, r) ||
	      hosts_plot(tsv, plot, "the figures are on standard output", r);
	outpath_remove_tmpdir(dir);
	return ret ? EXIT_PLOT_FAILED : EXIT_OK;
}

/* What refuses --hosts before any host is asked: an option it does not
 * combine with, an --output or --plot it could not write; the status. */
static int check_options(const struct spec *base, const struct run_opts *run)
{
	char err[PATH_MAX + 1200];
	size_t i;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (run_given(run, refused[i].name)) {
			fprintf(stderr, "rebench: --hosts: --%s does not combine with it: %s\n",
				refused[i].name, refused[i].why);
			return EXIT_BAD_ARGS;
		}
	if ((base->output && outpath_check("--output", base->output, err, sizeof(err))) ||
	    (run->plot && (outpath_check("--plot", run->plot, err, sizeof(err)) ||
			   plot_check_format(run->plot, err, sizeof(err))))) {
		fprintf(stderr, "rebench: %s\n", err);
		return EXIT_BAD_ARGS;
	}
	return EXIT_OK;
}

/* Every host checked, the clocks told and the question asked; the
 * status. */
static int ready_hosts(const struct hosts_plan *pl, struct host_list *l,
		       const struct run_opts *run, uint64_t max_offset,
		       bool chatty)
{
	int status = hosts_check_all(pl, l, chatty), ret;

	if (status != EXIT_OK)
		return status;
	hosts_say_offsets(l, max_offset, chatty);
	ret = hosts_confirm(l, run);
	if (ret)
		return ret == -ENOMEM ? EXIT_PREP_FAILED : confirm_exit_status(ret);
	return EXIT_OK;
}

/* Each point in turn, until one fails or a stop signal; the status. */
static int run_points(const struct hosts_plan *pl, struct host_list *l,
		      struct hosts_result *r, size_t npoints, bool chatty)
{
	int status = EXIT_OK;
	size_t p;

	for (p = 0; status == EXIT_OK && p < npoints; p++) {
		status = run_point(pl, l, r, p, chatty);
		if (signals_stop_requested()) {
			r->interrupted = true;
			break;
		}
	}
	return status;
}

/* The points' runs that did not end HOST_OK. */
static size_t count_failed(const struct hosts_result *r)
{
	size_t p, i, failed = 0;

	for (p = 0; p < r->npt; p++)
		for (i = 0; i < r->hosts->n; i++)
			failed += r->pt[p].run[i].state != HOST_OK;
	return failed;
}

/* The result on stdout, in --output and --plot; the status, from the
 * run's. */
static int write_result(const struct hosts_result *r, const char *output,
			const struct run_opts *run, int status)
{
	size_t failed = count_failed(r);

	if (run->json)
		hosts_json(stdout, r);
	else if (run->silent)
		hosts_terse(stdout, r);
	else
		hosts_human(stdout, r);
	if (run->silent && !run->json)
		hosts_failures(stderr, r);
	if (outpath_flush_stdout())
		status = EXIT_OUTPUT_FAILED;
	if (output && hosts_tsv("--output", output, r))
		status = EXIT_OUTPUT_FAILED;
	if (run->plot && status == EXIT_OK)
		status = plot_hosts(r, run->plot, output);
	if (status == EXIT_OK && r->interrupted)
		status = EXIT_INTERRUPTED;
	else if (status == EXIT_OK && failed)
		status = EXIT_HOST_FAILED;
	return status;
}

static void free_result(struct hosts_result *r)
{
	size_t p, i;

	for (p = 0; p < r->npt; p++) {
		for (i = 0; i < r->hosts->n; i++) {
			ssh_give_out(r->pt[p].run[i].text,
				     r->pt[p].run[i].text_charged);
			hosts_doc_free(r->pt[p].run[i].doc,
				       r->pt[p].run[i].doc_charged);
		}
		free(r->pt[p].run);
		free(r->pt[p].fig);
		free(r->pt[p].merged);
	}
	free(r->pt);
}

int hosts_main(struct spec *base, struct run_opts *run, struct sweep *sw,
	       int argc, char **argv, const struct argv_map *map)
{
	struct host_list l;
	struct hosts_result r = { 0 };
	struct hosts_plan pl;
	bool chatty = !run->silent && !run->json;
	uint64_t max_offset = run_given(run, "max-offset") ? run->max_offset_ns :
			      100 * 1000000ULL;
	size_t npoints = sw->naxes ? sw->npoints : 1;
	int status = check_options(base, run);

	if (status != EXIT_OK)
		return status;
	if (hosts_parse(run, &l))
		return EXIT_BAD_ARGS;
	if (hosts_plan_of(base, run, sw, &l, argc, argv, map, &pl)) {
		hosts_free(&l);
		return EXIT_BAD_ARGS;
	}
	status = ready_hosts(&pl, &l, run, max_offset, chatty);
	r.hosts = &l;
	r.run = run;
	r.base = base;
	r.sw = pl.sw;
	r.outlier_pct = run_given(run, "outlier") ? run->outlier_pct : 20;
	r.max_offset_ns = max_offset;
	r.pt = calloc(npoints, sizeof(*r.pt));
	if (status == EXIT_OK && !r.pt)
		status = EXIT_PREP_FAILED;
	if (status == EXIT_OK)
		status = run_points(&pl, &l, &r, npoints, chatty);
	if (r.npt)
		status = write_result(&r, base->output, run, status);
	free_result(&r);
	free(pl.words);
	free(pl.stdin_text);
	hosts_free(&l);
	return status;
}
