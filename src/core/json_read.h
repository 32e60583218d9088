/* json_read.h - a small, strict JSON reader (RFC 8259) for rebench's own
 * results: a file or a buffer becomes a tree of values, looked up by key
 * and by index, freed in one call.  (json.h is the writer.)
 *
 * Strict: the input is UTF-8 holding exactly one value, with white space
 * (space, tab, line feed, carriage return) around tokens only; no comments,
 * no trailing commas, no single quotes, no leading zeros or '+' signs, no
 * NaN or Infinity, no raw control characters inside strings, no member
 * name twice in one object, no lone UTF-16 surrogate in a \u escape.  A
 * leading UTF-8 byte order mark is skipped (RFC 8259, 8.1, allows that).
 *
 * Every refusal is one line, "NAME: line L, column C: why", lines and
 * columns counted from 1, a column in characters (a tab is one).
 *
 * Cost: one pass, linear in the text; memory 112 bytes per value (on
 * x86-64) plus the text of its strings, and up to twice that for an
 * array's or object's items while they grow (a 55 MB file of a million
 * small objects, 4 million values: 2 to 4 s and 850 MB at most).
 * Looking a key up is linear in the object's members (rebench's objects
 * have tens), and so is the duplicate check of each new member.
 */
#ifndef REBENCH_JSON_READ_H
#define REBENCH_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Deeper nesting is refused: the parser recurses once per level. */
#define JSON_READ_MAX_DEPTH 64

/* A file larger than this is refused before it is read whole: no result of
 * rebench is near it, and /dev/zero would never end. */
#define JSON_READ_MAX_BYTES (256UL << 20)

enum json_type {
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json_value {
	enum json_type type;
	unsigned line, column;	/* where the value begins in the text */
	/* a member of an object: its name (UTF-8, NUL-terminated, may hold
	 * a NUL of \u0000 before key_len) and where the name begins */
	char *key;
	size_t key_len;
	unsigned key_line, key_column;
	bool boolean;		/* JSON_BOOL */
	/* JSON_NUMBER: the nearest double; when the literal is an integer
	 * (no fraction, no exponent) in range, also exactly */
	double number;
	bool has_u64, has_i64;
	uint64_t u64;		/* 0 .. 2^64-1 */
	int64_t i64;		/* -2^63 .. 2^63-1 */
	char *str;		/* JSON_STRING: UTF-8, NUL-terminated */
	size_t len;		/* its bytes, without the NUL (\u0000 counts) */
	struct json_value *items;	/* JSON_ARRAY, JSON_OBJECT: n values */
	size_t n;
};

/* Parse len bytes of text, named name in messages.  0 and *root (free it
 * with json_free), or -EINVAL ("name: line L, column C: why" in err) or
 * -ENOMEM, *root NULL. */
int json_parse(const char *text, size_t len, const char *name,
	       struct json_value **root, char *err, size_t errlen);

/* Read the file at path and parse it, named path.  As json_parse, and
 * -errno with "path: why" in err when the file cannot be read whole (a
 * directory, missing, unreadable, larger than JSON_READ_MAX_BYTES:
 * -EFBIG). */
int json_load(const char *path, struct json_value **root, char *err,
	      size_t errlen);

/* The tree and everything in it; NULL is ignored. */
void json_free(struct json_value *root);

/* The member of object obj named key (the first: names are unique), or
 * NULL when obj is not an object or has no such member. */
const struct json_value *json_get(const struct json_value *obj,
				  const char *key);

/* The array's (or object's) item i, or NULL when out of range or v is
 * neither. */
const struct json_value *json_at(const struct json_value *v, size_t i);

/* "null", "a boolean", "a number", "a string", "an array", "an object":
 * for messages such as "is a string; a number was expected". */
const char *json_type_name(enum json_type t);

#endif
