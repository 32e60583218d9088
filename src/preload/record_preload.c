/* record_preload.c - librebench-record.so, the LD_PRELOAD interposer of
 * rebench --record: logs a program's calls on regular files, block
 * devices and directories, one line per call, in the format of
 * trace_log.h (rebench(1), APPLICATION I/O).
 *
 * rebench passes the log's absolute path, the start time (CLOCK_MONOTONIC
 * ns) and the --record-path globs in the environment (trace_calls.h), so
 * that every process of the command tree, across fork and exec, appends
 * to the same log.  Each process opens the log itself with O_APPEND (and
 * moves it to a high descriptor, out of the program's way); each line is
 * built on the stack and written with one write(2), so lines of different
 * threads and processes never interleave.  They appear in the order the
 * calls ended.
 *
 * Safety: the real functions are found with dlsym(RTLD_NEXT) on first use,
 * so a hook called before the constructor (by another library's
 * constructor) works, and recording starts as soon as the environment has
 * been read.  A per-thread guard makes any call made while a hook runs (a
 * signal handler's) pass through unlogged; the log itself is written with
 * raw system calls.  Nothing is allocated: per-descriptor state lives in a
 * fixed table of MAX_FDS entries and the paths of the open files in
 * MAX_PATHS slots, where they are built; what does not fit is said in a
 * "# warning" line, never silently dropped.  errno is the real call's on
 * return.
 *
 * What it cannot see: rebench(1), APPLICATION I/O.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "../trace_calls.h"

#define EXPORT __attribute__((visibility("default")))
#define TLS __thread __attribute__((tls_model("initial-exec")))

#define MAX_FDS 65536		/* descriptors 0..MAX_FDS-1 are followed */
#define MAX_PATHS 1024		/* files open at once (paths kept) */
#define MAX_GLOBS 16		/* --record-path patterns */
#define NONE INT64_MIN		/* a field written as "-" */
/* Lines are built on the stack in LINE_SHORT bytes (a hook runs on the
 * program's threads, whose stacks may be as small as PTHREAD_STACK_MIN);
 * a longer one - a path with many bytes to escape - in one static buffer
 * of LINE_LONG under a lock.  LINE_FIELDS bounds the nine other fields
 * (numbers of 20 digits, every open flag named). */
#define LINE_FIELDS 512
#define LINE_SHORT 1536
#define LINE_LONG (4 * PATH_MAX + LINE_FIELDS)

/* The fortified entry points glibc's headers redirect to (bits/fcntl2.h, bits/unistd.h). */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);
ssize_t __pread_chk(int fd, void *buf, size_t n, off_t off, size_t buflen);
ssize_t __pread64_chk(int fd, void *buf, size_t n, off64_t off,
		      size_t buflen);

enum fd_state { FD_UNKNOWN, FD_IGNORED, FD_TRACKED };

/* What the interposer knows of one descriptor.  FD_UNKNOWN: not seen
 * since it was last closed here (inherited across exec, opened by a call
 * not interposed, dup'ed): it is looked at (adopted) on first use. */
struct fd_entry {
	int64_t pos;		/* file position, -1 when unknown */
	int32_t path;		/* paths[] slot of a tracked descriptor */
	uint8_t state;		/* enum fd_state */
	uint8_t append;		/* O_APPEND: writes go to the end */
};

struct path_slot {
	int used;
	char name[PATH_MAX];
};

static struct fd_entry fds[MAX_FDS];
static struct path_slot paths[MAX_PATHS];

enum { ST_OFF, ST_INIT, ST_ON, ST_DISABLED };
static int state;		/* ST_ON: recording */
static int log_fd = -1;		/* -1: (re)opened on the next line */
static char log_name[PATH_MAX];
static uint64_t start_ns;
static char glob_buf[MAX_GLOBS * 256];
static const char *globs[MAX_GLOBS];
static int nglobs;
static int warned_fds, warned_paths;
static char long_line[LINE_LONG];
static int long_line_lock;
static pid_t my_pid;		/* 0 after fork: asked again */
static TLS int in_hook;		/* this thread is inside a hook */
static TLS pid_t my_tid;

/* ------------------------------------------------------------ real calls */

enum { EX_dup2, EX_dup3, EX_close_range, EX_closefrom, EX_COUNT };
static const char *const ex_names[EX_COUNT] = {
	"dup2", "dup3", "close_range", "closefrom",
};
static void *real_calls[TC_COUNT];
static void *real_ex[EX_COUNT];

/* What a call the C library lacks does: fail as the kernel would. */
static long missing_call(void)
{
	errno = ENOSYS;
	return -1;
}

static void *resolve(void **slot, const char *name)
{
	void *p = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

	if (!p) {
		p = dlsym(RTLD_NEXT, name);
		if (!p)
			p = (void *)missing_call;
		__atomic_store_n(slot, p, __ATOMIC_RELEASE);
	}
	return p;
}

