/* test_stream_trace.c - a log as the replay's I/O stream
 * (src/trace/stream_trace.c).
 *
 * What is kept and skipped, the file map, the recorded threads numbered in
 * order of first use and each worker's share in recorded order, grouping
 * by type with its clocks, the digest (against a value computed apart,
 * and unchanged by times, threads, the map and alignment), pacing by a
 * speed, a timed stream that waits for each operation's time and counts
 * its lateness, a stop that ends a wait, and the cap on workers.
 * Safety (issue 26): the map's sums are checked (the offsets near 2^63
 * that once wrapped the map are refused, 1 EiB is the most), every I/O
 * next() hands out lies in its file's place (one outside ends the stream
 * with an error, unissued), and a log is loaded within the memory budget
 * (REBENCH_MEMORY_BUDGET=8m here), everything it held given back.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/memory.h"
#include "trace/stream_trace.h"

#include "temp_text.h"

#define HEAD "# rebench-trace 1\n"

/*
 * Three threads (7/7, 7/8, 9/9) on two files.  Kept, in recorded order:
 *	line 3  7/7  write  /a 0 4096
 *	line 4  7/8  read   /b 8192 512
 *	line 6  9/9  fsync  /c (never read or written: no file)
 *	line 7  7/7  write  /a 4096 4096
 *	line 9  7/8  fdatasync /b (sync_file_range)
 *	line 10 9/9  read   /a 100 1000
 * and skipped: an open (line 2), a failed read (line 5), a read of 0
 * bytes (line 8).
 */
static const char log3[] = HEAD
	"1000 7/7 open 3 /a - - 3 10 O_RDWR\n"
	"2000 7/7 pwrite 3 /a 0 4096 4096 10 -\n"
	"2500 7/8 pread 4 /b 8192 512 512 10 -\n"
	"2600 7/8 pread 4 /b 0 512 -EIO 10 -\n"
	"3000 9/9 fsync 5 /c - - 0 10 -\n"
	"4000 7/7 pwrite 3 /a 4096 4096 4096 10 -\n"
	"4100 9/9 pread 3 /a 9000 512 0 10 -\n"
	"5000 7/8 sync_file_range 4 /b 0 0 0 10 SYNC_FILE_RANGE_WRITE\n"
	"6000 9/9 pread 3 /a 100 1000 1000 10 -\n";

/* FNV-1a 64 of the six kept operations of log3 (kind, file, offset,
 * size as 1, 4, 8 and 4 little-endian bytes), computed apart (Python). */
#define LOG3_DIGEST 0x1d7d6c17776acea1ULL

static char path[64];

/* stream_trace_load() of text: its return, err its message. */
static int try_load(struct stream_trace *t, const char *text, char *err,
		    size_t len)
{
	int ret;

	err[0] = '\0';
	snprintf(path, sizeof(path), "/tmp/test_stream_trace.XXXXXX");
	write_temp_text(path, text);
	ret = stream_trace_load(t, path, err, len);
	unlink(path);
	return ret;
}

static void load_text(struct stream_trace *t, const char *text)
{
	char err[512] = "";

	if (try_load(t, text, err, sizeof(err)))
		fail_msg("load: %s", err);
}

/* One target's file map: it must succeed. */
static void map(struct stream_trace *t)
{
	char err[512] = "";

	if (stream_trace_map_slots(t, err, sizeof(err)))
		fail_msg("map: %s", err);
}

