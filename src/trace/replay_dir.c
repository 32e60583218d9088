/* replay_dir.c - see replay_dir.h. */
#include "trace/replay_dir.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/options.h"

#define MAX_UNMAPPED_SHOWN 3

bool replay_dir_wanted(const char *target)
{
	struct stat st;
	size_t n = strlen(target);

	if (!stat(target, &st))
		return S_ISDIR(st.st_mode);
	return n && target[n - 1] == '/';
}

/* The last component of a recorded path, *len its length, or NULL when
 * no file can be named after it. */
static const char *last_component(const char *path, size_t *len)
{
	const char *s = strrchr(path, '/');

	s = s ? s + 1 : path;
	*len = strlen(s);
	if (!*len || !strcmp(s, ".") || !strcmp(s, ".."))
		return NULL;
	return s;
}

static bool taken(const struct replay_dir *d, uint32_t n, const char *path)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(d->paths[i], path))
			return true;
	return false;
}

/* DIR/name for file i, numbered when taken: 0, -ENAMETOOLONG, or
 * -ENOENT when the recorded path has no usable last component. */
static int name_file(struct replay_dir *d, uint32_t i, const char *recorded)
{
	char path[PATH_MAX];
	const char *base = NULL;
	size_t len = 0, dl = strlen(d->dir);
	unsigned k;
	int n;

	base = last_component(recorded, &len);
	if (!base)
		return -ENOENT;
	for (k = 1;; k++) {
		char num[16] = "";

		if (k > 1)
			snprintf(num, sizeof(num), ".%u", k);
		if (len + strlen(num) > NAME_MAX)
			return -ENAMETOOLONG;
		n = snprintf(path, sizeof(path), "%s%s%s%s", d->dir,
			     dl && d->dir[dl - 1] == '/' ? "" : "/", base, num);
		if (n < 0 || (size_t)n >= sizeof(path))
			return -ENAMETOOLONG;
		if (!taken(d, i, path))
			break;
	}
	d->paths[i] = strdup(path);
	return d->paths[i] ? 0 : -ENOMEM;
}

int replay_dir_name(struct replay_dir *d, const char *dir,
		    const struct stream_trace *t, const char *log)
{
	const char *why = NULL;
	struct stat st;
	uint32_t i, bad = 0;
	int ret;

	memset(d, 0, sizeof(*d));
	d->dir = dir;
	d->dir_fd = -1;
	if (stat(dir, &st))
		why = errno == ENOENT ? "no such directory" : strerror(errno);
	else if (!S_ISDIR(st.st_mode))
		why = "not a directory";
	if (why) {
		fprintf(stderr, "rebench: %s: %s; a replay onto a directory puts every recorded file in a file of its own there: create it first (mkdir -p %s), or give a file or a block device as TARGET\n",
			dir, why, dir);
		return -ENOENT;
	}
	d->nfiles = t->nfiles;
	d->paths = calloc(t->nfiles, sizeof(*d->paths));
	d->wl = calloc(t->nfiles, sizeof(*d->wl));
	if (!d->paths || !d->wl)
		goto out_nomem;
	for (i = 0; i < t->nfiles; i++) {
		ret = name_file(d, i, t->files[i].path);
		if (ret == -ENOMEM)
			goto out_nomem;
		if (!ret)
			continue;
		if (bad++ < MAX_UNMAPPED_SHOWN)
			fprintf(stderr, "rebench: %s: the recorded file %s is unmapped: %s\n",
				log, t->files[i].path,
				ret == -ENOENT ?
				"its path has no last component to name a file after" :
				"its name is too long for a file in the directory");
	}
	if (!bad)
		return 0;
	fprintf(stderr, "rebench: %" PRIu32 " of the %" PRIu32 " recorded files have no name in %s, so nothing was replayed; give a file or a block device as TARGET instead, where every recorded file gets a slot\n",
		bad, t->nfiles, dir);
	return -EINVAL;
out_nomem:
	fprintf(stderr, "rebench: out of memory naming the files of %s\n", log);
	return -ENOMEM;
}

