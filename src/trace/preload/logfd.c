/* logfd.c - where the interposer's lines go (preload.h): into the log
 * rebench created and into nothing else, and what could not go there,
 * counted.
 *
 * Why each open is checked.  Every process of COMMAND opens the log
 * itself (a new process after exec, and any process again after the
 * program closed its descriptor), and the path it is given can be swapped
 * while COMMAND runs: by COMMAND itself, or by a user who owns a directory
 * on the way ("rm LOG; ln -s /dev/sdb LOG").  A plain open would then
 * write wherever the path leads: at offset 0 of a block device, where
 * O_APPEND means nothing.  So rebench passes the device and inode of the
 * file it created (TRACE_ENV_LOG_ID) and keeps that file open to the end
 * of the run, so that no other file can take its inode number; and every
 * open here is
 *
 *	openat(LOG, O_PATH | O_NOFOLLOW)	no I/O open at all: a device,
 *						a FIFO, /dev/watchdog are
 *						never opened for writing
 *	fstat: a regular file, that device and inode
 *	open("/proc/self/fd/N", O_WRONLY | O_APPEND)
 *						the same inode, without a
 *						second walk of the path
 *
 * so the one file this library ever opens for writing is the file rebench
 * checked.  A parent directory swapped for a symbolic link is caught by
 * the inode, which O_NOFOLLOW alone would not.  (An inherited descriptor
 * would need no path at all, but programs close descriptors they do not
 * know - closefrom(), daemons - and reuse their numbers; reopening covers
 * both, and is checked the same way.)  The descriptor is not checked again
 * before each line: that would be a system call per logged call, and the
 * hooks of close, dup2, dup3, close_range and closefrom already say when
 * the program takes the number (closing()).
 *
 * What does not reach the log is counted in struct trace_counts
 * (trace_calls.h): a memfd rebench created, whose descriptor each process
 * inherits (TRACE_ENV_COUNTS, checked by its device and inode before it
 * is mapped shared; the mapping survives fork and a close of the
 * descriptor).  A process that cannot open the log says so on its stderr
 * once and is counted; every line it would have written, and every line
 * a write failed on (ENOSPC, EDQUOT, EIO) or wrote only in part, is
 * counted as lost.  rebench says so at the end and marks the log
 * incomplete.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "trace/preload/preload.h"

int log_fd = -1;
int counts_fd = -1;
char log_name[PATH_MAX];
static dev_t log_dev;
static ino_t log_ino;
static struct trace_counts *counts;	/* NULL: nowhere to count */
static int log_lost;		/* this process cannot write the log */
/* Threads between their look at log_fd and the end of their write: a
 * close or dup2 onto the log's number waits for them (closing()), so no
 * line goes to the file the program puts on that number. */
static int log_users;
static TLS int in_write;	/* this thread is one of them */
/* Held while the log is opened and published, and by the hooks of dup2,
 * dup3, close_range and closefrom across the real call: a number the log
 * is being given cannot be taken by the program in between (and one the
 * program is taking is not given to the log). */
static int fds_locked;
static TLS int fds_mine;	/* this thread holds it */

/* "DEV:INO" or "FD:DEV:INO": the numbers, false on anything else. */
static bool parse_ids(const char *s, unsigned long long *v, int n)
{
	char *end;
	int i;

	for (i = 0; i < n; i++) {
		if (!s || *s < '0' || *s > '9')
			return false;
		errno = 0;
		v[i] = strtoull(s, &end, 10);
		if (errno || *end != (i + 1 < n ? ':' : '\0'))
			return false;
		s = end + 1;
	}
	return true;
}

/* The counters rebench passed, mapped when the descriptor is still the
 * memfd it made (a program may have closed it, or put another file on its
 * number). */
static void counts_init(void)
{
	unsigned long long v[3];
	struct stat st;
	void *p;

	if (!parse_ids(getenv(TRACE_ENV_COUNTS), v, 3) || v[0] > INT32_MAX ||
	    fstat((int)v[0], &st) || !S_ISREG(st.st_mode) ||
	    st.st_dev != (dev_t)v[1] || st.st_ino != (ino_t)v[2] ||
	    st.st_size < (off_t)sizeof(*counts))
		return;
	p = mmap(NULL, sizeof(*counts), PROT_READ | PROT_WRITE, MAP_SHARED,
		 (int)v[0], 0);
	if (p == MAP_FAILED)
		return;
	counts = p;
	counts_fd = (int)v[0];
}

static void lost_line(void)
{
	if (counts)
		__atomic_add_fetch(&counts->lost, 1, __ATOMIC_RELAXED);
}

