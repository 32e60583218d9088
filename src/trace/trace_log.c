/* trace_log.c - see trace_log.h. */
#include "trace/trace_log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/infile.h"
#include "engines/iokind.h"
#include "core/memory.h"
#include "trace/trace_blkparse.h"
#include "trace/trace_fio.h"

#define NFIELDS 10

/* What the reader takes of a log (infile.h): any length, read as a
 * stream (a pipe is fine: every consumer reads a log once), lines of at
 * most TRACE_MAX_LINE bytes - the longest line the recorder writes is a
 * path of PATH_MAX bytes, each escaped as \ooo, and its fields. */
static const struct infile_limit log_limit = {
	.line = TRACE_MAX_LINE, .stream = true,
};

static const char *const field_names[NFIELDS] = {
	"time", "thread", "call", "fd", "file", "offset", "size", "result",
	"duration", "arg",
};

static int corrupt(struct trace_reader *r, int field, const char *fmt,
		   const char *val)
{
	char why[256];

	snprintf(why, sizeof(why), fmt, val);
	if (field >= 0)
		snprintf(r->err, sizeof(r->err), "%s: line %lu: corrupt: field %d (%s) %s",
			 r->path, r->line, field + 1, field_names[field], why);
	else
		snprintf(r->err, sizeof(r->err), "%s: line %lu: corrupt: %s",
			 r->path, r->line, why);
	return -EINVAL;
}

static bool parse_i64(const char *s, int64_t *v)
{
	uint64_t x;

	if (*s == '-') {
		if (!trace_parse_u64(s + 1, &x) || x > (uint64_t)INT64_MAX + 1)
			return false;
		*v = (int64_t)(0 - x);	/* -2^63 too */
		return true;
	}
	if (!trace_parse_u64(s, &x) || x > (uint64_t)INT64_MAX)
		return false;
	*v = (int64_t)x;
	return true;
}

/* OFFSET and SIZE: "-" or a number (-2^63, which only a failed call or
 * an lseek can be given, reads as "-") */
static bool parse_opt(const char *s, int64_t *v)
{
	if (!strcmp(s, "-")) {
		*v = TRACE_NONE;
		return true;
	}
	return parse_i64(s, v);
}

/* "-ENOENT" (strerrorname_np's names) or "-2" */
static bool parse_result(const char *s, int64_t *v)
{
	const char *name;
	int e;

	if (s[0] == '-' && s[1] == 'E') {
		for (e = 1; e < 256; e++) {
			name = strerrorname_np(e);
			if (name && !strcmp(name, s + 1)) {
				*v = -e;
				return true;
			}
		}
		return false;
	}
	return parse_i64(s, v);
}

static const struct trace_flag *find_flag(const struct trace_flag *t,
					  const char *name, size_t len)
{
	for (; t && t->name; t++)
		if (strlen(t->name) == len && !strncmp(t->name, name, len))
			return t;
	return NULL;
}

int trace_parse_flags(const char *s, const struct trace_flag *table,
		      const struct trace_flag *extra, uint64_t *v)
{
	const struct trace_flag *f;
	const char *p = s, *bar;
	char tok[32], *end;
	size_t len;

	*v = 0;
	if (!*s)
		return -EINVAL;
	for (;;) {
		bar = strchr(p, '|');
		len = bar ? (size_t)(bar - p) : strlen(p);
		if (!len || len >= sizeof(tok))
			return -EINVAL;
		f = find_flag(table, p, len);
		if (!f)
			f = find_flag(extra, p, len);
		if (f) {
			*v |= f->value;
		} else {
			memcpy(tok, p, len);
			tok[len] = '\0';
			errno = 0;
			if (!strncmp(tok, "0x", 2) && tok[2])
				*v |= strtoull(tok + 2, &end, 16);
			else if (!strcmp(tok, "0"))
				end = tok + 1;
			else
				return -EINVAL;
			if (*end || errno)
				return -EINVAL;
		}
		if (!bar)
			return 0;
		p = bar + 1;
	}
}

