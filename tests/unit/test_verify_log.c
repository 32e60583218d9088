/* test_verify_log.c - --verify-log's file (src/core/verify_log.c): the
 * header read back and each way a header can be wrong; a record's strict
 * form (two decimal numbers, one space, nothing else, no overflow); the
 * records held to the header's region (below it, between blocks, past
 * it), generations 1 to 2^32-1, the highest kept whatever the order, a
 * torn last line left out and a bad middle line refused with its number;
 * the writer's records read back by the reader: written at once under a
 * per-write policy, at the flush under a flushing one (each pending block
 * once, its generation at the flush; the writes after the last flush
 * counted as not durable), past the list of pending blocks in offset
 * order; and verify_check_range(), the check of a block against the
 * log's generation (older lost, newer fine unless past the last written).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/verify.h"
#include "core/verify_log.h"
#include "temp_text.h"

#define HEAD "rebench-verify-log 1\n" \
	     "seed 7 block-size 4096 region-start 8192 blocks 4 algorithm crc32c sync dsync\n" \
	     "target /dev/loop9\n"

/* text as a stream (fmemopen), for the readers */
static FILE *text_file(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	assert_non_null(f);
	return f;
}

/* The header of text: verify_log_read_head()'s return, *line set. */
static int head_of(const char *text, struct verify_log_head *h, int *line)
{
	FILE *f = text_file(text);
	int ret = verify_log_read_head(f, h, line);

	fclose(f);
	return ret;
}

static void test_head(void **state)
{
	static struct verify_log_head h;
	int line;

	(void)state;
	assert_int_equal(head_of(HEAD, &h, &line), 0);
	assert_int_equal(line, 0);
	assert_true(h.seed == 7 && h.bs == 4096 && h.region_start == 8192 &&
		    h.blocks == 4);
	assert_string_equal(h.algo, "crc32c");
	assert_string_equal(h.sync, "dsync");
	assert_string_equal(h.target, "/dev/loop9");
	/* a target path with spaces is the rest of its line */
	assert_int_equal(head_of("rebench-verify-log 1\nseed 1 block-size 512 region-start 0 blocks 1 algorithm sha256 sync fsync:16\ntarget /tmp/a b\n",
				 &h, &line), 0);
	assert_string_equal(h.target, "/tmp/a b");
	assert_string_equal(h.sync, "fsync:16");

	/* each line wrong in turn: the line named */
	assert_int_equal(head_of("rebench-verify-state 1\n", &h, &line), -EINVAL);
	assert_int_equal(line, 1);
	assert_int_equal(head_of("rebench-verify-log 2\n", &h, &line), -EINVAL);
	assert_int_equal(line, 1);
	assert_int_equal(head_of("", &h, &line), -EINVAL);
	assert_int_equal(line, 1);
	assert_int_equal(head_of("rebench-verify-log 1\nseed 7 block-size 4096 region-start 0 blocks 4 algorithm crc32c\ntarget /x\n",
				 &h, &line), -EINVAL);
	assert_int_equal(line, 2);	/* no sync */
	assert_int_equal(head_of("rebench-verify-log 1\nseed 7 block-size 4096 region-start 0 blocks 4 algorithm crc32c sync dsync x\ntarget /x\n",
				 &h, &line), -EINVAL);
	assert_int_equal(line, 2);	/* something after it */
	assert_int_equal(head_of("rebench-verify-log 1\nseed 7 block-size 0 region-start 0 blocks 4 algorithm crc32c sync dsync\ntarget /x\n",
				 &h, &line), -EINVAL);
	assert_int_equal(line, 2);	/* no block size */
	assert_int_equal(head_of("rebench-verify-log 1\nseed 7 block-size 4096 region-start 0 blocks 0 algorithm crc32c sync dsync\ntarget /x\n",
				 &h, &line), -EINVAL);
	assert_int_equal(line, 2);	/* no blocks */
	assert_int_equal(head_of("rebench-verify-log 1\nseed 7 block-size 4096 region-start 0 blocks 4 algorithm crc32c sync dsync\nTarget /x\n",
				 &h, &line), -EINVAL);
	assert_int_equal(line, 3);
	assert_int_equal(head_of("rebench-verify-log 1\nseed 7 block-size 4096 region-start 0 blocks 4 algorithm crc32c sync dsync\ntarget \n",
				 &h, &line), -EINVAL);
	assert_int_equal(line, 3);	/* no path */
	assert_int_equal(head_of("rebench-verify-log 1\nseed 7 block-size 4096 region-start 0 blocks 4 algorithm crc32c sync dsync\ntarget /x",
				 &h, &line), -EINVAL);
	assert_int_equal(line, 3);	/* torn before the records began */
}

