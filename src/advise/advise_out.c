/* advise_out.c - --advise btree's outputs: the decision (advise_decide),
 * its sentence, and the writers of advise_result.h. */
#include "advise/advise_result.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/outpath.h"
#include "report/version.h"
#include "report/summary.h"
#include "study/sweep_noise.h"
#include "core/units.h"
#include "report/doc.h"

void advise_decide(struct advise_result *r)
{
	size_t i;

	for (i = 0; i < r->tab.n; i++)
		btree_compute(&r->model, &r->tab.node[i]);
	btree_choose(r->tab.node, r->tab.n, r->marks, &r->choice);
}

static const char *size_words(uint64_t bytes, char *buf, size_t len)
{
	return fmt_size_exact(buf, len, bytes);
}

/* "best", "runner-up", "tied", "unusable" or "-" */
static const char *mark_name(const struct advise_result *r, size_t i)
{
	const struct btree_choice *c = &r->choice;

	if (!r->tab.node[i].usable)
		return "unusable";
	if (c->verdict == BTREE_IN_CACHE)
		return isinf(r->tab.node[i].qps) ? "in-cache" : "-";
	if (i == c->best)
		return "best";
	if (i == c->runner_up)
		return "runner-up";
	if (r->marks[i] & NOISE_TIED)
		return "tied";
	return "-";
}

/* Is node i in the list: whole tree cached (in_cache), else tied with
 * the best (not the best itself)? */
static bool listed(const struct advise_result *r, size_t i, bool in_cache)
{
	if (in_cache)
		return isinf(r->tab.node[i].qps);
	return i != r->choice.best && (r->marks[i] & NOISE_TIED);
}

/* "4 KiB, 8 KiB and 16 KiB" */
static void list_sizes(const struct advise_result *r, bool in_cache,
		       char *buf, size_t len)
{
	size_t i, k = 0, total = 0, n = 0;
	char s[32];

	for (i = 0; i < r->tab.n; i++)
		total += listed(r, i, in_cache);
	buf[0] = '\0';
	for (i = 0; i < r->tab.n && n < len; i++) {
		if (!listed(r, i, in_cache))
			continue;
		k++;
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      k == 1 ? "" : k == total ? " and " : ", ",
				      size_words(r->tab.node[i].size, s, sizeof(s)));
	}
}

/* queries/s as the tables show them: whole above 1000 */
static const char *qfmt(double v)
{
	return v >= 1000 ? "%.0f" : "%.1f";
}

static void qtext(char *buf, size_t len, double v)
{
	snprintf(buf, len, qfmt(v), v);
}

void advise_sentence(const struct advise_result *r, char *buf, size_t len)
{
	const struct btree_choice *c = &r->choice;
	const struct btree_node *b = &r->tab.node[c->best < r->tab.n ? c->best : 0];
	const struct btree_node *u = c->runner_up < r->tab.n ?
				     &r->tab.node[c->runner_up] : NULL;
	char bs[32], us[32], list[512], cache[32], bq[32], uq[32];

	size_words(b->size, bs, sizeof(bs));
	qtext(bq, sizeof(bq), b->qps);
	if (c->verdict == BTREE_IN_CACHE) {
		list_sizes(r, true, list, sizeof(list));
		snprintf(buf, len, "With %s nodes the whole tree fits in the %s cache: point queries do no I/O there, so the drive's IOPS do not decide the node size. A smaller --cache shows what the drive does once the tree outgrows it.",
			 list, fmt_size_exact(cache, sizeof(cache), r->model.cache));
		return;
	}
	if (!u) {
		snprintf(buf, len, "Use %s nodes: %s queries/s. It is the only node size the model can use here (the others hold fewer than 2 entries or no record).",
			 bs, bq);
		return;
	}
	size_words(u->size, us, sizeof(us));
	qtext(uq, sizeof(uq), u->qps);
	switch (c->verdict) {
	case BTREE_TIED:
		list_sizes(r, false, list, sizeof(list));
		if (c->tied > 1)
			snprintf(buf, len, "%s nodes measured best (%s queries/s), but %s are within the 95%% uncertainty of it (the runner-up, %s, is %.1f%% behind at %s). The difference may be noise: any of them will do, and --repeat or a smaller --precision can separate them.",
				 bs, bq, list, us, c->distance_pct, uq);
		else
			snprintf(buf, len, "%s nodes measured best (%s queries/s), but %s, %.1f%% behind at %s, is within the 95%% uncertainty of it. The difference may be noise: either will do, and --repeat or a smaller --precision can separate them.",
				 bs, bq, us, c->distance_pct, uq);
		break;
	case BTREE_UNKNOWN:
		snprintf(buf, len, "Use %s nodes: %s queries/s, %.1f%% ahead of %s (%s). The IOPS carry no interval, so how sure this is is not known: measure with --repeat 3 or --precision 5.",
			 bs, bq, c->distance_pct, us, uq);
		break;
	default:
		snprintf(buf, len, "Use %s nodes: %s queries/s, %.1f%% ahead of %s (%s), a difference beyond the measurement's 95%% uncertainty.",
			 bs, bq, c->distance_pct, us, uq);
		break;
	}
}

