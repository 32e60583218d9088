/* test_durability.c - the durability verdict's rules (durability.c): every
 * policy over every kind of stack, and the reason's words that say why. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/target/durability.h"
#include "../../src/core/spec.h"

/* A stack: a device (or file on one) with the given write cache. */
static struct dur_stack stack(bool file, int wc)
{
	struct dur_stack st;

	memset(&st, 0, sizeof(st));
	st.file = file;
	st.top_write_cache = wc;
	strcpy(st.chain, file ? "on ext4 on sdb" : "sdb");
	return st;
}

/* A write workload with the policy text ("-f" for the classic -f). */
static struct spec writes(const char *policy, bool paged)
{
	struct spec s;
	char err[128];

	spec_defaults(&s);
	s.op = OP_WRITE;
	s.paged = paged;
	if (!strcmp(policy, "-f"))
		s.buffered = true;
	else
		assert_int_equal(sync_policy_parse(policy, &s.sync, err,
						   sizeof(err)), 0);
	return s;
}

static int judge(const char *policy, bool paged, const struct dur_stack *st,
		 char *reason)
{
	struct spec s = writes(policy, paged);
	struct dur_verdict v;

	dur_judge(&s, st, &v);
	if (reason)
		strcpy(reason, v.reason);
	return v.verdict;
}

static void test_no_writes_no_verdict(void **state)
{
	struct dur_stack st = stack(false, 1);
	struct spec s = writes("dsync", false);
	struct dur_verdict v;

	(void)state;
	s.op = OP_READ;
	dur_judge(&s, &st, &v);
	assert_int_equal(v.verdict, DUR_NA);
	assert_string_equal(dur_name(v.verdict), "-");
}

/* Each write made durable before it is acknowledged: durable on any
 * device, whatever its cache, since the flush empties it. */
static void test_per_write_policies_durable(void **state)
{
	static const char *const each[] = { "dsync", "sync", "rwf-dsync",
					     "fsync:1", "fdatasync:1" };
	char why[1024];
	size_t i;
	int wc;

	(void)state;
	for (i = 0; i < sizeof(each) / sizeof(each[0]); i++)
		for (wc = -1; wc <= 1; wc++) {
			struct dur_stack dev = stack(false, wc);
			struct dur_stack file = stack(true, wc);

			assert_int_equal(judge(each[i], false, &dev, why), DUR_DURABLE);
			assert_int_equal(judge(each[i], true, &file, why), DUR_DURABLE);
		}
	judge("fdatasync:1", false, &(struct dur_stack){ .chain = "sdb" }, why);
	assert_non_null(strstr(why, "every write is followed by fdatasync"));
}

/* Nothing flushes, or not after each write: the page cache or a
 * write-back cache acknowledges them. */
static void test_late_or_no_flush_not_durable(void **state)
{
	static const char *const late[] = { "-f", "none", "end", "fsync:2",
					    "fdatasync:64", "sfr:1", "sfr:8" };
	struct dur_stack wb = stack(false, 1);
	char why[1024];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(late) / sizeof(late[0]); i++) {
		assert_int_equal(judge(late[i], true, &wb, why), DUR_NOT_DURABLE);
		assert_non_null(strstr(why, "page cache"));
		assert_int_equal(judge(late[i], false, &wb, why), DUR_NOT_DURABLE);
		assert_non_null(strstr(why, "write-back cache of sdb"));
	}
	judge("fdatasync:64", false, &wb, why);
	assert_non_null(strstr(why, "up to 63 acknowledged writes"));
	judge("end", false, &wb, why);
	assert_non_null(strstr(why, "after the last write"));
	judge("sfr:1", false, &wb, why);
	assert_non_null(strstr(why, "flushes neither the device's cache"));
}

/* A file's chain starts "on ext4 on sdb": the sentences that name the
 * device's cache name the device of the file, with no word left out
 * ("the write-back cache of on ext4", issue 27). */
static void test_file_sentences(void **state)
{
	struct dur_stack wb = stack(true, 1), wt = stack(true, 0);
	struct dur_stack unknown = stack(true, -1);
	char why[1024];

	(void)state;
	assert_int_equal(judge("none", false, &wb, why), DUR_NOT_DURABLE);
	assert_string_equal(why, "O_DIRECT writes are acknowledged from the write-back cache of the device of a file on ext4 on sdb and nothing flushes the writes (--sync none)");
	assert_int_equal(judge("none", false, &wt, why), DUR_UNKNOWN);
	assert_string_equal(why, "O_DIRECT writes reach the device of a file on ext4 on sdb, which reports write through, but nothing flushes the writes (--sync none) and the file system's metadata may still be in memory");
	assert_int_equal(judge("none", false, &unknown, why), DUR_UNKNOWN);
	assert_string_equal(why, "O_DIRECT writes and nothing flushes the writes (--sync none), and the write cache mode of the device of a file on ext4 on sdb is unknown");
}

