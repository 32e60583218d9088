/* replay.c - see replay.h.
 *
 * The replay is a workload built from the log: -o a mix of the kinds the
 * log has (its shares, for the parameters shown), -w seq, -b the largest
 * transfer, -e the file map's length (a new file is created that long),
 * -d the log's bytes; after preparation its one worker's synthetic stream
 * is replaced by the log's.  Recorded threads are collapsed: one worker
 * replays every operation in recorded order (asap) or grouped by type.
 *
 * Exit statuses are those of a run (plan.h): 1 bad arguments, a bad log,
 * a target too small, misaligned O_DIRECT operations, a refused
 * confirmation; 2 preparation failed (target in use, read-only); 3 I/O
 * failed; 5 output; 130 interrupted.
 */
#include "replay.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confirm.h"
#include "options.h"
#include "outpath.h"
#include "plan.h"
#include "report.h"
#include "stream_trace.h"
#include "sweep.h"
#include "target.h"
#include "workload.h"

#define MAX_PASS 16

enum replay_mode { MODE_ASAP, MODE_GROUPED };

struct replay_args {
	const char *log;
	const char *target;
	enum replay_mode mode;
	bool align;
	bool paged;
	char *pass[MAX_PASS];	/* options handed to the ordinary parser */
	int npass;
};

static const char usage[] =
	"usage: rebench --replay LOG [--replay-mode asap|grouped] [--replay-align] [-p] [-t ENGINE] [--drop-caches] [-y] [-n | --json] TARGET\n";

/* Options of a run that keep their meaning in a replay; the rest (-o, -b,
 * -d, -e, -c, -q, ...) are decided by the log. */
static const struct {
	const char *s, *l;
	bool value;
} passed[] = {
	{ "-p", "--paged", false },
	{ "-m", "--do-atime", false },
	{ "-t", "--type", true },
	{ "-y", "--yes", false },
	{ "-n", "--silent", false },
	{ NULL, "--json", false },
	{ NULL, "--drop-caches", false },
	{ NULL, "--seed", true },
	{ NULL, "--delay", true },
};

bool replay_wanted(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return false;
		if (!strcmp(argv[i], "--replay") ||
		    !strncmp(argv[i], "--replay=", 9))
			return true;
	}
	return false;
}

/* "--name V" or "--name=V" at argv[*i]: 1 with *v set, 0 when it is not
 * this option, -1 when its value is missing. */
static int take(int argc, char **argv, int *i, const char *name,
		const char **v)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n))
		return 0;
	if (argv[*i][n] == '=') {
		*v = argv[*i] + n + 1;
		return 1;
	}
	if (argv[*i][n])
		return 0;
	if (*i + 1 >= argc)
		return -1;
	*v = argv[++*i];
	return 1;
}

static int pass_option(struct replay_args *a, int argc, char **argv, int *i)
{
	const char *w = argv[*i];
	size_t k, n;

	for (k = 0; k < sizeof(passed) / sizeof(passed[0]); k++) {
		n = strlen(passed[k].l);
		if ((passed[k].s && !strcmp(w, passed[k].s)) ||
		    !strcmp(w, passed[k].l) ||
		    (passed[k].value && !strncmp(w, passed[k].l, n) &&
		     w[n] == '=')) {
			if (a->npass + 2 > MAX_PASS)
				return -E2BIG;
			if (!strcmp(passed[k].l, "--paged"))
				a->paged = true;
			a->pass[a->npass++] = argv[*i];
			if (passed[k].value && !strchr(w, '=')) {
				if (*i + 1 >= argc)
					return -EINVAL;
				a->pass[a->npass++] = argv[++*i];
			}
			return 0;
		}
	}
	return -ENOENT;
}

