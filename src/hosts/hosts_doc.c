/* hosts_doc.c - see hosts_doc.h. */
#include "hosts/hosts_doc.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "hosts/hosts_ssh.h"
#include "core/memory.h"
#include "report/version.h"
#include "report/summary.h"
#include "core/units.h"

/* Figures a host computed from its counts, as %.10g printed them: equal
 * within this share (the printing rounds to 5e-10 of each). */
#define RATE_TOLERANCE 1e-6

/* Values in a JSON text, at most: each but the first follows a ':' (a
 * member's), a '[' (an array's first) or a ',' (the next one). */
static uint64_t values_bound(const char *t, size_t len)
{
	uint64_t n = 1;
	bool in_str = false;
	size_t i;

	for (i = 0; i < len; i++) {
		if (in_str) {
			if (t[i] == '\\')
				i++;
			else if (t[i] == '"')
				in_str = false;
		} else if (t[i] == '"') {
			in_str = true;
		} else if (t[i] == ':' || t[i] == ',' || t[i] == '[') {
			n++;
		}
	}
	return n;
}

int hosts_doc_parse(const char *text, size_t len, const char *name,
		    struct json_value **doc, uint64_t *charged, char *why,
		    size_t wlen)
{
	/* json_read.h: a value each, twice that while an array grows, and
	 * the text of the strings */
	uint64_t cost = values_bound(text, len) * 2 * sizeof(struct json_value) + len;
	char a[32], b[32];
	int ret;

	*doc = NULL;
	*charged = 0;
	if (!len) {
		snprintf(why, wlen, "it printed nothing on its standard output");
		return -EINVAL;
	}
	if (!memory_take(cost)) {
		snprintf(why, wlen, "its output of %s would take about %s parsed, past rebench's memory budget of %s (see MEMORY in rebench(1))",
			 fmt_size_human(a, sizeof(a), len),
			 fmt_size_human(b, sizeof(b), cost), memory_budget_text());
		return -ENOMEM;
	}
	ret = json_parse(text, len, name, doc, why, wlen);
	if (ret) {
		memory_give(cost);
		return ret;
	}
	*charged = cost;
	return 0;
}

void hosts_doc_free(struct json_value *doc, uint64_t charged)
{
	json_free(doc);
	memory_give(charged);
}

static bool is_str(const struct json_value *v, const char *s)
{
	return v && v->type == JSON_STRING && v->len == strlen(s) &&
	       !strcmp(v->str, s);
}

static bool u64_of(const struct json_value *v, uint64_t *out)
{
	if (!v || v->type != JSON_NUMBER || !v->has_u64)
		return false;
	*out = v->u64;
	return true;
}

/* A figure: a finite number, not negative. */
static bool figure(const struct json_value *v, double *out)
{
	if (!v || v->type != JSON_NUMBER || !isfinite(v->number) ||
	    v->number < 0)
		return false;
	*out = v->number;
	return true;
}

/* "-3", or "a string": what a figure was instead, for a message */
static const char *what_was(const struct json_value *v, char *buf, size_t len)
{
	if (v && v->type == JSON_NUMBER) {
		snprintf(buf, len, "%g", v->number);
		return buf;
	}
	return v ? json_type_name(v->type) : "missing";
}

static bool near(double a, double b)
{
	return fabs(a - b) <= RATE_TOLERANCE * fmax(fabs(a), fabs(b)) + 1e-9;
}

/* What a host wrote, for a message: quoted, no control character, 80
 * bytes at most; or its type. */
static const char *shown(const struct json_value *v, char *buf, size_t len)
{
	char cut[96];

	if (!v || v->type != JSON_STRING)
		return v ? json_type_name(v->type) : "nothing";
	snprintf(cut, sizeof(cut), "'%.80s%s'", v->str, v->len > 80 ? "..." : "");
	hosts_printable(buf, len, cut);
	return buf;
}

/* A rebench version: "0.1.0", "1.2.3-rc1+g1a2b". */
static bool version_text(const struct json_value *v)
{
	size_t i;

	if (!v || v->type != JSON_STRING || !v->len || v->len >= 64)
		return false;
	for (i = 0; i < v->len; i++) {
		char c = v->str[i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		      (c >= 'A' && c <= 'Z') || c == '.' || c == '-' ||
		      c == '+' || c == '_' || c == '~'))
			return false;
	}
	return true;
}

/* tool, json_version and version: this rebench's JSON version, and the
 * version of the host's checked rebench (learn: this is the check, which
 * sets it). */
