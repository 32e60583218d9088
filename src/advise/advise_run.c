/* advise_run.c - rebench --advise btree: every check before any I/O, then
 * the block-size sweep on TARGET (or the table of --from), the model
 * (advise_btree.h) and the outputs (advise_out.c).
 *
 * The sweep is rebench's own (sweep_run.c), run with the workload as
 * given and -b 1k..64k*2 unless -b is a range or list; its table is read
 * back exactly as --from reads one, so measured and given IOPS take the
 * same path.  --output FILE gets the advisor's table and FILE.sweep the
 * sweep's, for a later --from; without --output the sweep's table is a
 * temporary file.
 */
#include "advise/advise.h"
#include "advise/advise_result.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/options.h"
#include "core/outpath.h"
#include "stats/precision.h"
#include "study/sweep_run.h"
#include "target/target.h"
#include "core/units.h"

static const char *const model_opts[] = {
	"rows", "key-size", "fill", "value-size", "from", NULL
};

int advise_check_unused(const struct run_opts *run)
{
	const char *const *o;

	if (run->advise)
		return 0;
	for (o = model_opts; *o; o++)
		if (run_given(run, *o)) {
			fprintf(stderr, "rebench: --%s describes the tree of --advise btree; add --advise btree (with --rows and --key-size), or drop --%s\n",
				*o, *o);
			return -EINVAL;
		}
	return 0;
}

static int refuse(const char *fmt, const char *a)
{
	fprintf(stderr, "rebench: --advise btree: ");
	fprintf(stderr, fmt, a);
	fputc('\n', stderr);
	return EXIT_BAD_ARGS;
}

/* Run options that mean nothing to an advisor. */
static int check_run_options(const struct run_opts *run)
{
	static const char *const never[] = {
		"suite", "steady-state", "precondition", "round",
		"max-rounds", "plot-metric", "probe", "fio", "engines", NULL
	};
	const char *const *o;

	for (o = never; *o; o++)
		if (run_given(run, *o))
			return refuse("--%s does not combine with it: the advisor runs its own block-size sweep and draws its own plot; run the two apart", *o);
	if (!run_given(run, "rows") || !run_given(run, "key-size"))
		return refuse("needs --rows N, the rows (records) the tree holds, and --key-size BYTES, one entry of a node (key and child pointer): rebench --advise btree --rows 1000000000 --key-size 32 %s",
			      "TARGET");
	return EXIT_OK;
}

/* The inserts per operation of the workload's -o and --rwmix: reads are
 * point queries, writes inserts; -1 after a message for anything else. */
static double write_fraction(const struct spec *s)
{
	double w;

	switch (s->op) {
	case OP_READ:
		return 0;
	case OP_RW:
		return 1 - s->rwmix / 100;
	case OP_MIX:
		w = s->opmix.pct[IO_WRITE] / 100;
		if (s->opmix.pct[IO_READ] + s->opmix.pct[IO_WRITE] > 99.999)
			return w;
		break;
	default:
		break;
	}
	refuse("it models point queries (reads) and inserts (-o rw --rwmix PCT: PCT%% of the operations are queries): %s; give -o read (the default), or -o rw with --rwmix",
	       s->op == OP_WRITE ? "a write-only workload has no queries" :
	       s->op == OP_TRIM ? "trims are neither" :
	       "this mix has operations other than reads and writes");
	return -1;
}

