/* test_record_block.c - the pieces of --record-block that need no kernel:
 * the format files and ring buffer sub-buffers of tracefs decoded
 * (record_block_ring.c), block events paired into the records of a log
 * (record_block_match.c) that the log reader (trace_log.c) reads back,
 * and the one mapping of RWBS to calls (trace_blk_call).
 *
 * Sub-buffers are built here byte by byte as the kernel lays them out
 * (record_block_ring.h): small and large events, time extends, absolute
 * time stamps, discarded events, lost-event counts and a length that runs
 * past the commit.
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

#include "trace/record_block_match.h"
#include "trace/record_block_ring.h"
#include "trace/trace_blkparse.h"
#include "trace/trace_log.h"

/* This kernel's files (Linux 6.18), as tracefs prints them. */
static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

#define COMMON \
	"format:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n" \
	"\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n" \
	"\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n" \
	"\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"

static const char issue_fmt[] =
	"name: block_rq_issue\nID: 2104\n" COMMON
	"\tfield:unsigned int bytes;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned short ioprio;\toffset:32;\tsize:2;\tsigned:0;\n"
	"\tfield:char rwbs[10];\toffset:34;\tsize:10;\tsigned:0;\n"
	"\tfield:char comm[16];\toffset:44;\tsize:16;\tsigned:0;\n"
	"\tfield:__data_loc char[] cmd;\toffset:60;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%d,%d %s %u (%s) %llu + %u %s,%u,%u [%s]\", ...\n";

static const char complete_fmt[] =
	"name: block_rq_complete\nID: 2107\n" COMMON
	"\tfield:int error;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned short ioprio;\toffset:32;\tsize:2;\tsigned:0;\n"
	"\tfield:char rwbs[10];\toffset:34;\tsize:10;\tsigned:0;\n"
	"\tfield:__data_loc char[] cmd;\toffset:44;\tsize:4;\tsigned:0;\n";

static const char requeue_fmt[] =
	"name: block_rq_requeue\nID: 2108\n" COMMON
	"\tfield:unsigned short ioprio;\toffset:28;\tsize:2;\tsigned:0;\n"
	"\tfield:char rwbs[10];\toffset:30;\tsize:10;\tsigned:0;\n"
	"\tfield:__data_loc char[] cmd;\toffset:40;\tsize:4;\tsigned:0;\n";

static struct blk_ring_format fmt;

static void load_formats(void)
{
	char err[256];

	memset(&fmt, 0, sizeof(fmt));
	assert_int_equal(0, blk_ring_parse_format(header_page, -1, &fmt, err, sizeof(err)));
	assert_int_equal(0, blk_ring_parse_format(issue_fmt, BLK_EV_ISSUE, &fmt, err, sizeof(err)));
	assert_int_equal(0, blk_ring_parse_format(complete_fmt, BLK_EV_COMPLETE, &fmt, err, sizeof(err)));
	assert_int_equal(0, blk_ring_parse_format(requeue_fmt, BLK_EV_REQUEUE, &fmt, err, sizeof(err)));
}

static void test_formats(void **state)
{
	char err[256];

	(void)state;
	load_formats();
	assert_int_equal(16, fmt.data.off);
	assert_int_equal(8, fmt.commit.off);
	assert_int_equal(8, fmt.commit.size);
	assert_int_equal(2104, fmt.ev[BLK_EV_ISSUE].id);
	assert_int_equal(34, fmt.ev[BLK_EV_ISSUE].rwbs.off);
	assert_int_equal(10, fmt.ev[BLK_EV_ISSUE].rwbs.size);
	assert_int_equal(44, fmt.ev[BLK_EV_ISSUE].comm.off);
	assert_int_equal(28, fmt.ev[BLK_EV_COMPLETE].error.off);
	assert_int_equal(30, fmt.ev[BLK_EV_REQUEUE].rwbs.off);
	assert_int_equal(0, fmt.ev[BLK_EV_REQUEUE].comm.size);
	/* a completion without its error, an event without an ID */
	assert_int_equal(-EINVAL, blk_ring_parse_format(requeue_fmt, BLK_EV_COMPLETE, &fmt, err, sizeof(err)));
	assert_string_equal("the format of block_rq_complete has no integer field 'error'", err);
	assert_int_equal(-EINVAL, blk_ring_parse_format(COMMON "\tfield:char rwbs[10];\toffset:30;\tsize:10;\tsigned:0;\n",
							BLK_EV_ISSUE, &fmt, err, sizeof(err)));
	assert_string_equal("the format of block_rq_issue has no 'ID:' line", err);
	assert_int_equal(-EINVAL, blk_ring_parse_format("\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n",
							-1, &fmt, err, sizeof(err)));
}

