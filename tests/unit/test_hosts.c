/* test_hosts.c - the parts of --hosts that run no ssh: the hosts list and
 * file (names with shell characters refused, targets with control
 * characters refused), the remote command's quoting, --start-at's
 * instant, the checks of a host's documents against what was sent, their
 * cost in the memory budget, and the merge: percentiles of the summed
 * histograms of three JSON documents equal those of one histogram built
 * from all their latencies, ops/s summed, and the outliers. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "temp_text.h"

#include "core/hist.h"
#include "hosts/hosts.h"
#include "hosts/hosts_doc.h"
#include "hosts/hosts_merge.h"
#include "hosts/hosts_remote.h"
#include "hosts/hosts_ssh.h"
#include "core/json.h"
#include "core/json_read.h"
#include "gen/prng.h"
#include "report/version.h"

#define TEXT_(x) #x
#define TEXT(x) TEXT_(x)
#define JSON_VERSION_TEXT TEXT(JSON_VERSION)

static void fresh(char *path, const char *text);

static int parse_list(const char *list, struct host_list *l)
{
	struct run_opts run = { 0 };

	run.hosts = (char *)list;
	return hosts_parse(&run, l);
}

static void test_list(void **state)
{
	struct host_list l;

	(void)state;
	assert_int_equal(0, parse_list("a,bob@b:2222, c ", &l));
	assert_int_equal(3, l.n);
	assert_string_equal("a", l.h[0].dest);
	assert_string_equal("", l.h[0].port);
	assert_string_equal("bob@b", l.h[1].dest);
	assert_string_equal("2222", l.h[1].port);
	assert_string_equal("bob@b:2222", l.h[1].name);
	assert_string_equal("c", l.h[2].name);
	hosts_free(&l);
	/* empty, malformed, twice */
	assert_int_not_equal(0, parse_list("", &l));
	assert_int_not_equal(0, parse_list(",,", &l));
	assert_int_not_equal(0, parse_list("a,a", &l));
	assert_int_not_equal(0, parse_list("@a", &l));
	assert_int_not_equal(0, parse_list("a@b@c", &l));
	assert_int_not_equal(0, parse_list("a:", &l));
	assert_int_not_equal(0, parse_list("a:70000", &l));
	assert_int_not_equal(0, parse_list("a:22x", &l));
	assert_int_not_equal(0, parse_list("-oProxyCommand=x", &l));
	assert_int_not_equal(0, parse_list("u@:22", &l));
}

/* Issue 26, item 14: what a shell or ssh's % tokens would act on never
 * reaches ssh; IPv6 addresses in brackets do, without them. */
static void test_list_names(void **state)
{
	static const char *const bad[] = {
		"h$(touch x)", "h;id", "h`id`", "h|x", "h&x", "h>x", "h<x",
		"h%h", "h*", "h?", "h~", "h!", "h\\x", "h'x", "h\"x", "h x",
		"h\tx", "h\nx", "u$x@h", "u;x@h", "@h", "u@-h", "-h", "fe80::1",
		"[fe80::1", "[]", "[fe80::g]", "[::1]x", "[::1]:", "h:1:2", "h:99999",
		"h:022222",
	};
	struct host_list l;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!parse_list(bad[i], &l)) {
			print_error("'%s' was taken as a host\n", bad[i]);
			fail();
		}
	}
	assert_int_not_equal(0, parse_list("root@[fe80::1%0]", &l));
	assert_int_equal(0, parse_list("bob.smith_2@[::1]:2222,[10.0.0.1],db-1.example.com:22,u-1@h_2", &l));
	assert_int_equal(4, l.n);
	assert_string_equal("bob.smith_2@::1", l.h[0].dest);
	assert_string_equal("2222", l.h[0].port);
	assert_string_equal("10.0.0.1", l.h[1].dest);
	assert_string_equal("", l.h[1].port);
	assert_string_equal("db-1.example.com", l.h[2].dest);
	assert_string_equal("u-1@h_2", l.h[3].dest);
	hosts_free(&l);
}