/* \ooo escapes back to bytes, in place; false on a bad escape or NUL. */
static bool unescape(char *s)
{
	char *w = s;
	int v, i;

	for (; *s; s++) {
		if (*s != '\\') {
			*w++ = *s;
			continue;
		}
		for (v = 0, i = 1; i <= 3; i++) {
			if (s[i] < '0' || s[i] > '7')
				return false;
			v = v * 8 + (s[i] - '0');
		}
		if (!v || v > 255)
			return false;
		*w++ = (char)v;
		s += 3;
	}
	*w = '\0';
	return true;
}

/* One line into r->buf without its newline: 1, 0 at the end, or -errno. */
static int read_line(struct trace_reader *r)
{
	ssize_t n;

	char why[256];
	int e;

	errno = 0;
	n = getline(&r->buf, &r->cap, r->f);
	/* getline gives what it read before an error: the error wins */
	if (ferror(r->f)) {
		e = errno ? errno : EIO;
		snprintf(r->err, sizeof(r->err), "%s: cannot read the log%s%.0lu: %s",
			 r->path, r->line ? " after line " : "", r->line,
			 infile_strerror(e, &log_limit, why, sizeof(why)));
		return -e;
	}
	if (n < 0)
		return 0;
	r->line++;
	if ((size_t)n != strlen(r->buf))
		return corrupt(r, -1, "%sa NUL byte in the line", "");
	if (!n || r->buf[n - 1] != '\n')
		return corrupt(r, -1, "%sthe line has no newline at its end: the log was cut short", "");
	r->buf[n - 1] = '\0';
	return 1;
}

static int check_header(struct trace_reader *r)
{
	size_t m = strlen(TRACE_MAGIC);
	uint64_t v;
	int ret;

	ret = read_line(r);
	if (ret < 0 && ret != -EINVAL)
		return ret;
	if (ret == 0) {
		snprintf(r->err, sizeof(r->err), "%s: not a rebench trace: the file is empty (the first line of a log is '%s%d')",
			 r->path, TRACE_MAGIC, TRACE_FORMAT_VERSION);
		return -EINVAL;
	}
	if (ret > 0 && strncmp(r->buf, TRACE_MAGIC, m)) {
		ret = trace_fio_header(r, r->buf);
		if (ret)
			return ret < 0 ? ret : 0;
		if (trace_blk_header(r, r->buf))
			return 0;
	}
	if (ret < 0 || strncmp(r->buf, TRACE_MAGIC, m)) {
		snprintf(r->err, sizeof(r->err), "%s: not a rebench trace: the first line is not '%s%d' (rebench --record writes it), nor '%s' or '%s' (fio --write_iolog writes those), nor an event of blkparse's default format",
			 r->path, TRACE_MAGIC, TRACE_FORMAT_VERSION,
			 TRACE_FIO_MAGIC2, TRACE_FIO_MAGIC3);
		return -EINVAL;
	}
	if (!trace_parse_u64(r->buf + m, &v) || !v || v > 1000000) {
		snprintf(r->err, sizeof(r->err), "%s: line 1: corrupt: '%.100s' has no version number after '%s'",
			 r->path, r->buf, TRACE_MAGIC);
		return -EINVAL;
	}
	if (v != TRACE_FORMAT_VERSION) {
		snprintf(r->err, sizeof(r->err), "%s: rebench-trace version %llu is unknown: this rebench reads version %d (a newer rebench wrote the log?)",
			 r->path, (unsigned long long)v, TRACE_FORMAT_VERSION);
		return -EINVAL;
	}
	r->version = (int)v;
	return 0;
}

int trace_open_stream(struct trace_reader *r, FILE *f, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->path = strdup(name);
	if (!r->path) {
		snprintf(r->err, sizeof(r->err), "%s: out of memory", name);
		return -ENOMEM;
	}
	return check_header(r);
}

static int open_log(struct trace_reader *r, const char *path,
		    const struct infile_limit *limit)
{
	char why[512];
	FILE *f;
	int e, ret;

	f = infile_open(path, limit, why, sizeof(why));
	if (!f) {
		e = errno;
		memset(r, 0, sizeof(*r));
		snprintf(r->err, sizeof(r->err), "%s: cannot read the log: %s",
			 path, why);
		return -e;
	}
	ret = trace_open_stream(r, f, path);
	r->own = true;
	return ret;
}

int trace_open(struct trace_reader *r, const char *path)
{
	return open_log(r, path, &log_limit);
}

