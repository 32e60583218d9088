/* fileset_check.c - what is checked of a workload over many files (see
 * fileset.h) before any file is looked at: the options that need
 * --directory or a list, what cannot run over many files yet (the mmap
 * engine, --verify, --append, flushes, --cache), and --directory itself
 * (it exists, is a directory, on a real file system).
 */
#include "core/fileset_priv.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/options.h"
#include "core/outpath.h"
#include "core/units.h"
#include "target/mountinfo.h"

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
	if (fileset_parse_service(s->file_service, &service, &theta, err,
				  sizeof(err))) {
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

/* --directory: it exists, is a directory, on a real file system. */
int fileset_check_dir(const struct spec *s)
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
	/* outpath.c's pseudo file systems, and devtmpfs (tmpfs to
	 * statfs(2): known by its mount), where device nodes live */
	snprintf(probe, sizeof(probe), "%s/x", s->directory);
	if (outpath_pseudo_fs(s->directory))
		snprintf(fs, sizeof(fs), "%s", outpath_pseudo_fs(s->directory));
	else if (!mountinfo_dir_fs(probe, fs, sizeof(fs)) ||
		 strcmp(fs, "devtmpfs"))
		fs[0] = '\0';
	if (fs[0]) {
		spec_error(s, "--directory %s: it is on %s, a pseudo file system whose files are the kernel's settings and state, not data; give a directory on a real file system",
			   s->directory, fs);
		return -EINVAL;
	}
	return 0;
}
