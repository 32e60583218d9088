/* hosts_check.c - before any host starts: each host's rebench --dry-run
 * --json (present, of this JSON version, every workload valid there), its
 * clock against this one's (--clock-echo round trips), the offsets said,
 * and one question for every host and device that would be written. */
#include "hosts/hosts_plan.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/confirm.h"
#include "core/delay.h"
#include "hosts/hosts_doc.h"
#include "hosts/hosts_remote.h"
#include "report/version.h"
#include "core/signals.h"

#define CLOCK_ROUNDS 8
#define CLOCK_WAIT_MS 5000	/* a round trip's longest */

/* The host's rebench said no: its words, each line with the host's name,
 * control characters shown as '?'; its notes ("rebench: note: ...") are
 * not why, and the local run says them itself. */
static void quote_stderr(struct host *h, const char *err)
{
	size_t n = 0;
	const char *p = err, *e;
	char line[1024];

	h->reason[0] = '\0';
	while (*p && n < sizeof(h->reason) - 1) {
		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		if (e > p && strncmp(p, "rebench: note: ", 15)) {
			snprintf(line, sizeof(line), "%.*s", (int)(e - p), p);
			hosts_printable(line, sizeof(line), line);
			n += (size_t)snprintf(h->reason + n, sizeof(h->reason) - n,
					      "%s%s", n ? "\n    " : "", line);
		}
		p = *e ? e + 1 : e;
	}
}

/* --dry-run --json on host i: present, of this JSON version, every
 * workload valid there, and its document what was sent. */
static void check_host(const struct hosts_plan *pl, struct host_list *l,
		       size_t i)
{
	static const char *const extra[] = { "--dry-run", "--json", "--yes" };
	struct host *h = &l->h[i];
	char **w = calloc(hosts_max_words(pl), sizeof(char *)), why[512];
	struct json_value *doc = NULL;
	uint64_t charged = 0;
	struct ssh_job j;
	const char *err;
	size_t n;

	h->state = HOST_REFUSED;
	if (!w) {
		snprintf(h->reason, sizeof(h->reason), "out of memory");
		return;
	}
	n = hosts_words(pl, h, extra, 3, NULL, 0, w);
	if (hosts_run_words(pl, h, w, n, REMOTE_STDIN_TEXT, true, &j)) {
		snprintf(h->reason, sizeof(h->reason), "cannot run %s", pl->ssh);
		free(w);
		return;
	}
	free(w);
	ssh_finish(&j);
	h->check_s = j.seconds;
	err = j.err ? j.err : "";
	ssh_last_error(&j, why, sizeof(why));
	if (j.ended != SSH_NOT_ENDED) {
		h->state = j.ended == SSH_TIMED_OUT ? HOST_UNREACHABLE : HOST_REFUSED;
		ssh_ended_why(&j, why, sizeof(why));
		snprintf(h->reason, sizeof(h->reason), "its check (rebench --dry-run): %s", why);
	} else if (j.code == 255) {
		h->state = HOST_UNREACHABLE;
		snprintf(h->reason, sizeof(h->reason), "ssh could not reach it: %s",
			 why);
	} else if (j.code == 127) {
		snprintf(h->reason, sizeof(h->reason), "no rebench there (%s: %s); install rebench on it, or give --remote-rebench PATH",
			 pl->rebench, why);
	} else if (j.code != 0 && strstr(err, "--dry-run")) {
		snprintf(h->reason, sizeof(h->reason), "its rebench is older than --hosts (no --dry-run): install this version (json_version %d) there",
			 JSON_VERSION);
	} else if (j.code != 0) {
		quote_stderr(h, err);
	} else if (hosts_doc_parse(j.out, j.out_len, h->name, &doc, &charged,
				   why, sizeof(why))) {
		snprintf(h->reason, sizeof(h->reason), "its rebench printed no JSON document for --dry-run --json: %s",
			 why);
	} else if (hosts_doc_check_dry(l, i, doc, pl->sw ? pl->sw->npoints : 1,
				       why, sizeof(why))) {
		snprintf(h->reason, sizeof(h->reason), "%s", why);
	} else {
		h->state = HOST_OK;
	}
	hosts_doc_free(doc, charged);
	ssh_job_free(&j);
}

