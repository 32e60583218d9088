/* replay.c - see replay.h.
 *
 * The replay is a workload built from the log: -o a mix of the kinds the
 * log has (its shares, for the parameters shown), -w seq, -b the largest
 * transfer, -e the file map's length (a new file is created that long),
 * -d the log's bytes, -c the workers; after preparation each worker's
 * synthetic stream is replaced by its share of the log: one recorded
 * thread's operations in recorded order (asap, timed), or, grouped, every
 * operation by one worker, grouped by type.  What the replay did beyond
 * the run's statistics is a struct replay_result the writers report.  On
 * a directory (replay_dir.h) the workload targets one of the files and
 * the others are prepared by workloads of their own that never run.
 *
 * Exit statuses are those of a run (plan.h): 1 bad arguments, a bad log,
 * a target too small, misaligned O_DIRECT operations, a refused
 * confirmation; 2 preparation failed (target in use, read-only); 3 I/O
 * failed; 5 output; 130 interrupted.
 */
#include "trace/replay.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/confirm.h"
#include "core/memory.h"
#include "core/mode_args.h"
#include "core/options.h"
#include "core/outpath.h"
#include "core/plan.h"
#include "trace/replay_dir.h"
#include "trace/replay_result.h"
#include "trace/replay_space.h"
#include "report/report.h"
#include "trace/stream_trace.h"
#include "core/sweep.h"
#include "target/target.h"
#include "core/workload.h"

#define MAX_PASS 16

enum replay_mode { MODE_ASAP, MODE_GROUPED, MODE_TIMED };

static const char *const mode_names[] = { "asap", "grouped", "timed" };

/* --replay-speed: beyond these a replay is no longer about the times */
#define SPEED_MIN 1e-3
#define SPEED_MAX 1e6

struct replay_args {
	const char *log;
	const char *target;
	const char *mode_text;	/* --replay-mode as given */
	enum replay_mode mode;
	double speed;
	const char *speed_text;	/* as given, NULL: not given */
	bool align;
	bool paged;
	char *pass[MAX_PASS];	/* options handed to the ordinary parser */
	int npass;
};

static const char usage[] =
	"rebench --replay LOG [--replay-mode asap|grouped|timed] [--replay-speed F] [--replay-align] [-p] [-m] [-t ENGINE] [--drop-caches] [--seed N] [-y] [-n | --json] TARGET|DIR\n";

bool replay_wanted(int argc, char **argv)
{
	return mode_given(argc, argv, "--replay");
}

static int parse_mode(const struct mode_grammar *g, void *args,
		      const char *opt, const char *v)
{
	struct replay_args *a = args;
	size_t m;

	(void)g;
	(void)opt;
	for (m = 0; v && m < sizeof(mode_names) / sizeof(mode_names[0]); m++)
		if (!strcmp(v, mode_names[m])) {
			a->mode = (enum replay_mode)m;
			return 0;
		}
	fprintf(stderr, "rebench: --replay-mode %s: give asap (recorded order, as fast as possible, a worker per recorded thread), grouped (all operations of one type together, one worker) or timed (at the recorded times, a worker per recorded thread)\n",
		v ? v : "(no value)");
	return -EINVAL;
}

/* A number F with SPEED_MIN <= F <= SPEED_MAX, nothing after it. */
static int parse_speed(const struct mode_grammar *g, void *args,
		       const char *opt, const char *v)
{
	struct replay_args *a = args;
	char *end;
	double f;

	(void)g;
	(void)opt;
	errno = 0;
	f = v ? strtod(v, &end) : 0;
	if (!v || end == v || *end || errno || !(f >= SPEED_MIN) ||
	    f > SPEED_MAX) {
		fprintf(stderr, "rebench: --replay-speed '%s': give a factor from %g to %g (1: the recorded times, 2: twice as fast, 0.5: half as fast)\n",
			v ? v : "", SPEED_MIN, SPEED_MAX);
		return -EINVAL;
	}
	a->speed = f;
	return 0;
}

static int one_target(const struct mode_grammar *g, void *args,
		      const char *opt, const char *v)
{
	const struct replay_args *a = args;

	(void)g;
	(void)opt;
	if (!a->target)
		return 0;
	fprintf(stderr, "rebench: --replay takes one TARGET; %s and %s are two\n",
		a->target, v);
	return -EINVAL;
}

static int paged(const struct mode_grammar *g, void *args, const char *opt,
		 const char *v)
{
	(void)g;
	(void)opt;
	(void)v;
	((struct replay_args *)args)->paged = true;
	return 0;
}

