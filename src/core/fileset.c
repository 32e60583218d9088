/* fileset.c - one workload over many files, see fileset.h. */
#include "core/fileset.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/memory.h"
#include "core/options.h"
#include "core/units.h"
#include "core/validate.h"
#include "core/workload.h"
#include "engines/sysio.h"
#include "gen/stream.h"
#include "target/inuse.h"
#include "target/mountinfo.h"

/* Descriptors kept free beyond the files' (the process's own, a log, the
 * output files, engines' rings). */
#define FD_SLACK 64

/* ---------------------------------------------------------------- parsing */

/* path appended to s's list (NUL-terminated entries). */
static int list_append(struct spec *s, const char *path)
{
	size_t n = strlen(path) + 1;
	char *p = realloc(s->files, s->files_len + n);

	if (!p)
		return -ENOMEM;
	memcpy(p + s->files_len, path, n);
	s->files = p;
	s->files_len += n;
	return 0;
}

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

int fileset_add_target(struct spec *s, const char *path)
{
	if (!s->files && s->target && list_append(s, s->target))
		return -ENOMEM;
	if (!s->target) {
		s->target = strdup(path);
		if (!s->target)
			return -ENOMEM;
	}
	return list_append(s, path);
}

int fileset_filename(struct spec *s, const char *val,
		     const struct parse_ctx *ctx)
{
	size_t len = strlen(val), i, k = 0, n = 0;
	char *name = malloc(len + 1), w[64];
	int ret = 0;

	if (!name)
		return -ENOMEM;
	options_where(ctx, w, sizeof(w));
	if (s->target) {
		fprintf(stderr, "rebench: %s--filename=%s: one target per workload, and '%s' is given already: give the files in one --filename (a:b:c) or as TARGET words, not both\n",
			w, val, s->target);
		free(name);
		return -EINVAL;
	}
	for (i = 0; i <= len && !ret; i++) {
		if (val[i] == '\\' && val[i + 1] == ':') {
			name[k++] = ':';	/* fio's escape of a colon */
			i++;
			continue;
		}
		if (val[i] && val[i] != ':') {
			name[k++] = val[i];
			continue;
		}
		name[k] = '\0';
		if (!k) {
			fprintf(stderr, "rebench: %s--filename=%s: file %zu of the list is empty; fio's ':' separates the files (a:b:c), and \"\\:\" is a colon in a name\n",
				w, val, n + 1);
			ret = -EINVAL;
			break;
		}
		n++;
		ret = fileset_add_target(s, name);
		k = 0;
	}
	free(name);
	if (!ret && n == 1) {	/* one file, a colon in its name maybe */
		free(s->files);
		s->files = NULL;
		s->files_len = 0;
	}
	return ret;
}

int fileset_parse_end(struct spec *s, const struct parse_ctx *ctx)
{
	char w[64];

	if (!s->directory)
		return 0;
	if ((s->target && !s->target_is_dir) || s->files) {
		options_where(ctx, w, sizeof(w));
		fprintf(stderr, "rebench: %sa TARGET (%s) and --directory %s together: --directory names its files itself (%s/rebench.W.I, --nrfiles of them); give the files as TARGETs, or --directory, not both\n",
			w, s->target, s->directory, s->directory);
		return -EINVAL;
	}
	free(s->target);
	s->target = strdup(s->directory);
	s->target_is_dir = true;
	return s->target ? 0 : -ENOMEM;
}

bool fileset_wanted(const struct spec *s)
{
	return s->directory || s->files;
}

/* --file-service's text into *service and *theta; 0, or -EINVAL with why
 * in err. */