/* ---------------------------------------------------------- sub-buffers */

struct page {
	unsigned char b[4096];
	size_t at;		/* of the next event, from the data */
};

static void put(struct page *p, size_t off, uint64_t v, size_t size)
{
	memcpy(p->b + off, &v, size);	/* little-endian host, as the kernel */
}

static void word(struct page *p, uint32_t v)
{
	put(p, 16 + p->at, v, 4);
	p->at += 4;
}

static void page_begin(struct page *p, uint64_t ts)
{
	memset(p, 0, sizeof(*p));
	put(p, 0, ts, 8);
}

/* The commit: the bytes of events, and flags. */
static void page_end(struct page *p, uint64_t flags)
{
	put(p, 8, p->at | flags, 8);
}

/* A payload of one of the three events. */
static size_t payload(unsigned char *b, int kind, int32_t pid, uint32_t dev,
		      uint64_t sector, uint32_t nr, int32_t error,
		      const char *rwbs, const char *comm)
{
	static const uint16_t ids[] = { 2104, 2107, 2108 };
	size_t rw = kind == BLK_EV_REQUEUE ? 30 : 34;

	memset(b, 0, 64);
	memcpy(b, &ids[kind], 2);
	memcpy(b + 4, &pid, 4);
	memcpy(b + 8, &dev, 4);
	memcpy(b + 16, &sector, 8);
	memcpy(b + 24, &nr, 4);
	if (kind == BLK_EV_COMPLETE)
		memcpy(b + 28, &error, 4);
	memcpy(b + rw, rwbs, strlen(rwbs));
	if (kind == BLK_EV_ISSUE)
		memcpy(b + 44, comm, strlen(comm));
	return kind == BLK_EV_ISSUE ? 64 : 48;
}

/* An event with its payload: type_len = size / 4, or 0 with a length. */
static void event(struct page *p, uint32_t delta, bool big, int kind,
		  int32_t pid, uint64_t sector, uint32_t nr, int32_t error,
		  const char *rwbs)
{
	unsigned char b[64];
	size_t n = payload(b, kind, pid, 7 << 20 | 2, sector, nr, error, rwbs,
			   "dd");

	if (big) {
		word(p, delta << 5);
		word(p, (uint32_t)n + 4);
	} else {
		word(p, delta << 5 | (uint32_t)(n / 4));
	}
	memcpy(p->b + 16 + p->at, b, n);
	p->at += n;
}

