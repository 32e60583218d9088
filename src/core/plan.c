/* plan.c - the set of workloads of one run: read from the command line or
 * stdin, checked and resolved against their targets before anything runs,
 * and cleaned up after.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engines/engine.h"
#include "core/fileset.h"
#include "core/infile.h"
#include "core/memory.h"
#include "core/memory_check.h"
#include "core/options.h"
#include "core/outpath.h"
#include "core/plan.h"
#include "target/memcg.h"
#include "core/precondition.h"
#include "target/readahead.h"
#include "core/runinfo.h"
#include "core/validate.h"

#define MAX_WORDS 128

/* Room for one more workload: the array doubles, never past
 * MAX_WORKLOADS.  Only before validate_all(), while nothing points into
 * it yet. */
static int grow_workloads(struct run_ctx *ctx)
{
	size_t cap = ctx->cap ? 2 * ctx->cap : 4;
	struct workload *wls;

	if (ctx->n < ctx->cap)
		return 0;
	if (cap > MAX_WORKLOADS)
		cap = MAX_WORKLOADS;
	wls = realloc(ctx->wls, cap * sizeof(*wls));
	if (!wls) {
		fprintf(stderr, "rebench: no memory for %zu workloads (%zu bytes)\n",
			cap, cap * sizeof(*wls));
		return -ENOMEM;
	}
	ctx->wls = wls;
	ctx->cap = cap;
	return 0;
}

int add_workload(struct run_ctx *ctx, const struct spec *s)
{
	struct workload *wl;

	if (ctx->n == MAX_WORKLOADS) {
		fprintf(stderr, "rebench: stdin line %u: too many workloads (at most %d)\n",
			s->line, MAX_WORKLOADS);
		return -E2BIG;
	}
	if (grow_workloads(ctx))
		return -ENOMEM;
	wl = &ctx->wls[ctx->n];
	memset(wl, 0, sizeof(*wl));
	if (spec_copy(&wl->spec, s) || workload_result_alloc(wl)) {
		spec_free(&wl->spec);
		return -ENOMEM;
	}
	wl->index = (unsigned)ctx->n++;
	wl->run.shared_fd = -1;
	return 0;
}

static const struct infile_limit stdin_limit = INFILE_WORKLOAD_LINES;

bool stdin_holds_data(const char **what)
{
	struct stat st;
	off_t pos;
	int n = 0;

	if (fstat(STDIN_FILENO, &st))
		return false;	/* closed */
	if (S_ISREG(st.st_mode)) {
		pos = lseek(STDIN_FILENO, 0, SEEK_CUR);
		*what = "a file";
		return pos >= 0 && st.st_size > pos;
	}
	if (!S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode))
		return false;
	*what = S_ISSOCK(st.st_mode) ? "a socket" : "a pipe or FIFO";
	return !ioctl(STDIN_FILENO, FIONREAD, &n) && n > 0;
}

