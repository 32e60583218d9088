/* test_stream_trace.c - a log as the replay's I/O stream
 * (src/stream_trace.c).
 *
 * What is kept and skipped, the file map, the recorded threads numbered in
 * order of first use and each worker's share in recorded order, grouping
 * by type with its clocks, the digest (against a value computed apart,
 * and unchanged by times, threads, the map and alignment), pacing by a
 * speed, a timed stream that waits for each operation's time and counts
 * its lateness, a stop that ends a wait, and the cap on workers.
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

#include "stream_trace.h"

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

static void load_text(struct stream_trace *t, const char *text)
{
	char err[512] = "";

	snprintf(path, sizeof(path), "/tmp/test_stream_trace.XXXXXX");
	write_temp_text(path, text);
	if (stream_trace_load(t, path, err, sizeof(err)))
		fail_msg("load: %s", err);
	unlink(path);
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
	stream_trace_map_slots(&t);
	assert_int_equal(2 << 20, t.total);
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
	stream_trace_map_slots(&t);
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
	stream_trace_map_slots(&t);
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
	/* a stop ends a wait at once: the second operation is 5 s away */
	stream_trace_pace(&t, 0.001);
	stream_trace_init(&s, &t, 0, true);
	atomic_store(&stop, 1);
	s.ops->start(&s, now_ns(), &stop);
	start = now_ns();
	assert_true(stream_next(&s, &r));	/* at 0: no wait */
	assert_false(stream_next(&s, &r));
	assert_true(now_ns() - start < 1000000000ULL);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_per_thread),
		cmocka_unit_test(test_grouped),
		cmocka_unit_test(test_digest),
		cmocka_unit_test(test_timed),
		cmocka_unit_test(test_worker_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