int trace_open_fd(struct trace_reader *r, int fd, const char *name)
{
	char why[512];
	FILE *f = infile_fdopen(fd, &log_limit, why, sizeof(why));
	int e, ret;

	if (!f) {
		e = errno;
		memset(r, 0, sizeof(*r));
		snprintf(r->err, sizeof(r->err), "%s: cannot read the log: %s",
			 name, why);
		return -e;
	}
	ret = trace_open_stream(r, f, name);
	r->own = true;
	return ret;
}

void trace_say_status(const char *mode, const char *log,
		      const struct trace_reader *r, const char *product)
{
	if (r->status == TRACE_STATUS_INCOMPLETE)
		fprintf(stderr, "rebench: %s: %s is %s: %s holds only what the log holds\n",
			mode, log, r->status_text, product);
	else if (r->status == TRACE_STATUS_UNFINISHED)
		fprintf(stderr, "rebench: %s: %s is unfinished (the record did not end): calls may be missing from %s\n",
			mode, log, product);
	if (r->damaged)
		fprintf(stderr, "rebench: %s: %lu damaged %s of %s skipped (cut short by a failed write)\n",
			mode, r->damaged, r->damaged == 1 ? "line" : "lines",
			log);
}

/* "# status: WORD[: ...]" (the first one): the word, and the text
 * without the spaces that pad it. */
static void keep_status(struct trace_reader *r, const char *text)
{
	size_t n = strlen(text), w;
	int k;

	while (n && text[n - 1] == ' ')
		n--;
	r->status_text = strndup(text, n);
	for (k = TRACE_STATUS_COMPLETE; k <= TRACE_STATUS_UNFINISHED; k++) {
		w = strlen(trace_status_words[k]);
		if (!strncmp(text, trace_status_words[k], w) &&
		    strchr(" :", text[w]))	/* also the end, '\0' */
			r->status = (enum trace_status)k;
	}
}

static void keep_comment(struct trace_reader *r, const char *text)
{
	static const char cmd[] = "# command: ", warn[] = "# warning ";
	static const char status[] = TRACE_STATUS;

	if (!r->status_text && !strncmp(text, status, sizeof(status) - 1)) {
		keep_status(r, text + sizeof(status) - 1);
	} else if (!r->command && !strncmp(text, cmd, sizeof(cmd) - 1)) {
		r->command = strdup(text + sizeof(cmd) - 1);
	} else if (!strncmp(text, warn, sizeof(warn) - 1)) {
		trace_warn(r, text + 2);
	}
}

static int find_call(const char *name)
{
	int c;

	for (c = 0; c < TC_COUNT; c++)
		if (!strcmp(trace_call_names[c], name))
			return c;
	return -1;
}

static bool is_iov_call(int call)
{
	switch (call) {
	case TC_readv: case TC_preadv: case TC_preadv64: case TC_preadv2:
	case TC_preadv64v2: case TC_writev: case TC_pwritev:
	case TC_pwritev64: case TC_pwritev2: case TC_pwritev64v2:
		return true;
	default:
		return false;
	}
}

/* Calls that take an offset of their own. */
static bool has_offset(int call)
{
	switch (call) {
	case TC_pread: case TC_pread64: case TC___pread_chk:
	case TC___pread64_chk: case TC_preadv: case TC_preadv64:
	case TC_pwrite: case TC_pwrite64: case TC_pwritev: case TC_pwritev64:
	case TC_lseek: case TC_lseek64: case TC_sync_file_range:
	case TC_ftruncate: case TC_ftruncate64: case TC_fallocate:
	case TC_fallocate64: case TC_posix_fallocate:
	case TC_posix_fallocate64:
		return true;
	default:
		return false;
	}
}

/* A number of ARG that is an int of the call (lseek's whence, the count
 * of buffers): written signed; an older recorder wrote the unsigned long
 * it made of a negative one. */
static bool parse_int_arg(const char *s, int32_t *v)
{
	uint64_t u;
	int64_t i;

	if (parse_i64(s, &i)) {
		if (i < INT32_MIN || i > INT32_MAX)
			return false;
	} else if (trace_parse_u64(s, &u) && u > (uint64_t)INT64_MAX) {
		i = (int64_t)u;		/* two's complement, as written */
		if (i < INT32_MIN)
			return false;
	} else {
		return false;
	}
	*v = (int32_t)i;
	return true;
}