static int parse_service(const char *text, int *service, double *theta,
			 char *err, size_t len)
{
	const char *colon;
	char *end;

	*theta = 0;
	if (!text || !strcasecmp(text, "rr") || !strcasecmp(text, "roundrobin")) {
		*service = FSERV_RR;
		return 0;
	}
	if (!strcasecmp(text, "random")) {
		*service = FSERV_RANDOM;
		return 0;
	}
	colon = strchr(text, ':');
	if (!strncasecmp(text, "zipf", colon ? (size_t)(colon - text) : strlen(text)) &&
	    (colon ? colon - text : (ptrdiff_t)strlen(text)) == 4) {
		*service = FSERV_ZIPF;
		*theta = 1.2;	/* gen/dist.h's default */
		if (!colon)
			return 0;
		*theta = strtod(colon + 1, &end);
		if (end != colon + 1 && !*end && *theta > 0 && *theta <= 100)
			return 0;
		snprintf(err, len, "THETA must be a number in (0, 100]: zipf:1.2 (file 0 gets the most I/Os, file k a share 1/(k+1)^THETA of it)");
		return -EINVAL;
	}
	if ((colon && (!strncasecmp(text, "random:", 7) ||
		       !strncasecmp(text, "roundrobin:", 11) ||
		       !strncasecmp(text, "rr:", 3)))) {
		snprintf(err, len, "fio's :N (switch file after N I/Os) is not supported: every I/O picks its file; give rr, random or zipf:THETA");
		return -EINVAL;
	}
	if (!strncasecmp(text, "sequential", 10) || !strncasecmp(text, "pareto", 6) ||
	    !strncasecmp(text, "normal", 6) || !strncasecmp(text, "gauss", 5)) {
		snprintf(err, len, "fio's %.*s is not supported yet; give rr (roundrobin), random or zipf:THETA",
			 (int)(colon ? colon - text : (ptrdiff_t)strlen(text)), text);
		return -EINVAL;
	}
	snprintf(err, len, "expected rr (fio's roundrobin: each file in turn), random (uniformly) or zipf:THETA (file 0 the most)");
	return -EINVAL;
}

/* ------------------------------------------------------------------ checks */

/* The bit of an option the workload's own line (or the command line)
 * gave: what a line inherits and cannot use is left alone. */
static bool own(const struct spec *s, const char *name)
{
	return spec_given(s, name);
}

int fileset_check_spec(const struct spec *s)
{
	const struct engine_ops *e = engine_get(s->engine);
	unsigned flushes = 1U << IO_FSYNC | 1U << IO_FDATASYNC |
			   1U << IO_SYNC_RANGE;
	char err[256];
	int service;
	double theta;

	if (!fileset_wanted(s)) {
		static const char *const need[] = { "nrfiles", "filesize" };
		size_t i;

		for (i = 0; i < 2; i++)
			if (own(s, need[i])) {
				spec_error(s, "--%s goes with --directory DIR (the files DIR/rebench.W.I); %s is one target. Add --directory, or leave --%s out",
					   need[i], s->target ? s->target : "the TARGET", need[i]);
				return -EINVAL;
			}
		if (own(s, "file-service")) {
			spec_error(s, "--file-service chooses among many files, and %s is one target; add --directory DIR --nrfiles N, or give several TARGETs",
				   s->target ? s->target : "the TARGET");
			return -EINVAL;
		}
		return 0;
	}
	if (s->files && (own(s, "nrfiles") || own(s, "filesize"))) {
		spec_error(s, "--%s goes with --directory: a list of TARGETs names its files, which exist and have their own sizes; leave it out, or use --directory",
			   own(s, "nrfiles") ? "nrfiles" : "filesize");
		return -EINVAL;
	}
	if (s->directory && own(s, "nrfiles") && !s->nrfiles) {
		spec_error(s, "--nrfiles 0: a run over no files measures nothing; give 1 or more (fio's default is 1)");
		return -EINVAL;
	}
	if (parse_service(s->file_service, &service, &theta, err, sizeof(err))) {
		spec_error(s, "--file-service %s: %s", s->file_service, err);
		return -EINVAL;
	}
	if (s->directory && s->filesize && s->filesize < s->bs) {
		char a[32], b[32];

		spec_error(s, "--filesize %s: smaller than one block (-b %s), so no I/O fits in a file; give a --filesize of at least -b",
			   fmt_size_short(a, sizeof(a), s->filesize),
			   fmt_size_short(b, sizeof(b), s->bs));
		return -EINVAL;
	}
	if ((e->flags & ENGINE_ONE_FILE) && !(e->flags & ENGINE_FD_PER_IO)) {
		spec_error(s, "-t %s with many files: the %s engine binds one file when it starts (a mapping), but many files change file with every I/O; use -t stateless, stateful, naio, paio or uring",
			   e->name, e->name);
		return -EINVAL;
	}
	if (s->verify) {
		spec_error(s, "--verify with many files: not supported yet (its map of written blocks and their generations covers one file's region); verify the files one at a time, as TARGETs of their own");
		return -EINVAL;
	}
	if (s->append) {
		spec_error(s, "-a/--append with many files: not supported yet (appends grow one file, whose end the region follows); append to each file as a TARGET of its own");
		return -EINVAL;
	}
	if (spec_kinds(s) & flushes) {
		spec_error(s, "%s with many files: which file a flush is for is not defined yet; make each write durable in its own file with --sync dsync, sync or rwf-dsync, or leave flushes out",
			   s->op == OP_MIX && (mix_kinds(&s->opmix) & flushes) ?
			   "-o with flushes" : "--sync with flushes (fsync:N, fdatasync:N, sfr:N, end)");
		return -EINVAL;
	}
	if (s->cache_bytes) {
		spec_error(s, "--cache with many files: not supported yet (the run's memory cgroup drops the cached pages of one target first); give each file its own workload, or leave --cache out");
		return -EINVAL;
	}
	return 0;
}

