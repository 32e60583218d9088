/* fileset_resolve.c - fileset_resolve() (see fileset.h): the table of a
 * workload's files (named in --directory, or a list's), room for it in the
 * memory budget and the descriptors' limit, each file found and checked
 * (a regular file, on one file system, none twice), the size the region
 * is resolved against, -d as a share of every file's region, and
 * --file-service set up; no I/O.
 */
#include "core/fileset_priv.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "core/memory.h"
#include "core/units.h"
#include "core/validate.h"
#include "core/workload.h"

/* Descriptors kept free beyond the files' (the process's own, a log, the
 * output files, engines' rings). */
#define FD_SLACK 64

/* The next entry of a list after p (NULL: the first); NULL at its end. */
static const char *list_next(const struct spec *s, const char *p)
{
	if (!p)
		return s->files_len ? s->files : NULL;
	p += strlen(p) + 1;
	return p < s->files + s->files_len ? p : NULL;
}

static unsigned list_count(const struct spec *s)
{
	const char *p;
	unsigned n = 0;

	for (p = list_next(s, NULL); p; p = list_next(s, p))
		n++;
	return n;
}

/* Room for wl's tables in the memory budget: the files' paths and state,
 * each thread's counts and positions.  0, or -E2BIG after a message. */
static int take_memory(struct workload *wl, struct fileset *fs,
		       size_t paths)
{
	uint64_t n = fs->n, t = wl->spec.threads, q = wl->spec.qd, bytes;
	char a[32];

	bytes = paths + n * (sizeof(struct fileset_file) + 2 * sizeof(struct file_count)) +
		t * (n * (sizeof(struct file_count) + sizeof(uint64_t) + sizeof(int)) +
		     q * sizeof(uint32_t));
	if (memory_take_held(&fs->held, bytes))
		return 0;
	spec_error(&wl->spec, "the tables of %u files (%llu threads) need %s, more than rebench's memory budget of %s; use fewer files or threads, or raise REBENCH_MEMORY_BUDGET",
		   fs->n, (unsigned long long)t,
		   fmt_size_human(a, sizeof(a), bytes), memory_budget_text());
	return -E2BIG;
}

/* A descriptor per file (per file and thread with -l): raise the soft
 * limit as far as needed; 0, or -EMFILE after a message. */
static int fd_room(const struct workload *wl, const struct fileset *fs)
{
	uint64_t rows = wl->spec.local_fd ? wl->spec.threads : 1;
	uint64_t need = (uint64_t)fs->n * rows + FD_SLACK;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
		if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need) {
			rl.rlim_cur = need;
			if (!setrlimit(RLIMIT_NOFILE, &rl))
				return 0;
		}
		spec_error(&wl->spec, "%u files%s need %llu file descriptors, and this process may open %llu (ulimit -Hn); raise the limit (ulimit -n %llu as root), or use fewer files%s",
			   fs->n, rows > 1 ? " with -l (one per file and thread)" : "",
			   (unsigned long long)need,
			   (unsigned long long)rl.rlim_max,
			   (unsigned long long)need,
			   rows > 1 ? " or drop -l" : "");
		return -EMFILE;
	}
	return 0;
}

/* The paths of --directory's files: DIR/rebench.W.I.  Bytes in *paths. */
static int name_dir_files(struct workload *wl, struct fileset *fs,
			  size_t *paths)
{
	const struct spec *s = &wl->spec;
	size_t dl = strlen(s->directory);
	bool slash = dl && s->directory[dl - 1] == '/';
	char path[PATH_MAX];
	unsigned i;
	int n;

	*paths = 0;
	for (i = 0; i < fs->n; i++) {
		n = snprintf(path, sizeof(path), "%s%srebench.%u.%u",
			     s->directory, slash ? "" : "/", wl->index, i);
		if (n < 0 || (size_t)n >= sizeof(path)) {
			spec_error(s, "--directory %s: the path of its files is longer than PATH_MAX; use a shorter directory",
				   s->directory);
			return -ENAMETOOLONG;
		}
		fs->f[i].path = strdup(path);
		if (!fs->f[i].path)
			return -ENOMEM;
		*paths += (size_t)n + 1;
	}
	return 0;
}

static int list_files(struct workload *wl, struct fileset *fs, size_t *paths)
{
	const char *p;
	unsigned i = 0;

	*paths = 0;
	for (p = list_next(&wl->spec, NULL); p; p = list_next(&wl->spec, p)) {
		fs->f[i].path = strdup(p);
		if (!fs->f[i].path)
			return -ENOMEM;
		*paths += strlen(p) + 1;
		i++;
	}
	return 0;
}

