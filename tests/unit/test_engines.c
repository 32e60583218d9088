/* test_engines.c - every I/O engine of the registry (src/engines/engine.c,
 * src/engines/) driven through its hooks, the way prepare.c sets an
 * io_ctx up and run.c drives it, against a temporary file.
 *
 * The file is 8 MiB of 4 KiB blocks; byte i of block b holds
 * pat_byte(b, i, 0), written with pwrite + fsync.  Per engine:
 *   read   the bytes of a set of blocks (first, last and scattered ones,
 *          some twice) come back exactly, every res/return is bs;
 *          async engines at qd 1 batch 1, qd 8 batch 4 and qd 8 batch 8;
 *   write  generation-1 patterns written through the engine to distinct
 *          blocks are what a plain pread finds after cleanup, and no other
 *          block changed (async: qd 1 batch 1 and qd 8 batch 4);
 *   trim   (engines that can discard) the trimmed blocks read as zeros.
 * An engine whose entry is .unavailable in this build is skipped with its
 * reason, as is one whose set-up the kernel refuses outright (ENOSYS,
 * EPERM: io_uring disabled), so a build without liburing or libaio passes.
 * Also: the registry check and engine_lookup of names and fio aliases.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "config.h"
#include "engines/engine.h"
#include "core/spec.h"

#define BS 4096U
#define FILE_BLOCKS 2048U		/* 8 MiB */
#define FILE_SIZE ((uint64_t)BS * FILE_BLOCKS)
#define MAX_QD 8U
#define MAX_IOS 96U
#define WATCHDOG_S 60

/* Byte i of block blk in generation gen (0: the file as created, 1:
 * written by an engine).  Never constant over a block, differs between
 * blocks and between generations, and is never all zeros (trim). */
static uint8_t pat_byte(uint64_t blk, size_t i, unsigned gen)
{
	uint32_t x = (uint32_t)(blk + 1) * 2654435761u ^
		     (uint32_t)i * 40503u ^ (gen + 1) * 0x9e3779b9u;

	x ^= x >> 15;
	x *= 0x2c1b3c6du;
	x ^= x >> 12;
	return (uint8_t)(x | 1);
}

static void fill_block(unsigned char *buf, uint64_t blk, unsigned gen)
{
	size_t i;

	for (i = 0; i < BS; i++)
		buf[i] = pat_byte(blk, i, gen);
}

/* buf must be block blk of generation gen (gen < 0: all zeros). */
static void check_block(const char *eng, const char *what,
			const unsigned char *buf, uint64_t blk, int gen)
{
	size_t i;

	for (i = 0; i < BS; i++) {
		uint8_t want = gen < 0 ? 0 : pat_byte(blk, i, (unsigned)gen);

		if (buf[i] != want)
			fail_msg("%s: %s: block %llu (offset %llu) byte %zu is 0x%02x, expected 0x%02x (generation %d)",
				 eng, what, (unsigned long long)blk,
				 (unsigned long long)blk * BS, i, buf[i], want,
				 gen);
	}
}

enum case_op { CASE_READ, CASE_WRITE, CASE_TRIM, CASE_FLUSH };

/* CASE_FLUSH: writes with an fsync and an fdatasync among every 8 I/Os;
 * a flush repeats the block before it, so the file's contents are those
 * of the writes alone. */
#define KIND_WRITE_FLUSH 100

static int kind_at(int kind, size_t k)
{
	if (kind != KIND_WRITE_FLUSH)
		return kind;
	return k % 8 == 3 ? IO_FSYNC : k % 8 == 7 ? IO_FDATASYNC : IO_WRITE;
}

struct engine_case {
	int engine;		/* registry index */
	enum case_op op;
	unsigned qd, batch;
	char name[64];
};

/* One case's temporary file; torn down whatever the case did. */
struct fixture {
	const struct engine_case *c;
	char path[64];
	int plain_fd;		/* for laying out and checking: no O_DIRECT */
};