static void test_record(void **state)
{
	static const char *const bad[] = {
		"", "0", "0 ", " 0 1", "0  1", "0 1 ", "0 1\r", "-1 1", "+1 1",
		"0 x", "x 1", "0x10 1", "1.5 1", "0\t1",
		"18446744073709551616 1",	/* 2^64 */
		"1 99999999999999999999999",
	};
	uint64_t off, gen;
	size_t i;

	(void)state;
	assert_int_equal(verify_log_parse_record("0 1", &off, &gen), 0);
	assert_true(off == 0 && gen == 1);
	assert_int_equal(verify_log_parse_record("1099511627776 4294967295", &off, &gen), 0);
	assert_true(off == 1099511627776ULL && gen == 4294967295ULL);
	assert_int_equal(verify_log_parse_record("18446744073709551615 7", &off, &gen), 0);
	assert_true(off == UINT64_MAX && gen == 7);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (verify_log_parse_record(bad[i], &off, &gen) != -EINVAL)
			fail_msg("record \"%s\" taken", bad[i]);
}

/* The records of text (after HEAD's region: 4 blocks of 4096 from 8192)
 * into durable[4]: the reader's return, with r and line. */
static int records_of(const char *text, uint32_t *durable,
		      struct verify_log_result *r, uint64_t *line, char *why)
{
	static struct verify_log_head h;
	FILE *f = text_file(text);
	int n, ret;

	assert_int_equal(verify_log_read_head(f, &h, &n), 0);
	memset(durable, 0, 4 * sizeof(*durable));
	memset(r, 0, sizeof(*r));
	ret = verify_log_read_records(f, &h, durable, r, line, why, 256);
	fclose(f);
	return ret;
}

static void test_records(void **state)
{
	static const char *const bad[] = {
		HEAD "8192 1\n4096 1\n",	/* below the region */
		HEAD "8192 1\n10240 1\n",	/* between two blocks */
		HEAD "8192 1\n24576 1\n",	/* past its 4 blocks */
		HEAD "8192 1\n8192 0\n",	/* generation 0 */
		HEAD "8192 1\n8192 4294967296\n",	/* past 32 bits */
		HEAD "8192 1\n8192 1 x\n",
		HEAD "8192 1\n\n",		/* an empty line */
	};
	struct verify_log_result r;
	uint32_t d[4];
	uint64_t line;
	char why[256];
	size_t i;

	(void)state;
	/* the header alone: no record */
	assert_int_equal(records_of(HEAD, d, &r, &line, why), 0);
	assert_true(r.records == 0 && r.durable_blocks == 0 && !r.torn);
	/* the highest generation of a block counts, whatever the order */
	assert_int_equal(records_of(HEAD "20480 3\n8192 1\n20480 5\n20480 4\n12288 2\n",
				    d, &r, &line, why), 0);
	assert_int_equal(r.records, 5);
	assert_int_equal(r.durable_blocks, 3);
	assert_true(d[0] == 1 && d[1] == 2 && d[2] == 0 && d[3] == 5);
	assert_false(r.torn);
	/* a last line without its newline: torn by a crash, left out */
	assert_int_equal(records_of(HEAD "8192 1\n12288 1\n1638", d, &r, &line, why), 0);
	assert_true(r.records == 2 && r.torn && d[2] == 0);
	assert_int_equal(records_of(HEAD "8192 1\n12288 1\n16384 1", d, &r, &line, why), 0);
	assert_true(r.records == 2 && r.torn && d[2] == 0);	/* whole, but torn */
	/* a bad line that is not the last: refused, by its number */
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (records_of(bad[i], d, &r, &line, why) != -EINVAL || line != 5)
			fail_msg("log %zu: taken, or not refused at line 5 (%llu)",
				 i, (unsigned long long)line);
	}
	assert_int_equal(records_of(bad[0], d, &r, &line, why), -EINVAL);
	assert_non_null(strstr(why, "offset 4096 is not a block of the header's region"));
	assert_int_equal(records_of(bad[3], d, &r, &line, why), -EINVAL);
	assert_non_null(strstr(why, "generation 0"));
	/* checked only: no map */
	{
		static struct verify_log_head h;
		FILE *f = text_file(HEAD "8192 1\n8192 2\n");
		int n;

		assert_int_equal(verify_log_read_head(f, &h, &n), 0);
		memset(&r, 0, sizeof(r));
		assert_int_equal(verify_log_read_records(f, &h, NULL, &r, &line, why, sizeof(why)), 0);
		assert_int_equal(r.records, 2);
		fclose(f);
	}
}

