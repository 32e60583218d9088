/* validate.c - a workload's checks: first on its own (spec_check), then
 * against the probed target (spec_resolve).  Nothing here does I/O; every
 * error names the option, the value, the stdin line and what would be
 * valid.
 */
#include "core/validate.h"


#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "engines/engine.h"
#include "target/mountinfo.h"
#include "core/options.h"
#include "gen/pattern.h"
#include "target/readahead.h"
#include "core/verify.h"

void spec_adapt_defaults(struct spec *s)
{
	const struct engine_ops *e = engine_get(s->engine);

	/* A command-line default that cannot apply to this line's engine is
	 * not an error on the line: `rebench -q 32 --batch 8 < lines` may mix
	 * engines.  What the line itself says is still checked. */
	if (e->flags & ENGINE_SYNC) {
		if (!spec_given(s, "queue-depth"))
			s->qd = 1;
		if (!spec_given(s, "batch"))
			s->batch = 1;
	}
	/* ... nor an option private to another engine: it sits in that
	 * engine's block (spec.h), which this engine never reads */
	verify_spec_adapt(s);
}

/* An engine's own option given for an engine that does not take it, then
 * what the engine says of its options (check(), before the target). */
static int check_engine_options(const struct spec *s,
				const struct engine_ops *e,
				const struct engine_check *c)
{
	const struct engine_opt *o;
	char owners[128], err[512];
	int k, owner;

	for (k = 0; (o = engine_opt_get(k, &owner)); k++) {
		if (!(s->given & SPEC_ENGINE_OPT_BIT(k)) ||
		    engine_takes(e, o->name))
			continue;
		spec_error(s, "--%s: applies to %s only, not to %s", o->name,
			   engine_owners(o->name, owners, sizeof(owners)),
			   e->name);
		return -EINVAL;
	}
	if (e->check && e->check(&s->eopts[s->engine], c, err, sizeof(err))) {
		spec_error(s, "%s", err);
		return -EINVAL;
	}
	return 0;
}

/* What the engine can and cannot do with this workload. */
static int check_engine(const struct spec *s, const struct engine_ops *e)
{
	struct engine_check before = { s->paged, NULL, -1 };

	if (s->qd > 1 && (e->flags & ENGINE_SYNC)) {
		spec_error(s, "-q/--queue-depth %llu: the %s engine is synchronous and keeps one I/O in flight per thread; use an asynchronous engine (-t naio, uring or paio) for queue depth, or -c N threads",
			   (unsigned long long)s->qd, e->name);
		return -EINVAL;
	}
	if (spec_given(s, "batch") && (e->flags & ENGINE_SYNC)) {
		spec_error(s, "--batch %llu: batching applies to the asynchronous engines (naio, uring, paio), not to %s",
			   (unsigned long long)s->batch, e->name);
		return -EINVAL;
	}
	if (s->batch > s->qd) {
		spec_error(s, "--batch %llu: larger than the queue depth -q %llu; a batch can hold at most the I/Os in flight",
			   (unsigned long long)s->batch, (unsigned long long)s->qd);
		return -EINVAL;
	}
	if (e->max_qd && s->qd > e->max_qd) {
		spec_error(s, "-q/--queue-depth %llu: the %s engine takes at most %u I/Os in flight per thread; use -q %u or less, or more threads (-c)",
			   (unsigned long long)s->qd, e->name, e->max_qd,
			   e->max_qd);
		return -EINVAL;
	}
	if (check_engine_options(s, e, &before))
		return -EINVAL;
	if ((e->flags & ENGINE_NEEDS_PAGED) && !s->paged) {
		spec_error(s, "-t/--type %s: the %s engine goes through the page cache and cannot use O_DIRECT; add -p",
			   e->name, e->name);
		return -EINVAL;
	}
	if (SPEC_DOES(s, IO_TRIM) && (e->flags & ENGINE_NO_TRIM)) {
		spec_error(s, "-o %s: the %s engine cannot discard; use -t stateful, stateless or mmap",
			   s->op == OP_MIX ? "with trim" : "trim", e->name);
		return -EINVAL;
	}
	if ((e->flags & ENGINE_ASYNC) && s->qd > 1 && delay_any(&s->delay)) {
		spec_error(s, "--delay: the delay is waited after each completion, before the next is reaped; with -q %llu the %s engine has up to %llu I/Os in flight, whose completions the wait would hold up too, so their latencies would not be the device's plus the delay; use -q 1 (with -c N threads for concurrency) or a synchronous engine",
			   (unsigned long long)s->qd, e->name,
			   (unsigned long long)s->qd);
		return -EINVAL;
	}
	if ((e->flags & ENGINE_ASYNC) && s->pause_ns) {
		spec_error(s, "-z/--pause: think time applies to synchronous engines, which wait for each I/O; with %s use a lower -q instead",
			   e->name);
		return -EINVAL;
	}
	if (s->append && !(e->flags & ENGINE_APPENDS)) {
		spec_error(s, "-a/--append: appending needs -t stateful or stateless; the %s engine writes at explicit offsets",
			   e->name);
		return -EINVAL;
	}
	if ((e->flags & ENGINE_FILE_POS) && !s->local_fd && s->threads > 1) {
		spec_error(s, "-c/--threads %llu: the stateful engine seeks and then reads or writes, so threads sharing one file descriptor would move each other's file position; add -l/--local-fd or use -t stateless",
			   (unsigned long long)s->threads);
		return -EINVAL;
	}
	return 0;
}

