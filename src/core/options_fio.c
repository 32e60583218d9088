/* options_fio.c - fio's spellings of rebench's options, see options_fio.h. */
#include "core/options_fio.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engines/engine.h"
#include "core/fileset.h"
#include "core/fio_rw.h"
#include "core/suggest.h"
#include "core/units.h"

/* An error about alias a's value: "rebench: stdin line 3: --bs=4k,8k: ..." */
static int refuse(const struct fio_set *st, const struct fio_alias *a,
		  const char *val, const char *fmt, ...)
{
	char w[64];
	va_list ap;

	options_where(st->ctx, w, sizeof(w));
	fprintf(stderr, "rebench: %s--%s%s%s: ", w, a->name, val ? "=" : "",
		val ? val : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -EINVAL;
}

static const struct opt_desc *target_opt(const struct fio_alias *a)
{
	return options_find_long(a->opt);
}

/* The meaning is the same: the value goes to rebench's option as typed. */
static int fio_same(const struct fio_alias *a, const char *val,
		    const struct fio_set *st)
{
	return options_apply(target_opt(a), val, st->spec, st->run, st->ctx);
}

/* fio's bs=4k,8k gives reads and writes their own size; rebench's comma
 * is a list to sweep. */
static int fio_bs(const struct fio_alias *a, const char *val,
		  const struct fio_set *st)
{
	if (strchr(val, ','))
		return refuse(st, a, val, "in fio a comma gives reads, writes and trims their own block size, which rebench does not do; to sweep block sizes give the list to -b (-b 4k,64k)");
	return fio_same(a, val, st);
}

/* Every fio job opens the file itself: rebench's threads with -l. */
static int fio_numjobs(const struct fio_alias *a, const char *val,
		       const struct fio_set *st)
{
	int ret = fio_same(a, val, st);

	if (ret)
		return ret;
	return options_apply(options_find_long("local-fd"), NULL, st->spec,
			     st->run, st->ctx);
}

/* fio's time units: a bare number is in the option's unit (seconds for
 * runtime and ramp_time, microseconds for thinktime); m is minutes. */
static const struct {
	const char *name;
	uint64_t ns;
} fio_time_units[] = {
	{ "us", NSEC_PER_USEC }, { "usec", NSEC_PER_USEC },
	{ "ms", NSEC_PER_MSEC }, { "msec", NSEC_PER_MSEC },
	{ "s", NSEC_PER_SEC }, { "sec", NSEC_PER_SEC },
	{ "m", 60 * NSEC_PER_SEC }, { "min", 60 * NSEC_PER_SEC },
	{ "h", 3600 * NSEC_PER_SEC }, { "d", 86400 * NSEC_PER_SEC },
};

#define N_TIME_UNITS (sizeof(fio_time_units) / sizeof(fio_time_units[0]))

/* One fio time into rebench's words: "1m" -> "60s"; 0 or -EINVAL. */
static int fio_time_word(const char *in, size_t n, uint64_t unit, char *out,
			 size_t len)
{
	char num[64];
	size_t d = 0, i;
	uint64_t ns;

	while (d < n && (isdigit((unsigned char)in[d]) || in[d] == '.'))
		d++;
	if (!d || d >= sizeof(num))
		return -EINVAL;
	if (d < n) {
		for (i = 0; i < N_TIME_UNITS; i++)
			if (strlen(fio_time_units[i].name) == n - d &&
			    !strncasecmp(fio_time_units[i].name, in + d, n - d))
				break;
		if (i == N_TIME_UNITS)
			return -EINVAL;
		unit = fio_time_units[i].ns;
	}
	memcpy(num, in, d);
	num[d] = '\0';
	if (parse_time(num, unit, &ns))
		return -EINVAL;
	fmt_time(out, len, ns);
	return 0;
}

/* fio times in a value, a list or a range (the factor after '*' kept) into
 * rebench's words; 0 or -EINVAL. */
static int fio_times(const char *val, uint64_t unit, char *out, size_t len)
{
	const char *p = val;
	size_t n = 0;

	out[0] = '\0';
	while (*p) {
		size_t w = strcspn(p, ",./*");
		char word[64];

		if (*p == '.' && p[1] == '.') {
			w = 2;
			snprintf(word, sizeof(word), "..");
		} else if (*p == ',' || *p == '/' || *p == '*') {
			w = 1;
			snprintf(word, sizeof(word), "%c", *p);
			if (*p == '*') {	/* a factor, not a time */
				w += strcspn(p + 1, ",");
				snprintf(word, sizeof(word), "%.*s", (int)w, p);
			}
		} else {
			/* a fraction's point belongs to the number */
			while (p[w] == '.' && p[w + 1] != '.')
				w += 1 + strcspn(p + w + 1, ",./*");
			if (fio_time_word(p, w, unit, word, sizeof(word)))
				return -EINVAL;
		}
		if (n + strlen(word) >= len)
			return -EINVAL;
		n += (size_t)snprintf(out + n, len - n, "%s", word);
		p += w;
	}
	return 0;
}

static int fio_time(const struct fio_alias *a, const char *val,
		    const struct fio_set *st)
{
	const struct opt_desc *o = target_opt(a);
	uint64_t unit = o->type == OPT_TIME ? o->unit_ns : NSEC_PER_SEC;
	char text[512], w[64], l[96];
	uint64_t ns;

	if (o->type == OPT_DURATION && strstr(val, ".."))
		return refuse(st, a, val, "-d/--duration takes a list of times to sweep, not a range: give --%s=A,B,C",
			      a->name);
	if (fio_times(val, unit, text, sizeof(text))) {
		options_where(st->ctx, w, sizeof(w));
		options_label(o, st->ctx, l, sizeof(l));
		fprintf(stderr, "rebench: %sinvalid value '%s' for %s: expected fio's time: a number of %s, or with a us, ms, s, m (minutes), h or d suffix\n",
			w, val, l, unit == NSEC_PER_SEC ? "seconds" :
			"microseconds");
		return -EINVAL;
	}
	if (o->type == OPT_DURATION && !parse_time(text, unit, &ns) && !ns)
		return refuse(st, a, val, "fio's runtime=0 means no time limit; rebench needs a limit: give -d as an amount of data (-d 1g) or a share of the region (-d 100%%)");
	return options_apply(o, text, st->spec, st->run, st->ctx);
}

static int fio_rw(const struct fio_alias *a, const char *val,
		  const struct fio_set *st)
{
	char list[256], near[128], sep[] = ", ";
	struct suggest sg;
	size_t i, n = 0;
	int m, ret;

	if (strchr(val, ':'))
		return refuse(st, a, val, "fio's ':N' offset modifier has no alias; for sequential I/O with gaps give -s/--stride (the block size plus the gap)");
	if (options_is_range(val))
		return refuse(st, a, val, "--%s sets two options, -o and -w, so it cannot be swept; give the lists to them (-o read,write -w rnd,seq)",
			      a->name);
	m = fio_rw_find(val);
	if (m < 0 && (!strcasecmp(val, "trimwrite") ||
		      !strcasecmp(val, "randtrimwrite")))
		return refuse(st, a, val, "fio's %s (trim each block, then write it) has no rebench form",
			      val);
	if (m < 0) {
		suggest_init(&sg, val);
		for (i = 0; i < fio_rw_count; i++) {
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
					      i ? sep : "", fio_rw_modes[i].name);
			suggest_offer(&sg, fio_rw_modes[i].name);
		}
		if (suggest_text(&sg, "", near, sizeof(near)))
			return refuse(st, a, val, "expected one of fio's %s; did you mean %s?",
				      list, near);
		return refuse(st, a, val, "expected one of fio's %s", list);
	}
	ret = options_apply(options_find_long("operation"),
			    fio_rw_modes[m].op, st->spec, st->run, st->ctx);
	if (ret)
		return ret;
	return options_apply(options_find_long("workload"),
			     fio_rw_modes[m].workload, st->spec, st->run,
			     st->ctx);
}