/* Options of a run that keep their meaning in a replay, handed to the
 * workload's parser; the rest (-o, -b, -d, -e, -c, -q, ...) are decided
 * by the log. */
#define PASS(name, short, val, ...) { name, MODE_PASS, \
	offsetof(struct replay_args, pass), \
	offsetof(struct replay_args, npass), MAX_PASS, .letter = short, \
	.value = val, .missing = "%s: a value is missing, or too many options", \
	.many = "%s: a value is missing, or too many options", __VA_ARGS__ }

static const struct mode_opt opts[] = {
	{ "--replay-mode", MODE_VALUE, offsetof(struct replay_args, mode_text),
	  .check_missing = true, .check = parse_mode },
	{ "--replay-speed", MODE_VALUE, offsetof(struct replay_args, speed_text),
	  .check_missing = true, .check = parse_speed },
	{ "--replay", MODE_VALUE, offsetof(struct replay_args, log),
	  .missing = "--replay needs a LOG (of rebench --record)" },
	{ "--replay-align", MODE_FLAG, offsetof(struct replay_args, align) },
	{ NULL, MODE_WORD, offsetof(struct replay_args, target),
	  .check = one_target },
	PASS("--paged", "-p", false, .check = paged),
	PASS("--do-atime", "-m", false),
	PASS("--type", "-t", true),
	PASS("--yes", "-y", false),
	PASS("--silent", "-n", false),
	PASS("--json", NULL, false),
	PASS("--drop-caches", NULL, false),
	PASS("--seed", NULL, true),
	PASS("--delay", NULL, true),
};

const struct mode_grammar replay_grammar = {
	.usage = usage,
	.sep = " ",
	.unknown = "%s has no meaning with --replay: the log decides operations, offsets, sizes and threads",
	.opts = opts,
	.nopts = sizeof(opts) / sizeof(opts[0]),
	.no_cmd = true,
};

static int parse_args(int argc, char **argv, struct replay_args *a)
{
	memset(a, 0, sizeof(*a));
	a->speed = 1.0;
	if (mode_args_parse(argc, argv, &replay_grammar, a))
		return -EINVAL;
	if (!a->log || !a->target)
		return mode_args_bad(&replay_grammar, "--replay needs a LOG and a TARGET (a file, created if new, or a block device) or a DIR (a file there per recorded file)");
	if (a->speed_text && a->mode != MODE_TIMED) {
		fprintf(stderr, "rebench: --replay-speed %s: the speed of the recorded times applies to --replay-mode timed; add it, or drop --replay-speed\n",
			a->speed_text);
		return -EINVAL;
	}
	return 0;
}

/* -o: the log's kinds with their shares in whole percents, each at least
 * 1 and the largest taking the rounding. */
static void build_mix(const struct stream_trace *t, char *buf, size_t len)
{
	uint64_t all = 0;
	int pct[IO_KINDS] = { 0 }, k, big = -1, sum = 0;
	size_t o = 0;

	for (k = 0; k < IO_KINDS; k++)
		all += t->count[k];
	for (k = 0; k < IO_KINDS; k++) {
		if (!t->count[k])
			continue;
		pct[k] = (int)(100 * t->count[k] / all);
		if (pct[k] < 1)
			pct[k] = 1;
		sum += pct[k];
		if (big < 0 || t->count[k] > t->count[big])
			big = k;
	}
	pct[big] += 100 - sum;
	buf[0] = 0;
	for (k = 0; k < IO_KINDS; k++)
		if (pct[k])
			o += (size_t)snprintf(buf + o, len - o, "%s%s/%d",
					      o ? ":" : "", io_kind_name(k),
					      pct[k]);
}

/* A target that exists must hold the whole map, a new file must fit
 * (replay_space.h): 0, or -errno after saying so; *logical its sector (0
 * when it is new). */
/* path's logical sector and size, probed; 0, or -EINVAL (-ENOMEM) after
 * saying why. */
static int probe(const char *path, unsigned *logical, uint64_t *size)
{
	struct target *tg = calloc(1, sizeof(*tg));	/* 8 KB of paths */
	char err[PATH_MAX + 256];
	int ret = 0;

	if (!tg) {
		fprintf(stderr, "rebench: no memory to probe %s\n", path);
		return -ENOMEM;
	}
	if (target_probe(path, tg, err, sizeof(err))) {
		fprintf(stderr, "rebench: %s\n", err);
		ret = -EINVAL;
	} else {
		*logical = tg->logical;
		*size = tg->size;
	}
	free(tg);
	return ret;
}

