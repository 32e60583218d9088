/* trace_to.c - rebench --trace-to fio LOG [--output FILE]: a log (a
 * rebench trace, or a fio iolog read back) written as fio's iolog v3.
 *
 * The mapping (rebench(1), APPLICATION I/O, "Export to fio"):
 *	open		FILE add (the file's first), FILE open (when it was
 *			not open: fio has one descriptor per file)
 *	close		FILE close (the last of the file's opens)
 *	read*, write*	FILE read|write OFFSET BYTES, BYTES the result (what
 *			moved); a call that moved nothing is dropped
 *	fsync		FILE sync 0 0
 *	fdatasync	FILE datasync 0 0
 * A read, write or flush on a file not open in fio's view (a descriptor
 * inherited, or opened before the record) opens it first.  TIME is the
 * call's start in us, never below the line before (fio waits for a later
 * time only).  Dropped, with their counts on stderr: lseek (the offsets
 * are in the reads and writes), ftruncate, fallocate, sync_file_range
 * (fio's iolog has no such action; a punched hole would be a trim, but
 * fio 3.33 refuses an iolog with a trim: "bad ddir: 2"), failed calls, reads and writes at an
 * unknown offset, calls on directories (opened with O_DIRECTORY, or a
 * directory at the time of the export) and on paths fio
 * cannot read back (white space, more than 256 bytes).  A log whose
 * status says it is incomplete or unfinished (trace_log.h) is exported
 * with a warning that says so.
 *
 * Exit statuses: 0; 1 for bad arguments, a log that cannot be read or is
 * corrupt (nothing written); 5 when the output cannot be written.
 */
#include "trace/trace_fio.h"
#include "trace/trace_log.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/memory.h"
#include "core/mode_args.h"
#include "core/outpath.h"
#include "core/plan.h"

static const char usage[] =
	"rebench --trace-to fio LOG [--output FILE]\n";

/* fio's view of a file */
struct fio_file {
	bool added, dir, named;
	bool bad_name;		/* fio cannot read it back: dropped */
	bool bad_counted;
	uint32_t opens;		/* opens not yet closed, all processes */
};

/* What is written and what is not, for the summary. */
struct export_counts {
	uint64_t ops;		/* records read */
	uint64_t put[TT_TYPES];	/* written, by type */
	uint64_t implicit_opens;
	uint64_t dropped[TT_TYPES];	/* of types fio has no action for */
	uint64_t failed, no_offset, empty, too_long, on_dir, bad_name;
	uint32_t bad_names;	/* distinct files */
	const char *first_bad;
};

struct exporter {
	struct trace_reader r;
	FILE *out;
	struct fio_file *files;
	uint32_t nfiles;
	uint64_t last_us;
	struct export_counts n;
	/* held against the memory budget: the table of files and the
	 * iolog built in memory (text: the bytes counted of it) */
	uint64_t mem, text;
};

bool trace_to_wanted(int argc, char **argv)
{
	return mode_given(argc, argv, "--trace-to");
}

struct trace_to_args {
	const char *format;	/* --trace-to */
	const char *out;	/* --output */
	const char *log;
};

static const char help[] =
	"\n"
	"  --trace-to fio LOG   LOG (a rebench trace or a fio iolog) as fio's iolog v3,\n"
	"                       for fio --read_iolog; what fio has no form for is\n"
	"                       counted on stderr\n"
	"  --output FILE        write it to FILE instead of stdout\n"
	"See rebench(1), APPLICATION I/O.\n";

static int fio_only(const struct mode_grammar *g, void *args,
		    const char *opt, const char *val)
{
	(void)args;
	(void)opt;
	if (!strcmp(val, "fio"))
		return 0;
	return mode_args_bad(g, "--trace-to '%s': the one format is fio (its iolog version 3)",
			     val);
}