/* open: ACCESS|FLAGS[,MODE] (the mode as the program gave it: the kernel
 * keeps only 07777 of it, but any 32 bits may be passed) */
static int parse_open_arg(char *s, struct trace_rec *rec)
{
	char *comma = strchr(s, ',');
	uint64_t mode = 0;
	char *end;

	if (comma) {
		*comma = '\0';
		errno = 0;
		mode = strtoull(comma + 1, &end, 8);
		if (!comma[1] || *end || errno || mode > UINT32_MAX)
			return -EINVAL;
	}
	if (trace_parse_flags(s, trace_open_modes, trace_open_flags,
			      &rec->flags))
		return -EINVAL;
	rec->mode = (uint32_t)mode;
	return 0;
}

static int parse_arg(struct trace_reader *r, char *s, struct trace_rec *rec)
{
	static const char bad[] = "'%.60s' is not what this call takes";
	char *comma;
	int32_t v;

	rec->flags = 0;
	rec->mode = 0;
	rec->iovcnt = 0;
	if (rec->type == TT_OPEN) {
		if (parse_open_arg(s, rec))
			return corrupt(r, 9, "'%.60s' is not ACCESS|FLAGS[,MODE] (O_RDWR|O_CREAT,0644)", s);
		return 0;
	}
	if (is_iov_call(rec->call)) {
		comma = strchr(s, ',');
		if (comma) {
			*comma = '\0';
			if (!strstr(trace_call_names[rec->call], "v2") ||
			    trace_parse_flags(comma + 1, trace_rwf_flags, NULL,
					      &rec->flags))
				return corrupt(r, 9, bad, comma + 1);
		}
		if (!parse_int_arg(s, &v) ||
		    (rec->result >= 0 && (v < 0 || v > IOV_MAX)))
			return corrupt(r, 9, "'%.60s' is not a count of buffers", s);
		rec->iovcnt = v;
		return 0;
	}
	switch (rec->call) {
	case TC_lseek:
	case TC_lseek64:
		if (!trace_parse_flags(s, trace_whence, NULL, &rec->flags) &&
		    !strchr(s, '|'))
			return 0;
		if (parse_int_arg(s, &v)) {
			rec->flags = (uint64_t)(int64_t)v;
			return 0;
		}
		return corrupt(r, 9, "'%.60s' is not SEEK_SET, SEEK_CUR, SEEK_END, SEEK_DATA, SEEK_HOLE or a number", s);
	case TC_sync_file_range:
		if (trace_parse_flags(s, trace_sfr_flags, NULL, &rec->flags))
			return corrupt(r, 9, bad, s);
		return 0;
	case TC_fallocate:
	case TC_fallocate64:
		if (trace_parse_flags(s, trace_falloc_flags, NULL, &rec->flags))
			return corrupt(r, 9, bad, s);
		return 0;
	default:
		if (strcmp(s, "-"))
			return corrupt(r, 9, "'%.60s' should be '-': the call has no flags", s);
		return 0;
	}
}

/* The fields beyond their syntax: what each call must have.  A call that
 * failed is written with the arguments it was given, which the kernel
 * refused: a negative offset or size (pwrite at -1, ftruncate to -5), no
 * size where the vector could not be read (pwritev of -1 buffers); only
 * what succeeded must make sense. */