static void test_load(void **state)
{
	static struct stream_trace t;
	static const int kinds[] = { IO_WRITE, IO_READ, IO_FSYNC, IO_WRITE,
				     IO_FDATASYNC, IO_READ };
	static const uint32_t lines[] = { 3, 4, 6, 7, 9, 10 };
	static const uint16_t threads[] = { 0, 1, 2, 0, 1, 2 };
	static const uint64_t at[] = { 0, 500, 1000, 2000, 3000, 4000 };
	size_t i;

	(void)state;
	load_text(&t, log3);
	assert_int_equal(6, t.n);
	assert_int_equal(1, t.skipped_failed);
	assert_int_equal(1, t.skipped_empty);
	assert_int_equal(3, t.nthreads);
	assert_true(t.has_times);
	assert_string_equal("rebench-trace", t.format);
	for (i = 0; i < t.n; i++) {
		assert_int_equal(kinds[i], t.ops[i].kind);
		assert_int_equal(lines[i], t.ops[i].line);
		assert_int_equal(threads[i], t.ops[i].thread);
		assert_int_equal(at[i], t.ops[i].at_ns);	/* from 2000 */
	}
	/* files in order of first read or write; /c was only flushed */
	assert_int_equal(2, t.nfiles);
	assert_string_equal("/a", t.files[0].path);
	assert_string_equal("/b", t.files[1].path);
	assert_int_equal(8192, t.files[0].extent);
	assert_int_equal(8704, t.files[1].extent);
	assert_int_equal(TRACE_NO_FILE, t.ops[2].file);
	assert_int_equal(1, t.ops[4].file);
	assert_int_equal(2, t.count[IO_READ]);
	assert_int_equal(1512, t.bytes[IO_READ]);
	assert_int_equal(4096, t.maxlen);
	map(&t);
	assert_int_equal(2 << 20, t.total);
	/* each file's place: its slot */
	assert_int_equal(0, t.files[0].base);
	assert_int_equal(1 << 20, t.files[0].end);
	assert_int_equal(1 << 20, t.files[1].base);
	assert_int_equal(2 << 20, t.files[1].end);
	assert_null(stream_trace_unplaced(&t));
	assert_int_equal((1 << 20) + 8192, t.ops[1].off);
	assert_int_equal(100, t.ops[5].off);
	stream_trace_free(&t);
}

/* Every operation of a stream, as next() gives them. */
static size_t drain(struct io_stream *s, struct io_req *out, size_t max)
{
	size_t n = 0;

	/* garbage in every field first: next() must set each one the run
	 * loop reads (a span left over once made a replayed write's length
	 * absurd) */
	memset(out, 0xa5, max * sizeof(*out));
	while (n < max && stream_next(s, &out[n])) {
		assert_int_equal(out[n].span, 0);
		n++;
	}
	return n;
}

static void test_per_thread(void **state)
{
	static struct stream_trace t;
	struct io_stream s[3];
	struct io_req r[3][2];
	int w;

	(void)state;
	load_text(&t, log3);
	map(&t);
	assert_int_equal(0, stream_trace_arrange(&t, false));
	assert_int_equal(3, t.nworkers);
	assert_false(t.grouped);
	/* the workers read in turns: each has its own cursor */
	for (w = 0; w < 3; w++)
		stream_trace_init(&s[w], &t, (uint32_t)w, false);
	for (w = 0; w < 3; w++)
		assert_true(stream_next(&s[w], &r[w][0]));
	for (w = 0; w < 3; w++)
		assert_true(stream_next(&s[w], &r[w][1]));
	for (w = 0; w < 3; w++)
		assert_false(stream_next(&s[w], &r[w][0]));
	/* thread 7/7: its two writes, in recorded order */
	assert_true(r[0][0].kind == IO_WRITE && r[0][0].off == 0 &&
		    r[0][0].len == 4096);
	assert_true(r[0][1].kind == IO_WRITE && r[0][1].off == 4096);
	/* 7/8: a read of /b in its slot, then the flush */
	assert_true(r[1][0].kind == IO_READ &&
		    r[1][0].off == (1 << 20) + 8192 && r[1][0].len == 512);
	assert_true(r[1][1].kind == IO_FDATASYNC && r[1][1].len == 0);
	/* 9/9: the flush of /c, then a read of /a */
	assert_true(r[2][0].kind == IO_FSYNC && r[2][1].kind == IO_READ &&
		    r[2][1].off == 100 && r[2][1].len == 1000);
	stream_trace_free(&t);
}

static void test_grouped(void **state)
{
	static struct stream_trace t;
	static const int kinds[] = { IO_READ, IO_READ, IO_WRITE, IO_WRITE,
				     IO_FSYNC, IO_FDATASYNC };
	static const uint32_t lines[] = { 4, 10, 3, 7, 6, 9 };
	struct io_stream s;
	struct io_req r[8];
	size_t i;
	int k;

	(void)state;
	load_text(&t, log3);
	map(&t);
	assert_int_equal(0, stream_trace_arrange(&t, true));
	assert_int_equal(1, t.nworkers);
	stream_trace_init(&s, &t, 0, false);
	assert_int_equal(6, drain(&s, r, 8));
	for (i = 0; i < 6; i++) {
		assert_int_equal(kinds[i], r[i].kind);
		assert_int_equal(lines[i], t.ops[i].line);
	}
	for (k = 0; k < IO_KINDS; k++) {
		/* no trim in the log; a replay makes a recorded
		 * sync_file_range an fdatasync */
		if (k == IO_TRIM || k == IO_SYNC_RANGE) {
			assert_int_equal(0, s.tc.group_t0[k]);
			continue;
		}
		assert_true(s.tc.group_t0[k] > 0);
		assert_true(s.tc.group_t1[k] >= s.tc.group_t0[k]);
	}
	/* one type ends where the next begins */
	assert_int_equal(s.tc.group_t1[IO_READ], s.tc.group_t0[IO_WRITE]);
	stream_trace_free(&t);
}