/* Offsets, operations and their options, which must agree. */
static int check_pattern(const struct spec *s)
{
	char bsz[32];

	if (s->seq && (spec_given(s, "dist") || spec_given(s, "center") ||
		       spec_given(s, "scatter"))) {
		spec_error(s, "-u/--dist, --center and --scatter shape random offsets; a sequential workload has none (drop them or use -w rnd)");
		return -EINVAL;
	}
	if (!s->seq) {
		/* the parameters alone here; with the region in
		 * spec_resolve_dist */
		struct dist d;
		char err[256];

		if (dist_init(&d, s, 0, err, sizeof(err))) {
			spec_error(s, "-u/--dist %s%s%s: %s",
				   opt_values_name(dist_values, s->dist),
				   s->dist_arg ? ":" : "", s->dist_arg ? s->dist_arg : "", err);
			return -EINVAL;
		}
	}
	if (s->append && (s->op != OP_WRITE || !s->seq)) {
		spec_error(s, "-a/--append: appending only makes sense for sequential writes; add -o write -w seq, or drop -a");
		return -EINVAL;
	}
	if (s->direction == DIR_BACKWARD && !s->seq) {
		spec_error(s, "-r/--direction backward: only sequential workloads have a direction; add -w seq");
		return -EINVAL;
	}
	if (spec_given(s, "rwmix") && s->op != OP_RW) {
		spec_error(s, "--rwmix %g: the read/write mix applies to -o rw only", s->rwmix);
		return -EINVAL;
	}
	if (s->seq && s->stride && s->stride < s->bs) {
		spec_error(s, "-s/--stride %llu: smaller than the block size %s, so sequential I/Os would overlap; use a stride of at least the block size",
			   (unsigned long long)s->stride,
			   fmt_size_short(bsz, sizeof(bsz), s->bs));
		return -EINVAL;
	}
	return 0;
}

/* How long it runs and what it records. */
static int check_amounts(const struct spec *s)
{
	if (s->duration.kind != AMOUNT_TIME &&
	    !(spec_kinds(s) & (1U << IO_READ | 1U << IO_WRITE | 1U << IO_TRIM))) {
		spec_error(s, "-d/--duration in bytes or %%: a stream of flushes alone moves no data, so it would never end; give -d a time, or add reads or writes to -o");
		return -EINVAL;
	}
	if (s->sample_ns && s->sample_ns < NSEC_PER_MSEC) {
		spec_error(s, "-g/--sample-step %lluns: the time series needs a step of at least 1 ms, or 0 to log every I/O",
			   (unsigned long long)s->sample_ns);
		return -EINVAL;
	}
	if (s->sample_ns && s->duration.kind == AMOUNT_TIME &&
	    s->duration.value / s->sample_ns > 10000000) {
		spec_error(s, "-g/--sample-step: %llu intervals of the run is more than the 10,000,000 rebench keeps; use a longer step",
			   (unsigned long long)(s->duration.value / s->sample_ns));
		return -EINVAL;
	}
	if (s->sample_ns == 0 && !s->output) {
		spec_error(s, "-g/--sample-step 0 logs every I/O, which needs a file: add --output FILE");
		return -EINVAL;
	}
	return 0;
}