/* Each file: what it is, whether it exists, its size. */
static int stat_files(struct workload *wl, struct fileset *fs)
{
	const struct spec *s = &wl->spec;
	dev_t dev0 = 0;
	bool have_dev = false;
	unsigned i;

	fs->min_size = UINT64_MAX;
	for (i = 0; i < fs->n; i++) {
		struct fileset_file *f = &fs->f[i];
		struct stat st;

		if (stat(f->path, &st)) {
			int e = errno;

			if (e != ENOENT || !fs->dir) {
				spec_error(s, "%s (file %u of %u): %s%s", f->path,
					   i + 1, fs->n, strerror(e),
					   e == ENOENT ? "; a list of files (several TARGETs, or --filename a:b) names files that exist: create it first, or use --directory DIR --nrfiles N --filesize SIZE, which creates its files" : "");
				return -EINVAL;
			}
			fs->nnew++;
			continue;
		}
		if (!S_ISREG(st.st_mode)) {
			if (S_ISBLK(st.st_mode) && !fs->dir)
				spec_error(s, "%s (file %u of %u) is a block device: several TARGETs are a list of files that one workload spreads its I/Os over, and a list names regular files; measure each device as a TARGET of its own (one target per workload: a stdin line each)",
					   f->path, i + 1, fs->n);
			else
				spec_error(s, "%s (file %u of %u) is not a regular file; many files are regular files%s",
					   f->path, i + 1, fs->n,
					   fs->dir ? ": remove it, or use another --directory" : "");
			return -EINVAL;
		}
		if (have_dev && st.st_dev != dev0) {
			spec_error(s, "%s (file %u of %u) is on another file system than %s: the files of a workload share one file system (its device, sector and counters); give each file system's files a stdin line of their own",
				   f->path, i + 1, fs->n, fs->f[0].path);
			return -EINVAL;
		}
		dev0 = st.st_dev;
		have_dev = true;
		f->exists = true;
		f->dev = st.st_dev;
		f->ino = st.st_ino;
		f->size = (uint64_t)st.st_size;
		f->allocated = (uint64_t)st.st_blocks * 512;
		fs->nexist++;
		if (f->size < fs->min_size)
			fs->min_size = f->size;
		if (f->size > fs->max_size)
			fs->max_size = f->size;
	}
	return 0;
}

static int by_inode(const void *a, const void *b)
{
	const struct fileset_file *x = *(const struct fileset_file *const *)a;
	const struct fileset_file *y = *(const struct fileset_file *const *)b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return 0;
}

/* No file twice (by inode: a name given twice, or two links). */
static int check_twice(const struct workload *wl, struct fileset *fs)
{
	const struct fileset_file **v;
	unsigned i, k = 0;
	int ret = 0;

	if (fs->nexist < 2)
		return 0;
	v = malloc(fs->nexist * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < fs->n; i++)
		if (fs->f[i].exists)
			v[k++] = &fs->f[i];
	qsort(v, k, sizeof(*v), by_inode);
	for (i = 1; i < k && !ret; i++)
		if (!by_inode(&v[i - 1], &v[i])) {
			const struct fileset_file *a = v[i - 1] < v[i] ? v[i - 1] : v[i];
			const struct fileset_file *b = a == v[i] ? v[i - 1] : v[i];

			spec_error(&wl->spec, "%s and %s (files %u and %u of %u) are the same file%s: a list names each file once; leave one out",
				   a->path, b->path, (unsigned)(a - fs->f) + 1,
				   (unsigned)(b - fs->f) + 1, fs->n,
				   strcmp(a->path, b->path) ? " (two names of one inode)" : "");
			ret = -EINVAL;
		}
	free(v);
	return ret;
}

/* The size every file is taken to have: --filesize, or the smallest. */
static int decide_size(struct workload *wl, struct fileset *fs)
{
	const struct spec *s = &wl->spec;
	char a[32], b[32];
	unsigned i;

	if (fs->dir && s->filesize) {
		fs->size = s->filesize;
		for (i = 0; i < fs->n; i++)
			if (fs->f[i].exists && fs->f[i].size < s->filesize) {
				spec_error(s, "%s has %s, less than --filesize %s: an existing file must hold the size asked for; remove the files (rebench then creates them), or give a --filesize of at most %s",
					   fs->f[i].path,
					   fmt_size_exact(a, sizeof(a), fs->f[i].size),
					   fmt_size_exact(b, sizeof(b), s->filesize),
					   fmt_size_exact(a, sizeof(a), fs->min_size));
				return -EINVAL;
			}
		for (i = 0; i < fs->n; i++)
			if (!fs->f[i].exists)
				fs->f[i].size = s->filesize;
		return 0;
	}
	if (fs->nnew) {
		for (i = 0; fs->f[i].exists; i++)
			;
		spec_error(s, "--nrfiles %u: %s does not exist%s, and without --filesize its size is not known; add --filesize SIZE (each file's size: rebench creates and lays out the files that are missing), or create the files first",
			   fs->n, fs->f[i].path,
			   fs->nnew > 1 ? " (nor do others)" : "");
		return -EINVAL;
	}
	fs->size = fs->min_size;
	if (fs->min_size != fs->max_size)
		workload_warn(wl, "the %u files are %s to %s long: the region (-j, -e) is resolved against the smallest, so every file is used over its first %s at most",
			      fs->n, fmt_size_human(a, sizeof(a), fs->min_size),
			      fmt_size_human(b, sizeof(b), fs->max_size),
			      fmt_size_human(a, sizeof(a), fs->min_size));
	return 0;
}

