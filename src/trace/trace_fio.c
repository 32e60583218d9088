/* trace_fio.c - reading fio's iologs as records; see trace_fio.h. */
#include "trace/trace_fio.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* r->fio_files[id] */
#define FIO_ADDED 1
#define FIO_OPEN 2

#define FIO_MAX_FIELDS 5

static int bad_line(struct trace_reader *r, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(r->err, sizeof(r->err), "%s: line %lu: corrupt: %s",
		 r->path, r->line, why);
	return -EINVAL;
}

int trace_fio_header(struct trace_reader *r, const char *line)
{
	static const char pre[] = "fio version ", post[] = " iolog";
	const char *v;
	char *end;
	long n;

	if (!strcmp(line, TRACE_FIO_MAGIC2) || !strcmp(line, TRACE_FIO_MAGIC3)) {
		r->fio = line[sizeof(pre) - 1] - '0';
		r->version = r->fio;
		return 1;
	}
	if (strncmp(line, pre, sizeof(pre) - 1))
		return 0;
	v = line + sizeof(pre) - 1;
	n = strtol(v, &end, 10);
	if (end == v || strcmp(end, post))
		return 0;
	snprintf(r->err, sizeof(r->err), "%s: fio iolog version %ld is unknown: rebench reads versions 2 and 3 ('%s', '%s')",
		 r->path, n, TRACE_FIO_MAGIC2, TRACE_FIO_MAGIC3);
	return -EINVAL;
}

bool trace_fio_name_ok(const char *path)
{
	const char *p;

	if (!*path || strlen(path) > TRACE_FIO_NAME_MAX)
		return false;
	for (p = path; *p; p++)
		if (*p == ' ' || (*p >= '\t' && *p <= '\r'))
			return false;
	return true;
}

/* Digits only, within max. */
static bool number(const char *s, uint64_t max, uint64_t *v)
{
	uint64_t x;

	if (!trace_parse_u64(s, &x) || x > max)
		return false;
	*v = x;
	return true;
}

/* The state of file id, grown as ids appear: NULL without memory. */
static unsigned char *file_state(struct trace_reader *r, uint32_t id)
{
	unsigned char *s;
	uint32_t n;

	if (id >= r->fio_nfiles) {
		n = r->fio_nfiles ? r->fio_nfiles : 16;
		while (n <= id)
			n *= 2;
		s = realloc(r->fio_files, n);
		if (!s)
			return NULL;
		memset(s + r->fio_nfiles, 0, n - r->fio_nfiles);
		r->fio_files = s;
		r->fio_nfiles = n;
	}
	return &r->fio_files[id];
}

/* The actions of "FILE ACTION OFFSET LENGTH", with their call. */
static const struct {
	const char *name;
	int call;
} io_actions[] = {
	{ "read", TC_pread }, { "write", TC_pwrite }, { "sync", TC_fsync },
	{ "datasync", TC_fdatasync }, { "trim", TC_fallocate },
	{ "wait", -1 },
};

static int file_action(struct trace_reader *r, const char *act,
		       unsigned char *st, struct trace_rec *rec)
{
	if (!strcmp(act, "add")) {
		*st |= FIO_ADDED;
		return 0;
	}
	if (strcmp(act, "open") && strcmp(act, "close"))
		return bad_line(r, "'%.40s' is not a file action (add, open, close); with an OFFSET and a LENGTH it would be read, write, trim, sync or datasync",
				act);
	if (!(*st & FIO_ADDED))
		return bad_line(r, "%s before the file's 'add' line (fio needs 'FILE add' first)",
				act);
	rec->off = rec->len = TRACE_NONE;
	if (act[0] == 'o') {
		rec->call = TC_open;
		rec->flags = O_RDWR;
		rec->result = rec->fd;
		*st |= FIO_OPEN;
	} else {
		rec->call = TC_close;
		rec->result = 0;
		*st &= (unsigned char)~FIO_OPEN;
	}
	return 1;
}