static int check_target(const struct replay_args *a,
			const struct stream_trace *t, unsigned *logical)
{
	char dir[PATH_MAX];
	uint64_t size;
	int ret;

	*logical = 0;
	if (access(a->target, F_OK)) {
		/* a new file, created as long as the map */
		snprintf(dir, sizeof(dir), "%s", a->target);
		return replay_space_check(a->log, dirname(dir), a->target, 1,
					  t->total);
	}
	ret = probe(a->target, logical, &size);
	if (ret || size >= t->total)
		return ret;
	fprintf(stderr, "rebench: %s has %" PRIu64 " bytes, but the replay's file map needs %" PRIu64 " (%u recorded files, each in a 1 MiB-aligned slot as long as its recorded extent); give a larger target, or a new file, which rebench creates that long\n",
		a->target, size, t->total, t->nfiles);
	return -ENOSPC;
}

/* A directory: the logical sector of its filesystem (0 when unknown). */
static int dir_sector(const struct replay_dir *d, unsigned *logical)
{
	uint64_t size;

	return probe(d->paths[0], logical, &size);
}

/* O_DIRECT needs every offset and size in whole sectors: 0, or -EINVAL
 * after the advice of -p or --replay-align. */
static int check_alignment(const struct replay_args *a, struct stream_trace *t,
			   unsigned sector)
{
	uint32_t line = 0;
	uint64_t n;

	if (a->paged)
		return 0;
	n = stream_trace_align(t, sector, a->align, &line);
	if (!n || a->align)
		return 0;
	fprintf(stderr, "rebench: %s: %" PRIu64 " of %zu operations have an offset or size that is not a multiple of the %u-byte sector (the first at line %" PRIu32 "); O_DIRECT cannot issue them: add --replay-align to widen each to the sectors it touches (the report says how many changed), or -p for page cache I/O\n",
		a->log, n, t->n, sector, line);
	return -EINVAL;
}

/* The replay's workload on target, whose region is region bytes (the
 * map, or a directory's main file): set from the log, then the user's
 * options that keep their meaning, through the workload parser. */
static int build_spec(const struct replay_args *a, const struct stream_trace *t,
		      const char *target, uint64_t region, struct spec *base,
		      struct run_opts *run, struct sweep *sw)
{
	struct parse_ctx pctx = { 0, "command line", sw, &sweep_range_hooks };
	char mix[128];
	uint64_t data = 0;
	uint64_t b = (t->maxlen + 4095) / 4096 * 4096;
	size_t i;

	for (i = 0; i < t->n; i++)	/* as replayed: aligned when asked */
		if (!trace_add(data, t->ops[i].len, UINT64_MAX, &data)) {
			fprintf(stderr, "rebench: %s: the operations move more than 2^64 bytes together; replay a shorter log\n",
				a->log);
			return -EINVAL;
		}
	build_mix(t, mix, sizeof(mix));
	if (b > region)
		b = region;	/* a directory's file: it holds the largest */
	spec_defaults(base);
	if (spec_set(base, "operation", mix, &pctx) ||
	    spec_set(base, "workload", "seq", &pctx) ||
	    spec_set_count(base, "block-size", b, "", &pctx) ||
	    spec_set_count(base, "length", region, "", &pctx) ||
	    spec_set_count(base, "duration", data, "b", &pctx) ||
	    /* no O_DSYNC: the log's own flushes flush */
	    spec_set_flag(base, "buffered", &pctx) ||
	    spec_set_count(base, "threads", t->nworkers, "", &pctx) ||
	    /* a descriptor each: no shared position */
	    (t->nworkers > 1 && spec_set_flag(base, "local-fd", &pctx)) ||
	    options_parse(a->npass, (char **)a->pass, base, run, &pctx))
		return -EINVAL;
	return spec_set_target(base, target) ? -EINVAL : 0;
}

/* The workers: a refusal when a timed replay has no times to keep, or
 * when the log has more threads than there may be workers; then the
 * operations arranged per worker and paced.  0, or -errno after saying
 * why. */