static int case_setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	unsigned char *chunk;
	uint64_t b;
	int fd;

	if (!fx)
		return -1;
	fx->c = *state;
	fx->plain_fd = -1;
	snprintf(fx->path, sizeof(fx->path), "/tmp/rebench-engines.XXXXXX");
	fd = mkstemp(fx->path);
	if (fd < 0) {
		print_error("mkstemp %s: %s\n", fx->path, strerror(errno));
		free(fx);
		return -1;
	}
	fx->plain_fd = fd;
	*state = fx;
	chunk = malloc(BS * 256);
	if (!chunk)
		return -1;
	for (b = 0; b < FILE_BLOCKS; b++) {
		fill_block(chunk + (b % 256) * BS, b, 0);
		if (b % 256 == 255 &&
		    pwrite(fd, chunk, BS * 256, (off_t)((b - 255) * BS)) !=
		    (ssize_t)(BS * 256)) {
			print_error("pwrite %s: %s\n", fx->path, strerror(errno));
			free(chunk);
			return -1;
		}
	}
	free(chunk);
	if (fsync(fd)) {
		print_error("fsync %s: %s\n", fx->path, strerror(errno));
		return -1;
	}
	return 0;
}

static int case_teardown(void **state)
{
	struct fixture *fx = *state;

	if (fx) {
		if (fx->plain_fd >= 0)
			close(fx->plain_fd);
		unlink(fx->path);
		free(fx);
	}
	return 0;
}

/* The engine's side of a case: descriptor and io_ctx as prepare.c makes
 * them, and whether init succeeded (cleanup is then due). */
struct rig {
	const struct engine_ops *e;
	struct io_ctx io;
	bool ready;
	bool skipped;
	char skip_reason[320];
};

static void rig_cleanup(struct rig *r)
{
	if (r->ready && r->e->cleanup)
		r->e->cleanup(&r->io);
	r->ready = false;
	if (r->io.fd >= 0)
		close(r->io.fd);
	r->io.fd = -1;
	free(r->io.buf);
	free(r->io.units);
	r->io.buf = NULL;
	r->io.units = NULL;
}

/* Open like open_flags() in prepare.c, fill the io_ctx like prepare_worker()
 * and prepare_units(), then init and thread_start.  On failure the rig is
 * cleaned up and the case fails (or is marked skipped). */
static void rig_open(struct rig *r, const struct fixture *fx)
{
	const struct engine_case *c = fx->c;
	const struct engine_ops *e = engine_get(c->engine);
	bool async = e->flags & ENGINE_ASYNC;
	size_t align = (size_t)sysconf(_SC_PAGESIZE);
	unsigned n = async ? c->qd : 1, i;
	int flags = O_CLOEXEC, ret;

	memset(r, 0, sizeof(*r));
	r->e = e;
	r->io.fd = -1;
	flags |= c->op == CASE_READ ? O_RDONLY : O_RDWR;
	if (!(e->flags & ENGINE_NEEDS_PAGED))
		flags |= O_DIRECT;
	if (c->op == CASE_WRITE)
		flags |= O_DSYNC;
	r->io.flushes = c->op == CASE_FLUSH;
	r->io.fd = open(fx->path, flags);
	if (r->io.fd < 0)
		fail_msg("%s: open %s (flags 0x%x): %s", e->name, fx->path,
			 flags, strerror(errno));
	r->io.bs = BS;
	r->io.is_blkdev = false;
	r->io.writable = c->op != CASE_READ;
	r->io.flush = true;
	r->io.qd = async ? c->qd : 1;
	r->io.batch = async ? c->batch : 1;
	r->io.map_start = 0;
	r->io.map_len = FILE_SIZE;
	if (posix_memalign(&r->io.buf, align, (size_t)BS * n)) {
		rig_cleanup(r);
		fail_msg("%s: posix_memalign of %u buffers failed", e->name, n);
	}
	memset(r->io.buf, 0xee, (size_t)BS * n);
	r->io.wbuf = r->io.buf;	/* writes carry what the test puts there */
	if (async) {
		r->io.units = calloc(n, sizeof(*r->io.units));
		if (!r->io.units) {
			rig_cleanup(r);
			fail_msg("%s: out of memory for units", e->name);
		}
		for (i = 0; i < n; i++) {
			r->io.units[i].idx = i;
			r->io.units[i].buf = (char *)r->io.buf + (size_t)i * BS;
			r->io.units[i].wbuf = r->io.units[i].buf;
		}
	}
	if (e->init) {
		ret = e->init(&r->io);
		r->ready = true;	/* partial state to free, as prepare.c */
		if (ret == -ENOSYS || ret == -EPERM) {
			snprintf(r->skip_reason, sizeof(r->skip_reason),
				 "%s: the kernel refused set-up: %s",
				 e->name, r->io.err[0] ? r->io.err : strerror(-ret));
			r->skipped = true;
			rig_cleanup(r);
			return;
		}
		if (ret) {
			char err[sizeof(r->io.err)];

			memcpy(err, r->io.err, sizeof(err));
			rig_cleanup(r);
			fail_msg("%s: init (qd %u batch %u) failed: %d (%s) %s",
				 e->name, c->qd, c->batch, ret, strerror(-ret),
				 err);
		}
	}
	r->ready = true;
	if (r->io.note[0])
		print_message("[   NOTE   ] %s\n", r->io.note);
	if (e->thread_start) {
		ret = e->thread_start(&r->io);
		if (ret) {
			rig_cleanup(r);
			fail_msg("%s: thread_start failed: %d (%s)", e->name,
				 ret, strerror(-ret));
		}
	}
}

