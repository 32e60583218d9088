/* bareloop.c - the floor for `make bench`: issue the same random O_DIRECT
 * reads as rebench, the same way (pread, libaio or io_uring with the same
 * depth and batching), with nothing else: no per-I/O timing, statistics or
 * checks beyond the result.  It reads the clock only at start and end; a
 * SIGALRM flag stops it.
 *
 *   bareloop DEVICE psync|libaio|io_uring SECONDS BS DEPTH BATCH
 *
 * Prints "iops N" on stdout.
 */
#include <errno.h>
#include <fcntl.h>
#ifdef HAVE_LIBAIO
#include <libaio.h>
#endif
#ifdef HAVE_LIBURING
#include <liburing.h>
#endif
#include <linux/fs.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "../src/prng.h"

static volatile sig_atomic_t done;

static void on_alarm(int sig)
{
	(void)sig;
	done = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "bareloop: %s: %s\n", what, strerror(err));
	exit(1);
}

static unsigned long long run_psync(int fd, void *buf, size_t bs,
				    uint64_t slots, struct prng *r)
{
	unsigned long long n = 0;

	while (!done) {
		if (pread(fd, buf, bs, (off_t)(prng_below(r, slots) * bs)) != (ssize_t)bs)
			die("pread", errno);
		n++;
	}
	return n;
}

#ifdef HAVE_LIBAIO
static unsigned long long run_libaio(int fd, char *bufs, size_t bs,
				     uint64_t slots, struct prng *r,
				     unsigned depth, unsigned batch)
{
	struct iocb *iocbs = calloc(depth, sizeof(*iocbs));
	struct iocb **free_list = calloc(depth, sizeof(*free_list));
	struct iocb **staged = calloc(batch, sizeof(*staged));
	struct io_event *ev = calloc(depth, sizeof(*ev));
	unsigned long long n = 0;
	unsigned nfree = depth, inflight = 0, i;
	io_context_t ctx = 0;
	int ret;

	if (io_setup((int)depth, &ctx))
		die("io_setup", errno);
	for (i = 0; i < depth; i++)
		free_list[i] = &iocbs[i];
	for (;;) {
		while (!done && nfree >= batch) {
			for (i = 0; i < batch; i++) {
				struct iocb *cb = free_list[--nfree];
				size_t idx = (size_t)(cb - iocbs);

				io_prep_pread(cb, fd, bufs + idx * bs, bs,
					      (long long)(prng_below(r, slots) * bs));
				staged[i] = cb;
			}
			ret = io_submit(ctx, (long)batch, staged);
			if (ret != (int)batch)
				die("io_submit", ret < 0 ? -ret : EAGAIN);
			inflight += batch;
		}
		if (!inflight)
			break;
		do {
			ret = io_getevents(ctx, inflight < batch ? inflight : batch,
					   depth, ev, NULL);
		} while (ret == -EINTR);
		if (ret < 0)
			die("io_getevents", -ret);
		for (i = 0; i < (unsigned)ret; i++) {
			if (ev[i].res != bs)
				die("aio read", EIO);
			free_list[nfree++] = ev[i].obj;
		}
		inflight -= (unsigned)ret;
		n += (unsigned long long)ret;
	}
	io_destroy(ctx);
	return n;
}

#endif

