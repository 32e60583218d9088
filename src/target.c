/* target.c - geometry from block ioctls and sysfs; in-use detection from
 * mountinfo, /proc/swaps and sysfs holders.
 */
#include "target.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

const char *target_kind_name(enum target_kind k)
{
	switch (k) {
	case TARGET_DISK: return "block device";
	case TARGET_PARTITION: return "partition";
	default: return "file";
	}
}

/* First line of a sysfs file, without the newline; false if unreadable. */
static bool read_line(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

static bool read_u64(const char *dir, const char *name, uint64_t *v)
{
	char buf[64];

	if (!read_line(dir, name, buf, sizeof(buf)))
		return false;
	*v = strtoull(buf, NULL, 10);
	return true;
}

/* sysfs directory of a device number, resolved: .../block/loop0/loop0p1 */
static bool sysfs_dir(dev_t dev, char *out, size_t len)
{
	char link[64];

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	if (!realpath(link, out))
		return false;
	(void)len;
	return true;
}

/* Queue attributes live on the whole disk. */
static void probe_queue(struct target *t, const char *disk_dir)
{
	char q[PATH_MAX], buf[128], *a, *b;
	uint64_t v;

	snprintf(q, sizeof(q), "%s/queue", disk_dir);
	if (read_u64(q, "rotational", &v))
		t->rotational = (int)v;
	if (read_u64(q, "io_poll", &v))
		t->io_poll = (int)v;
	if (read_line(q, "scheduler", buf, sizeof(buf))) {
		a = strchr(buf, '[');
		b = a ? strchr(a, ']') : NULL;
		if (a && b) {
			*b = '\0';
			snprintf(t->scheduler, sizeof(t->scheduler), "%s", a + 1);
		} else {
			snprintf(t->scheduler, sizeof(t->scheduler), "%s", buf);
		}
	}
	if (read_line(q, "write_cache", buf, sizeof(buf)))
		snprintf(t->write_cache, sizeof(t->write_cache), "%s", buf);
	read_u64(q, "discard_granularity", &t->discard_granularity);
	read_u64(q, "discard_max_bytes", &t->discard_max);
	if (!t->logical && read_u64(q, "logical_block_size", &v))
		t->logical = (unsigned)v;
	if (!t->physical && read_u64(q, "physical_block_size", &v))
		t->physical = (unsigned)v;
	if (!t->min_io && read_u64(q, "minimum_io_size", &v))
		t->min_io = (unsigned)v;
	if (!t->opt_io && read_u64(q, "optimal_io_size", &v))
		t->opt_io = (unsigned)v;
	snprintf(q, sizeof(q), "%s/device", disk_dir);
	if (read_line(q, "model", buf, sizeof(buf))) {
		for (a = buf + strlen(buf); a > buf && a[-1] == ' '; a--)
			a[-1] = '\0';
		snprintf(t->model, sizeof(t->model), "%.63s", buf);
	}
}

/* Name, parent disk, partition start and queue attributes of dev. */
static void probe_sysfs(struct target *t, dev_t dev, bool for_file)
{
	char dir[PATH_MAX], parent[PATH_MAX];
	uint64_t v;

	if (!sysfs_dir(dev, dir, sizeof(dir)))
		return;
	snprintf(parent, sizeof(parent), "%s", dir);
	dirname(parent);
	if (!for_file) {
		snprintf(t->name, sizeof(t->name), "%s", strrchr(dir, '/') + 1);
		snprintf(t->disk, sizeof(t->disk), "%s", t->name);
	}
	if (read_u64(dir, "partition", &v)) {
		if (!for_file) {
			t->kind = TARGET_PARTITION;
			snprintf(t->disk, sizeof(t->disk), "%s",
				 strrchr(parent, '/') + 1);
			if (read_u64(dir, "start", &v))
				t->part_start = v * 512;
			if (read_u64(dir, "alignment_offset", &v))
				t->alignment_offset = (int)v;
		}
		probe_queue(t, parent);
	} else {
		probe_queue(t, dir);
	}
}

static int probe_blockdev(const char *path, struct target *t, char *err,
			  size_t len)
{
	int fd, v;
	unsigned int u;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		snprintf(err, len, "cannot open %s: %s%s", path, strerror(e),
			 e == EACCES ? " (block devices need root: run with sudo)" : "");
		return -e;
	}
	if (ioctl(fd, BLKGETSIZE64, &t->size)) {
		int e = errno;

		snprintf(err, len, "cannot read the size of %s: %s", path,
			 strerror(e));
		close(fd);
		return -e;
	}
	if (!ioctl(fd, BLKSSZGET, &v))
		t->logical = (unsigned)v;
	if (!ioctl(fd, BLKPBSZGET, &u))
		t->physical = u;
	if (!ioctl(fd, BLKIOMIN, &u))
		t->min_io = u;
	if (!ioctl(fd, BLKIOOPT, &u))
		t->opt_io = u;
	if (!ioctl(fd, BLKALIGNOFF, &v))
		t->alignment_offset = v;
	close(fd);
	t->kind = TARGET_DISK;
	probe_sysfs(t, t->rdev, false);
	return 0;
}