static int arrange(const struct replay_args *a, struct stream_trace *t)
{
	int ret;

	if (a->mode == MODE_TIMED && !t->has_times && t->n > 1) {
		fprintf(stderr, "rebench: %s (%s): its %zu operations all have the same recorded time, so a timed replay has no times to keep (a fio version 2 iolog has times only through its 'wait' lines); use --replay-mode asap or grouped\n",
			a->log, t->format, t->n);
		return -EINVAL;
	}
	ret = stream_trace_arrange(t, a->mode == MODE_GROUPED);
	if (ret == -E2BIG) {
		fprintf(stderr, "rebench: %s has %" PRIu32 " recorded threads, but in %s mode a replay runs one worker per thread, at most %d; use --replay-mode grouped, which replays every thread's operations with one worker\n",
			a->log, t->nthreads, mode_names[a->mode],
			TRACE_MAX_WORKERS);
		return ret;
	}
	if (ret == -EDQUOT) {
		char err[PATH_MAX + 512];

		memory_refuse_log(err, sizeof(err), a->log,
				  t->n ? t->ops[t->n - 1].line : 0,
				  "its operations and the copy a replay arranges per worker");
		fprintf(stderr, "rebench: %s; nothing was replayed\n", err);
		return ret;
	}
	if (ret) {
		fprintf(stderr, "rebench: out of memory arranging the operations of %s\n",
			a->log);
		return ret;
	}
	if (a->mode == MODE_TIMED)
		stream_trace_pace(t, a->speed);
	return 0;
}

static int report_run(const struct run_opts *run, struct run_ctx *ctx,
		      bool interrupted, const struct replay_result *rr)
{
	struct report_scope scope = { run, stdout, NULL, NULL };
	struct report_set out;
	struct report rep;
	int ret, e;

	run_ctx_report(ctx, interrupted, 0, &rep);
	rep.n = 1;	/* a directory's other files only were prepared */
	rep.extra = &replay_report_extra;
	rep.extra_arg = rr;
	ret = report_open(&out, &scope);
	if (ret)
		return ret;
	ret = report_emit(&out, &rep);
	e = report_close(&out);
	return ret ? ret : e;
}

/* Confirmed, prepared, run, reported: the exit status.  ctx->wls[0] is
 * the replay; the others, a directory's files, are prepared only. */
static int replay_run(struct run_ctx *ctx, const struct replay_args *a,
		      struct stream_trace *t, const struct run_opts *run,
		      struct replay_dir *d, const char *log)
{
	struct workload *wl = &ctx->wls[0];
	struct replay_result rr;
	char target[PATH_MAX];
	bool interrupted = false;
	unsigned i;
	size_t k;
	int ret, status;

	ret = confirm_destructive(ctx->wls, ctx->n, run->yes || run->silent);
	if (ret)
		return confirm_exit_status(ret);
	workload_warn_page_cache(wl, run->drop_caches);
	for (k = 0; k < ctx->n; k++) {
		ret = workload_prepare(&ctx->wls[k]);
		if (ret)
			return ret == -EINTR ? EXIT_INTERRUPTED :
					       EXIT_PREP_FAILED;
	}
	for (i = 0; i < wl->spec.threads; i++)
		stream_trace_init(&wl->run.workers[i].stream, t, i,
				  a->mode == MODE_TIMED);
	if (d && replay_dir_attach(d, ctx))
		return EXIT_PREP_FAILED;
	if (run->drop_caches && drop_caches())
		return EXIT_PREP_FAILED;
	ret = run_workloads(ctx->wls, 1, 0, NULL, &interrupted);
	if (d)
		replay_dir_detach(d, wl);
	if (ret && ret != -EIO)
		return EXIT_PREP_FAILED;
	status = ret ? EXIT_IO_FAILED : EXIT_OK;
	replay_forget_passes(wl);
	if (!realpath(a->target, target))
		snprintf(target, sizeof(target), "%s", a->target);
	memset(&rr, 0, sizeof(rr));
	rr.log = log;
	rr.mode = mode_names[a->mode];
	rr.grouped = a->mode == MODE_GROUPED;
	rr.timed = a->mode == MODE_TIMED;
	rr.speed = rr.timed ? a->speed : 1.0;
	rr.target = target;
	replay_collect(&rr, t, wl, d);
	if (rr.timed && !rr.kept_up)
		workload_warn(wl, "the replay could not keep up: %" PRIu64 " operations more than %llu ms late (of %" PRIu64 "; lateness mean %.1f us, max %.1f us): the device or this machine is slower than the one recorded%s; the latencies measured are real, the recorded timing was not kept",
			      rr.late_operations, TRACE_LATE_NS / 1000000ULL,
			      rr.issued, rr.lateness_mean_us,
			      rr.lateness_max_us,
			      a->speed > 1 ? ", or --replay-speed asks too much" : "");
	if (wl->result.error)
		replay_say_failed_line(wl, t, d, log);
	if (report_run(run, ctx, interrupted, &rr))
		return EXIT_OUTPUT_FAILED;
	return interrupted && status == EXIT_OK ? EXIT_INTERRUPTED : status;
}

