/* target.c - geometry from block ioctls and sysfs; in-use detection is
 * inuse.c's.
 */
#include "target/target.h"
#include "target/sysfs.h"
#include "target/inuse.h"

/* The reason of every field until a probe learns it or says why not. */
#define NOT_PROBED "not probed"

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

/* A line of sysfs for field f: known, or the reason in t->unknown[f]. */
static bool read_str_why(struct target *t, enum target_field f,
			 const char *dir, const char *name, char *buf, size_t len)
{
	if (!read_line_why(dir, name, buf, len, t->unknown[f],
			   sizeof(t->unknown[f])))
		return false;
	t->unknown[f][0] = '\0';
	return true;
}

/* A number from sysfs; failures leave the reason in t->unknown[f]. */
static bool read_u64_why(struct target *t, enum target_field f,
			 const char *dir, const char *name, uint64_t *v)
{
	char buf[64], *end;

	if (!read_str_why(t, f, dir, name, buf, sizeof(buf)))
		return false;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	if (errno || end == buf) {
		snprintf(t->unknown[f], sizeof(t->unknown[f]),
			 "%.150s/%s holds \"%.32s\", not a number", dir, name, buf);
		return false;
	}
	return true;
}


/* Queue attributes (and the model) live on the whole disk.  Sizes the
 * ioctls already gave are kept. */
static void probe_queue(struct target *t, const char *disk_dir)
{
	char q[PATH_MAX], buf[128], *a, *b;
	uint64_t v;

	snprintf(q, sizeof(q), "%s/queue", disk_dir);
	if (read_u64_why(t, TF_ROTATIONAL, q, "rotational", &v))
		t->rotational = (int)v;
	if (read_first_line(q, "io_poll", buf, sizeof(buf)))
		t->io_poll = atoi(buf);
	if (read_str_why(t, TF_SCHEDULER, q, "scheduler", buf, sizeof(buf))) {
		a = strchr(buf, '[');
		b = a ? strchr(a, ']') : NULL;
		if (a && b) {
			*b = '\0';
			snprintf(t->scheduler, sizeof(t->scheduler), "%s", a + 1);
		} else {
			snprintf(t->scheduler, sizeof(t->scheduler), "%s", buf);
		}
	}
	read_str_why(t, TF_WRITE_CACHE, q, "write_cache", t->write_cache,
		     sizeof(t->write_cache));
	if (read_u64_why(t, TF_FUA, q, "fua", &v))
		t->fua = v != 0;
	if (read_u64_why(t, TF_DISCARD, q, "discard_granularity",
			 &t->discard_granularity) &&
	    read_first_line(q, "discard_max_bytes", buf, sizeof(buf)))
		t->discard_max = strtoull(buf, NULL, 10);
	if (!t->logical && read_u64_why(t, TF_LOGICAL, q, "logical_block_size", &v))
		t->logical = (unsigned)v;
	if (!t->physical && read_u64_why(t, TF_PHYSICAL, q, "physical_block_size", &v))
		t->physical = (unsigned)v;
	if (!t->min_io && read_u64_why(t, TF_MIN_IO, q, "minimum_io_size", &v))
		t->min_io = (unsigned)v;
	if (t->unknown[TF_OPT_IO][0] &&
	    read_u64_why(t, TF_OPT_IO, q, "optimal_io_size", &v))
		t->opt_io = (unsigned)v;
	if (read_u64_why(t, TF_ALIGN_OFF, disk_dir, "alignment_offset", &v))
		t->disk_align_off = (int)v;
	snprintf(q, sizeof(q), "%s/device", disk_dir);
	if (read_str_why(t, TF_MODEL, q, "model", buf, sizeof(buf))) {
		for (a = buf + strlen(buf); a > buf && a[-1] == ' '; a--)
			a[-1] = '\0';
		snprintf(t->model, sizeof(t->model), "%.63s", buf);
		if (!t->model[0])
			snprintf(t->unknown[TF_MODEL], sizeof(t->unknown[TF_MODEL]),
				 "%.180s/model is blank", q);
	} else if (access(q, F_OK)) {
		snprintf(t->unknown[TF_MODEL], sizeof(t->unknown[TF_MODEL]),
			 "the kernel gives no model: %.100s has no device/ directory (virtual devices such as loop, zram and dm have none)",
			 disk_dir);
	}
}