/* direct=1 is rebench's default, direct=0 is -p. */
static int fio_direct(const struct fio_alias *a, const char *val,
		      const struct fio_set *st)
{
	const struct opt_desc *o = target_opt(a);

	if (!val || !strcmp(val, "1")) {
		*(bool *)((char *)st->spec + o->off) = false;
		st->spec->given |= 1ULL << options_index(o);
		return 0;
	}
	if (!strcmp(val, "0"))
		return options_apply(o, NULL, st->spec, st->run, st->ctx);
	return refuse(st, a, val, "expected 1 (O_DIRECT, rebench's default) or 0 (the page cache, -p)");
}

/* fio's filename is the target; its a:b lists several files. */
static int fio_filename(const struct fio_alias *a, const char *val,
			const struct fio_set *st)
{
	if (!*val)
		return refuse(st, a, val, "expected a block device, partition or file");
	/* fio's a:b:c is a list of files (core/fileset.h), "\:" a colon */
	return fileset_filename(st->spec, val, st->ctx);
}

/* What rebench always does: accepted bare or =1, refused =0. */
static int fio_always(const struct fio_alias *a, const char *val,
		      const struct fio_set *st)
{
	if (!val || !strcmp(val, "1"))
		return 0;
	return refuse(st, a, val, "%s", a->unlike);
}

