/* fio_job.c - rebench --fio: each resolved workload as an fio job (fio 3.x
 * option names, checked against fio 3.33 with --parse-only and against
 * fio's offset generators, not only its documentation).
 *
 *   rebench                      fio
 *   -t stateful/stateless        ioengine=sync / psync
 *   -t mmap/paio/naio/uring      ioengine=mmap / posixaio / libaio / io_uring
 *                                (uring: fixedbufs, registerfiles, and
 *                                its own options: the engine's describe())
 *   -o, -w                       rw=[rand]read|write|trim|rw, rwmixread
 *   -o trim on a file            ioengine=falloc (fio trims devices only)
 *   -b                           bs
 *   -s (rnd)                     blockalign: offsets start + k * stride
 *   -s (seq) > -b                rw=read:GAP, GAP = stride - bs
 *   -r backward                  rw=read:-(stride + bs)
 *   region                       offset, size (see job_region())
 *   -d time / bytes / %          time_based + runtime / io_size per job
 *   -u uniform/zipf/pareto       random_distribution=random/zipf:T:C/pareto:H:C
 *   -u powerlaw                  pareto:H with ln H / ln(1 - H) = 100/sigma - 1
 *   -u pow (exp)                 zoned: fio has no exponential; its CDF at
 *                                1% steps, rounded to whole percentages
 *   -u normal/zoned/const        normal:DEV / zoned:A/R... / a one-block region
 *   -q, --batch                  iodepth, iodepth_batch_submit,
 *                                iodepth_batch_complete_min (max = iodepth)
 *   -c                           numjobs (thread=1, group_reporting=1)
 *   -p                           direct=0
 *   --sync (-f: none)            dsync, sync: sync=dsync, sync=sync;
 *                                fsync:N, fdatasync:N: fsync=N, fdatasync=N;
 *                                sfr:N: sync_file_range=wait_before,write,
 *                                wait_after:N;
 *                                end: end_fsync=1
 *   -z                           thinktime (us)
 *   --seed                       randseed, allrandrepeat=1
 *   --warmup, --drop-caches      ramp_time, invalidate=1
 *   --fadvise sequential/random  fadvise_hint=sequential/random
 *
 * Everything else that changes the work is a "# not expressible in fio:"
 * comment in its job.  fio defaults that rebench does not share are turned
 * off: the random map (norandommap), fadvise hints, cache invalidation and
 * buffer scrambling.
 */
#include "study/fio_job.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/engine.h"
#include "core/options.h"
#include "core/plan.h"
#include "report/report.h"
#include "core/validate.h"
#include "report/version.h"
#include "report/summary.h"

#define JOB_LINES 64
#define NOTE "# not expressible in fio: "

/* One section: "key=value" settings and "# ..." comments, in order. */
struct job {
	char *line[JOB_LINES];
	bool global[JOB_LINES];	/* hoisted into [global] */
	int n;
	int err;
};

static void vadd(struct job *j, const char *fmt, va_list ap)
{
	char *l;

	if (j->err)
		return;
	if (j->n == JOB_LINES) {
		j->err = -E2BIG;
		return;
	}
	if (vasprintf(&l, fmt, ap) < 0) {
		j->err = -ENOMEM;
		return;
	}
	j->line[j->n++] = l;
}

static void __attribute__((format(printf, 2, 3)))
add(struct job *j, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(j, fmt, ap);
	va_end(ap);
}

/* A setting fio cannot express: one comment line. */
static void __attribute__((format(printf, 2, 3)))
note(struct job *j, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	add(j, NOTE "%s", buf);
}

static void job_free(struct job *j)
{
	int i;

	for (i = 0; i < j->n; i++)
		free(j->line[i]);
	j->n = 0;
}

static bool is_setting(const char *l)
{
	return l[0] != '#';
}

/* fio separates file names with ':'; a literal one is "\:". */
static void escape_path(char *dst, size_t len, const char *src)
{
	size_t o = 0;

	for (; *src && o + 2 < len; src++) {
		if (*src == ':')
			dst[o++] = '\\';
		dst[o++] = *src;
	}
	dst[o] = '\0';
}

/* fio times: s, ms or us suffix, exact when ns allows; *inexact when the
 * value was rounded up to a whole microsecond. */
static void fio_time(char *buf, size_t len, uint64_t ns, bool *inexact)
{
	*inexact = ns % NSEC_PER_USEC != 0;
	if (ns % NSEC_PER_SEC == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(ns / NSEC_PER_SEC));
	else if (ns % NSEC_PER_MSEC == 0)
		snprintf(buf, len, "%llums", (unsigned long long)(ns / NSEC_PER_MSEC));
	else
		snprintf(buf, len, "%lluus",
			 (unsigned long long)((ns + NSEC_PER_USEC - 1) /
					      NSEC_PER_USEC));
}

static bool is_whole(double v)
{
	return fabs(v - rint(v)) < 1e-9;
}

/* ---------------------------------------------------------------- engine */

/* --sync in fio's words: each policy has one (fio_mix_check refuses the
 * one case it cannot take). */
