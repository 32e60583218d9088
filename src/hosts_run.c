/* hosts_run.c - the --hosts driver: every host checked before any starts
 * (in parallel), the clock offsets, one confirmation for every host and
 * device, a common start per point, the results collected and merged.
 *
 * Nothing runs here but ssh: each host's own rebench validates, measures
 * and prints its --json document; this side only decides the start and
 * reads the documents.
 */
#include "hosts.h"
#include "hosts_result.h"
#include "hosts_ssh.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "confirm.h"
#include "hosts_remote.h"
#include "plot.h"
#include "options.h"
#include "outpath.h"
#include "report.h"
#include "signals.h"
#include "units.h"

#define CLOCK_ROUNDS 8
#define STOP_GRACE_S 60	/* after a Ctrl-C: the hosts' time to report */

/* What --hosts keeps for itself: never passed to a host. */
static const char *const driver_opts[] = {
	"hosts", "hosts-file", "ssh", "remote-rebench", "outlier",
	"max-offset", "silent", "json", "yes", "plot", "output", "start-at",
	"stop-on-eof", "dry-run", NULL
};

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

struct hosts_plan {
	const struct run_opts *run;
	const char *ssh, *rebench;
	char **words;		/* the command line without the driver's */
	size_t nwords;
	const char *target;	/* the command line's TARGET, or NULL */
	char *stdin_text;	/* the workload lines, or NULL */
	const struct sweep *sw;
};

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

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

static bool is_driver(const struct opt_desc *o)
{
	const char *const *d;

	for (d = driver_opts; o && *d; d++)
		if (!strcmp(o->name, *d))
			return true;
	return false;
}

/* The command line's words for the hosts: the driver's options, the
 * target and "--" left out. */
static int plan_words(int argc, char **argv, const struct argv_map *m,
		      struct hosts_plan *pl)
{
	int i;

	pl->words = calloc((size_t)argc + 1, sizeof(char *));
	if (!pl->words)
		return -ENOMEM;
	for (i = 1; i < argc; i++) {
		enum argv_role role = m->role[i - 1];
		const struct opt_desc *o = m->opt[i - 1];

		if (role == ARGV_TARGET || role == ARGV_SEPARATOR || is_driver(o))
			continue;
		/* -ny: a driver's letter bundled with others */
		if (role == ARGV_OPTION && argv[i][0] == '-' && argv[i][1] != '-' &&
		    strlen(argv[i]) > 2 && strpbrk(argv[i] + 1, "ny")) {
			fprintf(stderr, "rebench: --hosts: give %s's letters apart (-n -y are this side's; the others go to the hosts)\n",
				argv[i]);
			return -EINVAL;
		}
		pl->words[pl->nwords++] = argv[i];
	}
	return 0;
}

/* words of one invocation on h: rebench, the plan's, extra, the point's
 * values, then the target; the count. */
static size_t host_words(const struct hosts_plan *pl, const struct host *h,
			 const char *const *extra, size_t nextra,
			 char *const *point, size_t npoint, char **out)
{
	const char *target = h->target[0] ? h->target : pl->target;
	size_t n = 0, i;

	out[n++] = (char *)pl->rebench;
	for (i = 0; i < pl->nwords; i++)
		out[n++] = pl->words[i];
	for (i = 0; i < nextra; i++)
		out[n++] = (char *)extra[i];
	for (i = 0; i < npoint; i++)
		out[n++] = point[i];
	if (target) {
		out[n++] = "--";
		out[n++] = (char *)target;
	}
	out[n] = NULL;
	return n;
}

static size_t max_words(const struct hosts_plan *pl)
{
	return pl->nwords + 16 + 2 * SWEEP_MAX_AXES;
}

/* Run words on h to their end (stdin: the workload lines); 0 or -errno. */
static int run_words(const struct hosts_plan *pl, const struct host *h,
		     char **words, size_t n, enum remote_stdin how,
		     struct ssh_job *j)
{
	char *cmd = ssh_remote_command(words, n, pl->stdin_text, how);
	int ret;