static void test_target_check(void **state)
{
	char why[512], path[32];
	struct run_opts run = { 0 };
	struct host_list l;

	(void)state;
	assert_int_equal(0, hosts_target_check("/dev/disk/by-id/x$(y);`z` | & > %h", why, sizeof(why)));
	assert_int_not_equal(0, hosts_target_check("/tmp/a\nhosts 1 - 1 x", why, sizeof(why)));
	assert_non_null(strstr(why, "0x0a"));
	assert_int_not_equal(0, hosts_target_check("/tmp/a\033[31m", why, sizeof(why)));
	assert_int_not_equal(0, hosts_target_check("/tmp/a\tb", why, sizeof(why)));
	assert_int_not_equal(0, hosts_target_check("/tmp/a\177", why, sizeof(why)));
	assert_int_not_equal(0, hosts_target_check("", why, sizeof(why)));
	fresh(path, "h1 '/dev/a\033b'\n");
	run.hosts_file = path;
	assert_int_not_equal(0, hosts_parse(&run, &l));
	unlink(path);
}

static void fresh(char *path, const char *text)
{
	strcpy(path, "/tmp/test_hosts.XXXXXX");
	write_temp_text(path, text);
}

static void test_file(void **state)
{
	char path[32];
	struct run_opts run = { 0 };
	struct host_list l;

	(void)state;
	fresh(path, "# the cluster\nroot@h1:2201 /dev/sdb\n\nh2   # no target\n'h3' '/dev/disk by id'\n");
	run.hosts_file = path;
	assert_int_equal(0, hosts_parse(&run, &l));
	assert_int_equal(3, l.n);
	assert_string_equal("/dev/sdb", l.h[0].target);
	assert_int_equal(2, l.h[0].line);
	assert_string_equal("", l.h[1].target);
	assert_string_equal("/dev/disk by id", l.h[2].target);
	hosts_free(&l);
	unlink(path);
	fresh(path, "h1 /dev/a\nh1 /dev/b\n");
	assert_int_not_equal(0, hosts_parse(&run, &l));
	unlink(path);
	fresh(path, "h1 /dev/a extra\n");
	assert_int_not_equal(0, hosts_parse(&run, &l));
	unlink(path);
	fresh(path, "# nothing\n\n");
	assert_int_not_equal(0, hosts_parse(&run, &l));
	unlink(path);
	run.hosts = "a";
	assert_int_not_equal(0, hosts_parse(&run, &l));	/* both */
}

static void test_remote_command(void **state)
{
	char *w[] = { "rebench", "-b", "4k", "it's", "--", "/dev/x y" };
	char *c;

	(void)state;
	c = ssh_remote_command(w, 6, NULL, REMOTE_STDIN_TEXT);
	assert_string_equal("exec 'rebench' '-b' '4k' 'it'\\''s' '--' '/dev/x y' </dev/null", c);
	free(c);
	c = ssh_remote_command(w, 3, "-b 8k /dev/a\n/dev/b", REMOTE_FD3_SSH);
	assert_string_equal("exec 'rebench' '-b' '4k' 3<&0 <<'REBENCH_HOSTS_WORKLOADS'\n-b 8k /dev/a\n/dev/b\nREBENCH_HOSTS_WORKLOADS\n", c);
	free(c);
	c = ssh_remote_command(w, 1, NULL, REMOTE_STDIN_SSH);
	assert_string_equal("exec 'rebench'", c);
	free(c);
}

static void test_start_at(void **state)
{
	uint64_t ns;

	(void)state;
	assert_int_equal(0, hosts_parse_start_at("1795709255.573228213", &ns));
	assert_true(ns == 1795709255573228213ULL);
	assert_int_equal(0, hosts_parse_start_at("17.5", &ns));
	assert_true(ns == 17500000000ULL);
	assert_int_equal(0, hosts_parse_start_at("3", &ns));
	assert_true(ns == 3000000000ULL);
	assert_int_not_equal(0, hosts_parse_start_at("", &ns));
	assert_int_not_equal(0, hosts_parse_start_at("-1", &ns));
	assert_int_not_equal(0, hosts_parse_start_at("1e9", &ns));
	assert_int_not_equal(0, hosts_parse_start_at("12x", &ns));
	assert_int_equal(0, hosts_parse_clock("1795709255573228213", &ns));
	assert_true(ns == 1795709255573228213ULL);
	assert_int_not_equal(0, hosts_parse_clock("12 3", &ns));
}

/* A document as a host's rebench writes one: workload 1's results with
 * ops/s, MB/s, ios and the latency_hist of h. */
