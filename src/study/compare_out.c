/* compare_out.c - rebench --compare A.json B.json [-n | --json] [--plot
 * FILE]: the arguments, then the rows (compare_load.c) as a table, -n
 * lines or a JSON document, and for a sweep of two numbers the ratio
 * heatmap (plots/compare.gp).  Every check comes before any output. */
#include "study/compare.h"
#include "study/compare_rows.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/json.h"
#include "core/json_read.h"
#include "core/outpath.h"
#include "core/plan.h"
#include "core/units.h"
#include "report/doc.h"
#include "report/plot.h"
#include "report/version.h"
#include "report/summary.h"

#define CMP_TERSE_VERSION 1

/* " (point 3: block-size=512 stride=4096)" words of a row's run. */
static void point_words(const struct cmp_row *r, char *buf, size_t len,
			const char *sep, const char *eq)
{
	const struct json_value *v = json_get(r->run_a, "values");
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; v && i < v->n && n < len; i++) {
		const struct json_value *x = json_at(v, i);

		if (x->type == JSON_NUMBER)
			n += (size_t)snprintf(buf + n, len - n, "%s%s%s%.10g",
					      i ? sep : "", eq ? x->key : "",
					      eq ? eq : "", x->number);
		else
			n += (size_t)snprintf(buf + n, len - n, "%s%s%s%s",
					      i ? sep : "", eq ? x->key : "",
					      eq ? eq : "", x->str);
	}
}

static const char *verdict_words(const struct cmp_result *r)
{
	switch (r->verdict) {
	case CMP_FASTER:
		return "faster";
	case CMP_SLOWER:
		return "slower";
	case CMP_SAME:
		return "no difference detectable";
	default:
		return "no interval";
	}
}

static void human(const struct cmp_args *a, const struct cmp_rows *rows)
{
	size_t i, count[4] = { 0 };
	char words[512];

	printf("B = %s against A = %s: B/A per metric, its 95%% interval and the verdict\n",
	       a->b, a->a);
	for (i = 0; i < rows->n; i++) {
		const struct cmp_row *r = &rows->row[i];
		char iv[64] = "-";

		count[r->res.verdict]++;
		if (r->metric == 0) {
			point_words(r, words, sizeof(words), " ", "=");
			if (r->point)
				printf("%spoint %zu: %s, workload %zu\n",
				       i ? "\n" : "", r->point, words, r->workload);
			else
				printf("%sworkload %zu\n", i ? "\n" : "",
				       r->workload);
			printf("  %-10s %12s %12s %8s  %-16s %s\n", "metric", "A",
			       "B", "B/A", "95% interval", "verdict");
		}
		if (!isnan(r->res.low))
			snprintf(iv, sizeof(iv), "%.3f..%.3f", r->res.low,
				 r->res.high);
		printf("  %-10s %12.2f %12.2f %8.3f  %-16s %s", cmp_metric_label(r->metric),
		       r->a.value, r->b.value, r->res.ratio, iv,
		       verdict_words(&r->res));
		if (r->res.method != CMP_NONE)
			printf(" (%s, df %.1f)", r->res.method == CMP_REPEAT ?
			       "over the runs" : "batch means", r->res.df);
		else if (r->metric >= 2)
			printf(" (a single run's latency; --repeat N gives one)");
		else
			printf(" (fewer than 10 intervals in a run; a longer run or a shorter -g gives one)");
		putchar('\n');
	}
	printf("\nB against A: %zu faster, %zu slower, %zu no difference detectable, %zu without an interval\n",
	       count[CMP_FASTER], count[CMP_SLOWER], count[CMP_SAME],
	       count[CMP_NO_INTERVAL]);
}

/* A row's figures, on -n and in JSON in one order. */
static struct doc_value workload(const void *row, const void *ctx)
{
	(void)ctx;
	return doc_u64(((const struct cmp_row *)row)->workload);
}

static struct doc_value metric(const void *row, const void *ctx)
{
	(void)ctx;
	return doc_str(cmp_metric_key(((const struct cmp_row *)row)->metric));
}

static struct doc_value verdict(const void *row, const void *ctx)
{
	(void)ctx;
	return doc_str(compare_verdict_name(((const struct cmp_row *)row)->res.verdict));
}

static struct doc_value method(const void *row, const void *ctx)
{
	(void)ctx;
	return doc_str(compare_method_name(((const struct cmp_row *)row)->res.method));
}

