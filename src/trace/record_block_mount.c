/* record_block_mount.c - see record_block_mount.h. */
#include "trace/record_block_mount.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

/* One line of /proc/self/mountinfo: what is needed of it. */
struct mnt {
	unsigned id, parent;
	char point[PATH_MAX];
	char type[64];
	char source[64];
};

/* \ooo of mountinfo's fields back to bytes, in place. */
static void unoctal(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* Every mount, in the order of mountinfo (a mount comes after the one it
 * is mounted on): an array of *n, or NULL (*n 0). */
static struct mnt *read_mounts(size_t *n)
{
	struct mnt *v = NULL, *grown;
	char *line = NULL;
	size_t cap = 0, len = 0;
	const char *sep;
	FILE *f;

	*n = 0;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return NULL;
	while (getline(&line, &len, f) > 0) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			grown = realloc(v, cap * sizeof(*v));
			if (!grown)
				break;
			v = grown;
		}
		/* id parent maj:min root mount-point options [tags] - type src */
		sep = strstr(line, " - ");
		if (!sep ||
		    sscanf(line, "%u %u %*s %*s %4095s", &v[*n].id,
			   &v[*n].parent, v[*n].point) != 3 ||
		    sscanf(sep + 3, "%63s %63s", v[*n].type, v[*n].source) != 2)
			continue;
		unoctal(v[*n].point);
		(*n)++;
	}
	free(line);
	fclose(f);
	return v;
}

/* Is m the top mount on its point (none mounted over it)? */
static bool on_top(const struct mnt *v, size_t n, const struct mnt *m)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].parent == m->id && !strcmp(v[i].point, m->point))
			return false;
	return true;
}

/* The pid of a mount of rebench ("rebench-PID"), or 0. */
static long marked_pid(const struct mnt *m)
{
	size_t k = strlen(BLK_MOUNT_SOURCE);
	char *end;
	long pid;

	if (strncmp(m->source, BLK_MOUNT_SOURCE, k))
		return 0;
	pid = strtol(m->source + k, &end, 10);
	return *end || pid <= 0 ? 0 : pid;
}

bool blk_mount_find(const char *fstype, char *mnt, size_t len)
{
	struct mnt *v;
	size_t n, i;
	bool found = false;

	v = read_mounts(&n);
	for (i = 0; i < n && !found; i++) {
		if (strcmp(v[i].type, fstype))
			continue;
		snprintf(mnt, len, "%s", v[i].point);
		found = true;
	}
	free(v);
	return found;
}

int blk_mount(const char *fstype, const char *dir)
{
	char source[64];

	snprintf(source, sizeof(source), BLK_MOUNT_SOURCE "%ld",
		 (long)getpid());
	return mount(source, dir, fstype, 0, NULL) ? -errno : 0;
}

int blk_unmount(const char *dir)
{
	const struct mnt *top = NULL;
	struct mnt *v;
	size_t n, i;
	int ret = -ENOENT;

	v = read_mounts(&n);
	for (i = 0; i < n; i++)
		if (!strcmp(v[i].point, dir) && on_top(v, n, &v[i]))
			top = &v[i];
	if (top && marked_pid(top) == (long)getpid())
		ret = umount(dir) ? -errno : 0;
	else if (top)
		ret = -EBUSY;	/* mounted over ours since */
	free(v);
	return ret;
}

/* A stale mount of rebench: its pid runs no more.  (A pid taken again
 * by another process keeps the mount: never unmount what may be used.) */
static bool stale(const struct mnt *m)
{
	long pid = marked_pid(m);

	if (strcmp(m->type, "tracefs") && strcmp(m->type, "debugfs"))
		return false;
	return pid && pid != (long)getpid() && kill((pid_t)pid, 0) &&
	       errno == ESRCH;
}

/* Unmount the stale mount m (and, for a debugfs, the tracefs under it):
 * true when it was. */
static bool unmount_stale(const struct mnt *v, size_t n, const struct mnt *m)
{
	char sub[PATH_MAX + 16];
	size_t i;

	if (!on_top(v, n, m)) {
		fprintf(stderr, "rebench: --record-block: left the %s on %s that a record (pid %ld) mounted and did not unmount: another mount is over it\n",
			m->type, m->point, marked_pid(m));
		return false;
	}
	snprintf(sub, sizeof(sub), "%s/tracing", m->point);
	for (i = 0; i < n; i++)
		if (v[i].parent == m->id && !strcmp(v[i].point, sub))
			umount(sub);	/* debugfs's tracing, mounted in ours */
	if (umount(m->point)) {
		fprintf(stderr, "rebench: --record-block: cannot unmount the %s on %s that a record (pid %ld) mounted and did not unmount: %s\n",
			m->type, m->point, marked_pid(m), strerror(errno));
		return false;
	}
	fprintf(stderr, "rebench: --record-block: unmounted the %s on %s that a record (pid %ld) mounted and did not unmount (killed?)\n",
		m->type, m->point, marked_pid(m));
	return true;
}

unsigned long blk_unmount_stale(void)
{
	unsigned tried[64];
	unsigned long done = 0;
	size_t n, i, k, ntried = 0;
	const struct mnt *m;
	struct mnt *v;

	/* one at a time, the latest first (it is over the earlier ones), the
	 * table read again after each; each mount is tried once */
	while (ntried < sizeof(tried) / sizeof(*tried)) {
		v = read_mounts(&n);
		m = NULL;
		for (i = n; i-- > 0 && !m;) {
			for (k = 0; k < ntried && tried[k] != v[i].id; k++)
				;
			if (k == ntried && stale(&v[i]))
				m = &v[i];
		}
		if (m) {
			tried[ntried++] = m->id;
			done += unmount_stale(v, n, m);
		}
		free(v);
		if (!m)
			break;
	}
	return done;
}