void advise_headline(const struct advise_result *r, char *buf, size_t len)
{
	const struct btree_choice *c = &r->choice;
	const struct btree_node *b = &r->tab.node[c->best < r->tab.n ? c->best : 0];
	char bs[32], us[32], bq[32], list[512];

	if (c->verdict == BTREE_IN_CACHE) {
		list_sizes(r, true, list, sizeof(list));
		snprintf(buf, len, "the whole tree fits in the cache at %s: no I/O per query there",
			 list);
		return;
	}
	size_words(b->size, bs, sizeof(bs));
	qtext(bq, sizeof(bq), b->qps);
	if (c->runner_up >= r->tab.n) {
		snprintf(buf, len, "best: %s, %s queries/s, the only node size the model can use",
			 bs, bq);
		return;
	}
	size_words(r->tab.node[c->runner_up].size, us, sizeof(us));
	if (c->verdict == BTREE_TIED) {
		list_sizes(r, false, list, sizeof(list));
		snprintf(buf, len, "best: %s, %s queries/s; within its 95%% uncertainty: %s",
			 bs, bq, list);
	} else {
		snprintf(buf, len, "best: %s, %s queries/s, %.1f%% ahead of %s%s",
			 bs, bq, c->distance_pct, us,
			 c->verdict == BTREE_UNKNOWN ? " (no intervals: how sure is not known)" :
			 ", beyond the 95% uncertainty");
	}
}

/* What the model was given, one line. */
static void model_words(const struct advise_result *r, char *buf, size_t len)
{
	const struct btree_model *m = &r->model;
	char cache[32], val[64] = "";
	size_t n;

	if (m->value_size)
		snprintf(val, sizeof(val), ", %llu-byte values in the leaves",
			 (unsigned long long)m->value_size);
	n = (size_t)snprintf(buf, len, "%.0f rows, %llu-byte entries (key and child pointer)%s, nodes %g%% full, ",
			     m->rows, (unsigned long long)m->key_size, val,
			     m->fill * 100);
	if (n >= len)
		return;
	if (m->cache)
		n += (size_t)snprintf(buf + n, len - n, "a %s cache",
				      fmt_size_exact(cache, sizeof(cache), m->cache));
	else
		n += (size_t)snprintf(buf + n, len - n, "no cache");
	if (n >= len)
		return;
	if (m->write_frac > 0)
		snprintf(buf + n, len - n, ", %g%% inserts (each reads its path and writes its leaf)",
			 m->write_frac * 100);
	else
		snprintf(buf + n, len - n, ", point queries");
}