static struct doc_value df(const void *row, const void *ctx)
{
	const struct cmp_result *res = &((const struct cmp_row *)row)->res;

	(void)ctx;
	return doc_num(res->method != CMP_NONE ? res->df : NAN);
}

#define NUM(k, f, m) { .key = k, .fmt = f, .kind = DOC_NUM, \
		       .off = offsetof(struct cmp_row, m) }
static const struct doc_field row_fields[] = {
	{ .key = "workload", .fmt = "%llu", .kind = DOC_U64, .get = workload },
	{ .key = "metric", .fmt = "%s", .kind = DOC_STR, .get = metric },
	NUM("a", "%.4f", a.value),
	NUM("b", "%.4f", b.value),
	NUM("ratio", "%.6f", res.ratio),
	NUM("low", "%.6f", res.low),
	NUM("high", "%.6f", res.high),
	{ .key = "verdict", .fmt = "%s", .kind = DOC_STR, .get = verdict },
	{ .key = "method", .fmt = "%s", .kind = DOC_STR, .get = method },
	{ .key = "df", .fmt = "%.2f", .kind = DOC_NUM, .get = df },
};
#undef NUM
static const struct doc_table row_doc = DOC_TABLE(row_fields);

static void terse(const struct cmp_rows *rows)
{
	char words[512];
	size_t i;

	for (i = 0; i < rows->n; i++) {
		const struct cmp_row *r = &rows->row[i];

		printf("compare %d ", CMP_TERSE_VERSION);
		if (r->point)
			printf("%zu", r->point);
		else
			printf("-");
		putchar(' ');
		doc_cells(stdout, ' ', DOC_TERSE, &row_doc, r, NULL);
		point_words(r, words, sizeof(words), " ", NULL);
		printf("%s%s\n", words[0] ? " " : "", words);
	}
}

static void json_out(const struct cmp_args *a, const struct cmp_doc *da,
		     const struct cmp_rows *rows)
{
	const struct json_value *p = json_get(json_get(da->root, "sweep"),
					      "parameters");
	size_t i, j, count[4] = { 0 };
	struct json jw, *js = &jw;

	json_init(js, stdout);
	report_json_head(js);	/* opens the document */
	json_obj_begin(js, "compare");
	json_str(js, "a", a->a);
	json_str(js, "b", a->b);
	json_str(js, "shape", da->sweep ? "sweep" : "single");
	json_arr_begin(js, "parameters");
	for (j = 0; p && j < p->n; j++)
		json_str(js, NULL, json_at(p, j)->str);
	json_arr_end(js);
	json_arr_begin(js, "rows");
	for (i = 0; i < rows->n; i++) {
		const struct cmp_row *r = &rows->row[i];
		const struct json_value *v = json_get(r->run_a, "values");

		count[r->res.verdict]++;
		json_obj_begin(js, NULL);
		if (r->point)
			json_u64(js, "point", r->point);
		else
			json_null(js, "point");
		json_obj_begin(js, "values");
		for (j = 0; v && j < v->n; j++) {
			const struct json_value *x = json_at(v, j);

			if (x->type == JSON_NUMBER)
				json_num(js, x->key, x->number);
			else
				json_str(js, x->key, x->str);
		}
		json_obj_end(js);
		doc_json(js, &row_doc, r, NULL);
		json_obj_end(js);
	}
	json_arr_end(js);
	json_obj_begin(js, "summary");
	json_u64(js, "faster", count[CMP_FASTER]);
	json_u64(js, "slower", count[CMP_SLOWER]);
	json_u64(js, "same", count[CMP_SAME]);
	json_u64(js, "no_interval", count[CMP_NO_INTERVAL]);
	json_obj_end(js);
	json_obj_end(js);
	json_obj_end(js);
	putchar('\n');
}

static bool not_number(const struct json_value *v)
{
	return !v || v->type != JSON_NUMBER;
}

/* --plot: the two swept numbers of a sweep, else a message. */
static int plot_axes_of(const struct cmp_doc *d, const char **rows,
			const char **cols)
{
	const struct json_value *p = json_get(json_get(d->root, "sweep"),
					      "parameters");
	const struct json_value *runs = json_get(json_get(d->root, "sweep"), "runs");
	const struct json_value *v = json_get(json_at(runs, 0), "values");

	if (!d->sweep || !p || p->n != 2 || !v ||
	    not_number(json_get(v, json_at(p, 0)->str)) ||
	    not_number(json_get(v, json_at(p, 1)->str))) {
		fprintf(stderr, "rebench: --compare --plot draws the ratio heatmap of a sweep of two numbers (as -b 512..4k/512 -s 512..4k/512); %s is not one, so compare without --plot\n",
			d->path);
		return -EINVAL;
	}
	*rows = json_at(p, 0)->str;
	*cols = json_at(p, 1)->str;
	return 0;
}

