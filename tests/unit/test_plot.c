/* test_plot.c - what a plot says about its data (plot.c), without gnuplot.
 *
 * plot_about_fill(): the target with its model, the settings a sweep does
 * not vary (a swept option left out), the time per point or the run and
 * its interval, rebench's version; two workloads on different targets
 * share no target and each gets its name.  plot_about_fill_file() and
 * plot_about_write(): an --output file's comment lines from the workloads
 * that write it, others left out.  plot_metric_resolve(): MB/s for
 * a sequential workload, ops/s for a random one or a swept -w, a chosen
 * metric as chosen.  plot_check_format(): png, svg, pdf and jpg in any
 * case pass; other extensions and none are refused with the name and what
 * to write instead.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engines/engine.h"
#include "core/options.h"
#include "report/plot.h"
#include "report/version.h"
#include "core/sweep.h"
#include "core/workload.h"

static struct workload wls[3];

/* Workload k: 4 KiB random reads on path, 5 s, 1 s intervals. */
static void setup_workload(size_t k, const char *path, const char *model)
{
	struct workload *wl = &wls[k];

	memset(wl, 0, sizeof(*wl));
	spec_defaults(&wl->spec);
	wl->spec.bs = 4096;
	wl->spec.stride_eff = 4096;
	wl->spec.duration.kind = AMOUNT_TIME;
	wl->spec.duration.value = 5 * NSEC_PER_SEC;
	wl->index = (unsigned)k;
	snprintf(wl->tgt.path, sizeof(wl->tgt.path), "%s", path);
	snprintf(wl->tgt.model, sizeof(wl->tgt.model), "%s", model);
}

/* A sweep over the given long option names (no values needed here). */
static void sweep_of(struct sweep *sw, const char *a, const char *b)
{
	memset(sw, 0, sizeof(*sw));
	if (a)
		sw->axes[sw->naxes++].opt = options_find_long(a);
	if (b)
		sw->axes[sw->naxes++].opt = options_find_long(b);
}

static void test_about_of_a_sweep(void **state)
{
	struct plot_about a;
	struct sweep sw;
	char made[64];

	(void)state;
	setup_workload(0, "/dev/sdx", "Model X 1TB");
	sweep_of(&sw, "block-size", "stride");
	plot_about_fill(&a, wls, 1, &sw, 1);
	assert_string_equal(a.target, "/dev/sdx (Model X 1TB)");
	/* the swept block size is on an axis, not in the title */
	assert_string_equal(a.about, "read, rnd uniform, stateful, QD 1");
	assert_string_equal(a.duration, "5s per point");
	snprintf(made, sizeof(made), "rebench %s, ", REBENCH_VERSION);
	assert_memory_equal(a.made, made, strlen(made));
	assert_int_equal(strlen(a.made), strlen(made) + strlen("2024-05-01 12:00"));
	assert_string_equal(a.workload, "rnd");
	assert_int_equal(a.nnames, 1);
	assert_string_equal(a.names[0], "/dev/sdx: read, rnd uniform, stateful, QD 1");

	/* a swept dist: "rnd" without a name; --repeat: medians */
	sweep_of(&sw, "dist", NULL);
	plot_about_fill(&a, wls, 1, &sw, 3);
	assert_string_equal(a.about, "read, rnd, 4 KiB I/Os, stateful, QD 1");
	assert_string_equal(a.duration, "5s per point, median of the runs");

	/* a swept -w: neither rnd nor seq */
	sweep_of(&sw, "workload", "block-size");
	plot_about_fill(&a, wls, 1, &sw, 1);
	assert_string_equal(a.about, "read, stateful, QD 1");
	assert_string_equal(a.workload, "");
	spec_free(&wls[0].spec);
}

static void test_about_of_a_run(void **state)
{
	struct plot_about a;

	(void)state;
	setup_workload(0, "/dev/loop3", "");
	setup_workload(1, "/tmp/data", "");
	wls[1].spec.seq = 1;
	wls[1].spec.bs = wls[1].spec.stride_eff = 65536;
	wls[1].spec.qd = 8;
	wls[1].spec.threads = 4;
	plot_about_fill(&a, wls, 2, NULL, 1);
	/* nothing shared but the duration: the legend names each */
	assert_string_equal(a.target, "");
	assert_string_equal(a.about, "");
	assert_string_equal(a.duration, "5s run in 1s intervals");
	assert_int_equal(a.nnames, 2);
	assert_string_equal(a.names[0], "/dev/loop3: read, rnd uniform, 4 KiB I/Os, stateful, QD 1");
	assert_string_equal(a.names[1], "/tmp/data: read, seq, 64 KiB I/Os, stateful, QD 8, 4 threads");
	/* rnd and seq: neither names the stride */
	assert_string_equal(a.workload, "");

	/* one target, two settings: the target is shared */
	snprintf(wls[1].tgt.path, sizeof(wls[1].tgt.path), "/dev/loop3");
	plot_about_fill(&a, wls, 2, NULL, 1);
	assert_string_equal(a.target, "/dev/loop3");
	assert_string_equal(a.about, "");
	spec_free(&wls[0].spec);
	spec_free(&wls[1].spec);
}