/* --sync against -f, the operations and the duration.  A policy inherited
 * from the command line by a stdin line that does not write is left
 * alone: it is meant for the lines that do. */
static int check_sync(const struct spec *s)
{
	char p[32];

	sync_policy_format(&s->sync, p, sizeof(p));
	if (!spec_given(s, "sync"))
		return 0;
	if (s->buffered && s->sync.mode != SYNC_NONE) {
		spec_error(s, "-f/--buffered is --sync none, but --sync %s asks for another policy; drop -f or --sync",
			   p);
		return -EINVAL;
	}
	if (s->sync.mode != SYNC_NONE && !SPEC_DOES(s, IO_WRITE)) {
		spec_error(s, "--sync %s: the workload does not write (its -o has no write), and a sync policy applies to writes only; add writes to -o (-o write, -o rw), or drop --sync",
			   p);
		return -EINVAL;
	}
	if (s->sync.mode == SYNC_RWF_DSYNC && SPEC_DOES(s, IO_WRITE) &&
	    !(engine_get(s->engine)->flags & ENGINE_RWF_DSYNC)) {
		spec_error(s, "--sync rwf-dsync: the %s engine has no per-write RWF_DSYNC flag; use -t stateless, stateful, naio or uring, or --sync dsync (O_DSYNC, the same guarantee for every write)",
			   engine_get(s->engine)->name);
		return -EINVAL;
	}
	if (s->sync.mode == SYNC_SFR && SPEC_DOES(s, IO_WRITE) &&
	    !(engine_get(s->engine)->flags & ENGINE_SYNC_RANGE)) {
		spec_error(s, "--sync %s: the %s engine cannot issue sync_file_range; use -t stateless, stateful or uring, or --sync fdatasync:%u (a flush of the whole file after as many writes)",
			   p, engine_get(s->engine)->name, s->sync.every);
		return -EINVAL;
	}
	if (s->sync.mode == SYNC_SFR && s->append) {
		spec_error(s, "--sync %s with -a: an appended write lands at the file's end, wherever that is when it is issued, so the range a sync_file_range must cover is not known; use --sync fdatasync:%u, or drop -a",
			   p, s->sync.every);
		return -EINVAL;
	}
	if (s->sync.mode == SYNC_END && s->duration.kind == AMOUNT_TIME) {
		spec_error(s, "--sync end: the run ends at its deadline (-d as a time), after which nothing is issued, so the last write is not known in advance; give -d as bytes or %% of the region (-d 64m, -d 100%%), or use fsync:N");
		return -EINVAL;
	}
	return 0;
}

