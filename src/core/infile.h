/* infile.h - the one rule for every file rebench reads as input: a log or
 * trace (--replay, --trace-stats, --trace-to, the log of --record), a
 * suite, a hosts file, a sweep table (--advise --from), a JSON document
 * (--compare, --emulate).  outpath.h is its twin for what rebench writes.
 *
 * - The file is opened with O_NONBLOCK, so that the open itself never
 *   waits (a FIFO without a writer, a device).
 * - Only a regular file is read, or, where the reader asks for it, a pipe
 *   or FIFO (a reader that reads its input once, start to end:
 *   `--hosts-file /dev/stdin`, `--replay <(zcat log.gz)`).  A device, a directory or a socket is
 *   refused with the reason: a device such as /dev/zero never ends and
 *   one such as /dev/tty waits for ever.
 * - At most limit->bytes bytes are read, and no line is longer than
 *   limit->line bytes (its newline excluded): each reader has its own
 *   limits, listed in rebench(1), FILES.  Past one, the read fails with
 *   EFBIG or EMSGSIZE.
 * - A stop signal (SIGINT, SIGTERM, SIGHUP; signals.h) that comes after
 *   the open ends the read with EINTR (one that came before, the stop of a
 *   recorded COMMAND, does not keep its log from being read back): a pipe
 *   that never ends or never writes is waited on in ppoll(2) with the stop
 *   signals unblocked, so a stop is never missed.
 *
 * The stream is a stdio FILE (fopencookie), so readers keep their
 * getline() and fgets() loops; after one fails, infile_strerror() says
 * why in words.
 */
#ifndef REBENCH_INFILE_H
#define REBENCH_INFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct infile_limit {
	uint64_t bytes;		/* the whole file (0: no limit) */
	uint64_t line;		/* one line without its newline (0: none) */
	bool stream;		/* a pipe or FIFO is read too */
};

/* Workload lines on stdin (rebench(1), FILES): any file, pipe or
 * terminal, 1 MiB, lines of 16 KiB; MAX_WORKLOADS lines fit many times.
 * A run reads them, and so does --hosts to send them on. */
#define INFILE_WORKLOAD_LINES { .bytes = 1 << 20, .line = 16 << 10, \
				.stream = true }

/* The file, open for reading under the rule: a FILE, or NULL with errno
 * set and why holding the reason in words ("No such file or directory",
 * "it is a character device; rebench reads ..."), for the caller to put
 * after what and the path. */
FILE *infile_open(const char *path, const struct infile_limit *limit,
		  char *why, size_t len);

/* The same over a descriptor of the caller's (stdin: a terminal or a
 * device is read too, within the limits); fd itself stays open. */
FILE *infile_fdopen(int fd, const struct infile_limit *limit, char *why,
		    size_t len);

/* Why a read of an infile failed with errno e, in words: the limit it
 * passed (and how to get past it), a stop signal, or strerror(e). */
const char *infile_strerror(int e, const struct infile_limit *limit,
			    char *buf, size_t len);

#endif
