/* doc.c - the walkers of doc.h: a row of fields as -n or TSV cells, JSON
 * keys or human columns. */
#include "report/doc.h"

#include <math.h>
#include <string.h>

#include "core/json.h"

struct doc_value doc_u64(uint64_t v)
{
	return (struct doc_value){ .kind = DOC_U64, .known = true, .u = v };
}

struct doc_value doc_num(double v)
{
	return (struct doc_value){ .kind = DOC_NUM, .known = isfinite(v), .d = v };
}

struct doc_value doc_str(const char *s)
{
	return (struct doc_value){ .kind = DOC_STR, .known = s != NULL, .s = s };
}

struct doc_value doc_unknown(enum doc_kind kind)
{
	return (struct doc_value){ .kind = kind, .known = false };
}

static struct doc_value value(const struct doc_field *d, const void *row,
			      const void *ctx)
{
	struct doc_value v = { .kind = d->kind, .known = true };
	const char *p;

	if (!row)
		return doc_unknown(d->kind);
	if (d->get)
		return d->get(row, ctx);
	p = (const char *)row + d->off;
	switch (d->kind) {
	case DOC_U64:
		v.u = *(const uint64_t *)p;
		break;
	case DOC_NUM:
		return doc_num(*(const double *)p);
	case DOC_STR:
		return doc_str(*(const char *const *)p);
	case DOC_BOOL:
		v.b = *(const bool *)p;
		break;
	}
	return v;
}

/* v as fmt says, "-" when it is not known. */
static void text(char *buf, size_t len, const char *fmt, struct doc_value v)
{
	if (!v.known) {
		snprintf(buf, len, "-");
		return;
	}
	switch (v.kind) {
	case DOC_U64:
		snprintf(buf, len, fmt, (unsigned long long)v.u);
		break;
	case DOC_NUM:
		snprintf(buf, len, fmt, v.d);
		break;
	case DOC_STR:
		snprintf(buf, len, fmt, v.s);
		break;
	case DOC_BOOL:
		snprintf(buf, len, fmt, (int)v.b);
		break;
	}
}

void doc_cells(FILE *f, char sep, enum doc_line line,
	       const struct doc_table *t, const void *row, const void *ctx)
{
	char buf[512];
	bool first = true;
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct doc_field *d = &t->f[i];

		if (!d->fmt || (line == DOC_TSV && !d->col))
			continue;
		text(buf, sizeof(buf), d->fmt, value(d, row, ctx));
		if (!first)
			fputc(sep, f);
		fputs(buf, f);
		first = false;
	}
}

void doc_tsv_head(FILE *f, const struct doc_table *t)
{
	bool first = true;
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->f[i].fmt && t->f[i].col) {
			fprintf(f, "%s%s", first ? "" : "\t", t->f[i].col);
			first = false;
		}
}

static void json_value(struct json *j, const char *key, struct doc_value v)
{
	if (!v.known) {
		json_null(j, key);
		return;
	}
	switch (v.kind) {
	case DOC_U64:
		json_u64(j, key, v.u);
		break;
	case DOC_NUM:
		json_num(j, key, v.d);
		break;
	case DOC_STR:
		json_str(j, key, v.s);
		break;
	case DOC_BOOL:
		json_bool(j, key, v.b);
		break;
	}
}

void doc_json(struct json *j, const struct doc_table *t, const void *row,
	      const void *ctx)
{
	const char *group = NULL;
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct doc_field *d = &t->f[i];

		if (!d->key)
			continue;
		if (group && (!d->group || strcmp(d->group, group)))
			json_obj_end(j);
		if (d->group && (!group || strcmp(d->group, group)))
			json_obj_begin(j, d->group);
		group = d->group;
		json_value(j, d->key, value(d, row, ctx));
	}
	if (group)
		json_obj_end(j);
}

static void column(FILE *f, bool *first, int width, const char *s)
{
	fprintf(f, "%s%*s", *first ? "" : " ", width, s);
	*first = false;
}

void doc_human_head(FILE *f, const struct doc_table *t)
{
	bool first = true;
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->f[i].hfmt)
			column(f, &first, t->f[i].width,
			       t->f[i].head ? t->f[i].head : "");
}

void doc_human_row(FILE *f, const struct doc_table *t, const void *row,
		   const void *ctx)
{
	bool first = true;
	char buf[512];
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct doc_field *d = &t->f[i];

		if (!d->hfmt)
			continue;
		text(buf, sizeof(buf), d->hfmt, value(d, row, ctx));
		column(f, &first, d->width, buf);
	}
}