/* Say no to what --verify cannot check, with why and the fix. */
static int check_verify(const struct spec *s)
{
	const struct engine_ops *e = engine_get(s->engine);
	unsigned kinds = spec_kinds(s);

	if (!s->verify) {
		static const char *const need[] = {
			"verify-mode", "verify-continue", "verify-only",
			"verify-state", "verify-log",
		};
		size_t i;

		for (i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
			if (!spec_given(s, need[i]))
				continue;
			spec_error(s, "--%s: applies to data verification only; add --verify crc32c", need[i]);
			return -EINVAL;
		}
		return 0;
	}
	if (s->verify_only && !s->verify_state && !s->verify_log) {
		spec_error(s, "--verify-only: needs --verify-state FILE, the state file the writing run saved (which blocks it wrote, and their last generation), or --verify-log FILE, the log of its durable writes");
		return -EINVAL;
	}
	if (s->verify_only && spec_given(s, "verify-mode")) {
		spec_error(s, "--verify-mode with --verify-only: a --verify-only run writes nothing, it reads the region once and checks every block the state file names; leave --verify-mode out");
		return -EINVAL;
	}
	if (kinds & 1U << IO_TRIM) {
		spec_error(s, "--verify with trim: a trimmed block reads back as zeroes or as its old data, whichever the device chooses, so it cannot be checked; verify a -o write (or rw) workload, and trim in a run of its own");
		return -EINVAL;
	}
	if (!(kinds & 1U << IO_WRITE) && !s->verify_only) {
		spec_error(s, "--verify with a workload that only reads: nothing is written, so nothing carries a header to check; use -o write (or rw, or a mix with writes), or --verify-only --verify-state FILE to check what an earlier run wrote");
		return -EINVAL;
	}
	if (!digest_of(s->verify)->built) {
		spec_error(s, "--verify %s: this rebench was built without its library (libxxhash-dev); install it (make deps) and build again, or use --verify crc32c or sha256",
			   digest_of(s->verify)->name);
		return -EINVAL;
	}
	if (s->bs < verify_min_bs(s->verify)) {
		spec_error(s, "--verify %s with -b %llu: each block carries %zu bytes of header (offset, seed, generation, size, checksum) and some payload; use -b %zu or more",
			   digest_of(s->verify)->name, (unsigned long long)s->bs,
			   verify_payload_at(s->verify),
			   verify_min_bs(s->verify));
		return -EINVAL;
	}
	if (size_mix_active(&s->bsmix)) {
		spec_error(s, "--verify with a size split or range (-b): not supported, a block's header and map need one block size; use one -b");
		return -EINVAL;
	}
	if (s->stride && s->stride != s->bs) {
		spec_error(s, "--verify with -s %llu: blocks of -b %llu at a stride that is not the block size overlap or leave gaps, and a block's header must be its own; leave -s out",
			   (unsigned long long)s->stride, (unsigned long long)s->bs);
		return -EINVAL;
	}
	if (s->paged || (e->flags & ENGINE_NEEDS_PAGED)) {
		spec_error(s, "--verify with %s: a block read back would come from the page cache, which holds what was written, not what the device stored, so it checks nothing; drop -p (and use -t stateful or stateless) for O_DIRECT",
			   (e->flags & ENGINE_NEEDS_PAGED) ? "-t mmap" : "-p (page cache I/O)");
		return -EINVAL;
	}
	if (!(e->flags & ENGINE_SYNC)) {
		spec_error(s, "--verify with -t %s: verification runs on the synchronous engines only (each block filled before its write, read back after it); use -t stateful or stateless",
			   e->name);
		return -EINVAL;
	}
	if (s->threads > 1) {
		spec_error(s, "--verify with -c %llu: threads writing one region race for a block, and which write lands last is not known, so no generation can be expected; use -c 1 (or one workload line per region)",
			   (unsigned long long)s->threads);
		return -EINVAL;
	}
	if (s->append) {
		spec_error(s, "--verify with -a: appends land at the end of the file, not at the offsets the map knows; leave -a out");
		return -EINVAL;
	}
	if (delay_any(&s->delay)) {
		spec_error(s, "--verify with --delay: not supported (a delay models a slower device, verification checks this one); run them apart");
		return -EINVAL;
	}
	if (spec_given(s, "rate")) {
		spec_error(s, "--verify with --rate: not supported (a scheduled run's loop does not read blocks back); measure the rate and verify the data in two runs");
		return -EINVAL;
	}
	return verify_log_check(s);
}

/* --rate and --arrival on their own (the SIZE/s form needs the block
 * size: resolve_rate()). */
static int check_rate(const struct spec *s, const struct engine_ops *e)
{
	const struct opt_desc *arr = options_find_long("arrival");
	uint64_t bit = 1ULL << options_index(arr);
	bool rated = s->rate.ops > 0 || s->rate.bytes;

	if (!rated && ((s->given | s->inherited) & bit)) {
		spec_error(s, "--arrival %s: the arrivals of --rate's schedule, but no --rate was given; add --rate (I/Os a second, 1000, or bytes a second, 50m/s) or leave --arrival out",
			   rate_arrival_name(s->arrival));
		return -EINVAL;
	}
	if (!rated)
		return 0;
	if (e->flags & ENGINE_ASYNC) {
		spec_error(s, "--rate: the schedule is kept by the synchronous engines only, not by %s (an I/O whose intended start comes while the queue is full would be timed wrong); use -t stateful or stateless with -c N threads for N I/Os in flight, each thread RATE/N",
			   e->name);
		return -EINVAL;
	}
	if (s->pause_ns) {
		spec_error(s, "--rate with -z/--pause: the schedule decides when each I/O starts, so think time has no place in it; leave -z out (the rate's interval is the think time)");
		return -EINVAL;
	}
	if (s->rate.bytes && size_mix_active(&s->bsmix)) {
		spec_error(s, "--rate %llu bytes/s with a size mix: the I/Os a second would depend on the sizes drawn; give --rate in I/Os a second (--rate 1000)",
			   (unsigned long long)s->rate.bytes);
		return -EINVAL;
	}
	return 0;
}