int replay_dir_check(struct replay_dir *d, const struct stream_trace *t,
		     const char *log)
{
	struct stat st;
	uint32_t i;

	d->main = 0;
	d->nnew = 0;
	d->new_bytes = 0;
	d->first_new = NULL;
	for (i = 0; i < d->nfiles; i++) {
		uint64_t need = t->files[i].extent;

		if (t->files[i].extent > t->files[d->main].extent)
			d->main = i;
		if (stat(d->paths[i], &st)) {
			if (errno == ENOENT) {
				/* created as long as need */
				if (!d->nnew++)
					d->first_new = d->paths[i];
				if (!trace_add(d->new_bytes, need, UINT64_MAX,
					       &d->new_bytes))
					d->new_bytes = UINT64_MAX;
				continue;
			}
			fprintf(stderr, "rebench: %s (for the recorded %s): %s\n",
				d->paths[i], t->files[i].path, strerror(errno));
			return -EINVAL;
		}
		if (!S_ISREG(st.st_mode)) {
			fprintf(stderr, "rebench: %s (for the recorded %s of %s) is not a regular file; a replay onto a directory reads and writes regular files only: remove it, or replay into another directory\n",
				d->paths[i], t->files[i].path, log);
			return -EINVAL;
		}
		if ((uint64_t)st.st_size < need) {
			fprintf(stderr, "rebench: %s has %" PRIu64 " bytes, but the recorded %s of %s reaches byte %" PRIu64 "; remove it (the replay then creates it that long), lengthen it, or replay into another directory\n",
				d->paths[i], (uint64_t)st.st_size,
				t->files[i].path, log, need);
			return -EINVAL;
		}
	}
	return 0;
}

/* A workload for file i that opens it as the replay does: one I/O of its
 * smallest size (min), which never runs; a write when the log writes it,
 * so that it is confirmed and checked as written. */
static int add_file(struct replay_dir *d, const struct stream_trace *t,
		    struct run_ctx *ctx, char **extra, int nextra, uint32_t i,
		    uint32_t min, bool writes)
{
	struct parse_ctx pctx = { 0, "command line" };
	struct run_opts run = { 0 };
	struct spec s;
	int ret;

	if (ctx->n == MAX_WORKLOADS) {
		fprintf(stderr, "rebench: a replay onto a directory prepares a workload per recorded file and takes at most %d files; the log has %" PRIu32 ": give a file or a block device as TARGET\n",
			MAX_WORKLOADS, d->nfiles);
		return -E2BIG;
	}
	spec_defaults(&s);
	ret = spec_set(&s, "operation", writes ? "write" : "read", &pctx) ||
	      spec_set(&s, "workload", "seq", &pctx) ||
	      spec_set_count(&s, "block-size", min, "", &pctx) ||
	      spec_set_count(&s, "length", t->files[i].extent, "", &pctx) ||
	      spec_set_count(&s, "duration", min, "b", &pctx) ||
	      spec_set_flag(&s, "buffered", &pctx) ||
	      /* no engine state to set up */
	      spec_set(&s, "type", "stateless", &pctx) ||
	      options_parse(nextra < 8 ? nextra : 8, extra, &s, &run, &pctx) ||
	      spec_set_target(&s, d->paths[i]) ? -EINVAL :
	      add_workload(ctx, &s);
	spec_free(&s);
	if (!ret)
		d->wl[i] = ctx->n - 1;
	return ret;
}

int replay_dir_add(struct replay_dir *d, const struct stream_trace *t,
		   struct run_ctx *ctx, char **extra, int nextra)
{
	uint32_t *min = malloc(d->nfiles * sizeof(*min)), i;
	bool *writes = calloc(d->nfiles, sizeof(*writes));
	size_t k;
	int ret = 0;

	if (!min || !writes) {
		fprintf(stderr, "rebench: out of memory preparing the files of %s\n",
			d->dir);
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < d->nfiles; i++)
		min[i] = UINT32_MAX;
	for (k = 0; k < t->n; k++) {
		const struct trace_op *o = &t->ops[k];

		if (IO_IS_FLUSH(o->kind))
			continue;
		if (o->len < min[o->file])
			min[o->file] = o->len;
		writes[o->file] |= o->kind == IO_WRITE;
	}
	d->wl[d->main] = 0;
	for (i = 0; i < d->nfiles && !ret; i++)
		if (i != d->main)
			ret = add_file(d, t, ctx, extra, nextra, i, min[i],
				       writes[i]);
out:
	free(min);
	free(writes);
	return ret;
}

