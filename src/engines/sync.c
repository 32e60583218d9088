/* sync.c - the synchronous engines: stateful (lseek + read/write, the
 * original Rebench default) and stateless (pread/pwrite).  They differ only
 * in how the offset reaches the kernel, so they share this file.
 */
#include <errno.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engines/engine.h"
#include "engines/iokind.h"
#include "engines/sysio.h"

/* Whole transfer or an error: a short transfer is an error to report. */
static ssize_t finish(ssize_t ret)
{
	return ret < 0 ? -errno : ret;
}

/* --sync rwf-dsync: the one write, durable when it returns, as with
 * O_DSYNC but asked per call; off -1 writes at the file position. */
static ssize_t dsync_write(struct io_ctx *io, off_t off, size_t len)
{
	struct iovec v = { io->wbuf, len };

	return finish(pwritev2(io->fd, &v, 1, off, RWF_DSYNC));
}

static ssize_t stateful_io(struct io_ctx *io, int kind, uint64_t off,
			   size_t len)
{
	if (kind == IO_TRIM)
		return io_trim(io, off, len);
	if (IO_IS_FLUSH(kind))
		return io_flush(io, kind, off, len);
	if (lseek(io->fd, (off_t)off, SEEK_SET) < 0)
		return -errno;
	if (kind == IO_READ)
		return finish(read(io->fd, io->buf, len));
	if (io->rwf_dsync)
		return dsync_write(io, -1, len);
	return finish(write(io->fd, io->wbuf, len));
}

static ssize_t stateless_io(struct io_ctx *io, int kind, uint64_t off,
			    size_t len)
{
	if (kind == IO_TRIM)
		return io_trim(io, off, len);
	if (IO_IS_FLUSH(kind))
		return io_flush(io, kind, off, len);
	/* bare system calls, not glibc's cancellation points (sysio.h) */
	if (kind == IO_READ)
		return sys_pread(io->fd, io->buf, len, off);
	if (io->rwf_dsync)
		return dsync_write(io, (off_t)off, len);
	return sys_pwrite(io->fd, io->wbuf, len, off);
}

const struct engine_ops engine_stateful = {
	.name = "stateful",
	.aliases = { "sync" },
	.summary = "lseek + read/write, fsync/fdatasync/sync_file_range (the original Rebench default)",
	.flags = ENGINE_SYNC | ENGINE_FILE_POS | ENGINE_APPENDS |
		 ENGINE_RWF_DSYNC | ENGINE_SYNC_RANGE,
	.fio_name = "sync",
	.fio_note = "an lseek before every I/O, timed with it (fio's sync engine seeks only when the file position is elsewhere, before its clock starts)",
	.sync_io = stateful_io,
};

const struct engine_ops engine_stateless = {
	.name = "stateless",
	.aliases = { "psync" },
	.summary = "pread/pwrite, fsync/fdatasync/sync_file_range",
	.flags = ENGINE_SYNC | ENGINE_APPENDS | ENGINE_RWF_DSYNC |
		 ENGINE_SYNC_RANGE,
	.fio_name = "psync",
	.sync_io = stateless_io,
};