/* --rate's SIZE/s against the block size, and every thread's interval
 * against what the schedule can keep. */
static int resolve_rate(const struct spec *s)
{
	double ops = rate_ops(&s->rate, s->bs);
	char size[32];

	if (!(s->rate.ops > 0 || s->rate.bytes))
		return 0;
	if (s->rate.bytes && s->rate.bytes < s->bs) {
		spec_error(s, "--rate %s/s: less than one block of %llu bytes a second, so the schedule could not start one I/O a second; give at least %llu/s, or --rate in I/Os a second (--rate 0.5 for one every 2 s)",
			   fmt_size_short(size, sizeof(size), s->rate.bytes),
			   (unsigned long long)s->bs, (unsigned long long)s->bs);
		return -EINVAL;
	}
	if (ops > RATE_MAX_OPS ||
	    1e9 * (double)s->threads / ops < RATE_MIN_INTERVAL_NS) {
		spec_error(s, "--rate: %.0f I/Os a second is above the %.0f that rebench's schedule can keep (at least %.0f ns between two I/Os of a thread); lower --rate, or leave it out for as fast as the device goes",
			   ops, RATE_MAX_OPS, RATE_MIN_INTERVAL_NS);
		return -EINVAL;
	}
	return 0;
}

int spec_check(const struct spec *s)
{
	const struct engine_ops *e = engine_get(s->engine);

	if (!s->target) {
		spec_error(s, "missing target: give a block device, partition or file (rebench /dev/sdb), or one workload per stdin line");
		return -EINVAL;
	}
	if (e->unavailable) {
		spec_error(s, "-t/--type %s: %s", e->name, e->unavailable);
		return -EINVAL;
	}
	if (check_engine(s, e) || check_pattern(s) || check_amounts(s) ||
	    fadvise_check(s) ||
	    check_sync(s) || check_verify(s) || check_rate(s, e))
		return -EINVAL;
	return 0;
}

static uint64_t pct_of(double pct, uint64_t whole)
{
	return (uint64_t)((long double)whole * pct / 100.0L);
}

/* The given/inherited bit of an option, by its long name. */
static uint64_t opt_bit(const char *long_name)
{
	return 1ULL << options_index(options_find_long(long_name));
}

/* The first size of the mix that is not a multiple of sector (a range's
 * smallest size or its step), with what it is in *what; 0 when all are. */
static uint64_t mix_unaligned(const struct size_mix *m, uint64_t sector,
			      const char **what)
{
	unsigned i;

	*what = "the size";
	if (m->range) {
		*what = m->size[0] % sector ? "the smallest size" : "the step";
		return m->size[0] % sector ? m->size[0] :
		       m->step % sector ? m->step : 0;
	}
	for (i = 0; i < m->n; i++)
		if (m->size[i] % sector)
			return m->size[i];
	return 0;
}

/* The operation shares of a plain -o, and the size mix against the
 * target: a range's default step, and O_DIRECT's sector multiples. */
static int resolve_mixes(struct spec *s, const struct target *t)
{
	uint64_t sector = t->logical ? t->logical : 512, bad;
	struct size_mix *m = &s->bsmix;
	const char *what;
	char mix[512];

	if (s->op != OP_MIX)
		mix_ops_of(s->op, s->rwmix, &s->opmix);
	if (!m->n)
		return 0;
	if (m->range && !m->step_given)
		m->step = s->paged ? 1 : sector;
	if (m->range && (m->size[1] - m->size[0]) % m->step) {
		spec_error(s, "-b/--block-size %s: the default step (%llu bytes, %s) does not divide the range; give a step: MIN-MAX/STEP",
			   mix_sizes_text(m, s->bs, mix, sizeof(mix)),
			   (unsigned long long)m->step,
			   s->paged ? "one byte with -p" : "the logical sector with O_DIRECT");
		return -EINVAL;
	}
	bad = mix_unaligned(m, sector, &what);
	if (s->paged || !bad)
		return 0;
	spec_error(s, "-b/--block-size %s: %s %llu is not a multiple of the logical sector size of %s (%llu bytes), which O_DIRECT requires of every I/O; use multiples of %llu or -p for page cache I/O",
		   mix_sizes_text(m, s->bs, mix, sizeof(mix)), what,
		   (unsigned long long)bad, s->target, (unsigned long long)sector,
		   (unsigned long long)sector);
	return -EINVAL;
}