/* Index of x in the n distinct values vals[] so far, added when new. */
static size_t value_index(double *vals, size_t *n, double x)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (vals[i] == x)
			return i;
	vals[*n] = x;
	return (*n)++;
}

/* The last part of a path, without touching it ("x/" is "x"). */
static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s && s[1] ? s + 1 : p;
}

/* What a sweep's first workload ran, in words the plots use ("read", "rnd
 * uniform", "stateful", "QD 1", "300ms per point", "offset 512 B"), each
 * with the option it belongs to; an option the sweep varies is on an axis
 * and left out. */
#define CMP_WORDS 10
struct cmp_words {
	char target[192];
	char w[CMP_WORDS][96];
	size_t n;
};

static bool swept_param(const struct cmp_doc *d, const char *name)
{
	const struct json_value *p = json_get(json_get(d->root, "sweep"),
					      "parameters");
	size_t i;

	for (i = 0; p && i < p->n; i++)
		if (json_at(p, i)->type == JSON_STRING &&
		    !strcmp(json_at(p, i)->str, name))
			return true;
	return false;
}

static const char *jstr(const struct json_value *o, const char *key)
{
	const struct json_value *v = json_get(o, key);

	return v && v->type == JSON_STRING ? v->str : NULL;
}

static double jnum(const struct json_value *o, const char *key)
{
	const struct json_value *v = json_get(o, key);

	return v && v->type == JSON_NUMBER ? v->number : NAN;
}

static void cmp_word(struct cmp_words *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void cmp_word(struct cmp_words *w, const char *fmt, ...)
{
	va_list ap;

	if (w->n >= CMP_WORDS)
		return;
	va_start(ap, fmt);
	vsnprintf(w->w[w->n++], sizeof(w->w[0]), fmt, ap);
	va_end(ap);
}

static void describe(const struct cmp_doc *d, struct cmp_words *w)
{
	const struct json_value *runs = json_get(json_get(d->root, "sweep"), "runs");
	const struct json_value *wl = json_at(json_get(json_at(runs, 0), "workloads"), 0);
	const struct json_value *t = json_get(wl, "target"), *p = json_get(wl, "parameters");
	const struct json_value *direct = json_get(p, "direct");
	const char *path = jstr(t, "path"), *model = jstr(t, "model");
	const char *op = jstr(p, "operation"), *pat = jstr(p, "workload");
	const char *dist = jstr(p, "dist"), *eng = jstr(p, "engine");
	const char *dur = jstr(p, "duration");
	double v;
	char sz[48];

	memset(w, 0, sizeof(*w));
	if (path && model)
		snprintf(w->target, sizeof(w->target), "%.120s (%.60s)", path, model);
	else if (path)
		snprintf(w->target, sizeof(w->target), "%.180s", path);
	if (op && !swept_param(d, "operation"))
		cmp_word(w, "%s", op);
	if (pat && !swept_param(d, "workload") && !swept_param(d, "dist"))
		cmp_word(w, "%s%s%s", pat, !strcmp(pat, "rnd") && dist ? " " : "",
			 !strcmp(pat, "rnd") && dist ? dist : "");
	v = jnum(p, "block_size");
	if (!isnan(v) && !swept_param(d, "block-size")) {
		fmt_size_exact(sz, sizeof(sz), (uint64_t)v);
		cmp_word(w, "%s I/Os", sz);
	}
	if (eng && !swept_param(d, "type"))
		cmp_word(w, "%s", eng);
	v = jnum(p, "queue_depth");
	if (!isnan(v) && !swept_param(d, "queue-depth"))
		cmp_word(w, "QD %.0f", v);
	v = jnum(p, "threads");
	if (!isnan(v) && v > 1 && !swept_param(d, "threads"))
		cmp_word(w, "%.0f threads", v);
	if (direct && direct->type == JSON_BOOL && !direct->boolean)
		cmp_word(w, "page cache");
	if (dur && !swept_param(d, "duration"))
		cmp_word(w, "%s per point", dur);
	v = jnum(p, "region_offset");
	if (!isnan(v)) {
		fmt_size_exact(sz, sizeof(sz), (uint64_t)v);
		cmp_word(w, "offset %s", sz);
	}
}

static void append(char *buf, size_t len, const char *sep, const char *s)
{
	size_t n = strlen(buf);

	if (!s[0] || n >= len)
		return;
	snprintf(buf + n, len - n, "%s%s", n ? sep : "", s);
}

static bool has_word(const struct cmp_words *w, const char *s)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (!strcmp(w->w[i], s))
			return true;
	return false;
}