static void test_digest(void **state)
{
	static struct stream_trace t;
	char other[sizeof(log3)];
	uint64_t d;
	char *p;

	(void)state;
	assert_int_equal(0xcbf29ce484222325ULL, stream_trace_digest(NULL, 0));
	load_text(&t, log3);
	assert_int_equal(LOG3_DIGEST, t.digest);
	/* the map and alignment change offsets and sizes, not the digest */
	map(&t);
	assert_int_equal(1, stream_trace_align(&t, 512, true, NULL));
	assert_int_equal(1, t.aligned);
	assert_int_equal(0, t.ops[5].off);
	assert_int_equal(1536, t.ops[5].len);
	assert_int_equal(LOG3_DIGEST, t.digest);
	stream_trace_free(&t);
	/* other times and threads: the same digest */
	memcpy(other, log3, sizeof(log3));
	p = strstr(other, "2500 7/8");
	memcpy(p, "2700 9/8", 8);
	load_text(&t, other);
	assert_int_equal(LOG3_DIGEST, t.digest);
	stream_trace_free(&t);
	/* another offset: another digest */
	p = strstr(other, "4096 4096 4096");
	memcpy(p, "4608", 4);
	load_text(&t, other);
	d = t.digest;
	assert_true(d != LOG3_DIGEST);
	stream_trace_free(&t);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Five writes 10 ms apart, replayed at speed 2: 5 ms apart, never early. */
static void test_timed(void **state)
{
	static struct stream_trace t;
	static atomic_int stop;
	char text[1024];
	size_t o = 0, i;
	struct io_stream s;
	struct io_req r;
	uint64_t start;

	(void)state;
	o += (size_t)snprintf(text, sizeof(text), HEAD);
	for (i = 0; i < 5; i++)
		o += (size_t)snprintf(text + o, sizeof(text) - o,
				      "%zu 1/1 pwrite 3 /f %zu 512 512 10 -\n",
				      5000000 + i * 10000000, i * 512);
	load_text(&t, text);
	map(&t);
	assert_int_equal(0, stream_trace_arrange(&t, false));
	stream_trace_pace(&t, 2.0);
	assert_int_equal(20000000, t.ops[4].at_ns);
	stream_trace_init(&s, &t, 0, true);
	start = now_ns();
	s.ops->start(&s, start, &stop);
	for (i = 0; i < 5; i++) {
		assert_true(stream_next(&s, &r));
		if (now_ns() < start + i * 5000000)
			fail_msg("operation %zu issued early", i);
	}
	assert_false(stream_next(&s, &r));
	assert_int_equal(5, s.tc.issued);
	assert_true(s.tc.late_max_ns >= s.tc.late_sum_ns / 5);
	assert_true(s.tc.late <= 5);
	/* a stop ends a wait at once: the second operation is 83 minutes
	 * away, so a wait that missed the stop would hang the program until
	 * run-tests.sh's time limit (no bound on time here: a loaded machine
	 * stretches any) */
	stream_trace_pace(&t, 1e-6);
	stream_trace_init(&s, &t, 0, true);
	atomic_store(&stop, 1);
	s.ops->start(&s, now_ns(), &stop);
	assert_true(stream_next(&s, &r));	/* at 0: no wait */
	assert_false(stream_next(&s, &r));
	stream_trace_free(&t);
}

static void test_worker_cap(void **state)
{
	static struct stream_trace t;
	size_t cap = 300 * 64, o = 0;
	char *text = malloc(cap);
	int i;

	(void)state;
	/* the largest PID/TID the reader takes is a thread like any other */
	load_text(&t, HEAD
		  "1 2147483647/2147483647 pwrite 3 /f 0 512 512 10 -\n"
		  "2 1/1 pwrite 3 /f 0 512 512 10 -\n"
		  "3 2147483647/2147483647 pwrite 3 /f 0 512 512 10 -\n");
	assert_int_equal(2, t.nthreads);
	assert_int_equal(0, t.ops[2].thread);
	stream_trace_free(&t);
	assert_non_null(text);
	o += (size_t)snprintf(text, cap, HEAD);
	for (i = 0; i < TRACE_MAX_WORKERS + 1; i++)
		o += (size_t)snprintf(text + o, cap - o,
				      "%d 1/%d pwrite 3 /f 0 512 512 10 -\n",
				      i, 1000 + i);
	load_text(&t, text);
	assert_int_equal(TRACE_MAX_WORKERS + 1, t.nthreads);
	assert_int_equal(-E2BIG, stream_trace_arrange(&t, false));
	assert_int_equal(0, stream_trace_arrange(&t, true));
	stream_trace_free(&t);
	free(text);
}

/* The log of issue 26: files at offsets near 2^63 whose slots once
 * summed past 2^64, so that the map wrapped to 2 MiB and writes landed
 * at 99 and 100 MiB of the device.  An extent is checked as it is read. */
static void test_map_overflow(void **state)
{
	static struct stream_trace t;
	char err[1024];

	(void)state;
	assert_int_equal(-E2BIG, try_load(&t, HEAD
		"1000 1/1 pwrite 3 /x/a 0 4096 4096 10 -\n"
		"2000 1/1 pwrite 3 /x/a 104853504 4096 4096 10 -\n"
		"3000 1/1 pwrite 3 /x/b 0 4096 4096 10 -\n"
		"4000 1/1 pwrite 3 /x/c 9223372036854771712 4096 4096 10 -\n"
		"5000 1/1 pwrite 3 /x/d 9223372036749914112 1048576 1048576 10 -\n",
		err, sizeof(err)));
	assert_non_null(strstr(err, "line 5: a write of 4096 bytes at offset 9223372036854771712 reaches beyond byte 1152921504606846976 (1 EiB)"));
	stream_trace_free(&t);
	assert_int_equal(0, memory_held());
	/* up to 1 EiB exactly: a file's extent may reach it ... */
	assert_int_equal(0, try_load(&t, HEAD
		"1000 1/1 pwrite 3 /x/c 1152921504606842880 4096 4096 10 -\n",
		err, sizeof(err)));
	assert_int_equal(TRACE_MAX_MAP, t.files[0].extent);
	map(&t);
	assert_int_equal(TRACE_MAX_MAP, t.total);
	assert_int_equal(TRACE_MAX_MAP - 4096, t.ops[0].off);
	stream_trace_free(&t);
	/* ... and not one byte beyond */
	assert_int_equal(-E2BIG, try_load(&t, HEAD
		"1000 1/1 pwrite 3 /x/c 1152921504606842881 4096 4096 10 -\n",
		err, sizeof(err)));
	stream_trace_free(&t);
	/* slots that each fit but not together: refused, naming the file */
	assert_int_equal(0, try_load(&t, HEAD
		"1000 1/1 pwrite 3 /x/a 0 4096 4096 10 -\n"
		"2000 1/1 pwrite 3 /x/c 1152921504606842880 4096 4096 10 -\n",
		err, sizeof(err)));
	assert_int_equal(-E2BIG, stream_trace_map_slots(&t, err, sizeof(err)));
	assert_non_null(strstr(err, "its first 1 files take 1048576 bytes, and the slot of the next, /x/c, 1152921504606846976 more"));
	/* a directory: each file has its own place, their sum is checked */
	assert_int_equal(-E2BIG, stream_trace_extents(&t, err, sizeof(err)));
	assert_non_null(strstr(err, "more than 1152921504606846976 bytes (1 EiB) together"));
	stream_trace_free(&t);
	load_text(&t, log3);
	assert_int_equal(0, stream_trace_extents(&t, err, sizeof(err)));
	assert_int_equal(8192 + 8704, t.total);
	assert_int_equal(0, t.files[1].base);
	assert_int_equal(8704, t.files[1].end);
	assert_null(stream_trace_unplaced(&t));
	stream_trace_free(&t);
}

static void test_add(void **state)
{
	uint64_t sum = 7;

	(void)state;
	assert_true(trace_add(1, 2, 3, &sum));
	assert_int_equal(3, sum);
	assert_false(trace_add(2, 2, 3, &sum));		/* past max */
	assert_false(trace_add(UINT64_MAX, 1, UINT64_MAX, &sum));	/* wraps */
	assert_false(trace_add(1ULL << 63, 1ULL << 63, UINT64_MAX, &sum));
	assert_int_equal(3, sum);	/* untouched when refused */
	assert_true(trace_add(UINT64_MAX - 1, 1, UINT64_MAX, &sum));
	assert_int_equal(UINT64_MAX, sum);
}

/* Every I/O next() hands out lies in its file's place; one outside (a
 * bug elsewhere, made here by hand) ends the stream with -ERANGE before
 * it is handed out, and the plan's check finds it first. */
static void test_placed(void **state)
{
	static struct stream_trace t;
	struct io_stream s;
	struct io_req r[8];
	char why[1024] = "";
	struct trace_op *o;

	(void)state;
	load_text(&t, log3);
	map(&t);
	assert_int_equal(0, stream_trace_arrange(&t, true));
	/* the reads first: /b's at 1 MiB + 8192, then /a's at 100 */
	o = &t.ops[0];
	assert_int_equal((1 << 20) + 8192, o->off);
	/* the last byte of /b's slot is still its place */
	o->off = (2 << 20) - o->len;
	assert_null(stream_trace_unplaced(&t));
	stream_trace_init(&s, &t, 0, false);
	assert_true(stream_next(&s, &r[0]));
	assert_int_equal(0, s.error);
	/* one byte further is not */
	o->off++;
	assert_ptr_equal(o, stream_trace_unplaced(&t));
	stream_trace_init(&s, &t, 0, false);
	memset(r, 0xa5, sizeof(r));
	assert_false(stream_next(&s, &r[0]));
	assert_int_equal(-ERANGE, s.error);
	assert_int_equal(0xa5a5a5a5u, r[0].len);	/* nothing handed out */
	assert_false(stream_next(&s, &r[0]));	/* and it stays there */
	s.ops->describe(&s, why, sizeof(why));
	assert_non_null(strstr(why, "line 4 of the log, a read of 512 bytes at byte 2096641 of the target, is outside the place of its file /b (bytes 1048576 to 2097152)"));
	/* below its base (the other file's slot) neither */
	o->off = (1 << 20) - 512;
	assert_ptr_equal(o, stream_trace_unplaced(&t));
	stream_trace_init(&s, &t, 0, false);
	assert_false(stream_next(&s, &r[0]));
	assert_int_equal(-ERANGE, s.error);
	/* an unmapped log places nothing but flushes */
	stream_trace_free(&t);
	load_text(&t, log3);
	assert_ptr_equal(&t.ops[0], stream_trace_unplaced(&t));
	stream_trace_free(&t);
}

/* A log is loaded within the memory budget (8 MiB in this test): a
 * longer one is refused while it is read, with the budget, what holds it
 * and how to go on; everything is given back. */
static void test_budget(void **state)
{
	static struct stream_trace t;
	size_t cap = 300000 * 48, o = 0, i;
	char *text = malloc(cap), err[1024];

	(void)state;
	assert_non_null(text);
	assert_int_equal(8 << 20, memory_budget());
	o += (size_t)snprintf(text, cap, HEAD);
	for (i = 0; i < 300000; i++)
		o += (size_t)snprintf(text + o, cap - o,
				      "%zu 1/1 pread 3 /f %zu 512 512 10 -\n",
				      i, (i % 64) * 512);
	/* 300000 operations of 32 bytes: the table's room passes 8 MiB */
	assert_int_equal(-E2BIG, try_load(&t, text, err, sizeof(err)));
	assert_non_null(strstr(err, "the log needs more than rebench's memory budget of 8 MiB (REBENCH_MEMORY_BUDGET): its operations and their tables hold"));
	assert_non_null(strstr(err, "raise the budget (REBENCH_MEMORY_BUDGET=16m, for example), or give a shorter log"));
	stream_trace_free(&t);
	assert_int_equal(0, memory_held());
	/* the first 100000 fit, and the loaded log holds what it counted */
	strcpy(strstr(text, "\n100000 1/1 ") + 1, "");
	assert_int_equal(0, try_load(&t, text, err, sizeof(err)));
	assert_int_equal(100000, t.n);
	assert_int_equal(t.mem, memory_held());
	assert_true(t.mem >= 100000 * sizeof(struct trace_op));
	assert_int_equal(0, stream_trace_arrange(&t, false));
	assert_int_equal(t.mem, memory_held());
	stream_trace_free(&t);
	assert_int_equal(0, memory_held());
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_per_thread),
		cmocka_unit_test(test_grouped),
		cmocka_unit_test(test_digest),
		cmocka_unit_test(test_timed),
		cmocka_unit_test(test_worker_cap),
		cmocka_unit_test(test_map_overflow),
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_placed),
		cmocka_unit_test(test_budget),
	};

	/* read once, at the first load */
	setenv("REBENCH_MEMORY_BUDGET", "8m", 1);

	return cmocka_run_group_tests(tests, NULL, NULL);
}