static const struct mode_opt opts[] = {
	{ "--trace-to", MODE_VALUE, offsetof(struct trace_to_args, format),
	  .twice_first = true, .twice = "%s is given twice",
	  .missing = "%s needs a format: fio", .check = fio_only },
	{ "--output", MODE_VALUE, offsetof(struct trace_to_args, out),
	  .twice_first = true, .twice = "%s is given twice",
	  .missing = "%s needs a file name",
	  .empty = "%s: the file name is empty" },
	{ NULL, MODE_WORD, offsetof(struct trace_to_args, log),
	  .twice = "'%s': --trace-to takes one LOG" },
};

const struct mode_grammar trace_to_grammar = {
	.usage = usage,
	.sep = "\n",
	.help = help,
	.unknown = "%s has no meaning with --trace-to, which takes only LOG and --output FILE",
	.opts = opts,
	.nopts = sizeof(opts) / sizeof(opts[0]),
	.no_cmd = true,
};

/* 0, 1 after --help, or -EINVAL after a message. */
static int parse_args(int argc, char **argv, struct trace_to_args *a)
{
	int ret;

	memset(a, 0, sizeof(*a));
	ret = mode_args_parse(argc, argv, &trace_to_grammar, a);
	if (ret)
		return ret;
	if (!a->log)
		return mode_args_bad(&trace_to_grammar, "--trace-to fio needs the LOG to write: rebench --trace-to fio LOG");
	if (!*a->log)
		return mode_args_bad(&trace_to_grammar, "--trace-to: the LOG name is empty");
	return 0;
}

/* The file of id in *out: 0, or -E2BIG (the memory budget) or -ENOMEM
 * with x->r.err saying why. */
static int file_of(struct exporter *x, uint32_t id, struct fio_file **out)
{
	struct fio_file *f;
	struct stat st;
	uint32_t n;

	if (id >= x->nfiles) {
		n = x->nfiles ? x->nfiles : 16;
		while (n <= id)
			n *= 2;
		if (!memory_take((uint64_t)(n - x->nfiles) * sizeof(*f)))
			return memory_refuse_log(x->r.err, sizeof(x->r.err),
						 x->r.path, x->r.line,
						 "the iolog built in memory and its table of files");
		x->mem += (uint64_t)(n - x->nfiles) * sizeof(*f);
		f = realloc(x->files, n * sizeof(*f));
		if (!f) {
			snprintf(x->r.err, sizeof(x->r.err), "%s: out of memory",
				 x->r.path);
			return -ENOMEM;
		}
		memset(f + x->nfiles, 0, (n - x->nfiles) * sizeof(*f));
		x->files = f;
		x->nfiles = n;
	}
	f = &x->files[id];
	if (!f->named) {
		f->named = true;
		f->bad_name = !trace_fio_name_ok(trace_file_name(&x->r, id));
		/* a directory opened without O_DIRECTORY (sqlite's, to
		 * fsync it) is known only by what is there now */
		f->dir = !stat(trace_file_name(&x->r, id), &st) &&
			 S_ISDIR(st.st_mode);
	}
	*out = f;
	return 0;
}

static void put(struct exporter *x, const struct trace_rec *rec,
		const char *act)
{
	uint64_t us = rec->t_ns / 1000;

	if (us < x->last_us)
		us = x->last_us;
	x->last_us = us;
	fprintf(x->out, "%llu %s %s", (unsigned long long)us,
		trace_file_name(&x->r, rec->file), act);
}

/* add and open, when fio's view lacks them */
static void ensure_open(struct exporter *x, struct fio_file *f,
			const struct trace_rec *rec, bool implicit)
{
	if (!f->added) {
		put(x, rec, "add\n");
		f->added = true;
	}
	if (!f->opens) {
		put(x, rec, "open\n");
		if (implicit) {
			x->n.implicit_opens++;
			f->opens = 1;
		}
	}
}

static void export_rec(struct exporter *x, const struct trace_rec *rec,
		       struct fio_file *f)
{
	struct export_counts *n = &x->n;
	int t = rec->type;