static void job_sync(struct job *j, const struct sync_policy *sp)
{
	switch (sp->mode) {
	case SYNC_DSYNC:
		add(j, "sync=dsync");
		break;
	case SYNC_OSYNC:
		add(j, "sync=sync");
		break;
	case SYNC_FSYNC:
	case SYNC_FDATASYNC:
		add(j, "%s=%u", sp->mode == SYNC_FSYNC ? "fsync" : "fdatasync",
		    sp->every);
		break;
	case SYNC_SFR:
		add(j, "sync_file_range=wait_before,write,wait_after:%u",
		    sp->every);
		break;
	case SYNC_END:
		add(j, "end_fsync=1");
		break;
	default:
		break;
	}
}

static void put_fio(void *arg, const char *line)
{
	add(arg, "%s", line);
}

static void job_engine(struct job *j, const struct workload *wl)
{
	const struct spec *s = &wl->spec;
	const struct engine_ops *e = wl->run.eng;
	struct engine_words words = { .fio = put_fio, .arg = j };
	bool writes = SPEC_DOES(s, IO_WRITE);
	struct sync_policy sp = spec_sync(s);

	if (s->op == OP_TRIM && wl->tgt.kind == TARGET_FILE) {
		/* fio's sync engines trim with BLKDISCARD only */
		add(j, "# -o trim on a file: rebench punches holes (fallocate); fio's falloc engine does the same for rw=trim");
		add(j, "ioengine=falloc");
	} else {
		int i;

		if (e->fio_note && s->op != OP_TRIM)
			note(j, "%s", e->fio_note);
		add(j, "ioengine=%s", e->fio_name);
		if (e->flags & ENGINE_NEEDS_PAGED && writes &&
		    sync_policy_per_write(&sp)) {
			note(j, "an msync of the written pages inside each write (fio's fsync=1 below msyncs the whole mapping as a separate I/O after each write, timed apart from it)");
			add(j, "fsync=1");
		}
		for (i = 0; i < ENGINE_MAX_OPTS && e->fio_extra[i]; i++)
			add(j, "%s", e->fio_extra[i]);
		/* the engine's own options, in fio's words */
		if (e->describe)
			e->describe(&s->eopts[s->engine], &words);
	}
	add(j, "direct=%d", s->paged ? 0 : 1);
	if (writes)
		job_sync(j, &sp);
	if (s->verify && s->verify_only) {
		note(j, "--verify-only: a read of the region checked against the generations of --verify-state (fio's verify_only=1 replays the writing job's own options instead)");
	} else if (s->verify) {
		/* fio's verify: a header of its own and the checksum;
		 * fio's xxhash is XXH32, the nearest it has to xxh64 */
		if (s->verify == VERIFY_SHA256) {
			add(j, "verify=sha256");
		} else if (s->verify == VERIFY_XXH64) {
			add(j, "verify=xxhash");
			note(j, "--verify xxh64: fio's verify=xxhash is the 32-bit XXH32");
		} else {
			add(j, "verify=crc32c");
		}
		add(j, "do_verify=1");
		if (s->verify_mode == VERIFY_INLINE)
			add(j, "verify_backlog=1");
		add(j, "verify_fatal=%d", s->verify_continue ? 0 : 1);
		note(j, "rebench's block header (offset, seed, generation) and its classes of mismatch: corrupt, misdirected, lost (an older generation), unwritten (zeroes); fio checks its own header and the crc32c");
		if (s->verify_state)
			note(j, "--verify-state: every block's last generation kept for a later run (fio's verify_state_save keeps the writes in flight)");
	}
	if (e->flags & ENGINE_ASYNC) {
		add(j, "iodepth=%llu", (unsigned long long)s->qd);
		add(j, "iodepth_batch_submit=%llu", (unsigned long long)s->batch);
		add(j, "iodepth_batch_complete_min=%llu", (unsigned long long)s->batch);
		add(j, "iodepth_batch_complete_max=%llu", (unsigned long long)s->qd);
	}
}

/* ----------------------------------------------------------- distribution */

/* fio's center C puts the hottest block at floor(blocks * C), rebench's
 * --center at dist.shift: the C that lands on the same block. */
static void fio_center(char *buf, size_t len, const struct workload *wl)
{
	const struct spec *s = &wl->spec;
	uint64_t n = s->slots, shift = wl->run.dist.shift;
	double c = s->center < 0 ? 0 : s->center / 100;

	if (!shift)
		snprintf(buf, len, "0");
	else if ((uint64_t)((double)n * c) == shift)
		snprintf(buf, len, "%.10g", c);
	else
		snprintf(buf, len, "%.17g", ((double)shift + 0.5) / (double)n);
}

/* pow: f = U^a.  fio's pareto:H draws U^(ln H / ln(1 - H)): the H with
 * that exponent, by bisection (the exponent falls as H rises). */
static double pareto_h_for(double a)
{
	double lo = 1e-15, hi = 1 - 1e-15, mid = 0.5;
	int i;

	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (log(mid) / log1p(-mid) > a)
			lo = mid;
		else
			hi = mid;
	}
	return mid;
}

static void scatter_note(struct job *j, const struct spec *s)
{
	if (s->scatter)
		note(j, "--scatter's permutation (fio spreads blocks over the region by its own hash of their rank, --center only rotates that)");
	else
		note(j, "blocks in rank order from --center (fio spreads them over the region by a hash of their rank; only the hottest block is where --center puts it)");
}

/* A zoned distribution's line, and what fio's zones cannot say of the
 * rotation and scatter of ours. */
static void zoned_line(struct job *j, const struct workload *wl,
		       const char *out)
{
	if (wl->run.dist.shift)
		note(j, "--center %g%% rotating the zones (fio's zones start at the region's start)",
		     wl->spec.center);
	if (wl->run.dist.scatter)
		note(j, "--scatter's permutation of the zones' blocks");
	add(j, "random_distribution=%s", out);
}