/* The region -j/-e select, against the target (or the file to create). */
static int resolve_region(struct spec *s, const struct target *t)
{
	uint64_t size = t->size;
	char fs[32];

	if (!t->exists) {
		/* a mistyped device name is not a file to create; /dev/shm
		 * (tmpfs) holds files as any file system does */
		if (mountinfo_dir_fs(s->target, fs, sizeof(fs)) &&
		    !strcmp(fs, "devtmpfs")) {
			spec_error(s, "cannot open %s: No such file or directory (is the device name right? its directory is on devtmpfs, where rebench does not create files)",
				   s->target);
			return -ENOENT;
		}
		if (s->length.kind != AMOUNT_BYTES) {
			spec_error(s, "cannot open %s: No such file or directory (give -e SIZE to create a file of that size)",
				   s->target);
			return -ENOENT;
		}
		if (s->offset.kind == AMOUNT_PERCENT) {
			spec_error(s, "-j/--offset %g%%: %s does not exist yet, so the offset must be in bytes",
				   s->offset.pct, s->target);
			return -EINVAL;
		}
		size = s->offset.value + s->length.value;
	}
	if (s->append && t->kind != TARGET_FILE) {
		spec_error(s, "-a/--append: %s is a block device; appending works on regular files only",
			   s->target);
		return -EINVAL;
	}
	s->region_start = s->offset.kind == AMOUNT_PERCENT ?
		pct_of(s->offset.pct, size) : s->offset.value;
	if (s->region_start >= size) {
		spec_error(s, "-j/--offset %llu: at or beyond the end of %s (%llu bytes)",
			   (unsigned long long)s->region_start, s->target,
			   (unsigned long long)size);
		return -EINVAL;
	}
	switch (s->length.kind) {
	case AMOUNT_BYTES:
		s->region_len = s->length.value;
		break;
	case AMOUNT_PERCENT:
		s->region_len = pct_of(s->length.pct, size);
		break;
	default:
		s->region_len = size - s->region_start;
	}
	if (s->region_len > size - s->region_start) {
		spec_error(s, "region beyond the target: -j %llu + -e %llu = %llu bytes, but %s has %llu bytes; shrink -e or -j",
			   (unsigned long long)s->region_start,
			   (unsigned long long)s->region_len,
			   (unsigned long long)(s->region_start + s->region_len),
			   s->target, (unsigned long long)size);
		return -EINVAL;
	}
	return 0;
}

/* -d as a time, or as bytes (a share of the region) in I/Os. */
static void resolve_limits(struct spec *s)
{
	uint64_t bytes;

	s->time_limit_ns = 0;
	s->ops_limit = 0;
	s->bytes_limit = 0;
	switch (s->duration.kind) {
	case AMOUNT_BYTES:
		bytes = s->duration.value;
		break;
	case AMOUNT_PERCENT:
		bytes = pct_of(s->duration.pct, s->region_len);
		break;
	default:
		s->time_limit_ns = s->duration.value;
		return;
	}
	spec_limit_bytes(s, bytes);
}

void spec_limit_bytes(struct spec *s, uint64_t bytes)
{
	if (size_mix_active(&s->bsmix)) {
		/* the threads stop after these bytes; the I/O count is what
		 * the mix's mean size makes of them (progress, estimates) */
		s->bytes_limit = bytes ? bytes : 1;
		s->ops_limit = (uint64_t)ceil((double)s->bytes_limit /
					      size_mix_mean(&s->bsmix, s->bs));
		if (!s->ops_limit)
			s->ops_limit = 1;
		return;
	}
	s->ops_limit = (bytes + s->bs - 1) / s->bs;
	if (!s->ops_limit)
		s->ops_limit = 1;
	s->bytes_limit = s->ops_limit * s->bs;
}

/* What the engine says of its options against the target (check()). */
static int engine_check_target(const struct spec *s, const struct target *t)
{
	const struct engine_ops *e = engine_get(s->engine);
	struct engine_check c = { s->paged, s->target, t->io_poll };
	char err[512];

	if (!e->check || !e->check(&s->eopts[s->engine], &c, err, sizeof(err)))
		return 0;
	spec_error(s, "%s", err);
	return -EINVAL;
}