/* The matrix's comment lines for about.gpi and compare.gp: what A and B
 * share (target, settings, time per point) and each side by its file's
 * base name and what is its own ("align-512.json: offset 512 B"); never
 * the paths the files were given by (temporary directories, in the demo). */
static void write_about(FILE *f, const struct cmp_args *a,
			const struct cmp_doc *da, const struct cmp_doc *db)
{
	struct cmp_words wa, wb;
	char shared[512] = "", dur[96] = "", own_a[512] = "", own_b[512] = "";
	char made[64];
	const char *pat;
	size_t i;
	time_t now = time(NULL);
	struct tm tm;

	describe(da, &wa);
	describe(db, &wb);
	for (i = 0; i < wa.n; i++) {
		if (!has_word(&wb, wa.w[i]))
			append(own_a, sizeof(own_a), ", ", wa.w[i]);
		else if (strstr(wa.w[i], " per point"))
			snprintf(dur, sizeof(dur), "%s", wa.w[i]);
		else if (strncmp(wa.w[i], "offset ", 7))
			append(shared, sizeof(shared), ", ", wa.w[i]);
		/* an offset both share is 0 nearly always: not worth a word */
	}
	for (i = 0; i < wb.n; i++)
		if (!has_word(&wa, wb.w[i]))
			append(own_b, sizeof(own_b), ", ", wb.w[i]);
	if (strcmp(wa.target, wb.target)) {
		append(own_a, sizeof(own_a), ", ", wa.target);
		append(own_b, sizeof(own_b), ", ", wb.target);
		fprintf(f, "# target: \n");
	} else {
		fprintf(f, "# target: %s\n", wa.target);
	}
	fprintf(f, "# about: %s\n# duration: %s\n", shared, dur);
	localtime_r(&now, &tm);
	strftime(made, sizeof(made), "%Y-%m-%d %H:%M", &tm);
	fprintf(f, "# made: rebench %s, %s\n", REBENCH_VERSION, made);
	pat = jstr(json_get(json_at(json_get(json_at(json_get(json_get(da->root, "sweep"), "runs"), 0), "workloads"), 0), "parameters"), "workload");
	fprintf(f, "# workload: %s\n", pat && !swept_param(da, "workload") ? pat : "");
	fprintf(f, "# a: %s%s%s\n# b: %s%s%s\n", base_name(a->a),
		own_a[0] ? ": " : "", own_a, base_name(a->b),
		own_b[0] ? ": " : "", own_b);
}

/* The ops/s ratio of workload 1 per point as a matrix (the layout of a
 * sweep matrix: rows the first swept number, columns the second), then
 * after two empty lines each cell's verdict, for plots/compare.gp. */