/* Sync engines: one call per block; every call returns bs. */
static void sync_ios(struct rig *r, const uint64_t *blocks, size_t n,
		     int kind)
{
	unsigned char *buf = r->io.buf;
	size_t k;
	ssize_t ret;

	for (k = 0; k < n; k++) {
		int kd = kind_at(kind, k);
		size_t len = IO_IS_FLUSH(kd) ? 0 : BS;

		if (kd == IO_WRITE)
			fill_block(buf, blocks[k], 1);
		else if (!IO_IS_FLUSH(kd))
			memset(buf, 0, BS);
		ret = r->e->sync_io(&r->io, kd, blocks[k] * BS, len);
		if (ret != (ssize_t)len) {
			rig_cleanup(r);
			fail_msg("%s: sync_io kind %d at offset %llu returned %zd (%s), expected %u",
				 r->e->name, kind,
				 (unsigned long long)blocks[k] * BS, ret,
				 ret < 0 ? strerror((int)-ret) : "short", BS);
		}
		if (kd == IO_READ)
			check_block(r->e->name, "sync read", buf, blocks[k], 0);
		else if (kd == IO_WRITE)
			/* the engine must not have touched the source */
			check_block(r->e->name, "write source buffer", buf,
				    blocks[k], 1);
	}
}

/*
 * Async engines, the way run_async() drives them: stage and commit whole
 * batches while a batch of units is free (the last one may be short), reap
 * at least a batch or all that remain.  Every I/O must complete exactly
 * once, with res == bs, on a unit that was in flight; reads must hold
 * their block's pattern.
 */