int read_stdin_specs(struct run_ctx *ctx, const struct spec *base)
{
	struct parse_ctx pctx = { 0, "stdin" };
	char *line = NULL, *words[MAX_WORDS];
	size_t cap = 0;
	ssize_t len;
	unsigned lineno = 0;
	char why[256];
	int n, ret = 0;
	FILE *in = infile_fdopen(STDIN_FILENO, &stdin_limit, why, sizeof(why));

	if (!in) {
		fprintf(stderr, "rebench: cannot read workload lines on stdin: %s\n",
			why);
		return -EINVAL;
	}
	while ((len = getline(&line, &cap, in)) >= 0 && !ferror(in)) {
		struct spec s;
		char *nul;

		lineno++;
		/* kept as read, for --json's run.stdin */
		if (runinfo_stdin_line(line, (size_t)len -
				       (len && line[len - 1] == '\n'))) {
			ret = -ENOMEM;
			break;
		}
		nul = memchr(line, '\0', (size_t)len);
		if (nul) {
			fprintf(stderr, "rebench: stdin line %u: a NUL byte at column %zu; workload lines are text (is this a binary file?)\n",
				lineno, (size_t)(nul - line) + 1);
			ret = -EINVAL;
			break;
		}
		n = options_split_line(line, words, MAX_WORDS);
		if (n == -E2BIG) {
			fprintf(stderr, "rebench: stdin line %u: too many words (at most %d options and values on one line); split the workload or use fewer options\n",
				lineno, MAX_WORDS);
			ret = -EINVAL;
			break;
		}
		if (n < 0) {
			fprintf(stderr, "rebench: stdin line %u: unterminated quote; close it with the same quote character\n",
				lineno);
			ret = -EINVAL;
			break;
		}
		if (n == 0)
			continue;
		if (spec_copy(&s, base)) {
			ret = -ENOMEM;
			break;
		}
		s.line = pctx.line = lineno;
		s.inherited = base->given;
		s.given = 0;	/* what the line itself says, see spec.h */
		ret = options_parse(n, words, &s, NULL, &pctx);
		if (!ret)
			ret = add_workload(ctx, &s);
		spec_free(&s);
		if (ret)
			break;
	}
	if (!ret && ferror(in)) {
		fprintf(stderr, "rebench: cannot read workload lines on stdin%s%.0u: %s\n",
			lineno ? " after line " : "", lineno, infile_strerror(errno, &stdin_limit, why,
						sizeof(why)));
		ret = -EINVAL;
	}
	fclose(in);
	free(line);
	if (!ret && !ctx->n) {
		fprintf(stderr, "rebench: missing target: no workload lines on stdin; give a TARGET (rebench /dev/sdb) or lines such as '-b 4k /dev/sdb'\n");
		ret = -EINVAL;
	}
	return ret;
}

uint64_t random_seed(void)
{
	uint64_t seed;

	if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = (uint64_t)getpid() * 0x9e3779b97f4a7c15ULL;
	return seed % 1000000000000ULL;	/* short enough to retype */
}

int check_path_free(const struct run_ctx *ctx, const char *what,
		    const char *path)
{
	size_t k;

	for (k = 0; k < ctx->n; k++)
		if (ctx->wls[k].files ? fileset_has(&ctx->wls[k], path) :
		    outpath_same_file(path, ctx->wls[k].spec.target)) {
			spec_error(&ctx->wls[k].spec, "%s %s is the target of this workload: writing the results there would destroy what is measured; choose another file",
				   what, path);
			return -EINVAL;
		}
	return 0;
}

int check_output_path(const struct run_ctx *ctx, const struct spec *s)
{
	char err[PATH_MAX + 1200];

	if (outpath_check("--output", s->output, err, sizeof(err))) {
		spec_error(s, "%s", err);
		return -EINVAL;
	}
	return check_path_free(ctx, "--output", s->output);
}

/* Workloads writing one --output file must agree on its format. */
static int check_outputs(const struct run_ctx *ctx)
{
	size_t a, b;

	for (a = 0; a < ctx->n; a++)
		if ((ctx->wls[a].spec.output &&
		     check_output_path(ctx, &ctx->wls[a].spec)) ||
		    (ctx->wls[a].spec.verify_log && !ctx->wls[a].spec.verify_only &&
		     check_path_free(ctx, "--verify-log", ctx->wls[a].spec.verify_log)))
			return -EINVAL;
	for (a = 0; a < ctx->n; a++)
		for (b = a + 1; b < ctx->n; b++) {
			const struct spec *x = &ctx->wls[a].spec;
			const struct spec *y = &ctx->wls[b].spec;

			if (verify_log_check_pair(x, y))
				return -EINVAL;
			if (x->output && y->output && !strcmp(x->output, y->output) &&
			    (x->sample_ns == 0) != (y->sample_ns == 0)) {
				spec_error(y, "--output %s: another workload writes a %s to this file; -g 0 (every I/O) and -g N (time series) need separate files",
					   y->output, x->sample_ns ? "time series" : "per-I/O log");
				return -EINVAL;
			}
		}
	return 0;
}

int drop_caches(void)
{
	int fd;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "3", 1) != 1) {
		int e = errno;

		fprintf(stderr, "rebench: --drop-caches: cannot write /proc/sys/vm/drop_caches: %s (needs root)\n",
			strerror(e));
		if (fd >= 0)
			close(fd);
		return -e;
	}
	close(fd);
	return 0;
}

/* Several lines may name one file that does not exist yet: the first
 * creates it, large enough for all of them, and the others use it. */