/* fio's fsync=N and fdatasync=N: a flush after every N writes, --sync
 * fsync:N or fdatasync:N; 0, fio's default, is none. */
static int fio_flush(const struct fio_alias *a, const char *val,
		     const struct fio_set *st)
{
	uint64_t n;
	char text[48];

	if (parse_uint(val, &n) || n > SYNC_EVERY_MAX)
		return refuse(st, a, val, "expected a number of writes per %s, 0 (fio's default: none) to %u",
			      a->name, SYNC_EVERY_MAX);
	if (n)
		snprintf(text, sizeof(text), "%s:%llu", a->name,
			 (unsigned long long)n);
	else
		snprintf(text, sizeof(text), "none");
	return options_apply(target_opt(a), text, st->spec, st->run,
			     st->ctx);
}

/* fio's end_fsync: one fsync after the last write, --sync end; =0 is
 * fio's default, which says nothing. */
static int fio_end_fsync(const struct fio_alias *a, const char *val,
			 const struct fio_set *st)
{
	if (val && !strcmp(val, "0"))
		return 0;
	if (val && strcmp(val, "1"))
		return refuse(st, a, val, "expected 1 (one fsync after the last write, --sync end) or 0");
	return options_apply(target_opt(a), "end", st->spec, st->run, st->ctx);
}

/* Bits of the used mask: which of these were given (fio_alias_notes). */
enum { A_BS, A_IODEPTH, A_NUMJOBS, A_RUNTIME, A_SIZE, A_RW, A_READWRITE,
       A_IOENGINE, A_RWMIXREAD, A_DIRECT, A_FILENAME, A_NAME, A_RAMP_TIME,
       A_THINKTIME, A_TIME_BASED, A_THREAD, A_GROUP_REPORTING,
       A_NORANDOMMAP, A_FSYNC, A_FDATASYNC, A_END_FSYNC,
       A_FILE_SERVICE_TYPE };

/* fio's job name: a label rebench has no use for; a second one is a
 * second fio job, which is a second stdin line here. */
static int fio_name(const struct fio_alias *a, const char *val,
		    const struct fio_set *st)
{
	if (*st->used & (1U << A_NAME))
		return refuse(st, a, val, "a second --name starts a second fio job; rebench runs one workload per command line or stdin line: put each on its own stdin line");
	return 0;
}

