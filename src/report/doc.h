/* doc.h - the document of a mode that prints its own table (hosts, trace
 * statistics, advise, compare, replay): a row's figures described once,
 * as a table of fields, and one walker per format prints them, so a
 * figure is formatted in one place and cannot be missing from a format.
 *
 * A field says where it goes in each format: its JSON key (and the object
 * it sits in), its -n format (the -n position is its order among the -n
 * fields), its TSV column, its human column (head, width, format).  A
 * field without one of them is not in that format, so a figure that two
 * formats put in different places, or format differently, is two fields.
 * The walkers print the table's fields in order; the mode prints what
 * surrounds a row (its name, the line's start and end).
 */
#ifndef REBENCH_DOC_H
#define REBENCH_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct json;

enum doc_kind { DOC_U64, DOC_NUM, DOC_STR, DOC_BOOL };

/* A figure's value; not known: "-" in the text formats, null in JSON.  A
 * DOC_NUM that is not finite is not known either. */
struct doc_value {
	enum doc_kind kind;
	bool known;
	union {
		uint64_t u;
		double d;
		const char *s;
		bool b;
	};
};

struct doc_field {
	const char *key;	/* JSON key; NULL: not in the JSON */
	const char *group;	/* the JSON object it is in, or NULL */
	const char *fmt;	/* -n and TSV format; NULL: not on -n */
	const char *col;	/* TSV column (needs fmt); NULL: not in it */
	const char *hfmt;	/* human format; NULL: not in the human table */
	const char *head;	/* human column head, or NULL */
	int width;		/* human column width, < 0: left-aligned */
	enum doc_kind kind;
	/* the value: get(row, ctx) when given, else the kind's at row + off */
	size_t off;
	struct doc_value (*get)(const void *row, const void *ctx);
};

struct doc_table {
	const struct doc_field *f;
	size_t n;
};

#define DOC_TABLE(fields) \
	{ (fields), sizeof(fields) / sizeof((fields)[0]) }

/* Values for getters. */
struct doc_value doc_u64(uint64_t v);
struct doc_value doc_num(double v);
struct doc_value doc_str(const char *s);
struct doc_value doc_unknown(enum doc_kind kind);

/* Which cells doc_cells() writes: the -n line's or the TSV row's. */
enum doc_line { DOC_TERSE, DOC_TSV };

/* A row's cells, sep between them (not before the first); row NULL: a
 * row without figures, "-" in every cell. */
void doc_cells(FILE *f, char sep, enum doc_line line,
	       const struct doc_table *t, const void *row, const void *ctx);
/* The TSV header's columns, a tab between them. */
void doc_tsv_head(FILE *f, const struct doc_table *t);
/* A row's keys into the current JSON object (grouped fields, which are
 * consecutive, in an object of their own); row NULL: null each. */
void doc_json(struct json *j, const struct doc_table *t, const void *row,
	      const void *ctx);
/* The human table's head and a row: columns of their width, one space
 * between them, no line end. */
void doc_human_head(FILE *f, const struct doc_table *t);
void doc_human_row(FILE *f, const struct doc_table *t, const void *row,
		   const void *ctx);

#endif
