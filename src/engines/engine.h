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
#include <stdio.h>
#include <sys/types.h>

#include "engines/engine_opts.h"

/* One I/O of an asynchronous engine: a slot that is free, staged or in
 * flight.  Units and their buffers are allocated once, before the run. */
struct io_unit {
	uint64_t off;
	uint32_t len;		/* bytes; 0 for a flush */
	uint32_t span;		/* a sync_file_range: bytes from off, 0 to
				 * the end of the file */
	uint64_t t_submit;	/* clock when its batch was submitted */
	void *buf;		/* reads land here */
	void *wbuf;		/* writes come from here: buf, except in a
				 * read/write mix, where a read must never
				 * become the next write's data */
	int64_t res;		/* bytes done or -errno, set by reap() */
	int kind;		/* enum io_kind */
	unsigned idx;		/* position in io_ctx.units */
};

/* What an engine needs to issue I/O for one thread. */
struct io_ctx {
	int fd;
	void *buf;		/* aligned; sync: bs bytes, async: qd * bs */
	void *wbuf;		/* sync: what writes carry (buf unless the
				 * stream both reads and writes) */
	size_t bs;		/* the largest I/O of the stream */
	bool is_blkdev;		/* trim: BLKDISCARD instead of hole punching */
	bool writable;		/* opened for writing */
	bool flush;		/* mmap: msync after each write */
	bool rwf_dsync;		/* writes carry RWF_DSYNC (--sync rwf-dsync) */
	bool flushes;		/* the stream has fsync/fdatasync I/Os */
	bool fd_per_io;		/* fd changes from one I/O to the next (many
				 * files, core/fileset.h): bind none at init */
	struct engine_opts opts;	/* the engine's own options */
	unsigned qd;
	unsigned batch;		/* async: submit and reap this many at once */
	struct io_unit *units;	/* async: qd of them */
	uint64_t map_start;	/* mmap: bytes the engine may touch */
	uint64_t map_len;
	void *priv;		/* engine-private state */
	char note[160];		/* init: a fallback the user should know of */
	char err[256];		/* init, or the I/O that failed: what failed
				 * and how to fix it, when errno says too
				 * little */
};

enum engine_flags {
	ENGINE_SYNC = 1 << 0,		/* one I/O per call: sync_io */
	ENGINE_ASYNC = 1 << 1,		/* -q I/Os in flight: queue/commit/reap */
	ENGINE_NEEDS_PAGED = 1 << 2,	/* cannot use O_DIRECT */
	ENGINE_FILE_POS = 1 << 3,	/* uses the fd's shared file position */
	ENGINE_NO_TRIM = 1 << 4,	/* cannot discard */
	ENGINE_APPENDS = 1 << 5,	/* can write with O_APPEND (-a) */
	ENGINE_ONE_FILE = 1 << 6,	/* binds the descriptor at init (a
					 * mapping, a registered file): it
					 * cannot change file per I/O */
	ENGINE_RWF_DSYNC = 1 << 7,	/* can flag a write RWF_DSYNC */
	ENGINE_SYNC_RANGE = 1 << 8,	/* can issue sync_file_range */
	ENGINE_FD_PER_IO = 1 << 9,	/* ENGINE_ONE_FILE, unless told at
					 * init (io_ctx.fd_per_io) that fd
					 * changes per I/O: then it binds
					 * none (uring: no registered file) */
};

#define ENGINE_MAX_OPTS 4

/* Where an engine's describe() hook says what its options are: each
 * writer sets the callbacks it needs (NULL: not wanted). */
struct engine_words {
	void (*human)(void *arg, const char *text);	/* ", NAME" */
	void (*flag)(void *arg, const char *key, bool on);	/* JSON */
	void (*fio)(void *arg, const char *line);	/* a job line */
	void *arg;
};

/* What an engine's check() hook sees of a workload: before its target is
 * known (target NULL), then against the target. */
struct engine_check {
	bool paged;		/* -p: the page cache, no O_DIRECT */
	const char *target;	/* NULL: not probed yet */
	int io_poll;		/* the target's queue/io_poll, -1 unknown */
};