static char *doc_of(const struct hist *h, double ops)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct json jw, *j = &jw;
	unsigned i;

	json_init(j, f);
	json_obj_begin(j, NULL);
	json_u64(j, "json_version", 6);
	json_arr_begin(j, "workloads");
	json_obj_begin(j, NULL);
	json_str(j, "status", "complete");
	json_obj_begin(j, "results");
	json_num(j, "ops_per_s", ops);
	json_num(j, "mib_per_s", ops / 256);
	json_u64(j, "ios", h->count);
	json_obj_begin(j, "latency_hist");
	json_u64(j, "sub_bits", HIST_SUB_BITS);
	json_u64(j, "count", h->count);
	json_u64(j, "min", h->min);
	json_u64(j, "max", h->max);
	json_u64(j, "sum", h->sum);
	json_arr_begin(j, "buckets");
	for (i = 0; i < HIST_BUCKETS; i++)
		if (h->buckets[i]) {
			json_arr_begin(j, NULL);
			json_u64(j, NULL, i);
			json_u64(j, NULL, h->buckets[i]);
			json_arr_end(j);
		}
	json_arr_end(j);
	json_obj_end(j);
	json_obj_end(j);
	json_obj_end(j);
	json_arr_end(j);
	json_obj_end(j);
	fclose(f);
	return text;
}

static void test_merge_exact(void **state)
{
	static struct hist one[3], all, merged;
	struct json_value *doc[3];
	struct host_fig fig[3], m;
	struct prng r;
	char err[256], *text;
	double ops[3] = { 1000, 2000, 4000 };
	size_t i, k;

	(void)state;
	prng_seed(&r, 42, 0);
	hist_init(&all);
	for (i = 0; i < 3; i++) {
		hist_init(&one[i]);
		/* three hosts of different speeds: 50, 100, 400 us typical */
		for (k = 0; k < 20000; k++) {
			uint64_t v = (uint64_t)((50 << (i * i)) * 1000.0 *
						(0.5 + (double)prng_next(&r) / 18446744073709551616.0 * 2));

			hist_add(&one[i], v);
			hist_add(&all, v);
		}
		text = doc_of(&one[i], ops[i]);
		assert_int_equal(0, json_parse(text, strlen(text), "doc", &doc[i],
					       err, sizeof(err)));
		free(text);
	}
	hist_init(&merged);
	for (i = 0; i < 3; i++)
		assert_int_equal(0, hosts_fig_of(doc[i], 0, &fig[i], &merged, err,
						 sizeof(err)));
	hosts_fig_merge(fig, 3, &merged, &m);
	assert_true(m.hosts == 3);
	assert_true(m.ops_per_s == 7000);
	assert_true(m.ios == 60000);
	/* exact: the same numbers as one histogram of every latency */
	assert_true(m.p50 == hist_percentile(&all, 50) / 1e3);
	assert_true(m.p99 == hist_percentile(&all, 99) / 1e3);
	assert_true(m.p999 == hist_percentile(&all, 99.9) / 1e3);
	assert_true(m.max == (double)all.max / 1e3);
	assert_true(m.avg == hist_mean(&all) / 1e3);
	/* and not the average of the hosts' p99 */
	assert_true(fabs(m.p99 - (fig[0].p99 + fig[1].p99 + fig[2].p99) / 3) > 1);
	/* the 4000 ops/s host is 100% above the median (2000): an outlier
	 * at 20%, as is the 1000 one (-50%) */
	assert_int_equal(2, hosts_outliers(fig, 3, 20));
	assert_true(fig[2].outlier && fig[0].outlier && !fig[1].outlier);
	assert_true(fabs(fig[2].ops_dev_pct - 100) < 1e-9);
	/* two hosts: no median to speak of */
	fig[0].outlier = fig[2].outlier = false;
	assert_int_equal(0, hosts_outliers(fig, 2, 20));
	/* a document without latency_hist is refused with why */
	{
		struct json_value *old;
		const char *t = "{\"workloads\": [{\"status\": \"complete\", \"results\": {\"ops_per_s\": 5}}]}";

		assert_int_equal(0, json_parse(t, strlen(t), "old", &old, err, sizeof(err)));
		assert_int_not_equal(0, hosts_fig_of(old, 0, &fig[0], &merged, err, sizeof(err)));
		assert_non_null(strstr(err, "latency_hist"));
		json_free(old);
	}
	for (i = 0; i < 3; i++)
		json_free(doc[i]);
}

/* A host's run document, as far as the checks read it: one workload on
 * /dev/x, 100 ios in 0.5 s, started at 1000 ns (5 late). */