int spec_resolve(struct spec *s, const struct target *t)
{
	char a[32], b[32], c[32];
	const char *what;
	uint64_t sector = t->logical ? t->logical : 512;
	int ret = resolve_region(s, t);

	if (ret)
		return ret;
	/* The classic default of 512 bytes cannot be read with O_DIRECT from
	 * a 4096-byte-sector device: without a -b of the user's own (on the
	 * line or the command line), the default is the logical sector, so
	 * `printf '/dev/sda\n/dev/nvme0n1\n' | rebench` runs on both. */
	s->bs_is_sector = false;
	if (!(s->given & opt_bit("block-size")) &&
	    !(s->inherited & opt_bit("block-size")) && t->logical > s->bs) {
		s->bs = t->logical;
		s->bs_is_sector = true;
	}
	if (resolve_mixes(s, t))
		return -EINVAL;
	/* Without -s a size mix aligns its offsets to its smallest size, as
	 * fio's blockalign does; sequential mixes go on contiguously. */
	s->stride_eff = s->stride ? s->stride : size_mix_min(&s->bsmix, s->bs);
	if (!s->paged) {
		const struct { const char *opt; uint64_t v; } need[] = {
			{ "-b/--block-size", s->bs },
			{ "-s/--stride", s->stride_eff },
			{ "-j/--offset", s->region_start },
		};
		size_t i;

		for (i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
			if (need[i].v % sector == 0)
				continue;
			spec_error(s, "%s %llu: not a multiple of the logical sector size of %s (%llu bytes), which O_DIRECT requires; use a multiple of %llu or -p for page cache I/O",
				   need[i].opt, (unsigned long long)need[i].v,
				   s->target, (unsigned long long)sector,
				   (unsigned long long)sector);
			return -EINVAL;
		}
	}
	if (engine_check_target(s, t))
		return -EINVAL;
	/* Appends land at the end of the file, whatever the region says. */
	if (s->append && !s->paged && t->exists && t->size % sector) {
		spec_error(s, "-a/--append: %s is %llu bytes long, not a multiple of the logical sector size (%llu bytes), so O_DIRECT appends would fail; add -p for page cache I/O",
			   s->target, (unsigned long long)t->size,
			   (unsigned long long)sector);
		return -EINVAL;
	}
	if (SPEC_DOES(s, IO_TRIM) && t->kind != TARGET_FILE) {
		if (!t->discard_max) {
			spec_error(s, "-o trim: %s does not support discard (its queue/discard_max_bytes is 0)",
				   s->target);
			return -EINVAL;
		}
		if (s->bs % sector || s->stride_eff % sector ||
		    s->region_start % sector ||
		    mix_unaligned(&s->bsmix, sector, &what)) {
			spec_error(s, "-o trim: block sizes, stride and offset must be multiples of the logical sector size of %s (%llu bytes) for BLKDISCARD",
				   s->target, (unsigned long long)sector);
			return -EINVAL;
		}
	}
	s->slots = pattern_slots(s->region_len, s->bs, s->stride_eff);
	if (!s->slots) {
		spec_error(s, "the region (%s at offset %s of %s) is smaller than one block (%s); enlarge -e or reduce -b",
			   fmt_size_short(a, sizeof(a), s->region_len),
			   fmt_size_short(b, sizeof(b), s->region_start),
			   s->target, fmt_size_short(c, sizeof(c), s->bs));
		return -EINVAL;
	}
	resolve_limits(s);
	if (verify_spec_resolve(s) || verify_log_resolve(s, t))
		return -EINVAL;
	return resolve_rate(s);
}

int spec_resolve_dist(struct spec *s, struct dist *d)
{
	char err[256];

	if (s->seq)
		return 0;
	if (dist_init(d, s, s->slots, err, sizeof(err))) {
		spec_error(s, "-u/--dist %s%s%s on this region (%llu blocks): %s",
			   opt_values_name(dist_values, s->dist),
			   s->dist_arg ? ":" : "", s->dist_arg ? s->dist_arg : "",
			   (unsigned long long)s->slots, err);
		return -EINVAL;
	}
	return 0;
}