static int check_head(const struct json_value *doc, struct host *h,
		      bool learn, char *why, size_t len)
{
	const struct json_value *v = json_get(doc, "version");
	uint64_t jv = 0;
	char s[96];

	if (!is_str(json_get(doc, "tool"), "rebench")) {
		snprintf(why, len, "its output is not a document of rebench (no \"tool\": \"rebench\")");
		return -EINVAL;
	}
	if (!version_text(v)) {
		snprintf(why, len, "its document's version is %s, not a version of rebench",
			 shown(v, s, sizeof(s)));
		return -EINVAL;
	}
	if (!u64_of(json_get(doc, "json_version"), &jv) || jv != JSON_VERSION) {
		snprintf(why, len, "its rebench %s writes json_version %llu, this one %d: install the same version on every host",
			 v->str, (unsigned long long)jv, JSON_VERSION);
		return -EINVAL;
	}
	if (learn) {
		snprintf(h->version, sizeof(h->version), "%s", v->str);
		h->json_version = jv;
	} else if (strcmp(v->str, h->version)) {
		snprintf(why, len, "its run's document is of rebench %s, its check was of rebench %s",
			 v->str, h->version);
		return -EINVAL;
	}
	return 0;
}

/* Workload k's target against the one sent. */
static int check_target(const struct host_list *l, size_t i, size_t k,
			const struct json_value *t, const char *what,
			char *why, size_t len)
{
	const char *sent = hosts_sent_target(l, i, k);
	char s[96], e[96];

	if (is_str(t, sent))
		return 0;
	hosts_printable(e, sizeof(e), sent);
	snprintf(why, len, "its %s's workload %zu is on %s, not on '%s' as sent",
		 what, k + 1, shown(t, s, sizeof(s)), e);
	return -EINVAL;
}

int hosts_doc_check_dry(const struct host_list *l, size_t i,
			const struct json_value *doc, size_t points,
			char *why, size_t len)
{
	struct host *h = &l->h[i];
	const struct json_value *dr = json_get(doc, "dry_run");
	const struct json_value *wls = json_get(dr, "workloads"), *w, *d;
	size_t n = hosts_sent_count(l), k, at = 0;
	uint64_t v = 0;

	if (check_head(doc, h, true, why, len))
		return -EINVAL;
	if (!dr || dr->type != JSON_OBJECT) {
		snprintf(why, len, "its rebench %s did not do a dry run", h->version);
		return -EINVAL;
	}
	if (!u64_of(json_get(dr, "points"), &v) || v != points) {
		snprintf(why, len, "its dry run counts %llu points, %zu %s sent",
			 (unsigned long long)v, points, points == 1 ? "was" : "were");
		return -EINVAL;
	}
	d = json_get(dr, "destroys");
	if (!d || d->type != JSON_BOOL) {
		snprintf(why, len, "its dry run does not say whether it writes (destroys)");
		return -EINVAL;
	}
	if (!wls || wls->type != JSON_ARRAY || wls->n != n) {
		snprintf(why, len, "its dry run lists %zu workload%s, %zu %s sent",
			 wls && wls->type == JSON_ARRAY ? wls->n : 0,
			 wls && wls->type == JSON_ARRAY && wls->n == 1 ? "" : "s",
			 n, n == 1 ? "was" : "were");
		return -EINVAL;
	}
	for (k = 0; k < n; k++) {
		w = json_at(wls, k);
		if (!u64_of(json_get(w, "workload"), &v) || v != k + 1) {
			snprintf(why, len, "its dry run's workload %zu is not numbered %zu", k + 1, k + 1);
			return -EINVAL;
		}
		if (check_target(l, i, k, json_get(w, "target"), "dry run", why, len))
			return -EINVAL;
	}
	h->destroys = d->boolean;
	h->nwl = n;
	h->targets[0] = '\0';
	for (k = 0; k < n && at < sizeof(h->targets); k++) {
		char t[PATH_MAX];

		hosts_printable(t, sizeof(t), hosts_sent_target(l, i, k));
		at += (size_t)snprintf(h->targets + at, sizeof(h->targets) - at,
				       "%s%s", k ? ", " : "", t);
	}
	return 0;
}

/* start_at: the instant sent, and late_ns = started_ns - requested_ns
 * (0 when it started on time or was stopped before). */
static int check_start(const struct json_value *doc, uint64_t start_ns,
		       char *why, size_t len)
{
	const struct json_value *sa = json_get(doc, "start_at");
	uint64_t req = 0, started, late;

	if (!u64_of(json_get(sa, "requested_ns"), &req) || req != start_ns) {
		snprintf(why, len, "its document's start_at.requested_ns is %llu, the instant sent was %llu: not this run's document",
			 (unsigned long long)req, (unsigned long long)start_ns);
		return -EINVAL;
	}
	if (!u64_of(json_get(sa, "started_ns"), &started) ||
	    !u64_of(json_get(sa, "late_ns"), &late) ||
	    late != (started > req ? started - req : 0)) {
		snprintf(why, len, "its document's start_at.late_ns is not started_ns - requested_ns");
		return -EINVAL;
	}
	return 0;
}

/* A workload's results: figures finite and non-negative, its counts and
 * rates consistent (ios = its histogram's count, at least reads + writes +
 * trims; ops/s = ios / elapsed_s, MB/s = bytes / elapsed_s / 2^20). */