/* -d as a share: of every file's region together (validate.c made it
 * one region's). */
static void resolve_share(struct spec *s, unsigned n)
{
	uint64_t bytes;

	if (s->duration.kind != AMOUNT_PERCENT)
		return;
	bytes = (uint64_t)((long double)s->region_len * n * s->duration.pct / 100.0L);
	spec_limit_bytes(s, bytes);
}

static int set_service(struct workload *wl, struct fileset *fs)
{
	struct spec *s = &wl->spec, z;
	char err[256], theta[32];

	if (fileset_parse_service(s->file_service, &fs->service, &fs->theta,
				  err, sizeof(err)))
		return -EINVAL;	/* fileset_check_spec() said it */
	if (fs->service != FSERV_ZIPF)
		return 0;
	spec_defaults(&z);
	z.dist = DIST_ZIPF;
	snprintf(theta, sizeof(theta), "%.17g", fs->theta);
	z.dist_arg = theta;
	if (dist_init(&fs->dist, &z, fs->n, err, sizeof(err))) {
		spec_error(s, "--file-service %s over %u files: %s",
			   s->file_service, fs->n, err);
		return -EINVAL;
	}
	return 0;
}

int fileset_resolve(struct workload *wl)
{
	struct spec *s = &wl->spec;
	struct fileset *fs;
	struct target t;
	char err[PATH_MAX + 256];
	size_t paths = 0;
	unsigned n;
	int ret;

	fileset_free(wl);
	if (s->directory && fileset_check_dir(s))
		return -EINVAL;
	n = s->directory ? (unsigned)(s->nrfiles ? s->nrfiles : 1) : list_count(s);
	if (n > FILESET_MAX) {
		spec_error(s, "%u files: more than the %d one workload takes; split them over several workloads (stdin lines)",
			   n, FILESET_MAX);
		return -EINVAL;
	}
	fs = calloc(1, sizeof(*fs));
	if (!fs || !(fs->f = calloc(n, sizeof(*fs->f)))) {
		free(fs);
		spec_error(s, "no memory for the table of %u files", n);
		return -ENOMEM;
	}
	wl->files = fs;
	fs->n = n;
	fs->dir = s->directory;
	ret = s->directory ? name_dir_files(wl, fs, &paths) :
			     list_files(wl, fs, &paths);
	if (ret == -ENOMEM)
		spec_error(s, "no memory for the paths of %u files", n);
	if (!ret)
		ret = take_memory(wl, fs, paths);
	if (!ret)
		ret = stat_files(wl, fs);
	if (!ret)
		ret = check_twice(wl, fs);	/* a list, or hard links */
	if (!ret)
		ret = decide_size(wl, fs);
	if (!ret)
		ret = fd_room(wl, fs);
	if (ret)
		return ret == -ENOMEM ? ret : -EINVAL;
	/* the first file stands for all (one file system): its geometry,
	 * device and layout; new, it is probed through its directory */
	if (target_probe(fs->f[0].path, &wl->tgt, err, sizeof(err))) {
		spec_error(s, "%s", err);
		return -EINVAL;
	}
	if (s->length.kind == AMOUNT_BYTES && s->offset.kind == AMOUNT_BYTES &&
	    s->offset.value + s->length.value > fs->size) {
		spec_error(s, "region beyond the files: -j %llu + -e %llu = %llu bytes, but each file has %llu (%s); shrink -e or -j%s",
			   (unsigned long long)s->offset.value,
			   (unsigned long long)s->length.value,
			   (unsigned long long)(s->offset.value + s->length.value),
			   (unsigned long long)fs->size,
			   fs->dir && s->filesize ? "--filesize" : "the smallest file",
			   fs->dir ? ", or give a larger --filesize" : "");
		return -EINVAL;
	}
	/* the region is resolved against one file's size, as if it existed */
	t = wl->tgt;
	t.exists = true;
	t.size = fs->size;
	if (spec_resolve(s, &t) || spec_resolve_dist(s, &wl->run.dist) ||
	    set_service(wl, fs))
		return -EINVAL;
	resolve_share(s, n);
	wl->tgt.size = fs->size;
	wl->tgt.exists = fs->nexist > 0;	/* data to confirm, see plan */
	wl->tgt.allocated = 0;
	return 0;
}