/* zoned:A/R:...: fio takes whole percentages and rounds each zone's edges
 * down to a block; rebench rounds them to the nearest block. */
static void job_zoned(struct job *j, const struct workload *wl)
{
	const struct spec *s = &wl->spec;
	const char *p = s->dist_arg;
	char out[512];
	double a[DIST_MAX_ZONES], r[DIST_MAX_ZONES];
	long ai[DIST_MAX_ZONES], ri[DIST_MAX_ZONES], asum = 0, rsum = 0;
	unsigned nz = 0, i;
	uint64_t n = s->slots, cum = 0;
	size_t o;
	bool whole = true, edges = true;
	int k;

	while (p && *p && nz < DIST_MAX_ZONES &&
	       sscanf(p, "%lf/%lf%n", &a[nz], &r[nz], &k) == 2) {
		whole = whole && is_whole(a[nz]) && is_whole(r[nz]);
		nz++;
		p += k;
		if (*p == ':')
			p++;
	}
	for (i = 0; i < nz; i++) {
		ai[i] = i + 1 < nz ? lround(a[i]) : 100 - asum;
		ri[i] = i + 1 < nz ? lround(r[i]) : 100 - rsum;
		asum += ai[i];
		rsum += ri[i];
	}
	if (!nz || ai[nz - 1] < 0 || ri[nz - 1] < 1) {
		note(j, "-u zoned:%s (fio takes whole percentages, and rounding these leaves a zone empty); closest: uniform",
		     s->dist_arg);
		add(j, "random_distribution=random");
		return;
	}
	o = (size_t)snprintf(out, sizeof(out), "zoned");
	for (i = 0; i < nz && o < sizeof(out); i++)
		o += (size_t)snprintf(out + o, sizeof(out) - o, ":%ld/%ld",
				      ai[i], ri[i]);
	if (!whole)
		note(j, "-u zoned:%s (fio takes whole percentages); closest: %s",
		     s->dist_arg, out);
	for (i = 0; whole && i < nz; i++) {
		/* fio: zone start cum * n / 100, width n * R / 100 */
		uint64_t start = cum * n / 100;
		uint64_t end = start + n * (uint64_t)ri[i] / 100;

		if (start != wl->run.dist.zone_slot[i] ||
		    end != wl->run.dist.zone_slot[i + 1])
			edges = false;
		cum += (uint64_t)ri[i];
	}
	if (!edges)
		note(j, "zone edges at the nearest block (fio rounds each zone's start and width down to a block: edges may differ by one block of %llu)",
		     (unsigned long long)n);
	zoned_line(j, wl, out);
}

/* pow, an exponential: fio has none, so its zoned distribution with the
 * CDF at whole percentages of the region rounded to whole percentages of
 * the I/Os (fio takes no fractions); a zone ends where that rounded CDF
 * rises, so none is empty. */
static void job_exp(struct job *j, const struct workload *wl)
{
	const struct spec *s = &wl->spec;
	char out[1024];
	long prev = 0, c = 0;
	unsigned r, from = 0;
	size_t o;

	o = (size_t)snprintf(out, sizeof(out), "zoned");
	for (r = 1; r <= 100; r++) {
		c = r == 100 ? 100 :
		    lround(-100 * expm1(-(double)r / 100 / wl->run.dist.mean));
		if (c == prev)
			continue;
		o += (size_t)snprintf(out + o, sizeof(out) - o, ":%ld/%u",
				      c - prev, r - from);
		prev = c;
		from = r;
	}
	if (from < 100) {
		/* widen the last zone over the flat tail: rewrite its R */
		char *last = strrchr(out, '/');
		unsigned w = (unsigned)strtoul(last + 1, NULL, 10);

		snprintf(last + 1, sizeof(out) - (size_t)(last + 1 - out), "%u",
			 w + 100 - from);
	}
	note(j, "-u pow, sigma %g%% (an exponential; fio has none); closest: %s, its CDF at each 1%% of the region rounded to whole percentages of the I/Os",
	     s->sigma, out);
	zoned_line(j, wl, out);
}

/* Random offsets.  *bs_align: fio draws skewed block numbers in units of
 * bs, so those need blockalign = bs to stay in the region. */