static int check_results(const struct json_value *res, size_t k, char *why,
			 size_t len)
{
	static const char *const figs[] = { "elapsed_s", "ops_per_s", "mib_per_s" };
	static const char *const lats[] = { "min", "avg", "p50", "p90", "p99",
					    "p99_9", "max" };
	static const char *const counts[] = { "ios", "reads", "writes",
					      "trims", "bytes" };
	const struct json_value *lat = json_get(res, "latency_us");
	const struct json_value *hist = json_get(res, "latency_hist"), *v;
	double f[3], x;
	uint64_t c[5], hc, hmin, hmax, hsum;
	char s[32];
	size_t m;

	for (m = 0; m < 3; m++)
		if (!figure(v = json_get(res, figs[m]), &f[m])) {
			snprintf(why, len, "workload %zu: results.%s is %s, not a figure (a finite number, not negative)",
				 k + 1, figs[m], what_was(v, s, sizeof(s)));
			return -EINVAL;
		}
	for (m = 0; m < 5; m++)
		if (!u64_of(json_get(res, counts[m]), &c[m])) {
			snprintf(why, len, "workload %zu: results.%s is not a count", k + 1, counts[m]);
			return -EINVAL;
		}
	for (m = 0; m < 7; m++) {
		v = json_get(lat, lats[m]);
		if (!v || (v->type != JSON_NULL && !figure(v, &x))) {
			snprintf(why, len, "workload %zu: results.latency_us.%s is %s, not a figure (a finite number, not negative)",
				 k + 1, lats[m], what_was(v, s, sizeof(s)));
			return -EINVAL;
		}
	}
	if (c[1] > c[0] || c[2] > c[0] - c[1] || c[3] > c[0] - c[1] - c[2]) {
		snprintf(why, len, "workload %zu: its reads, writes and trims (%llu, %llu, %llu) are more than its ios (%llu)",
			 k + 1, (unsigned long long)c[1], (unsigned long long)c[2],
			 (unsigned long long)c[3], (unsigned long long)c[0]);
		return -EINVAL;
	}
	if (!u64_of(json_get(hist, "count"), &hc) || hc != c[0] ||
	    !u64_of(json_get(hist, "min"), &hmin) ||
	    !u64_of(json_get(hist, "max"), &hmax) ||
	    !u64_of(json_get(hist, "sum"), &hsum) ||
	    (hc && (hmin > hmax || (long double)hsum < (long double)hmin * hc ||
		    (long double)hsum > (long double)hmax * hc))) {
		snprintf(why, len, "workload %zu: its latency_hist does not hold its %llu ios (count, min <= sum / count <= max)",
			 k + 1, (unsigned long long)c[0]);
		return -EINVAL;
	}
	if (!near(f[1], f[0] > 0 ? (double)c[0] / f[0] : 0) ||
	    !near(f[2], f[0] > 0 ? (double)c[4] / f[0] / 1048576.0 : 0)) {
		snprintf(why, len, "workload %zu: its ops_per_s %g and mb_per_s %g are not its %llu ios and %llu bytes in %g s",
			 k + 1, f[1], f[2], (unsigned long long)c[0],
			 (unsigned long long)c[4], f[0]);
		return -EINVAL;
	}
	return 0;
}

static bool known_status(const struct json_value *v)
{
	int s;

	for (s = WL_COMPLETE; s <= WL_MEMORY; s++)
		if (is_str(v, workload_status_name(s)))
			return true;
	return false;
}

int hosts_doc_check_run(const struct host_list *l, size_t i,
			const struct json_value *doc, uint64_t start_ns,
			char *why, size_t len)
{
	struct host *h = &l->h[i];
	const struct json_value *wls = json_get(doc, "workloads"), *w, *res, *v;
	size_t k;
	uint64_t num;
	char s[96];

	if (check_head(doc, h, false, why, len) ||
	    check_start(doc, start_ns, why, len))
		return -EINVAL;
	v = json_get(doc, "interrupted");
	if (!v || v->type != JSON_BOOL) {
		snprintf(why, len, "its document has no \"interrupted\": true or false");
		return -EINVAL;
	}
	if (!wls || wls->type != JSON_ARRAY || wls->n != h->nwl) {
		snprintf(why, len, "its document has %zu workload%s, %zu %s sent",
			 wls && wls->type == JSON_ARRAY ? wls->n : 0,
			 wls && wls->type == JSON_ARRAY && wls->n == 1 ? "" : "s",
			 h->nwl, h->nwl == 1 ? "was" : "were");
		return -EINVAL;
	}
	for (k = 0; k < wls->n; k++) {
		w = json_at(wls, k);
		if (!u64_of(json_get(w, "workload"), &num) || num != k + 1) {
			snprintf(why, len, "its document's workload %zu is not numbered %zu",
				 k + 1, k + 1);
			return -EINVAL;
		}
		v = json_get(w, "status");
		if (!known_status(v)) {
			snprintf(why, len, "workload %zu: its status %s is none of rebench's",
				 k + 1, shown(v, s, sizeof(s)));
			return -EINVAL;
		}
		if (check_target(l, i, k, json_get(json_get(w, "target"), "path"),
				 "document", why, len))
			return -EINVAL;
		res = json_get(w, "results");
		if (res && res->type == JSON_OBJECT &&
		    check_results(res, k, why, len))
			return -EINVAL;
	}
	return 0;
}