/* The log at path read back: its records into durable[n], r filled. */
static void read_back(const char *path, uint32_t *durable, uint64_t n,
		      struct verify_log_result *r)
{
	static struct verify_log_head h;
	FILE *f = fopen(path, "r");
	uint64_t line;
	char why[256];
	int hl;

	assert_non_null(f);
	assert_int_equal(verify_log_read_head(f, &h, &hl), 0);
	assert_int_equal(h.blocks, n);
	memset(durable, 0, n * sizeof(*durable));
	memset(r, 0, sizeof(*r));
	assert_int_equal(verify_log_read_records(f, &h, durable, r, &line, why, sizeof(why)), 0);
	fclose(f);
}

static struct verify_log_head small_head(uint64_t blocks, const char *sync)
{
	struct verify_log_head h;

	memset(&h, 0, sizeof(h));
	h.seed = 7;
	h.bs = 4096;
	h.region_start = 8192;
	h.blocks = blocks;
	snprintf(h.algo, sizeof(h.algo), "crc32c");
	snprintf(h.sync, sizeof(h.sync), "%s", sync);
	snprintf(h.target, sizeof(h.target), "/dev/loop9");
	return h;
}

static void test_writer_per_write(void **state)
{
	char path[] = "/tmp/test_verify_log.XXXXXX";
	struct verify_log_head h = small_head(4, "dsync");
	struct verify_log_result w, r;
	struct verify_log *l;
	uint32_t gen[4] = { 0 }, d[4];

	(void)state;
	write_temp_text(path, "old text, truncated by the writer\n");
	assert_int_equal(verify_log_open_head(&l, path, &h, true, gen, &w), 0);
	assert_true(w.on && !w.read && w.records == 0);
	gen[2] = 1;
	verify_log_acked(l, 2);
	gen[0] = 1;
	verify_log_acked(l, 0);
	assert_int_equal(w.records, 2);	/* on the file as each returned */
	gen[2] = 2;
	verify_log_acked(l, 2);
	verify_log_flushed(l);		/* nothing kept: nothing more */
	assert_int_equal(w.records, 3);
	verify_log_close(l);
	assert_true(w.records == 3 && w.durable_blocks == 2 &&
		    w.not_durable == 0 && w.err == 0);
	assert_string_equal(w.sync, "dsync");
	read_back(path, d, 4, &r);
	assert_true(r.records == 3 && r.durable_blocks == 2 && !r.torn);
	assert_true(d[0] == 1 && d[1] == 0 && d[2] == 2 && d[3] == 0);
	unlink(path);
}

static void test_writer_flushes(void **state)
{
	char path[] = "/tmp/test_verify_log.XXXXXX";
	struct verify_log_head h = small_head(4, "fsync:4");
	struct verify_log_result w, r;
	struct verify_log *l;
	uint32_t gen[4] = { 0 }, d[4];

	(void)state;
	write_temp_text(path, "");
	assert_int_equal(verify_log_open_head(&l, path, &h, false, gen, &w), 0);
	gen[1] = 1;
	verify_log_acked(l, 1);
	gen[3] = 1;
	verify_log_acked(l, 3);
	gen[1] = 2;
	verify_log_acked(l, 1);		/* again before the flush */
	assert_int_equal(w.records, 0);	/* nothing durable yet */
	verify_log_flushed(l);
	assert_int_equal(w.records, 2);	/* each block once, as it is now */
	gen[0] = 1;
	verify_log_acked(l, 0);
	gen[3] = 2;
	verify_log_acked(l, 3);		/* never flushed */
	verify_log_close(l);
	assert_true(w.records == 2 && w.durable_blocks == 2 &&
		    w.not_durable == 2 && w.err == 0);
	read_back(path, d, 4, &r);
	assert_true(r.records == 2 && r.durable_blocks == 2);
	assert_true(d[0] == 0 && d[1] == 2 && d[2] == 0 && d[3] == 1);
	unlink(path);
}