static void job_dist(struct job *j, const struct workload *wl, bool *bs_align)
{
	const struct spec *s = &wl->spec;
	char c[64];
	double sd, dev;

	*bs_align = false;
	switch (s->dist) {
	case DIST_UNIFORM:
		add(j, "random_distribution=random");
		return;
	case DIST_CONST:
		add(j, "# -u const: every I/O at one block, as a one-block region (offset, size below)");
		add(j, "random_distribution=random");
		return;
	case DIST_ZONED:
		job_zoned(j, wl);
		return;
	case DIST_POW:
		job_exp(j, wl);
		return;
	default:
		break;
	}
	*bs_align = true;
	if (s->stride_eff != s->bs)
		note(j, "-s %llu with -u %s: fio draws skewed offsets as multiples of the block size (blockalign=%llu here), not of the stride",
		     (unsigned long long)s->stride_eff,
		     opt_value_name(options_find_long("dist"), s->dist),
		     (unsigned long long)s->bs);
	fio_center(c, sizeof(c), wl);
	switch (s->dist) {
	case DIST_ZIPF:
		if (wl->run.dist.theta == 1) {
			note(j, "zipf theta 1 (fio refuses 1.0); closest: 1.001");
			add(j, "random_distribution=zipf:1.001:%s", c);
		} else {
			add(j, "random_distribution=zipf:%.10g:%s", wl->run.dist.theta, c);
		}
		scatter_note(j, s);
		break;
	case DIST_PARETO:
		add(j, "random_distribution=pareto:%.10g:%s",
		    s->dist_arg ? strtod(s->dist_arg, NULL) : 0.2, c);
		scatter_note(j, s);
		break;
	case DIST_POWERLAW:
		add(j, "# -u powerlaw, sigma %g%%: offsets U^%.10g of the region, the law of fio's pareto:H with ln H / ln(1-H) = %.10g",
		    s->sigma, wl->run.dist.a, wl->run.dist.a);
		add(j, "random_distribution=pareto:%.10g:%s",
		    pareto_h_for(wl->run.dist.a), c);
		scatter_note(j, s);
		break;
	case DIST_NORMAL:
		/* fio: mean of 12 uniform draws (sd 1/12 of the region) plus
		 * uniform noise DEV% of the region wide (sd DEV%/sqrt(12)),
		 * the noise at most half the region */
		sd = s->sigma / 100;
		dev = sd * sd > 1.0 / 144 ?
		      100 * sqrt(12 * (sd * sd - 1.0 / 144)) : 0;
		if (dev > 50)
			dev = 50;
		note(j, "a normal distribution with sd %g%% around --center (fio's normal:DEV is the mean of 12 uniform draws, sd 8.33%% of the region, plus uniform noise DEV%% wide, spread over the region by a hash); closest: DEV %.4g, sd %.3g%%",
		     s->sigma, dev,
		     100 * sqrt(1.0 / 144 + dev * dev / 1e4 / 12));
		add(j, "random_distribution=normal:%.4g", dev);
		break;
	}
}

/* ---------------------------------------------------------------- region */

/* Bytes of the target rebench's region may use: a new file is as large as
 * the largest region on it. */
static uint64_t target_end(const struct workload *wl)
{
	if (wl->tgt.exists)
		return wl->tgt.size;
	return wl->run.creator ? wl->run.creator->run.create_size : wl->run.create_size;
}

/*
 * offset= and size= such that fio's offsets are rebench's:
 *   seq forward  the span its blocks reach: (slots-1) * stride + bs
 *   seq backward slots * stride + bs: fio's first and wrap-around offset is
 *                size - stride - bs from offset (tested on fio 3.33)
 *   rnd          fio draws k < size / blockalign (less (bs - blockalign)
 *                when bs is larger): slots * stride when stride >= bs,
 *                else the span
 *   rnd skewed   slots * bs: fio's zipf/pareto/normal blocks are bs units
 *   const        the one block
 */
static void job_region(struct job *j, const struct workload *wl, bool bs_align)
{
	const struct spec *s = &wl->spec;
	uint64_t st = s->stride_eff, bs = s->bs, slots = s->slots;
	uint64_t start = s->region_start, span = (slots - 1) * st + bs, size;
	const char *why = NULL;

	if (!s->seq && s->dist == DIST_CONST) {
		uint64_t k = wl->run.dist.shift;

		if (wl->run.dist.scatter)
			k = (uint64_t)(((unsigned __int128)k * wl->run.dist.mul +
					wl->run.dist.add) % slots);
		add(j, "offset=%llu", (unsigned long long)(start + k * st));
		add(j, "size=%llu", (unsigned long long)bs);
		return;
	}
	if (s->seq && s->direction == DIR_BACKWARD) {
		size = slots * st + bs;
		why = "fio's backward I/O starts (and wraps around to) one stride and one block below offset+size, which makes it rebench's last block";
		if (start + size > target_end(wl)) {
			size = span;
			why = NULL;
			note(j, "the last block of the region, at %llu (fio's backward I/O starts one stride and one block below offset+size, and size cannot reach past the end of the target; it starts at %llu)",
			     (unsigned long long)(start + span - bs),
			     (unsigned long long)(start + span - bs - st));
		}
		if (start == 0)
			add(j, "# fio's first backward I/O is at offset 0, then it goes down from the top");
	} else if (s->seq) {
		size = span;
		why = "the bytes rebench's blocks can reach";
	} else if (bs_align) {
		size = (span / bs) * bs;
		why = "whole blocks: fio's skewed distributions count blocks of bs";
	} else if (st >= bs) {
		size = slots * st;
		why = "fio draws offsets k * blockalign with k < size / blockalign, and the region holds that many strides";
	} else {
		size = span;
		why = "the bytes rebench's blocks can reach";
	}
	if (why && size != s->region_len)
		add(j, "# size=%llu, not the region's %llu bytes: %s", (unsigned long long)size,
		    (unsigned long long)s->region_len, why);
	add(j, "offset=%llu", (unsigned long long)start);
	add(j, "size=%llu", (unsigned long long)size);
}

/* -------------------------------------------------------------- the job */

/* The fio operation of a spec whose mix fio can express (fio_mix_check):
 * read, write, trim, or rw for reads with writes; flushes ride along. */
static int fio_op(const struct spec *s)
{
	unsigned k = spec_kinds(s);

	if ((k & (1U << IO_READ)) && (k & (1U << IO_WRITE)))
		return OP_RW;
	if (k & (1U << IO_TRIM))
		return OP_TRIM;
	return k & (1U << IO_WRITE) ? OP_WRITE : OP_READ;
}