	if (!cmd)
		return -ENOMEM;
	ret = ssh_spawn(j, pl->ssh, h, cmd);
	free(cmd);
	return ret;
}

/* The host's rebench said no: its words, each line with the host's name. */
static void quote_stderr(struct host *h, const char *err)
{
	size_t n = 0;
	const char *p = err, *e;

	h->reason[0] = '\0';
	while (*p && n < sizeof(h->reason) - 1) {
		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		if (e > p)
			n += (size_t)snprintf(h->reason + n, sizeof(h->reason) - n,
					      "%s%.*s", n ? "\n    " : "",
					      (int)(e - p), p);
		p = *e ? e + 1 : e;
	}
}

/* --dry-run --json on h: present, of this JSON version, every workload
 * valid there. */
static void check_host(const struct hosts_plan *pl, struct host *h)
{
	static const char *const extra[] = { "--dry-run", "--json", "--yes" };
	char **w = calloc(max_words(pl), sizeof(char *)), why[512];
	struct json_value *doc = NULL;
	const struct json_value *dr, *wls, *v;
	struct ssh_job j;
	size_t n, i;

	h->state = HOST_REFUSED;
	if (!w) {
		snprintf(h->reason, sizeof(h->reason), "out of memory");
		return;
	}
	n = host_words(pl, h, extra, 3, NULL, 0, w);
	if (run_words(pl, h, w, n, REMOTE_STDIN_TEXT, &j)) {
		snprintf(h->reason, sizeof(h->reason), "cannot run %s", pl->ssh);
		free(w);
		return;
	}
	free(w);
	ssh_finish(&j);
	h->check_s = j.seconds;
	ssh_last_error(&j, why, sizeof(why));
	if (j.code == 255) {
		h->state = HOST_UNREACHABLE;
		snprintf(h->reason, sizeof(h->reason), "ssh could not reach it: %s",
			 why);
	} else if (j.code == 127) {
		snprintf(h->reason, sizeof(h->reason), "no rebench there (%s: %s); install rebench on it, or give --remote-rebench PATH",
			 pl->rebench, why);
	} else if (j.code != 0 && strstr(j.err, "--dry-run")) {
		snprintf(h->reason, sizeof(h->reason), "its rebench is older than --hosts (no --dry-run): install this version (json_version %d) there",
			 JSON_VERSION);
	} else if (j.code != 0) {
		quote_stderr(h, j.err);
	} else if (json_parse(j.out, j.out_len, h->name, &doc, why, sizeof(why))) {
		snprintf(h->reason, sizeof(h->reason), "its rebench printed no JSON document for --dry-run --json: %s",
			 why);
	} else {
		v = json_get(doc, "version");
		snprintf(h->version, sizeof(h->version), "%s",
			 v && v->type == JSON_STRING ? v->str : "?");
		v = json_get(doc, "json_version");
		h->json_version = v && v->has_u64 ? v->u64 : 0;
		dr = json_get(doc, "dry_run");
		wls = json_get(dr, "workloads");
		v = json_get(dr, "destroys");
		h->destroys = v && v->type == JSON_BOOL && v->boolean;
		for (i = 0, n = 0; wls && i < wls->n && n < sizeof(h->targets); i++) {
			v = json_get(json_at(wls, i), "target");
			if (v && v->type == JSON_STRING)
				n += (size_t)snprintf(h->targets + n, sizeof(h->targets) - n,
						      "%s%s", n ? ", " : "", v->str);
		}
		if (h->json_version != JSON_VERSION)
			snprintf(h->reason, sizeof(h->reason), "its rebench %s writes json_version %llu, this one %d: install the same version on every host",
				 h->version, (unsigned long long)h->json_version,
				 JSON_VERSION);
		else if (!dr)
			snprintf(h->reason, sizeof(h->reason), "its rebench %s did not do a dry run", h->version);
		else
			h->state = HOST_OK;
	}
	json_free(doc);
	ssh_job_free(&j);
}

