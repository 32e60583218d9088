/* fileset_plan.c - a workload over many files before it runs (see
 * fileset.h): the plan (which files are created, which have holes to
 * fill, which are sparse), the refusal to write to a file in use or
 * read-only, and the words that name the set: its label, the line of the
 * confirmation's question, the file service's text.
 */
#include "core/fileset.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/units.h"
#include "core/workload.h"
#include "target/inuse.h"

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