#define REAL(name) \
	((__typeof__(&name))resolve(&real_calls[TC_##name], #name))
#define REAL_EX(name) \
	((__typeof__(&name))resolve(&real_ex[EX_##name], ex_names[EX_##name]))

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------ the log */

/* A descriptor out of the program's way (programs count on open()
 * returning the lowest free number, and some close 3..N). */
static int open_log(void)
{
	struct rlimit rl;
	long lim = 1024, fd, high;

	fd = syscall(SYS_openat, AT_FDCWD, log_name,
		     O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < (rlim_t)lim)
		lim = (long)rl.rlim_cur;
	high = fcntl((int)fd, F_DUPFD_CLOEXEC, lim > 64 ? lim - 32 : lim / 2);
	if (high >= 0) {
		syscall(SYS_close, fd);
		fd = high;
	}
	return (int)fd;
}

static void write_line(const char *buf, size_t len)
{
	int fd, expect, tries;
	long r;

	for (tries = 0; tries < 2; tries++) {
		fd = __atomic_load_n(&log_fd, __ATOMIC_ACQUIRE);
		if (fd < 0) {
			fd = open_log();
			if (fd < 0)
				return;
			expect = -1;
			if (!__atomic_compare_exchange_n(&log_fd, &expect, fd,
							 false,
							 __ATOMIC_ACQ_REL,
							 __ATOMIC_ACQUIRE)) {
				syscall(SYS_close, fd);
				fd = expect;
			}
		}
		do
			r = syscall(SYS_write, fd, buf, len);
		while (r < 0 && errno == EINTR);
		if (r >= 0 || errno != EBADF)
			return;
		/* closed behind our back (closefrom in the C library) */
		__atomic_compare_exchange_n(&log_fd, &fd, -1, false,
					    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	}
}

struct line {
	char *p, *end;
};

static void put_c(struct line *l, char c)
{
	if (l->p < l->end)
		*l->p++ = c;
}

static void put_s(struct line *l, const char *s)
{
	while (*s)
		put_c(l, *s++);
}

static void put_u(struct line *l, uint64_t v, unsigned base)
{
	char t[24];
	int n = 0;

	do {
		t[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (n)
		put_c(l, t[--n]);
}

static void put_i(struct line *l, int64_t v)
{
	if (v == NONE) {
		put_c(l, '-');
	} else if (v < 0) {
		put_c(l, '-');
		put_u(l, -(uint64_t)v, 10);
	} else {
		put_u(l, (uint64_t)v, 10);
	}
}

/* Bytes that would split or end the line, and the backslash, as \ooo. */
static void put_path(struct line *l, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= ' ' || c == 0x7f || c == '\\') {
			put_c(l, '\\');
			put_c(l, (char)('0' + (c >> 6)));
			put_c(l, (char)('0' + ((c >> 3) & 7)));
			put_c(l, (char)('0' + (c & 7)));
		} else {
			put_c(l, (char)c);
		}
	}
}

/* A result: the value, or "-ENAME" for -errno. */
static void put_result(struct line *l, int64_t r)
{
	const char *name = r < 0 && r > -4096 ? strerrorname_np((int)-r) :
						NULL;

	if (name) {
		put_c(l, '-');
		put_s(l, name);
	} else {
		put_i(l, r);
	}
}

/* Names of the table's bits, '|' between, the rest in hex; "0" when v is
 * 0 and nothing came before. */
static void put_flags(struct line *l, const struct trace_flag *t,
		      unsigned long v, bool after)
{
	bool any = after;

	for (; t->name; t++) {
		if (!t->value || (v & t->value) != t->value)
			continue;
		if (any)
			put_c(l, '|');
		put_s(l, t->name);
		v &= ~t->value;
		any = true;
	}
	if (v) {
		if (any)
			put_c(l, '|');
		put_s(l, "0x");
		put_u(l, v, 16);
	} else if (!any) {
		put_c(l, '0');
	}
}

static void put_ids(struct line *l)
{
	if (!my_pid)
		my_pid = getpid();
	if (!my_tid)
		my_tid = (pid_t)syscall(SYS_gettid);
	put_u(l, (uint64_t)my_pid, 10);
	put_c(l, '/');
	put_u(l, (uint64_t)my_tid, 10);
}

/* "# warning PID/TID: what" */
static void warn(const char *what, int fd)
{
	char buf[256];
	struct line l = { buf, buf + sizeof(buf) - 1 };

	put_s(&l, "# warning ");
	put_ids(&l);
	put_s(&l, ": ");
	put_s(&l, what);
	if (fd >= 0) {
		put_s(&l, " (descriptor ");
		put_u(&l, (uint64_t)fd, 10);
		put_c(&l, ')');
	}
	*l.p++ = '\n';
	write_line(buf, (size_t)(l.p - buf));
}

enum arg_kind { ARG_NONE, ARG_OPEN, ARG_IOV, ARG_IOV2, ARG_WHENCE, ARG_SFR,
		ARG_FALLOC };

/* One line: every field of trace_log.h. */
struct rec {
	uint64_t t0, t1;
	int call, fd;
	const char *path;
	int64_t off, len, res;	/* NONE: "-"; res < 0: -errno */
	enum arg_kind arg;
	unsigned long a, b;	/* open: flags, mode; iov: count, flags;
				 * lseek: whence; others: flags */
};

static void put_arg(struct line *l, const struct rec *r)
{
	const struct trace_flag *m;

	switch (r->arg) {
	case ARG_NONE:
		put_c(l, '-');
		break;
	case ARG_OPEN:
		for (m = trace_open_modes; m->name; m++)
			if ((r->a & O_ACCMODE) == m->value)
				break;
		if (m->name) {
			put_s(l, m->name);
			put_flags(l, trace_open_flags, r->a & ~(unsigned long)O_ACCMODE, true);
		} else {
			put_flags(l, trace_open_flags, r->a, false);
		}
		if (__OPEN_NEEDS_MODE((int)r->a)) {
			put_s(l, ",0");
			put_u(l, r->b, 8);
		}
		break;
	case ARG_IOV:
	case ARG_IOV2:
		put_u(l, r->a, 10);
		if (r->arg == ARG_IOV2 && r->b) {
			put_c(l, ',');
			put_flags(l, trace_rwf_flags, r->b, false);
		}
		break;
	case ARG_WHENCE:
		for (m = trace_whence; m->name; m++)
			if (r->a == m->value)
				break;
		if (m->name)
			put_s(l, m->name);
		else
			put_u(l, r->a, 10);
		break;
	case ARG_SFR:
		put_flags(l, trace_sfr_flags, r->a, false);
		break;
	case ARG_FALLOC:
		put_flags(l, trace_falloc_flags, r->a, false);
		break;
	}
}

static size_t escaped_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		n += c <= ' ' || c == 0x7f || c == '\\' ? 4 : 1;
	}
	return n;
}

static void put_rec(char *buf, size_t len, const struct rec *r);

/* TIME PID/TID CALL FD FILE OFFSET SIZE RESULT DURATION ARG */
static void emit(const struct rec *r)
{
	char buf[LINE_SHORT];

	if (escaped_len(r->path) + LINE_FIELDS <= sizeof(buf)) {
		put_rec(buf, sizeof(buf), r);
		return;
	}
	while (__atomic_exchange_n(&long_line_lock, 1, __ATOMIC_ACQUIRE))
		sched_yield();
	put_rec(long_line, sizeof(long_line), r);
	__atomic_store_n(&long_line_lock, 0, __ATOMIC_RELEASE);
}

static void put_rec(char *buf, size_t len, const struct rec *r)
{
	struct line l = { buf, buf + len - 1 };

	put_u(&l, r->t0 > start_ns ? r->t0 - start_ns : 0, 10);
	put_c(&l, ' ');
	put_ids(&l);
	put_c(&l, ' ');
	put_s(&l, trace_call_names[r->call]);
	put_c(&l, ' ');
	put_i(&l, r->fd);
	put_c(&l, ' ');
	put_path(&l, r->path);
	put_c(&l, ' ');
	put_i(&l, r->off);
	put_c(&l, ' ');
	put_i(&l, r->len);
	put_c(&l, ' ');
	put_result(&l, r->res);
	put_c(&l, ' ');
	put_u(&l, r->t1 > r->t0 ? r->t1 - r->t0 : 0, 10);
	put_c(&l, ' ');
	put_arg(&l, r);
	*l.p++ = '\n';
	write_line(buf, (size_t)(l.p - buf));
}

/* ------------------------------------------------------------ setup */

/* The child of fork(2) has one thread: no one else holds the lock. */
static void forget_ids_in_child(void)
{
	my_pid = 0;
	my_tid = 0;
	long_line_lock = 0;
}

static void init(void)
{
	const char *log, *start, *g;
	int expect = ST_OFF;
	char *end;
	size_t n;

	if (!__atomic_compare_exchange_n(&state, &expect, ST_INIT, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
	log = getenv(TRACE_ENV_LOG);
	start = getenv(TRACE_ENV_START);
	if (!log || log[0] != '/' || strlen(log) >= sizeof(log_name) ||
	    !start)
		goto out_disable;
	memcpy(log_name, log, strlen(log) + 1);
	start_ns = strtoull(start, &end, 10);
	if (*end)
		goto out_disable;
	g = getenv(TRACE_ENV_PATHS);
	if (g && *g) {
		n = strlen(g);
		if (n >= sizeof(glob_buf))
			goto out_disable;
		memcpy(glob_buf, g, n + 1);
		for (end = glob_buf; nglobs < MAX_GLOBS; end++) {
			globs[nglobs++] = end;
			end = strchr(end, '\n');
			if (!end)
				break;
			*end = '\0';
		}
	}
	pthread_atfork(NULL, NULL, forget_ids_in_child);
	log_fd = open_log();
	if (log_fd < 0)
		goto out_disable;
	__atomic_store_n(&state, ST_ON, __ATOMIC_RELEASE);
	return;
out_disable:
	__atomic_store_n(&state, ST_DISABLED, __ATOMIC_RELEASE);
}

__attribute__((constructor)) static void record_init(void)
{
	init();
}

/* Is this call to be looked at?  Takes the thread's guard. */
static bool enter(void)
{
	if (in_hook)
		return false;
	if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != ST_ON) {
		init();
		if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != ST_ON)
			return false;
	}
	in_hook = 1;
	return true;
}

static void leave(void)
{
	in_hook = 0;
}

static bool recording(void)
{
	return __atomic_load_n(&state, __ATOMIC_ACQUIRE) == ST_ON;
}

/* ------------------------------------------------------------ descriptors */

static bool wanted(const char *name)
{
	int i;

	if (!strcmp(name, log_name))
		return false;
	if (!nglobs)
		return true;
	for (i = 0; i < nglobs; i++)
		if (!fnmatch(globs[i], name, 0))
			return true;
	return false;
}

/* The file behind fd, as the kernel names it (absolute, links resolved). */
static int fd_name(int fd, char *name)
{
	char link[40] = "/proc/self/fd/";
	struct line l = { link + 14, link + sizeof(link) - 1 };
	ssize_t n;

	put_u(&l, (uint64_t)fd, 10);
	*l.p = '\0';
	n = readlink(link, name, PATH_MAX - 1);
	if (n <= 0 || name[0] != '/')
		return -1;
	name[n] = '\0';
	return 0;
}

/* Regular files and block devices, and directories: a database's
 * fsync of its directory is part of what a commit costs. */
static bool recorded_kind(mode_t m)
{
	return S_ISREG(m) || S_ISBLK(m) || S_ISDIR(m);
}

static bool is_data_file(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && recorded_kind(st.st_mode);
}

static void forget(int fd)
{
	struct fd_entry *e;

	if (fd < 0 || fd >= MAX_FDS)
		return;
	e = &fds[fd];
	if (e->state == FD_TRACKED)
		__atomic_store_n(&paths[e->path].used, 0, __ATOMIC_RELEASE);
	e->state = FD_UNKNOWN;
}

/* A free path slot, taken; -1 (and a warning, once) when all are. */
static int slot_take(int fd)
{
	static int hint;
	int i, s, zero;

	for (i = 0; i < MAX_PATHS; i++) {
		s = (hint + i) % MAX_PATHS;
		zero = 0;
		if (__atomic_compare_exchange_n(&paths[s].used, &zero, 1, false,
						__ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			hint = s + 1;
			return s;
		}
	}
	if (!__atomic_exchange_n(&warned_paths, 1, __ATOMIC_ACQ_REL))
		warn("more than 1024 files open at once: the calls on the others are not recorded",
		     fd);
	return -1;
}

static void slot_release(int s)
{
	__atomic_store_n(&paths[s].used, 0, __ATOMIC_RELEASE);
}

/* fd is a data file the program opened (or uses), its path in slot s:
 * follow it.  false when fd is beyond the table (the slot is the
 * caller's to release). */
static bool track(int fd, int s, int64_t pos, bool append)
{
	struct fd_entry *e;

	if (fd >= MAX_FDS) {
		if (!__atomic_exchange_n(&warned_fds, 1, __ATOMIC_ACQ_REL))
			warn("descriptors from 65536 on are not followed: their calls after the open are not recorded",
			     fd);
		return false;
	}
	forget(fd);
	e = &fds[fd];
	e->path = s;
	e->pos = pos;
	e->append = append;
	e->state = FD_TRACKED;
	return true;
}

/* The slot holding the name of fd when it is to be recorded, else -1. */
static int named_slot(int fd)
{
	int s = slot_take(fd);

	if (s >= 0 && (fd_name(fd, paths[s].name) || !wanted(paths[s].name))) {
		slot_release(s);
		return -1;
	}
	return s;
}

/* A descriptor not seen opened: a data file matching the globs is
 * followed from here, its position asked of the kernel. */
static void adopt(int fd, struct fd_entry *e)
{
	struct stat st;
	int fl, s;

	if (fstat(fd, &st))
		return;		/* not open: stays unknown */
	e->state = FD_IGNORED;
	if (!recorded_kind(st.st_mode) || (s = named_slot(fd)) < 0)
		return;
	fl = fcntl(fd, F_GETFL);
	if (!track(fd, s, syscall(SYS_lseek, fd, 0, SEEK_CUR),
		   fl >= 0 && (fl & O_APPEND)))
		slot_release(s);
}

/* The entry of a followed descriptor, or NULL. */
static struct fd_entry *lookup(int fd, bool adopting)
{
	struct fd_entry *e;

	if (fd < 0 || fd == log_fd)
		return NULL;
	if (fd >= MAX_FDS) {
		if (!__atomic_exchange_n(&warned_fds, 1, __ATOMIC_ACQ_REL))
			warn("descriptors from 65536 on are not followed: their calls are not recorded",
			     fd);
		return NULL;
	}
	e = &fds[fd];
	if (e->state == FD_UNKNOWN && adopting)
		adopt(fd, e);
	return e->state == FD_TRACKED ? e : NULL;
}

/* ------------------------------------------------------------ hooks */

/* One logged call on a followed descriptor. */
struct call {
	uint64_t t0;
	int fd;
	int64_t pos;		/* the position before the call */
	struct fd_entry *e;
};

static bool begin(struct call *c, int fd)
{
	if (!enter())
		return false;
	c->e = lookup(fd, true);
	if (!c->e) {
		leave();
		return false;
	}
	c->fd = fd;
	c->pos = c->e->pos;
	c->t0 = now_ns();
	return true;
}

static void finish(struct call *c, struct rec *r)
{
	r->t1 = now_ns();
	r->t0 = c->t0;
	r->fd = c->fd;
	r->path = paths[c->e->path].name;
	emit(r);
	leave();
}

/* A call at an offset of its own (pread, fsync, ...): result ret, -1
 * meaning errno. */
static void end_at(struct call *c, int call, int64_t off, int64_t len,
		   int64_t ret, enum arg_kind arg, unsigned long a,
		   unsigned long b)
{
	int e = errno;
	struct rec r = { .call = call, .off = off, .len = len,
			 .res = ret < 0 ? -e : ret, .arg = arg, .a = a,
			 .b = b };

	finish(c, &r);
	errno = e;
}

/* A call at the file position (read, write, readv, writev): the offset
 * is the tracked position; an O_APPEND write's is asked of the kernel
 * after it. */
static void end_pos(struct call *c, int call, bool writes, int64_t len,
		    int64_t ret, enum arg_kind arg, unsigned long a,
		    unsigned long b)
{
	int e = errno;
	int64_t off = c->pos;
	struct rec r;

	if (writes && c->e->append) {
		off = NONE;
		if (ret > 0) {
			c->e->pos = syscall(SYS_lseek, c->fd, 0, SEEK_CUR);
			if (c->e->pos >= ret)
				off = c->e->pos - ret;
		}
	} else if (off < 0) {
		off = NONE;
	} else if (ret > 0) {
		c->e->pos = off + ret;
	}
	r = (struct rec){ .call = call, .off = off, .len = len,
			  .res = ret < 0 ? -e : ret, .arg = arg, .a = a,
			  .b = b };
	finish(c, &r);
	errno = e;
}

static int64_t iov_len(const struct iovec *iov, int cnt)
{
	int64_t n = 0;
	int i;

	if (!iov || cnt <= 0 || cnt > IOV_MAX)
		return NONE;
	for (i = 0; i < cnt; i++)
		n += (int64_t)iov[i].iov_len;
	return n;
}

/* open, openat, creat and their 64 and fortified forms: one body. */
static int call_open(int call, int dirfd, const char *path, int flags,
		     mode_t mode)
{
	switch (call) {
	case TC_open:
		return REAL(open)(path, flags, mode);
	case TC_open64:
		return REAL(open64)(path, flags, mode);
	case TC_openat:
		return REAL(openat)(dirfd, path, flags, mode);
	case TC_openat64:
		return REAL(openat64)(dirfd, path, flags, mode);
	case TC_creat:
		return REAL(creat)(path, mode);
	case TC_creat64:
		return REAL(creat64)(path, mode);
	case TC___open_2:
		return REAL(__open_2)(path, flags);
	case TC___open64_2:
		return REAL(__open64_2)(path, flags);
	case TC___openat_2:
		return REAL(__openat_2)(dirfd, path, flags);
	default:
		return REAL(__openat64_2)(dirfd, path, flags);
	}
}

/* The path a failed open named, made absolute by hand (there is no
 * descriptor to ask). */
static void abs_path(int dirfd, const char *path, char *out)
{
	size_t n = 0, p = strlen(path);

	out[0] = '\0';
	if (path[0] != '/') {
		if (dirfd == AT_FDCWD) {
			if (!getcwd(out, PATH_MAX))
				out[0] = '\0';
		} else if (fd_name(dirfd, out)) {
			out[0] = '\0';
		}
		n = strlen(out);
		if (n && n + 1 + p < PATH_MAX)
			out[n++] = '/';
		else
			n = 0;
	}
	if (n + p >= PATH_MAX)
		p = PATH_MAX - 1 - n;
	memcpy(out + n, path, p);
	out[n + p] = '\0';
}

static int do_open(int call, int dirfd, const char *path, int flags,
		   mode_t mode)
{
	struct rec r;
	int fd, e, s;

	if (!enter()) {
		fd = call_open(call, dirfd, path, flags, mode);
		e = errno;
		if (fd >= 0 && recording())
			forget(fd);	/* what we knew of the number is stale */
		errno = e;
		return fd;
	}
	r.t0 = now_ns();
	fd = call_open(call, dirfd, path, flags, mode);
	e = errno;
	r.t1 = now_ns();
	r = (struct rec){ .t0 = r.t0, .t1 = r.t1, .call = call, .fd = fd,
			  .off = NONE, .len = NONE,
			  .res = fd < 0 ? -e : fd, .arg = ARG_OPEN,
			  .a = (unsigned long)flags, .b = mode };
	if (call == TC_creat || call == TC_creat64)
		r.a = O_CREAT | O_WRONLY | O_TRUNC;
	if (fd >= 0) {
		forget(fd);
		if (is_data_file(fd) && (s = named_slot(fd)) >= 0) {
			r.path = paths[s].name;
			emit(&r);
			if (!track(fd, s, 0, flags & O_APPEND))
				slot_release(s);
		}
	} else if (path && (s = slot_take(-1)) >= 0) {
		abs_path(dirfd, path, paths[s].name);
		r.path = paths[s].name;
		if (wanted(r.path))
			emit(&r);
		slot_release(s);
	}
	leave();
	errno = e;
	return fd;
}

#define OPEN_MODE(flags)						\
	mode_t mode = 0;						\
	if (__OPEN_NEEDS_MODE(flags)) {					\
		va_list ap;						\
		va_start(ap, flags);					\
		mode = va_arg(ap, mode_t);				\
		va_end(ap);						\
	}

EXPORT int open(const char *path, int flags, ...)
{
	OPEN_MODE(flags);
	return do_open(TC_open, AT_FDCWD, path, flags, mode);
}

EXPORT int open64(const char *path, int flags, ...)
{
	OPEN_MODE(flags);
	return do_open(TC_open64, AT_FDCWD, path, flags, mode);
}

EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
	OPEN_MODE(flags);
	return do_open(TC_openat, dirfd, path, flags, mode);
}

EXPORT int openat64(int dirfd, const char *path, int flags, ...)
{
	OPEN_MODE(flags);
	return do_open(TC_openat64, dirfd, path, flags, mode);
}

EXPORT int creat(const char *path, mode_t mode)
{
	return do_open(TC_creat, AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC,
		       mode);
}

EXPORT int creat64(const char *path, mode_t mode)
{
	return do_open(TC_creat64, AT_FDCWD, path,
		       O_CREAT | O_WRONLY | O_TRUNC, mode);
}

EXPORT int __open_2(const char *path, int flags)
{
	return do_open(TC___open_2, AT_FDCWD, path, flags, 0);
}

EXPORT int __open64_2(const char *path, int flags)
{
	return do_open(TC___open64_2, AT_FDCWD, path, flags, 0);
}

EXPORT int __openat_2(int dirfd, const char *path, int flags)
{
	return do_open(TC___openat_2, dirfd, path, flags, 0);
}

EXPORT int __openat64_2(int dirfd, const char *path, int flags)
{
	return do_open(TC___openat64_2, dirfd, path, flags, 0);
}

/* close and fclose: logged when the descriptor was followed; the entry
 * is forgotten whatever happens (Linux frees the number even when close
 * fails). */
static void closing(int fd)
{
	if (fd >= 0 && fd == __atomic_load_n(&log_fd, __ATOMIC_ACQUIRE))
		__atomic_store_n(&log_fd, -1, __ATOMIC_RELEASE);
}

EXPORT int close(int fd)
{
	struct call c;
	int r, e;

	if (!enter()) {
		r = REAL(close)(fd);
		e = errno;
		if (recording())
			forget(fd);
		errno = e;
		return r;
	}
	closing(fd);
	c.e = lookup(fd, false);
	if (!c.e) {
		r = REAL(close)(fd);
		e = errno;
		forget(fd);
		leave();
		errno = e;
		return r;
	}
	c.fd = fd;
	c.t0 = now_ns();
	r = REAL(close)(fd);
	end_at(&c, TC_close, NONE, NONE, r, ARG_NONE, 0, 0);
	e = errno;
	forget(fd);
	errno = e;
	return r;
}

EXPORT int fclose(FILE *f)
{
	int fd = f ? fileno(f) : -1;
	struct call c;
	int r, e;

	if (fd < 0 || !enter())
		return REAL(fclose)(f);
	closing(fd);
	c.e = lookup(fd, false);
	if (!c.e) {
		r = REAL(fclose)(f);
		e = errno;
		forget(fd);
		leave();
		errno = e;
		return r;
	}
	c.fd = fd;
	c.t0 = now_ns();
	r = REAL(fclose)(f);
	end_at(&c, TC_fclose, NONE, NONE, r == EOF ? -1 : 0, ARG_NONE, 0, 0);
	e = errno;
	forget(fd);
	errno = e;
	return r;
}

/* Calls that replace or close descriptors without being logged: what
 * the table knew of the numbers is forgotten. */
EXPORT int dup2(int old, int new)
{
	int r = REAL_EX(dup2)(old, new), e = errno;

	if (r >= 0 && old != new && recording()) {
		closing(new);
		forget(new);
	}
	errno = e;
	return r;
}

EXPORT int dup3(int old, int new, int flags)
{
	int r = REAL_EX(dup3)(old, new, flags), e = errno;

	if (r >= 0 && recording()) {
		closing(new);
		forget(new);
	}
	errno = e;
	return r;
}

static void forget_range(unsigned first, unsigned last)
{
	unsigned fd;

	if (!recording())
		return;
	if (log_fd >= 0 && (unsigned)log_fd >= first && (unsigned)log_fd <= last)
		closing(log_fd);
	for (fd = first; fd <= last && fd < MAX_FDS; fd++)
		forget((int)fd);
}

EXPORT int close_range(unsigned first, unsigned last, int flags)
{
	int r = REAL_EX(close_range)(first, last, flags), e = errno;

	if (!r && !(flags & CLOSE_RANGE_CLOEXEC))
		forget_range(first, last);
	errno = e;
	return r;
}

EXPORT void closefrom(int low)
{
	REAL_EX(closefrom)(low);
	if (low >= 0)
		forget_range((unsigned)low, ~0u);
}

/* read(2) and write(2) families */

#define AT_POS(name, writes, proto, args, len, arg, a, b)		\
	EXPORT ssize_t name proto					\
	{								\
		struct call c;						\
		ssize_t r;						\
									\
		if (!begin(&c, fd))					\
			return REAL(name) args;				\
		r = REAL(name) args;					\
		end_pos(&c, TC_##name, writes, len, r, arg, a, b);	\
		return r;						\
	}

#define AT_OFF(type, name, proto, args, off, len, arg, a, b)		\
	EXPORT type name proto						\
	{								\
		struct call c;						\
		type r;							\
									\
		if (!begin(&c, fd))					\
			return REAL(name) args;				\
		r = REAL(name) args;					\
		end_at(&c, TC_##name, off, len, r, arg, a, b);		\
		return r;						\
	}

/* preadv2, pwritev2: offset -1 means the file position */
#define AT_V2(name, writes, offtype)					\
	EXPORT ssize_t name(int fd, const struct iovec *iov, int cnt,	\
			    offtype off, int flags)			\
	{								\
		struct call c;						\
		ssize_t r;						\
									\
		if (!begin(&c, fd))					\
			return REAL(name)(fd, iov, cnt, off, flags);	\
		r = REAL(name)(fd, iov, cnt, off, flags);		\
		if (off == -1)						\
			end_pos(&c, TC_##name, writes, iov_len(iov, cnt), r, \
				ARG_IOV2, (unsigned long)cnt,		\
				(unsigned)flags);			\
		else							\
			end_at(&c, TC_##name, off, iov_len(iov, cnt), r,	\
			       ARG_IOV2, (unsigned long)cnt,		\
			       (unsigned)flags);			\
		return r;						\
	}

AT_POS(read, false, (int fd, void *buf, size_t n), (fd, buf, n),
       (int64_t)n, ARG_NONE, 0, 0)
AT_POS(__read_chk, false, (int fd, void *buf, size_t n, size_t buflen),
       (fd, buf, n, buflen), (int64_t)n, ARG_NONE, 0, 0)
AT_POS(readv, false, (int fd, const struct iovec *iov, int cnt),
       (fd, iov, cnt), iov_len(iov, cnt), ARG_IOV, (unsigned long)cnt, 0)
AT_POS(write, true, (int fd, const void *buf, size_t n), (fd, buf, n),
       (int64_t)n, ARG_NONE, 0, 0)
AT_POS(writev, true, (int fd, const struct iovec *iov, int cnt),
       (fd, iov, cnt), iov_len(iov, cnt), ARG_IOV, (unsigned long)cnt, 0)

AT_OFF(ssize_t, pread, (int fd, void *buf, size_t n, off_t off),
       (fd, buf, n, off), off, (int64_t)n, ARG_NONE, 0, 0)
AT_OFF(ssize_t, pread64, (int fd, void *buf, size_t n, off64_t off),
       (fd, buf, n, off), off, (int64_t)n, ARG_NONE, 0, 0)
AT_OFF(ssize_t, __pread_chk,
       (int fd, void *buf, size_t n, off_t off, size_t buflen),
       (fd, buf, n, off, buflen), off, (int64_t)n, ARG_NONE, 0, 0)
AT_OFF(ssize_t, __pread64_chk,
       (int fd, void *buf, size_t n, off64_t off, size_t buflen),
       (fd, buf, n, off, buflen), off, (int64_t)n, ARG_NONE, 0, 0)
AT_OFF(ssize_t, preadv,
       (int fd, const struct iovec *iov, int cnt, off_t off),
       (fd, iov, cnt, off), off, iov_len(iov, cnt), ARG_IOV,
       (unsigned long)cnt, 0)
AT_OFF(ssize_t, preadv64,
       (int fd, const struct iovec *iov, int cnt, off64_t off),
       (fd, iov, cnt, off), off, iov_len(iov, cnt), ARG_IOV,
       (unsigned long)cnt, 0)
AT_OFF(ssize_t, pwrite, (int fd, const void *buf, size_t n, off_t off),
       (fd, buf, n, off), off, (int64_t)n, ARG_NONE, 0, 0)
AT_OFF(ssize_t, pwrite64,
       (int fd, const void *buf, size_t n, off64_t off),
       (fd, buf, n, off), off, (int64_t)n, ARG_NONE, 0, 0)
AT_OFF(ssize_t, pwritev,
       (int fd, const struct iovec *iov, int cnt, off_t off),
       (fd, iov, cnt, off), off, iov_len(iov, cnt), ARG_IOV,
       (unsigned long)cnt, 0)
AT_OFF(ssize_t, pwritev64,
       (int fd, const struct iovec *iov, int cnt, off64_t off),
       (fd, iov, cnt, off), off, iov_len(iov, cnt), ARG_IOV,
       (unsigned long)cnt, 0)

AT_V2(preadv2, false, off_t)
AT_V2(preadv64v2, false, off64_t)
AT_V2(pwritev2, true, off_t)
AT_V2(pwritev64v2, true, off64_t)

/* lseek: the position becomes the result */
#define SEEK_HOOK(name, offtype)					\
	EXPORT offtype name(int fd, offtype off, int whence)		\
	{								\
		struct call c;						\
		offtype r;						\
									\
		if (!begin(&c, fd))					\
			return REAL(name)(fd, off, whence);		\
		r = REAL(name)(fd, off, whence);			\
		if (r >= 0)						\
			c.e->pos = r;					\
		end_at(&c, TC_##name, off, NONE, r, ARG_WHENCE,		\
		       (unsigned long)whence, 0);			\
		return r;						\
	}

SEEK_HOOK(lseek, off_t)
SEEK_HOOK(lseek64, off64_t)

AT_OFF(int, fsync, (int fd), (fd), NONE, NONE, ARG_NONE, 0, 0)
AT_OFF(int, fdatasync, (int fd), (fd), NONE, NONE, ARG_NONE, 0, 0)
AT_OFF(int, sync_file_range,
       (int fd, off64_t off, off64_t n, unsigned int flags),
       (fd, off, n, flags), off, n, ARG_SFR, flags, 0)
/* ftruncate: the new length is written as the offset */
AT_OFF(int, ftruncate, (int fd, off_t len), (fd, len), len, NONE,
       ARG_NONE, 0, 0)
AT_OFF(int, ftruncate64, (int fd, off64_t len), (fd, len), len, NONE,
       ARG_NONE, 0, 0)
AT_OFF(int, fallocate, (int fd, int mode, off_t off, off_t n),
       (fd, mode, off, n), off, n, ARG_FALLOC, (unsigned)mode, 0)
AT_OFF(int, fallocate64, (int fd, int mode, off64_t off, off64_t n),
       (fd, mode, off, n), off, n, ARG_FALLOC, (unsigned)mode, 0)

/* posix_fallocate returns the error number instead of setting errno. */
#define POSIX_FALLOCATE(name, offtype)					\
	EXPORT int name(int fd, offtype off, offtype n)			\
	{								\
		struct call c;						\
		int r, e = errno;					\
									\
		if (!begin(&c, fd))					\
			return REAL(name)(fd, off, n);			\
		r = REAL(name)(fd, off, n);				\
		errno = r;						\
		end_at(&c, TC_##name, off, n, r ? -1 : 0, ARG_NONE, 0, 0); \
		errno = e;						\
		return r;						\
	}

POSIX_FALLOCATE(posix_fallocate, off_t)
POSIX_FALLOCATE(posix_fallocate64, off64_t)
