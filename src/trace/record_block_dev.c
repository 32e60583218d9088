/* record_block_dev.c - see record_block_dev.h. */
#include "trace/record_block_dev.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static int read_sysfs(const char *dir, const char *name, char *buf,
		      size_t len)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int blk_dev_resolve(const char *given, struct blk_dev_info *d)
{
	char sys[PATH_MAX + 16], real[PATH_MAX], line[64], *slash;
	unsigned long long start, size;
	struct stat st;

	if (stat(given, &st)) {
		fprintf(stderr, "rebench: --record-block %s: %s\n", given,
			strerror(errno));
		return -EINVAL;
	}
	if (!S_ISBLK(st.st_mode)) {
		fprintf(stderr, "rebench: --record-block %s: not a block device (%s): the block layer is recorded on a disk or a partition; a file's calls are what --record alone records\n",
			given, S_ISREG(st.st_mode) ? "a regular file" :
			S_ISDIR(st.st_mode) ? "a directory" : "another kind of file");
		return -EINVAL;
	}
	if (!realpath(given, d->path))
		snprintf(d->path, sizeof(d->path), "%s", given);
	d->maj = d->dmaj = major(st.st_rdev);
	d->min = d->dmin = minor(st.st_rdev);
	d->b.path = d->path;
	d->b.first = d->b.count = 0;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", d->maj, d->min);
	if (!realpath(sys, real)) {
		fprintf(stderr, "rebench: --record-block %s: %s: %s (is sysfs mounted?)\n",
			given, sys, strerror(errno));
		return -ENOENT;
	}
	if (!read_sysfs(real, "partition", line, sizeof(line))) {
		if (read_sysfs(real, "start", line, sizeof(line)) ||
		    sscanf(line, "%llu", &start) != 1 ||
		    read_sysfs(real, "size", line, sizeof(line)) ||
		    sscanf(line, "%llu", &size) != 1) {
			fprintf(stderr, "rebench: --record-block %s: %s has no start and size of the partition\n",
				given, real);
			return -EIO;
		}
		d->b.first = start;
		d->b.count = size ? size : 1;
		slash = strrchr(real, '/');
		*slash = '\0';		/* the disk's directory */
		if (read_sysfs(real, "dev", line, sizeof(line)) ||
		    sscanf(line, "%u:%u", &d->dmaj, &d->dmin) != 2) {
			fprintf(stderr, "rebench: --record-block %s: the disk of the partition is not in %s\n",
				given, real);
			return -EIO;
		}
	}
	/* requests exist only below a blk-mq queue */
	snprintf(sys, sizeof(sys), "%s/mq", real);
	if (access(sys, F_OK)) {
		fprintf(stderr, "rebench: --record-block %s: %s has no request queue (no %s): a bio-based device (device-mapper, md, brd, zram) passes its I/O on without making requests, so no block request event ever names it; record the device(s) under it instead (dmsetup deps, /sys/block/NAME/slaves)\n",
			given, real, sys);
		return -EOPNOTSUPP;
	}
	d->b.dev = d->dmaj << 20 | d->dmin;	/* the kernel's dev_t */
	return 0;
}

bool blk_dev_overlap(const struct blk_dev_info *x, const struct blk_dev_info *y)
{
	if (x->b.dev != y->b.dev)
		return false;
	if (!x->b.count || !y->b.count)
		return true;
	return x->b.first < y->b.first + y->b.count &&
	       y->b.first < x->b.first + x->b.count;
}

void blk_dev_filter(const struct blk_dev_info *d, int n, char *out, size_t len)
{
	size_t at = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < n && at < len; i++) {
		if (!d[i].b.count)
			at += (size_t)snprintf(out + at, len - at, "%s(dev == %u)",
					       i ? " || " : "", d[i].b.dev);
		else	/* a flush (0 sectors) is the whole disk's */
			at += (size_t)snprintf(out + at, len - at,
					       "%s(dev == %u && (nr_sector == 0 || (sector >= %llu && sector < %llu)))",
					       i ? " || " : "", d[i].b.dev,
					       (unsigned long long)d[i].b.first,
					       (unsigned long long)(d[i].b.first + d[i].b.count));
	}
}

