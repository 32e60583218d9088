/* record_random.c - thousands of random file calls, failing and
 * succeeding, for test_record_random.sh: whatever the recorder writes of
 * them, rebench's reader must read back.
 *
 *	record_random DIR SEED CALLS		three processes (one forked,
 *						one forked and exec'd), two
 *						threads each, CALLS calls per
 *						thread, on files in DIR
 *	record_random --worker DIR SEED CALLS	the exec'd process
 *
 * Arguments are drawn from what programs get wrong: negative, huge and
 * extreme offsets and sizes, bad and closed descriptors, buffer counts
 * below 0 and above IOV_MAX, a NULL vector, unknown whence values, any
 * bits of open, fallocate, sync_file_range and RWF flags, any open mode.
 * Each thread first makes the calls of issue 26 item 9 (pwrite at -1,
 * ftruncate to -5, posix_fallocate of -1 bytes, pwritev of -1 buffers),
 * so that every log has them (both threads of a process, before either
 * goes on to random calls).  Calls that could succeed stay small and
 * inside a 1 TiB sparse range (a few blocks each), and a read or write
 * that could succeed never asks more than the buffer holds: sizes are
 * either at most BUF_SIZE or at least 2^60, which no user address range
 * holds, so the kernel refuses them before it touches memory.
 *
 * Results are not checked (most calls fail, as they should); the exit
 * status is 0 unless the setup itself fails.  Nothing is printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define BUF_SIZE 65536
#define NFILES 4
#define POOL 12			/* descriptors a thread keeps */

struct worker {
	const char *dir;
	uint64_t rng;
	long calls;
	int fds[POOL];
};

static char buf[BUF_SIZE];
/* A process's two threads make the calls of issue 26 before either makes
 * a random one: a sibling's random close or dup2 could otherwise take the
 * descriptor from under them, and a call on a closed descriptor is, rightly,
 * not recorded. */
static pthread_barrier_t issued;
static struct iovec iov[IOV_MAX + 2];	/* 16 bytes each, into buf */

static uint64_t next(struct worker *w)
{
	/* xorshift64*: seeded, the same sequence for the same seed */
	w->rng ^= w->rng >> 12;
	w->rng ^= w->rng << 25;
	w->rng ^= w->rng >> 27;
	return w->rng * 2685821657736338717ULL;
}

static uint64_t below(struct worker *w, uint64_t n)
{
	return next(w) % n;
}

#define PICK(w, a) ((a)[below(w, sizeof(a) / sizeof((a)[0]))])

/* An offset: mostly where a call can succeed, else what it must refuse. */
static int64_t offset(struct worker *w)
{
	static const int64_t odd[] = {
		-1, -5, -4096, INT64_MIN, INT64_MIN + 1, INT64_MAX,
		INT64_MAX - 100, (int64_t)1 << 62, 1LL << 40,
	};

	switch (below(w, 4)) {
	case 0:
		return PICK(w, odd);
	case 1:
		return (int64_t)next(w);	/* any 64 bits */
	default:
		return (int64_t)below(w, BUF_SIZE);
	}
}

/* A size for a read or write: at most BUF_SIZE, or at least 2^60. */
static size_t size(struct worker *w)
{
	static const size_t odd[] = {
		SIZE_MAX, (size_t)1 << 63, ((size_t)1 << 60) + 1,
		SIZE_MAX - 4095, 0,
	};

	return below(w, 5) ? (size_t)below(w, 8193) : PICK(w, odd);
}

/* A length of sync_file_range, fallocate, ftruncate (off_t): small, or
 * what must be refused. */
static int64_t length(struct worker *w)
{
	static const int64_t odd[] = {
		-1, -5, INT64_MIN, INT64_MAX, (int64_t)1 << 62, 0,
	};

	return below(w, 3) ? (int64_t)below(w, 16) * 4096 : PICK(w, odd);
}

static int iovcnt(struct worker *w)
{
	static const int odd[] = {
		-1, 0, INT_MIN, INT_MAX, IOV_MAX, IOV_MAX + 1, -IOV_MAX,
	};

	return below(w, 3) ? (int)below(w, 5) : PICK(w, odd);
}

static const struct iovec *vec(struct worker *w)
{
	return below(w, 16) ? iov : NULL;
}

