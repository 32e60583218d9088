/* devstat.c - see devstat.h. */
#include "devstat.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "mountinfo.h"
#include "target.h"

/* A filesystem without a block device of its own has an anonymous st_dev
 * (major 0); name its type, which is what the user knows it by. */
static void no_device(const struct target *t, dev_t dev, struct dev_reads *d)
{
	char fstype[32] = "";

	mountinfo_find(dev, NULL, 0, fstype, sizeof(fstype));
	snprintf(d->why, sizeof(d->why), "%s is on %s%s, which has no block device of its own (device %u:%u), so no device counters",
		 t->kind == TARGET_FILE ? "the file" : "the target",
		 fstype[0] ? fstype : "a filesystem",
		 fstype[0] ? "" : " not in /proc/self/mountinfo",
		 major(dev), minor(dev));
}

void devstat_locate(const struct target *t, struct dev_reads *d)
{
	char link[64], dir[PATH_MAX];
	struct stat st;
	dev_t dev = t->rdev;
	ssize_t len;
	const char *base;

	memset(d, 0, sizeof(*d));
	if (t->kind == TARGET_FILE) {
		if (stat(t->path, &st)) {
			snprintf(d->why, sizeof(d->why), "cannot stat %.150s: %s",
				 t->path, strerror(errno));
			return;
		}
		dev = st.st_dev;
	}
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	len = readlink(link, dir, sizeof(dir) - 1);
	if (len < 0) {
		if (!major(dev) || errno == ENOENT)
			no_device(t, dev, d);
		else
			snprintf(d->why, sizeof(d->why), "cannot read %s: %s",
				 link, strerror(errno));
		return;
	}
	dir[len] = '\0';
	base = strrchr(dir, '/');
	snprintf(d->name, sizeof(d->name), "%.63s", base ? base + 1 : dir);
	snprintf(d->stat, sizeof(d->stat), "%.40s/stat", link);
	if (access(d->stat, R_OK)) {
		snprintf(d->why, sizeof(d->why), "%s has no readable %s: %s",
			 d->name, d->stat, strerror(errno));
		d->stat[0] = '\0';
	}
}

/* Reads completed and sectors read: fields 1 and 3 of the stat file. */
static int read_counters(const struct dev_reads *d, uint64_t *reads,
			 uint64_t *sectors)
{
	FILE *f = fopen(d->stat, "re");
	uint64_t merged;
	int n;

	if (!f)
		return -errno;
	n = fscanf(f, "%" SCNu64 " %" SCNu64 " %" SCNu64, reads, &merged,
		   sectors);
	fclose(f);
	return n == 3 ? 0 : -EIO;
}

static void failed(struct dev_reads *d, int e)
{
	d->known = false;
	snprintf(d->why, sizeof(d->why), "cannot read %s: %s", d->stat,
		 strerror(-e));
	d->stat[0] = '\0';
}

void devstat_begin(struct dev_reads *d)
{
	int e;

	d->known = false;
	if (!d->stat[0])
		return;
	e = read_counters(d, &d->reads, &d->bytes);
	if (e)
		failed(d, e);
}

void devstat_end(struct dev_reads *d)
{
	uint64_t reads, sectors;
	int e;

	if (!d->stat[0])
		return;
	e = read_counters(d, &reads, &sectors);
	if (e) {
		failed(d, e);
		return;
	}
	d->reads = reads - d->reads;
	d->bytes = (sectors - d->bytes) * 512;
	d->known = true;
}

void devstat_sum(struct dev_reads *out, const struct dev_reads *const *in,
		 unsigned n)
{
	unsigned i, j;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		if (!in[i]->known) {
			snprintf(out->why, sizeof(out->why), "%s", in[i]->why);
			out->known = false;
			return;
		}
		for (j = 0; j < i && strcmp(in[j]->name, in[i]->name); j++)
			;
		if (j < i)
			continue;	/* that device is counted already */
		out->reads += in[i]->reads;
		out->bytes += in[i]->bytes;
		if (strlen(out->name) + strlen(in[i]->name) + 2 <
		    sizeof(out->name))
			snprintf(out->name + strlen(out->name),
				 sizeof(out->name) - strlen(out->name), "%s%s",
				 i ? "," : "", in[i]->name);
		out->known = true;
	}
}

double devstat_per(const struct dev_reads *d, uint64_t ios)
{
	return d->known && ios ? (double)d->reads / (double)ios : NAN;
}
