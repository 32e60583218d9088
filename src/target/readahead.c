/* readahead.c - see readahead.h. */
#include "target/readahead.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/spec_names.h"
#include "core/workload.h"

#define RA_PATH_MAX 128

int fadvise_check(const struct spec *s)
{
	if (s->fadvise == FADVISE_NONE || s->paged)
		return 0;
	spec_error(s, "--fadvise %s: the advice is for the page cache, which O_DIRECT (rebench's default) bypasses, so it would change nothing; add -p for page cache I/O, or drop --fadvise",
		   opt_values_name(fadvise_values, s->fadvise));
	return -EINVAL;
}

static int fadvise_advice(int hint)
{
	switch (hint) {
	case FADVISE_SEQUENTIAL:
		return POSIX_FADV_SEQUENTIAL;
	case FADVISE_RANDOM:
		return POSIX_FADV_RANDOM;
	case FADVISE_NOREUSE:
		return POSIX_FADV_NOREUSE;
	default:
		return POSIX_FADV_NORMAL;
	}
}

int fadvise_apply(const struct workload *wl, int fd)
{
	const struct spec *s = &wl->spec;
	int e;

	if (s->fadvise == FADVISE_NONE)
		return 0;
	e = posix_fadvise(fd, (off_t)s->region_start, (off_t)s->region_len,
			  fadvise_advice(s->fadvise));
	if (!e)
		return 0;
	spec_error(s, "--fadvise %s: posix_fadvise on %s failed: %s",
		   opt_values_name(fadvise_values, s->fadvise),
		   wl->tgt.path, strerror(e));
	return -e;
}

static void ra_path(const struct workload *wl, char *buf, size_t len)
{
	snprintf(buf, len, "/sys/block/%s/queue/read_ahead_kb", wl->tgt.disk);
}

int readahead_check(const struct workload *wls, size_t n)
{
	char path[RA_PATH_MAX];
	size_t k, i;

	for (k = 0; k < n; k++) {
		const struct workload *wl = &wls[k];
		const struct spec *s = &wl->spec;

		if (s->readahead_kb == READAHEAD_KEEP)
			continue;
		if (!wl->tgt.disk[0]) {
			/* the probe left the reason in every sysfs field */
			spec_error(s, "--readahead %" PRIu64 ": cannot find the disk under %s (%s), so there is no read_ahead_kb to set; put the file on a filesystem on a block device, or drop --readahead",
				   s->readahead_kb, wl->tgt.path,
				   wl->tgt.unknown[TF_ROTATIONAL]);
			return -EINVAL;
		}
		ra_path(wl, path, sizeof(path));
		if (access(path, F_OK)) {
			spec_error(s, "--readahead %" PRIu64 ": %s, the disk of %s, has no %s (%s); it has no read-ahead to set: drop --readahead",
				   s->readahead_kb, wl->tgt.disk, wl->tgt.path,
				   path, strerror(errno));
			return -EINVAL;
		}
		for (i = 0; i < k; i++) {
			const struct spec *o = &wls[i].spec;

			if (o->readahead_kb == READAHEAD_KEEP ||
			    o->readahead_kb == s->readahead_kb ||
			    strcmp(wls[i].tgt.disk, wl->tgt.disk))
				continue;
			spec_error(s, "--readahead %" PRIu64 ": %s line %u (%s) sets %" PRIu64 " on the same disk %s, which has one read_ahead_kb for all of them; give both the same value",
				   s->readahead_kb, o->file ? o->file : "stdin",
				   o->line, wls[i].tgt.path, o->readahead_kb,
				   wl->tgt.disk);
			return -EINVAL;
		}
	}
	return 0;
}

/* The disks this process changed and their values before; a few, since
 * workloads on one disk share one entry. */
static struct {
	char path[RA_PATH_MAX];
	char old[32];
} changed[MAX_WORKLOADS];
static size_t nchanged;

static int read_value(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int e = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		e = -EIO;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return e;
}

static bool was_changed(const char *path)
{
	size_t i;

	for (i = 0; i < nchanged; i++)
		if (!strcmp(changed[i].path, path))
			return true;
	return false;
}

int readahead_apply(const struct workload *wls, size_t n)
{
	static bool at_exit;
	char path[RA_PATH_MAX], val[32];
	size_t k;
	int e;

	if (!at_exit && !atexit(readahead_restore))
		at_exit = true;	/* an exit() anywhere still restores */
	for (k = 0; k < n; k++) {
		const struct workload *wl = &wls[k];
		const struct spec *s = &wl->spec;

		if (s->readahead_kb == READAHEAD_KEEP)
			continue;
		ra_path(wl, path, sizeof(path));
		if (!was_changed(path)) {
			e = read_value(path, changed[nchanged].old,
				       sizeof(changed[nchanged].old));
			if (e) {
				spec_error(s, "--readahead: cannot read %s: %s",
					   path, strerror(-e));
				return e;
			}
			snprintf(changed[nchanged].path, RA_PATH_MAX, "%s", path);
			nchanged++;
		}
		snprintf(val, sizeof(val), "%" PRIu64, s->readahead_kb);
		e = write_value(path, val);
		if (e) {
			spec_error(s, "--readahead %s: cannot write %s: %s%s",
				   val, path, strerror(-e),
				   e == -EACCES || e == -EPERM ? " (setting a disk's read-ahead needs root: run with sudo, or drop --readahead)" : "");
			return e;
		}
	}
	return 0;
}

void readahead_restore(void)
{
	size_t i;
	int e;

	for (i = 0; i < nchanged; i++) {
		e = write_value(changed[i].path, changed[i].old);
		if (e)
			fprintf(stderr, "rebench: cannot restore %s to %s: %s; set it back by hand: echo %s > %s\n",
				changed[i].path, changed[i].old, strerror(-e),
				changed[i].old, changed[i].path);
	}
	nchanged = 0;
}
