/* hosts_plan.c - see hosts_plan.h: the command line's words for the
 * hosts, the ssh of one invocation, and every host at once. */
#include "hosts/hosts_plan.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/delay.h"
#include "core/infile.h"
#include "core/options.h"
#include "core/signals.h"
#include "core/units.h"

/* What --hosts keeps for itself: never passed to a host. */
static const char *const driver_opts[] = {
	"hosts", "hosts-file", "ssh", "remote-rebench", "outlier",
	"max-offset", "silent", "json", "yes", "plot", "output", "start-at",
	"stop-on-eof", "dry-run", NULL
};

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
/* The options of a bundle of letters (-ny, -nb4k): how many are this
 * side's and how many the hosts'; a letter that takes a value ends it. */
static void bundle(const char *w, int *driver, int *other)
{
	const struct opt_desc *o;

	*driver = *other = 0;
	for (w++; *w && (o = options_find_letter(*w)); w++) {
		++*(is_driver(o) ? driver : other);
		if (o->type != OPT_FLAG)
			break;
	}
}

static int plan_words(int argc, char **argv, const struct argv_map *m,
		      struct hosts_plan *pl)
{
	int i, driver, other;

	pl->words = calloc((size_t)argc + 1, sizeof(char *));
	if (!pl->words || !m->role)
		return -ENOMEM;
	for (i = 1; i < argc; i++) {
		enum argv_role role = m->role[i - 1];

		if (role == ARGV_TARGET || role == ARGV_SEPARATOR)
			continue;
		if (role == ARGV_OPTION && argv[i][1] != '-') {
			bundle(argv[i], &driver, &other);
			if (driver && other) {
				fprintf(stderr, "rebench: --hosts: give %s's letters apart: -n and -y are this side's, the others go to the hosts\n",
					argv[i]);
				return -EINVAL;
			}
			if (driver)
				continue;
		} else if (is_driver(m->opt[i - 1])) {
			continue;	/* a long option of this side, or its value */
		}
		pl->words[pl->nwords++] = argv[i];
	}
	return 0;
}

/* words of one invocation on h: rebench, the plan's, extra, the point's
 * values, then the target; the count. */