static int parse_args(int argc, char **argv, struct replay_args *a)
{
	const char *v;
	int i, r;

	memset(a, 0, sizeof(*a));
	for (i = 1; i < argc; i++) {
		if ((r = take(argc, argv, &i, "--replay-mode", &v))) {
			if (r < 0 || (strcmp(v, "asap") && strcmp(v, "grouped"))) {
				fprintf(stderr, "rebench: --replay-mode: give asap (recorded order, as fast as possible) or grouped (all operations of one type together); timed is not implemented yet\n");
				return -EINVAL;
			}
			a->mode = strcmp(v, "asap") ? MODE_GROUPED : MODE_ASAP;
		} else if ((r = take(argc, argv, &i, "--replay", &v))) {
			if (r < 0) {
				fprintf(stderr, "rebench: --replay needs a LOG (of rebench --record)\n%s", usage);
				return -EINVAL;
			}
			a->log = v;
		} else if (!strcmp(argv[i], "--replay-align")) {
			a->align = true;
		} else if (argv[i][0] != '-' || !argv[i][1]) {
			if (a->target) {
				fprintf(stderr, "rebench: --replay takes one TARGET; %s and %s are two\n",
					a->target, argv[i]);
				return -EINVAL;
			}
			a->target = argv[i];
		} else if ((r = pass_option(a, argc, argv, &i))) {
			if (r == -ENOENT)
				fprintf(stderr, "rebench: %s has no meaning with --replay: the log decides operations, offsets, sizes and threads\n%s",
					argv[i], usage);
			else
				fprintf(stderr, "rebench: %s: a value is missing, or too many options\n%s",
					argv[i], usage);
			return -EINVAL;
		}
	}
	if (!a->log || !a->target) {
		fprintf(stderr, "rebench: --replay needs a LOG and a TARGET (a file, created if new, or a block device)\n%s",
			usage);
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

/* A target that exists must hold the whole map: 0, or -ENOSPC after
 * saying so; *logical its sector (0 when it is new). */
static int check_target(const struct replay_args *a,
			const struct stream_trace *t, unsigned *logical)
{
	static struct target tg;
	char err[PATH_MAX + 256];

	*logical = 0;
	if (access(a->target, F_OK))
		return 0;	/* a new file, created as long as the map */
	if (target_probe(a->target, &tg, err, sizeof(err))) {
		fprintf(stderr, "rebench: %s\n", err);
		return -EINVAL;
	}
	*logical = tg.logical;
	if (tg.size >= t->total)
		return 0;
	fprintf(stderr, "rebench: %s has %" PRIu64 " bytes, but the replay's file map needs %" PRIu64 " (%u recorded files, each in a 1 MiB-aligned slot as long as its recorded extent); give a larger target, or a new file, which rebench creates that long\n",
		a->target, tg.size, t->total, t->nfiles);
	return -ENOSPC;
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

/* The ordinary parser's arguments for the replay's workload. */
static int build_spec(const struct replay_args *a, const struct stream_trace *t,
		      struct spec *base, struct run_opts *run,
		      struct sweep *sw)
{
	struct parse_ctx pctx = { 0, "command line", sw, &sweep_range_hooks };
	char mix[128], bs[32], len[32], dur[32];
	char *v[MAX_PASS + 16];
	uint64_t data = 0;
	uint64_t b = (t->maxlen + 4095) / 4096 * 4096;
	int n = 0, i;

	for (i = 0; i < (int)t->n; i++)
		data += t->ops[i].len;	/* as replayed: aligned when asked */
	build_mix(t, mix, sizeof(mix));
	snprintf(bs, sizeof(bs), "%" PRIu64, b);
	snprintf(len, sizeof(len), "%" PRIu64, t->total);
	snprintf(dur, sizeof(dur), "%" PRIu64 "b", data);
	v[n++] = "-o";
	v[n++] = mix;
	v[n++] = "-w";
	v[n++] = "seq";
	v[n++] = "-b";
	v[n++] = bs;
	v[n++] = "-e";
	v[n++] = len;
	v[n++] = "-d";
	v[n++] = dur;
	v[n++] = "-f";	/* no O_DSYNC: the log's own flushes flush */
	for (i = 0; i < a->npass; i++)
		v[n++] = a->pass[i];
	v[n++] = (char *)a->target;
	spec_defaults(base);
	return options_parse(n, v, base, run, &pctx) ? -EINVAL : 0;
}

/* What the replay did, as notes every writer shows with the warnings. */
static void add_notes(struct workload *wl, const struct replay_args *a,
		      const struct stream_trace *t)
{
	int k;

	workload_warn(wl, "replay of %s (%s): %zu operations of %u files, mapped one after another onto %s (1 MiB-aligned slots, %" PRIu64 " bytes); %u recorded threads replayed by one worker %s",
		      a->log, a->mode == MODE_ASAP ? "asap" : "grouped", t->n,
		      t->nfiles, a->target, t->total, t->nthreads,
		      a->mode == MODE_ASAP ? "in recorded order" :
					     "grouped by operation type");
	if (t->skipped_failed || t->skipped_empty)
		workload_warn(wl, "replay: skipped %" PRIu64 " failed calls and %" PRIu64 " reads or writes that moved no bytes",
			      t->skipped_failed, t->skipped_empty);
	if (a->align)
		workload_warn(wl, "replay: --replay-align changed %" PRIu64 " of %zu operations to whole sectors",
			      t->aligned, t->n);
	if (a->mode != MODE_GROUPED)
		return;
	for (k = 0; k < IO_KINDS; k++) {
		uint64_t ns;

		if (!t->count[k])
			continue;
		ns = t->group_t1[k] - t->group_t0[k];
		workload_warn(wl, "replay group %s: %" PRIu64 " operations in %" PRIu64 " ns: %.0f ns per operation",
			      io_kind_name(k), t->count[k], ns,
			      (double)ns / (double)t->count[k]);
	}
}

static int report_run(const struct run_opts *run, struct run_ctx *ctx,
		      bool interrupted)
{
	struct report_scope scope = { run, stdout, NULL, NULL };
	struct report_set out;
	struct report rep;
	int ret, e;

	run_ctx_report(ctx, interrupted, 0, &rep);
	ret = report_open(&out, &scope);
	if (ret)
		return ret;
	ret = report_emit(&out, &rep);
	e = report_close(&out);
	return ret ? ret : e;
}

/* Confirmed, prepared, run, reported: the exit status. */
static int replay_run(struct run_ctx *ctx, const struct replay_args *a,
		      struct stream_trace *t, const struct run_opts *run)
{
	struct workload *wl = &ctx->wls[0];
	bool interrupted = false;
	unsigned i;
	int ret, status;

	ret = confirm_destructive(ctx->wls, 1, run->yes || run->silent);
	if (ret)
		return confirm_exit_status(ret);
	workload_warn_page_cache(wl, run->drop_caches);
	ret = workload_prepare(wl);
	if (ret)
		return ret == -EINTR ? EXIT_INTERRUPTED : EXIT_PREP_FAILED;
	if (run->drop_caches && drop_caches())
		return EXIT_PREP_FAILED;
	for (i = 0; i < wl->spec.threads; i++)
		stream_trace_init(&wl->workers[i].stream, t);
	ret = run_workloads(ctx->wls, 1, 0, &interrupted);
	if (ret && ret != -EIO)
		return EXIT_PREP_FAILED;
	status = ret ? EXIT_IO_FAILED : EXIT_OK;
	add_notes(wl, a, t);
	if (report_run(run, ctx, interrupted))
		return EXIT_OUTPUT_FAILED;
	return interrupted && status == EXIT_OK ? EXIT_INTERRUPTED : status;
}

int replay_main(int argc, char **argv)
{
	static struct run_ctx ctx;
	static struct sweep sw;
	static struct stream_trace t;
	struct replay_args a;
	struct run_opts run = { 0 };
	struct spec base;
	char err[PATH_MAX + 512] = "";
	unsigned sector;
	int status = EXIT_BAD_ARGS;

	if (parse_args(argc, argv, &a))
		return EXIT_BAD_ARGS;
	if (stream_trace_load(&t, a.log, err, sizeof(err))) {
		fprintf(stderr, "rebench: %s; nothing was replayed\n", err);
		stream_trace_free(&t);
		return EXIT_BAD_ARGS;
	}
	if (!t.count[IO_READ] && !t.count[IO_WRITE]) {
		fprintf(stderr, "rebench: %s has no successful read or write to replay\n",
			a.log);
		goto out_free;
	}
	if (check_target(&a, &t, &sector) ||
	    check_alignment(&a, &t, sector ? sector : a.align ? 4096 : 512))
		goto out_free;
	if (a.mode == MODE_GROUPED && stream_trace_group(&t)) {
		fprintf(stderr, "rebench: out of memory grouping %s\n", a.log);
		goto out_free;
	}
	if (build_spec(&a, &t, &base, &run, &sw)) {
		spec_free(&base);
		goto out_free;
	}
	if (sw.naxes) {
		fprintf(stderr, "rebench: --replay runs one workload; ranges and lists of values have no meaning with it\n");
		goto out_spec;
	}
	if (!spec_given(&base, "seed"))
		base.seed = random_seed();
	if (add_workload(&ctx, &base) || validate_all(&ctx, &base))
		goto out_clean;
	/* a new file's sector is known only now: the log must fit it too */
	if (!sector && !a.paged &&
	    stream_trace_align(&t, ctx.wls[0].tgt.logical, false, NULL)) {
		fprintf(stderr, "rebench: %s: operations are not multiples of %s's %u-byte sector; add --replay-align, or -p\n",
			a.log, a.target, ctx.wls[0].tgt.logical);
		goto out_clean;
	}
	status = replay_run(&ctx, &a, &t, &run);
out_clean:
	cleanup_all(&ctx);
	workload_remove_created(status == EXIT_PREP_FAILED ||
				status == EXIT_IO_FAILED ||
				status == EXIT_INTERRUPTED);
out_spec:
	spec_free(&base);
	sweep_free(&sw);
out_free:
	stream_trace_free(&t);
	if (outpath_finish_stdout() && status == EXIT_OK)
		status = EXIT_OUTPUT_FAILED;
	return status;
}