static void share_new_files(struct run_ctx *ctx)
{
	size_t a, b;

	for (b = 0; b < ctx->n; b++) {
		struct workload *wb = &ctx->wls[b];

		if (wb->tgt.exists || wb->files)	/* files: their own */
			continue;
		for (a = 0; a < b; a++) {
			struct workload *wa = &ctx->wls[a];

			if (wa->tgt.exists || wa->run.creator || wa->files ||
			    strcmp(wa->spec.target, wb->spec.target))
				continue;
			if (wb->run.create_size > wa->run.create_size)
				wa->run.create_size = wb->run.create_size;
			wb->run.creator = wa;
			wb->run.needs_layout = false;
			break;
		}
	}
}

/* Parse, check and resolve every workload; no I/O. */
/* A trim of a file punches holes; reads of the same file beside it then
 * read zeros the filesystem makes up without touching the device. */
static void warn_reads_of_holes(struct run_ctx *ctx)
{
	size_t r, t;

	for (r = 0; r < ctx->n; r++) {
		const struct spec *s = &ctx->wls[r].spec;

		if (ctx->wls[r].tgt.kind != TARGET_FILE || !SPEC_DOES(s, IO_READ))
			continue;
		for (t = 0; t < ctx->n; t++) {
			if (!SPEC_DOES(&ctx->wls[t].spec, IO_TRIM) ||
			    strcmp(ctx->wls[t].tgt.path, ctx->wls[r].tgt.path))
				continue;
			workload_warn(&ctx->wls[r], "line %u trims %s at the same time: it punches holes, and reads of holes return zeros without touching the device, so these reads get faster as the trims go on",
				      ctx->wls[t].spec.line, ctx->wls[r].tgt.path);
			break;
		}
	}
}

/* Two written devices where one is a partition of the other: each
 * written device is claimed with O_EXCL, and the kernel refuses the
 * second claim, so say which lines collide before anything runs. */
static int check_overlaps(const struct run_ctx *ctx)
{
	size_t a, b;

	for (a = 0; a < ctx->n; a++)
		for (b = a + 1; b < ctx->n; b++) {
			const struct workload *x = &ctx->wls[a], *y = &ctx->wls[b];
			const struct workload *disk, *part;

			if (!spec_is_destructive(&x->spec) ||
			    !spec_is_destructive(&y->spec) ||
			    x->tgt.kind == TARGET_FILE || y->tgt.kind == TARGET_FILE ||
			    x->tgt.rdev == y->tgt.rdev)
				continue;
			disk = x->tgt.kind == TARGET_DISK ? x : y;
			part = disk == x ? y : x;
			if (disk->tgt.kind != TARGET_DISK ||
			    part->tgt.kind != TARGET_PARTITION ||
			    strcmp(part->tgt.disk, disk->tgt.name))
				continue;
			spec_error(&y->spec, "line %u and line %u of this run overlap: both write, and %s is a partition of %s. rebench claims every device it writes exclusively, and the kernel refuses a partition's claim while its whole disk is claimed; write the partition's range of %s instead (-j %llu with -e), or run the two lines one after the other",
				   x->spec.line, y->spec.line, part->tgt.path,
				   disk->tgt.path, disk->tgt.path,
				   (unsigned long long)part->tgt.part_start);
			return -EINVAL;
		}
	return 0;
}

int validate_all(struct run_ctx *ctx, const struct spec *base)
{
	char err[1024];
	size_t k;

	for (k = 0; k < ctx->n; k++) {
		struct workload *wl = &ctx->wls[k];

		/* A seed on the command line is the base: line k gets base + k,
		 * so concurrent workloads do not share offsets; a seed given on a
		 * line is used as it is. */
		if (!spec_given(&wl->spec, "seed"))
			wl->spec.seed = base->seed + k;
		spec_adapt_defaults(&wl->spec);
		if (spec_check(&wl->spec) || fileset_check_spec(&wl->spec))
			return -EINVAL;
	}
	for (k = 0; k < ctx->n; k++) {
		struct workload *wl = &ctx->wls[k];

		if (fileset_wanted(&wl->spec)) {
			/* many files: each probed, the first stands for all */
			if (fileset_resolve(wl))
				return -EINVAL;
		} else if (target_probe(wl->spec.target, &wl->tgt, err,
					sizeof(err))) {
			spec_error(&wl->spec, "%s", err);
			return -EINVAL;
		} else if (spec_resolve(&wl->spec, &wl->tgt) ||
			   spec_resolve_dist(&wl->spec, &wl->run.dist)) {
			return -EINVAL;
		}
		wl->run.eng = engine_get(wl->spec.engine);
		workload_plan(wl);
	}
	share_new_files(ctx);
	warn_reads_of_holes(ctx);
	if (check_overlaps(ctx) || readahead_check(ctx->wls, ctx->n) ||
	    memcg_check(ctx->wls, ctx->n))
		return -EINVAL;
	if (memory_check(ctx->wls, ctx->n))
		return -E2BIG;
	return check_outputs(ctx);
}

