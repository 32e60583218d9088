/* trace_reader.c - see trace_reader.h. */
#include "trace/trace_reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/memory.h"

const char *const trace_status_words[] = {
	[TRACE_STATUS_UNKNOWN] = NULL, [TRACE_STATUS_COMPLETE] = "complete",
	[TRACE_STATUS_INCOMPLETE] = "incomplete",
	[TRACE_STATUS_UNFINISHED] = "unfinished",
};

bool trace_parse_u64(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || x > UINT64_MAX / 10 ||
		    x * 10 > UINT64_MAX - (uint64_t)(*s - '0'))
			return false;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return true;
}

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static int grow_index(struct trace_reader *r)
{
	uint32_t n = r->cap_index ? r->cap_index * 2 : 64, i, k;
	uint32_t *idx;

	if (!memory_take_held(&r->mem, (uint64_t)(n - r->cap_index) * sizeof(*idx)))
		return -E2BIG;
	idx = calloc(n, sizeof(*idx));
	if (!idx) {
		memory_give_held(&r->mem, (uint64_t)(n - r->cap_index) * sizeof(*idx));
		return -ENOMEM;
	}
	for (i = 0; i < r->nnames; i++) {
		for (k = hash(r->names[i]) & (n - 1); idx[k]; k = (k + 1) & (n - 1))
			;
		idx[k] = i + 1;
	}
	free(r->index);
	r->index = idx;
	r->cap_index = n;
	return 0;
}

/* The id of a path, added when new (see trace_log.h). */
int trace_intern(struct trace_reader *r, const char *path, uint32_t *id)
{
	uint32_t k, n;
	char **names;
	int ret;

	if ((r->nnames + 1) * 2 > r->cap_index && (ret = grow_index(r)))
		goto out_fail;
	for (k = hash(path) & (r->cap_index - 1); r->index[k];
	     k = (k + 1) & (r->cap_index - 1)) {
		if (!strcmp(r->names[r->index[k] - 1], path)) {
			*id = r->index[k] - 1;
			return 0;
		}
	}
	if (r->nnames == r->cap_names) {
		n = r->cap_names ? r->cap_names * 2 : 64;
		names = memory_realloc(r->names, r->cap_names * sizeof(*names),
				       n * sizeof(*names), &r->mem, &ret);
		if (!names)
			goto out_fail;
		r->names = names;
		r->cap_names = n;
	}
	ret = -E2BIG;
	if (!memory_take_held(&r->mem, strlen(path) + 1))
		goto out_fail;
	r->names[r->nnames] = strdup(path);
	ret = -ENOMEM;
	if (!r->names[r->nnames]) {
		memory_give_held(&r->mem, strlen(path) + 1);
		goto out_fail;
	}
	r->index[k] = r->nnames + 1;
	*id = r->nnames++;
	return 0;
out_fail:
	if (ret == -E2BIG)
		return memory_refuse_log(r->err, sizeof(r->err), r->path,
					 r->line, "its table of file names");
	snprintf(r->err, sizeof(r->err), "%s: line %lu: out of memory",
		 r->path, r->line);
	return ret;
}

void trace_warn(struct trace_reader *r, const char *text)
{
	if (r->nwarnings < TRACE_MAX_WARNINGS)
		r->warnings[r->nwarnings] = strdup(text);
	r->nwarnings++;
}
