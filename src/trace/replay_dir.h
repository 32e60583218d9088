/* replay_dir.h - rebench --replay LOG DIR: every recorded file in a file
 * of its own in DIR (fio's replay_redirect, with the files kept apart).
 *
 * Names: a recorded file's name in DIR is the last component of its
 * recorded path; a name an earlier file of the map (in the order the log
 * first touched them) has taken gets ".2", ".3", ... appended, the first
 * that is free.  A recorded path whose last component is empty, "." or
 * "..", or too long once numbered, is unmapped: the replay is refused,
 * naming it.  Each file must be as long as its extent (the furthest byte
 * read or written, after --replay-align): a new one is created that long
 * with non-zero data, one that exists must be a regular file at least
 * that long, or the replay is refused with the reason.
 *
 * The ordinary machinery prepares every file: the replay's workload
 * targets the longest file (its largest operation fits it), and each
 * other file has a workload of its own that never runs, only checked,
 * confirmed (writes to files that exist are asked about, in use or
 * read-only ones refused), created or laid out and opened like any
 * target.  Before the run each worker gets a table of descriptors, one
 * per file, and the directory's for flushes of files never read or
 * written; its trace stream sets the worker's descriptor per operation.
 * Workers share a file's descriptor, except with an engine that uses the
 * file position (stateful), where each worker has its own.  An engine
 * that binds one descriptor at init (mmap, uring's registered file) is
 * refused.
 */
#ifndef REBENCH_REPLAY_DIR_H
#define REBENCH_REPLAY_DIR_H

#include <stdbool.h>
#include <stdint.h>

#include "core/plan.h"
#include "trace/stream_trace.h"

struct replay_dir {
	const char *dir;
	uint32_t nfiles;
	char **paths;		/* per map file: DIR/name */
	uint32_t main;		/* the file the replay's workload targets */
	uint32_t nnew;		/* files that do not exist yet: created */
	uint64_t new_bytes;	/* ... as long as their extents, together */
	const char *first_new;
	size_t *wl;		/* per map file: its workload in the run */
	int dir_fd;
	uint32_t nworkers;
	int *fds;		/* nworkers rows of nfiles + 1 */
	bool own_fds;		/* rows after the first were opened here */
};

/* Is target a directory (one that exists, or a path ending in '/')? */
bool replay_dir_wanted(const char *target);

/* Names for t's files in dir: 0, or -errno after saying why (dir is no
 * directory; unmapped files). */
int replay_dir_name(struct replay_dir *d, const char *dir,
		    const struct stream_trace *t, const char *log);

/* Every file that exists is regular and as long as its extent; the main
 * file chosen (the longest); the new files counted (nnew, new_bytes).
 * Again once the extents are final (stream_trace_extents).  0, or -EINVAL
 * after saying why. */
int replay_dir_check(struct replay_dir *d, const struct stream_trace *t,
		     const char *log);

/* A workload of its own for every file but the main one, in ctx after the
 * replay's (extra: options for how files are opened: -p, -m, --seed).
 * 0, or -errno after a message. */
int replay_dir_add(struct replay_dir *d, const struct stream_trace *t,
		   struct run_ctx *ctx, char **extra, int nextra);

/* After every workload is prepared and the streams initialised: the
 * descriptor tables, the streams told of them, and the other files'
 * notes among the replay workload's warnings.  0, or -errno after a
 * message. */
int replay_dir_attach(struct replay_dir *d, struct run_ctx *ctx);

/* After the run: every worker's own descriptor back. */
void replay_dir_detach(struct replay_dir *d, struct workload *wl);

void replay_dir_free(struct replay_dir *d);

#endif
