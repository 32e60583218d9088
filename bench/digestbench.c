/* digestbench.c - what --verify's checksums cost a 4 KiB block on this
 * CPU, in ns and against crc32c: each implementation rebench can pick
 * (crc32c by SSE4.2 and by table, xxh64, sha256 by SHA-NI and portable),
 * the median of 7 runs of N digests.  callgrind (bench/instructions.sh)
 * counts instructions but hides SHA-NI from the program it runs, so
 * sha256's figure there is the portable one; this is the figure with it.
 *
 *   bench/digestbench [N]     (N: digests per run, 20000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/core/crc32c.h"
#include "../src/core/digest.h"
#include "../src/core/sha256.h"
#include "../src/core/spec.h"

#define BS 4096
#define RUNS 7

static unsigned char blk[BS];
static volatile unsigned sink;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void c_hw(unsigned char *o) { unsigned v = crc32c(0, blk, BS); memcpy(o, &v, 4); }
static void c_sw(unsigned char *o) { unsigned v = crc32c_sw(0, blk, BS); memcpy(o, &v, 4); }
static void x64(unsigned char *o) { digest_of(VERIFY_XXH64)->sum(blk, BS, o); }
static void s_hw(unsigned char *o) { sha256(blk, BS, o); }
static void s_sw(unsigned char *o) { sha256_sw(blk, BS, o); }

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* the median ns per digest of RUNS runs of n */
static double measure(void (*f)(unsigned char *), long n)
{
	unsigned char out[DIGEST_MAX];
	double t[RUNS], t0;
	long i;
	int r;

	for (r = 0; r < RUNS; r++) {
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			blk[0] = (unsigned char)i;	/* not hoisted */
			f(out);
			sink += out[0];
		}
		t[r] = (now_ns() - t0) / (double)n;
	}
	qsort(t, RUNS, sizeof(t[0]), cmp);
	return t[RUNS / 2];
}

int main(int argc, char **argv)
{
	char l1[40], l2[40];
	long n = argc > 1 ? atol(argv[1]) : 20000;
	double base;
	size_t i;

	if (n <= 0) {
		fprintf(stderr, "digestbench: N must be a positive count of digests, not '%s'\n", argv[1]);
		return 2;
	}
	for (i = 0; i < BS; i++)
		blk[i] = (unsigned char)(i * 2654435761U >> 13);
	snprintf(l1, sizeof(l1), "crc32c (%s)", crc32c_impl());
	snprintf(l2, sizeof(l2), "sha256 (%s)", sha256_impl());
	struct { const char *label; void (*f)(unsigned char *); int built; } c[] = {
		{ l1, c_hw, 1 },
		{ "crc32c (slice-by-8)", c_sw, 1 },
		{ "xxh64 (libxxhash)", x64, digest_of(VERIFY_XXH64)->built },
		{ l2, s_hw, 1 },
		{ "sha256 (portable)", s_sw, 1 },
	};
	printf("--verify's checksums over a 4 KiB block (median of %d runs of %ld):\n", RUNS, n);
	printf("%-24s %10s %10s\n", "checksum", "ns", "x crc32c");
	base = measure(c_hw, n);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		double ns;

		if (!c[i].built) {
			printf("%-24s %10s\n", c[i].label, "not built");
			continue;
		}
		ns = i ? measure(c[i].f, n) : base;
		printf("%-24s %10.0f %10.1f\n", c[i].label, ns, ns / base);
	}
	return 0;
}