static const char run_doc[] =
	"{\"tool\": \"rebench\", \"version\": \"0.1.0\", \"json_version\": " JSON_VERSION_TEXT ","
	" \"start_at\": {\"requested_ns\": 1000, \"started_ns\": 1005, \"late_ns\": 5},"
	" \"interrupted\": false, \"workloads\": [{\"workload\": 1, \"status\": \"complete\","
	" \"target\": {\"path\": \"/dev/x\"}, \"results\": {\"elapsed_s\": 0.5, \"ios\": 100,"
	" \"reads\": 100, \"writes\": 0, \"trims\": 0, \"bytes\": 409600, \"ops_per_s\": 200,"
	" \"mib_per_s\": 0.78125, \"latency_us\": {\"min\": 1, \"avg\": 2, \"p50\": 2, \"p90\": 3,"
	" \"p99\": 3, \"p99_9\": 3, \"max\": 3}, \"latency_hist\": {\"count\": 100, \"min\": 1000,"
	" \"max\": 3000, \"sum\": 200000}}}]}";

static const char dry_doc[] =
	"{\"tool\": \"rebench\", \"version\": \"0.1.0\", \"json_version\": " JSON_VERSION_TEXT ","
	" \"dry_run\": {\"points\": 2, \"destroys\": true, \"workloads\": [{\"workload\": 1,"
	" \"target\": \"/dev/x\", \"operations\": \"write\", \"destroys\": true}]}}";

/* doc with from replaced by to, parsed and checked; the check's return */
static int check_variant(const char *doc, const char *from, const char *to,
			 struct host_list *l, bool dry, char *why, size_t len)
{
	char text[4096], *at;
	struct json_value *v;
	uint64_t charged;
	int ret;

	assert_true(strlen(doc) + (to ? strlen(to) : 0) < sizeof(text));
	strcpy(text, doc);
	if (from) {
		at = strstr(text, from);
		assert_non_null(at);
		memmove(at + strlen(to), at + strlen(from), strlen(at + strlen(from)) + 1);
		memcpy(at, to, strlen(to));
	}
	if (hosts_doc_parse(text, strlen(text), "h1", &v, &charged, why, len)) {
		print_error("%s\n%s\n", text, why);
		fail();
	}
	ret = dry ? hosts_doc_check_dry(l, 0, v, 2, why, len) :
		    hosts_doc_check_run(l, 0, v, 1000, why, len);
	hosts_doc_free(v, charged);
	return ret;
}