static void source_words(const struct advise_result *r, char *buf, size_t len)
{
	const char *iv = r->tab.interval ? r->tab.interval : "no intervals";

	if (r->from)
		snprintf(buf, len, "IOPS per node size from %s%s%s (%s)", r->from,
			 r->tab.target[0] ? ", measured on " : "", r->tab.target,
			 iv);
	else
		snprintf(buf, len, "IOPS per node size measured on %s: %s%s%s (%s)",
			 r->about.target, r->about.about,
			 r->about.duration[0] ? ", " : "", r->about.duration, iv);
}

static void interval_cell(char *buf, size_t len, double v, double lo,
			  double hi, const char *fmt)
{
	size_t n = (size_t)snprintf(buf, len, fmt, v);

	if (n < len && isfinite(lo) && isfinite(hi)) {
		n += (size_t)snprintf(buf + n, len - n, " (");
		n += (size_t)snprintf(buf + n, len - n, fmt, lo);
		n += (size_t)snprintf(buf + n, len - n, "..");
		snprintf(buf + n, len - n, fmt, hi);
		snprintf(buf + strlen(buf), len - strlen(buf), ")");
	}
}

/* The human table: cells first, then each column as wide as its widest. */
#define HCOLS 12

struct htable {
	char cell[BTREE_MAX_NODES + 1][HCOLS][64];
	bool left[HCOLS];
	size_t ncols;
};

static void hrow(struct htable *t, size_t row, const char *const *v,
		 size_t n)
{
	size_t c;

	for (c = 0; c < n && c < HCOLS; c++)
		snprintf(t->cell[row][c], sizeof(t->cell[row][c]), "%s", v[c]);
}

static void hprint(FILE *f, const struct htable *t, size_t rows)
{
	size_t w[HCOLS] = { 0 }, r, c, len;
	char line[1024];

	for (r = 0; r < rows; r++)
		for (c = 0; c < t->ncols; c++)
			if (strlen(t->cell[r][c]) > w[c])
				w[c] = strlen(t->cell[r][c]);
	for (r = 0; r < rows; r++) {
		len = 0;
		for (c = 0; c < t->ncols && len < sizeof(line); c++)
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						t->left[c] ? "%s%-*s" : "%s%*s",
						c ? "  " : "", (int)w[c],
						t->cell[r][c]);
		while (len > 0 && line[len - 1] == ' ')
			line[--len] = '\0';
		fprintf(f, "%s\n", line);
	}
}

/* The head row: the columns the model's parameters give figures to. */
static void head_row(struct htable *t, const struct btree_model *m)
{
	const char *cells[HCOLS];
	size_t c = 0;

	cells[c++] = "node";
	cells[c++] = "keys";
	if (m->fill < 1)
		cells[c++] = "fanout";
	if (m->value_size > 0)
		cells[c++] = "leaf";
	cells[c++] = "levels";
	cells[c++] = "cached";
	cells[c++] = "tree";
	cells[c++] = "hops";
	if (m->write_frac > 0)
		cells[c++] = "I/O/op";
	cells[c++] = "IOPS";
	cells[c++] = "queries/s";
	cells[c++] = "";
	t->ncols = c;
	t->left[0] = t->left[c - 1] = true;
	hrow(t, 0, cells, c);
}

/* The last column of node i: its mark in words, or "" */
static void mark_cell(char *buf, size_t len, const struct advise_result *r,
		      size_t i)
{
	const char *mk = mark_name(r, i);

	if (!strcmp(mk, "runner-up"))
		snprintf(buf, len, "runner-up, %.1f%% below%s",
			 r->choice.distance_pct,
			 r->marks[i] & NOISE_TIED ? ", tied" : "");
	else if (!strcmp(mk, "tied"))
		snprintf(buf, len, "tied with the best");
	else if (!strcmp(mk, "best"))
		snprintf(buf, len, "best");
}

/* Node i's row, in the columns of head_row; an unusable node has its
 * size, its keys and why. */