/* Is descriptor 2 still the stderr rebench gave COMMAND (TRACE_ENV_STDERR)?
 * A daemon that closed its stdio may have a data file there. */
static bool stderr_is_rebenchs(void)
{
	unsigned long long v[2];
	struct stat st;

	return parse_ids(getenv(TRACE_ENV_STDERR), v, 2) && !fstat(2, &st) &&
	       st.st_dev == (dev_t)v[0] && st.st_ino == (ino_t)v[1];
}

/* "rebench: --record: process PID (NAME) cannot write the log LOG: why
 * (ENAME); ..." on stderr, once per process, and the process counted. */
static void cannot_log(const char *why, int err)
{
	const char *name = err ? strerrorname_np(err) : NULL;
	char pid[24];
	struct line l = { pid, pid + sizeof(pid) - 1 };
	struct iovec v[12];
	int n = 0;

	if (__atomic_exchange_n(&log_lost, 1, __ATOMIC_ACQ_REL))
		return;
	if (counts)
		__atomic_add_fetch(&counts->unlogged, 1, __ATOMIC_RELAXED);
	put_u(&l, (uint64_t)getpid(), 10);
	*l.p = '\0';
#define PART(s) (v[n].iov_base = (void *)(s), v[n++].iov_len = strlen(s))
	PART("rebench: --record: process ");
	PART(pid);
	PART(" (");
	PART(program_invocation_short_name);
	PART(") cannot write the log ");
	PART(log_name);
	PART(": ");
	PART(why);
	if (name) {
		PART(" (");
		PART(name);
		PART(")");
	}
	PART(counts ? "; its calls are not recorded, and rebench counts them as lost\n" :
		      "; its calls are not recorded, nor counted (rebench's counters are not open in this process)\n");
#undef PART
	if (stderr_is_rebenchs())
		syscall(SYS_writev, 2, v, n);
}

static bool is_the_log(const struct stat *st)
{
	return S_ISREG(st->st_mode) && st->st_dev == log_dev &&
	       st->st_ino == log_ino;
}

/* The log, opened as the head comment says: a descriptor, or -1 with
 * *why (and *err, an errno or 0). */
static int open_checked(const char **why, int *err)
{
	char link[40] = "/proc/self/fd/";
	struct line l = { link + 14, link + sizeof(link) - 1 };
	struct stat st;
	long p, fd;

	*err = 0;
	p = syscall(SYS_openat, AT_FDCWD, log_name,
		    O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (p < 0) {
		*err = errno;
		*why = errno == ENOENT ? "it was removed" :
					 "its path cannot be opened";
		return -1;
	}
	if (fstat((int)p, &st)) {
		*err = errno;
		*why = "its path cannot be looked at";
		goto out_close;
	}
	if (!is_the_log(&st)) {
		*why = S_ISLNK(st.st_mode) ? "the path is now a symbolic link, which is never followed" :
		       !S_ISREG(st.st_mode) ? "the path now leads to something that is not a regular file" :
		       "the path now leads to another file than the one rebench created";
		goto out_close;
	}
	put_u(&l, (uint64_t)p, 10);
	*l.p = '\0';
	fd = syscall(SYS_openat, AT_FDCWD, link,
		     O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		*err = errno;
		*why = "it cannot be reopened through /proc/self/fd (is /proc mounted?)";
		goto out_close;
	}
	syscall(SYS_close, p);
	if (fstat((int)fd, &st) || !is_the_log(&st)) {
		/* a /proc that is not the kernel's */
		syscall(SYS_close, fd);
		*why = "/proc/self/fd led to another file";
		return -1;
	}
	return (int)fd;
out_close:
	syscall(SYS_close, p);
	return -1;
}

/* A descriptor of the log out of the program's way (programs count on
 * open() returning the lowest free number, and some close 3..N), or -1
 * after cannot_log(). */
static int open_log(void)
{
	struct rlimit rl;
	long lim = 1024, high;
	const char *why = "";
	int fd, err;

	if (!log_dev && !log_ino) {
		cannot_log("rebench did not say which file it created (" TRACE_ENV_LOG_ID ")", 0);
		return -1;
	}
	fd = open_checked(&why, &err);
	if (fd < 0) {
		cannot_log(why, err);
		return -1;
	}
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < (rlim_t)lim)
		lim = (long)rl.rlim_cur;
	high = fcntl(fd, F_DUPFD_CLOEXEC, lim > 64 ? lim - 32 : lim / 2);
	if (high >= 0) {
		syscall(SYS_close, (long)fd);
		fd = (int)high;
	}
	return fd;
}