const struct fio_alias fio_aliases[] = {
	[A_BS] = { "bs", "block-size", "SIZE", fio_bs,
	  "-b SIZE; a comma (fio's own sizes for reads and writes) is refused", NULL },
	[A_IODEPTH] = { "iodepth", "queue-depth", "N", fio_same,
	  "-q N", NULL },
	[A_NUMJOBS] = { "numjobs", "threads", "N", fio_numjobs,
	  "-c N -l: N threads, each with its own file descriptor, as fio's jobs", NULL },
	[A_RUNTIME] = { "runtime", "duration", "TIME", fio_time,
	  "-d TIME, a time only: seconds, or fio's us, ms, s, m (minutes), h, d; always run whole, as fio's time_based", NULL },
	[A_SIZE] = { "size", "length", "SIZE", fio_same,
	  "-e SIZE: the region's length only; -d still sets how long (10 s unless given; -d 100% is fio's one pass)", NULL },
	[A_RW] = { "rw", "operation", "MODE", fio_rw,
	  "read, write, trim = -o OP -w seq; randread, randwrite, randtrim = -o OP -w rnd; rw, readwrite = -o rw -w seq; randrw = -o rw -w rnd (--rwmix 50, as fio)", NULL },
	[A_READWRITE] = { "readwrite", "operation", "MODE", fio_rw,
	  "--rw MODE", NULL },
	[A_IOENGINE] = { "ioengine", "type", "ENGINE", fio_same,
	  "-t ENGINE; fio's sync, psync, libaio, io_uring, posixaio, mmap", NULL },
	[A_RWMIXREAD] = { "rwmixread", "rwmix", "PCT", fio_same,
	  "--rwmix PCT", NULL },
	[A_DIRECT] = { "direct", "paged", NULL, fio_direct,
	  "bare or =1: O_DIRECT; =0: -p (the page cache), fio's default", NULL },
	[A_FILENAME] = { "filename", NULL, "FILE", fio_filename,
	  "the TARGET; a:b:c (\\: a colon in a name) several files, as several TARGET words", NULL },
	[A_NAME] = { "name", NULL, "NAME", fio_name,
	  "accepted once: a label (a second --name, fio's second job, is refused)", NULL },
	[A_RAMP_TIME] = { "ramp_time", "warmup", "TIME", fio_time,
	  "--warmup TIME, in fio's time units", NULL },
	[A_THINKTIME] = { "thinktime", "pause", "TIME", fio_time,
	  "-z TIME, in fio's time units (a bare number is microseconds)", NULL },
	[A_TIME_BASED] = { "time_based", NULL, NULL, fio_always,
	  "accepted: -d TIME always runs the whole time",
	  "rebench's -d TIME always runs the whole time; to stop after an amount of data give -d as bytes (-d 1g) or a share of the region (-d 100%)" },
	[A_THREAD] = { "thread", NULL, NULL, fio_always,
	  "accepted: rebench's workers are threads",
	  "rebench's workers are always threads of one process" },
	[A_GROUP_REPORTING] = { "group_reporting", NULL, NULL, fio_always,
	  "accepted: a workload's threads are reported together",
	  "rebench always reports a workload's threads together; give each workload its own stdin line to see them apart" },
	[A_NORANDOMMAP] = { "norandommap", NULL, NULL, fio_always,
	  "accepted: random offsets are always drawn independently",
	  "rebench always draws every random offset independently (fio's norandommap=1); it has no map that visits each block once" },
	[A_FSYNC] = { "fsync", "sync", "N", fio_flush,
	  "--sync fsync:N: an fsync after every N writes; 0: none", NULL },
	[A_FDATASYNC] = { "fdatasync", "sync", "N", fio_flush,
	  "--sync fdatasync:N: an fdatasync after every N writes; 0: none", NULL },
	[A_END_FSYNC] = { "end_fsync", "sync", NULL, fio_end_fsync,
	  "bare or =1: --sync end, one fsync after the last write", NULL },
	[A_FILE_SERVICE_TYPE] = { "file_service_type", "file-service", "TYPE", fio_same,
	  "--file-service TYPE: roundrobin, random or zipf:THETA (fio's :N suffix, sequential, pareto and normal are refused)", NULL },
};

const size_t fio_alias_count = sizeof(fio_aliases) / sizeof(fio_aliases[0]);

/* Equal, with '_' and '-' alike. */
static bool same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !((*a == '_' || *a == '-') &&
				  (*b == '_' || *b == '-')))
			return false;
	return *a == *b;
}

const struct fio_alias *fio_alias_find(const char *name)
{
	size_t i;

	for (i = 0; i < fio_alias_count; i++)
		if (same_name(fio_aliases[i].name, name))
			return &fio_aliases[i];
	return NULL;
}

int fio_alias_apply(const struct fio_alias *a, const char *val,
		    const struct fio_set *st)
{
	int ret = a->set(a, val, st);

	*st->used |= 1U << (a - fio_aliases);
	return ret;
}