/* One line from the job's stdout, within a few seconds; 0 or -1. */
static int read_line(struct ssh_job *j, char *buf, size_t len)
{
	size_t n = 0;
	char c;

	while (n + 1 < len) {
		struct pollfd p = { j->out_fd, POLLIN, 0 };

		if (poll(&p, 1, 5000) <= 0 || read(j->out_fd, &c, 1) != 1)
			return -1;
		if (c == '\n')
			break;
		buf[n++] = c;
	}
	buf[n] = '\0';
	return 0;
}

/* --clock-echo round trips: the offset of the one with the least round
 * trip, within half of it (the reply was taken somewhere in it). */
static void clock_host(const struct hosts_plan *pl, struct host *h)
{
	char *w[3] = { (char *)pl->rebench, "--clock-echo", NULL };
	char line[64], why[512];
	uint64_t best = UINT64_MAX, t0, t1, remote;
	struct ssh_job j;
	int r;

	if (run_words(pl, h, w, 2, REMOTE_STDIN_SSH, &j)) {
		h->state = HOST_REFUSED;
		snprintf(h->reason, sizeof(h->reason), "cannot run %s", pl->ssh);
		return;
	}
	for (r = 0; r < CLOCK_ROUNDS; r++) {
		t0 = realtime_ns();
		if (write(j.in_fd, "t\n", 2) != 2 || read_line(&j, line, sizeof(line)))
			break;
		t1 = realtime_ns();
		if (hosts_parse_clock(line, &remote))
			break;
		if (t1 - t0 < best) {
			best = t1 - t0;
			h->offset_ns = (int64_t)(remote - t0) - (int64_t)((t1 - t0) / 2);
			h->bound_ns = best / 2 + 1;
			h->offset_known = true;
		}
	}
	ssh_close_stdin(&j);
	ssh_finish(&j);
	if (!h->offset_known) {
		ssh_last_error(&j, why, sizeof(why));
		h->state = HOST_REFUSED;
		snprintf(h->reason, sizeof(h->reason), "no clock from its rebench --clock-echo: %s",
			 why);
	}
	ssh_job_free(&j);
}

struct host_task {
	const struct hosts_plan *pl;
	struct host *h;
	/* a run: the point's words and the result */
	const char *const *extra;
	size_t nextra;
	char *const *point;
	size_t npoint;
	struct host_run *out;
	struct ssh_job job;
	int spawned;		/* 1 running, -1 could not start */
	int done;
};

static void *check_thread(void *arg)
{
	struct host_task *t = arg;

	check_host(t->pl, t->h);
	if (t->h->state == HOST_OK)
		clock_host(t->pl, t->h);
	__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Run fn on every host at once, each in a thread; stop signals stay with
 * the main thread, which closes every host's stdin at a stop (each host's
 * rebench then stops and reports) and ends the ssh that have not ended
 * STOP_GRACE_S later. */
static int each_host(struct host_task *t, size_t n, void *(*fn)(void *))
{
	pthread_t *th = calloc(n, sizeof(*th));
	bool *made = calloc(n, sizeof(bool));
	sigset_t stop, old;
	uint64_t stopped_at = 0;
	size_t i;

	if (!th || !made) {
		free(th);
		free(made);
		return -ENOMEM;
	}
	signals_stop_set(&stop);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	for (i = 0; i < n; i++)
		made[i] = !pthread_create(&th[i], NULL, fn, &t[i]);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	for (i = 0; i < n; i++)
		if (!made[i])
			fn(&t[i]);	/* no thread: in this one */
	for (;;) {
		size_t done = 0;

		for (i = 0; i < n; i++)
			done += (size_t)__atomic_load_n(&t[i].done, __ATOMIC_ACQUIRE);
		if (done == n)
			break;
		if (signals_stop_requested() && !stopped_at)
			stopped_at = realtime_ns();
		for (i = 0; stopped_at && i < n; i++) {
			if (__atomic_load_n(&t[i].spawned, __ATOMIC_ACQUIRE) != 1)
				continue;
			ssh_close_stdin(&t[i].job);
			if (realtime_ns() - stopped_at > STOP_GRACE_S * 1000000000ULL &&
			    t[i].job.pid > 0)
				kill(t[i].job.pid, SIGTERM);
		}
		usleep(20000);
	}
	for (i = 0; i < n; i++)
		if (made[i])
			pthread_join(th[i], NULL);
	free(th);
	free(made);
	return 0;
}

