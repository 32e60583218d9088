/* test_run.c - the hot loop's error paths (src/core/run.c), driven through
 * run_workloads() with fake engines that fail the Nth I/O.
 *
 * What must hold: the run stops at the first failure; no completion
 * counts as a success after it (so the result holds exactly the I/Os
 * before it); the message names the operation, its own size and offset
 * (a short transfer with its byte counts, a flush without either); an
 * asynchronous engine's failed I/O among a batch of good ones is found.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gen/mix.h"
#include "gen/stream.h"
#include "core/workload.h"

#define FAIL_AT 5		/* the fake engines fail their 5th I/O */
#define QD 4

static unsigned calls;
static ssize_t fail_res;	/* what the 5th I/O returns */

static ssize_t fake_sync_io(struct io_ctx *io, int kind, uint64_t off,
			    size_t len)
{
	(void)io, (void)kind, (void)off;
	return ++calls == FAIL_AT ? fail_res : (ssize_t)len;
}

static const struct engine_ops fake_sync = {
	.name = "fakesync",
	.summary = "fails its 5th I/O",
	.flags = ENGINE_SYNC,
	.sync_io = fake_sync_io,
};

/* async: every staged unit completes at the next reap, in order */
static struct io_unit *staged[QD], *flight[QD];
static unsigned nstaged, nflight;

static int fake_queue(struct io_ctx *io, struct io_unit *u)
{
	(void)io;
	staged[nstaged++] = u;
	return 0;
}

static int fake_commit(struct io_ctx *io)
{
	(void)io;
	while (nstaged)
		flight[nflight++] = staged[--nstaged];
	return 0;
}

static int fake_reap(struct io_ctx *io, unsigned min, struct io_unit **done)
{
	unsigned i, n = nflight;

	(void)io, (void)min;
	for (i = 0; i < n; i++) {
		struct io_unit *u = flight[i];

		u->res = ++calls == FAIL_AT ? fail_res : (int64_t)u->len;
		done[i] = u;
	}
	nflight = 0;
	return (int)n;
}

static const struct engine_ops fake_async = {
	.name = "fakeasync",
	.summary = "fails its 5th I/O",
	.flags = ENGINE_ASYNC,
	.queue = fake_queue,
	.commit = fake_commit,
	.reap = fake_reap,
};

/* One workload of one thread as prepare.c would make it, on no target. */
static void make(struct workload *wl, const struct engine_ops *e,
		 const char *ops)
{
	struct worker *w;
	char err[256];
	unsigned i;

	memset(wl, 0, sizeof(*wl));
	assert_int_equal(workload_result_alloc(wl), 0);
	spec_defaults(&wl->spec);
	wl->spec.seq = 1;	/* no distribution to fit */
	wl->spec.bs = 4096;
	wl->spec.qd = e->flags & ENGINE_ASYNC ? QD : 1;
	wl->spec.batch = 1;
	wl->spec.threads = 1;
	wl->spec.time_limit_ns = 10ULL * NSEC_PER_SEC;
	if (mix_parse_ops(ops, &wl->spec.op, &wl->spec.opmix, err, sizeof(err)))
		fail_msg("%s: %s", ops, err);
	wl->run.eng = e;
	strcpy(wl->tgt.path, "/dev/fake");
	wl->run.workers = calloc(1, sizeof(*wl->run.workers));
	assert_non_null(wl->run.workers);
	w = &wl->run.workers[0];
	w->wl = wl;
	w->io.qd = (unsigned)wl->spec.qd;
	w->io.batch = 1;
	w->io.bs = 4096;
	w->io.units = calloc(QD, sizeof(*w->io.units));
	w->free_units = calloc(QD, sizeof(*w->free_units));
	w->done_units = calloc(QD, sizeof(*w->done_units));
	assert_true(w->io.units && w->free_units && w->done_units);
	for (i = 0; i < QD; i++)
		w->io.units[i].idx = i;
	{
		struct synth_params p = {
			.region_start = 0, .region_len = 1 << 20, .bs = 4096,
			.stride = 4096, .ops = &wl->spec.opmix, .seed = 1,
			.nthreads = 1,
		};

		stream_synth_init(&w->stream, &p);
	}
	assert_int_equal(thread_stats_init(&w->st, NSEC_PER_SEC,
					   wl->spec.time_limit_ns, false), 0);
	if (__builtin_popcount(mix_kinds(&wl->spec.opmix)) > 1)
		assert_int_equal(thread_stats_track_kinds(&w->st,
					mix_kinds(&wl->spec.opmix)), 0);
	calls = 0;
	nstaged = nflight = 0;
}

