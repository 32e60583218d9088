/* devstat.c - see devstat.h. */
#include "target/devstat.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "target/mountinfo.h"
#include "target/target.h"

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
	d->dev = dev;
	base = strrchr(dir, '/');
	snprintf(d->name, sizeof(d->name), "%.63s", base ? base + 1 : dir);
	snprintf(d->stat, sizeof(d->stat), "%.40s/stat", link);
	if (access(d->stat, R_OK)) {
		snprintf(d->why, sizeof(d->why), "%s has no readable %s: %s",
			 d->name, d->stat, strerror(errno));
		d->stat[0] = '\0';
	}
}

/* The stat file's fields (stat.rst): per kind requests, merges, sectors
 * and ticks, with in_flight, io_ticks and time_in_queue after the writes'
 * and the flushes' two (requests, ticks) last.  Older kernels give 11
 * (no discards) or 15 (no flushes) fields. */
struct raw {
	uint64_t f[17];
	unsigned n;
};

static int read_counters(const struct dev_reads *d, struct raw *r)
{
	FILE *f = fopen(d->stat, "re");

	if (!f)
		return -errno;
	for (r->n = 0; r->n < 17; r->n++)
		if (fscanf(f, "%" SCNu64, &r->f[r->n]) != 1)
			break;
	fclose(f);
	return r->n >= 11 ? 0 : -EIO;
}

static void failed(struct dev_reads *d, int e)
{
	d->known = false;
	snprintf(d->why, sizeof(d->why), "cannot read %s: %s", d->stat,
		 strerror(-e));
	d->stat[0] = '\0';
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The first reading is kept in the counts themselves until the second. */
static void store(struct dev_reads *d, const struct raw *r)
{
	static const int base[DEV_KINDS] = { 0, 4, 11, 15 };
	int k;

	d->nfields = r->n;
	for (k = 0; k < DEV_KINDS; k++) {
		d->has[k] = (unsigned)base[k] + 2 <= r->n;
		if (!d->has[k])
			continue;
		d->ios[k] = r->f[base[k]];
		d->merges[k] = k == DEV_FLUSH ? 0 : r->f[base[k] + 1];
		d->nbytes[k] = k == DEV_FLUSH ? 0 : r->f[base[k] + 2];
	}
	d->io_ticks_ms = r->f[9];
	d->queue_ms = r->f[10];
}

void devstat_begin(struct dev_reads *d)
{
	struct raw r;
	int e;

	d->known = false;
	if (!d->stat[0])
		return;
	e = read_counters(d, &r);
	if (e) {
		failed(d, e);
		return;
	}
	d->t0_ns = mono_ns();
	store(d, &r);
}

void devstat_end(struct dev_reads *d)
{
	struct dev_reads first = *d;
	struct raw r;
	int e, k;

	if (!d->stat[0])
		return;
	e = read_counters(d, &r);
	if (e) {
		failed(d, e);
		return;
	}
	d->elapsed_ns = mono_ns() - first.t0_ns;
	store(d, &r);
	for (k = 0; k < DEV_KINDS; k++) {
		d->ios[k] -= first.ios[k];
		d->merges[k] -= first.merges[k];
		d->nbytes[k] = (d->nbytes[k] - first.nbytes[k]) * 512;
	}
	d->io_ticks_ms -= first.io_ticks_ms;
	d->queue_ms -= first.queue_ms;
	d->reads = d->ios[DEV_READ];
	d->bytes = d->nbytes[DEV_READ];
	d->known = true;
}

/* Is dev (or, for a whole disk, a partition of it: its I/O is the disk's
 * too) the source of a mount? */
static bool mounted_below(const struct dev_reads *d, char *what, size_t len)
{
	char dir[96], path[400], fstype[32] = "", mnt[256] = "";
	struct dirent *e;
	unsigned ma, mi;
	DIR *dp;
	FILE *f;
	bool found = false;

	if (mountinfo_find(d->dev, mnt, sizeof(mnt), fstype, sizeof(fstype))) {
		snprintf(what, len, "%.63s is mounted on %.100s (%.31s)", d->name, mnt,
			 fstype);
		return true;
	}
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(d->dev),
		 minor(d->dev));
	dp = opendir(dir);
	if (!dp)
		return false;
	while (!found && (e = readdir(dp))) {
		if (strncmp(e->d_name, d->name, strlen(d->name)))
			continue;	/* partitions are named after the disk */
		snprintf(path, sizeof(path), "%s/%.200s/dev", dir, e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fscanf(f, "%u:%u", &ma, &mi) == 2 &&
		    mountinfo_find(makedev(ma, mi), mnt, sizeof(mnt), fstype,
				   sizeof(fstype))) {
			snprintf(what, len, "its partition %.60s is mounted on %.100s (%.31s)",
				 e->d_name, mnt, fstype);
			found = true;
		}
		fclose(f);
	}
	closedir(dp);
	return found;
}

/* The first entry of its sysfs holders directory (LVM, RAID, dm). */
static bool held(const struct dev_reads *d, char *what, size_t len)
{
	char dir[96];
	struct dirent *e;
	DIR *dp;
	bool found = false;

	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u/holders",
		 major(d->dev), minor(d->dev));
	dp = opendir(dir);
	if (!dp)
		return false;
	while (!found && (e = readdir(dp)))
		if (e->d_name[0] != '.') {
			snprintf(what, len, "%.63s is held by %.60s", d->name,
				 e->d_name);
			found = true;
		}
	closedir(dp);
	return found;
}

void devstat_check_shared(struct dev_reads *d)
{
	char what[300];

	if (!d->name[0] || d->shared)
		return;
	if (mounted_below(d, what, sizeof(what)) ||
	    held(d, what, sizeof(what))) {
		d->shared = true;
		snprintf(d->shared_why, sizeof(d->shared_why), "%s", what);
	}
}

void devstat_judge(struct dev_reads *d, const char *file_fs,
		   const uint64_t *direct)
{
	static const char *const kind[DEV_KINDS] = { "read", "written",
						      "discarded", "" };
	int k;

	if (!d->known)
		return;
	if (file_fs) {
		d->shared = true;
		snprintf(d->shared_why, sizeof(d->shared_why),
			 "the target is a file on %.31s, whose journal, metadata and other files use %.63s too",
			 file_fs[0] ? file_fs : "a file system", d->name);
		return;
	}
	devstat_check_shared(d);
	for (k = 0; k < DEV_FLUSH && direct && !d->shared; k++)
		if (d->has[k] && d->nbytes[k] > direct[k]) {
			d->shared = true;
			snprintf(d->shared_why, sizeof(d->shared_why),
				 "%.63s %s %llu bytes, more than the run's O_DIRECT requests (%llu)",
				 d->name, kind[k],
				 (unsigned long long)d->nbytes[k],
				 (unsigned long long)direct[k]);
		}
}

double devstat_util_pct(const struct dev_reads *d)
{
	return d->known && d->elapsed_ns ?
		       (double)d->io_ticks_ms * 1e8 / (double)d->elapsed_ns :
		       NAN;
}

double devstat_queue_depth(const struct dev_reads *d)
{
	return d->known && d->elapsed_ns ?
		       (double)d->queue_ms * 1e6 / (double)d->elapsed_ns :
		       NAN;
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