/* A host's run of a point: its document, or why there is none. */
static void *run_thread(void *arg)
{
	struct host_task *t = arg;
	struct host_run *o = t->out;
	char **w = calloc(max_words(t->pl), sizeof(char *)), why[512];
	const struct json_value *late;
	size_t n;

	o->state = HOST_FAILED;
	if (!w) {
		snprintf(o->reason, sizeof(o->reason), "out of memory");
		goto out;
	}
	n = host_words(t->pl, t->h, t->extra, t->nextra, t->point, t->npoint, w);
	if (run_words(t->pl, t->h, w, n, REMOTE_FD3_SSH, &t->job)) {
		snprintf(o->reason, sizeof(o->reason), "cannot run %s", t->pl->ssh);
		__atomic_store_n(&t->spawned, -1, __ATOMIC_RELEASE);
		goto out;
	}
	__atomic_store_n(&t->spawned, 1, __ATOMIC_RELEASE);
	ssh_finish(&t->job);
	ssh_last_error(&t->job, why, sizeof(why));
	o->text = t->job.out;
	o->len = t->job.out_len;
	t->job.out = NULL;
	if (o->len && json_parse(o->text, o->len, t->h->name, &o->doc, why,
				 sizeof(why)))
		o->doc = NULL;
	if (t->job.code == 255) {
		snprintf(o->reason, sizeof(o->reason), "the connection was lost: %s", why);
	} else if (!o->doc) {
		snprintf(o->reason, sizeof(o->reason), "no result (exit status %d): %s",
			 t->job.code, why);
	} else if (t->job.code == EXIT_OK) {
		o->state = HOST_OK;
	} else if (t->job.code == EXIT_IO_FAILED) {
		o->state = HOST_IO_FAILED;
		snprintf(o->reason, sizeof(o->reason), "an I/O failed: %s", why);
	} else if (t->job.code == EXIT_INTERRUPTED) {
		o->state = HOST_INTERRUPTED;
		snprintf(o->reason, sizeof(o->reason), "stopped early: %s", why);
	} else {
		snprintf(o->reason, sizeof(o->reason), "exit status %d: %s",
			 t->job.code, why);
	}
	late = json_get(json_get(o->doc, "start_at"), "late_ns");
	o->late_ns = late && late->has_u64 ? late->u64 : 0;
out:
	free(w);
	ssh_job_free(&t->job);
	__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* The figures of a point: each host's per workload, merged, outliers. */
static void merge_point(const struct hosts_result *r, struct hosts_point *p)
{
	size_t nh = r->hosts->n, i, k;
	struct hist *h = malloc(sizeof(*h));
	char why[256];

	p->nwl = 0;
	for (i = 0; i < nh; i++) {
		const struct json_value *w = json_get(p->run[i].doc, "workloads");

		if (w && w->n > p->nwl)
			p->nwl = w->n;
	}
	p->fig = calloc(nh * (p->nwl ? p->nwl : 1), sizeof(*p->fig));
	p->merged = calloc(p->nwl ? p->nwl : 1, sizeof(*p->merged));
	if (!h || !p->fig || !p->merged) {
		free(h);
		p->nwl = 0;
		return;
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
}

/* Every host checked and its clock measured, at once; EXIT_OK, or
 * EXIT_BAD_ARGS after naming each host that cannot run. */
static int check_all_hosts(const struct hosts_plan *pl, struct host_list *l,
			   bool chatty)
{
	struct host_task *t = calloc(l->n, sizeof(*t));
	size_t i, bad = 0;

	if (!t)
		return EXIT_PREP_FAILED;
	if (chatty)
		fprintf(stderr, "rebench: checking %zu host%s over ssh (rebench --dry-run, then the clock)\n",
			l->n, l->n == 1 ? "" : "s");
	for (i = 0; i < l->n; i++) {
		t[i].pl = pl;
		t[i].h = &l->h[i];
	}
	each_host(t, l->n, check_thread);
	free(t);
	for (i = 0; i < l->n; i++)
		if (l->h[i].state != HOST_OK) {
			fprintf(stderr, "rebench: host %s: %s\n", l->h[i].name,
				l->h[i].reason);
			bad++;
		}
	if (signals_stop_requested()) {
		fprintf(stderr, "rebench: interrupted during the checks; no host started\n");
		return EXIT_INTERRUPTED;
	}
	if (bad) {
		fprintf(stderr, "rebench: --hosts: %zu of %zu host%s cannot run the workloads (above); no host started\n",
			bad, l->n, l->n == 1 ? "" : "s");
		return EXIT_BAD_ARGS;
	}
	return EXIT_OK;
}

/* The clocks: each host's offset, and those beyond --max-offset named. */
static void say_offsets(const struct host_list *l, uint64_t max_ns,
			bool chatty)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		const struct host *h = &l->h[i];
		uint64_t off = (uint64_t)(h->offset_ns < 0 ? -h->offset_ns : h->offset_ns);

		if (chatty)
			fprintf(stderr, "rebench: host %s: rebench %s, clock %+.3f ms (+-%.3f ms) from this one's\n",
				h->name, h->version, (double)h->offset_ns / 1e6,
				(double)h->bound_ns / 1e6);
		if (off > max_ns)
			fprintf(stderr, "rebench: warning: host %s's clock is %.3f s %s this one's (more than --max-offset %.0f ms): the start is corrected for it, but check its time synchronisation (chrony, ntpd)\n",
				h->name, (double)off / 1e9,
				h->offset_ns > 0 ? "ahead of" : "behind",
				(double)max_ns / 1e6);
	}
}