static int model_of(struct advise_result *r, struct spec *base,
		    const struct run_opts *run)
{
	const struct opt_desc *cache = options_find_long("cache");

	memset(r, 0, sizeof(*r));
	/* the model counts in doubles: exact up to 2^53 */
	if (run->rows > BTREE_MAX_ROWS) {
		char n[32];

		snprintf(n, sizeof(n), "%llu", (unsigned long long)run->rows);
		return refuse("--rows %s: more than the model counts exactly (2^53 = 9007199254740992 rows); give the table's row count",
			      n);
	}
	r->model.rows = (double)run->rows;
	r->model.key_size = run->key_size;
	r->model.fill = run_given(run, "fill") ? run->fill_pct / 100 : 1;
	r->model.value_size = run->value_size;
	/* --cache is the database's cache here, not a limit on the run */
	if (spec_given(base, "cache")) {
		r->model.cache = base->cache_bytes;
		base->cache_bytes = 0;
		base->given &= ~(1ULL << options_index(cache));
	}
	if (spec_given(base, "rwmix") && !spec_given(base, "operation") &&
	    options_set(base, options_find_long("operation"), "rw", NULL))
		return EXIT_BAD_ARGS;
	r->model.write_frac = write_fraction(base);
	return r->model.write_frac < 0 ? EXIT_BAD_ARGS : EXIT_OK;
}

static int check_model(const struct advise_result *r, uint64_t smallest,
		       uint64_t largest)
{
	char err[512];

	if (btree_model_check(&r->model, smallest, largest, err, sizeof(err)))
		return refuse("%s", err);
	return EXIT_OK;
}

/* --from: only the model's own workload options (-o, --rwmix, --cache). */
static int check_from(const struct spec *base, const struct run_opts *run,
		      const struct sweep *sw)
{
	static const char *const runs[] = {
		"repeat", "precision", "max-duration", "warmup", "order",
		"drop-caches", NULL
	};
	static const char *const own[] = {
		"operation", "rwmix", "cache", "seed", "output", NULL
	};
	const char *const *o;
	const char *name;

	if (base->target)
		return refuse("--from takes the IOPS from its table and does no I/O, so the TARGET %s has no use; drop it, or drop --from to measure it",
			      base->target);
	if (sw->naxes)
		return refuse("--from measures nothing, so --%s's range or list has no use; the table has the block sizes",
			      sw->axes[0].opt->name);
	name = options_first_given(base, own);
	if (name)
		return refuse("--from does no I/O, so --%s has no meaning with it; drop it (the table's IOPS were measured with their own options)",
			      name);
	for (o = runs; *o; o++)
		if (run_given(run, *o))
			return refuse("--from does no I/O, so --%s has no meaning with it; it belongs to the sweep that made the table",
				      *o);
	return EXIT_OK;
}

/* A private directory for the files no one asked for. */
struct scratch {
	char dir[OUTPATH_TMPDIR_MAX];
	bool made;
};

static int scratch_path(struct scratch *s, const char *name, char *buf,
			size_t len)
{
	int ret;

	if (!s->made) {
		ret = outpath_make_tmpdir("--advise", "advise", s->dir,
					  sizeof(s->dir));
		if (ret)
			return ret;
		s->made = true;
	}
	snprintf(buf, len, "%s/%s", s->dir, name);
	return 0;
}

static void scratch_remove(struct scratch *s)
{
	if (s->made)
		outpath_remove_tmpdir(s->dir);
	s->made = false;
}

/* The block sizes to sweep: -b's range or list, else from 1 KiB (or the
 * logical sector, or a node that holds two entries) to 64 KiB, doubling. */