static void test_decode(void **state)
{
	struct blk_ring_loss loss = { 0 };
	struct blk_events out = { 0 };
	struct page p;
	unsigned char other[8] = { 0x39, 0x05 };	/* another event's id */

	(void)state;
	load_formats();
	page_begin(&p, 1000);
	event(&p, 5, false, BLK_EV_ISSUE, 4162, 8, 8, 0, "WS");
	/* a time extend: 3 << 27 + 7 */
	word(&p, 7u << 5 | 30);
	word(&p, 3);
	event(&p, 0, true, BLK_EV_COMPLETE, 0, 8, 8, -5, "WS");
	/* a discarded event of 8 bytes, its delta counted */
	word(&p, 11u << 5 | 29);
	word(&p, 8);
	word(&p, 0);
	/* an event of no interest */
	word(&p, 2u << 5 | 2);
	memcpy(p.b + 16 + p.at, other, 8);
	p.at += 8;
	/* an absolute time stamp: 1 << 27 | 5, top bits kept */
	word(&p, 5u << 5 | 31);
	word(&p, 1);
	event(&p, 0, false, BLK_EV_REQUEUE, 77, 16, 8, 0, "RA");
	page_end(&p, 1ull << 31 | 1ull << 30);
	put(&p, 16 + p.at, 42, 8);	/* 42 events lost before the page */
	assert_int_equal(0, blk_ring_decode(&fmt, p.b, sizeof(p.b), &out, &loss));
	assert_int_equal(3, out.n);
	assert_int_equal(BLK_EV_ISSUE, out.v[0].kind);
	assert_int_equal(1005, out.v[0].ts);
	assert_int_equal(4162, out.v[0].pid);
	assert_int_equal(7 << 20 | 2, out.v[0].dev);
	assert_int_equal(8, out.v[0].sector);
	assert_int_equal(8, out.v[0].nr_sector);
	assert_string_equal("WS", out.v[0].rwbs);
	assert_string_equal("dd", out.v[0].comm);
	assert_int_equal(BLK_EV_COMPLETE, out.v[1].kind);
	assert_int_equal(1005 + (3ull << 27) + 7, out.v[1].ts);
	assert_int_equal(-5, out.v[1].error);
	assert_string_equal("", out.v[1].comm);
	assert_int_equal(BLK_EV_REQUEUE, out.v[2].kind);
	assert_int_equal(1ull << 27 | 5, out.v[2].ts);
	assert_string_equal("RA", out.v[2].rwbs);
	assert_int_equal(42, loss.events);
	assert_int_equal(0, loss.uncounted);

	/* lost without a count; the padding of the rest ends the events */
	out.n = 0;
	page_begin(&p, 0);
	event(&p, 1, false, BLK_EV_ISSUE, 1, 0, 8, 0, "R");
	word(&p, 29);
	page_end(&p, 1ull << 31);
	event(&p, 1, false, BLK_EV_ISSUE, 1, 0, 8, 0, "R");	/* past it */
	assert_int_equal(0, blk_ring_decode(&fmt, p.b, sizeof(p.b), &out, &loss));
	assert_int_equal(1, out.n);
	assert_int_equal(1, loss.uncounted);

	/* an event longer than the commit */
	out.n = 0;
	page_begin(&p, 0);
	event(&p, 1, false, BLK_EV_ISSUE, 1, 0, 8, 0, "R");
	p.at -= 4;
	page_end(&p, 0);
	assert_int_equal(-EINVAL, blk_ring_decode(&fmt, p.b, sizeof(p.b), &out, &loss));
	/* a commit beyond the sub-buffer */
	page_begin(&p, 0);
	put(&p, 8, 5000, 8);
	assert_int_equal(-EINVAL, blk_ring_decode(&fmt, p.b, sizeof(p.b), &out, &loss));
	blk_events_free(&out);
}

/* ------------------------------------------------------------- pairing */

static uint32_t fake_tgid(uint32_t tid)
{
	return tid == 501 ? 500 : tid;	/* 501 is a thread of 500 */
}

static struct blk_event ev(int kind, uint64_t ts, int32_t pid, uint64_t sector,
			   uint32_t nr, const char *rwbs)
{
	struct blk_event e;

	memset(&e, 0, sizeof(e));
	e.kind = (uint8_t)kind;
	e.ts = ts;
	e.pid = pid;
	e.dev = 7 << 20 | 2;
	e.sector = sector;
	e.nr_sector = nr;
	snprintf(e.rwbs, sizeof(e.rwbs), "%s", rwbs);
	snprintf(e.comm, sizeof(e.comm), "%s", kind == BLK_EV_ISSUE ? "app" : "");
	return e;
}

static char *out_buf;
static size_t out_len;

/* The lines written for batches of events (NULL-separated), the matcher
 * kept in m for its counts. */
static const char *pair(struct blk_match *m, const struct blk_dev *dev,
			struct blk_event *e, const size_t *batch, int nbatch)
{
	static char text[4096];
	FILE *f = open_memstream(&out_buf, &out_len);
	size_t at = 0;
	int b;

	assert_non_null(f);
	assert_int_equal(0, blk_match_init(m, f, 1000, dev, 1, fake_tgid));
	for (b = 0; b < nbatch; b++) {
		assert_int_equal(0, blk_match_feed(m, e + at, batch[b]));
		at += batch[b];
	}
	blk_match_finish(m);
	fclose(f);
	snprintf(text, sizeof(text), "%s", out_buf);
	free(out_buf);
	return text;
}

static const struct blk_dev disk = { "/dev/loop2", 7 << 20 | 2, 0, 0 };

