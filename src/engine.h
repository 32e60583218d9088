/* engine.h - the I/O engine interface and its registry.
 *
 * An engine is a static ops table: a name, fio-style aliases, capability
 * flags and hooks.  Synchronous engines implement sync_io(); the registry
 * checks at start-up that each engine has the hooks its flags require and
 * names the engine and the missing hook when one does not.  Engines that are
 * not in this build keep their entry with the reason in .unavailable, so a
 * user asking for one gets that reason instead of "unknown engine".
 */
#ifndef REBENCH_ENGINE_H
#define REBENCH_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* What an engine needs to issue I/O for one thread. */
struct io_ctx {
	int fd;
	void *buf;		/* aligned, at least bs bytes */
	size_t bs;
	bool is_blkdev;		/* trim: BLKDISCARD instead of hole punching */
	void *priv;		/* engine-private state */
};

enum engine_flags {
	ENGINE_SYNC = 1 << 0,		/* one I/O per call: sync_io */
	ENGINE_ASYNC = 1 << 1,		/* -q I/Os in flight */
	ENGINE_NEEDS_PAGED = 1 << 2,	/* cannot use O_DIRECT */
	ENGINE_FILE_POS = 1 << 3,	/* uses the fd's shared file position */
};

struct engine_ops {
	const char *name;
	const char *aliases[4];
	const char *summary;
	unsigned flags;
	const char *unavailable;	/* non-NULL: why it cannot be used */
	int (*init)(struct io_ctx *io);
	/* One I/O of kind enum io_kind; returns bytes done or -errno. */
	ssize_t (*sync_io)(struct io_ctx *io, int kind, uint64_t off, size_t len);
	void (*cleanup)(struct io_ctx *io);
};

extern const struct engine_ops engine_stateful;
extern const struct engine_ops engine_stateless;

int engine_count(void);
const struct engine_ops *engine_get(int index);
/* Index of the engine named or aliased name, or -1. */
int engine_lookup(const char *name);
/* 0, or -EINVAL with a message naming the engine and missing hook. */
int engine_registry_check(char *err, size_t len);

/* Discard [off, off+len): BLKDISCARD on devices, hole punching on files. */
ssize_t io_trim(struct io_ctx *io, uint64_t off, size_t len);

#endif