static const char *rw_name(const struct spec *s, bool random)
{
	static const char *const seq[] = { "read", "write", "trim", "rw" };
	static const char *const rnd[] = { "randread", "randwrite", "randtrim", "randrw" };

	return random ? rnd[fio_op(s)] : seq[fio_op(s)];
}

/*
 * What fio has no form for, refused before any job is written: a trim
 * mixed with other operations (fio trims alone, or trimwrite's fixed
 * pairs), and flushes without writes (fio's fsync=N counts writes).
 */
static int fio_mix_check(const struct workload *wl)
{
	const struct spec *s = &wl->spec;
	unsigned k = spec_kinds(s);
	unsigned flushes = k & (1U << IO_FSYNC | 1U << IO_FDATASYNC);
	struct sync_policy sp = spec_sync(s);
	char mix[256], delay[DELAY_TEXT_MAX], pol[32];

	if (delay_any(&s->delay)) {
		delay_format_units(&s->delay, delay, sizeof(delay));
		spec_error(s, "--fio: --delay %s: fio has no wait after an I/O that counts in its latency (its thinktime waits between I/Os, outside them); drop --delay to write the fio job",
			   delay);
		return -EINVAL;
	}
	if (sp.mode == SYNC_RWF_DSYNC && (k & (1U << IO_WRITE))) {
		spec_error(s, "--fio: --sync rwf-dsync: fio has no option that flags each write RWF_DSYNC; --sync dsync (fio's sync=dsync, O_DSYNC) gives every write the same guarantee");
		return -EINVAL;
	}
	if (s->op != OP_MIX)
		return 0;
	mix_ops_text(&s->opmix, mix, sizeof(mix));
	/* sfr:N is fio's sync_file_range=, which sits beside fsync=N */
	if (sp.every && sp.mode != SYNC_SFR && (k & (1U << IO_WRITE)) &&
	    (mix_kinds(&s->opmix) & (1U << IO_FSYNC | 1U << IO_FDATASYNC))) {
		spec_error(s, "--fio: --sync %s with -o %s: fio's job takes one fsync=N or fdatasync=N, which cannot be both the policy's flushes and the mix's; drop the flushes from -o, or --sync",
			   sync_policy_format(&sp, pol, sizeof(pol)), mix);
		return -EINVAL;
	}
	if ((k & (1U << IO_TRIM)) && (k & ~(1U << IO_TRIM))) {
		spec_error(s, "--fio: -o %s: fio cannot mix trims with other operations in one job; run the trims as a workload line of their own",
			   mix);
		return -EINVAL;
	}
	if (flushes && !(k & (1U << IO_WRITE))) {
		spec_error(s, "--fio: -o %s: fio issues fsync and fdatasync only after writes (fsync=N); a mix of flushes without writes has no fio form",
			   mix);
		return -EINVAL;
	}
	if (flushes == (1U << IO_FSYNC | 1U << IO_FDATASYNC)) {
		spec_error(s, "--fio: -o %s: fio's job takes fsync=N or fdatasync=N, not both; keep one of them",
			   mix);
		return -EINVAL;
	}
	return 0;
}

/* Flushes in a mix: fio's fsync=N (fdatasync=N) after every N writes, the
 * same number on average as rebench's random draw. */
static void job_flushes(struct job *j, const struct spec *s)
{
	int kind = s->opmix.pct[IO_FSYNC] > 0 ? IO_FSYNC : IO_FDATASYNC;
	const char *name = io_kind_name(kind);	/* fio's option is its name */
	double every;
	long n;

	if (s->op != OP_MIX || s->opmix.pct[kind] <= 0)
		return;
	every = s->opmix.pct[IO_WRITE] / s->opmix.pct[kind];
	n = lround(every) ? lround(every) : 1;
	note(j, "-o %s/%g: rebench draws each I/O's operation, so a %s comes after a random number of writes, %.3g on average; fio's %s=%ld issues one after every %ld writes",
	     name, s->opmix.pct[kind], name, every, name, n, n);
	add(j, "%s=%ld", name, n);
}

/* -b as a split or a range: bssplit, or bsrange with what differs. */
static void job_sizes(struct job *j, const struct spec *s)
{
	const struct size_mix *m = &s->bsmix;
	char buf[1024];
	size_t n = 0;
	unsigned i;

	if (!m->range) {
		for (i = 0; i < m->n && n < sizeof(buf); i++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%llu/%g",
					      i ? ":" : "",
					      (unsigned long long)m->size[i],
					      m->pct[i]);
		add(j, "bssplit=%s", buf);
		return;
	}
	note(j, "-b %llu-%llu/%llu: rebench draws each of the %llu sizes equally; fio's bsrange draws a size and rounds it to its own granularity, which favours some sizes (the top one when the range is not a power-of-two multiple of the step): expect other size shares",
	     (unsigned long long)m->size[0], (unsigned long long)m->size[1],
	     (unsigned long long)m->step,
	     (unsigned long long)((m->size[1] - m->size[0]) / m->step + 1));
	add(j, "bsrange=%llu-%llu", (unsigned long long)m->size[0],
	    (unsigned long long)m->size[1]);
}