static void async_ios(struct rig *r, const uint64_t *blocks, size_t n,
		      int kind)
{
	const struct engine_ops *e = r->e;
	struct io_ctx *io = &r->io;
	const unsigned qd = io->qd, batch = io->batch;
	struct io_unit *free_units[MAX_QD], *done[MAX_QD];
	size_t req_of[MAX_QD], next = 0, completed = 0, k;
	unsigned seen[MAX_IOS] = { 0 };
	bool busy[MAX_QD] = { false };
	unsigned nfree = qd, inflight = 0, staged, i, min;
	int ret;

	assert_true(qd <= MAX_QD && n <= MAX_IOS && batch >= 1 && batch <= qd);
	for (i = 0; i < qd; i++)
		free_units[i] = &io->units[qd - 1 - i];
	while (completed < n) {
		while (next < n && nfree >= batch) {
			for (staged = 0; staged < batch && next < n; staged++) {
				struct io_unit *u = free_units[--nfree];

				u->kind = kind_at(kind, next);
				u->off = blocks[next] * BS;
				u->len = IO_IS_FLUSH(u->kind) ? 0 : BS;
				u->res = INT64_MIN;
				if (u->kind == IO_WRITE)
					fill_block(u->buf, blocks[next], 1);
				else if (!IO_IS_FLUSH(u->kind))
					memset(u->buf, 0, BS);
				req_of[u->idx] = next;
				busy[u->idx] = true;
				ret = e->queue(io, u);
				if (ret) {
					rig_cleanup(r);
					fail_msg("%s: queue of I/O %zu failed: %d (%s)",
						 e->name, next, ret, strerror(-ret));
				}
				next++;
			}
			ret = e->commit(io);
			if (ret) {
				rig_cleanup(r);
				fail_msg("%s: commit of %u I/Os failed: %d (%s)",
					 e->name, staged, ret, strerror(-ret));
			}
			inflight += staged;
		}
		min = inflight < batch ? inflight : batch;
		ret = e->reap(io, min, done);
		if (ret < 0 || (unsigned)ret < min || (unsigned)ret > inflight) {
			rig_cleanup(r);
			fail_msg("%s: reap(min %u) with %u in flight returned %d",
				 e->name, min, inflight, ret);
		}
		for (i = 0; i < (unsigned)ret; i++) {
			struct io_unit *u = done[i];

			if (u < io->units || u >= io->units + qd ||
			    !busy[u->idx]) {
				rig_cleanup(r);
				fail_msg("%s: reap returned a unit that was not in flight",
					 e->name);
			}
			busy[u->idx] = false;
			k = req_of[u->idx];
			seen[k]++;
			if (u->res != (int64_t)u->len) {
				int64_t res = u->res;

				rig_cleanup(r);
				fail_msg("%s: I/O %zu (kind %d) at offset %llu completed with res %lld (%s), expected %u",
					 e->name, k, u->kind,
					 (unsigned long long)blocks[k] * BS,
					 (long long)res,
					 res < 0 && res > -4096 ? strerror((int)-res) : "short",
					 u->len);
			}
			if (u->off != blocks[k] * BS) {
				rig_cleanup(r);
				fail_msg("%s: unit offset changed by the engine", e->name);
			}
			if (u->kind == IO_READ)
				check_block(e->name, "async read", u->buf,
					    blocks[k], 0);
			else if (u->kind == IO_WRITE)
				check_block(e->name, "write source buffer",
					    u->buf, blocks[k], 1);
			free_units[nfree++] = u;
		}
		inflight -= (unsigned)ret;
		completed += (size_t)ret;
	}
	assert_int_equal(inflight, 0);
	assert_int_equal(nfree, qd);
	for (k = 0; k < n; k++)
		if (seen[k] != 1)
			fail_msg("%s: I/O %zu completed %u times", e->name, k,
				 seen[k]);
}

static void engine_ios(struct rig *r, const uint64_t *blocks, size_t n,
		       int kind)
{
	if (r->e->flags & ENGINE_ASYNC)
		async_ios(r, blocks, n, kind);
	else
		sync_ios(r, blocks, n, kind);
}

/* Reads: first and last block, scattered ones, some twice. */
static size_t read_blocks(uint64_t *blocks)
{
	uint32_t x = 12345;
	size_t n = 0, k;

	blocks[n++] = 0;
	blocks[n++] = FILE_BLOCKS - 1;
	for (k = 0; k < 60; k++) {
		x = x * 1103515245u + 12345u;
		blocks[n++] = (x >> 8) % FILE_BLOCKS;
	}
	blocks[n++] = 0;
	blocks[n++] = FILE_BLOCKS - 1;
	return n;
}

/* Writes and trims: distinct blocks, so the final contents are known. */
static size_t write_blocks(uint64_t *blocks, size_t count)
{
	size_t n = 0, k;

	blocks[n++] = 0;
	blocks[n++] = FILE_BLOCKS - 1;
	for (k = 0; n < count; k++)
		blocks[n++] = (k * 37 + 5) % FILE_BLOCKS;	/* 5..1078 */
	return n;
}

/* After the engine is gone: written blocks hold want_gen, others gen 0. */
static void verify_file(const struct fixture *fx, const char *eng,
			const uint64_t *blocks, size_t n, int want_gen)
{
	static unsigned char buf[BS];
	uint64_t b;
	size_t k;
	int gen;

	for (b = 0; b < FILE_BLOCKS; b++) {
		if (pread(fx->plain_fd, buf, BS, (off_t)(b * BS)) != BS)
			fail_msg("%s: pread of block %llu: %s", eng,
				 (unsigned long long)b, strerror(errno));
		gen = 0;
		for (k = 0; k < n; k++)
			if (blocks[k] == b)
				gen = want_gen;
		check_block(eng, want_gen < 0 ? "pread after trim" :
			    "pread after write", buf, b, gen);
	}
}

