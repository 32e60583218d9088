/* mmap.c - reads copy from a shared mapping of the region, writes copy into
 * it and, unless -f, msync the written pages before the write counts as
 * done.  Page cache only: a mapping cannot be O_DIRECT.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../engine.h"
#include "../spec.h"

struct mmap_state {
	char *base;		/* mapping of [map_off, map_off + map_len) */
	uint64_t map_off;	/* map_start rounded down to a page */
	size_t map_len;
	uint64_t page;
};

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
	return 0;
}

static ssize_t mmap_io(struct io_ctx *io, int kind, uint64_t off, size_t len)
{
	struct mmap_state *m = io->priv;
	char *p = m->base + (off - m->map_off);
	uint64_t first;

	if (kind == IO_TRIM)
		return io_trim(io, off, len);
	if (kind == IO_READ) {
		memcpy(io->buf, p, len);
		return (ssize_t)len;
	}
	memcpy(p, io->buf, len);
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
	.summary = "memcpy from/to a shared mapping, msync when flushing",
	.flags = ENGINE_SYNC | ENGINE_NEEDS_PAGED,
	.init = mmap_init,
	.sync_io = mmap_io,
	.cleanup = mmap_cleanup,
};