static int write_ratio_matrix(const char *path, const struct cmp_args *a,
			      const struct cmp_doc *da, const struct cmp_doc *db,
			      const struct cmp_rows *rows, const char *yname,
			      const char *xname)
{
	size_t n = rows->n, ny = 0, nx = 0, i, j, *ri, *ci;
	double *ys = calloc(n, sizeof(double)), *xs = calloc(n, sizeof(double));
	double *cell = calloc(n * n + 1, sizeof(double));
	int *ver = calloc(n * n + 1, sizeof(int));
	FILE *f = NULL;
	int ret = -ENOMEM;

	ri = calloc(n, sizeof(size_t));
	ci = calloc(n, sizeof(size_t));
	if (!ys || !xs || !cell || !ver || !ri || !ci)
		goto out;
	for (i = 0; i < n; i++) {
		const struct json_value *v = json_get(rows->row[i].run_a, "values");

		if (rows->row[i].workload != 1 || rows->row[i].metric != 0)
			continue;
		ri[i] = value_index(ys, &ny, json_get(v, yname)->number);
		ci[i] = value_index(xs, &nx, json_get(v, xname)->number);
	}
	for (i = 0; i < ny * nx; i++)
		cell[i] = NAN;
	for (i = 0; i < n; i++) {
		if (rows->row[i].workload != 1 || rows->row[i].metric != 0)
			continue;
		cell[ri[i] * nx + ci[i]] = rows->row[i].res.ratio;
		ver[ri[i] * nx + ci[i]] = (int)rows->row[i].res.verdict;
	}
	ret = -EIO;
	f = fopen(path, "w");
	if (!f)
		goto out;
	fprintf(f, "# rebench compare matrix\n# rows: %s\n# columns: %s\n# values: ops/s ratio B/A (workload 1)\n",
		yname, xname);
	write_about(f, a, da, db);
	fprintf(f, "%zu", nx);
	for (j = 0; j < nx; j++)
		fprintf(f, " %.10g", xs[j]);
	fputc('\n', f);
	for (i = 0; i < ny; i++) {
		fprintf(f, "%.10g", ys[i]);
		for (j = 0; j < nx; j++)
			fprintf(f, " %.4f", cell[i * nx + j]);
		fputc('\n', f);
	}
	fprintf(f, "\n\n# column row verdict (from 1, as the heatmap's cells)\n");
	for (i = 0; i < ny; i++)
		for (j = 0; j < nx; j++)
			fprintf(f, "%zu %zu %s\n", j + 1, i + 1,
				compare_verdict_name((enum cmp_verdict)ver[i * nx + j]));
	ret = fclose(f) ? -errno : 0;
out:
	free(ys);
	free(xs);
	free(cell);
	free(ver);
	free(ri);
	free(ci);
	return ret;
}

static int draw(const struct cmp_args *a, const struct cmp_doc *da,
		const struct cmp_doc *db, const struct cmp_rows *rows,
		const char *yname, const char *xname)
{
	char dir[OUTPATH_TMPDIR_MAX], path[PATH_MAX];
	const char *args[2];
	int ret;

	if (outpath_make_tmpdir("--compare --plot", "compare", dir,
				sizeof(dir)))
		return -EIO;
	snprintf(path, sizeof(path), "%s/ratio.matrix", dir);
	ret = write_ratio_matrix(path, a, da, db, rows, yname, xname);
	if (ret)
		fprintf(stderr, "rebench: --compare --plot: cannot write %s: %s\n",
			path, strerror(-ret));
	args[0] = path;
	args[1] = a->plot;
	if (!ret)
		ret = plot_render("compare.gp", args, 2,
				  "the comparison is on standard output", NULL);
	unlink(path);
	rmdir(dir);
	return ret;
}

int compare_main(int argc, char **argv)
{
	struct cmp_doc da, db;
	struct cmp_rows rows;
	struct cmp_args a;
	const char *yname = NULL, *xname = NULL;
	char err[PATH_MAX + 1200];
	int ret = cmp_parse_args(argc, argv, &a), status = EXIT_OK;

	if (ret)
		return ret > 0 ? EXIT_OK : EXIT_BAD_ARGS;
	if (a.plot && (plot_check_format(a.plot, err, sizeof(err)) ||
		       outpath_check("--plot", a.plot, err, sizeof(err)))) {
		fprintf(stderr, "rebench: %s\n", err);
		return EXIT_BAD_ARGS;
	}
	if (cmp_load(a.a, &da))
		return EXIT_BAD_ARGS;
	if (cmp_load(a.b, &db)) {
		cmp_free(&da);
		return EXIT_BAD_ARGS;
	}
	ret = cmp_pair(&da, &db, &rows);
	if (!ret && a.plot)
		ret = plot_axes_of(&da, &yname, &xname);
	if (ret) {
		status = ret == -ENOMEM ? EXIT_PREP_FAILED : EXIT_BAD_ARGS;
	} else {
		if (a.fmt == TSF_JSON)
			json_out(&a, &da, &rows);
		else if (a.fmt == TSF_TERSE)
			terse(&rows);
		else
			human(&a, &rows);
		if (outpath_flush_stdout())
			status = EXIT_OUTPUT_FAILED;
		if (status == EXIT_OK && a.plot && draw(&a, &da, &db, &rows, yname, xname))
			status = EXIT_PLOT_FAILED;
	}
	cmp_rows_free(&rows);
	cmp_free(&da);
	cmp_free(&db);
	return status;
}