static int check_shape(struct trace_reader *r, const struct trace_rec *rec)
{
	bool data = rec->type == TT_READ || rec->type == TT_WRITE;
	bool ok = rec->result >= 0;

	if (ok && (data || rec->call == TC_sync_file_range ||
		   rec->type == TT_FALLOCATE) && rec->len == TRACE_NONE)
		return corrupt(r, 6, "is '-': %s has a size",
			       trace_call_names[rec->call]);
	/* lseek is the exception: it is given any offset, and on a file
	 * whose lseek ignores it (/dev/null, which another thread may have
	 * dup2'ed over a followed descriptor mid-call) it succeeds with
	 * -2^63 too, which the log writes as '-' */
	if (ok && has_offset(rec->call) && rec->off == TRACE_NONE &&
	    rec->type != TT_SEEK)
		return corrupt(r, 5, "is '-': %s has an offset",
			       trace_call_names[rec->call]);
	if (ok && rec->len != TRACE_NONE && rec->len < 0)
		return corrupt(r, 6, "is negative, and %s succeeded",
			       trace_call_names[rec->call]);
	if (ok && rec->off != TRACE_NONE && rec->off < 0 &&
	    rec->type != TT_SEEK)
		return corrupt(r, 5, "is negative, and %s succeeded",
			       trace_call_names[rec->call]);
	if (ok && data && rec->result > rec->len)
		return corrupt(r, 7, "says more bytes than the size asked (%s)",
			       trace_call_names[rec->call]);
	if (rec->type == TT_OPEN && rec->result >= 0 &&
	    rec->result != rec->fd)
		return corrupt(r, 7, "%sis not the fd of the open", "");
	if (rec->fd < -1 || (rec->type != TT_OPEN && rec->fd < 0))
		return corrupt(r, 3, "%sis not a descriptor", "");
	return 0;
}

static int parse_record(struct trace_reader *r, char *line,
			struct trace_rec *rec)
{
	char *f[NFIELDS], *p = line, *slash;
	uint64_t u;
	int64_t fd;
	int n = 0, c;

	while (n < NFIELDS) {
		f[n] = p;
		p = strchr(p, ' ');
		if (p)
			*p++ = '\0';
		if (!*f[n])
			return corrupt(r, n, "%sis empty (two spaces in a row, or a space at the end?)", "");
		n++;
		if (!p)
			break;
	}
	if (n < NFIELDS || p)
		return corrupt(r, -1, "%s", n < NFIELDS ?
			       "fewer than the 10 fields TIME PID/TID CALL FD FILE OFFSET SIZE RESULT DURATION ARG" :
			       "more than the 10 fields TIME PID/TID CALL FD FILE OFFSET SIZE RESULT DURATION ARG");
	if (!trace_parse_u64(f[0], &rec->t_ns))
		return corrupt(r, 0, "'%.60s' is not a number of ns", f[0]);
	slash = strchr(f[1], '/');
	if (!slash)
		return corrupt(r, 1, "'%.60s' is not PID/TID", f[1]);
	*slash = '\0';
	if (!trace_parse_u64(f[1], &u) || !u || u > INT32_MAX)
		return corrupt(r, 1, "'%.60s' is not a process id", f[1]);
	rec->pid = (uint32_t)u;
	if (!trace_parse_u64(slash + 1, &u) || !u || u > INT32_MAX)
		return corrupt(r, 1, "'%.60s' is not a thread id", slash + 1);
	rec->tid = (uint32_t)u;
	c = find_call(f[2]);
	if (c < 0)
		return corrupt(r, 2, "'%.60s' is not a call rebench records", f[2]);
	rec->call = (uint16_t)c;
	rec->type = trace_call_types[c];
	if (!parse_i64(f[3], &fd) || fd < INT32_MIN || fd > INT32_MAX)
		return corrupt(r, 3, "'%.60s' is not a number", f[3]);
	rec->fd = (int)fd;
	if (!unescape(f[4]) || !*f[4])
		return corrupt(r, 4, "'%.60s' is not a path (\\ooo escapes only, no NUL)", f[4]);
	if (!parse_opt(f[5], &rec->off))
		return corrupt(r, 5, "'%.60s' is neither a number nor '-'", f[5]);
	if (!parse_opt(f[6], &rec->len))
		return corrupt(r, 6, "'%.60s' is neither a number nor '-'", f[6]);
	if (!parse_result(f[7], &rec->result))
		return corrupt(r, 7, "'%.60s' is neither a number nor -ERRNO", f[7]);
	if (!trace_parse_u64(f[8], &rec->dur_ns))
		return corrupt(r, 8, "'%.60s' is not a number of ns", f[8]);
	if (parse_arg(r, f[9], rec))
		return -EINVAL;
	/* a vector of no buffer asks 0 bytes; an older recorder wrote '-' */
	if (is_iov_call(c) && !rec->iovcnt && rec->len == TRACE_NONE)
		rec->len = 0;
	if (check_shape(r, rec))
		return -EINVAL;
	return trace_intern(r, f[4], &rec->file);
}

/* A log whose record may have lost lines: one cut short by a failed
 * write is skipped, not an error. */
