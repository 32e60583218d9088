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
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "preload.h"

int log_fd = -1;
int counts_fd = -1;
char log_name[PATH_MAX];
static dev_t log_dev;
static ino_t log_ino;
static struct trace_counts *counts;	/* NULL: nowhere to count */
static int log_lost;		/* this process cannot write the log */

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

void write_line(const char *buf, size_t len)
{
	int fd, expect, tries;
	long r;

	for (tries = 0; tries < 2; tries++) {
		if (__atomic_load_n(&log_lost, __ATOMIC_ACQUIRE))
			break;
		fd = __atomic_load_n(&log_fd, __ATOMIC_ACQUIRE);
		if (fd < 0) {
			fd = open_log();
			if (fd < 0)
				break;
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
		if (r == (long)len)
			return;
		if (r >= 0 || errno != EBADF) {
			failed_write(r, errno);
			return;
		}
		/* closed behind our back (closefrom in the C library) */
		__atomic_compare_exchange_n(&log_fd, &fd, -1, false,
					    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	}
	lost_line();
}

void logfd_forked(void)
{
	/* the child is a process of its own: it tries the log once more,
	 * and says so and is counted when it cannot */
	if (log_lost) {
		log_lost = 0;
		log_fd = -1;
	}
}

void closing(int fd)
{
	if (fd < 0)
		return;
	if (fd == __atomic_load_n(&log_fd, __ATOMIC_ACQUIRE))
		__atomic_store_n(&log_fd, -1, __ATOMIC_RELEASE);
	if (fd == counts_fd)
		counts_fd = -1;		/* the mapping stays */
}