/* One question for every host that would write. */
static int confirm_hosts(const struct host_list *l, const struct run_opts *run)
{
	char *text;
	size_t i, n = 0, cap = 256, writers = 0;
	int ret;

	for (i = 0; i < l->n; i++)
		writers += l->h[i].destroys;
	if (!writers || run->yes || run->silent)
		return 0;
	text = malloc(cap);
	if (!text)
		return -ENOMEM;
	text[0] = '\0';
	for (i = 0; i < l->n; i++) {
		const struct host *h = &l->h[i];
		size_t need = strlen(h->name) + strlen(h->targets) + 64;
		char *p;

		if (!h->destroys)
			continue;
		if (n + need > cap) {
			cap = 2 * (n + need);
			p = realloc(text, cap);
			if (!p) {
				free(text);
				return -ENOMEM;
			}
			text = p;
		}
		n += (size_t)snprintf(text + n, cap - n, "  host %s: writes to %s\n",
				      h->name, h->targets);
	}
	ret = confirm_ask_text(text, "Continue on every host? [y/N] ",
			       "not confirmed; no host started, nothing was written.");
	free(text);
	if (ret == -EPERM)
		fprintf(stderr, "rebench: refusing to write on %zu host%s without confirmation: there is no terminal to ask on. Add --yes (or -n) to confirm.\n",
			writers, writers == 1 ? "" : "s");
	return ret;
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
	pt->start_ns = realtime_ns() + (uint64_t)(lead * 1e9);
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
		t[i] = (struct host_task){ .pl = pl, .h = &l->h[i],
					   .extra = &extra[6 * i], .nextra = 6,
					   .point = point, .npoint = 2 * naxes,
					   .out = &pt->run[i] };
	}
	if (chatty)
		fprintf(stderr, "rebench: %s%s%son %zu host%s, starting together in %.1f s\n",
			naxes ? "point " : "", naxes ? pt->values : "",
			naxes ? " " : "", l->n, l->n == 1 ? "" : "s", lead);
	each_host(t, l->n, run_thread);
	r->npt++;
	merge_point(r, pt);
	free(t);
	free(at);
	free(extra);
	return EXIT_OK;
}