/* A pseudo file system: the kernel's settings and state, not data. */
static bool pseudo_fs(const char *fs)
{
	static const char *const names[] = {
		"proc", "sysfs", "devtmpfs", "debugfs", "tracefs", "cgroup",
		"cgroup2", "securityfs", "selinuxfs", "smackfs", "bpf",
		"pstore", "efivarfs", "devpts", "binfmt_misc", "resctrl",
		"nsfs", "usbfs", "openpromfs", "apparmorfs", "configfs",
		"fusectl", "mqueue", "autofs", "binderfs", "xenfs", "nfsd",
		"rpc_pipefs", "functionfs", "gadgetfs", "hugetlbfs", NULL
	};
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strcmp(fs, names[i]))
			return true;
	return false;
}

/* --directory: it exists, is a directory, on a real file system. */
static int check_dir(const struct spec *s)
{
	char probe[PATH_MAX], fs[32];
	struct stat st;

	if (stat(s->directory, &st)) {
		int e = errno;

		if (e == ENOENT)
			spec_error(s, "--directory %s: no such directory; create it first (mkdir -p %s): rebench creates the files in it, never the directory",
				   s->directory, s->directory);
		else
			spec_error(s, "--directory %s: %s", s->directory,
				   strerror(e));
		return -EINVAL;
	}
	if (!S_ISDIR(st.st_mode)) {
		spec_error(s, "--directory %s: not a directory (it is %s); give the directory the files go in, or the file itself as TARGET",
			   s->directory, S_ISBLK(st.st_mode) ? "a block device" :
			   S_ISREG(st.st_mode) ? "a regular file" : "not one");
		return -EINVAL;
	}
	snprintf(probe, sizeof(probe), "%s/x", s->directory);
	if (mountinfo_dir_fs(probe, fs, sizeof(fs)) && pseudo_fs(fs)) {
		spec_error(s, "--directory %s: it is on %s, a pseudo file system whose files are the kernel's settings and state, not data; give a directory on a real file system",
			   s->directory, fs);
		return -EINVAL;
	}
	return 0;
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
	if (size_mix_active(&s->bsmix)) {
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

static int set_service(struct workload *wl, struct fileset *fs)
{
	struct spec *s = &wl->spec, z;
	char err[256], theta[32];

	if (parse_service(s->file_service, &fs->service, &fs->theta, err,
			  sizeof(err)))
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
	if (s->directory && check_dir(s))
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

/* ---------------------------------------------------------------- planning */

void fileset_plan(struct workload *wl)
{
	struct fileset *fs = wl->files;
	const struct spec *s = &wl->spec;
	char a[32];
	unsigned i;

	fs->nholes = fs->nsparse = 0;
	for (i = 0; i < fs->n; i++) {
		struct fileset_file *f = &fs->f[i];

		f->holes = false;
		if (!f->exists)
			continue;
		if (SPEC_DOES(s, IO_READ)) {
			int fd = open(f->path, O_RDONLY | O_CLOEXEC);

			if (fd >= 0) {
				f->holes = file_has_hole(fd, s->region_start,
							 s->region_len);
				close(fd);
			}
			fs->nholes += f->holes;
		} else if (SPEC_DOES(s, IO_WRITE) && f->allocated < f->size) {
			fs->nsparse++;
		}
	}
	wl->run.needs_layout = fs->nnew || fs->nholes;
	wl->run.layout_confirm = fs->nholes > 0;
	wl->run.create_size = 0;
	if (fs->nsparse)
		workload_warn(wl, "%u of the %u files are sparse: writes into holes also measure block allocation by the filesystem",
			      fs->nsparse, fs->n);
	if (fs->nnew && fs->nexist)
		workload_warn(wl, "%u of the %u files exist%s and %u %s created (%s each)",
			      fs->nexist, fs->n, fs->nexist == 1 ? "s" : "",
			      fs->nnew, fs->nnew == 1 ? "is" : "are",
			      fmt_size_human(a, sizeof(a), fs->size));
}

/* The directory new files go in, for its writability. */
static void dir_of(const char *path, char *buf, size_t len)
{
	char *slash;

	snprintf(buf, len, "%s", path);
	slash = strrchr(buf, '/');
	if (!slash)
		snprintf(buf, len, ".");
	else if (slash == buf)
		buf[1] = '\0';
	else
		*slash = '\0';
}

int fileset_refuse(const struct workload *wl, const char *verb)
{
	const struct fileset *fs = wl->files;
	char why[512], dir[PATH_MAX];
	unsigned i;

	for (i = 0; i < fs->n; i++) {
		const struct fileset_file *f = &fs->f[i];

		if (!f->exists)
			continue;
		if (!spec_is_destructive(&wl->spec) && !f->holes)
			continue;
		if (inuse_file(f->path, f->dev, f->ino, why, sizeof(why))) {
			spec_error(&wl->spec, "refusing to %s %s (file %u of %u): %s. rebench never writes to anything in use; unmount it (or release it) first, or choose other files.",
				   verb, f->path, i + 1, fs->n, why);
			return -EBUSY;
		}
		if (inuse_read_only(f->path, false, why, sizeof(why))) {
			spec_error(&wl->spec, "refusing to %s %s (file %u of %u): %s; choose writable files, or run a read workload",
				   verb, f->path, i + 1, fs->n, why);
			return -EROFS;
		}
	}
	for (i = 0; fs->nnew && i < fs->n; i++) {
		if (fs->f[i].exists)
			continue;
		dir_of(fs->f[i].path, dir, sizeof(dir));
		if (inuse_read_only(dir, false, why, sizeof(why))) {
			spec_error(&wl->spec, "refusing to create %s (file %u of %u): %s; give a --directory that can be written",
				   fs->f[i].path, i + 1, fs->n, why);
			return -EROFS;
		}
		break;	/* one directory */
	}
	return 0;
}

/* The base name of path (after the last '/'). */
static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

void fileset_label(const struct workload *wl, char *buf, size_t len)
{
	const struct fileset *fs = wl->files;
	size_t n;
	unsigned i;

	if (fs->dir) {
		if (fs->n == 1)
			snprintf(buf, len, "1 file in %s (%s)", fs->dir,
				 base_of(fs->f[0].path));
		else
			snprintf(buf, len, "%u files in %s (%s to %s)", fs->n,
				 fs->dir, base_of(fs->f[0].path),
				 base_of(fs->f[fs->n - 1].path));
		return;
	}
	n = (size_t)snprintf(buf, len, "%u files (", fs->n);
	for (i = 0; i < fs->n && n < len; i++) {
		if (i == 3 && fs->n > 4) {
			snprintf(buf + n, len - n, ", ..., %s)",
				 fs->f[fs->n - 1].path);
			return;
		}
		n += (size_t)snprintf(buf + n, len - n, "%s%s%s", i ? ", " : "",
				      fs->f[i].path, i + 1 == fs->n ? ")" : "");
	}
}

void fileset_describe(FILE *f, const struct workload *wl, const char *verb)
{
	const struct fileset *fs = wl->files;
	const struct spec *s = &wl->spec;
	char label[PATH_MAX + 64], a[32], b[32], c[32];

	fileset_label(wl, label, sizeof(label));
	fmt_size_exact(a, sizeof(a), fs->size);
	fmt_size_exact(b, sizeof(b), s->region_start);
	fmt_size_exact(c, sizeof(c), s->region_start + s->region_len);
	if (!spec_is_destructive(s))
		fprintf(f, "  %s %u of the %s, %s each: holes (which read as zeros) get non-zero data from %s to %s of each\n",
			verb, fs->nholes, label, a, b, c);
	else if (fs->nnew)
		fprintf(f, "  %s %s, %s each (%u exist%s, %u %s created): the data will be lost from %s to %s of each that exists\n",
			verb, label, a, fs->nexist, fs->nexist == 1 ? "s" : "",
			fs->nnew, fs->nnew == 1 ? "is" : "are", b, c);
	else
		fprintf(f, "  %s %s, %s each: the data will be lost from %s to %s of each\n",
			verb, label, a, b, c);
}

bool fileset_has(const struct workload *wl, const char *path)
{
	const struct fileset *fs = wl->files;
	struct stat st;
	bool exists = !stat(path, &st);
	unsigned i;

	for (i = 0; i < fs->n; i++) {
		const struct fileset_file *f = &fs->f[i];

		if (exists && f->exists ? f->dev == st.st_dev && f->ino == st.st_ino :
		    !exists && !f->exists && !strcmp(f->path, path))
			return true;
	}
	return false;
}

void fileset_service_text(const struct fileset *fs, char *buf, size_t len)
{
	if (fs->service == FSERV_ZIPF)
		snprintf(buf, len, "zipf:%g", fs->theta);
	else
		snprintf(buf, len, "%s", fs->service == FSERV_RANDOM ? "random" : "rr");
}

/* --------------------------------------------------------------- preparing */

int fileset_prepare(struct workload *wl)
{
	struct fileset *fs = wl->files;
	const struct spec *s = &wl->spec;
	uint64_t made = 0, filled = 0, bytes;
	unsigned i, r, nmade = 0, nfilled = 0;
	char label[PATH_MAX + 64], a[32];
	int ret;

	for (i = 0; i < fs->n; i++) {
		struct fileset_file *f = &fs->f[i];

		if (!f->exists) {
			ret = workload_lay_out_path(wl, f->path, false, 0,
						    fs->size, &bytes);
			if (ret)
				return ret;
			f->exists = f->created = true;
			f->allocated = fs->size;
			made += bytes;
			nmade++;
		} else if (f->holes) {
			ret = workload_lay_out_path(wl, f->path, true,
						    s->region_start,
						    s->region_start + s->region_len,
						    &bytes);
			if (ret)
				return ret;
			f->holes = false;
			filled += bytes;
			nfilled++;
		}
	}
	fileset_label(wl, label, sizeof(label));
	if (nmade == fs->n)
		workload_warn(wl, "created %s and laid out %s of non-zero data before measuring",
			      label, fmt_size_human(a, sizeof(a), made));
	else if (nmade)
		workload_warn(wl, "created %u of the %s and laid out %s of non-zero data before measuring",
			      nmade, label, fmt_size_human(a, sizeof(a), made));
	if (nfilled)
		workload_warn(wl, "%u of the %s had holes in the region: filled %s with non-zero data before measuring, since reading holes measures nothing",
			      nfilled, label, fmt_size_human(a, sizeof(a), filled));
	wl->tgt.exists = true;
	wl->tgt.created = nmade > 0;
	wl->tgt.allocated = fs->f[0].allocated;
	fs->rows = s->local_fd ? (unsigned)s->threads : 1;
	fs->fds = malloc((size_t)fs->rows * fs->n * sizeof(*fs->fds));
	if (!fs->fds) {
		spec_error(&wl->spec, "no memory for the descriptors of %u files", fs->n);
		return -ENOMEM;
	}
	for (i = 0; i < fs->rows * fs->n; i++)
		fs->fds[i] = -1;	/* nothing to close yet */
	for (r = 0; r < fs->rows; r++)
		for (i = 0; i < fs->n; i++) {
			ret = workload_open_path(wl, fs->f[i].path,
						 &fs->fds[(size_t)r * fs->n + i]);
			if (ret)
				return ret;
		}
	return 0;
}

int fileset_thread_fd(const struct workload *wl, unsigned i)
{
	const struct fileset *fs = wl->files;

	return fs->fds[(size_t)(fs->rows > 1 ? i : 0) * fs->n];
}

/* --------------------------------------------------------------- the run */

struct fileset_thread {
	const struct fileset *fs;
	struct worker *w;
	const int *fds;		/* its row: a descriptor per file */
	uint32_t n;
	uint32_t cur;		/* the file of the last I/O drawn */
	uint32_t rr;		/* rr: the next file */
	int service;
	bool seq, contiguous;
	bool plain;		/* the stream is (gen/stream.h): its offset
				 * drawn here, as synth_next() draws it */
	bool uniform;		/* ... and uniform (stream_plain_uniform) */
	bool direct;		/* the stateless engine's reads and writes:
				 * bare system calls, as stateless_io() */
	bool failed;
	uint32_t fail_file;	/* the file of its failed I/O */
	struct prng rng;	/* the file choice's own draws */
	uint64_t *pos;		/* seq: each file's next slot (its cursor
				 * when contiguous) */
	uint32_t *unit_file;	/* async: each unit's file */
	struct file_count *count;
	ssize_t (*sync_io)(struct io_ctx *, int, uint64_t, size_t);
	int (*queue)(struct io_ctx *, struct io_unit *);
	int (*reap)(struct io_ctx *, unsigned, struct io_unit **);
};

static inline struct fileset_thread *of_stream(struct io_stream *s)
{
	return ((struct worker *)((char *)s - offsetof(struct worker, stream)))->files;
}

static inline struct fileset_thread *of_io(struct io_ctx *io)
{
	return ((struct worker *)((char *)io - offsetof(struct worker, io)))->files;
}

static inline uint32_t pick(struct fileset_thread *t)
{
	uint64_t rank;
	uint32_t f;

	switch (t->service) {
	case FSERV_RANDOM:
		return (uint32_t)prng_below(&t->rng, t->n);
	case FSERV_ZIPF:
		return (uint32_t)dist_next(&t->fs->dist, &t->rng, &rank);
	default:
		f = t->rr;
		t->rr = f + 1 == t->n ? 0 : f + 1;
		return f;
	}
}

/* The synthetic stream's I/O, in the file picked, at that file's position
 * when sequential; the thread's descriptor set to the file's.  A plain
 * stream's I/O is drawn here, as synth_next() would (its one kind and
 * size, the byte budget, the pattern's offset). */
static bool files_next(struct io_stream *s, struct io_req *r)
{
	struct fileset_thread *t = of_stream(s);
	uint32_t f;

	if (t->plain) {
		if (s->limited) {
			if (!s->budget)
				return false;
			s->budget = s->budget > s->len ? s->budget - s->len : 0;
		}
		f = pick(t);
		r->kind = s->kinds[0];
		r->len = s->len;
		r->span = 0;
		if (t->uniform) {
			r->off = pattern_uniform_next(&s->pat, &s->rng);
		} else if (t->seq) {
			s->pat.next = t->pos[f];
			r->off = pattern_next(&s->pat, &s->rng);
			t->pos[f] = s->pat.next;
		} else {
			r->off = pattern_next(&s->pat, &s->rng);
		}
		t->cur = f;
		t->w->io.fd = t->fds[f];
		return true;
	}
	f = pick(t);
	if (t->seq) {
		if (t->contiguous)
			s->cursor = t->pos[f];
		else
			s->pat.next = t->pos[f];
	}
	if (!stream_synth.next(s, r))
		return false;
	if (t->seq)
		t->pos[f] = t->contiguous ? s->cursor : s->pat.next;
	t->cur = f;
	t->w->io.fd = t->fds[f];
	return true;
}

static void files_reset_counts(struct io_stream *s)
{
	struct fileset_thread *t = of_stream(s);

	stream_synth.reset_counts(s);
	memset(t->count, 0, t->n * sizeof(*t->count));
}

static const struct stream_ops files_stream = {
	.name = "synthetic, many files",
	.next = files_next,
	.reset_counts = files_reset_counts,
};

static inline void count_io(struct file_count *c, int kind, uint64_t len)
{
	if (kind == IO_READ) {
		c->reads++;
		c->bytes_read += len;
	} else if (kind == IO_WRITE) {
		c->writes++;
		c->bytes_written += len;
	} else if (kind == IO_TRIM) {
		c->trims++;
		c->bytes_trimmed += len;
	}
}

/* The engine's own hooks, each completed I/O counted for its file. */
static ssize_t files_sync_io(struct io_ctx *io, int kind, uint64_t off,
			     size_t len)
{
	struct fileset_thread *t = of_io(io);
	ssize_t ret;

	if (t->direct && kind == IO_READ)
		ret = sys_pread(io->fd, io->buf, len, off);
	else if (t->direct && kind == IO_WRITE)
		ret = sys_pwrite(io->fd, io->wbuf, len, off);
	else
		ret = t->sync_io(io, kind, off, len);
	if (ret == (ssize_t)len)
		count_io(&t->count[t->cur], kind, len);
	else if (!t->failed) {
		t->failed = true;
		t->fail_file = t->cur;
	}
	return ret;
}

static int files_queue(struct io_ctx *io, struct io_unit *u)
{
	struct fileset_thread *t = of_io(io);

	t->unit_file[u->idx] = t->cur;
	return t->queue(io, u);
}

static int files_reap(struct io_ctx *io, unsigned min, struct io_unit **done)
{
	struct fileset_thread *t = of_io(io);
	int n = t->reap(io, min, done), i;

	for (i = 0; i < n; i++) {
		const struct io_unit *u = done[i];

		if (u->res == (int64_t)u->len)
			count_io(&t->count[t->unit_file[u->idx]], u->kind,
				 u->len);
		else if (u->res != -ECANCELED && !t->failed) {
			t->failed = true;
			t->fail_file = t->unit_file[u->idx];
		}
	}
	return n;
}

static int attach_thread(struct workload *wl, struct fileset *fs, unsigned i)
{
	struct fileset_thread *t = &fs->threads[i];
	struct worker *w = &wl->run.workers[i];
	const struct spec *s = &wl->spec;
	uint32_t f;

	t->fs = fs;
	t->w = w;
	t->n = fs->n;
	t->fds = fs->fds + (size_t)(fs->rows > 1 ? i : 0) * fs->n;
	t->service = fs->service;
	t->rr = (uint32_t)((uint64_t)i * fs->n / s->threads);
	t->seq = s->seq;
	t->contiguous = w->stream.contiguous;
	t->plain = w->stream.plain;
	t->uniform = w->stream.plain && stream_plain_uniform(&w->stream);
	/* stateless_io()'s reads and writes, unless each carries RWF_DSYNC */
	t->direct = fs->real == &engine_stateless && !w->io.rwf_dsync;
	/* the file choice's own stream of draws, apart from the offsets' */
	prng_seed(&t->rng, s->seed ^ 0x66696c6573ULL, i);
	t->count = calloc(fs->n, sizeof(*t->count));
	if (t->seq)
		t->pos = malloc(fs->n * sizeof(*t->pos));
	if (fs->real->flags & ENGINE_ASYNC)
		t->unit_file = calloc(s->qd, sizeof(*t->unit_file));
	if (!t->count || (t->seq && !t->pos) ||
	    ((fs->real->flags & ENGINE_ASYNC) && !t->unit_file))
		return -ENOMEM;
	for (f = 0; t->seq && f < fs->n; f++)	/* each file from the start
						 * the thread has in one */
		t->pos[f] = t->contiguous ? w->stream.cursor : w->stream.pat.next;
	t->cur = t->rr;
	t->sync_io = fs->real->sync_io;
	t->queue = fs->real->queue;
	t->reap = fs->real->reap;
	w->stream.ops = &files_stream;
	w->stream.plain = false;	/* every I/O through next() */
	w->io.fd = t->fds[t->cur];
	w->files = t;
	return 0;
}

int fileset_attach(struct workload *wl)
{
	struct fileset *fs = wl->files;
	unsigned i;

	fs->nthreads = (unsigned)wl->spec.threads;
	fs->threads = calloc(fs->nthreads, sizeof(*fs->threads));
	if (!fs->threads)
		goto out_nomem;
	fs->real = wl->run.eng;
	fs->wrap = *fs->real;
	if (fs->real->sync_io)
		fs->wrap.sync_io = files_sync_io;
	if (fs->real->queue) {
		fs->wrap.queue = files_queue;
		fs->wrap.reap = files_reap;
	}
	fs->wrap.queue_plain = NULL;	/* a unit at a time, each its file */
	for (i = 0; i < fs->nthreads; i++)
		if (attach_thread(wl, fs, i))
			goto out_nomem;
	wl->run.eng = &fs->wrap;
	return 0;
out_nomem:
	spec_error(&wl->spec, "no memory for the file tables of %u threads", fs->nthreads);
	return -ENOMEM;
}

/* A sequential run's passes over every file together, and the warning of
 * a run that wrapped, per file: the busiest file's passes. */
static void fix_passes(struct workload *wl, struct fileset *fs)
{
	struct seq_passes *p = &wl->result.passes;
	const struct spec *s = &wl->spec;
	uint64_t busiest = 0, bytes = 0, per;
	unsigned i, top = 0, k;
	double count;
	char size[32];

	if (!p->known)
		return;
	p->count /= fs->n;
	p->ios *= fs->n;
	p->bytes *= fs->n;
	for (i = 0; i < fs->n; i++) {
		const struct file_count *c = &fs->sum[i];
		uint64_t v = p->ios ? c->reads + c->writes + c->trims :
			     c->bytes_read + c->bytes_written + c->bytes_trimmed;

		if (v > busiest) {
			busiest = v;
			top = i;
		}
		bytes += v;
	}
	per = p->ios ? p->ios / fs->n : p->bytes / fs->n;
	count = per ? (double)busiest / (double)per : 0;
	k = wl->result.wrap_warning < 0 ? 0 : (unsigned)wl->result.wrap_warning;
	if (wl->result.wrap_warning < 0 && count <= 1)
		return;
	if (wl->result.wrap_warning >= 0) {
		/* said over one region: said again per file, or not at all */
		free(wl->result.warnings[k]);
		memmove(&wl->result.warnings[k], &wl->result.warnings[k + 1],
			(size_t)(wl->result.nwarn - (int)k - 1) *
			sizeof(wl->result.warnings[0]));
		wl->result.nwarn--;
		if (wl->result.few_ios_warning > (int)k)
			wl->result.few_ios_warning--;
		wl->result.wrap_warning = -1;
	}
	if (count <= 1)
		return;
	k = (unsigned)wl->result.nwarn;
	workload_warn(wl, "the sequential run wrapped: its busiest file, %s, was gone over %.2f times (%llu %s, %llu a pass of its %s region), so every pass after the first went to blocks already used, which a cache (the drive's, or the page cache with -p) may still hold; -d 100%% with --file-service rr makes one pass over every file",
		      fs->f[top].path, count, (unsigned long long)busiest,
		      p->ios ? "I/Os" : "bytes", (unsigned long long)per,
		      fmt_size_human(size, sizeof(size), s->region_len));
	if (wl->result.nwarn > (int)k)
		wl->result.wrap_warning = (int)k;
}

/* The file of a failed I/O, after the run's message (which names the
 * first file, the workload's target). */
static void name_failed_file(struct workload *wl, struct fileset *fs)
{
	size_t len = strlen(wl->result.errmsg);
	unsigned i;

	if (!wl->result.error)
		return;
	for (i = 0; i < fs->nthreads; i++) {
		const struct fileset_thread *t = &fs->threads[i];

		if (!t->failed || !wl->run.workers[i].error)
			continue;
		snprintf(wl->result.errmsg + len, sizeof(wl->result.errmsg) - len,
			 " (the I/O was to %.1000s, file %u of %u)",
			 fs->f[t->fail_file].path, t->fail_file + 1, fs->n);
		return;
	}
}

void fileset_collect(struct workload *wl)
{
	struct fileset *fs = wl->files;
	unsigned i, k;

	if (!fs || !fs->threads)
		return;
	if (!fs->sum)
		fs->sum = calloc(fs->n, sizeof(*fs->sum));
	if (!fs->sum) {
		workload_warn(wl, "no memory for the counts of the %u files", fs->n);
		return;
	}
	memset(fs->sum, 0, fs->n * sizeof(*fs->sum));
	for (k = 0; k < fs->nthreads; k++) {
		const struct file_count *c = fs->threads[k].count;

		for (i = 0; c && i < fs->n; i++) {
			fs->sum[i].reads += c[i].reads;
			fs->sum[i].writes += c[i].writes;
			fs->sum[i].trims += c[i].trims;
			fs->sum[i].bytes_read += c[i].bytes_read;
			fs->sum[i].bytes_written += c[i].bytes_written;
			fs->sum[i].bytes_trimmed += c[i].bytes_trimmed;
		}
	}
	fs->ios_min = UINT64_MAX;
	fs->ios_max = 0;
	for (i = 0; i < fs->n; i++) {
		uint64_t v = fs->sum[i].reads + fs->sum[i].writes +
			     fs->sum[i].trims;

		if (v < fs->ios_min)
			fs->ios_min = v;
		if (v > fs->ios_max)
			fs->ios_max = v;
	}
	fs->counted = true;
	fix_passes(wl, fs);
	name_failed_file(wl, fs);
}

void fileset_release_io(struct workload *wl)
{
	struct fileset *fs = wl->files;
	unsigned i;

	if (!fs)
		return;
	for (i = 0; fs->threads && i < fs->nthreads; i++) {
		struct fileset_thread *t = &fs->threads[i];

		free(t->count);
		free(t->pos);
		free(t->unit_file);
		if (wl->run.workers && i < wl->spec.threads) {
			wl->run.workers[i].files = NULL;
			wl->run.workers[i].io.fd = -1;
		}
	}
	free(fs->threads);
	fs->threads = NULL;
	fs->nthreads = 0;
	if (fs->real && wl->run.eng == &fs->wrap)
		wl->run.eng = fs->real;
	for (i = 0; fs->fds && i < fs->rows * fs->n; i++)
		if (fs->fds[i] >= 0)
			close(fs->fds[i]);
	free(fs->fds);
	fs->fds = NULL;
}

void fileset_free(struct workload *wl)
{
	struct fileset *fs = wl->files;
	unsigned i;

	if (!fs)
		return;
	fileset_release_io(wl);
	for (i = 0; fs->f && i < fs->n; i++)
		free(fs->f[i].path);
	free(fs->f);
	free(fs->sum);
	memory_give_held(&fs->held, fs->held);
	free(fs);
	wl->files = NULL;
}