static void unmake(struct workload *wl)
{
	struct worker *w = &wl->run.workers[0];
	int i;

	for (i = 0; i < wl->result.nwarn; i++)	/* the too-few-I/Os warning */
		free(wl->result.warnings[i]);
	thread_stats_free(&w->st);
	result_free(wl->result.stats);
	free(wl->result.stats);
	free(w->io.units);
	free(w->free_units);
	free(w->done_units);
	free(wl->run.workers);
}

static void run(struct workload *wl)
{
	bool interrupted;

	assert_int_equal(run_workloads(wl, 1, 0, NULL, &interrupted), -EIO);
	assert_false(interrupted);
	assert_true(wl->result.have_result);
}

static void must_say(const struct workload *wl, const char *words)
{
	if (!strstr(wl->result.errmsg, words))
		fail_msg("message '%s' lacks '%s'", wl->result.errmsg, words);
}

static void test_sync_error(void **state)
{
	struct workload wl;

	(void)state;
	fail_res = -EIO;
	make(&wl, &fake_sync, "write");
	run(&wl);
	assert_int_equal(wl.result.error, -EIO);
	assert_int_equal(calls, FAIL_AT);	/* nothing after it */
	assert_int_equal(wl.result.stats->ops_total, FAIL_AT - 1);
	assert_int_equal(wl.result.stats->bytes, (FAIL_AT - 1) * 4096);
	must_say(&wl, "write of 4096 bytes at offset 16384 of /dev/fake failed in thread 0");
	must_say(&wl, "Input/output error");
	unmake(&wl);
}

static void test_sync_short(void **state)
{
	struct workload wl;

	(void)state;
	fail_res = 1000;
	make(&wl, &fake_sync, "read");
	run(&wl);
	assert_int_equal(wl.result.stats->ops_total, FAIL_AT - 1);
	must_say(&wl, "short read: 1000 of 4096 bytes");
	unmake(&wl);
}

/* A flush has no size or offset to name. */
static void test_sync_flush_error(void **state)
{
	struct workload wl;

	(void)state;
	fail_res = -EIO;
	make(&wl, &fake_sync, "fsync");
	run(&wl);
	assert_int_equal(wl.result.stats->ops[IO_FSYNC], FAIL_AT - 1);
	must_say(&wl, "fsync of /dev/fake failed in thread 0");
	assert_null(strstr(wl.result.errmsg, "offset"));
	unmake(&wl);
}

/* The 5th completion fails amid others of the same reap: the ones reaped
 * after it are not counted, the ones before are. */
static void test_async_error(void **state)
{
	struct workload wl;

	(void)state;
	fail_res = -EIO;
	make(&wl, &fake_async, "read/50:write/50");
	run(&wl);
	assert_int_equal(wl.result.error, -EIO);
	assert_int_equal(wl.result.stats->ops_total, FAIL_AT - 1);
	assert_int_equal(wl.result.stats->ops[IO_READ] + wl.result.stats->ops[IO_WRITE],
			 FAIL_AT - 1);
	must_say(&wl, " of 4096 bytes at offset ");
	must_say(&wl, "failed in thread 0: Input/output error");
	unmake(&wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sync_error),
		cmocka_unit_test(test_sync_short),
		cmocka_unit_test(test_sync_flush_error),
		cmocka_unit_test(test_async_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