static void test_pairs(void **state)
{
	struct blk_match m;
	struct blk_event e[] = {
		ev(BLK_EV_ISSUE, 2000, 500, 8, 8, "WS"),
		ev(BLK_EV_ISSUE, 2100, 501, 64, 16, "R"),
		ev(BLK_EV_COMPLETE, 2500, 0, 64, 16, "R"),
		ev(BLK_EV_COMPLETE, 3000, 0, 8, 8, "WS"),
		/* a flush: issued at 0, completed at -1 */
		ev(BLK_EV_ISSUE, 4000, 44, 0, 0, "FF"),
		ev(BLK_EV_COMPLETE, 4500, 0, UINT64_MAX, 0, "FF"),
		/* its flush sequence's end: no request */
		ev(BLK_EV_COMPLETE, 4501, 0, 0, 0, "WS"),
		/* FUA, a discard, a write zeroes (N), a pid 0 */
		ev(BLK_EV_ISSUE, 5000, 500, 100, 8, "WFS"),
		ev(BLK_EV_COMPLETE, 5100, 0, 100, 8, "WFS"),
		ev(BLK_EV_ISSUE, 6000, 0, 2048, 2048, "D"),
		ev(BLK_EV_COMPLETE, 6400, 0, 2048, 2048, "D"),
		ev(BLK_EV_ISSUE, 7000, 500, 4096, 8, "N"),
		/* a failed read */
		ev(BLK_EV_ISSUE, 8000, 500, 16, 8, "R"),
		ev(BLK_EV_COMPLETE, 8200, 0, 16, 8, "R"),
	};
	size_t batch[] = { sizeof(e) / sizeof(e[0]) };

	(void)state;
	e[13].error = -5;
	assert_string_equal(
		"# task 500/501: app\n"
		"1100 500/501 pread 3 /dev/loop2 32768 8192 8192 400 -\n"
		"# task 500/500: app\n"
		"1000 500/500 pwrite 3 /dev/loop2 4096 4096 4096 1000 -\n"
		"# task 44/44: app\n"
		"3000 44/44 fsync 3 /dev/loop2 - - 0 500 -\n"
		"4000 500/500 pwritev2 3 /dev/loop2 51200 4096 4096 100 1,RWF_DSYNC\n"
		"# task 1/1: app\n"
		"5000 1/1 fallocate 3 /dev/loop2 1048576 1048576 0 400 FALLOC_FL_KEEP_SIZE|FALLOC_FL_PUNCH_HOLE\n"
		"7000 500/500 pread 3 /dev/loop2 8192 4096 -EIO 200 -\n",
		pair(&m, &disk, e, batch, 1));
	assert_int_equal(6, m.c.records);
	assert_int_equal(1, m.c.calls[TC_pwritev2]);
	assert_int_equal(1, m.c.failed);
	assert_int_equal(1, m.c.other);
	assert_int_equal(1, m.c.seq_ends);
	assert_int_equal(0, m.c.unfinished + m.c.orphans);
	blk_match_free(&m);
}

static void test_order_and_leftovers(void **state)
{
	struct blk_match m;
	struct blk_event e[] = {
		/* batch 1: a completion whose issue (another CPU) is late,
		 * an old completion issued before the start */
		ev(BLK_EV_COMPLETE, 3000, 0, 8, 8, "W"),
		ev(BLK_EV_COMPLETE, 10, 0, 99, 8, "W"),
		/* batch 2: its issue; two issues of one sector, FIFO; a
		 * partial completion; a requeue and the issue again */
		ev(BLK_EV_ISSUE, 2000, 500, 8, 8, "W"),
		ev(BLK_EV_ISSUE, 2000000000, 500, 0, 8, "R"),
		ev(BLK_EV_ISSUE, 2000000100, 500, 0, 8, "R"),
		ev(BLK_EV_COMPLETE, 2000000300, 0, 0, 8, "R"),
		ev(BLK_EV_ISSUE, 2000001000, 500, 200, 16, "W"),
		ev(BLK_EV_COMPLETE, 2000001100, 0, 200, 8, "W"),
		ev(BLK_EV_COMPLETE, 2000001300, 0, 208, 8, "W"),
		ev(BLK_EV_ISSUE, 2000002000, 500, 300, 8, "W"),
		ev(BLK_EV_REQUEUE, 2000002010, 0, 300, 8, "W"),
		ev(BLK_EV_ISSUE, 2000002100, 500, 300, 8, "W"),
		ev(BLK_EV_COMPLETE, 2000002200, 0, 300, 8, "W"),
	};
	size_t batch[] = { 2, sizeof(e) / sizeof(e[0]) - 2 };

	(void)state;
	assert_string_equal(
		"# task 500/500: app\n"
		"1000 500/500 pwrite 3 /dev/loop2 4096 4096 4096 1000 -\n"
		"1999999000 500/500 pread 3 /dev/loop2 0 4096 4096 300 -\n"
		"2000000000 500/500 pwrite 3 /dev/loop2 102400 8192 8192 300 -\n"
		"2000001100 500/500 pwrite 3 /dev/loop2 153600 4096 4096 100 -\n",
		pair(&m, &disk, e, batch, 2));
	assert_int_equal(1, m.c.orphans);	/* issued before the start */
	assert_int_equal(1, m.c.unfinished);	/* the second read */
	assert_int_equal(1, m.c.requeued);
	blk_match_free(&m);
}

