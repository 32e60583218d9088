/* precondition.c - SNIA PTS workload-independent preconditioning
 * (precondition.h). */
#include "core/precondition.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gen/prng.h"
#include "core/signals.h"
#include "core/spec.h"
#include "core/workload.h"


int precondition_check(const struct workload *wls, size_t n,
		       const struct run_opts *run)
{
	size_t k;

	if (!run->precondition)
		return 0;
	for (k = 0; k < n; k++)
		if (wls[k].spec.directory || wls[k].spec.files) {
			fprintf(stderr, "rebench: --precondition with many files (workload %zu, %s): not supported yet (it writes one target's region twice); precondition the device under the files with a run of its own, or leave --precondition out\n",
				k + 1, wls[k].spec.target);
			return -EINVAL;
		}
	for (k = 0; k < n; k++)
		if (!spec_is_destructive(&wls[k].spec)) {
			/* targets are not probed yet: the name is the spec's */
			const char *name = wls[k].spec.target ?
					   wls[k].spec.target : "";

			fprintf(stderr, "rebench: --precondition writes each workload's region, and workload %zu%s%s%s only reads, so its target was checked for reading only; give it writes (-o write, or a mix with writes), or precondition with a write run first\n",
				k + 1, name[0] ? " (" : "", name,
				name[0] ? ")" : "");
			return -EINVAL;
		}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Write [start, start + len) of path PRECONDITION_PASSES times in order. */
static int write_region(const char *path, uint64_t start, uint64_t len,
			void *buf)
{
	int fd = open(path, O_WRONLY | O_DIRECT | O_CLOEXEC), pass, e = 0;
	bool direct = fd >= 0;
	uint64_t off;

	if (fd < 0)
		fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	for (pass = 0; pass < PRECONDITION_PASSES; pass++) {
		for (off = 0; off < len; off += PRECONDITION_BLOCK) {
			size_t n = len - off < PRECONDITION_BLOCK ?
				   (size_t)(len - off) : PRECONDITION_BLOCK;
			ssize_t w;

			if (signals_stop_requested()) {
				close(fd);
				return -EINTR;
			}
			w = pwrite(fd, buf, n, (off_t)(start + off));
			if (w != (ssize_t)n) {
				e = w < 0 ? errno : EIO;
				goto fail_close;
			}
		}
	}
	if (!direct && fsync(fd)) {
		e = errno;
		goto fail_close;
	}
	close(fd);
	return 0;
fail_close:
	close(fd);
	errno = e;
fail:
	fprintf(stderr, "rebench: --precondition: cannot write %s: %s; nothing was measured\n",
		path, strerror(errno));
	return -EIO;
}

int precondition_run(struct precond_memo *m, struct workload *wls, size_t n,
		     const struct run_opts *run)
{
	struct precond *done = m->done;
	struct prng r;
	uint64_t *buf;
	size_t k, j, i;
	int ret = 0;

	if (!run->precondition)
		return 0;
	if (m->ran) {
		for (k = 0; k < n && k < MAX_WORKLOADS; k++)
			wls[k].result.precond = done[k];
		return 0;
	}
	if (posix_memalign((void **)&buf, 4096, PRECONDITION_BLOCK))
		return -EIO;
	prng_seed(&r, 0x9c0dULL, 1);
	for (i = 0; i < PRECONDITION_BLOCK / sizeof(*buf); i++)
		buf[i] = prng_next(&r);
	for (k = 0; k < n && k < MAX_WORKLOADS && !ret; k++) {
		const struct spec *s = &wls[k].spec;
		double t0;

		for (j = 0; j < k; j++)	/* a region written already */
			if (!strcmp(wls[j].tgt.path, wls[k].tgt.path) &&
			    wls[j].spec.region_start == s->region_start &&
			    wls[j].spec.region_len == s->region_len)
				break;
		if (j < k) {
			done[k] = done[j];
			wls[k].result.precond = done[k];
			continue;
		}
		t0 = now_s();
		ret = write_region(wls[k].tgt.path, s->region_start,
				   s->region_len, buf);
		done[k] = (struct precond){ true,
			PRECONDITION_PASSES * s->region_len, now_s() - t0 };
		wls[k].result.precond = done[k];
	}
	free(buf);
	m->ran = !ret;
	return ret;
}
