/* fileset_priv.h - what the files of one workload over many files
 * (fileset_*.c) share among themselves, and no other file includes:
 * --file-service's parser, the --directory check and each thread's state
 * while it runs.  The public interface is fileset.h.
 */
#ifndef REBENCH_FILESET_PRIV_H
#define REBENCH_FILESET_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/fileset.h"

struct worker;

/* --file-service's text into *service and *theta; 0, or -EINVAL with why
 * in err. */
int fileset_parse_service(const char *text, int *service, double *theta,
			  char *err, size_t len);

/* --directory: it exists, is a directory, on a real file system. */
int fileset_check_dir(const struct spec *s);

/* Each thread's file choice, positions and counts (worker.files). */
struct fileset_thread {
	const struct fileset *fs;
	struct worker *w;
	const int *fds;		/* its row: a descriptor per file */
	uint32_t n;
	uint32_t cur;		/* the file of the last I/O drawn */
	uint32_t rr;		/* rr: the next file */
	int service;
	bool seq, contiguous;
	bool plain;		/* the stream is (gen/stream.h): its offset
				 * drawn here, as synth_next() draws it */
	bool uniform;		/* ... and uniform (stream_plain_uniform) */
	bool direct;		/* the stateless engine's reads and writes:
				 * bare system calls, as stateless_io() */
	bool failed;
	uint32_t fail_file;	/* the file of its failed I/O */
	struct prng rng;	/* the file choice's own draws */
	uint64_t *pos;		/* seq: each file's next slot (its cursor
				 * when contiguous) */
	uint32_t *unit_file;	/* async: each unit's file */
	struct file_count *count;
	ssize_t (*sync_io)(struct io_ctx *, int, uint64_t, size_t);
	int (*queue)(struct io_ctx *, struct io_unit *);
	int (*reap)(struct io_ctx *, unsigned, struct io_unit **);
};

#endif
