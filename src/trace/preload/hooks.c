/* hooks.c - the functions librebench-record.so interposes (preload.h):
 * each calls the real one, and logs the call when it is on a followed
 * descriptor (or is an open), after waiting its delay when it has one.
 * errno is the real call's on return.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "trace/preload/preload.h"

/* The fortified entry points glibc's headers redirect to (bits/fcntl2.h,
 * bits/unistd.h). */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);
ssize_t __pread_chk(int fd, void *buf, size_t n, off_t off, size_t buflen);
ssize_t __pread64_chk(int fd, void *buf, size_t n, off64_t off,
		      size_t buflen);

enum { EX_dup2, EX_dup3, EX_close_range, EX_closefrom, EX_COUNT };
static const char *const ex_names[EX_COUNT] = {
	"dup2", "dup3", "close_range", "closefrom",
};
static void *real_calls[TC_COUNT];
static void *real_ex[EX_COUNT];

#define REAL(name) \
	((__typeof__(&name))resolve(&real_calls[TC_##name], #name))
#define REAL_EX(name) \
	((__typeof__(&name))resolve(&real_ex[EX_##name], ex_names[EX_##name]))

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
	c->t0 = logging ? now_ns() : 0;
	return true;
}

/* The delay (delays.c) is waited before the end is taken: the logged
 * DURATION is what the program saw. */
static void finish(struct call *c, struct rec *r)
{
	r->t1 = delaying ? delay_after(r->call, r->res) : 0;
	if (logging) {
		if (!r->t1)
			r->t1 = now_ns();
		r->t0 = c->t0;
		r->fd = c->fd;
		r->path = paths[c->e->path].name;
		emit(r);
	}
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

/* The bytes a vector call asked, the sum of its buffers' lengths: 0 for
 * no buffer, NONE when the count is out of range (the kernel refused it),
 * the vector cannot be read or the sum passes 2^63-1.  After a failed
 * call the vector may be anything - the kernel may have refused the call
 * before it looked at it - so it is copied with process_vm_readv, which
 * fails on memory that cannot be read where a plain read would crash the
 * program.  Keeps errno (an argument, evaluated before end_at() saves it). */
static int64_t iov_len(const struct iovec *iov, int cnt, ssize_t ret)
{
	struct iovec part[32], local, remote;
	uint64_t n = 0;
	int e = errno, i, k, m;

	if (!cnt)
		return 0;
	if (!iov || cnt < 0 || cnt > IOV_MAX)
		return NONE;
	for (i = 0; i < cnt; i += m) {
		m = cnt - i < 32 ? cnt - i : 32;
		local = (struct iovec){ part, (size_t)m * sizeof(*part) };
		remote = (struct iovec){ (void *)(iov + i), local.iov_len };
		if (ret >= 0)
			memcpy(part, iov + i, local.iov_len);
		else if (syscall(SYS_process_vm_readv, getpid(), &local, 1,
				 &remote, 1, 0) != (long)local.iov_len)
			goto out_none;
		for (k = 0; k < m; k++) {
			if (part[k].iov_len > (uint64_t)INT64_MAX - n)
				goto out_none;
			n += part[k].iov_len;
		}
	}
	errno = e;
	return (int64_t)n;
out_none:
	errno = e;
	return NONE;
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
			  .a = (unsigned)flags, .b = mode };
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
		/* open("") with no working directory names nothing: a
		 * FILE field cannot be empty */
		if (r.path[0] && wanted(r.path))
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
/* The real close(fd), or fclose(f) when f is given: 0, or -1 (EOF) with
 * errno. */
static int real_close(int fd, FILE *f)
{
	return f ? REAL(fclose)(f) : REAL(close)(fd);
}

static int close_fd(int call, int fd, FILE *f)
{
	struct call c;
	int r, e;

	/* the log leaves the number first (a close releases it, even when
	 * it fails) */
	if (!enter()) {
		if (recording())
			closing(fd);
		r = real_close(fd, f);
		e = errno;
		if (recording())
			forget(fd);
		errno = e;
		return r;
	}
	closing(fd);
	c.e = lookup(fd, false);
	if (!c.e) {
		r = real_close(fd, f);
		e = errno;
		forget(fd);
		leave();
		errno = e;
		return r;
	}
	c.fd = fd;
	c.t0 = now_ns();
	r = real_close(fd, f);
	end_at(&c, call, NONE, NONE, r, ARG_NONE, 0, 0);
	e = errno;
	forget(fd);
	errno = e;
	return r;
}

EXPORT int close(int fd)
{
	return close_fd(TC_close, fd, NULL);
}

EXPORT int fclose(FILE *f)
{
	int fd = f ? fileno(f) : -1;

	if (fd < 0)
		return REAL(fclose)(f);
	return close_fd(TC_fclose, fd, f);
}

/* Calls that replace or close descriptors without being logged: the log
 * leaves the number before the call (closing()), and what the table knew
 * of it is forgotten after. */
EXPORT int dup2(int old, int new)
{
	bool locked = recording() && fds_lock();
	bool was_log = old != new && recording() && closing(new);
	int r = REAL_EX(dup2)(old, new), e = errno;

	if (r < 0 && was_log)
		closing_undone(new);
	if (locked)
		fds_unlock();
	if (r >= 0 && old != new && recording())
		forget(new);
	errno = e;
	return r;
}

EXPORT int dup3(int old, int new, int flags)
{
	bool locked = recording() && fds_lock();
	bool was_log = old != new && recording() && closing(new);
	int r = REAL_EX(dup3)(old, new, flags), e = errno;

	if (r < 0 && was_log)
		closing_undone(new);
	if (locked)
		fds_unlock();
	if (r >= 0 && recording())
		forget(new);
	errno = e;
	return r;
}

/* Before a close of [first, last]: the log and the counters leave
 * their numbers in it; the log's number, or -1. */
static int closing_range(unsigned first, unsigned last)
{
	int fd = __atomic_load_n(&log_fd, __ATOMIC_SEQ_CST), was = -1;

	if (!recording())
		return -1;
	if (fd >= 0 && (unsigned)fd >= first && (unsigned)fd <= last &&
	    closing(fd))
		was = fd;
	if (counts_fd >= 0 && (unsigned)counts_fd >= first &&
	    (unsigned)counts_fd <= last)
		closing(counts_fd);
	return was;
}

static void forget_range(unsigned first, unsigned last)
{
	unsigned fd;

	if (!recording())
		return;
	for (fd = first; fd <= last && fd < MAX_FDS; fd++)
		forget((int)fd);
}

EXPORT int close_range(unsigned first, unsigned last, int flags)
{
	bool locked = recording() && fds_lock();
	int was = flags & CLOSE_RANGE_CLOEXEC ? -1 :
		  closing_range(first, last);
	int r = REAL_EX(close_range)(first, last, flags), e = errno;

	if (r && was >= 0)
		closing_undone(was);
	if (locked)
		fds_unlock();
	if (!r && !(flags & CLOSE_RANGE_CLOEXEC))
		forget_range(first, last);
	errno = e;
	return r;
}

EXPORT void closefrom(int low)
{
	bool locked = recording() && fds_lock();

	if (low >= 0)
		closing_range((unsigned)low, ~0u);
	REAL_EX(closefrom)(low);
	if (locked)
		fds_unlock();
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
			end_pos(&c, TC_##name, writes, iov_len(iov, cnt, r), r, \
				ARG_IOV2, (unsigned long)cnt,		\
				(unsigned)flags);			\
		else							\
			end_at(&c, TC_##name, off, iov_len(iov, cnt, r), r,	\
			       ARG_IOV2, (unsigned long)cnt,		\
			       (unsigned)flags);			\
		return r;						\
	}

AT_POS(read, false, (int fd, void *buf, size_t n), (fd, buf, n),
       (int64_t)n, ARG_NONE, 0, 0)
AT_POS(__read_chk, false, (int fd, void *buf, size_t n, size_t buflen),
       (fd, buf, n, buflen), (int64_t)n, ARG_NONE, 0, 0)
AT_POS(readv, false, (int fd, const struct iovec *iov, int cnt),
       (fd, iov, cnt), iov_len(iov, cnt, r), ARG_IOV, (unsigned long)cnt, 0)
AT_POS(write, true, (int fd, const void *buf, size_t n), (fd, buf, n),
       (int64_t)n, ARG_NONE, 0, 0)
AT_POS(writev, true, (int fd, const struct iovec *iov, int cnt),
       (fd, iov, cnt), iov_len(iov, cnt, r), ARG_IOV, (unsigned long)cnt, 0)

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
       (fd, iov, cnt, off), off, iov_len(iov, cnt, r), ARG_IOV,
       (unsigned long)cnt, 0)
AT_OFF(ssize_t, preadv64,
       (int fd, const struct iovec *iov, int cnt, off64_t off),
       (fd, iov, cnt, off), off, iov_len(iov, cnt, r), ARG_IOV,
       (unsigned long)cnt, 0)
AT_OFF(ssize_t, pwrite, (int fd, const void *buf, size_t n, off_t off),
       (fd, buf, n, off), off, (int64_t)n, ARG_NONE, 0, 0)
AT_OFF(ssize_t, pwrite64,
       (int fd, const void *buf, size_t n, off64_t off),
       (fd, buf, n, off), off, (int64_t)n, ARG_NONE, 0, 0)
AT_OFF(ssize_t, pwritev,
       (int fd, const struct iovec *iov, int cnt, off_t off),
       (fd, iov, cnt, off), off, iov_len(iov, cnt, r), ARG_IOV,
       (unsigned long)cnt, 0)
AT_OFF(ssize_t, pwritev64,
       (int fd, const struct iovec *iov, int cnt, off64_t off),
       (fd, iov, cnt, off), off, iov_len(iov, cnt, r), ARG_IOV,
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