/* More blocks pending than the list holds: the bitmap walked, each block
 * once, in offset order. */
static void test_writer_many(void **state)
{
	enum { N = 70000 };
	char path[] = "/tmp/test_verify_log.XXXXXX";
	struct verify_log_head h = small_head(N, "end");
	struct verify_log_result w, r;
	struct verify_log *l;
	uint32_t *gen = calloc(N, sizeof(*gen)), *d = calloc(N, sizeof(*d));
	uint64_t b, prev = 0;
	char line[64];
	FILE *f;
	int i;

	(void)state;
	assert_true(gen && d);
	write_temp_text(path, "");
	assert_int_equal(verify_log_open_head(&l, path, &h, false, gen, &w), 0);
	for (b = N; b-- > 0;) {	/* backwards: the list is not in order */
		gen[b] = 1;
		verify_log_acked(l, b);
	}
	gen[5]++;
	verify_log_acked(l, 5);
	verify_log_flushed(l);
	verify_log_close(l);
	assert_true(w.records == N && w.durable_blocks == N &&
		    w.not_durable == 0);
	read_back(path, d, N, &r);
	assert_true(r.records == N && r.durable_blocks == N && d[5] == 2 &&
		    d[N - 1] == 1);
	f = fopen(path, "r");
	assert_non_null(f);
	for (i = 0; i < 3; i++)
		assert_non_null(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f)) {
		b = strtoull(line, NULL, 10);
		assert_true(b >= prev);
		prev = b;
	}
	fclose(f);
	unlink(path);
	free(gen);
	free(d);
}

static void test_check_range(void **state)
{
	unsigned char blk[4096];
	struct verify_mismatch m;

	(void)state;
	verify_fill(blk, sizeof(blk), VERIFY_CRC32C, 8192, 7, 3);
	/* the log said 3: 3 ok, and so is 3 when the state says up to 5 */
	assert_int_equal(verify_check_range(blk, sizeof(blk), VERIFY_CRC32C, 8192, 7, 3, UINT64_MAX, &m), VC_OK);
	assert_int_equal(verify_check_range(blk, sizeof(blk), VERIFY_CRC32C, 8192, 7, 3, 5, &m), VC_OK);
	/* the log said 2: a later write landed, fine */
	assert_int_equal(verify_check_range(blk, sizeof(blk), VERIFY_CRC32C, 8192, 7, 2, UINT64_MAX, &m), VC_OK);
	/* the log said 4: the durable write was lost */
	assert_int_equal(verify_check_range(blk, sizeof(blk), VERIFY_CRC32C, 8192, 7, 4, UINT64_MAX, &m), VC_LOST);
	assert_string_equal(m.expected, "offset 8192 generation 4 (durable) or a later one, of seed 7");
	assert_non_null(strstr(m.found, "generation 3, an older write: generation 4 was lost"));
	/* newer than the state's last write: corrupt */
	assert_int_equal(verify_check_range(blk, sizeof(blk), VERIFY_CRC32C, 8192, 7, 1, 2, &m), VC_CORRUPT);
	assert_string_equal(m.expected, "offset 8192 generation 1 (durable) to 2 of seed 7");
	/* one generation: the words of verify_check() as before */
	assert_int_equal(verify_check(blk, sizeof(blk), VERIFY_CRC32C, 8192, 7, 4, &m), VC_LOST);
	assert_string_equal(m.expected, "offset 8192 generation 4 of seed 7");
	memset(blk, 0, sizeof(blk));
	assert_int_equal(verify_check_range(blk, sizeof(blk), VERIFY_CRC32C, 8192, 7, 1, UINT64_MAX, &m), VC_UNWRITTEN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_head),
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_writer_per_write),
		cmocka_unit_test(test_writer_flushes),
		cmocka_unit_test(test_writer_many),
		cmocka_unit_test(test_check_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
