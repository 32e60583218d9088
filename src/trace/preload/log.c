/* log.c - the real functions, the lines of the log, and the start of
 * recording, for librebench-record.so (preload.h); where the lines go is
 * logfd.c's.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "trace/preload/preload.h"

/* Lines are built on the stack in LINE_SHORT bytes (a hook runs on the
 * program's threads, whose stacks may be as small as PTHREAD_STACK_MIN);
 * a longer one - a path with many bytes to escape - in one static buffer
 * of LINE_LONG under a lock.  LINE_FIELDS bounds the nine other fields
 * (numbers of 20 digits, every open flag named). */
#define LINE_FIELDS 512
#define LINE_SHORT 1536
#define LINE_LONG (4 * PATH_MAX + LINE_FIELDS)

enum { ST_OFF, ST_INIT, ST_ON, ST_DISABLED };
static int state;		/* ST_ON: following descriptors */
bool logging;			/* a log is written (else delays alone) */
static uint64_t start_ns;
static char glob_buf[MAX_GLOBS * 256];
static const char *globs[MAX_GLOBS];
static int nglobs;
static char long_line[LINE_LONG];
static int long_line_lock;
static pid_t my_pid;		/* 0 after fork: asked again */
static TLS int in_hook;		/* this thread is inside a hook */
static TLS pid_t my_tid;

/* What a call the C library lacks does: fail as the kernel would. */
static long missing_call(void)
{
	errno = ENOSYS;
	return -1;
}

void *resolve(void **slot, const char *name)
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

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------ the log */

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

void put_u(struct line *l, uint64_t v, unsigned base)
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
void warn(const char *what, int fd)
{
	char buf[256];
	struct line l = { buf, buf + sizeof(buf) - 1 };

	if (!logging)
		return;
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
		/* an int: a negative count is written as such */
		put_i(l, (int)r->a);
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
			put_i(l, (int)r->a);	/* an int, as given */
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
void emit(const struct rec *r)
{
	char buf[LINE_SHORT];

	if (!logging)
		return;
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
	logfd_forked();
}

/* The log named in the environment: false when there is none (delays
 * alone).  A log that cannot be opened is still "a log": its lines are
 * counted as lost (logfd.c), never written elsewhere. */
static bool log_init(void)
{
	const char *log = getenv(TRACE_ENV_LOG);
	const char *start = getenv(TRACE_ENV_START);
	char *end;

	if (!log || !start)
		return false;
	start_ns = strtoull(start, &end, 10);
	if (*end)
		return false;
	return logfd_init(log);
}

static void init(void)
{
	const char *g;
	int expect = ST_OFF;
	char *end;
	size_t n;

	if (!__atomic_compare_exchange_n(&state, &expect, ST_INIT, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
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
	logging = log_init();
	if (!logging)
		log_name[0] = '\0';
	if (!delays_init() && !logging)
		goto out_disable;
	pthread_atfork(NULL, NULL, forget_ids_in_child);
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
bool enter(void)
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

void leave(void)
{
	in_hook = 0;
}

bool recording(void)
{
	return __atomic_load_n(&state, __ATOMIC_ACQUIRE) == ST_ON;
}

bool wanted(const char *name)
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