/* O_DIRECT with no flush onto a device that reports write through: the
 * device promises each write; onto a file, its metadata may not be. */
static void test_write_through(void **state)
{
	struct dur_stack dev = stack(false, 0), file = stack(true, 0);
	struct dur_stack unknown = stack(false, -1);
	char why[1024];

	(void)state;
	assert_int_equal(judge("none", false, &dev, why), DUR_DURABLE);
	assert_non_null(strstr(why, "reports write through"));
	assert_int_equal(judge("none", false, &file, why), DUR_UNKNOWN);
	assert_non_null(strstr(why, "metadata"));
	assert_int_equal(judge("none", false, &unknown, why), DUR_UNKNOWN);
	/* the page cache is volatile whatever the device says */
	assert_int_equal(judge("none", true, &dev, NULL), DUR_NOT_DURABLE);
}

/* RAM loses everything, whatever the policy. */
static void test_ram(void **state)
{
	struct dur_stack st = stack(false, 0);
	char why[1024];

	(void)state;
	st.ram = true;
	strcpy(st.what, "zram0");
	strcpy(st.chain, "zram0");
	assert_int_equal(judge("dsync", false, &st, why), DUR_NOT_DURABLE);
	assert_non_null(strstr(why, "RAM (zram0)"));
	assert_int_equal(judge("fsync:1", true, &st, NULL), DUR_NOT_DURABLE);
}

/* A file system that makes no promise we can see, or a stack we could
 * not follow: a durable policy is unknown, a late one still not durable. */
static void test_no_promise_and_lost(void **state)
{
	struct dur_stack fuse = stack(true, -1), lost = stack(true, -1);
	char why[1024];

	(void)state;
	fuse.no_promise = true;
	strcpy(fuse.what, "a fuse file system");
	assert_int_equal(judge("dsync", false, &fuse, why), DUR_UNKNOWN);
	assert_non_null(strstr(why, "fuse"));
	assert_int_equal(judge("none", true, &fuse, NULL), DUR_NOT_DURABLE);
	lost.lost = true;
	strcpy(lost.what, "no block device 0:45 in /sys/dev/block");
	assert_int_equal(judge("fdatasync:1", false, &lost, why), DUR_UNKNOWN);
	assert_non_null(strstr(why, "0:45"));
}

/* A total takes the worst: the enum's order is the ranking. */
/* A file system in the stack that sends no flush (nobarrier over a
 * write-back cache): no policy is durable, and the reason says which
 * file system and which option. */
static void test_nobarrier(void **state)
{
	static const char *const pols[] = { "dsync", "fdatasync:1", "fsync:1",
					     "rwf-dsync", "none", "-f" };
	struct dur_stack st = stack(true, 1);
	char why[1024];
	size_t i;

	(void)state;
	st.no_flush = true;
	strcpy(st.no_flush_what, "ext4 on loop2 is mounted nobarrier");
	for (i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
		assert_int_equal(judge(pols[i], false, &st, why),
				 DUR_NOT_DURABLE);
		assert_non_null(strstr(why, "ext4 on loop2 is mounted nobarrier: it sends no cache flush or FUA write"));
	}
	/* RAM says more than nobarrier does: it comes first */
	st.ram = true;
	assert_int_equal(judge("dsync", false, &st, why), DUR_NOT_DURABLE);
	assert_non_null(strstr(why, "lands in RAM"));
}

static void test_order_and_names(void **state)
{
	(void)state;
	assert_true(DUR_NOT_DURABLE > DUR_UNKNOWN);
	assert_true(DUR_UNKNOWN > DUR_DURABLE);
	assert_string_equal(dur_name(DUR_DURABLE), "durable");
	assert_string_equal(dur_name(DUR_NOT_DURABLE), "not-durable");
	assert_string_equal(dur_name(DUR_UNKNOWN), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_writes_no_verdict),
		cmocka_unit_test(test_per_write_policies_durable),
		cmocka_unit_test(test_late_or_no_flush_not_durable),
		cmocka_unit_test(test_write_through),
		cmocka_unit_test(test_file_sentences),
		cmocka_unit_test(test_ram),
		cmocka_unit_test(test_no_promise_and_lost),
		cmocka_unit_test(test_nobarrier),
		cmocka_unit_test(test_order_and_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
