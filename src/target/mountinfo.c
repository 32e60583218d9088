/* mountinfo.c - /proc/self/mountinfo lookups by device number. */
#include "target/mountinfo.h"

#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <sys/sysmacros.h>

static bool find_in(const char *file, dev_t dev, char *mnt, size_t mlen,
		    char *fstype, size_t flen, char *opts, size_t olen)
{
	char line[4096], where[PATH_MAX], type[64], super[1024];
	unsigned maj, min;
	bool found = false;
	FILE *f = fopen(file, "r");
	const char *sep;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		/* id parent maj:min root mount-point options [tags] - type src */
		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &maj, &min, where) != 3 ||
		    makedev(maj, min) != dev)
			continue;
		found = true;
		if (mnt)
			snprintf(mnt, mlen, "%s", where);
		sep = strstr(line, " - ");
		if (fstype && sep && sscanf(sep + 3, "%63s", type) == 1)
			snprintf(fstype, flen, "%s", type);
		/* type, source, then the super block's options */
		if (opts && sep &&
		    sscanf(sep + 3, "%*s %*s %1023s", super) == 1)
			snprintf(opts, olen, "%s", super);
		break;
	}
	fclose(f);
	return found;
}

bool mountinfo_find(dev_t dev, char *mnt, size_t mlen, char *fstype,
		    size_t flen)
{
	return find_in("/proc/self/mountinfo", dev, mnt, mlen, fstype, flen,
		       NULL, 0);
}

bool mountinfo_find_fs(dev_t dev, char *fstype, size_t flen, char *opts,
		       size_t olen)
{
	if (opts && olen)
		opts[0] = '\0';
	return find_in("/proc/self/mountinfo", dev, NULL, 0, fstype, flen,
		       opts, olen);
}

bool mountinfo_find_any(dev_t dev, char *mnt, size_t mlen, pid_t *pid)
{
	char path[300];
	struct stat self, st;
	struct dirent *de;
	ino_t seen[512];
	size_t nseen = 0, i;
	bool found = false;
	DIR *d;

	*pid = 0;
	if (mountinfo_find(dev, mnt, mlen, NULL, 0))
		return true;
	if (stat("/proc/self/ns/mnt", &self))
		return false;
	d = opendir("/proc");
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/ns/mnt", de->d_name);
		if (stat(path, &st) || st.st_ino == self.st_ino)
			continue;
		for (i = 0; i < nseen && seen[i] != st.st_ino; i++)
			;
		if (i < nseen)
			continue;	/* a namespace already read */
		if (nseen < sizeof(seen) / sizeof(seen[0]))
			seen[nseen++] = st.st_ino;
		snprintf(path, sizeof(path), "/proc/%s/mountinfo", de->d_name);
		if (find_in(path, dev, mnt, mlen, NULL, 0, NULL, 0)) {
			*pid = (pid_t)atoi(de->d_name);
			found = true;
		}
	}
	closedir(d);
	return found;
}

bool mountinfo_dir_fs(const char *path, char *fstype, size_t flen)
{
	char dir[PATH_MAX];
	struct stat st;

	snprintf(dir, sizeof(dir), "%s", path);
	if (stat(dirname(dir), &st))
		return false;
	return mountinfo_find(st.st_dev, NULL, 0, fstype, flen);
}
