/* advise_table.c - see advise_table.h. */
#include "advise/advise_table.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/infile.h"
#include "core/units.h"

#define MAX_COLS 64
#define MAX_LINE (16 << 10)

/* What --from may be (infile.h; rebench(1), FILES): a sweep's table,
 * read once, so a pipe too; 16 MiB, lines that fit the reader's buffer
 * (a longer one is an error, never two rows). */
static const struct infile_limit table_limit = {
	.bytes = 16 << 20, .line = MAX_LINE - 2, .stream = true,
};

/* Columns this reader knows, by index into the header. */
struct cols {
	int bs, ops, median, rlo, rhi, clo, chi, status, workload, target;
	int ncols;
	char *name[MAX_COLS];
};

static int split(char *line, char **f, int max)
{
	int n = 0;
	char *tok;

	line[strcspn(line, "\r\n")] = '\0';
	/* strsep keeps empty cells in place */
	while (n < max && (tok = strsep(&line, "\t")))
		f[n++] = tok;
	return n;
}

static int find(const struct cols *c, const char *name)
{
	int i;

	for (i = 0; i < c->ncols; i++)
		if (!strcmp(c->name[i], name))
			return i;
	return -1;
}

/* How messages name the table: "--from" or "the sweep's table". */
static const char *who = "--from";

