/* mix.h - per-I/O mixes of operations (-o read/70:write/30) and of sizes
 * (-b 4k/10:64k/90, -b 100-400/1): parsing, checking against the target,
 * the tables the hot loop draws from, and how to say them.
 *
 * Syntax, chosen so that it cannot be read as a sweep (A..B/STEP, a,b,c):
 *
 *   OP/PCT:OP/PCT...      operation mix; OP is read, write, trim, fsync or
 *                         fdatasync; a blank share (OP or OP/) takes an equal
 *                         part of what the given shares leave
 *   SIZE/PCT:SIZE/PCT...  size split, fio's bssplit form, blanks the same way
 *   MIN-MAX[/STEP]        every size MIN, MIN+STEP, ..., MAX equally likely
 *                         (fio's bsrange form with a step; without one the
 *                         step is the logical sector with O_DIRECT, 1 byte
 *                         with -p)
 *
 * Shares are drawn with 53-bit thresholds, as the rw mix always was, so a
 * seed gives the same operations and sizes on every run.
 */
#ifndef REBENCH_MIX_H
#define REBENCH_MIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/iokind.h"

#define SIZE_MIX_MAX 64		/* entries of a size split */
#define SIZE_BINS_MAX 64	/* bins of achieved size shares */

/* Thresholds in 53-bit units: draw r = prng_next() >> 11 and take the
 * first entry whose below[] exceeds r. */
#define MIX_ONE (1ULL << 53)

/* Intended shares of the operation kinds, percent, summing to 100. */
struct op_mix {
	double pct[IO_KINDS];
};

/* What -b asked for beyond one size. */
struct size_mix {
	unsigned n;		/* split entries; 0: no split */
	uint64_t size[SIZE_MIX_MAX];
	double pct[SIZE_MIX_MAX];	/* after blanks were filled */
	bool range;		/* MIN-MAX[/STEP]: size[0]..size[1] */
	uint64_t step;		/* range step */
	bool step_given;	/* else the target decides (spec_resolve) */
};

/* The draw tables a thread uses, built once per workload. */
struct size_table {
	bool active;		/* false: every I/O is spec.bs */
	unsigned n;		/* split entries (0 for a range) */
	uint64_t below[SIZE_MIX_MAX];
	uint32_t size[SIZE_MIX_MAX];
	uint64_t min, step, nsizes;	/* range */
	unsigned nbins;		/* achieved-share bins: the split's entries,
				 * or runs of per_bin consecutive sizes */
	uint64_t per_bin;
	double intended[SIZE_BINS_MAX];	/* fraction of I/Os per bin */
};

/* Parse -o (a plain name or a mix) into *op and *mix; 0, or -EINVAL with
 * why in err.  A plain name keeps its enum io_op; a mix is OP_MIX. */
int mix_parse_ops(const char *text, int *op, struct op_mix *mix,
		  char *err, size_t len);
/* The shares of a plain operation (rw takes rwmix). */
void mix_ops_of(int op, double rwmix, struct op_mix *mix);
/* A bit per enum io_kind with a share above 0. */
unsigned mix_kinds(const struct op_mix *mix);

/* Parse -b: one size (*bs), a split or a range (*mix, *bs = largest). */
int mix_parse_sizes(const char *text, uint64_t *bs, struct size_mix *mix,
		    char *err, size_t len);
bool size_mix_active(const struct size_mix *m);
uint64_t size_mix_min(const struct size_mix *m, uint64_t bs);
/* Mean bytes per data I/O. */
double size_mix_mean(const struct size_mix *m, uint64_t bs);

/* Build t from a resolved mix (range step set). */
void size_table_build(struct size_table *t, const struct size_mix *m);

/* "read/70:write/30", "4k/10:64k/90", "100-400/1": the form it was given
 * in, blanks filled. */
char *mix_ops_text(const struct op_mix *mix, char *buf, size_t len);
char *mix_sizes_text(const struct size_mix *m, uint64_t bs, char *buf,
		     size_t len);

/* Achieved against intended size shares: chi-square over the bins,
 * adjacent bins merged until each expects at least 5 I/Os. */
struct size_fit {
	bool present;
	unsigned nbins;
	uint64_t hits[SIZE_BINS_MAX];
	uint64_t n;
	double chi2, p_value;
	unsigned dof;
};

void size_fit_compute(struct size_fit *f, const struct size_table *t,
		      const uint64_t *const *hits, unsigned nthreads);
/* A bin's label: "4k" for a split entry, "100-163" for a range's run. */
char *size_bin_label(const struct size_table *t, unsigned bin, char *buf,
		     size_t len);

#endif
