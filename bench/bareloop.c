/* bareloop.c - the floor for `make bench`: issue the same random O_DIRECT
 * reads as rebench, the same way (pread, libaio or io_uring with the same
 * depth and batching), with nothing else: no statistics, no checks beyond
 * the result.  A SIGALRM flag stops it (an interval timer, so SECONDS may
 * be fractional).
 *
 *   bareloop DEVICE psync|libaio|io_uring SECONDS BS DEPTH BATCH [untimed|timed] [IOS]
 *
 * IOS > 0 stops after IOS I/Os (SECONDS is then only a time-out), a whole
 * number of batches for libaio and io_uring: bench/instructions.sh counts
 * the loop's instructions per I/O under callgrind from two such lengths.
 * untimed (the default) reads the clock only at start and end.  timed
 * reads CLOCK_MONOTONIC where rebench's hot loop does (src/core/run.c) and
 * nowhere else: around each pread (two reads per I/O); for libaio and
 * io_uring once per submitted batch and once per reaped batch, the submit
 * time kept per slot.  Each latency (completion - submit) is added to a sum,
 * so the clock reads are used as rebench uses them, minus its statistics.
 * rebench / timed is then the cost of rebench's own bookkeeping (offset
 * generation, statistics, engine indirection); timed / untimed that of the
 * clock reads.
 *
 * Prints "iops N ios I" on stdout (ops/s and I/Os done), then
 * " mean_lat_ns M" when timed.
 */
#include <errno.h>

#include "config.h"
#include <fcntl.h>
#ifdef HAVE_LIBAIO
#include <libaio.h>
#endif
#ifdef HAVE_LIBURING
#include <liburing.h>
#endif
#include <linux/fs.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "../src/gen/prng.h"

static volatile sig_atomic_t done;

/* I/Os to do at most (IOS); time-based runs: no limit */
static unsigned long long max_ios = ~0ULL;

/* timed: the sum of the latencies measured (completion - submit, ns) */
static uint64_t lat_sum;

static void on_alarm(int sig)
{
	(void)sig;
	done = 1;
}

/* The same clock read as rebench's now_ns() in src/core/run.c. */
static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
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

	while (!done && n < max_ios) {
		if (pread(fd, buf, bs, (off_t)(prng_below(r, slots) * bs)) != (ssize_t)bs)
			die("pread", errno);
		n++;
	}
	return n;
}

/* Two clock reads around each pread, as rebench's run_sync(). */
static unsigned long long run_psync_timed(int fd, void *buf, size_t bs,
					  uint64_t slots, struct prng *r)
{
	unsigned long long n = 0;
	uint64_t t0, t1, off;

	while (!done && n < max_ios) {
		off = prng_below(r, slots) * bs;
		t0 = now_ns();
		if (pread(fd, buf, bs, (off_t)off) != (ssize_t)bs)
			die("pread", errno);
		t1 = now_ns();
		lat_sum += t1 - t0;
		n++;
	}
	return n;
}