static void test_engine_case(void **state)
{
	struct fixture *fx = *state;
	const struct engine_case *c = fx->c;
	const struct engine_ops *e = engine_get(c->engine);
	uint64_t blocks[MAX_IOS];
	struct rig r;
	size_t n;

	if (e->unavailable) {
		print_message("[   SKIP   ] %s: %s\n", e->name, e->unavailable);
		skip();
	}
	rig_open(&r, fx);
	if (r.skipped) {
		print_message("[   SKIP   ] %s\n", r.skip_reason);
		skip();
	}
	switch (c->op) {
	case CASE_READ:
		n = read_blocks(blocks);
		engine_ios(&r, blocks, n, IO_READ);
		rig_cleanup(&r);
		verify_file(fx, e->name, NULL, 0, 0);
		break;
	case CASE_WRITE:
		n = write_blocks(blocks, 34);
		engine_ios(&r, blocks, n, IO_WRITE);
		rig_cleanup(&r);
		verify_file(fx, e->name, blocks, n, 1);
		break;
	case CASE_FLUSH:
		/* every engine flushes: fsync and fdatasync complete with 0
		 * and the writes around them land */
		n = write_blocks(blocks, 34);
		for (size_t k = 1; k < n; k++)
			if (IO_IS_FLUSH(kind_at(KIND_WRITE_FLUSH, k)))
				blocks[k] = blocks[k - 1];
		engine_ios(&r, blocks, n, KIND_WRITE_FLUSH);
		rig_cleanup(&r);
		verify_file(fx, e->name, blocks, n, 1);
		break;
	case CASE_TRIM:
		n = write_blocks(blocks, 6);
		sync_ios(&r, blocks, n, IO_TRIM);
		rig_cleanup(&r);
		verify_file(fx, e->name, blocks, n, -1);
		break;
	}
}

static void test_registry_check(void **state)
{
	char err[256] = "";
	int i, n = engine_count();

	(void)state;
	if (engine_registry_check(err, sizeof(err)))
		fail_msg("engine_registry_check: %s", err);
	assert_true(n >= 6);
	assert_null(engine_get(-1));
	assert_null(engine_get(n));
	for (i = 0; i < n; i++) {
		const struct engine_ops *e = engine_get(i);
		unsigned kinds;

		assert_non_null(e);
		assert_non_null(e->name);
		assert_non_null(e->summary);
		assert_int_equal(engine_lookup(e->name), i);
		kinds = e->flags & (ENGINE_SYNC | ENGINE_ASYNC);
		if (kinds != ENGINE_SYNC && kinds != ENGINE_ASYNC)
			fail_msg("engine %s: exactly one of ENGINE_SYNC and ENGINE_ASYNC expected",
				 e->name);
		if (e->unavailable) {
			/* the reason tells what to install */
			if (!strstr(e->unavailable, "install"))
				fail_msg("engine %s: unavailable reason '%s' does not say what to install",
					 e->name, e->unavailable);
			continue;
		}
		if (e->flags & ENGINE_SYNC)
			assert_non_null(e->sync_io);
		if (e->flags & ENGINE_ASYNC) {
			assert_non_null(e->queue);
			assert_non_null(e->commit);
			assert_non_null(e->reap);
		}
	}
	/* the synchronous engines and mmap are always there */
	assert_null(engine_get(engine_lookup("stateful"))->unavailable);
	assert_null(engine_get(engine_lookup("stateless"))->unavailable);
	assert_null(engine_get(engine_lookup("mmap"))->unavailable);
	assert_null(engine_get(engine_lookup("paio"))->unavailable);
	assert_true(engine_get(engine_lookup("mmap"))->flags & ENGINE_NEEDS_PAGED);
	assert_true(engine_get(engine_lookup("stateful"))->flags & ENGINE_FILE_POS);
#ifdef HAVE_LIBAIO
	assert_null(engine_get(engine_lookup("naio"))->unavailable);
#else
	assert_non_null(strstr(engine_get(engine_lookup("naio"))->unavailable,
			       "libaio-dev"));
#endif
#ifdef HAVE_LIBURING
	assert_null(engine_get(engine_lookup("uring"))->unavailable);
#else
	assert_non_null(strstr(engine_get(engine_lookup("uring"))->unavailable,
			       "liburing-dev"));
#endif
}