static bool lenient(const struct trace_reader *r)
{
	return r->status == TRACE_STATUS_INCOMPLETE ||
	       r->status == TRACE_STATUS_UNFINISHED;
}

int trace_next(struct trace_reader *r, struct trace_rec *rec)
{
	int ret;

	for (;;) {
		if (r->blk_pending) {
			r->blk_pending = false;	/* the first line, kept */
		} else if ((ret = read_line(r)) <= 0) {
			/* the last line of an unfinished record, cut short */
			if (ret == -EINVAL && lenient(r) && feof(r->f)) {
				r->damaged++;
				return 0;
			}
			return ret;
		}
		if (r->blk) {
			ret = trace_blk_parse(r, r->buf, rec);
			if (ret)
				return ret;
			continue;
		}
		if (r->fio) {
			ret = trace_fio_parse(r, r->buf, rec);
			if (ret)
				return ret;
			continue;	/* a line that is no call (add, wait) */
		}
		if (r->buf[0] == '#') {
			keep_comment(r, r->buf);
			continue;
		}
		if (!r->buf[0])
			ret = corrupt(r, -1, "%san empty line", "");
		else
			ret = parse_record(r, r->buf, rec);
		if (ret == -EINVAL && lenient(r)) {
			r->damaged++;
			continue;
		}
		return ret ? ret : 1;
	}
}

void trace_close(struct trace_reader *r)
{
	uint32_t i;

	if (r->own && r->f)
		fclose(r->f);
	for (i = 0; i < r->nnames; i++)
		free(r->names[i]);
	for (i = 0; i < TRACE_MAX_WARNINGS && i < r->nwarnings; i++)
		free(r->warnings[i]);
	free(r->names);
	free(r->index);
	free(r->buf);
	free(r->path);
	free(r->command);
	free(r->status_text);
	free(r->fio_files);
	memory_give(r->mem);
	r->mem = 0;
	r->fio_files = NULL;
	r->fio_nfiles = 0;
	r->f = NULL;
	r->names = NULL;
	r->index = NULL;
	r->buf = NULL;
	r->path = NULL;
	r->command = NULL;
	r->status_text = NULL;
	r->nnames = 0;
	r->nwarnings = 0;
}

int trace_io_kind(const struct trace_rec *rec)
{
	switch (rec->type) {
	case TT_READ:
		return IO_READ;
	case TT_WRITE:
		return IO_WRITE;
	case TT_FSYNC:
		return IO_FSYNC;
	case TT_FDATASYNC:
		return IO_FDATASYNC;
	default:
		return -1;
	}
}

/* A word of the "# command:" line: quoted as for a shell when it has to
 * be, and no byte that would end the line (\ooo instead). */
void trace_put_word(FILE *f, const char *w)
{
	bool quote = !*w || strpbrk(w, " \t'\"\\$`*?[]{}()<>|&;#~");
	const unsigned char *p;

	if (quote)
		fputc('\'', f);
	for (p = (const unsigned char *)w; *p; p++) {
		if (*p < ' ' || *p == 0x7f)
			fprintf(f, "\\%03o", *p);
		else if (*p == '\'' && quote)
			fputs("'\\''", f);
		else
			fputc(*p, f);
	}
	if (quote)
		fputc('\'', f);
}

void trace_write_head(FILE *f, char *const *cmd, const struct timespec *real)
{
	char *const *w, *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	fprintf(f, "%s%d\n# command:", TRACE_MAGIC, TRACE_FORMAT_VERSION);
	for (w = cmd; m && *w; w++) {
		fputc(' ', m);
		trace_put_word(m, *w);
	}
	/* a command line of any length in a line the reader takes (its
	 * limit, TRACE_MAX_LINE): the rest is counted, not written */
	if (m && !fclose(m) && text) {
		if (len > TRACE_MAX_COMMAND)
			fprintf(f, "%.*s ... (%zu more bytes of the command line)",
				TRACE_MAX_COMMAND, text,
				len - TRACE_MAX_COMMAND);
		else
			fputs(text, f);
	}
	free(text);
	fprintf(f, "\n# start: %lld.%09ld (CLOCK_REALTIME at TIME 0)\n",
		(long long)real->tv_sec, real->tv_nsec);
}