static int plan_sizes(struct spec *base, struct sweep *sw,
		      const struct advise_result *r, unsigned logical,
		      uint64_t *smallest, uint64_t *largest)
{
	const struct opt_desc *bs = options_find_long("block-size");
	struct parse_ctx pctx = { 0, "command line", NULL, NULL };
	uint64_t lo = logical > 1024 ? logical : 1024, hi, v;
	char range[64];
	size_t i;

	if (sw->naxes > 1 || (sw->naxes == 1 && sw->axes[0].opt != bs))
		return refuse("it sweeps the block size (the node size) and nothing else, and --%s has a range or list; give that option one value",
			      sw->axes[sw->axes[0].opt == bs ? 1 : 0].opt->name);
	if (!sw->naxes && spec_given(base, "block-size"))
		return refuse("it compares node sizes, and -b gives %s; give a range or list (-b 4k..64k*2, -b 4k,16k), or leave -b out for 1k..64k*2",
			      "one");
	if (!sw->naxes) {
		while (lo < 2 * r->model.key_size)
			lo *= 2;
		hi = lo * 2 > 65536 ? lo * 2 : 65536;
		snprintf(range, sizeof(range), "%llu..%llu*2",
			 (unsigned long long)lo, (unsigned long long)hi);
		if (sweep_add(sw, bs, range, &pctx))
			return EXIT_BAD_ARGS;
	}
	*smallest = UINT64_MAX;
	*largest = 0;
	for (i = 0; i < sw->axes[0].n; i++) {
		if (parse_size(sw->axes[0].values[i], &v))
			continue;
		if (v < *smallest)
			*smallest = v;
		if (v > *largest)
			*largest = v;
	}
	if (sw->axes[0].n < 2)
		return refuse("it compares node sizes, and -b gives %s; give two or more",
			      "one");
	return EXIT_OK;
}

/* --output FILE and FILE.sweep, and --plot: the rules of outpath.h, and
 * none of them the target. */
static int check_paths(const struct run_ctx *ctx, const char *output,
		       const char *plot)
{
	char err[PATH_MAX + 1200], sweep_path[PATH_MAX + 8];

	if (output) {
		snprintf(sweep_path, sizeof(sweep_path), "%s.sweep", output);
		if (outpath_check("--output", output, err, sizeof(err)) ||
		    (ctx->n && outpath_check("the sweep's table", sweep_path,
					     err, sizeof(err)))) {
			fprintf(stderr, "rebench: %s\n", err);
			return EXIT_BAD_ARGS;
		}
		if (check_path_free(ctx, "--output", output) ||
		    check_path_free(ctx, "the sweep's table", sweep_path))
			return EXIT_BAD_ARGS;
	}
	if (plot && plot_check_path(ctx, plot))
		return EXIT_BAD_ARGS;
	if (plot && output && !strcmp(plot, output))
		return refuse("--plot %s is also the --output table; give the picture its own name",
			      plot);
	return EXIT_OK;
}

/* Measure: the sweep into table; the sweep's exit status. */
static int measure(struct run_ctx *ctx, struct spec *base,
		   const struct run_opts *run, struct sweep *sw,
		   struct advise_result *r, const char *table)
{
	struct run_opts quiet = *run;

	quiet.quiet_stdout = true;	/* the advice is the output */
	quiet.plot = NULL;
	r->planned = sw->npoints;
	return sweep_run_loaded(ctx, sw, base, &quiet, table, NULL);
}

/* The outputs of r; the exit status. */
static int report(struct advise_result *r, const struct run_opts *run,
		  const char *output, struct scratch *tmp)
{
	char tsv[PATH_MAX], note[PATH_MAX + 64];
	int status = EXIT_OK;

	if (run->json)
		advise_json(stdout, r);
	else if (run->silent)
		advise_terse(stdout, r);
	else if (advise_human(stdout, r))
		status = EXIT_OUTPUT_FAILED;
	if (outpath_flush_stdout())
		status = EXIT_OUTPUT_FAILED;
	if (output && advise_tsv("--output", output, r))
		status = EXIT_OUTPUT_FAILED;
	if (!run->plot || status != EXIT_OK)
		return status;
	if (output) {
		snprintf(tsv, sizeof(tsv), "%s", output);
		snprintf(note, sizeof(note), "the data is in %s", output);
	} else {
		if (scratch_path(tmp, "advise.tsv", tsv, sizeof(tsv)) ||
		    advise_tsv("--plot", tsv, r))
			return EXIT_PLOT_FAILED;
		snprintf(note, sizeof(note), "the advice is on standard output; --output FILE keeps its table");
	}
	return advise_plot(tsv, run->plot, note, r) ? EXIT_PLOT_FAILED : EXIT_OK;
}