/* One line from the job's stdout within CLOCK_WAIT_MS, its deadline and
 * no stop; 0 or -1. */
static int read_line(struct ssh_job *j, char *buf, size_t len)
{
	uint64_t until = delay_now_ns() + CLOCK_WAIT_MS * 1000000ULL;
	size_t n = 0;
	char c;

	if (j->deadline_ns && j->deadline_ns < until)
		until = j->deadline_ns;
	while (n + 1 < len) {
		struct pollfd p = { j->out_fd, POLLIN, 0 };
		int r = poll(&p, 1, 200);

		if (r < 0 && errno != EINTR)
			return -1;
		if (r <= 0) {
			if (signals_stop_requested() || delay_now_ns() >= until)
				return -1;
			continue;
		}
		if (read(j->out_fd, &c, 1) != 1)
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

	if (hosts_run_words(pl, h, w, 2, REMOTE_STDIN_SSH, true, &j)) {
		h->state = HOST_REFUSED;
		snprintf(h->reason, sizeof(h->reason), "cannot run %s", pl->ssh);
		return;
	}
	for (r = 0; r < CLOCK_ROUNDS; r++) {
		t0 = run_realtime_ns();
		if (write(j.in_fd, "t\n", 2) != 2 || read_line(&j, line, sizeof(line)))
			break;
		t1 = run_realtime_ns();
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
		if (j.ended != SSH_NOT_ENDED)
			ssh_ended_why(&j, why, sizeof(why));
		else
			ssh_last_error(&j, why, sizeof(why));
		h->state = j.ended == SSH_TIMED_OUT ? HOST_UNREACHABLE : HOST_REFUSED;
		snprintf(h->reason, sizeof(h->reason), "no clock from its rebench --clock-echo: %s",
			 why);
	}
	ssh_job_free(&j);
}

static void *check_thread(void *arg)
{
	struct host_task *t = arg;

	check_host(t->pl, t->list, (size_t)(t->h - t->list->h));
	if (t->h->state == HOST_OK)
		clock_host(t->pl, t->h);
	__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Every host checked and its clock measured, at once; EXIT_OK, or
 * EXIT_BAD_ARGS after naming each host that cannot run. */
int hosts_check_all(const struct hosts_plan *pl, struct host_list *l,
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
		t[i].list = l;
		t[i].h = &l->h[i];
	}
	hosts_each(t, l->n, check_thread);
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
void hosts_say_offsets(const struct host_list *l, uint64_t max_ns,
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
int hosts_confirm(const struct host_list *l, const struct run_opts *run)
{
	char *text = NULL;
	size_t i, len = 0, writers = 0;
	FILE *f;
	int ret;

	for (i = 0; i < l->n; i++)
		writers += l->h[i].destroys;
	if (!writers || run->yes || run->silent)
		return 0;
	f = open_memstream(&text, &len);
	if (!f)
		return -ENOMEM;
	for (i = 0; i < l->n; i++)
		if (l->h[i].destroys)
			fprintf(f, "  host %s: writes to %s\n", l->h[i].name,
				l->h[i].targets);
	if (fclose(f)) {
		free(text);
		return -ENOMEM;
	}
	ret = confirm_ask_text(text, "Continue on every host? [y/N] ",
			       "not confirmed; no host started, nothing was written.");
	free(text);
	if (ret == -EPERM)
		fprintf(stderr, "rebench: refusing to write on %zu host%s without confirmation: there is no terminal to ask on. Add --yes (or -n) to confirm.\n",
			writers, writers == 1 ? "" : "s");
	return ret;
}