/* Issue 26, items 10 and 15: documents that do not match what was sent. */
static void test_doc_checks(void **state)
{
	static const struct {
		const char *from, *to, *why;
	} bad_run[] = {
		{ "\"workloads\": [{", "\"workloads\": [], \"x\": [{", "0 workloads, 1 was sent" },
		{ "}}]}", "}}, {\"workload\": 2}]}", "2 workloads, 1 was sent" },
		{ "\"json_version\": " JSON_VERSION_TEXT, "\"json_version\": 999", "json_version 999" },
		{ "\"version\": \"0.1.0\"", "\"version\": \"0.2.0\"", "its check was of rebench 0.1.0" },
		{ "\"version\": \"0.1.0\"", "\"version\": \"0.1\\n0\"", "not a version" },
		{ "\"tool\": \"rebench\"", "\"tool\": \"fio\"", "not a document of rebench" },
		{ "\"requested_ns\": 1000", "\"requested_ns\": 999", "not this run's document" },
		{ "\"late_ns\": 5", "\"late_ns\": 7", "late_ns is not" },
		{ "\"interrupted\": false", "\"interrupted\": 0", "interrupted" },
		{ "\"workload\": 1", "\"workload\": 2", "not numbered 1" },
		{ "\"complete\"", "\"complete 1\"", "none of rebench's" },
		{ "\"/dev/x\"", "\"/dev/x\\nhosts 1\"", "is on '/dev/x?hosts 1', not on '/dev/x'" },
		{ "\"/dev/x\"", "\"/dev/y\"", "not on '/dev/x' as sent" },
		{ "\"ops_per_s\": 200", "\"ops_per_s\": -3", "ops_per_s is -3, not a figure" },
		{ "\"ops_per_s\": 200", "\"ops_per_s\": \"200\"", "ops_per_s is a string, not a figure" },
		{ "\"ops_per_s\": 200", "\"ops_per_s\": 201", "are not its 100 ios" },
		{ "\"mib_per_s\": 0.78125", "\"mib_per_s\": 0.8", "are not its 100 ios" },
		{ "\"elapsed_s\": 0.5", "\"elapsed_s\": -0.5", "elapsed_s is -0.5" },
		{ "\"p99\": 3", "\"p99\": -1", "latency_us.p99 is -1" },
		{ "\"ios\": 100", "\"ios\": 101", "latency_hist does not hold" },
		{ "\"reads\": 100", "\"reads\": 101", "more than its ios" },
		{ "\"writes\": 0", "\"writes\": -1", "results.writes is not a count" },
		{ "\"sum\": 200000", "\"sum\": 99999", "latency_hist does not hold" },
		{ "\"sum\": 200000", "\"sum\": 300001", "latency_hist does not hold" },
	};
	static const struct {
		const char *from, *to, *why;
	} bad_dry[] = {
		{ "\"points\": 2", "\"points\": 1", "counts 1 points, 2 were sent" },
		{ "\"workloads\": [{", "\"workloads\": [], \"x\": [{", "lists 0 workloads, 1 was sent" },
		{ "\"/dev/x\"", "\"/dev/y\"", "dry run's workload 1 is on '/dev/y', not on '/dev/x'" },
		{ "\"json_version\": " JSON_VERSION_TEXT, "\"json_version\": 5", "writes json_version 5" },
		{ "\"destroys\": true, \"w", "\"destroys\": 1, \"w", "whether it writes" },
	};
	struct host_list l = { 0 };
	struct host h;
	char why[1024];
	size_t i;

	(void)state;
	memset(&h, 0, sizeof(h));
	strcpy(h.name, "h1");
	l.h = &h;
	l.n = 1;
	l.target = "/dev/x";
	/* the dry run: learns the version and the workloads */
	assert_int_equal(0, check_variant(dry_doc, NULL, NULL, &l, true, why, sizeof(why)));
	assert_string_equal("0.1.0", h.version);
	assert_int_equal(1, h.nwl);
	assert_true(h.destroys);
	assert_string_equal("/dev/x", h.targets);
	for (i = 0; i < sizeof(bad_dry) / sizeof(bad_dry[0]); i++) {
		assert_int_not_equal(0, check_variant(dry_doc, bad_dry[i].from, bad_dry[i].to,
						      &l, true, why, sizeof(why)));
		if (!strstr(why, bad_dry[i].why)) {
			print_error("dry %zu: '%s' does not say '%s'\n", i, why, bad_dry[i].why);
			fail();
		}
	}
	strcpy(h.version, "0.1.0");
	h.nwl = 1;
	assert_int_equal(0, check_variant(run_doc, NULL, NULL, &l, false, why, sizeof(why)));
	for (i = 0; i < sizeof(bad_run) / sizeof(bad_run[0]); i++) {
		assert_int_not_equal(0, check_variant(run_doc, bad_run[i].from, bad_run[i].to,
						      &l, false, why, sizeof(why)));
		if (!strstr(why, bad_run[i].why)) {
			print_error("run %zu: '%s' does not say '%s'\n", i, why, bad_run[i].why);
			fail();
		}
	}
	/* null latencies (no I/O) and no results at all pass this check */
	assert_int_equal(0, check_variant(run_doc, "\"p99\": 3", "\"p99\": null", &l, false, why, sizeof(why)));
}

/* Issue 26, item 11: a document's parsed tree is taken from the budget
 * (REBENCH_MEMORY_BUDGET=1m here) and given back. */
static void test_doc_budget(void **state)
{
	size_t n = 200000, i;
	char *big = malloc(2 * n + 2), why[512];
	struct json_value *v;
	uint64_t charged;

	(void)state;
	assert_non_null(big);
	/* [0,0,...,0]: 100000 values, 22 MB parsed at most */
	big[0] = '[';
	for (i = 1; i + 2 < n; i += 2) {
		big[i] = '0';
		big[i + 1] = ',';
	}
	big[i] = '0';
	big[i + 1] = ']';
	n = i + 2;
	assert_int_equal(-ENOMEM, hosts_doc_parse(big, n, "h1", &v, &charged, why, sizeof(why)));
	assert_null(v);
	assert_non_null(strstr(why, "memory budget of 1 MiB"));
	/* a small one, many times: each given back */
	for (i = 0; i < 1000; i++) {
		assert_int_equal(0, hosts_doc_parse(run_doc, strlen(run_doc), "h1", &v,
						    &charged, why, sizeof(why)));
		assert_true(charged > strlen(run_doc));
		hosts_doc_free(v, charged);
	}
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_list_names),
		cmocka_unit_test(test_target_check),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_remote_command),
		cmocka_unit_test(test_start_at),
		cmocka_unit_test(test_merge_exact),
		cmocka_unit_test(test_doc_checks),
		cmocka_unit_test(test_doc_budget),
	};

	setenv("REBENCH_MEMORY_BUDGET", "1m", 1);

	return cmocka_run_group_tests(tests, NULL, NULL);
}