/* Open flags: usual ones, sometimes any bits. */
static int flags(struct worker *w)
{
	static const int bits[] = {
		O_CREAT, O_TRUNC, O_APPEND, O_EXCL, O_NONBLOCK, O_DSYNC,
		O_SYNC, O_DIRECT, O_NOATIME, O_CLOEXEC, O_DIRECTORY, O_PATH,
		O_TMPFILE, O_NOFOLLOW, O_NOCTTY, 0100000,
	};
	int f = (int)below(w, 4), i;	/* O_RDONLY .. 3 */

	if (!below(w, 10))
		return (int)next(w);
	for (i = 0; i < 3; i++)
		if (below(w, 3))
			f |= PICK(w, bits);
	return f;
}

/* A descriptor: one of the thread's, or one that is not open. */
static int fd_of(struct worker *w)
{
	static const int bad[] = { -1, -100, 9999, 70000, INT_MAX, INT_MIN };

	return below(w, 8) ? w->fds[below(w, POOL)] : PICK(w, bad);
}

static void path_of(struct worker *w, char *p, size_t len)
{
	static const char *const names[] = {
		"f0", "f1", "f2", "f3", "", "missing/x", "a\\b c\td", "."
	};

	snprintf(p, len, "%s/%s", w->dir, PICK(w, names));
}

static void do_open(struct worker *w)
{
	char p[PATH_MAX + 32];
	int slot = (int)below(w, POOL), fd, dirfd;
	mode_t mode = below(w, 4) ? 0644 : (mode_t)next(w);

	path_of(w, p, sizeof(p));
	switch (below(w, 5)) {
	case 0:
		fd = open(p, flags(w), mode);
		break;
	case 1:
		fd = open64(p, flags(w), mode);
		break;
	case 2:
		dirfd = below(w, 2) ? AT_FDCWD : fd_of(w);
		fd = openat(dirfd, below(w, 2) ? p : "f1", flags(w), mode);
		break;
	case 3:
		fd = creat(p, mode);
		break;
	default:
		fd = open("/dev/null", O_RDWR);	/* not recorded */
		break;
	}
	if (fd >= 0) {
		if (w->fds[slot] >= 3)
			close(w->fds[slot]);
		w->fds[slot] = fd;
	}
}

static void rwflags(struct worker *w, int *f)
{
	static const int known[] = {
		0, RWF_HIPRI, RWF_DSYNC, RWF_SYNC, RWF_NOWAIT, RWF_APPEND,
	};

	*f = below(w, 4) ? PICK(w, known) : (int)next(w);
}

static void one_call(struct worker *w)
{
	static const int whence[] = {
		SEEK_SET, SEEK_CUR, SEEK_END, SEEK_DATA, SEEK_HOLE, -1, 99,
		INT_MIN,
	};
	static const int falloc[] = {
		0, FALLOC_FL_KEEP_SIZE,
		FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		FALLOC_FL_ZERO_RANGE, FALLOC_FL_COLLAPSE_RANGE,
		FALLOC_FL_INSERT_RANGE, -1, 0x1000,
	};
	int fd = fd_of(w), f;
	ssize_t r;

	switch (below(w, 24)) {
	case 0: case 1:
		do_open(w);
		break;
	case 2:
		r = read(fd, buf, size(w));
		break;
	case 3:
		r = write(fd, buf, size(w));
		break;
	case 4:
		r = pread(fd, buf, size(w), offset(w));
		break;
	case 5:
		r = pread64(fd, buf, size(w), offset(w));
		break;
	case 6:
		r = pwrite(fd, buf, size(w), offset(w));
		break;
	case 7:
		r = pwrite64(fd, buf, size(w), offset(w));
		break;
	case 8:
		r = readv(fd, vec(w), iovcnt(w));
		break;
	case 9:
		r = writev(fd, vec(w), iovcnt(w));
		break;
	case 10:
		r = preadv(fd, vec(w), iovcnt(w), offset(w));
		break;
	case 11:
		r = pwritev(fd, vec(w), iovcnt(w), offset(w));
		break;
	case 12:
		rwflags(w, &f);
		r = preadv2(fd, vec(w), iovcnt(w), below(w, 3) ? offset(w) : -1,
			    f);
		break;
	case 13:
		rwflags(w, &f);
		r = pwritev2(fd, vec(w), iovcnt(w), below(w, 3) ? offset(w) : -1,
			     f);
		break;
	case 14:
		r = lseek(fd, offset(w), PICK(w, whence));
		break;
	case 15:
		r = lseek64(fd, offset(w), PICK(w, whence));
		break;
	case 16:
		r = below(w, 2) ? fsync(fd) : fdatasync(fd);
		break;
	case 17:
		r = sync_file_range(fd, offset(w), length(w),
				    below(w, 3) ? (unsigned)below(w, 8) :
						  (unsigned)next(w));
		break;
	case 18:
		r = below(w, 2) ? ftruncate(fd, below(w, 2) ? length(w) : offset(w)) :
				  ftruncate64(fd, length(w));
		break;
	case 19:
		r = fallocate(fd, PICK(w, falloc), offset(w), length(w));
		break;
	case 20:
		r = posix_fallocate(fd, offset(w), length(w));
		break;
	case 21:
		r = dup2(w->fds[below(w, POOL)], 3 + (int)below(w, 40));
		break;
	default:
		f = (int)below(w, POOL);
		r = close(below(w, 4) ? w->fds[f] : fd);
		w->fds[f] = -1;
		break;
	}
	(void)r;
}