static int io_action(struct trace_reader *r, const char *act,
		     const char *off, const char *len, unsigned char *st,
		     struct trace_rec *rec)
{
	uint64_t o, l;
	size_t i;
	int call = -2;

	for (i = 0; i < sizeof(io_actions) / sizeof(io_actions[0]); i++)
		if (!strcmp(act, io_actions[i].name))
			call = io_actions[i].call;
	if (call == -2)
		return bad_line(r, "'%.40s' is not an I/O action (read, write, trim, sync, datasync%s); without OFFSET and LENGTH it would be add, open or close",
				act, r->fio == 2 ? ", wait" : "");
	if (!number(off, INT64_MAX, &o))
		return bad_line(r, "the offset '%.40s' is not a number of bytes", off);
	if (!number(len, UINT32_MAX, &l))
		return bad_line(r, "the length '%.40s' is not a number of bytes below 2^32", len);
	if (call == -1) {
		if (r->fio == 3) {
			trace_warn(r, "warning: fio iolog version 3 has no 'wait' (the times say it): ignored, as fio does");
			return 0;
		}
		r->fio_t_ns += o * 1000;	/* us */
		return 0;
	}
	if (!(*st & FIO_ADDED))
		return bad_line(r, "%s on a file without its 'add' line (fio needs 'FILE add' first)",
				act);
	rec->call = (uint16_t)call;
	if (call == TC_fsync || call == TC_fdatasync) {
		rec->off = rec->len = TRACE_NONE;
		rec->result = 0;
	} else {
		rec->off = (int64_t)o;
		rec->len = (int64_t)l;
		rec->result = call == TC_fallocate ? 0 : (int64_t)l;
		if (call == TC_fallocate)
			rec->flags = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
	}
	return 1;
}

int trace_fio_parse(struct trace_reader *r, char *line,
		    struct trace_rec *rec)
{
	char *f[FIO_MAX_FIELDS + 1], *p, *save = NULL;
	int n = 0, first, ret;
	unsigned char *st;
	uint64_t t;
	uint32_t id;

	for (p = strtok_r(line, " \t\r\v\f", &save); p;
	     p = strtok_r(NULL, " \t\r\v\f", &save)) {
		if (n == FIO_MAX_FIELDS)
			return bad_line(r, "more than %d fields", r->fio == 3 ? 5 : 4);
		f[n++] = p;
	}
	if (!n)
		return 0;	/* fio skips an empty line too */
	first = r->fio == 3 ? 1 : 0;
	if (n != first + 2 && n != first + 4)
		return bad_line(r, "%d %s; a fio version %d iolog line is '%sFILE ACTION' or '%sFILE ACTION OFFSET LENGTH'",
				n, n == 1 ? "field" : "fields", r->fio,
				first ? "TIME " : "", first ? "TIME " : "");
	if (first) {
		if (!number(f[0], UINT64_MAX / 1000, &t))
			return bad_line(r, "the time '%.40s' is not a number of microseconds", f[0]);
		r->fio_t_ns = t * 1000;
	}
	if (strlen(f[first]) > TRACE_FIO_NAME_MAX)
		return bad_line(r, "the file name has more than the %d bytes fio reads",
				TRACE_FIO_NAME_MAX);
	ret = trace_intern(r, f[first], &id);
	if (ret)
		return ret;	/* r->err says why */
	if (!(st = file_state(r, id))) {
		snprintf(r->err, sizeof(r->err), "%s: line %lu: out of memory",
			 r->path, r->line);
		return -ENOMEM;
	}
	memset(rec, 0, sizeof(*rec));
	rec->t_ns = r->fio_t_ns;
	rec->pid = rec->tid = 1;
	rec->file = id;
	rec->fd = (int)(3 + id % (INT32_MAX - 3));
	if (n == first + 2)
		ret = file_action(r, f[first + 1], st, rec);
	else
		ret = io_action(r, f[first + 1], f[first + 2], f[first + 3],
				st, rec);
	if (ret > 0)
		rec->type = trace_call_types[rec->call];
	return ret;
}