	if (rec->result < 0) {
		n->failed++;
		return;
	}
	if (t == TT_OPEN && (rec->flags & O_DIRECTORY))
		f->dir = true;
	if (f->dir) {
		n->on_dir++;
		return;
	}
	if (f->bad_name) {
		if (!f->bad_counted && !n->bad_names++)
			n->first_bad = trace_file_name(&x->r, rec->file);
		f->bad_counted = true;
		n->bad_name++;
		return;
	}
	switch (t) {
	case TT_OPEN:
		ensure_open(x, f, rec, false);
		f->opens++;
		break;
	case TT_CLOSE:
		if (!f->opens)
			return;		/* never open in fio's view */
		if (--f->opens)
			return;
		put(x, rec, "close\n");
		break;
	case TT_READ:
	case TT_WRITE:
		if (rec->off == TRACE_NONE) {
			n->no_offset++;
			return;
		}
		if (!rec->result) {
			n->empty++;
			return;
		}
		if (rec->result > UINT32_MAX) {
			n->too_long++;
			return;
		}
		ensure_open(x, f, rec, true);
		put(x, rec, t == TT_READ ? "read" : "write");
		fprintf(x->out, " %lld %lld\n", (long long)rec->off,
			(long long)rec->result);
		break;
	case TT_FSYNC:
	case TT_FDATASYNC:
		ensure_open(x, f, rec, true);
		put(x, rec, t == TT_FSYNC ? "sync 0 0\n" : "datasync 0 0\n");
		break;
	default:
		n->dropped[t]++;
		return;
	}
	n->put[t]++;
}

/* "N what" to the list in buf, ", " between */
static void item(char *buf, size_t len, uint64_t count, const char *what)
{
	size_t used = strlen(buf);

	if (!count)
		return;
	snprintf(buf + used, len - used, "%s%llu %s", used ? ", " : "",
		 (unsigned long long)count, what);
}

static void summary(const struct exporter *x, const char *log,
		    const char *out)
{
	const struct export_counts *n = &x->n;
	char put[512] = "", drop[2048] = "", what[128];
	uint64_t total = 0;
	int t;

	for (t = 0; t < TT_TYPES; t++) {
		total += n->put[t];
		item(put, sizeof(put), n->put[t], trace_type_names[t]);
	}
	fprintf(stderr, "rebench: --trace-to fio: %s: %llu of %llu calls written to %s%s%s%s\n",
		log, (unsigned long long)total, (unsigned long long)n->ops,
		out ? out : "stdout", *put ? " (" : "", put, *put ? ")" : "");
	if (n->implicit_opens)
		fprintf(stderr, "rebench: --trace-to fio: %llu %s added for files used while not open in fio's view (a descriptor inherited or opened before the record)\n",
			(unsigned long long)n->implicit_opens,
			n->implicit_opens == 1 ? "open line" : "open lines");
	for (t = 0; t < TT_TYPES; t++) {
		snprintf(what, sizeof(what), "%s%s", trace_type_names[t],
			 t == TT_SEEK ? " (the offsets are in the reads and writes)" : "");
		item(drop, sizeof(drop), n->dropped[t], what);
	}
	item(drop, sizeof(drop), n->failed, "failed calls");
	item(drop, sizeof(drop), n->no_offset, "reads or writes at an unknown offset");
	item(drop, sizeof(drop), n->empty, "reads or writes that moved no bytes");
	item(drop, sizeof(drop), n->too_long, "reads or writes of 4 GiB or more");
	item(drop, sizeof(drop), n->on_dir, "calls on directories (fio opens files only)");
	if (n->bad_names) {
		snprintf(what, sizeof(what), "calls on %u files whose names fio cannot read (white space, over 256 bytes), such as",
			 n->bad_names);
		item(drop, sizeof(drop), n->bad_name, what);
		snprintf(drop + strlen(drop), sizeof(drop) - strlen(drop), " %s",
			 n->first_bad);
	}
	if (*drop)
		fprintf(stderr, "rebench: --trace-to fio: not written (fio's iolog has no seek, truncate, fallocate or sync_file_range, and fio 3.33 refuses a trim in one; a failed call did nothing): %s\n",
			drop);
	if (x->r.nwarnings)
		fprintf(stderr, "rebench: --trace-to fio: %s holds %lu warnings of what the recorder could not follow (rebench --trace-stats %s shows them)\n",
			log, x->r.nwarnings, log);
	trace_say_status("--trace-to fio", log, &x->r, "the iolog");
}