/* The options that decide how a directory's other files are opened. */
static int open_options(const struct replay_args *a, char **extra)
{
	int i, n = 0;

	for (i = 0; i < a->npass; i++) {
		const char *o = a->pass[i];

		if (!strcmp(o, "-p") || !strcmp(o, "--paged") ||
		    !strcmp(o, "-m") || !strcmp(o, "--do-atime") ||
		    !strncmp(o, "--seed=", 7))
			extra[n++] = a->pass[i];
		else if (!strcmp(o, "--seed") && i + 1 < a->npass) {
			extra[n++] = a->pass[i];
			extra[n++] = a->pass[++i];
		}
	}
	return n;
}

/* The file map and its checks: slots on one target, or a directory's
 * files (d->nfiles set); the operations aligned as asked.  The workload's
 * target and region in *target and *region.  0, or -errno after saying
 * why. */
static int map_files(const struct replay_args *a, struct stream_trace *t,
		     struct replay_dir *d, bool dir, const char **target,
		     uint64_t *region, unsigned *sector)
{
	char err[PATH_MAX + 512];

	if (!dir) {
		if (stream_trace_map_slots(t, err, sizeof(err))) {
			fprintf(stderr, "rebench: %s: %s; nothing was replayed\n",
				a->log, err);
			return -EINVAL;
		}
		*target = a->target;
		*region = t->total;
		return check_target(a, t, sector) ||
		       check_alignment(a, t, *sector ? *sector :
					     a->align ? 4096 : 512) ?
		       -EINVAL : 0;
	}
	/* the files are checked before the sector is probed through one of
	 * them, and again once alignment may have lengthened them */
	if (replay_dir_name(d, a->target, t, a->log) ||
	    replay_dir_check(d, t, a->log) || dir_sector(d, sector) ||
	    check_alignment(a, t, *sector ? *sector : 512))
		return -EINVAL;
	/* widened operations reach further */
	if (stream_trace_extents(t, err, sizeof(err))) {
		fprintf(stderr, "rebench: %s: %s; nothing was replayed\n",
			a->log, err);
		return -EINVAL;
	}
	if (replay_dir_check(d, t, a->log) ||
	    replay_space_check(a->log, d->dir, d->first_new, d->nnew,
			       d->new_bytes))
		return -EINVAL;
	*target = d->paths[d->main];
	*region = t->files[d->main].extent;
	if (!*sector)
		*sector = 512;	/* the directory was probed: no second check */
	return 0;
}

/* The region the question states and the run may write is the map's:
 * [0, total) of the one target, [0, extent) of each file of a directory.
 * The parser resolved it from -e; it is checked here, once, with every
 * operation inside its file's place, so that the question, the
 * preparation and the bound next() applies to each I/O agree.  0, or
 * -EINVAL after saying what disagrees (a bug: nothing is written). */
static int check_regions(const struct run_ctx *ctx,
			 const struct stream_trace *t,
			 const struct replay_dir *d, const char *log)
{
	const struct trace_op *o = stream_trace_unplaced(t);
	uint32_t i, n = d ? d->nfiles : 1;

	for (i = 0; i < n; i++) {
		const struct spec *s = &ctx->wls[d ? d->wl[i] : 0].spec;
		uint64_t want = d ? t->files[i].extent : t->total;

		if (s->region_start || s->region_len != want) {
			fprintf(stderr, "rebench: %s: the replay's region of %s, bytes %" PRIu64 " to %" PRIu64 ", is not its file map's, 0 to %" PRIu64 "; nothing was replayed (a bug in rebench: please report it)\n",
				log, s->target, s->region_start,
				s->region_start + s->region_len, want);
			return -EINVAL;
		}
	}
	if (!o)
		return 0;
	fprintf(stderr, "rebench: %s: line %" PRIu32 ", a %s of %" PRIu32 " bytes at byte %" PRIu64 ", lies outside its file's place in the map; nothing was replayed (a bug in rebench: please report it)\n",
		log, o->line, io_kind_name(o->kind), o->len, o->off);
	return -EINVAL;
}