bool logfd_init(const char *path)
{
	unsigned long long v[2];
	size_t n = strlen(path);

	if (path[0] != '/' || n >= sizeof(log_name))
		return false;
	memcpy(log_name, path, n + 1);
	counts_init();
	if (parse_ids(getenv(TRACE_ENV_LOG_ID), v, 2)) {
		log_dev = (dev_t)v[0];
		log_ino = (ino_t)v[1];
	}
	log_fd = open_log();
	return true;
}

/* A line that did not reach the log: r the write's result (-1: errno e). */
static void failed_write(long r, int e)
{
	int zero = 0;

	lost_line();
	if (!counts)
		return;
	if (r >= 0)
		__atomic_add_fetch(&counts->cut, 1, __ATOMIC_RELAXED);
	else
		__atomic_compare_exchange_n(&counts->write_err, &zero, e,
					    false, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED);
}

bool fds_lock(void)
{
	/* a signal handler's call inside our own hold goes on without it */
	if (fds_mine)
		return false;
	while (__atomic_exchange_n(&fds_locked, 1, __ATOMIC_ACQUIRE))
		sched_yield();
	fds_mine = 1;
	return true;
}

void fds_unlock(void)
{
	fds_mine = 0;
	__atomic_store_n(&fds_locked, 0, __ATOMIC_RELEASE);
}

/* One write of the line to the log's descriptor, as a user of it (see
 * log_users): 1 written, 0 no descriptor, -1 failed (errno), -2 the
 * descriptor was closed behind our back. */
static int write_once(const char *buf, size_t len, long *res)
{
	int fd, ret;
	long r;

	__atomic_add_fetch(&log_users, 1, __ATOMIC_SEQ_CST);
	in_write = 1;
	fd = __atomic_load_n(&log_fd, __ATOMIC_SEQ_CST);
	if (fd < 0) {
		ret = 0;
	} else {
		do
			r = syscall(SYS_write, fd, buf, len);
		while (r < 0 && errno == EINTR);
		*res = r;
		ret = r == (long)len ? 1 : r < 0 && errno == EBADF ? -2 : -1;
		if (ret == -2)	/* closefrom in the C library, unseen */
			__atomic_compare_exchange_n(&log_fd, &fd, -1, false,
						    __ATOMIC_SEQ_CST,
						    __ATOMIC_SEQ_CST);
	}
	in_write = 0;
	__atomic_sub_fetch(&log_users, 1, __ATOMIC_SEQ_CST);
	return ret;
}

void write_line(const char *buf, size_t len)
{
	int fd, expect, tries, ret;
	long r = 0;

	/* rebench has written the status line: a process that outlives
	 * COMMAND adds nothing after it (a look at shared memory) */
	if (counts && __atomic_load_n(&counts->closed, __ATOMIC_ACQUIRE))
		return;
	for (tries = 0; tries < 3; tries++) {
		if (__atomic_load_n(&log_lost, __ATOMIC_ACQUIRE))
			break;
		ret = write_once(buf, len, &r);
		if (ret == 1)
			return;
		if (ret == -1) {
			failed_write(r, errno);
			return;
		}
		if (ret == -2)
			continue;
		/* opened and published under the lock a dup2 onto a number
		 * takes: the number cannot change hands in between */
		if (!fds_lock())
			break;
		fd = open_log();
		expect = -1;
		if (fd >= 0 &&
		    !__atomic_compare_exchange_n(&log_fd, &expect, fd, false,
						 __ATOMIC_SEQ_CST,
						 __ATOMIC_SEQ_CST))
			syscall(SYS_close, fd);	/* another thread's is there */
		fds_unlock();
		if (fd < 0)
			break;
	}
	lost_line();
}

void logfd_forked(void)
{
	/* the one thread of the child is in no write, holds no lock */
	log_users = 0;
	in_write = 0;
	fds_locked = 0;
	fds_mine = 0;
	/* the child is a process of its own: it tries the log once more,
	 * and says so and is counted when it cannot */
	if (log_lost) {
		log_lost = 0;
		log_fd = -1;
	}
}

bool closing(int fd)
{
	int expect = fd;

	if (fd < 0)
		return false;
	if (fd == counts_fd)
		counts_fd = -1;		/* the mapping stays */
	if (!__atomic_compare_exchange_n(&log_fd, &expect, -1, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return false;
	/* a thread that saw the number before it went finishes its write
	 * before the program may put another file there (not this thread:
	 * a signal handler's close inside our own write) */
	while (!in_write && __atomic_load_n(&log_users, __ATOMIC_SEQ_CST))
		sched_yield();
	return true;
}

void closing_undone(int fd)
{
	int expect = -1;

	__atomic_compare_exchange_n(&log_fd, &expect, fd, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