/* Every sysfs-backed field unknown for one reason. */
static void all_unknown(struct target *t, const char *why)
{
	int f;

	/* every field still "not probed" (the default) gets the reason */
	for (f = 0; f < TF_COUNT; f++)
		if (!strcmp(t->unknown[f], NOT_PROBED))
			snprintf(t->unknown[f], sizeof(t->unknown[f]), "%s", why);
}

/* Name, parent disk, partition start and queue attributes of dev.  For a
 * file, dev is its filesystem's device: the name goes to t->place.dev. */
static void probe_sysfs(struct target *t, dev_t dev, bool for_file)
{
	char dir[PATH_MAX], parent[PATH_MAX], pf[PATH_MAX + 16], why[160];
	char *name = for_file ? t->place.dev : t->name;
	size_t nlen = for_file ? sizeof(t->place.dev) : sizeof(t->name);
	uint64_t v;

	if (!sysfs_dir(dev, dir)) {
		snprintf(why, sizeof(why), "no block device behind %u:%u in /sys/dev/block (%s)%s",
			 major(dev), minor(dev), strerror(errno),
			 for_file ? ": the filesystem is not on a block device (tmpfs, overlay, network)" : "");
		all_unknown(t, why);
		return;
	}
	snprintf(parent, sizeof(parent), "%s", dir);
	dirname(parent);
	snprintf(name, nlen, "%s", strrchr(dir, '/') + 1);
	snprintf(t->disk, sizeof(t->disk), "%s", name);
	snprintf(pf, sizeof(pf), "%s/partition", dir);
	if (access(pf, F_OK)) {
		/* a whole disk starts at byte 0 of itself */
		if (for_file) {
			t->place.dev_start = 0;
			t->place.dev_start_known = true;
		}
		t->unknown[TF_PART_START][0] = '\0';
		probe_queue(t, dir);
		return;
	}
	if (!for_file)
		t->kind = TARGET_PARTITION;
	snprintf(t->disk, sizeof(t->disk), "%s", strrchr(parent, '/') + 1);
	if (read_u64_why(t, TF_PART_START, dir, "start", &v)) {
		/* sysfs counts partition starts in 512-byte units */
		if (for_file) {
			t->place.dev_start = v * 512;
			t->place.dev_start_known = true;
		} else {
			t->part_start = v * 512;
		}
	}
	if (!for_file && read_first_line(dir, "alignment_offset", why, sizeof(why)))
		t->alignment_offset = atoi(why);
	probe_queue(t, parent);
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
		t->logical = (unsigned)v, t->unknown[TF_LOGICAL][0] = '\0';
	if (!ioctl(fd, BLKPBSZGET, &u))
		t->physical = u, t->unknown[TF_PHYSICAL][0] = '\0';
	if (!ioctl(fd, BLKIOMIN, &u))
		t->min_io = u, t->unknown[TF_MIN_IO][0] = '\0';
	if (!ioctl(fd, BLKIOOPT, &u))
		t->opt_io = u, t->unknown[TF_OPT_IO][0] = '\0';
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
	t->disk_align_off = -1;
	t->rotational = -1;
	t->fua = -1;
	t->io_poll = -1;
	for (int f = 0; f < TF_COUNT; f++)
		snprintf(t->unknown[f], sizeof(t->unknown[f]), NOT_PROBED);
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
				/* say which part is missing: the directory */
				if (e == ENOENT)
					snprintf(err, len, "cannot create %s: its directory %s does not exist; create it first (mkdir -p %s) or give a path in an existing directory",
						 path, dir, dir);
				else
					snprintf(err, len, "cannot create %s: cannot reach its directory %s: %s",
						 path, dir, strerror(e));
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

bool target_in_use(const struct target *t, char *why, size_t len)
{
	struct stat st;

	if (!t->exists)
		return false;
	if (t->kind != TARGET_FILE)
		return inuse_blockdev(t->path, t->rdev, why, len);
	return !stat(t->path, &st) &&
	       inuse_file(t->path, st.st_dev, st.st_ino, why, len);
}

bool file_has_hole(int fd, uint64_t off, uint64_t len)
{
	off_t hole = lseek(fd, (off_t)off, SEEK_HOLE);

	return hole >= 0 && (uint64_t)hole < off + len;
}
