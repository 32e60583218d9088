/* sysio.h - pread and pwrite as bare system calls, for the hot loop.
 *
 * glibc's pread and pwrite are cancellation points: in a process with more
 * than one thread (rebench's workers and its main thread) each call
 * enables and disables asynchronous cancellation around the system call,
 * about 30 instructions per I/O, and sets errno.  Nothing in rebench
 * cancels a thread (no pthread_cancel: the run stops through the stop
 * flag), so the workers make the system call itself: -errno or the bytes
 * done, as the engines return them.  On x86-64 the call is inline; other
 * architectures go through syscall(2), which is not a cancellation point
 * either.
 */
#ifndef REBENCH_SYSIO_H
#define REBENCH_SYSIO_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

static inline ssize_t sys_pio(long nr, int fd, const void *buf, size_t len,
			      uint64_t off)
{
#if defined(__x86_64__)
	long ret;
	register long r10 __asm__("r10") = (long)off;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"((long)fd), "S"(buf), "d"(len), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
#else
	long ret = syscall(nr, fd, buf, len, (off_t)off);

	return ret < 0 ? -errno : ret;
#endif
}

/* Bytes read, or -errno. */
static inline ssize_t sys_pread(int fd, void *buf, size_t len, uint64_t off)
{
	return sys_pio(SYS_pread64, fd, buf, len, off);
}

/* Bytes written, or -errno. */
static inline ssize_t sys_pwrite(int fd, const void *buf, size_t len,
				 uint64_t off)
{
	return sys_pio(SYS_pwrite64, fd, buf, len, off);
}

#endif