/* The workload lines of stdin, whole, for every host. */
static int read_stdin_text(char **text)
{
	size_t cap = 4096, n = 0;
	ssize_t got;
	char *p = malloc(cap), *q;

	if (!p)
		return -ENOMEM;
	while ((got = read(STDIN_FILENO, p + n, cap - n - 1)) > 0 ||
	       (got < 0 && errno == EINTR)) {
		if (got < 0)
			continue;
		n += (size_t)got;
		if (cap - n < 2) {
			q = realloc(p, cap * 2);
			if (!q) {
				free(p);
				return -ENOMEM;
			}
			p = q;
			cap *= 2;
		}
	}
	p[n] = '\0';
	if (strstr(p, "REBENCH_HOSTS_WORKLOADS")) {
		free(p);
		fprintf(stderr, "rebench: --hosts: a workload line holds REBENCH_HOSTS_WORKLOADS, the end marker of the lines sent to the hosts\n");
		return -EINVAL;
	}
	*text = p;
	return 0;
}

static int plan_of(struct spec *base, const struct run_opts *run,
		   const struct sweep *sw, const struct host_list *l,
		   int argc, char **argv, const struct argv_map *map,
		   struct hosts_plan *pl)
{
	size_t i, per_host = 0;

	memset(pl, 0, sizeof(*pl));
	pl->run = run;
	pl->sw = sw->naxes ? sw : NULL;
	pl->ssh = run->ssh ? run->ssh : "ssh";
	pl->rebench = run->remote_rebench ? run->remote_rebench : "rebench";
	pl->target = base->target;
	for (i = 0; i < l->n; i++)
		per_host += l->h[i].target[0] != '\0';
	if (!base->target && per_host < l->n) {
		if (isatty(STDIN_FILENO)) {
			fprintf(stderr, "rebench: --hosts: give a TARGET (the same on every host, or a TARGET column in --hosts-file), or pipe the workload lines into stdin\n");
			return -EINVAL;
		}
		if (per_host) {
			fprintf(stderr, "rebench: --hosts-file: a host's TARGET replaces the command line's; with workload lines on stdin, their own targets apply: drop the TARGET column, or give one workload on the command line\n");
			return -EINVAL;
		}
		if (read_stdin_text(&pl->stdin_text))
			return -EINVAL;
	}
	return plan_words(argc, argv, map, pl);
}