static void job_pattern(struct job *j, const struct workload *wl)
{
	const struct spec *s = &wl->spec;
	uint64_t st = s->stride_eff, bs = s->bs;
	bool bs_align = false;

	if (s->seq && s->direction == DIR_BACKWARD)
		add(j, "rw=%s:-%llu", rw_name(s, false), (unsigned long long)(st + bs));
	else if (s->seq && st > bs)
		add(j, "rw=%s:%llu", rw_name(s, false), (unsigned long long)(st - bs));
	else
		add(j, "rw=%s", rw_name(s, !s->seq));
	if (fio_op(s) == OP_RW) {
		/* reads' share of the data I/Os: fio's flushes are extra */
		double rd = s->opmix.pct[IO_READ] * 100 /
			    (s->opmix.pct[IO_READ] + s->opmix.pct[IO_WRITE]);

		if (!is_whole(rd) && s->op == OP_RW)
			note(j, "--rwmix %g (fio's rwmixread is a whole percentage)",
			     s->rwmix);
		else if (!is_whole(rd))
			note(j, "%g%% of the reads and writes are reads (fio's rwmixread is a whole percentage)",
			     rd);
		add(j, "rwmixread=%ld", lround(rd));
		note(j, "a read-or-write draw for every I/O (fio keeps one direction for a run of I/Os until its share catches up, then draws again)");
		add(j, "unified_rw_reporting=both");
	}
	if (size_mix_active(&s->bsmix))
		job_sizes(j, s);
	else
		add(j, "bs=%llu", (unsigned long long)bs);
	job_flushes(j, s);
	if (!s->seq) {
		job_dist(j, wl, &bs_align);
		if (s->dist != DIST_CONST)
			add(j, "blockalign=%llu", (unsigned long long)(bs_align ? bs : st));
		add(j, "norandommap=1");
	}
	if (s->seq && s->threads > 1)
		note(j, "thread i of %llu starting i/%llu of the way into the region (fio's jobs all start at its start; offset_increment would confine each to its own part)",
		     (unsigned long long)s->threads,
		     (unsigned long long)s->threads);
	job_region(j, wl, bs_align);
}

static void job_amount(struct job *j, const struct workload *wl)
{
	const struct spec *s = &wl->spec;
	char t[32];
	bool inexact;

	if (s->time_limit_ns) {
		fio_time(t, sizeof(t), s->time_limit_ns, &inexact);
		if (inexact)
			note(j, "-d %lluns (fio counts time in whole microseconds)",
			     (unsigned long long)s->time_limit_ns);
		add(j, "time_based=1");
		add(j, "runtime=%s", t);
		return;
	}
	/* rebench splits ops_limit over the threads; io_size is per job */
	if (s->ops_limit % s->threads)
		note(j, "%llu I/Os split over %llu threads, %llu of them doing one more (fio's io_size is the same for every job)",
		     (unsigned long long)s->ops_limit,
		     (unsigned long long)s->threads,
		     (unsigned long long)(s->ops_limit % s->threads));
	if (size_mix_active(&s->bsmix)) {
		/* the stream stops once its bytes are done, as fio does */
		add(j, "io_size=%llu",
		    (unsigned long long)(s->bytes_limit / s->threads));
		return;
	}
	add(j, "io_size=%llu",
	    (unsigned long long)(s->ops_limit / s->threads * s->bs));
}

