/* json.c - see json.h. */
#include "core/json.h"

#include <math.h>
#include <stdlib.h>

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
}

static void indent(struct json *j)
{
	int i;

	fputc('\n', j->f);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void key(struct json *j, const char *k)
{
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->f);
		indent(j);
	}
	j->first[j->depth] = false;
	if (k) {
		put_string(j->f, k);
		fputs(": ", j->f);
	}
}

static void open_(struct json *j, const char *k, char c)
{
	key(j, k);
	fputc(c, j->f);
	if (j->depth == JSON_MAX_DEPTH - 1)
		abort();
	j->depth++;
	j->first[j->depth] = true;
}

static void close_(struct json *j, char c)
{
	bool empty = j->first[j->depth];

	j->depth--;
	if (!empty)
		indent(j);
	fputc(c, j->f);
	if (j->depth == 0)
		fputc('\n', j->f);
}

void json_obj_begin(struct json *j, const char *k) { open_(j, k, '{'); }
void json_obj_end(struct json *j) { close_(j, '}'); }
void json_arr_begin(struct json *j, const char *k) { open_(j, k, '['); }
void json_arr_end(struct json *j) { close_(j, ']'); }

void json_str(struct json *j, const char *k, const char *val)
{
	key(j, k);
	if (val)
		put_string(j->f, val);
	else
		fputs("null", j->f);
}

void json_u64(struct json *j, const char *k, uint64_t val)
{
	key(j, k);
	fprintf(j->f, "%llu", (unsigned long long)val);
}

void json_i64(struct json *j, const char *k, int64_t val)
{
	key(j, k);
	fprintf(j->f, "%lld", (long long)val);
}

void json_num(struct json *j, const char *k, double val)
{
	key(j, k);
	if (isfinite(val))
		fprintf(j->f, "%.10g", val);
	else
		fputs("null", j->f);
}

void json_bool(struct json *j, const char *k, bool val)
{
	key(j, k);
	fputs(val ? "true" : "false", j->f);
}

void json_raw(struct json *j, const char *k, const char *text, size_t len)
{
	key(j, k);
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	fwrite(text, 1, len, j->f);
}

void json_null(struct json *j, const char *k)
{
	key(j, k);
	fputs("null", j->f);
}