int hosts_main(struct run_ctx *ctx, struct spec *base, struct run_opts *run,
	       struct sweep *sw, int argc, char **argv,
	       const struct argv_map *map)
{
	static struct host_list l;
	struct hosts_result r = { 0 };
	struct hosts_plan pl;
	bool chatty = !run->silent && !run->json;
	char err[PATH_MAX + 1200], tsv[PATH_MAX];
	uint64_t max_offset = run_given(run, "max-offset") ? run->max_offset_ns :
			      100 * 1000000ULL;
	size_t i, p, npoints = sw->naxes ? sw->npoints : 1, failed = 0;
	int status = EXIT_OK, ret;

	(void)ctx;
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (run_given(run, refused[i].name)) {
			fprintf(stderr, "rebench: --hosts: --%s does not combine with it: %s\n",
				refused[i].name, refused[i].why);
			return EXIT_BAD_ARGS;
		}
	if (run->plot && sw->naxes) {
		fprintf(stderr, "rebench: --hosts: --plot draws the hosts of one run; a sweep across hosts has no plot yet (its --output table has every point and host)\n");
		return EXIT_BAD_ARGS;
	}
	if ((base->output && outpath_check("--output", base->output, err, sizeof(err))) ||
	    (run->plot && (outpath_check("--plot", run->plot, err, sizeof(err)) ||
			   plot_check_format(run->plot, err, sizeof(err))))) {
		fprintf(stderr, "rebench: %s\n", err);
		return EXIT_BAD_ARGS;
	}
	if (hosts_parse(run, &l))
		return EXIT_BAD_ARGS;
	if (plan_of(base, run, sw, &l, argc, argv, map, &pl)) {
		hosts_free(&l);
		return EXIT_BAD_ARGS;
	}
	status = check_all_hosts(&pl, &l, chatty);
	if (status == EXIT_OK) {
		say_offsets(&l, max_offset, chatty);
		ret = confirm_hosts(&l, run);
		if (ret)
			status = ret == -ENOMEM ? EXIT_PREP_FAILED :
				 confirm_exit_status(ret);
	}
	r.hosts = &l;
	r.run = run;
	r.sw = pl.sw;
	r.outlier_pct = run_given(run, "outlier") ? run->outlier_pct : 20;
	r.max_offset_ns = max_offset;
	r.pt = calloc(npoints, sizeof(*r.pt));
	if (status == EXIT_OK && !r.pt)
		status = EXIT_PREP_FAILED;
	for (p = 0; status == EXIT_OK && p < npoints; p++) {
		status = run_point(&pl, &l, &r, p, chatty);
		if (signals_stop_requested()) {
			r.interrupted = true;
			break;
		}
	}
	if (r.npt) {
		for (p = 0; p < r.npt; p++)
			for (i = 0; i < l.n; i++)
				failed += r.pt[p].run[i].state != HOST_OK;
		if (run->json)
			hosts_json(stdout, &r);
		else if (run->silent)
			hosts_terse(stdout, &r);
		else
			hosts_human(stdout, &r);
		if (outpath_flush_stdout())
			status = EXIT_OUTPUT_FAILED;
		if (base->output && hosts_tsv(base->output, &r)) {
			fprintf(stderr, "rebench: --output %s: %s\n", base->output,
				strerror(errno));
			status = EXIT_OUTPUT_FAILED;
		}
		if (run->plot && status == EXIT_OK) {
			char dir[] = "/tmp/rebench-hosts.XXXXXX";
			bool temp = !base->output;

			if (temp && mkdtemp(dir))
				snprintf(tsv, sizeof(tsv), "%s/hosts.tsv", dir);
			else
				snprintf(tsv, sizeof(tsv), "%s", base->output ? base->output : "");
			if ((temp && hosts_tsv(tsv, &r)) ||
			    hosts_plot(tsv, run->plot, temp ? "the figures are on standard output" : "the data is in the --output file", &r))
				status = EXIT_PLOT_FAILED;
			if (temp)
				outpath_remove_tmpdir(dir);
		}
		if (status == EXIT_OK && r.interrupted)
			status = EXIT_INTERRUPTED;
		else if (status == EXIT_OK && failed)
			status = EXIT_HOST_FAILED;
	}
	for (p = 0; p < r.npt; p++) {
		for (i = 0; i < l.n; i++) {
			free(r.pt[p].run[i].text);
			json_free(r.pt[p].run[i].doc);
		}
		free(r.pt[p].run);
		free(r.pt[p].fig);
		free(r.pt[p].merged);
	}
	free(r.pt);
	free(pl.words);
	free(pl.stdin_text);
	hosts_free(&l);
	return status;
}