/* The path of the sweep's table: OUTPUT.sweep, or in a scratch directory. */
#define ADVISE_TABLE_PATH (PATH_MAX + 8)

/* advise_main() with its result and the probed target, which are too
 * large for a stack, and the sweep's table path, which r names. */
static int advise(struct run_ctx *ctx, struct spec *base, struct run_opts *run,
		  struct sweep *sw, struct advise_result *r, struct target *tgt,
		  char table[ADVISE_TABLE_PATH])
{
	bool probed;
	struct scratch tmp = { "", false };
	char *output = base->output;
	char err[PATH_MAX + 256];
	uint64_t smallest = 0, largest = 0;
	int status, ran = EXIT_OK;

	status = check_run_options(run);
	if (!status)
		status = model_of(r, base, run);
	if (!status && run->from) {
		status = check_from(base, run, sw);
		if (!status)
			status = check_paths(ctx, output, run->plot);
		if (!status && advise_table_read(run->from, "--from", &r->tab))
			status = EXIT_BAD_ARGS;
		if (!status)
			status = check_model(r, r->tab.node[0].size,
					     r->tab.node[r->tab.n - 1].size);
		r->from = run->from;
		plot_about_made(&r->about);
	} else if (!status) {
		if (!base->target)
			return refuse("it measures one workload on the TARGET of the command line, or reads --from TABLE; %s",
				      isatty(STDIN_FILENO) ? "give a TARGET" : "workload lines on stdin do not apply");
		/* its logical sector, its name and model for the titles */
		probed = target_probe(base->target, tgt, err, sizeof(err)) == 0;
		status = plan_sizes(base, sw, r, probed ? tgt->logical : 0,
				    &smallest, &largest);
		if (!status)
			status = check_model(r, smallest, largest);
		base->output = NULL;	/* the advisor's table, not a series */
		if (!status && add_workload(ctx, base))
			status = EXIT_BAD_ARGS;
		if (!status)
			status = check_paths(ctx, output, run->plot);
		if (!status && precision_check_spec(&ctx->wls[0].spec, run))
			status = EXIT_BAD_ARGS;
		if (!status && probed) {
			ctx->wls[0].tgt = *tgt;
			plot_about_fill(&r->about, ctx->wls, 1, sw,
					run->repeat > 1 ? run->repeat : 1);
		}
		if (!status && output) {
			snprintf(table, ADVISE_TABLE_PATH, "%s.sweep", output);
			r->sweep_table = table;
		} else if (!status && scratch_path(&tmp, "sweep.tsv", table,
						   ADVISE_TABLE_PATH)) {
			status = EXIT_PREP_FAILED;
		}
		if (!status) {
			ran = measure(ctx, base, run, sw, r, table);
			if (ran == EXIT_BAD_ARGS || ran == EXIT_PREP_FAILED)
				status = ran;
			else if (advise_table_read(table, "the sweep's table", &r->tab))
				status = ran != EXIT_OK ? ran : EXIT_OUTPUT_FAILED;
			r->interrupted = ran == EXIT_INTERRUPTED ||
					ran == EXIT_IO_FAILED;
		}
		base->output = output;
	}
	if (!status) {
		advise_decide(r);
		status = report(r, run, output, &tmp);
		if (ran != EXIT_OK)
			status = ran;
	}
	scratch_remove(&tmp);
	return status;
}

int advise_main(struct run_ctx *ctx, struct spec *base, struct run_opts *run,
		struct sweep *sw)
{
	struct advise_result *r = calloc(1, sizeof(*r));
	struct target *tgt = calloc(1, sizeof(*tgt));
	char table[ADVISE_TABLE_PATH] = "";
	int status = EXIT_PREP_FAILED;

	if (r && tgt)
		status = advise(ctx, base, run, sw, r, tgt, table);
	else
		fprintf(stderr, "rebench: advise: no memory for its table\n");
	free(tgt);
	free(r);
	return status;
}