static void node_row(struct htable *t, const struct advise_result *r,
		     size_t i)
{
	const struct btree_model *m = &r->model;
	const struct btree_node *x = &r->tab.node[i];
	char v[HCOLS][64] = { { 0 } };
	const char *cells[HCOLS];
	size_t c, w = sizeof(v[0]);

	for (c = 0; c < HCOLS; c++)
		cells[c] = v[c];
	c = 0;
	size_words(x->size, v[c++], w);
	snprintf(v[c++], w, "%llu", (unsigned long long)x->keys);
	if (!x->usable) {
		snprintf(v[t->ncols - 1], w, "unusable: %s",
			 x->fanout < 2 ? "fewer than 2 entries per node at this fill" :
			 "a leaf holds no record (entry + value > node)");
		hrow(t, i + 1, cells, t->ncols);
		return;
	}
	if (m->fill < 1)
		snprintf(v[c++], w, "%.1f", x->fanout);
	if (m->value_size > 0)
		snprintf(v[c++], w, "%.1f", x->leaf_records);
	snprintf(v[c++], w, "%u", x->levels);
	snprintf(v[c++], w, "%u", x->cached);
	fmt_size_human(v[c++], w, (uint64_t)x->tree_bytes);
	snprintf(v[c++], w, "%.3f", x->hops);
	if (m->write_frac > 0)
		snprintf(v[c++], w, "%.3f", x->ios_per_op);
	interval_cell(v[c++], w, x->iops, x->iops_low, x->iops_high, "%.0f");
	if (isinf(x->qps))
		snprintf(v[c++], w, "no I/O (in cache)");
	else
		interval_cell(v[c++], w, x->qps, x->qps_low, x->qps_high,
			      qfmt(x->qps));
	mark_cell(v[c], w, r, i);
	hrow(t, i + 1, cells, t->ncols);
}

int advise_human(FILE *f, const struct advise_result *r)
{
	/* some 50 KiB: on the heap, not the stack nor a static */
	struct htable *t = calloc(1, sizeof(*t));
	char line[1024];
	size_t i;

	if (!t) {
		fprintf(stderr, "rebench: --advise: out of memory for the table\n");
		return -ENOMEM;
	}
	model_words(r, line, sizeof(line));
	fprintf(f, "B-tree node size: %s\n", line);
	source_words(r, line, sizeof(line));
	fprintf(f, "%s\n", line);
	if (r->interrupted)
		fprintf(f, "The sweep stopped after %zu of %zu block sizes: the table has those measured\n",
			r->tab.n, r->planned);
	head_row(t, &r->model);
	for (i = 0; i < r->tab.n; i++)
		node_row(t, r, i);
	fputc('\n', f);
	hprint(f, t, r->tab.n + 1);
	free(t);
	advise_sentence(r, line, sizeof(line));
	fprintf(f, "\n%s\n", line);
	return 0;
}

/* A node's figures: an unusable node has no fanout, records or levels. */
static struct doc_value fanout(const void *row, const void *ctx)
{
	const struct btree_node *x = row;

	(void)ctx;
	return doc_num(x->usable ? x->fanout : NAN);
}

static struct doc_value leaf_records(const void *row, const void *ctx)
{
	const struct btree_node *x = row;

	(void)ctx;
	return doc_num(x->usable ? x->leaf_records : NAN);
}

static struct doc_value levels(const void *row, const void *ctx)
{
	const struct btree_node *x = row;

	(void)ctx;
	return x->usable ? doc_u64(x->levels) : doc_unknown(DOC_U64);
}

static struct doc_value cached_levels(const void *row, const void *ctx)
{
	const struct btree_node *x = row;

	(void)ctx;
	return x->usable ? doc_u64(x->cached) : doc_unknown(DOC_U64);
}

static struct doc_value mark(const void *row, const void *ctx)
{
	const struct advise_result *r = ctx;

	return doc_str(mark_name(r, (size_t)((const struct btree_node *)row -
					     r->tab.node)));
}

/* A node's row of the -n line, the TSV (its columns named as the JSON's
 * keys) and the JSON, which has usable and tree_bytes elsewhere. */