struct engine_ops {
	const char *name;
	const char *aliases[4];
	const char *summary;
	unsigned flags;
	const char *unavailable;	/* non-NULL: why it cannot be used */
	const char *fio_name;		/* fio's ioengine= */
	const char *fio_note;		/* how fio's engine differs, or NULL */
	const char *fio_extra[ENGINE_MAX_OPTS];	/* fio options it implies */
	unsigned max_qd;		/* deepest -q it takes; 0: -q's limit */
	/* Its own options (engine_opts.h), NULL-terminated or NULL, over its
	 * option struct of opts_size bytes. */
	const struct engine_opt *opts;
	size_t opts_size;
	/* Optional: each option of o, through w (engine_word_flag). */
	void (*describe)(const void *o, const struct engine_words *w);
	/* Optional: 0, or -EINVAL with the reason in err: options that
	 * cannot work with this workload or target. */
	int (*check)(const void *o, const struct engine_check *c, char *err,
		     size_t len);
	/* Per thread, before the start; 0 or -errno with io->err filled. */
	int (*init)(struct io_ctx *io);
	/* Optional: in the worker thread itself, before the start barrier
	 * (a ring that only its submitting thread may use); 0 or -errno. */
	int (*thread_start)(struct io_ctx *io);
	/* sync: one I/O of kind enum io_kind; bytes done or -errno.  A
	 * flush (IO_FSYNC, IO_FDATASYNC) has len 0 and returns 0; an
	 * IO_SYNC_RANGE (ENGINE_SYNC_RANGE only) has its range in off and
	 * len (0: to the end of the file) and returns 0. */
	ssize_t (*sync_io)(struct io_ctx *io, int kind, uint64_t off, size_t len);
	/* async: stage one I/O (no system call), u->len bytes or a flush
	 * (res 0 when it completes) ... */
	int (*queue)(struct io_ctx *io, struct io_unit *u);
	/* Optional: stage n I/Os at once, units[n-1] first down to
	 * units[0] (the order the run loop takes them off its free list):
	 * what n queue() calls do, for a stream whose I/Os are all of one
	 * data kind and size (a plain stream, gen/stream.h); 0, or -errno
	 * with nothing staged.  The run loop calls it once per batch
	 * instead of queue() per I/O. */
	int (*queue_plain)(struct io_ctx *io, struct io_unit **units,
			   unsigned n);
	/* ... submit everything staged; 0 or -errno ... */
	int (*commit)(struct io_ctx *io);
	/* ... wait for at least min completions and return them in done[]
	 * (at most qd); the count, or -errno. */
	int (*reap)(struct io_ctx *io, unsigned min, struct io_unit **done);
	/* Optional, async: at the deadline or a stop, cancel what can be of
	 * the I/Os in flight; each still comes back from reap(), with
	 * -ECANCELED when it was cancelled. */
	void (*cancel)(struct io_ctx *io);
	void (*cleanup)(struct io_ctx *io);
};

extern const struct engine_ops engine_stateful;
extern const struct engine_ops engine_stateless;
extern const struct engine_ops engine_mmap;
extern const struct engine_ops engine_paio;
extern const struct engine_ops engine_naio;
extern const struct engine_ops engine_uring;

int engine_count(void);
const struct engine_ops *engine_get(int index);
/* Index of the engine named or aliased name, or -1. */
int engine_lookup(const char *name);
/* 0, or -EINVAL with a message naming the engine and missing hook. */
int engine_registry_check(char *err, size_t len);
/* Does e take the engine-private option name?  Which engines do, for a
 * message ("uring")?  Is name some engine's private option? */
bool engine_takes(const struct engine_ops *e, const char *name);
const char *engine_owners(const char *name, char *buf, size_t len);
bool engine_private_option(const char *name);
/* The engines' own options, every engine's in registry order: the k-th,
 * with its engine's index in *engine; NULL past the last. */
const struct engine_opt *engine_opt_get(int k, int *engine);
/* For describe(): the flag key, on or off, to w. */
void engine_word_flag(const struct engine_words *w, const char *key, bool on,
		      const char *fio_line);
/* Every engine's options to w: engine's from its block o, the others'
 * their defaults (so a document has the same keys whatever the engine). */
void engine_describe_all(int engine, const void *o,
			 const struct engine_words *w);
/* rebench --engines: one line per engine, with what it needs. */
void engine_list(FILE *f);

/* Discard [off, off+len): BLKDISCARD on devices, hole punching on files. */
ssize_t io_trim(struct io_ctx *io, uint64_t off, size_t len);
/* fsync(2), fdatasync(2) or sync_file_range(2) of [off, off+len) (len 0:
 * to the end) of the target: 0 or -errno. */
ssize_t io_flush(struct io_ctx *io, int kind, uint64_t off, size_t len);

/* sync_file_range's flags, fio's "wait_before,write,wait_after": wait for
 * writeback already under way, start it for every dirty page of the range,
 * and wait for it all.  Neither a device cache flush nor metadata. */
#define IO_SYNC_RANGE_FLAGS \
	(SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | \
	 SYNC_FILE_RANGE_WAIT_AFTER)

#endif