static void note(const struct parse_ctx *ctx, const char *fmt, ...)
{
	char w[64];
	va_list ap;

	options_where(ctx, w, sizeof(w));
	fprintf(stderr, "rebench: %snote: ", w);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static bool given(const struct spec *s, const char *name)
{
	const struct opt_desc *o = options_find_long(name);

	return spec_given(s, name) ||
	       (s->inherited & (1ULL << options_index(o)));
}

void fio_alias_notes(unsigned used, const struct spec *spec,
		     const struct parse_ctx *ctx)
{
	struct parse_ctx c = *ctx;

	c.alias = NULL;
	if ((used & (1U << A_SIZE)) && !given(spec, "duration"))
		note(&c, "--size is the region's length (-e); rebench runs for -d (10 s unless given) however much I/O that is, where fio stops after SIZE bytes: -d 100%% makes one pass over the region");
	if ((used & (1U << A_SIZE)) && (used & (1U << A_RUNTIME)) &&
	    !(used & (1U << A_TIME_BASED)))
		note(&c, "rebench runs the whole --runtime, as fio's time_based=1 does; without it fio stops sooner if it has done --size bytes");
	if ((used & (1U << A_NUMJOBS)) && spec->seq && spec->threads > 1)
		note(&c, "--numjobs %llu with sequential I/O: rebench's threads start 1/%llu of the region apart, where fio's jobs all start at its beginning",
		     (unsigned long long)spec->threads,
		     (unsigned long long)spec->threads);
}

void fio_defaults(struct spec *s)
{
	s->fio_default_sync = !given(s, "sync") && !given(s, "buffered");
	if (s->fio_default_sync) {
		s->sync.mode = SYNC_NONE;
		s->sync.every = 0;
	}
	s->fio_default_direct = !given(s, "paged");
	if (s->fio_default_direct)
		s->paged = true;
	/* fio's bs=4k, rw=read (sequential) and ioengine=psync */
	if (!given(s, "block-size"))
		s->bs = 4096;
	if (!given(s, "workload"))
		s->seq = 1;
	if (!given(s, "type"))
		s->engine = engine_lookup("stateless");
}

/* fio options with no alias, and what to give rebench instead. */
static const struct {
	const char *name, *hint;
} fio_hints[] = {
	{ "bssplit", "give the split to -b/--block-size: -b 4k/10:64k/90" },
	{ "bsrange", "give the range to -b/--block-size: -b 4k-64k/4k" },
	{ "random_distribution", "use -u/--dist NAME[:PARAM]: uniform (fio's random), zipf:THETA, pareto:H, normal, zoned:A/R..." },
	{ "rwmixwrite", "give the share of reads: --rwmixwrite=30 is --rwmix=70 (or --rwmixread=70)" },
	{ "randseed", "use --seed N (rebench's generators are not fio's: the same seed gives other offsets)" },
	{ "randrepeat", "use --seed N to repeat the offsets (rebench draws a new seed each run and reports it)" },
	{ "iodepth_batch", "use --batch N (submit N I/Os per call, reap at least N per wait)" },
	{ "iodepth_batch_submit", "use --batch N (submit N I/Os per call, reap at least N per wait)" },
	{ "loops", "use --repeat N (each run measured apart, with their spread; fio's loops adds the runs up)" },
	{ "io_size", "give the amount to -d/--duration: -d 1g, or -d 100% for one pass over the region (split over the threads; fio's io_size is per job)" },
	{ "invalidate", "use --drop-caches, which drops the whole page cache before running (fio's invalidate drops its files' pages)" },
};

const char *fio_option_hint(const char *name, char *buf, size_t len)
{
	const struct engine_opt *eo;
	char owners[128];
	size_t i;
	int k, e;

	for (i = 0; i < sizeof(fio_hints) / sizeof(fio_hints[0]); i++)
		if (same_name(fio_hints[i].name, name))
			return fio_hints[i].hint;
	/* an engine's own option under fio's name for it */
	for (k = 0; (eo = engine_opt_get(k, &e)); k++) {
		if (!eo->fio || !same_name(eo->fio, name))
			continue;
		snprintf(buf, len, "use --%s with %s", eo->name,
			 engine_owners(eo->name, owners, sizeof(owners)));
		return buf;
	}
	return NULL;
}