static void test_partition(void **state)
{
	const struct blk_dev part = { "/dev/loop2p1", 7 << 20 | 2, 2048, 1024 };
	struct blk_match m;
	struct blk_event e[] = {
		ev(BLK_EV_ISSUE, 2000, 500, 2048 + 6, 8, "W"),
		ev(BLK_EV_COMPLETE, 2100, 0, 2048 + 6, 8, "W"),
		ev(BLK_EV_ISSUE, 3000, 500, 4096, 8, "W"),	/* p2 */
		ev(BLK_EV_COMPLETE, 3100, 0, 4096, 8, "W"),
		ev(BLK_EV_ISSUE, 4000, 44, 0, 0, "FF"),	/* the disk's */
		ev(BLK_EV_COMPLETE, 4100, 0, UINT64_MAX, 0, "FF"),
	};
	size_t batch[] = { sizeof(e) / sizeof(e[0]) };

	(void)state;
	assert_string_equal(
		"# task 500/500: app\n"
		"1000 500/500 pwrite 3 /dev/loop2p1 3072 4096 4096 100 -\n"
		"# task 44/44: app\n"
		"3000 44/44 fsync 3 /dev/loop2p1 - - 0 100 -\n",
		pair(&m, &part, e, batch, 1));
	blk_match_free(&m);
}

/* What the matcher writes, the log reader takes. */
static void test_read_back(void **state)
{
	struct blk_match m;
	struct trace_reader rd;
	struct trace_rec r;
	struct blk_event e[] = {
		ev(BLK_EV_ISSUE, 2000, 501, 8, 8, "WFS"),
		ev(BLK_EV_COMPLETE, 3000, 0, 8, 8, "WFS"),
		ev(BLK_EV_ISSUE, 4000, 0, 16, 8, "D"),
		ev(BLK_EV_COMPLETE, 4100, 0, 16, 8, "D"),
		ev(BLK_EV_ISSUE, 5000, 44, 0, 0, "FF"),
		ev(BLK_EV_COMPLETE, 5100, 0, UINT64_MAX, 0, "FF"),
	};
	size_t batch[] = { sizeof(e) / sizeof(e[0]) };
	char text[4096];
	FILE *f;

	(void)state;
	snprintf(text, sizeof(text), "# rebench-trace 1\n%s",
		 pair(&m, &disk, e, batch, 1));
	blk_match_free(&m);
	f = fmemopen(text, strlen(text), "r");
	assert_non_null(f);
	assert_int_equal(0, trace_open_stream(&rd, f, "LOG"));
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(TC_pwritev2, r.call);
	assert_int_equal(RWF_DSYNC, r.flags);
	assert_int_equal(1, r.iovcnt);
	assert_int_equal(500, r.pid);
	assert_int_equal(501, r.tid);
	assert_int_equal(1000, r.dur_ns);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(TC_fallocate, r.call);
	assert_int_equal(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, r.flags);
	assert_int_equal(1, trace_next(&rd, &r));
	assert_int_equal(TC_fsync, r.call);
	assert_int_equal(0, trace_next(&rd, &r));
	trace_close(&rd);
	fclose(f);
}

static void test_rwbs(void **state)
{
	static const struct {
		const char *rwbs;
		int call;	/* -1: no record */
	} t[] = {
		{ "R", TC_pread }, { "RA", TC_pread }, { "RM", TC_pread },
		{ "W", TC_pwrite }, { "WS", TC_pwrite }, { "WSM", TC_pwrite },
		{ "WFS", TC_pwritev2 }, { "FWS", TC_pwrite },
		{ "FWFS", TC_pwritev2 }, { "D", TC_fallocate },
		{ "DE", TC_fallocate }, { "F", TC_fsync }, { "FF", TC_fsync },
		{ "FN", TC_fsync }, { "N", -1 }, { "", -1 },
	};
	struct trace_rec r;
	size_t i;
	int got;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memset(&r, 0, sizeof(r));
		got = trace_blk_call(t[i].rwbs, &r) ? r.call : -1;
		if (got != t[i].call)
			fail_msg("RWBS '%s': call %d, not %d", t[i].rwbs, got,
				 t[i].call);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_order_and_leftovers),
		cmocka_unit_test(test_partition),
		cmocka_unit_test(test_read_back),
		cmocka_unit_test(test_rwbs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
