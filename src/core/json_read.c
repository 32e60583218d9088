/* json_read.c - see json_read.h.
 *
 * A recursive descent over the text, one function per kind of value.  The
 * values of an array or object are held inline in one array that grows by
 * doubling; a member is counted in its parent before it is parsed, so that
 * after a refusal json_free() of the root reaches everything allocated.
 */
#include "core/json_read.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/infile.h"

struct parser {
	const char *p, *end;
	const char *line_start;	/* first byte of the line of p */
	unsigned line;
	const char *col_at;	/* a byte of the line whose column is col: */
	unsigned col;		/* columns count on from there, so that a
				 * long line is scanned once, not per value */
	unsigned depth;		/* objects and arrays open around p */
	const char *name;
	char *err;
	size_t errlen;
};

/* ------------------------------------------------------------ messages */

/* The column of at, on the line of p: characters since the line began.
 * (Only white space holds line feeds, so at is never on an earlier line
 * than p once p has passed it.)  Values are met in order, so counting on
 * from the last answer keeps the whole parse linear; only a message about
 * an earlier byte counts again from the line's start. */
static unsigned column_of(struct parser *ps, const char *at)
{
	if (ps->col_at < ps->line_start || ps->col_at > at) {
		ps->col_at = ps->line_start;
		ps->col = 1;
	}
	for (; ps->col_at < at; ps->col_at++)
		if (((unsigned char)*ps->col_at & 0xC0) != 0x80)
			ps->col++;
	return ps->col;
}

static int vfail_at(struct parser *ps, unsigned line, unsigned col,
		    const char *fmt, va_list ap)
{
	int n = snprintf(ps->err, ps->errlen, "%s: line %u, column %u: ",
			 ps->name, line, col);

	if (n >= 0 && (size_t)n < ps->errlen)
		vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
	return -EINVAL;
}

__attribute__((format(printf, 4, 5)))
static int fail_at(struct parser *ps, unsigned line, unsigned col,
		   const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vfail_at(ps, line, col, fmt, ap);
	va_end(ap);
	return ret;
}

/* A refusal at byte at of the current line. */
__attribute__((format(printf, 3, 4)))
static int fail(struct parser *ps, const char *at, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vfail_at(ps, ps->line, column_of(ps, at), fmt, ap);
	va_end(ap);
	return ret;
}

static int out_of_memory(struct parser *ps)
{
	snprintf(ps->err, ps->errlen, "%s: out of memory reading it",
		 ps->name);
	return -ENOMEM;
}

/* Length of the valid UTF-8 sequence at s, a byte of 0x80 or more (2 to
 * 4), or 0: an overlong form, a surrogate, a code point above U+10FFFF or
 * a cut sequence are not UTF-8 (RFC 3629). */