static int bad(const char *path, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(const char *path, unsigned line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "rebench: %s %s", who, path);
	if (line)
		fprintf(stderr, " line %u", line);
	fprintf(stderr, ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -EINVAL;
}

static int header(const char *path, char *line, struct cols *c)
{
	const char *missing = NULL;

	c->ncols = split(line, c->name, MAX_COLS);
	c->bs = find(c, "block-size");
	c->ops = find(c, "ops_per_s");
	c->median = find(c, "ops_per_s_median");
	c->rlo = find(c, "ops_per_s_ci95_low");
	c->rhi = find(c, "ops_per_s_ci95_high");
	c->clo = find(c, "ops_ci_low");
	c->chi = find(c, "ops_ci_high");
	c->status = find(c, "status");
	c->workload = find(c, "workload");
	c->target = find(c, "target");
	if (c->bs < 0 && c->ops < 0)
		missing = "columns block-size and ops_per_s";
	else if (c->bs < 0)
		missing = "column block-size";
	else if (c->ops < 0 && c->median < 0)
		missing = "column ops_per_s";
	if (missing)
		return bad(path, 1, "the table has no %s (its first line names the columns, tab-separated); give the --output table of a block-size sweep (rebench -b 1k..64k*2 --output TABLE.tsv TARGET), or a header line \"block-size<TAB>ops_per_s\" and a row per size",
			   missing);
	return 0;
}

static double cell_number(char **f, int n, int col)
{
	char *end;
	double v;

	if (col < 0 || col >= n || !f[col][0] || !strcmp(f[col], "-"))
		return NAN;
	v = strtod(f[col], &end);
	return *end ? NAN : v;
}

/* The first value of each swept column other than block-size (the
 * columns before "workload"), to refuse a table that varies one. */
struct other_axes {
	char first[MAX_COLS][64];
	bool seen;
};

static int check_other_axes(const char *path, unsigned lineno,
			    const struct cols *c, char **f, int n,
			    struct other_axes *o)
{
	int i;

	for (i = 0; i < c->workload && i < n; i++) {
		if (i == c->bs)
			continue;
		if (!o->seen)
			snprintf(o->first[i], sizeof(o->first[i]), "%s", f[i]);
		else if (strcmp(o->first[i], f[i]))
			return bad(path, lineno, "the table also sweeps %s (%.60s on the first row, %.60s here): the advisor needs one IOPS per node size; sweep -b alone, or keep the rows of one value",
				   c->name[i], o->first[i], f[i]);
	}
	o->seen = true;
	return 0;
}

static int add_row(const char *path, unsigned lineno, const struct cols *c,
		   char **f, int n, struct advise_table *t)
{
	struct btree_node *x;
	uint64_t bs;
	int opscol = c->median >= 0 ? c->median : c->ops;
	double ops, lo, hi;
	size_t i;

	if (c->bs >= n || parse_size(f[c->bs], &bs) || bs == 0)
		return bad(path, lineno, "block-size \"%s\" is not a size in bytes (4096, or 4k)",
			   c->bs < n ? f[c->bs] : "");
	ops = cell_number(f, n, opscol);
	if (!(ops > 0) || !isfinite(ops))
		return bad(path, lineno, "ops_per_s \"%s\" is not a positive number of operations per second",
			   opscol < n ? f[opscol] : "");
	lo = cell_number(f, n, c->rlo >= 0 ? c->rlo : c->clo);
	hi = cell_number(f, n, c->rhi >= 0 ? c->rhi : c->chi);
	/* a low end of 0 is a bound: ops/s cannot be below it, and a --repeat
	 * interval's low end under 0.005 prints as 0.00 in the table */
	if (!(lo >= 0) || !(hi >= lo) || !(hi > 0))
		lo = hi = NAN;
	else if (!t->interval)
		t->interval = c->rlo >= 0 ? "--repeat: the runs' 95% interval, log scale" :
			      "batch means of each point's intervals";
	for (i = 0; i < t->n; i++)
		if (t->node[i].size == bs)
			return bad(path, lineno, "block-size %s is in the table twice; keep one row per block size",
				   f[c->bs]);
	if (t->n == ADVISE_MAX_NODES)
		return bad(path, lineno, "more than %d block sizes; the advisor takes at most that many",
			   ADVISE_MAX_NODES);
	/* keep the sizes in order */
	for (i = t->n; i > 0 && t->node[i - 1].size > bs; i--)
		t->node[i] = t->node[i - 1];
	x = &t->node[i];
	memset(x, 0, sizeof(*x));
	x->size = bs;
	x->iops = ops;
	x->iops_low = lo;
	x->iops_high = hi;
	t->n++;
	return 0;
}

static int read_rows(const char *path, FILE *f, struct advise_table *t)
{
	struct other_axes other;	/* 4 KB: main's stack has room */
	char line[MAX_LINE], *fld[MAX_COLS], hline[MAX_LINE];
	struct cols c;
	unsigned lineno = 0;
	bool have_header = false;
	int n;

	memset(&other, 0, sizeof(other));
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
			continue;
		if (!have_header) {
			snprintf(hline, sizeof(hline), "%s", line);
			if (header(path, hline, &c))
				return -EINVAL;
			have_header = true;
			continue;
		}
		n = split(line, fld, MAX_COLS);
		if (c.workload >= 0 && c.workload < n && strcmp(fld[c.workload], "1"))
			return bad(path, lineno, "the table has workload %s besides workload 1: the advisor models one workload; sweep one workload line",
				   fld[c.workload]);
		if (c.status >= 0 && c.status < n && strcmp(fld[c.status], "complete")) {
			t->skipped++;
			fprintf(stderr, "rebench: %s %s line %u: left out, its status is %s (its IOPS are not a whole measurement)\n",
				who, path, lineno, fld[c.status]);
			continue;
		}
		if (c.workload > 0 && check_other_axes(path, lineno, &c, fld, n, &other))
			return -EINVAL;
		if (c.target >= 0 && c.target < n && !t->target[0])
			snprintf(t->target, sizeof(t->target), "%s", fld[c.target]);
		if (add_row(path, lineno, &c, fld, n, t))
			return -EINVAL;
	}
	if (ferror(f)) {
		char why[256];

		fprintf(stderr, "rebench: %s %s: cannot read it%s%.0u: %s\n",
			who, path, lineno ? " after line " : "", lineno,
			infile_strerror(errno, &table_limit, why, sizeof(why)));
		return -EINVAL;
	}
	if (!have_header)
		return bad(path, 0, "the file is empty: give the --output table of a block-size sweep");
	return 0;
}

int advise_table_read(const char *path, const char *label,
		      struct advise_table *t)
{
	char why[256];
	FILE *f;
	int ret;

	who = label;
	memset(t, 0, sizeof(*t));
	f = infile_open(path, &table_limit, why, sizeof(why));
	if (!f) {
		fprintf(stderr, "rebench: %s %s: cannot read it: %s\n", who, path,
			why);
		return -EINVAL;
	}
	ret = read_rows(path, f, t);
	fclose(f);
	if (!ret && t->n < 2)
		return bad(path, 0, "%zu block size%s measured: the advisor compares node sizes, so it needs two or more (rebench -b 1k..64k*2 --output TABLE.tsv TARGET)",
			   t->n, t->n == 1 ? "" : "s");
	return ret;
}
