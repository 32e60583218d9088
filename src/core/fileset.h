/* fileset.h - one workload over many files: --directory DIR --nrfiles N
 * --filesize SIZE (fio's names), or a list of files as its TARGET.
 *
 * The files: DIR/rebench.W.I (W the workload's number in the run, from 0;
 * I from 0 to N - 1), or the files a list names: several TARGET words
 * (rebench a b c, a shell glob: nothing to escape), or fio's --filename
 * a:b:c, where "\:" is a colon of a name.  A list names regular files that
 * exist, each once, on one file system.
 *
 * Every file is a target as a single file is: one that does not exist is
 * created with --filesize bytes of non-zero data before the start (and
 * removed again after a fault, as single files are: prepare.c's list of
 * created files); one that is read and has holes in the region is filled
 * first, after the confirmation; a write to files that exist is confirmed
 * once for the set; a file in use (a swap file, a loop device's backing
 * file in use) or read-only is refused, naming it; a directory on a pseudo
 * file system (proc, sysfs, devtmpfs ...) is refused.  The region (-j, -e)
 * is resolved against the size of a file: --filesize, or the smallest of
 * the files.  -d as a share (-d 100%) is a share of the region of every
 * file together; -d as bytes counts the bytes of every file together.
 *
 * Which file an I/O goes to is --file-service (fio's file_service_type):
 * rr (in turn; thread t of T starts at file t*N/T), random (uniform) or
 * zipf:THETA (file k with weight 1/(k+1)^THETA: file 0 gets the most).  The
 * offset within the file is the workload's own (-w, -u, its region);
 * sequential workloads keep a position per file and thread.
 *
 * How it runs, without changing the loops of run.c: each thread's stream
 * (stream_synth, gen/stream.h) is wrapped so that next() picks the file,
 * swaps in the file's sequential position, draws the I/O and sets the
 * thread's descriptor (io_ctx.fd) to the file's; the workload's engine is
 * wrapped so that each completed I/O is counted for its file (sync_io, or
 * queue() noting each unit's file and reap() counting it).  Per I/O that
 * is an indirect call, a table lookup for the descriptor and one for the
 * counters: no allocation, no system call.  A single-file workload has
 * none of it.  Engines that bind one descriptor when they start are
 * refused (mmap); uring does not register the file then (io_ctx.
 * fd_per_io).
 */
#ifndef REBENCH_FILESET_H
#define REBENCH_FILESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "engines/engine.h"
#include "gen/dist.h"
#include "gen/prng.h"

struct spec;
struct parse_ctx;
struct workload;

enum file_service { FSERV_RR, FSERV_RANDOM, FSERV_ZIPF };

#define FILESET_MAX 1000000	/* --nrfiles, and a list's files */

/* What went to one file. */
struct file_count {
	uint64_t reads, writes, trims;
	uint64_t bytes_read, bytes_written, bytes_trimmed;
};

struct fileset_file {
	char *path;
	bool exists;		/* before the run */
	bool created;		/* by this run */
	bool holes;		/* read, with holes in the region: filled */
	uint64_t size;		/* st_size; a new file's: --filesize */
	uint64_t allocated;	/* st_blocks * 512 */
	dev_t dev;
	ino_t ino;
};

struct fileset_thread;

struct fileset {
	unsigned n;
	struct fileset_file *f;
	const char *dir;	/* --directory, else NULL (a list) */
	int service;		/* enum file_service */
	double theta;		/* zipf */
	struct dist dist;	/* zipf over the n files */
	uint64_t size;		/* each file's: the region's basis */
	uint64_t min_size, max_size;
	unsigned nexist, nnew, nholes, nsparse;
	uint64_t held;		/* counted in the memory budget */
	/* while it runs: the descriptors (rows of n: one row, or one per
	 * thread with -l), the threads' state, the engine wrapped */
	int *fds;
	unsigned rows;
	struct fileset_thread *threads;
	unsigned nthreads;
	const struct engine_ops *real;
	struct engine_ops wrap;
	/* after it: what went to each file, and the spread */
	struct file_count *sum;
	uint64_t ios_min, ios_max;
	bool counted;
};

/* --- parsing (options_parse.c, options_fio.c) --------------------------- */

/* A TARGET word after the first (several make a list), or a list's
 * element: appended to s's list.  0 or -ENOMEM. */
int fileset_add_target(struct spec *s, const char *path);
/* fio's --filename a:b:c ("\:" a colon of a name): one file is the
 * target, several a list.  0, or -EINVAL after a message. */
int fileset_filename(struct spec *s, const char *val,
		     const struct parse_ctx *ctx);
/* After a parse: --directory becomes the target (a TARGET and --directory
 * together are refused).  0, or -EINVAL after a message. */
int fileset_parse_end(struct spec *s, const struct parse_ctx *ctx);

/* Does s run over many files? */
bool fileset_wanted(const struct spec *s);

/* --- checks (plan.c, confirm.c) ------------------------------------------ */

/* What needs no file: options that need --directory, what cannot run
 * over many files (engine, --verify, flushes ...).  0, or -EINVAL after
 * a message.  (--precondition and --fio refuse many files where they are
 * run: precondition.c, study/fio_job.c.) */
int fileset_check_spec(const struct spec *s);
/* The files found and checked, the region resolved against a file's size
 * (wl->tgt: the first file's probe, its size the region's basis), the
 * file service set up; no I/O.  0, or -errno after a message. */
int fileset_resolve(struct workload *wl);
/* workload_plan() for many files: which files are created, which have
 * holes to fill (wl->run.layout_confirm), which are sparse. */
void fileset_plan(struct workload *wl);
/* Refuse to write to a file of the set that is in use or read-only
 * (verb: "write to", "trim", "fill the holes of"): 0, or -EBUSY or -EROFS
 * after a message naming the file. */
int fileset_refuse(const struct workload *wl, const char *verb);
/* The line of the confirmation's question. */
void fileset_describe(FILE *f, const struct workload *wl, const char *verb);
/* Is path one of wl's files (by inode, or by name for a new one)? */
bool fileset_has(const struct workload *wl, const char *path);
/* "/mnt/t: 8 files rebench.0.0 to rebench.0.7", "3 files a, b, c". */
void fileset_label(const struct workload *wl, char *buf, size_t len);
/* "rr", "random", "zipf:1.2". */
void fileset_service_text(const struct fileset *fs, char *buf, size_t len);

/* --- the run (prepare.c, plan.c) ----------------------------------------- */

/* Create and lay out the files, fill holes, open every descriptor.  0, or
 * -errno after a message (-EINTR: a stop signal). */
int fileset_prepare(struct workload *wl);
/* The descriptor thread i starts with (its first file's). */
int fileset_thread_fd(const struct workload *wl, unsigned i);
/* After every thread is prepared: the streams and the engine wrapped.
 * 0, or -ENOMEM after a message. */
int fileset_attach(struct workload *wl);
/* After the run: what went to each file, the passes over the set. */
void fileset_collect(struct workload *wl);
/* The descriptors and the threads' state go, the engine is put back; the
 * counts stay. */
void fileset_release_io(struct workload *wl);
void fileset_free(struct workload *wl);

#endif