static void test_lookup_aliases(void **state)
{
	static const char *const pairs[][2] = {
		{ "psync", "stateless" },
		{ "sync", "stateful" },
		{ "libaio", "naio" },
		{ "io_uring", "uring" },
		{ "posixaio", "paio" },
		{ "stateless", "stateless" },
		{ "stateful", "stateful" },
		{ "mmap", "mmap" },
		{ "naio", "naio" },
		{ "uring", "uring" },
		{ "paio", "paio" },
		{ "IO_URING", "uring" },	/* case does not matter */
		{ "Stateless", "stateless" },
	};
	size_t k;
	int i;

	(void)state;
	for (k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
		i = engine_lookup(pairs[k][0]);
		if (i < 0)
			fail_msg("engine_lookup(\"%s\") found nothing", pairs[k][0]);
		assert_string_equal(engine_get(i)->name, pairs[k][1]);
	}
	assert_int_equal(engine_lookup("fio"), -1);
	assert_int_equal(engine_lookup(""), -1);
	assert_int_equal(engine_lookup("uring "), -1);
	assert_int_equal(engine_lookup("psync2"), -1);
}

static void on_watchdog(int sig)
{
	static const char msg[] = "test_engines: an engine hook hung for 60 s; aborting\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0) {
		/* nothing more to do */
	}
	_exit(1);
}

static void add_case(struct engine_case *cases, size_t *n, int engine,
		     enum case_op op, unsigned qd, unsigned batch)
{
	static const char *const opname[] = { "read", "write", "trim", "flush" };
	struct engine_case *c = &cases[(*n)++];
	const struct engine_ops *e = engine_get(engine);

	c->engine = engine;
	c->op = op;
	c->qd = qd;
	c->batch = batch;
	if (e->flags & ENGINE_ASYNC)
		snprintf(c->name, sizeof(c->name), "%s_%s_qd%u_batch%u",
			 e->name, opname[op], qd, batch);
	else
		snprintf(c->name, sizeof(c->name), "%s_%s", e->name, opname[op]);
}

int main(void)
{
	static struct engine_case cases[128];
	static struct CMUnitTest tests[130];
	size_t ncases = 0, ntests = 0, k;
	int i;

	signal(SIGALRM, on_watchdog);
	alarm(WATCHDOG_S);
	tests[ntests++] = (struct CMUnitTest)
		cmocka_unit_test(test_registry_check);
	tests[ntests++] = (struct CMUnitTest)
		cmocka_unit_test(test_lookup_aliases);
	for (i = 0; i < engine_count(); i++) {
		const struct engine_ops *e = engine_get(i);

		if (e->flags & ENGINE_ASYNC) {
			add_case(cases, &ncases, i, CASE_READ, 1, 1);
			add_case(cases, &ncases, i, CASE_READ, 8, 4);
			add_case(cases, &ncases, i, CASE_READ, 8, 8);
			add_case(cases, &ncases, i, CASE_WRITE, 1, 1);
			add_case(cases, &ncases, i, CASE_WRITE, 8, 4);
			add_case(cases, &ncases, i, CASE_FLUSH, 8, 4);
		} else {
			add_case(cases, &ncases, i, CASE_READ, 1, 1);
			add_case(cases, &ncases, i, CASE_WRITE, 1, 1);
			add_case(cases, &ncases, i, CASE_FLUSH, 1, 1);
			if (!(e->flags & ENGINE_NO_TRIM))
				add_case(cases, &ncases, i, CASE_TRIM, 1, 1);
		}
	}
	for (k = 0; k < ncases; k++) {
		struct CMUnitTest *t = &tests[ntests++];

		t->name = cases[k].name;
		t->test_func = test_engine_case;
		t->setup_func = case_setup;
		t->teardown_func = case_teardown;
		t->initial_state = &cases[k];
	}
	return _cmocka_run_group_tests("test_engines", tests, ntests, NULL,
				       NULL);
}
