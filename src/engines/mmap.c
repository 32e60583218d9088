/* mmap.c - reads copy from a shared mapping of the region, writes copy into
 * it and, unless -f, msync the written pages before the write counts as
 * done.  Page cache only: a mapping cannot be O_DIRECT.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include "engines/engine.h"
#include "engines/iokind.h"

struct mmap_state {
	char *base;		/* mapping of [map_off, map_off + map_len) */
	uint64_t map_off;	/* map_start rounded down to a page */
	size_t map_len;
	uint64_t page;
};

/*
 * A mapping whose file or device shrank under it raises SIGBUS on the next
 * touch of a page past the new end.  The copy runs under a per-thread jump
 * point: the handler jumps back and the I/O fails with -EFAULT at that
 * offset, as a read past the end fails for the other engines, so the run
 * ends with its results.  sigsetjmp(.., 0) saves no signal mask (no system
 * call per I/O); SA_NODEFER keeps SIGBUS unblocked after the jump.
 */
static __thread sigjmp_buf *bus_jump;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	if (bus_jump)
		siglongjmp(*bus_jump, 1);
	/* not ours: the default action, as if rebench had no handler */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_sigbus_once(void)
{
	struct sigaction sa = { .sa_sigaction = on_sigbus,
				.sa_flags = SA_SIGINFO | SA_NODEFER };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

static void catch_sigbus(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, catch_sigbus_once);
}

static int mmap_init(struct io_ctx *io)
{
	struct mmap_state *m = calloc(1, sizeof(*m));
	int prot = PROT_READ | (io->writable ? PROT_WRITE : 0);

	if (!m)
		return -ENOMEM;
	m->page = (uint64_t)sysconf(_SC_PAGESIZE);
	m->map_off = io->map_start - io->map_start % m->page;
	m->map_len = (size_t)(io->map_start + io->map_len - m->map_off);
	m->base = mmap(NULL, m->map_len, prot, MAP_SHARED, io->fd,
		       (off_t)m->map_off);
	if (m->base == MAP_FAILED) {
		int e = errno;

		snprintf(io->err, sizeof(io->err), "mmap of %zu bytes failed: %s",
			 m->map_len, strerror(e));
		free(m);
		return -e;
	}
	io->priv = m;
	catch_sigbus();
	return 0;
}

static ssize_t mmap_io(struct io_ctx *io, int kind, uint64_t off, size_t len)
{
	struct mmap_state *m = io->priv;
	char *p = m->base + (off - m->map_off);
	uint64_t first;

	sigjmp_buf jump;

	if (kind == IO_TRIM)
		return io_trim(io, off, len);
	if (IO_IS_FLUSH(kind)) {
		/* the whole mapping: what a flush of the file means here;
		 * msync has no data-only variant, so both kinds do this */
		if (msync(m->base, m->map_len, MS_SYNC))
			return -errno;
		return 0;
	}
	if (sigsetjmp(jump, 0)) {
		bus_jump = NULL;
		snprintf(io->err, sizeof(io->err), "the mapping is no longer backed (SIGBUS): the target shrank below this offset during the run");
		return -EFAULT;
	}
	bus_jump = &jump;
	if (kind == IO_READ)
		memcpy(io->buf, p, len);
	else
		memcpy(p, io->wbuf, len);
	bus_jump = NULL;
	if (kind == IO_READ)
		return (ssize_t)len;
	if (io->flush) {
		/* msync wants a page-aligned start */
		first = off - (off - m->map_off) % m->page;
		if (msync(m->base + (first - m->map_off), len + (off - first),
			  MS_SYNC))
			return -errno;
	}
	return (ssize_t)len;
}

static void mmap_cleanup(struct io_ctx *io)
{
	struct mmap_state *m = io->priv;

	if (!m)
		return;
	munmap(m->base, m->map_len);
	free(m);
	io->priv = NULL;
}

const struct engine_ops engine_mmap = {
	.name = "mmap",
	.summary = "memcpy from/to a shared mapping, msync when flushing (fsync and fdatasync: msync of the mapping)",
	.flags = ENGINE_SYNC | ENGINE_NEEDS_PAGED | ENGINE_ONE_FILE,
	.fio_name = "mmap",
	.init = mmap_init,
	.sync_io = mmap_io,
	.cleanup = mmap_cleanup,
};