int target_probe(const char *path, struct target *t, char *err, size_t len)
{
	struct stat st;

	memset(t, 0, sizeof(*t));
	snprintf(t->path, sizeof(t->path), "%s", path);
	t->alignment_offset = -1;
	t->rotational = -1;
	t->io_poll = -1;
	if (stat(path, &st)) {
		int e = errno;

		if (e == ENOENT) {
			/* A file to create: its filesystem sets the O_DIRECT
			 * granularity, so probe the directory it will be in. */
			char dir[PATH_MAX];

			t->kind = TARGET_FILE;
			snprintf(dir, sizeof(dir), "%s", path);
			if (stat(dirname(dir), &st)) {
				e = errno;
				snprintf(err, len, "cannot create %s: %s", path,
					 strerror(e));
				return -e;
			}
			t->st_dev = st.st_dev;
			t->fs_block = (unsigned)st.st_blksize;
			probe_sysfs(t, st.st_dev, true);
			return 0;
		}
		snprintf(err, len, "cannot open %s: %s", path, strerror(e));
		return -e;
	}
	t->exists = true;
	if (S_ISBLK(st.st_mode)) {
		t->rdev = st.st_rdev;
		return probe_blockdev(path, t, err, len);
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, len, "%s is neither a block device nor a regular file; rebench measures devices, partitions and files", path);
		return -EINVAL;
	}
	t->kind = TARGET_FILE;
	t->size = (uint64_t)st.st_size;
	t->st_dev = st.st_dev;
	t->fs_block = (unsigned)st.st_blksize;
	t->allocated = (uint64_t)st.st_blocks * 512;
	probe_sysfs(t, st.st_dev, true);
	return 0;
}

/* Is any mount's source device dev? Fills the mount point. */
static bool find_mount(dev_t dev, char *where, size_t len)
{
	char line[4096], mnt[PATH_MAX];
	unsigned maj, min;
	bool found = false;
	FILE *f = fopen("/proc/self/mountinfo", "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		/* id parent maj:min root mount-point ... */
		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &maj, &min, mnt) != 3)
			continue;
		if (makedev(maj, min) == dev) {
			snprintf(where, len, "%s", mnt);
			found = true;
			break;
		}
	}
	fclose(f);
	return found;
}

static bool is_swap(dev_t dev)
{
	char line[4096], path[PATH_MAX];
	struct stat st;
	bool found = false;
	FILE *f = fopen("/proc/swaps", "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%4095s", path) != 1 || path[0] != '/')
			continue;
		if (!stat(path, &st) && S_ISBLK(st.st_mode) && st.st_rdev == dev) {
			found = true;
			break;
		}
	}
	fclose(f);
	return found;
}

static bool has_holders(const char *sysdir, char *holder, size_t len)
{
	char path[PATH_MAX];
	struct dirent *de;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "%s/holders", sysdir);
	d = opendir(path);
	if (!d)
		return false;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(holder, len, "%s", de->d_name);
		found = true;
		break;
	}
	closedir(d);
	return found;
}

/* Check one device (disk or partition) given its sysfs directory. */
static bool dev_in_use(const char *sysdir, const char *name, char *why,
		       size_t len)
{
	char buf[64], where[PATH_MAX], holder[256];
	unsigned maj, min;
	dev_t dev;

	if (!read_line(sysdir, "dev", buf, sizeof(buf)) ||
	    sscanf(buf, "%u:%u", &maj, &min) != 2)
		return false;
	dev = makedev(maj, min);
	if (find_mount(dev, where, sizeof(where))) {
		snprintf(why, len, "/dev/%s is mounted on %s", name, where);
		return true;
	}
	if (is_swap(dev)) {
		snprintf(why, len, "/dev/%s is in use as swap", name);
		return true;
	}
	if (has_holders(sysdir, holder, sizeof(holder))) {
		snprintf(why, len, "/dev/%s is held by %s (LVM, RAID, device mapper or similar)", name, holder);
		return true;
	}
	return false;
}

bool target_in_use(const struct target *t, char *why, size_t len)
{
	char dir[PATH_MAX], sub[PATH_MAX + 300];
	struct dirent *de;
	bool busy;
	DIR *d;

	if (t->kind == TARGET_FILE || !sysfs_dir(t->rdev, dir, sizeof(dir)))
		return false;
	busy = dev_in_use(dir, t->name, why, len);
	if (busy || t->kind == TARGET_PARTITION)
		return busy;
	/* A whole disk is in use when any of its partitions is. */
	d = opendir(dir);
	if (!d)
		return false;
	while (!busy && (de = readdir(d))) {
		if (strncmp(de->d_name, t->name, strlen(t->name)) ||
		    de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (access(sub, F_OK) || !strlen(de->d_name))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/partition", dir, de->d_name);
		if (access(sub, F_OK))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		busy = dev_in_use(sub, de->d_name, why, len);
	}
	closedir(d);
	return busy;
}

bool file_has_hole(int fd, uint64_t off, uint64_t len)
{
	off_t hole = lseek(fd, (off_t)off, SEEK_HOLE);

	return hole >= 0 && (uint64_t)hole < off + len;
}