static void job_rest(struct job *j, const struct workload *wl)
{
	const struct spec *s = &wl->spec;
	char t[32], why[512];
	bool inexact;

	if (s->pause_ns) {
		fio_time(t, sizeof(t), s->pause_ns, &inexact);
		if (inexact)
			note(j, "-z %lluns (fio's thinktime is in whole microseconds)",
			     (unsigned long long)s->pause_ns);
		add(j, "thinktime=%llu",
		    (unsigned long long)((s->pause_ns + NSEC_PER_USEC - 1) /
					 NSEC_PER_USEC));
	}
	if (s->rate.ops > 0 || s->rate.bytes) {
		/* fio's rate_iops is each job's (numjobs clones it) */
		double per = rate_ops(&s->rate, s->bs) / (double)s->threads;

		if (per != floor(per) || per < 1)
			note(j, "--rate %.6g ops/s over %llu threads: fio's rate_iops is a whole number of I/Os a second per job",
			     rate_ops(&s->rate, s->bs),
			     (unsigned long long)s->threads);
		add(j, "rate_iops=%.0f", per < 1 ? 1 : floor(per + 0.5));
		if (s->arrival == ARRIVAL_POISSON)
			add(j, "rate_process=poisson");
		note(j, "fio's latency under rate_iops is from submission only; rebench --rate also reports it from each I/O's intended start");
	}
	if (s->threads > 1) {
		add(j, "numjobs=%llu", (unsigned long long)s->threads);
		if (!s->local_fd)
			note(j, "one file descriptor shared by the %llu threads (fio opens one per job, as rebench -l does)",
			     (unsigned long long)s->threads);
	}
	add(j, "randseed=%llu", (unsigned long long)s->seed);
	if (!s->seq || __builtin_popcount(spec_kinds(s)) > 1 ||
	    size_mix_active(&s->bsmix))
		add(j, "# randseed: fio's generators are not rebench's, so the same seed gives other offsets, operations and sizes");
	if (SPEC_DOES(s, IO_WRITE))
		add(j, "scramble_buffers=0");
	if (wl->tgt.kind == TARGET_FILE && !s->atime)
		note(j, "O_NOATIME, rebench's default for files (fio has no option for it; rebench -m matches fio)");
	if (s->append)
		note(j, "-a, O_APPEND: every write lands at the end of the file (fio writes at its offsets)");
	if (s->fadvise == FADVISE_SEQUENTIAL || s->fadvise == FADVISE_RANDOM)
		add(j, "fadvise_hint=%s", s->fadvise == FADVISE_RANDOM ?
		    "random" : "sequential");
	else if (s->fadvise == FADVISE_NORMAL)
		add(j, "# --fadvise normal: the advice a file has when opened, which fadvise_hint=0 leaves");
	else if (s->fadvise == FADVISE_NOREUSE)
		note(j, "--fadvise noreuse (fio's fadvise_hint takes 0, 1, sequential and random)");
	if (s->readahead_kb != READAHEAD_KEEP)
		note(j, "--readahead %llu: before fio, echo %llu > /sys/block/%s/queue/read_ahead_kb, and put the old value back after",
		     (unsigned long long)s->readahead_kb,
		     (unsigned long long)s->readahead_kb, wl->tgt.disk);
	if (s->cache_bytes)
		note(j, "--cache %llu: run fio inside a memory cgroup limited to %llu bytes (cgroup v2 memory.max, v1 memory.limit_in_bytes; systemd-run -p MemoryMax=%llu fio ...), after dropping the target's cached pages",
		     (unsigned long long)s->cache_bytes,
		     (unsigned long long)s->cache_bytes,
		     (unsigned long long)s->cache_bytes);
	if (spec_is_destructive(s) && wl->tgt.kind != TARGET_FILE &&
	    target_in_use(&wl->tgt, why, sizeof(why))) {
		/* rebench would refuse to run this; the file is only text */
		add(j, "# WARNING: %s is in use (%s): rebench refuses to %s it, and so should this job",
		    wl->tgt.path, why, SPEC_DOES(s, IO_WRITE) ? "write to" : "trim");
		spec_error(s, "warning: --fio: %s is in use (%s); rebench would refuse to %s it, and the job file says so",
			   wl->tgt.path, why, SPEC_DOES(s, IO_WRITE) ? "write to" : "trim");
	}
	if (!wl->tgt.exists)
		add(j, "# %s does not exist: rebench would create it (%llu bytes) and fill it with data first; fio lays out its own file",
		    wl->tgt.path, (unsigned long long)target_end(wl));
	else if (wl->run.needs_layout)
		note(j, "filling the holes of %s with data before the run (reading holes measures nothing); lay the file out before running fio",
		     wl->tgt.path);
}

static void job_build(struct job *j, const struct workload *wl, size_t n)
{
	const struct spec *s = &wl->spec;
	char path[2 * PATH_MAX], dur[32], from[32] = "command line";
	char ops[256], sizes[512];
	const char *dist = opt_value_name(options_find_long("dist"), s->dist);

	if (s->line)
		snprintf(from, sizeof(from), "stdin line %u", s->line);
	if (size_mix_active(&s->bsmix))
		mix_sizes_text(&s->bsmix, s->bs, sizes, sizeof(sizes));
	else
		snprintf(sizes, sizeof(sizes), "%llu", (unsigned long long)s->bs);
	add(j, "# %s: %s %s, bs %s, stride %llu%s%s%s, %s, qd %llu, %llu thread%s, region %llu+%llu, %s, seed %llu",
	    from, spec_op_text(s, ops, sizeof(ops)),
	    s->seq ? "seq" : "rnd", sizes,
	    (unsigned long long)s->stride_eff,
	    s->seq && s->direction == DIR_BACKWARD ? ", backward" : "",
	    s->seq ? "" : ", dist ", s->seq ? "" : dist, wl->run.eng->name,
	    (unsigned long long)s->qd, (unsigned long long)s->threads,
	    s->threads > 1 ? "s" : "",
	    (unsigned long long)s->region_start,
	    (unsigned long long)s->region_len,
	    fmt_duration(dur, sizeof(dur), &s->duration),
	    (unsigned long long)s->seed);
	escape_path(path, sizeof(path), wl->tgt.path);
	add(j, "filename=%s", path);
	job_engine(j, wl);
	job_pattern(j, wl);
	job_amount(j, wl);
	job_rest(j, wl);
	if (n > 1)
		add(j, "new_group=1");
}

/* ---------------------------------------------------------------- output */

/* A command-line word as a shell would need it, for the header. */
static void put_word(FILE *f, const char *w)
{
	const char *p;

	if (*w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=,+%@-") == strlen(w)) {
		fputs(w, f);
		return;
	}
	fputc('\'', f);
	for (p = w; *p; p++) {
		if (*p == '\'')
			fputs("'\\''", f);
		else if (*p == '\n')
			fputs("\\n", f);
		else
			fputc(*p, f);
	}
	fputc('\'', f);
}

/* A setting found, identical, in every job goes to [global]. */
static void hoist(struct job *jobs, size_t n)
{
	int i, m;
	size_t k;

	if (n < 2)
		return;
	for (i = 0; i < jobs[0].n; i++) {
		bool everywhere = is_setting(jobs[0].line[i]) &&
				  strcmp(jobs[0].line[i], "new_group=1");

		for (k = 1; k < n && everywhere; k++) {
			for (m = 0; m < jobs[k].n; m++)
				if (!jobs[k].global[m] &&
				    !strcmp(jobs[k].line[m], jobs[0].line[i]))
					break;
			everywhere = m < jobs[k].n;
		}
		if (!everywhere)
			continue;
		jobs[0].global[i] = true;
		for (k = 1; k < n; k++)
			for (m = 0; m < jobs[k].n; m++)
				if (!jobs[k].global[m] &&
				    !strcmp(jobs[k].line[m], jobs[0].line[i])) {
					jobs[k].global[m] = true;
					break;
				}
	}
}