/* The calls of issue 26 item 9, whose lines the reader refused. */
static void issue_calls(struct worker *w)
{
	volatile int minus_one = -1;	/* not a constant the compiler checks */
	char p[PATH_MAX + 8];
	int fd;

	snprintf(p, sizeof(p), "%s/f0", w->dir);
	fd = open(p, O_RDWR | O_CREAT, 0644);
	if (fd < 0)
		return;
	if (pwrite(fd, buf, 100, -1) >= 0 || ftruncate(fd, -5) >= 0 ||
	    !posix_fallocate(fd, 0, -1) ||
	    pwritev(fd, iov, minus_one, 0) >= 0)
		fprintf(stderr, "record_random: a call of issue 26 succeeded\n");
	close(fd);
}

static void *run(void *arg)
{
	struct worker *w = arg;
	long i;

	issue_calls(w);
	pthread_barrier_wait(&issued);
	for (i = 0; i < w->calls; i++)
		one_call(w);
	return NULL;
}

/* This process's two threads, seeds seed and seed + 1. */
static int work(const char *dir, uint64_t seed, long calls)
{
	struct worker w[2];
	pthread_t t;
	int i, k;

	for (i = 0; i < 2; i++) {
		w[i] = (struct worker){ dir, seed * 2 + (uint64_t)i + 1, calls,
					{ 0 } };
		for (k = 0; k < POOL; k++)
			w[i].fds[k] = -1;
	}
	if (pthread_barrier_init(&issued, NULL, 2) ||
	    pthread_create(&t, NULL, run, &w[1]))
		return 1;
	run(&w[0]);
	pthread_join(t, NULL);
	return 0;
}

int main(int argc, char **argv)
{
	char p[PATH_MAX + 8], seed[32], n[32], *dir;
	long calls;
	pid_t kids[2];
	int i, fd;

	if (argc == 5 && !strcmp(argv[1], "--worker"))
		return work(argv[2], strtoull(argv[3], NULL, 10),
			    strtol(argv[4], NULL, 10));
	if (argc != 4) {
		fprintf(stderr, "usage: record_random DIR SEED CALLS\n");
		return 2;
	}
	calls = strtol(argv[3], NULL, 10);
	/* relative paths (openat's "f1") land in DIR too */
	dir = realpath(argv[1], NULL);
	if (!dir || chdir(dir)) {
		perror(argv[1]);
		return 1;
	}
	memset(buf, 'x', sizeof(buf));
	for (i = 0; i < IOV_MAX + 2; i++)
		iov[i] = (struct iovec){ buf + 16 * (i % 64), 16 };
	for (i = 0; i < NFILES; i++) {
		snprintf(p, sizeof(p), "%s/f%d", dir, i);
		fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || write(fd, buf, 8192) != 8192) {
			perror(p);
			return 1;
		}
		close(fd);
	}
	for (i = 0; i < 2; i++) {
		fflush(NULL);
		kids[i] = fork();
		if (kids[i] < 0)
			return 1;
		if (kids[i])
			continue;
		snprintf(seed, sizeof(seed), "%llu",
			 strtoull(argv[2], NULL, 10) * 3 + (unsigned)i + 1);
		if (i == 0) {
			snprintf(n, sizeof(n), "%ld", calls);
			execl("/proc/self/exe", argv[0], "--worker", dir,
			      seed, n, (char *)NULL);
			_exit(127);
		}
		_exit(work(dir, strtoull(seed, NULL, 10), calls));
	}
	work(dir, strtoull(argv[2], NULL, 10) * 3, calls);
	for (i = 0; i < 2; i++)
		waitpid(kids[i], NULL, 0);
	return 0;
}