static int utf8_len(const char *s, const char *end)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned cp, min;
	int n, i;

	if (u[0] < 0xC2)
		return 0;
	if (u[0] < 0xE0) {
		n = 2, cp = u[0] & 0x1F, min = 0x80;
	} else if (u[0] < 0xF0) {
		n = 3, cp = u[0] & 0x0F, min = 0x800;
	} else if (u[0] < 0xF5) {
		n = 4, cp = u[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (end - s < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((u[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (u[i] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return n;
}

/* What stands at at, for "... was expected, not X". */
static const char *what_at(const struct parser *ps, const char *at,
			   char *buf, size_t len)
{
	unsigned char c;
	int n;

	if (at >= ps->end)
		return "the end of the file";
	c = (unsigned char)*at;
	if (c == ' ') {
		snprintf(buf, len, "a space");
	} else if (c > 0x20 && c < 0x7F) {
		snprintf(buf, len, "'%c'", c);
	} else if (c >= 0x80 && (n = utf8_len(at, ps->end)) > 0) {
		snprintf(buf, len, "'%.*s'", n, at);
	} else if (c >= 0x80) {
		snprintf(buf, len, "byte 0x%02X, which is not UTF-8 (JSON text is UTF-8)",
			 c);
	} else {
		snprintf(buf, len, "the control character 0x%02X", c);
	}
	return buf;
}

/* ------------------------------------------------------------ tokens */

static void skip_space(struct parser *ps)
{
	while (ps->p < ps->end) {
		char c = *ps->p;

		if (c == '\n') {
			ps->line++;
			ps->line_start = ++ps->p;
		} else if (c == ' ' || c == '\t' || c == '\r') {
			ps->p++;
		} else {
			break;
		}
	}
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The four hex digits after "\u" at s, or -1. */
static long hex4(const struct parser *ps, const char *s)
{
	long v = 0;
	int i, h;

	if (ps->end - s < 6 || s[0] != '\\' || s[1] != 'u')
		return -1;
	for (i = 2; i < 6; i++) {
		h = hex_value(s[i]);
		if (h < 0)
			return -1;
		v = v << 4 | h;
	}
	return v;
}

struct text {
	char *s;
	size_t n, cap;
};

static int text_add(struct text *t, const char *s, size_t n)
{
	char *g;

	if (t->n + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 32;

		while (cap < t->n + n + 1)
			cap *= 2;
		g = realloc(t->s, cap);
		if (!g)
			return -ENOMEM;
		t->s = g;
		t->cap = cap;
	}
	memcpy(t->s + t->n, s, n);
	t->n += n;
	t->s[t->n] = '\0';
	return 0;
}

static int text_add_cp(struct text *t, unsigned long cp)
{
	char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (char)cp, n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xC0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xE0 | cp >> 12);
		u[1] = (char)(0x80 | (cp >> 6 & 0x3F));
		u[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
	} else {
		u[0] = (char)(0xF0 | cp >> 18);
		u[1] = (char)(0x80 | (cp >> 12 & 0x3F));
		u[2] = (char)(0x80 | (cp >> 6 & 0x3F));
		u[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
	}
	return text_add(t, u, n);
}

/* How to write the control character c inside a string. */
static const char *escape_of(unsigned char c, char *buf, size_t len)
{
	static const char plain[] = "\b\f\n\r\t";
	static const char *const esc[] = { "\\b", "\\f", "\\n", "\\r", "\\t" };
	const char *s = c ? strchr(plain, c) : NULL;

	if (s)
		return esc[s - plain];
	snprintf(buf, len, "\\u%04X", c);
	return buf;
}

/* The escape at ps->p (a backslash) onto t. */
static int parse_escape(struct parser *ps, struct text *t)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *esc = ps->p, *c;
	char buf[64];
	long hi, lo;

	if (esc + 1 >= ps->end)
		return fail(ps, ps->end, "the file ends inside an escape of a string");
	c = esc[1] ? strchr(from, esc[1]) : NULL;
	if (c) {
		ps->p += 2;
		return text_add(t, &to[c - from], 1);
	}
	if (esc[1] != 'u')
		return fail(ps, esc, "unknown escape '\\' followed by %s: the escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\u with four hexadecimal digits",
			    what_at(ps, esc + 1, buf, sizeof(buf)));
	hi = hex4(ps, esc);
	if (hi < 0)
		return fail(ps, esc, "\\u must be followed by four hexadecimal digits (\\u00E9)");
	if (hi >= 0xDC00 && hi <= 0xDFFF)
		return fail(ps, esc, "\\u%04lX is a low surrogate without the high surrogate (\\uD800 to \\uDBFF) that must come before it",
			    hi);
	if (hi < 0xD800 || hi > 0xDBFF) {
		ps->p += 6;
		return text_add_cp(t, (unsigned long)hi);
	}
	lo = hex4(ps, esc + 6);
	if (lo < 0xDC00 || lo > 0xDFFF)
		return fail(ps, esc, "\\u%04lX is a high surrogate: it must be followed by a low surrogate, \\uDC00 to \\uDFFF (the pair is one character above U+FFFF)",
			    hi);
	ps->p += 12;
	return text_add_cp(t, 0x10000 + ((unsigned long)(hi - 0xD800) << 10) +
			   (unsigned long)(lo - 0xDC00));
}

/* The string at ps->p (a '"'): its text in *s (malloc'd), *n bytes. */
static int parse_string(struct parser *ps, char **s, size_t *n)
{
	unsigned col = column_of(ps, ps->p);
	struct text t = { 0 };
	const char *run;
	char buf[64];
	int ret, k;

	ps->p++;
	if (text_add(&t, "", 0))
		return out_of_memory(ps);
	for (;;) {
		for (run = ps->p; ps->p < ps->end; ps->p++) {
			unsigned char c = (unsigned char)*ps->p;

			if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80)
				break;
		}
		if (text_add(&t, run, (size_t)(ps->p - run)))
			goto out_nomem;
		if (ps->p >= ps->end) {
			ret = fail(ps, ps->end, "the file ends inside the string that began at line %u, column %u: a closing '\"' is missing",
				   ps->line, col);
			goto out_free;
		}
		if (*ps->p == '"')
			break;
		if (*ps->p == '\\') {
			ret = parse_escape(ps, &t);
			if (ret == -ENOMEM)
				goto out_nomem;
			if (ret)
				goto out_free;
			continue;
		}
		if ((unsigned char)*ps->p < 0x20) {
			ret = fail(ps, ps->p, "the control character 0x%02X inside a string (that began at column %u): write it escaped, as %s",
				   (unsigned char)*ps->p, col,
				   escape_of((unsigned char)*ps->p, buf, sizeof(buf)));
			goto out_free;
		}
		k = utf8_len(ps->p, ps->end);
		if (!k) {
			ret = fail(ps, ps->p, "byte 0x%02X inside a string is not UTF-8 (JSON text is UTF-8; convert the file, e.g. with iconv)",
				   (unsigned char)*ps->p);
			goto out_free;
		}
		if (text_add(&t, ps->p, (size_t)k))
			goto out_nomem;
		ps->p += k;
	}
	ps->p++;
	*s = t.s;
	*n = t.n;
	return 0;
out_nomem:
	ret = out_of_memory(ps);
out_free:
	free(t.s);
	return ret;
}

/* The number at ps->p ('-' or a digit) into v. */
static int parse_number(struct parser *ps, struct json_value *v)
{
	const char *s = ps->p, *q = s, *digits;
	uint64_t mag = 0;
	bool integral = true, fits = true;
	char buf[64], *copy;

	if (*q == '-')
		q++;
	digits = q;
	if (q >= ps->end || !is_digit(*q))
		return fail(ps, q, "'-' must be followed by a digit, not %s",
			    what_at(ps, q, buf, sizeof(buf)));
	if (*q == '0' && q + 1 < ps->end && is_digit(q[1]))
		return fail(ps, s, "a number cannot begin with a 0 followed by digits (JSON has no octal): write it without leading zeros");
	while (q < ps->end && is_digit(*q)) {
		unsigned d = (unsigned)(*q++ - '0');

		if (mag > (UINT64_MAX - d) / 10)
			fits = false;
		else
			mag = mag * 10 + d;
	}
	if (q < ps->end && *q == '.') {
		integral = false;
		if (++q >= ps->end || !is_digit(*q))
			return fail(ps, q, "a digit was expected after the decimal point, not %s",
				    what_at(ps, q, buf, sizeof(buf)));
		while (q < ps->end && is_digit(*q))
			q++;
	}
	if (q < ps->end && (*q == 'e' || *q == 'E')) {
		integral = false;
		if (++q < ps->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= ps->end || !is_digit(*q))
			return fail(ps, q, "a digit was expected in the exponent, not %s",
				    what_at(ps, q, buf, sizeof(buf)));
		while (q < ps->end && is_digit(*q))
			q++;
	}
	copy = strndup(s, (size_t)(q - s));
	if (!copy)
		return out_of_memory(ps);
	v->number = strtod(copy, NULL);	/* the grammar above is strtod's */
	free(copy);
	if (isinf(v->number))
		return fail(ps, s, "the number %.*s%s is beyond the range of a double (about 1.8e308)",
			    (int)(q - s > 40 ? 40 : q - s), s,
			    q - s > 40 ? "..." : "");
	v->type = JSON_NUMBER;
	if (integral && fits) {
		if (s == digits) {
			v->has_u64 = true;
			v->u64 = mag;
			v->has_i64 = mag <= (uint64_t)INT64_MAX;
			v->i64 = (int64_t)mag;
		} else if (mag <= (uint64_t)INT64_MAX + 1) {
			v->has_i64 = true;
			v->i64 = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN :
				 -(int64_t)mag;
			v->has_u64 = mag == 0;	/* -0 */
		}
	}
	ps->p = q;
	return 0;
}

/* true, false, null, or a word that is none of them. */
static int parse_word(struct parser *ps, struct json_value *v)
{
	const char *q = ps->p;
	size_t n;

	while (q < ps->end && ((*q >= 'a' && *q <= 'z') ||
			       (*q >= 'A' && *q <= 'Z') || is_digit(*q) ||
			       *q == '_'))
		q++;
	n = (size_t)(q - ps->p);
	if (n == 4 && !memcmp(ps->p, "true", 4)) {
		v->type = JSON_BOOL;
		v->boolean = true;
	} else if (n == 5 && !memcmp(ps->p, "false", 5)) {
		v->type = JSON_BOOL;
	} else if (n == 4 && !memcmp(ps->p, "null", 4)) {
		v->type = JSON_NULL;
	} else {
		return fail(ps, ps->p, "'%.*s%s' is not a JSON value: the words are true, false and null, in lower case, and a string is in double quotes",
			    (int)(n > 40 ? 40 : n), ps->p, n > 40 ? "..." : "");
	}
	ps->p = q;
	return 0;
}

/* ------------------------------------------------------------ structure */

static int parse_value(struct parser *ps, struct json_value *v);

/* Room for one more value in v's items: the new, zeroed item. */
static struct json_value *add_item(struct json_value *v, size_t *cap)
{
	struct json_value *g;

	if (v->n == *cap) {
		size_t c = *cap ? *cap * 2 : 4;

		g = realloc(v->items, c * sizeof(*g));
		if (!g)
			return NULL;
		v->items = g;
		*cap = c;
	}
	memset(&v->items[v->n], 0, sizeof(v->items[0]));
	return &v->items[v->n++];
}

/* A new member's name must not be one the object already has. */
static int check_unique(struct parser *ps, const struct json_value *obj,
			const struct json_value *m)
{
	size_t i;

	for (i = 0; i + 1 < obj->n; i++) {
		const struct json_value *o = &obj->items[i];

		if (o->key_len == m->key_len &&
		    !memcmp(o->key, m->key, m->key_len))
			return fail_at(ps, m->key_line, m->key_column,
				       "the member \"%.60s\" is in this object twice (first at line %u, column %u): names must be unique",
				       m->key, o->key_line, o->key_column);
	}
	return 0;
}

/* Where ps->p should hold close, or a ',' before the next item: the
 * message when it holds neither. */
static int bad_separator(struct parser *ps, const struct json_value *v,
			 char close)
{
	char buf[64];

	if (ps->p >= ps->end)
		return fail(ps, ps->p, "the file ends inside the %s that began at line %u, column %u: a '%c' is missing",
			    close == '}' ? "object" : "array", v->line,
			    v->column, close);
	return fail(ps, ps->p, "',' or '%c' was expected after an item of the %s that began at line %u, column %u, not %s",
		    close, close == '}' ? "object" : "array", v->line,
		    v->column, what_at(ps, ps->p, buf, sizeof(buf)));
}

/* The object or array at ps->p ('{' or '['). */
static int parse_container(struct parser *ps, struct json_value *v)
{
	bool obj = *ps->p == '{';
	char close = obj ? '}' : ']', buf[64];
	const char *kind = obj ? "object" : "array";
	struct json_value *m;
	size_t cap = 0;
	int ret;

	if (ps->depth == JSON_READ_MAX_DEPTH)
		return fail(ps, ps->p, "objects and arrays nested deeper than %d levels: rebench writes nothing that deep",
			    JSON_READ_MAX_DEPTH);
	ps->depth++;
	v->type = obj ? JSON_OBJECT : JSON_ARRAY;
	ps->p++;
	skip_space(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		ps->depth--;
		return 0;
	}
	for (;;) {
		skip_space(ps);
		if (ps->p >= ps->end)
			return bad_separator(ps, v, close);
		if (*ps->p == close && v->n)
			return fail(ps, ps->p, "a ',' before '%c': JSON allows no comma after the last item of an %s; remove it",
				    close, kind);
		if (obj && *ps->p != '"')
			return fail(ps, ps->p, "a member name (a string in double quotes) was expected, not %s",
				    what_at(ps, ps->p, buf, sizeof(buf)));
		m = add_item(v, &cap);
		if (!m)
			return out_of_memory(ps);
		if (obj) {
			m->key_line = ps->line;
			m->key_column = column_of(ps, ps->p);
			ret = parse_string(ps, &m->key, &m->key_len);
			if (!ret)
				ret = check_unique(ps, v, m);
			if (ret)
				return ret;
			skip_space(ps);
			if (ps->p >= ps->end || *ps->p != ':')
				return fail(ps, ps->p, "':' was expected after the member name \"%.60s\", not %s",
					    m->key, what_at(ps, ps->p, buf, sizeof(buf)));
			ps->p++;
		}
		ret = parse_value(ps, m);
		if (ret)
			return ret;
		skip_space(ps);
		if (ps->p < ps->end && *ps->p == close)
			break;
		if (ps->p >= ps->end || *ps->p != ',')
			return bad_separator(ps, v, close);
		ps->p++;
	}
	ps->p++;
	ps->depth--;
	return 0;
}

static int parse_value(struct parser *ps, struct json_value *v)
{
	char buf[64];
	char c;

	skip_space(ps);
	v->line = ps->line;
	v->column = column_of(ps, ps->p);
	if (ps->p >= ps->end)
		return fail(ps, ps->p, "a value was expected, not the end of the file");
	c = *ps->p;
	if (c == '{' || c == '[')
		return parse_container(ps, v);
	if (c == '"') {
		v->type = JSON_STRING;
		return parse_string(ps, &v->str, &v->len);
	}
	if (c == '-' || is_digit(c))
		return parse_number(ps, v);
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
		return parse_word(ps, v);
	if (c == '+')
		return fail(ps, ps->p, "a number has no '+' sign in JSON: write the digits alone");
	if (c == '.')
		return fail(ps, ps->p, "a number needs a digit before its decimal point in JSON (0.5, not .5)");
	if (c == '\'')
		return fail(ps, ps->p, "a string is in double quotes in JSON, not single ones");
	return fail(ps, ps->p, "a value (an object, array, string, number, true, false or null) was expected, not %s",
		    what_at(ps, ps->p, buf, sizeof(buf)));
}

int json_parse(const char *text, size_t len, const char *name,
	       struct json_value **root, char *err, size_t errlen)
{
	struct parser ps = {
		.p = text, .end = text + len, .line_start = text, .line = 1,
		.col_at = text, .col = 1,
		.name = name, .err = err, .errlen = errlen,
	};
	struct json_value *v;
	char buf[64];
	int ret;

	*root = NULL;
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		ps.p = ps.line_start = ps.col_at = text + 3;
	skip_space(&ps);
	if (ps.p >= ps.end)
		return fail(&ps, ps.p, "%s: a JSON value was expected (rebench writes one with --json)",
			    len ? "nothing but white space" : "the file is empty");
	v = calloc(1, sizeof(*v));
	if (!v)
		return out_of_memory(&ps);
	ret = parse_value(&ps, v);
	if (!ret) {
		skip_space(&ps);
		if (ps.p < ps.end)
			ret = fail(&ps, ps.p, "%s after the value that began at line %u, column %u: a JSON text holds one value",
				   what_at(&ps, ps.p, buf, sizeof(buf)),
				   v->line, v->column);
	}
	if (ret) {
		json_free(v);
		return ret;
	}
	*root = v;
	return 0;
}

/* ------------------------------------------------------------ files */

int json_load(const char *path, struct json_value **root, char *err,
	      size_t errlen)
{
	/* read once, so a pipe too (infile.h; rebench(1), FILES) */
	static const struct infile_limit limit = {
		.bytes = JSON_READ_MAX_BYTES, .stream = true,
	};
	size_t n = 0, cap = 64 << 10, r;
	char *text = NULL, *g, why[256];
	FILE *f;
	int ret;

	*root = NULL;
	f = infile_open(path, &limit, why, sizeof(why));
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot open it: %s", path, why);
		return ret;
	}
	for (;;) {
		if (!text || n == cap) {
			cap = text ? cap * 2 : cap;
			g = realloc(text, cap);
			if (!g) {
				ret = -ENOMEM;
				snprintf(err, errlen, "%s: out of memory reading it",
					 path);
				goto out;
			}
			text = g;
		}
		r = fread(text + n, 1, cap - n, f);
		n += r;
		if (r)
			continue;
		if (ferror(f)) {
			ret = -errno;
			snprintf(err, errlen, "%s: cannot read it: %s", path,
				 infile_strerror(errno, &limit, why,
						 sizeof(why)));
			goto out;
		}
		break;
	}
	ret = json_parse(text, n, path, root, err, errlen);
out:
	free(text);
	fclose(f);
	return ret;
}

/* ------------------------------------------------------------ the tree */

static void free_inside(struct json_value *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		free_inside(&v->items[i]);
	free(v->items);
	free(v->key);
	free(v->str);
}

void json_free(struct json_value *root)
{
	if (!root)
		return;
	free_inside(root);
	free(root);
}

const struct json_value *json_get(const struct json_value *obj,
				  const char *key)
{
	size_t i, n = strlen(key);

	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (obj->items[i].key_len == n &&
		    !memcmp(obj->items[i].key, key, n))
			return &obj->items[i];
	return NULL;
}

const struct json_value *json_at(const struct json_value *v, size_t i)
{
	if (!v || (v->type != JSON_ARRAY && v->type != JSON_OBJECT) ||
	    i >= v->n)
		return NULL;
	return &v->items[i];
}

const char *json_type_name(enum json_type t)
{
	static const char *const names[] = {
		[JSON_NULL] = "null", [JSON_BOOL] = "a boolean",
		[JSON_NUMBER] = "a number", [JSON_STRING] = "a string",
		[JSON_ARRAY] = "an array", [JSON_OBJECT] = "an object",
	};

	return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t] : "?";
}