/* The output may not be the log being read. */
static int same_file(const char *log, const char *out)
{
	struct stat a, b;

	return !stat(log, &a) && !stat(out, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/* The iolog written so far, counted against the memory budget in steps
 * of 1 MiB: 0, or -E2BIG with x->r.err saying why. */
static int count_text(struct exporter *x)
{
	off_t pos = ftello(x->out);
	uint64_t more;

	if (pos < 0 || (uint64_t)pos <= x->text)
		return 0;
	more = (uint64_t)pos - x->text;
	if (more < (1U << 20))
		more = 1U << 20;
	if (!memory_take(more))
		return memory_refuse_log(x->r.err, sizeof(x->r.err),
					 x->r.path, x->r.line,
					 "the iolog built in memory and its table of files");
	x->mem += more;
	x->text += more;
	return 0;
}

static int export_all(struct exporter *x)
{
	struct trace_rec rec;
	struct fio_file *f = NULL;
	int ret;

	fprintf(x->out, "%s\n", TRACE_FIO_MAGIC3);
	while ((ret = trace_next(&x->r, &rec)) > 0) {
		x->n.ops++;
		ret = file_of(x, rec.file, &f);
		if (ret)
			return ret;
		export_rec(x, &rec, f);
		ret = count_text(x);
		if (ret)
			return ret;
	}
	return ret;
}

/* trace_to_main() with its exporter, which is too large for a stack. */
static int trace_to(int argc, char **argv, struct exporter *x)
{
	struct trace_to_args a;
	const char *log, *out;
	char err[PATH_MAX + 1200], *buf = NULL;
	size_t len = 0;
	int ret, status = EXIT_OK;
	FILE *f;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret > 0 ? EXIT_OK : EXIT_BAD_ARGS;
	log = a.log;
	out = a.out;
	if (out && same_file(log, out)) {
		mode_args_bad(&trace_to_grammar, "--output %s is the LOG being read: give the iolog its own name",
			      out);
		return EXIT_BAD_ARGS;
	}
	if (out && outpath_check("--output", out, err, sizeof(err))) {
		fprintf(stderr, "rebench: %s\n", err);
		return EXIT_BAD_ARGS;
	}
	if (trace_open(&x->r, log)) {
		fprintf(stderr, "rebench: --trace-to: %s\n", x->r.err);
		status = EXIT_BAD_ARGS;
		goto out_close;
	}
	/* in memory first: a corrupt line leaves no half iolog behind */
	x->out = open_memstream(&buf, &len);
	if (!x->out) {
		fprintf(stderr, "rebench: --trace-to: %s\n", strerror(errno));
		status = EXIT_PREP_FAILED;
		goto out_close;
	}
	ret = export_all(x);
	if (fclose(x->out) && !ret) {
		snprintf(x->r.err, sizeof(x->r.err), "%s: out of memory", log);
		ret = -ENOMEM;
	}
	if (ret) {
		fprintf(stderr, "rebench: --trace-to: %s%s\n", x->r.err,
			ret == -E2BIG ? "; nothing was written" : "");
		status = ret == -ENOMEM ? EXIT_PREP_FAILED : EXIT_BAD_ARGS;
		goto out_free;
	}
	f = out ? outpath_open("--output", out) : stdout;
	if (!f) {
		status = EXIT_OUTPUT_FAILED;
		goto out_free;
	}
	fwrite(buf, 1, len, f);
	if (out ? outpath_close("--output", out, f) : outpath_finish_stdout()) {
		status = EXIT_OUTPUT_FAILED;
		goto out_free;
	}
	summary(x, log, out);
out_free:
	free(buf);
out_close:
	trace_close(&x->r);
	free(x->files);
	memory_give(x->mem);
	return status;
}

int trace_to_main(int argc, char **argv)
{
	struct exporter *x = calloc(1, sizeof(*x));
	int status;

	if (!x) {
		fprintf(stderr, "rebench: --trace-to: %s\n", strerror(ENOMEM));
		return EXIT_PREP_FAILED;
	}
	status = trace_to(argc, argv, x);
	free(x);
	return status;
}
