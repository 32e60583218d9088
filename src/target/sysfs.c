/* sysfs.c - one line of sysfs, procfs or a cgroup file, read or written
 * in one call; a block device's sysfs directory. */
#include "target/sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

bool read_line_why(const char *dir, const char *name, char *buf,
		   size_t len, char *why, size_t wlen)
{
	char path[PATH_MAX];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f) {
		if (why)
			snprintf(why, wlen, "cannot read %.180s: %s", path,
				 strerror(errno));
		return false;
	}
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	if ((!ok || !buf[0]) && why) {
		snprintf(why, wlen, "%.180s is empty", path);
		ok = false;
	}
	return ok;
}

bool read_first_line(const char *dir, const char *name, char *buf, size_t len)
{
	return read_line_why(dir, name, buf, len, NULL, 0);
}

int write_value(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), e = 0;
	size_t len = strlen(val);

	if (fd < 0)
		return -errno;
	if (write(fd, val, len) != (ssize_t)len)
		e = -errno;
	close(fd);
	return e;
}

bool sysfs_dir(dev_t dev, char *out)
{
	char link[64];

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	return realpath(link, out) != NULL;
}

bool sysfs_disk_of(dev_t dev, char *dir, char *name, size_t nlen)
{
	char part[PATH_MAX + 16];
	char *slash;

	if (!sysfs_dir(dev, dir))
		return false;
	snprintf(part, sizeof(part), "%s/partition", dir);
	if (!access(part, F_OK)) {
		slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
	}
	slash = strrchr(dir, '/');
	snprintf(name, nlen, "%.63s", slash ? slash + 1 : dir);
	return true;
}