#define NUM(k, f, m) { .key = k, .fmt = f, .col = k, .kind = DOC_NUM, \
		       .off = offsetof(struct btree_node, m) }
static const struct doc_field node_fields[] = {
	{ .key = "node_size", .fmt = "%llu", .col = "node_size", .kind = DOC_U64,
	  .off = offsetof(struct btree_node, size) },
	{ .key = "keys_per_node", .fmt = "%llu", .col = "keys_per_node",
	  .kind = DOC_U64, .off = offsetof(struct btree_node, keys) },
	{ .key = "usable", .kind = DOC_BOOL,
	  .off = offsetof(struct btree_node, usable) },
	{ .key = "fanout", .fmt = "%.3f", .col = "fanout", .kind = DOC_NUM,
	  .get = fanout },
	{ .key = "leaf_records", .fmt = "%.3f", .col = "leaf_records",
	  .kind = DOC_NUM, .get = leaf_records },
	{ .key = "levels", .fmt = "%llu", .col = "levels", .kind = DOC_U64,
	  .get = levels },
	{ .key = "cached_levels", .fmt = "%llu", .col = "cached_levels",
	  .kind = DOC_U64, .get = cached_levels },
	NUM("depth", "%.4f", depth),
	NUM("hops", "%.4f", hops),
	NUM("ios_per_op", "%.4f", ios_per_op),
	NUM("tree_bytes", NULL, tree_bytes),
	NUM("iops", "%.2f", iops),
	NUM("iops_low", "%.2f", iops_low),
	NUM("iops_high", "%.2f", iops_high),
	/* no I/O (inf): "-" on -n, null in JSON, mark "in-cache" */
	NUM("queries_per_s", "%.3f", qps),
	NUM("queries_per_s_low", "%.3f", qps_low),
	NUM("queries_per_s_high", "%.3f", qps_high),
	{ .fmt = "%.0f", .col = "tree_bytes", .kind = DOC_NUM,
	  .off = offsetof(struct btree_node, tree_bytes) },
	{ .key = "mark", .fmt = "%s", .col = "mark", .kind = DOC_STR,
	  .get = mark },
};
#undef NUM
static const struct doc_table node_doc = DOC_TABLE(node_fields);

static void node_fields_line(FILE *f, const struct advise_result *r, size_t i,
			     char sep)
{
	doc_cells(f, sep, sep == '\t' ? DOC_TSV : DOC_TERSE, &node_doc,
		  &r->tab.node[i], r);
	fputc('\n', f);
}

void advise_terse(FILE *f, const struct advise_result *r)
{
	const struct btree_choice *c = &r->choice;
	size_t i;

	for (i = 0; i < r->tab.n; i++) {
		fprintf(f, "btree %d ", ADVISE_TERSE_VERSION);
		node_fields_line(f, r, i, ' ');
	}
	fprintf(f, "btree-choice %d %s", ADVISE_TERSE_VERSION,
		btree_verdict_name(c->verdict));
	if (c->best < r->tab.n && c->verdict != BTREE_IN_CACHE)
		fprintf(f, " %llu", (unsigned long long)r->tab.node[c->best].size);
	else
		fprintf(f, " -");
	if (c->runner_up < r->tab.n && c->verdict != BTREE_IN_CACHE) {
		fprintf(f, " %llu", (unsigned long long)r->tab.node[c->runner_up].size);
		report_put_num(f, ' ', "%.3f", c->distance_pct);
	} else {
		fprintf(f, " - -");
	}
	fprintf(f, " %zu\n", c->verdict == BTREE_IN_CACHE ? 0 : c->tied);
}