/* Several workloads ran together: their total (fio's group reporting).
 * Without memory for it the run simply has none. */
static void merge_total(struct run_ctx *ctx)
{
	const struct result *parts[MAX_WORKLOADS];
	size_t k, n = 0;

	for (k = 0; k < ctx->n; k++)
		if (ctx->wls[k].result.have_result)
			parts[n++] = ctx->wls[k].result.stats;
	if (ctx->n < 2 || !n)
		return;
	ctx->have_total = !result_merge(ctx->total, parts, n);
}

int prepare_and_run(struct run_ctx *ctx, const struct run_opts *run,
		    bool *interrupted)
{
	size_t k;
	int ret;

	*interrupted = false;
	/* before the layout's I/O too: a refusal does nothing */
	if (readahead_apply(ctx->wls, ctx->n))
		return EXIT_PREP_FAILED;
	/* --cache: into the run's memory cgroup before anything is
	 * allocated or read, so all of it is charged there */
	if (memcg_enter(ctx->wls, ctx->n))
		return EXIT_PREP_FAILED;
	for (k = 0; k < ctx->n; k++) {
		workload_warn_page_cache(&ctx->wls[k], run->drop_caches);
		ret = workload_prepare(&ctx->wls[k]);
		if (ret)
			return ret == -EINTR ? EXIT_INTERRUPTED : EXIT_PREP_FAILED;
	}
	ret = precondition_run(&ctx->precond, ctx->wls, ctx->n, run);
	if (ret)
		return ret == -EINTR ? EXIT_INTERRUPTED : EXIT_PREP_FAILED;
	if (run->drop_caches && drop_caches())
		return EXIT_PREP_FAILED;
	if (memcg_drop_target_pages(ctx->wls, ctx->n))
		return EXIT_PREP_FAILED;
	for (k = 0; k < ctx->n; k++) {
		ctx->wls[k].precision_pct = run->precision_pct;
		ctx->wls[k].result.ci_upto = 0;
	}
	ret = run_workloads(ctx->wls, ctx->n, run->warmup_ns, &ctx->env,
			    interrupted);
	if (ret && ret != -EIO)
		return EXIT_PREP_FAILED;	/* threads could not start */
	for (k = 0; k < ctx->n; k++)
		fileset_collect(&ctx->wls[k]);	/* many files: each one's */
	merge_total(ctx);
	return ret ? EXIT_IO_FAILED : EXIT_OK;
}

void cleanup_all(struct run_ctx *ctx)
{
	size_t k;

	for (k = 0; k < ctx->n; k++)
		workload_cleanup(&ctx->wls[k]);
	ctx->n = 0;
	if (ctx->have_total)
		result_free(ctx->total);
	ctx->have_total = false;
	ctx->total_rep = NULL;
	workload_release_claims();
	readahead_restore();
	memcg_leave();
}

struct run_ctx *run_ctx_new(void)
{
	struct run_ctx *ctx = calloc(1, sizeof(*ctx));

	if (ctx && !(ctx->total = calloc(1, sizeof(*ctx->total)))) {
		free(ctx);
		ctx = NULL;
	}
	if (!ctx)
		fprintf(stderr, "rebench: no memory for a run (%zu bytes)\n",
			sizeof(*ctx) + sizeof(*ctx->total));
	return ctx;
}

void run_ctx_free(struct run_ctx *ctx)
{
	if (!ctx)
		return;
	cleanup_all(ctx);
	run_unwatch(&ctx->env.watch);
	free(ctx->wls);
	free(ctx->total);
	free(ctx);
}