/* Row w of the table, for files other than the main one: the prepared
 * workload's descriptor, or (own) one opened here with the same flags. */
static int fill_row(struct replay_dir *d, struct run_ctx *ctx, uint32_t w,
		    bool own)
{
	int *row = d->fds + (size_t)w * (d->nfiles + 1);
	uint32_t i;

	row[d->nfiles] = d->dir_fd;
	for (i = 0; i < d->nfiles; i++) {
		int fd = ctx->wls[d->wl[i]].run.shared_fd, fl;

		if (i == d->main)
			continue;
		row[i] = fd;
		if (!own)
			continue;
		fl = fcntl(fd, F_GETFL);
		row[i] = fl < 0 ? -1 : open(d->paths[i], fl | O_CLOEXEC);
		if (row[i] < 0) {
			fprintf(stderr, "rebench: cannot open %s for worker %" PRIu32 ": %s%s\n",
				d->paths[i], w, strerror(errno),
				errno == EMFILE ? "; the stateful engine needs a descriptor per worker and file: raise the limit (ulimit -n), or use -t stateless, whose workers share one per file" : "");
			return -errno;
		}
	}
	return 0;
}

int replay_dir_attach(struct replay_dir *d, struct run_ctx *ctx)
{
	struct workload *wl = &ctx->wls[0];
	size_t k, cells;
	uint32_t w;
	int i, ret;

	for (k = 1; k < ctx->n; k++)	/* "created ...": said with the run */
		for (i = 0; i < ctx->wls[k].result.nwarn; i++)
			workload_warn(wl, "%s", ctx->wls[k].result.warnings[i]);
	d->dir_fd = open(d->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->dir_fd < 0) {
		fprintf(stderr, "rebench: cannot open the directory %s: %s\n",
			d->dir, strerror(errno));
		return -errno;
	}
	d->nworkers = (uint32_t)wl->spec.threads;
	cells = (size_t)d->nworkers * (d->nfiles + 1);
	d->fds = malloc(cells * sizeof(*d->fds));
	if (!d->fds) {
		fprintf(stderr, "rebench: out of memory for the descriptor tables\n");
		return -ENOMEM;
	}
	for (k = 0; k < cells; k++)
		d->fds[k] = -1;	/* nothing to close yet */
	d->own_fds = (wl->run.eng->flags & ENGINE_FILE_POS) && d->nworkers > 1;
	for (w = 0; w < d->nworkers; w++) {
		int *row = d->fds + (size_t)w * (d->nfiles + 1);

		row[d->main] = wl->run.workers[w].io.fd;
		ret = fill_row(d, ctx, w, d->own_fds && w > 0);
		if (ret)
			return ret;
		stream_trace_use_files(&wl->run.workers[w].stream,
				       &wl->run.workers[w].io.fd, row, d->nfiles);
	}
	return 0;
}

void replay_dir_detach(struct replay_dir *d, struct workload *wl)
{
	uint32_t w;

	for (w = 0; d->fds && w < d->nworkers; w++)
		wl->run.workers[w].io.fd = d->fds[(size_t)w * (d->nfiles + 1) +
					      d->main];
}

void replay_dir_free(struct replay_dir *d)
{
	uint32_t i, w;

	for (w = 1; d->own_fds && d->fds && w < d->nworkers; w++)
		for (i = 0; i < d->nfiles; i++) {
			int fd = d->fds[(size_t)w * (d->nfiles + 1) + i];

			if (i != d->main && fd >= 0)
				close(fd);
		}
	if (d->dir_fd >= 0)
		close(d->dir_fd);
	for (i = 0; d->paths && i < d->nfiles; i++)
		free(d->paths[i]);
	free(d->paths);
	free(d->wl);
	free(d->fds);
	memset(d, 0, sizeof(*d));
	d->dir_fd = -1;
}