void advise_json(FILE *f, const struct advise_result *r)
{
	const struct btree_model *m = &r->model;
	const struct btree_choice *c = &r->choice;
	bool chosen = c->verdict != BTREE_IN_CACHE;
	struct json jw, *j = &jw;
	char line[1024];
	size_t i;

	json_init(j, f);
	report_json_head(j);
	json_obj_begin(j, "advise");
	json_str(j, "model", "btree");
	json_obj_begin(j, "parameters");
	json_num(j, "rows", m->rows);
	json_u64(j, "key_size", m->key_size);
	json_num(j, "fill_pct", m->fill * 100);
	json_u64(j, "cache_bytes", m->cache);
	json_u64(j, "value_size", m->value_size);
	json_num(j, "write_fraction", m->write_frac);
	json_obj_end(j);
	json_obj_begin(j, "source");
	if (r->from) {
		json_str(j, "from", r->from);
		json_null(j, "target");
	} else {
		json_null(j, "from");
		json_str(j, "target", r->about.target);
		json_str(j, "workload", r->about.about);
		json_str(j, "duration", r->about.duration);
	}
	if (r->sweep_table)
		json_str(j, "sweep_table", r->sweep_table);
	else
		json_null(j, "sweep_table");
	if (r->tab.interval)
		json_str(j, "interval", r->tab.interval);
	else
		json_null(j, "interval");
	json_u64(j, "rows_left_out", r->tab.skipped);
	json_bool(j, "interrupted", r->interrupted);
	json_obj_end(j);
	json_arr_begin(j, "nodes");
	for (i = 0; i < r->tab.n; i++) {
		json_obj_begin(j, NULL);
		doc_json(j, &node_doc, &r->tab.node[i], r);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_begin(j, "choice");
	json_str(j, "verdict", btree_verdict_name(c->verdict));
	if (chosen && c->best < r->tab.n)
		json_u64(j, "best", r->tab.node[c->best].size);
	else
		json_null(j, "best");
	if (chosen && c->runner_up < r->tab.n) {
		json_u64(j, "runner_up", r->tab.node[c->runner_up].size);
		json_num(j, "distance_pct", c->distance_pct);
	} else {
		json_null(j, "runner_up");
		json_null(j, "distance_pct");
	}
	json_arr_begin(j, "tied");
	for (i = 0; chosen && i < r->tab.n; i++)
		if (r->marks[i] & NOISE_TIED)
			json_u64(j, NULL, r->tab.node[i].size);
	json_arr_end(j);
	advise_sentence(r, line, sizeof(line));
	json_str(j, "recommendation", line);
	json_obj_end(j);
	json_obj_end(j);
	json_obj_end(j);
	fputc('\n', f);
}

int advise_tsv(const char *what, const char *path,
	       const struct advise_result *r)
{
	FILE *f = outpath_open(what, path);
	char line[1024];
	size_t i;

	if (!f)
		return -EIO;
	model_words(r, line, sizeof(line));
	fprintf(f, "# rebench --advise btree: %s\n", line);
	source_words(r, line, sizeof(line));
	fprintf(f, "# source: %s\n", line);
	if (!r->from && r->about.target[0])
		fprintf(f, "# target: %s\n", r->about.target);
	if (r->about.made[0])
		fprintf(f, "# made: %s\n", r->about.made);
	if (!r->from && r->about.about[0])
		fprintf(f, "# about: %s\n", r->about.about);
	if (!r->from && r->about.duration[0])
		fprintf(f, "# duration: %s\n", r->about.duration);
	advise_headline(r, line, sizeof(line));
	fprintf(f, "# headline: %s\n", line);
	advise_sentence(r, line, sizeof(line));
	fprintf(f, "# advice: %s\n", line);
	doc_tsv_head(f, &node_doc);
	fputc('\n', f);
	for (i = 0; i < r->tab.n; i++)
		node_fields_line(f, r, i, '\t');
	return outpath_close(what, path, f);
}

int advise_plot(const char *tsv, const char *plot, const char *note,
		const struct advise_result *r)
{
	const char *args[2] = { tsv, plot };
	struct plot_about about = r->about;

	if (r->from)
		snprintf(about.target, sizeof(about.target), "IOPS from %.80s%s%.80s",
			 r->from, r->tab.target[0] ? ", measured on " : "",
			 r->tab.target);
	return plot_render("advise-btree.gp", args, 2, note, &about);
}
