/* json.h - a small streaming JSON writer: commas and escaping handled here
 * so report code only says what goes where.
 */
#ifndef REBENCH_JSON_H
#define REBENCH_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32	/* nesting deeper than this aborts: a bug */

struct json {
	FILE *f;
	int depth;
	bool first[JSON_MAX_DEPTH];
};

void json_init(struct json *j, FILE *f);
/* key is NULL inside arrays and for the top-level value. */
void json_obj_begin(struct json *j, const char *key);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j, const char *key);
void json_arr_end(struct json *j);
void json_str(struct json *j, const char *key, const char *val);
void json_u64(struct json *j, const char *key, uint64_t val);
void json_i64(struct json *j, const char *key, int64_t val);
void json_num(struct json *j, const char *key, double val);
void json_bool(struct json *j, const char *key, bool val);
void json_null(struct json *j, const char *key);
/* A value that is JSON text already (another rebench's document), as is. */
void json_raw(struct json *j, const char *key, const char *text, size_t len);

#endif