/* The comment lines of the --output file of workloads 1 and 3 (2 writes
 * another): what those two share, each one's name, nothing of 2's. */
static void test_about_of_a_file(void **state)
{
	struct plot_about a;
	char *text = NULL, *made;
	size_t len = 0;
	FILE *f;
	size_t k;

	(void)state;
	setup_workload(0, "/dev/loop3", "");
	setup_workload(1, "/dev/loop4", "");
	setup_workload(2, "/dev/loop3", "");
	wls[1].spec.seq = 1;
	wls[2].spec.qd = 4;
	wls[0].spec.output = strdup("a.tsv");
	wls[1].spec.output = strdup("b.tsv");
	wls[2].spec.output = strdup("a.tsv");
	plot_about_fill_file(&a, wls, 3, "a.tsv");
	assert_string_equal(a.target, "/dev/loop3");
	assert_string_equal(a.about, "");	/* QD 1 and QD 4 */
	assert_string_equal(a.duration, "5s run in 1s intervals");
	assert_string_equal(a.workload, "rnd");	/* 2's seq left out */
	f = open_memstream(&text, &len);
	assert_non_null(f);
	plot_about_write(f, &a, true);
	fclose(f);
	/* the made line (its date varies) after the duration, then cut */
	made = strstr(text, "# made: rebench ");
	assert_non_null(made);
	assert_non_null(strchr(made, '\n'));
	memmove(made, strchr(made, '\n') + 1, strlen(strchr(made, '\n') + 1) + 1);
	assert_string_equal(text,
		"# target: /dev/loop3\n"
		"# duration: 5s run in 1s intervals\n"
		"# workload: rnd\n"
		"# workload 1: /dev/loop3: read, rnd uniform, 4 KiB I/Os, stateful, QD 1\n"
		"# workload 3: /dev/loop3: read, rnd uniform, 4 KiB I/Os, stateful, QD 4\n");
	free(text);
	/* a matrix's lines: no names */
	text = NULL;
	f = open_memstream(&text, &len);
	assert_non_null(f);
	plot_about_write(f, &a, false);
	fclose(f);
	assert_null(strstr(text, "# workload 1:"));
	assert_non_null(strstr(text, "# workload: rnd\n"));
	free(text);
	for (k = 0; k < 3; k++)
		spec_free(&wls[k].spec);
}

static void test_metric(void **state)
{
	struct spec s;
	struct sweep sw;

	(void)state;
	spec_defaults(&s);
	assert_int_equal(plot_metric_resolve(PLOT_METRIC_AUTO, &s, NULL), PLOT_METRIC_OPS);
	s.seq = 1;
	assert_int_equal(plot_metric_resolve(PLOT_METRIC_AUTO, &s, NULL), PLOT_METRIC_MBS);
	assert_int_equal(plot_metric_resolve(PLOT_METRIC_P99, &s, NULL), PLOT_METRIC_P99);
	sweep_of(&sw, "workload", NULL);
	assert_int_equal(plot_metric_resolve(PLOT_METRIC_AUTO, &s, &sw), PLOT_METRIC_OPS);
	assert_string_equal(plot_metric_column(PLOT_METRIC_OPS), "ops_per_s");
	assert_string_equal(plot_metric_column(PLOT_METRIC_MBS), "mib_per_s");
	assert_string_equal(plot_metric_column(PLOT_METRIC_P50), "lat_p50_us");
	assert_string_equal(plot_metric_column(PLOT_METRIC_P99), "lat_p99_us");
	spec_free(&s);
}

static void expect_format(const char *path, const char *why)
{
	char err[512] = "";
	int ret = plot_check_format(path, err, sizeof(err));

	if (!why) {
		if (ret)
			fail_msg("%s refused: %s", path, err);
		return;
	}
	if (!ret)
		fail_msg("%s passed", path);
	if (!strstr(err, why) || !strstr(err, path))
		fail_msg("%s: want \"%s\" and the name in \"%s\"", path, why, err);
}

static void test_format(void **state)
{
	(void)state;
	expect_format("out/a.png", NULL);
	expect_format("a.SVG", NULL);
	expect_format("a.b.pdf", NULL);
	expect_format("a.gif", "not .gif; give the picture one of those extensions");
	expect_format("a.png.tmp", "not .tmp");
	expect_format("plot", "no extension");
	expect_format("dir.png/plot", "no extension");
	expect_format("out/.png", "no extension");
	expect_format("a.", "no extension");
	/* without gnuplot the jpeg terminal cannot be asked for: the plot
	 * fails after the run, with the package to install */
	setenv("PATH", "/nonexistent", 1);
	expect_format("a.jpg", NULL);
	expect_format("a.JPEG", NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_about_of_a_sweep),
		cmocka_unit_test(test_about_of_a_run),
		cmocka_unit_test(test_about_of_a_file),
		cmocka_unit_test(test_metric),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