/* What a replay holds while it runs: too large for a stack. */
struct replay_job {
	struct sweep sw;
	struct stream_trace t;
	struct replay_dir d;
	char log[PATH_MAX];	/* the log's real path, for the report */
};

/* The workloads are valid; what only they tell: a directory needs an
 * engine that changes file per operation, and a new file's sector is
 * known only now (512 bytes where none is known: a file on tmpfs has no
 * device), which the log must fit too.  0, or -EINVAL after saying so. */
static int check_workloads(const struct run_ctx *ctx,
			   const struct replay_args *a, struct stream_trace *t,
			   bool dir, unsigned sector)
{
	const struct workload *wl = &ctx->wls[0];

	if (dir && (wl->run.eng->flags & ENGINE_ONE_FILE)) {
		fprintf(stderr, "rebench: -t %s binds one file's descriptor when it starts (a mapping, or a file registered with the ring), but a replay onto a directory changes file with every operation; use a synchronous engine, or -t naio or paio\n",
			wl->run.eng->name);
		return -EINVAL;
	}
	if (!sector && !a->paged &&
	    stream_trace_align(t, sector = wl->tgt.logical ?
				   wl->tgt.logical : 512, false, NULL)) {
		fprintf(stderr, "rebench: %s: operations are not multiples of %s's %u-byte sector; add --replay-align, or -p\n",
			a->log, a->target, sector);
		return -EINVAL;
	}
	return 0;
}

static int replay(const struct replay_args *a, struct replay_job *job)
{
	struct stream_trace *t = &job->t;
	struct replay_dir *d = &job->d;
	struct run_ctx *ctx = NULL;
	struct run_opts run = { 0 };
	struct spec base;
	char err[PATH_MAX + 512] = "", *extra[8];
	const char *target;
	uint64_t region;
	unsigned sector = 0;
	bool dir;
	int status = EXIT_BAD_ARGS;

	d->dir_fd = -1;
	if (stream_trace_load(t, a->log, err, sizeof(err))) {
		fprintf(stderr, "rebench: %s; nothing was replayed\n", err);
		stream_trace_free(t);
		return EXIT_BAD_ARGS;
	}
	if (!realpath(a->log, job->log))
		snprintf(job->log, sizeof(job->log), "%s", a->log);
	if (!t->count[IO_READ] && !t->count[IO_WRITE]) {
		fprintf(stderr, "rebench: %s has no successful read or write to replay\n",
			a->log);
		goto out_free;
	}
	dir = replay_dir_wanted(a->target);
	if (map_files(a, t, d, dir, &target, &region, &sector) ||
	    arrange(a, t))
		goto out_free;
	if (build_spec(a, t, target, region, &base, &run, &job->sw)) {
		spec_free(&base);
		goto out_free;
	}
	if (job->sw.naxes) {
		fprintf(stderr, "rebench: --replay runs one workload; ranges and lists of values have no meaning with it\n");
		goto out_spec;
	}
	if (!spec_given(&base, "seed"))
		base.seed = random_seed();
	ctx = run_ctx_new();
	if (!ctx || add_workload(ctx, &base) ||
	    (dir && replay_dir_add(d, t, ctx, extra,
				   open_options(a, extra))) ||
	    validate_all(ctx, &base) ||
	    check_regions(ctx, t, dir ? d : NULL, a->log) ||
	    check_workloads(ctx, a, t, dir, sector))
		goto out_clean;
	status = replay_run(ctx, a, t, &run, dir ? d : NULL, job->log);
out_clean:
	run_ctx_free(ctx);
	workload_remove_created(status == EXIT_PREP_FAILED ||
				status == EXIT_IO_FAILED ||
				status == EXIT_INTERRUPTED);
out_spec:
	spec_free(&base);
	sweep_free(&job->sw);
out_free:
	replay_dir_free(d);
	stream_trace_free(t);
	return status;
}

int replay_main(int argc, char **argv)
{
	struct replay_job *job;
	struct replay_args a;
	int status;

	if (parse_args(argc, argv, &a))
		return EXIT_BAD_ARGS;
	job = calloc(1, sizeof(*job));
	if (!job) {
		fprintf(stderr, "rebench: no memory for the replay; nothing was replayed\n");
		return EXIT_PREP_FAILED;
	}
	status = replay(&a, job);
	free(job);
	if (outpath_finish_stdout() && status == EXIT_OK)
		status = EXIT_OUTPUT_FAILED;
	return status;
}