#ifdef HAVE_LIBURING
static unsigned long long run_uring(int fd, char *bufs, size_t bs,
				    uint64_t slots, struct prng *r,
				    unsigned depth, unsigned batch)
{
	unsigned *free_list = calloc(depth, sizeof(*free_list));
	struct iovec *iov = calloc(depth, sizeof(*iov));
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	unsigned long long n = 0;
	unsigned nfree = depth, inflight = 0, i, head, seen;
	int ret;

	{
		/* the same set-up as rebench's uring engine */
		struct io_uring_params p = {
			.flags = IORING_SETUP_SINGLE_ISSUER |
				 IORING_SETUP_DEFER_TASKRUN,
		};

		ret = io_uring_queue_init_params(depth, &ring, &p);
		if (ret == -EINVAL) {
			memset(&p, 0, sizeof(p));
			ret = io_uring_queue_init_params(depth, &ring, &p);
		}
	}
	if (ret)
		die("io_uring_queue_init", -ret);
	for (i = 0; i < depth; i++) {
		free_list[i] = i;
		iov[i].iov_base = bufs + (size_t)i * bs;
		iov[i].iov_len = bs;
	}
	if (io_uring_register_buffers(&ring, iov, depth))
		die("io_uring_register_buffers", EINVAL);
	if (io_uring_register_files(&ring, &fd, 1))
		die("io_uring_register_files", EINVAL);
	for (;;) {
		while (!done && nfree >= batch) {
			for (i = 0; i < batch; i++) {
				struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
				unsigned idx = free_list[--nfree];

				io_uring_prep_read_fixed(sqe, 0, iov[idx].iov_base,
							 (unsigned)bs,
							 prng_below(r, slots) * bs,
							 (int)idx);
				sqe->flags |= IOSQE_FIXED_FILE;
				io_uring_sqe_set_data64(sqe, idx);
			}
			ret = io_uring_submit_and_get_events(&ring);
			if (ret != (int)batch)
				die("io_uring_submit", ret < 0 ? -ret : EAGAIN);
			inflight += batch;
		}
		if (!inflight)
			break;
		do {
			ret = io_uring_wait_cqe_nr(&ring, &cqe,
						   inflight < batch ? inflight : batch);
		} while (ret == -EINTR);
		if (ret)
			die("io_uring_wait_cqe_nr", -ret);
		seen = 0;
		io_uring_for_each_cqe(&ring, head, cqe) {
			if (cqe->res != (int)bs)
				die("uring read", cqe->res < 0 ? -cqe->res : EIO);
			free_list[nfree++] = (unsigned)cqe->user_data;
			seen++;
		}
		io_uring_cq_advance(&ring, seen);
		inflight -= seen;
		n += seen;
	}
	io_uring_queue_exit(&ring);
	return n;
}
#endif

int main(int argc, char **argv)
{
	unsigned long long n;
	unsigned depth, batch;
	uint64_t size, slots;
	struct prng r;
	double secs, t0, t1;
	size_t bs;
	char *bufs;
	int fd;

	if (argc != 7) {
		fprintf(stderr, "usage: bareloop DEVICE psync|libaio|io_uring SECONDS BS DEPTH BATCH\n");
		return 2;
	}
	secs = atof(argv[3]);
	bs = strtoul(argv[4], NULL, 0);
	depth = (unsigned)strtoul(argv[5], NULL, 0);
	batch = (unsigned)strtoul(argv[6], NULL, 0);
	if (!bs || !depth || !batch || batch > depth) {
		fprintf(stderr, "bareloop: need BS > 0 and 0 < BATCH <= DEPTH\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (fd < 0)
		die(argv[1], errno);
	if (ioctl(fd, BLKGETSIZE64, &size))
		die("BLKGETSIZE64", errno);
	slots = size / bs;
	if (posix_memalign((void **)&bufs, 4096, bs * depth))
		die("posix_memalign", ENOMEM);
	memset(bufs, 0, bs * depth);
	prng_seed(&r, 1, 0);
	signal(SIGALRM, on_alarm);
	alarm((unsigned)secs);
	t0 = now_s();
	if (!strcmp(argv[2], "psync"))
		n = run_psync(fd, bufs, bs, slots, &r);
#ifdef HAVE_LIBAIO
	else if (!strcmp(argv[2], "libaio"))
		n = run_libaio(fd, bufs, bs, slots, &r, depth, batch);
#endif
#ifdef HAVE_LIBURING
	else if (!strcmp(argv[2], "io_uring"))
		n = run_uring(fd, bufs, bs, slots, &r, depth, batch);
#endif
	else {
		fprintf(stderr, "bareloop: unknown engine %s\n", argv[2]);
		return 2;
	}
	t1 = now_s();
	printf("iops %.0f\n", (double)n / (t1 - t0));
	return 0;
}