size_t hosts_words(const struct hosts_plan *pl, const struct host *h,
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

size_t hosts_max_words(const struct hosts_plan *pl)
{
	return pl->nwords + 16 + 2 * SWEEP_MAX_AXES;
}

/* Run words on h to their end (stdin: the workload lines); 0 or -errno. */
int hosts_run_words(const struct hosts_plan *pl, const struct host *h,
		    char **words, size_t n, enum remote_stdin how, bool check,
		    struct ssh_job *j)
{
	char *cmd = ssh_remote_command(words, n, pl->stdin_text, how);
	int ret;

	if (!cmd)
		return -ENOMEM;
	ret = ssh_spawn(j, pl->ssh, h, cmd, pl->timeout_ns, check);
	free(cmd);
	return ret;
}

/* Run fn on every host at once, each in a thread; stop signals stay with
 * the main thread, which closes every host's stdin at a stop (each host's
 * rebench then stops and reports) and has each ssh ended that has not
 * ended the time limit later (by its own thread, which reaps it). */
int hosts_each(struct host_task *t, size_t n, void *(*fn)(void *))
{
	pthread_t *th = calloc(n, sizeof(*th));
	bool *made = calloc(n, sizeof(bool)), *told = calloc(n, sizeof(bool));
	sigset_t stop, old;
	uint64_t end_at = 0;
	size_t i;

	if (!th || !made || !told) {
		free(th);
		free(made);
		free(told);
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
		if (signals_stop_requested() && !end_at)
			end_at = delay_now_ns() + t[0].pl->timeout_ns;
		for (i = 0; end_at && i < n; i++) {
			if (told[i] ||
			    __atomic_load_n(&t[i].spawned, __ATOMIC_ACQUIRE) != 1)
				continue;
			ssh_close_stdin(&t[i].job);
			ssh_end_by(&t[i].job, end_at);
			told[i] = true;
		}
		usleep(20000);
	}
	for (i = 0; i < n; i++)
		if (made[i])
			pthread_join(th[i], NULL);
	free(th);
	free(made);
	free(told);
	return 0;
}

/* The workload lines of stdin, whole, for every host. */
static int read_stdin_text(char **text)
{
	static const struct infile_limit limit = INFILE_WORKLOAD_LINES;
	size_t cap = 4096, n = 0, got;
	char *p = malloc(cap), *q, why[256];
	FILE *in = infile_fdopen(STDIN_FILENO, &limit, why, sizeof(why));

	if (!p || !in) {
		if (!in)
			fprintf(stderr, "rebench: --hosts: cannot read workload lines on stdin: %s\n",
				why);
		free(p);
		if (in)
			fclose(in);
		return p ? -EINVAL : -ENOMEM;
	}
	while ((got = fread(p + n, 1, cap - n - 1, in)) > 0) {
		n += got;
		if (cap - n < 2) {
			q = realloc(p, cap * 2);
			if (!q) {
				free(p);
				fclose(in);
				return -ENOMEM;
			}
			p = q;
			cap *= 2;
		}
	}
	if (ferror(in)) {
		fprintf(stderr, "rebench: --hosts: cannot read workload lines on stdin: %s\n",
			infile_strerror(errno, &limit, why, sizeof(why)));
		free(p);
		fclose(in);
		return -EINVAL;
	}
	fclose(in);
	p[n] = '\0';
	if (strstr(p, "REBENCH_HOSTS_WORKLOADS")) {
		free(p);
		fprintf(stderr, "rebench: --hosts: a workload line holds REBENCH_HOSTS_WORKLOADS, the end marker of the lines sent to the hosts\n");
		return -EINVAL;
	}
	*text = p;
	return 0;
}

/* REBENCH_HOSTS_TIMEOUT: seconds (90, 2.5, 300s) from 1 to a day. */
static int hosts_timeout(uint64_t *ns)
{
	const char *env = getenv("REBENCH_HOSTS_TIMEOUT");

	*ns = HOSTS_TIMEOUT_S * NSEC_PER_SEC;
	if (!env)
		return 0;
	if (parse_time(env, NSEC_PER_SEC, ns) || *ns < NSEC_PER_SEC ||
	    *ns > 86400 * NSEC_PER_SEC) {
		fprintf(stderr, "rebench: REBENCH_HOSTS_TIMEOUT=%s: give the hosts' time limit in seconds, from 1 to 86400 (90, 2.5, 300s)\n",
			env);
		return -EINVAL;
	}
	return 0;
}

/* The TARGET of each workload line, as each host's rebench will read the
 * lines (the same parser), into l->sent: what the hosts' documents must
 * name.  0, or -EINVAL after a message (a line every host would refuse
 * is refused here). */
/* How long s measures: 0 when its duration is not a time. */
static uint64_t spec_run_ns(const struct spec *s)
{
	return s->duration.kind == AMOUNT_TIME ? s->duration.value : 0;
}

/* The longest a point runs, warm-up included: the longest of base's and
 * the lines' durations (each swept -d value too); 0 when one of them is
 * not a time. */
static uint64_t plan_run_ns(const struct spec *base, const struct run_opts *run,
			    const struct sweep *sw, uint64_t lines_ns,
			    bool lines_unknown)
{
	uint64_t ns = spec_run_ns(base);
	struct amount a;
	size_t i, k;

	if (!ns || lines_unknown)
		return 0;
	if (lines_ns > ns)
		ns = lines_ns;
	for (i = 0; sw && i < sw->naxes; i++) {
		if (strcmp(sw->axes[i].opt->name, "duration"))
			continue;
		for (k = 0; k < sw->axes[i].n; k++) {
			if (parse_duration(sw->axes[i].values[k], &a) ||
			    a.kind != AMOUNT_TIME)
				return 0;
			if (a.value > ns)
				ns = a.value;
		}
	}
	return ns + run->warmup_ns;
}

static int sent_lines(const struct spec *base, const char *text,
		      struct host_list *l, uint64_t *max_ns, bool *unknown)
{
	char *copy = strdup(text), *line, *next, *words[128], why[512];
	struct parse_ctx pctx = { 0, "stdin" };
	size_t cap = 0;
	int n, ret = 0;

	if (!copy)
		return -ENOMEM;
	for (line = copy; line && !ret; line = next) {
		struct spec s;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		pctx.line++;
		n = options_split_line(line, words, 128);
		if (n == 0)
			continue;
		if (n < 0) {
			fprintf(stderr, "rebench: stdin line %u: %s; every host would refuse it\n",
				pctx.line, n == -E2BIG ? "too many words" :
				"unterminated quote");
			ret = -EINVAL;
			break;
		}
		if (spec_copy(&s, base)) {
			ret = -ENOMEM;
			break;
		}
		s.line = pctx.line;
		ret = options_parse(n, words, &s, NULL, &pctx) ? -EINVAL : 0;
		if (!ret && !s.target) {
			fprintf(stderr, "rebench: stdin line %u: no TARGET: a workload line is \"[OPTIONS] TARGET\"\n",
				pctx.line);
			ret = -EINVAL;
		} else if (!ret && hosts_target_check(s.target, why, sizeof(why))) {
			fprintf(stderr, "rebench: stdin line %u: %s\n", pctx.line, why);
			ret = -EINVAL;
		} else if (!ret && l->nsent == cap) {
			size_t more = cap ? cap * 2 : 8;
			char **g = realloc(l->sent, more * sizeof(*g));

			if (!g) {
				ret = -ENOMEM;
			} else {
				l->sent = g;
				cap = more;
			}
		}
		if (!ret && !(l->sent[l->nsent] = strdup(s.target)))
			ret = -ENOMEM;
		if (!ret) {
			l->nsent++;
			if (!spec_run_ns(&s))
				*unknown = true;
			else if (spec_run_ns(&s) > *max_ns)
				*max_ns = spec_run_ns(&s);
		}
		spec_free(&s);
	}
	free(copy);
	return ret;
}

int hosts_plan_of(struct spec *base, const struct run_opts *run,
		  const struct sweep *sw, struct host_list *l, int argc,
		  char **argv, const struct argv_map *map,
		  struct hosts_plan *pl)
{
	size_t i, per_host = 0;
	uint64_t lines_ns = 0;
	bool lines_unknown = false;
	char why[512];

	memset(pl, 0, sizeof(*pl));
	pl->run = run;
	pl->sw = sw->naxes ? sw : NULL;
	pl->ssh = run->ssh ? run->ssh : "ssh";
	pl->rebench = run->remote_rebench ? run->remote_rebench : "rebench";
	pl->target = base->target;
	l->target = base->target;
	if (hosts_timeout(&pl->timeout_ns))
		return -EINVAL;
	if (base->target && hosts_target_check(base->target, why, sizeof(why))) {
		fprintf(stderr, "rebench: --hosts: %s\n", why);
		return -EINVAL;
	}
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
		if (read_stdin_text(&pl->stdin_text) ||
		    sent_lines(base, pl->stdin_text, l, &lines_ns,
			       &lines_unknown))
			return -EINVAL;
		if (!l->nsent) {
			fprintf(stderr, "rebench: --hosts: no workload lines on stdin; give a TARGET or lines such as '-b 4k /dev/sdb'\n");
			return -EINVAL;
		}
	}
	pl->run_ns = plan_run_ns(base, run, pl->sw, lines_ns, lines_unknown);
	return plan_words(argc, argv, map, pl);
}