static void write_global(FILE *f, const struct job *jobs, size_t n,
			 const struct run_opts *run)
{
	char t[32];
	bool inexact;
	int i;

	fprintf(f, "[global]\n");
	fprintf(f, "thread=1\n");
	fprintf(f, "group_reporting=1\n");
	fprintf(f, "exitall_on_error=1\n");
	fprintf(f, "allrandrepeat=1\n");
	fprintf(f, "fadvise_hint=0\n");
	fprintf(f, "# rebench times each I/O from its submission to its completion: fio's lat (its clat starts after the submission)\n");
	fprintf(f, "lat_percentiles=1\n");
	if (run->drop_caches) {
		fprintf(f, NOTE "--drop-caches drops the whole page cache before the run (fio's invalidate=1 drops its files' pages)\n");
		fprintf(f, "invalidate=1\n");
	} else {
		fprintf(f, "invalidate=0\n");
	}
	if (run->warmup_ns) {
		fio_time(t, sizeof(t), run->warmup_ns, &inexact);
		if (inexact)
			fprintf(f, NOTE "--warmup %lluns (fio's ramp_time is in whole microseconds)\n",
				(unsigned long long)run->warmup_ns);
		fprintf(f, "ramp_time=%s\n", t);
	}
	if (run->repeat > 1)
		fprintf(f, NOTE "--repeat %llu: run fio %llu times and take the median (fio's loops=N adds the runs up into one result)\n",
			(unsigned long long)run->repeat,
			(unsigned long long)run->repeat);
	if (run->precision_pct > 0)
		fprintf(f, NOTE "--precision %g%% (fio ends a job on time or size; its steadystate=iops:N%% judges the spread of a sliding window, not a confidence interval); the runtime below is --max-duration\n",
			run->precision_pct);
	if (run->steady_state)
		fprintf(f, NOTE "--steady-state's rounds (fio judges one criterion over a sliding window of 1 s samples inside one job; closest: steadystate=iops_slope:10%% with steadystate_duration of 5 rounds, and a second job with steadystate=iops:10%% for the range); runtime below is one round\n");
	if (run->precondition)
		fprintf(f, NOTE "--precondition as part of this job: run first a job of rw=write, bs=128k, direct=1, loops=2 over the same region (and stonewall before these)\n");
	for (i = 0; n > 1 && i < jobs[0].n; i++)
		if (jobs[0].global[i])
			fprintf(f, "%s\n", jobs[0].line[i]);
}

int fio_job_write(FILE *f, const struct workload *wls, size_t n,
		  const struct run_opts *run, int argc, char **argv)
{
	struct job *jobs;
	size_t k;
	int i, ret = 0;

	if (n > MAX_WORKLOADS)
		return -E2BIG;
	for (k = 0; k < n; k++)
		if (fio_mix_check(&wls[k]))
			return -EINVAL;
	for (k = 0; k < n; k++)
		if (wls[k].files) {
			/* fio's size is divided among its files, rebench's
			 * region is each file's: not the same work yet */
			spec_error(&wls[k].spec, "--fio with many files: no fio job file yet (fio divides its size among the files, where rebench's -j and -e are each file's region); write fio's directory=, nrfiles=, filesize= and file_service_type= yourself, or give one file");
			return -EINVAL;
		}
	jobs = calloc(n, sizeof(*jobs));
	if (!jobs) {
		fprintf(stderr, "rebench: --fio: no memory for %zu jobs\n", n);
		return -ENOMEM;
	}
	for (k = 0; k < n; k++) {
		job_build(&jobs[k], &wls[k], n);
		if (jobs[k].err) {
			ret = jobs[k].err;
			fprintf(stderr, "rebench: --fio: cannot build the job of workload %zu: %s\n",
				k + 1, strerror(-ret));
			goto out;
		}
	}
	hoist(jobs, n);
	fprintf(f, "# fio job file from rebench %s: rebench", REBENCH_VERSION);
	for (i = 1; i < argc; i++) {
		fputc(' ', f);
		put_word(f, argv[i]);
	}
	fputc('\n', f);
	if (wls[0].spec.line)
		fprintf(f, "# %zu workload%s from stdin: one [jobN] per line N, all started together as rebench starts them\n",
			n, n > 1 ? "s" : "");
	fprintf(f, "# lines \"" NOTE "...\" are what fio cannot do the same way\n\n");
	write_global(f, jobs, n, run);
	for (k = 0; k < n; k++) {
		fprintf(f, "\n[job%u]\n", wls[k].spec.line ? wls[k].spec.line : 1);
		for (i = 0; i < jobs[k].n; i++)
			if (!jobs[k].global[i])
				fprintf(f, "%s\n", jobs[k].line[i]);
	}
	/* a failed write of f (stdout) is the caller's to report, once, with
	 * its first errno and exit status 5 (outpath.h) */
out:
	for (k = 0; k < n; k++)
		job_free(&jobs[k]);
	free(jobs);
	return ret;
}