#ifdef HAVE_LIBAIO
static unsigned long long run_libaio(int fd, char *bufs, size_t bs,
				     uint64_t slots, struct prng *r,
				     unsigned depth, unsigned batch, bool timed)
{
	uint64_t *t_sub = calloc(depth, sizeof(*t_sub)), t;
	struct iocb *iocbs = calloc(depth, sizeof(*iocbs));
	struct iocb **free_list = calloc(depth, sizeof(*free_list));
	struct iocb **staged = calloc(batch, sizeof(*staged));
	struct io_event *ev = calloc(depth, sizeof(*ev));
	unsigned long long n = 0, sub = 0;
	unsigned nfree = depth, inflight = 0, i;
	io_context_t ctx = 0;
	int ret;

	if (!t_sub || !iocbs || !free_list || !staged || !ev)
		die("calloc", ENOMEM);

	if (io_setup((int)depth, &ctx))
		die("io_setup", errno);
	for (i = 0; i < depth; i++)
		free_list[i] = &iocbs[i];
	for (;;) {
		while (!done && nfree >= batch && sub + batch <= max_ios) {
			for (i = 0; i < batch; i++) {
				struct iocb *cb = free_list[--nfree];
				size_t idx = (size_t)(cb - iocbs);

				io_prep_pread(cb, fd, bufs + idx * bs, bs,
					      (long long)(prng_below(r, slots) * bs));
				staged[i] = cb;
			}
			if (timed) {
				t = now_ns();
				for (i = 0; i < batch; i++)
					t_sub[staged[i] - iocbs] = t;
			}
			ret = io_submit(ctx, (long)batch, staged);
			if (ret != (int)batch)
				die("io_submit", ret < 0 ? -ret : EAGAIN);
			inflight += batch;
			sub += batch;
		}
		if (!inflight)
			break;
		do {
			ret = io_getevents(ctx, inflight < batch ? inflight : batch,
					   depth, ev, NULL);
		} while (ret == -EINTR);
		if (ret < 0)
			die("io_getevents", -ret);
		t = timed ? now_ns() : 0;
		for (i = 0; i < (unsigned)ret; i++) {
			if (ev[i].res != bs)
				die("aio read", EIO);
			if (timed)
				lat_sum += t - t_sub[ev[i].obj - iocbs];
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
				    unsigned depth, unsigned batch, bool timed)
{
	uint64_t *t_sub = calloc(depth, sizeof(*t_sub)), t;
	unsigned *free_list = calloc(depth, sizeof(*free_list));
	struct iovec *iov = calloc(depth, sizeof(*iov));
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	unsigned long long n = 0, sub = 0;
	unsigned nfree = depth, inflight = 0, i, head, seen;
	int ret;

	if (!t_sub || !free_list || !iov)
		die("calloc", ENOMEM);

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
		while (!done && nfree >= batch && sub + batch <= max_ios) {
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
			if (timed) {
				t = now_ns();
				for (i = 0; i < batch; i++)
					t_sub[free_list[nfree + i]] = t;
			}
			ret = io_uring_submit_and_get_events(&ring);
			if (ret != (int)batch)
				die("io_uring_submit", ret < 0 ? -ret : EAGAIN);
			inflight += batch;
			sub += batch;
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
		t = timed ? now_ns() : 0;
		io_uring_for_each_cqe(&ring, head, cqe) {
			if (cqe->res != (int)bs)
				die("uring read", cqe->res < 0 ? -cqe->res : EIO);
			if (timed)
				lat_sum += t - t_sub[cqe->user_data];
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
	struct itimerval stop = { { 0, 0 }, { 0, 0 } };
	unsigned long long n;
	unsigned depth, batch;
	uint64_t size, slots, t0, t1;
	struct prng r;
	double secs;
	bool timed;
	size_t bs;
	char *bufs;
	int fd;

	if (argc < 7 || argc > 9) {
		fprintf(stderr, "usage: bareloop DEVICE psync|libaio|io_uring SECONDS BS DEPTH BATCH [untimed|timed] [IOS]\n");
		return 2;
	}
	secs = atof(argv[3]);
	bs = strtoul(argv[4], NULL, 0);
	depth = (unsigned)strtoul(argv[5], NULL, 0);
	batch = (unsigned)strtoul(argv[6], NULL, 0);
	if (!(secs > 0) || !bs || !depth || !batch || batch > depth) {
		fprintf(stderr, "bareloop: need SECONDS > 0, BS > 0 and 0 < BATCH <= DEPTH\n");
		return 2;
	}
	timed = argc >= 8 && !strcmp(argv[7], "timed");
	if (argc >= 8 && !timed && strcmp(argv[7], "untimed")) {
		fprintf(stderr, "bareloop: the clock mode is untimed or timed, not %s\n", argv[7]);
		return 2;
	}
	if (argc == 9) {
		max_ios = strtoull(argv[8], NULL, 0);
		if (!max_ios || max_ios % batch) {
			fprintf(stderr, "bareloop: IOS must be a positive multiple of BATCH, not %s\n", argv[8]);
			return 2;
		}
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
	stop.it_value.tv_sec = (time_t)secs;
	stop.it_value.tv_usec = (suseconds_t)((secs - (double)(time_t)secs) * 1e6);
	if (setitimer(ITIMER_REAL, &stop, NULL))
		die("setitimer", errno);
	t0 = now_ns();
	if (!strcmp(argv[2], "psync"))
		n = timed ? run_psync_timed(fd, bufs, bs, slots, &r) :
			    run_psync(fd, bufs, bs, slots, &r);
#ifdef HAVE_LIBAIO
	else if (!strcmp(argv[2], "libaio"))
		n = run_libaio(fd, bufs, bs, slots, &r, depth, batch, timed);
#endif
#ifdef HAVE_LIBURING
	else if (!strcmp(argv[2], "io_uring"))
		n = run_uring(fd, bufs, bs, slots, &r, depth, batch, timed);
#endif
	else {
		fprintf(stderr, "bareloop: unknown engine %s\n", argv[2]);
		return 2;
	}
	t1 = now_ns();
	printf("iops %.0f ios %llu", (double)n * 1e9 / (double)(t1 - t0), n);
	if (timed)
		printf(" mean_lat_ns %.0f", n ? (double)lat_sum / (double)n : 0.0);
	printf("\n");
	return 0;
}
