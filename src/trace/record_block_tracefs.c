/* record_block_tracefs.c - see record_block_tracefs.h. */
#include "trace/record_block_tracefs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/record_block_mount.h"

#define TRACEFS_DIR "/sys/kernel/tracing"
#define DEBUGFS_DIR "/sys/kernel/debug"
#define INSTANCE_PREFIX "rebench-"

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Write text to a tracefs file: 0 or -errno. */
static int put(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX + 128];
	size_t n = strlen(text);
	ssize_t w;
	int fd, e;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	w = write(fd, text, n);
	e = w < 0 ? errno : w != (ssize_t)n ? EIO : 0;
	close(fd);
	return -e;
}

/* A whole small tracefs file, NUL-terminated: 0 or -errno. */
static int get(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX + 128];
	size_t n = 0;
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (n + 1 < len && (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)r;
	close(fd);
	buf[n] = '\0';
	return 0;
}

/* tracefs: $REBENCH_TRACEFS, mounted, or mounted here (what a killed
 * record left mounted unmounted first).  0 or -errno. */
static int find_root(struct blk_tracefs *t, char *err, size_t len)
{
	const char *env = getenv("REBENCH_TRACEFS");
	int e1, e2;

	t->stale_unmounted = blk_unmount_stale();
	if (env && *env) {
		if (!is_dir(env)) {
			snprintf(err, len, "REBENCH_TRACEFS=%s is not a directory", env);
			return -ENOTDIR;
		}
		snprintf(t->root, sizeof(t->root), "%s", env);
		return 0;
	}
	if (blk_mount_find("tracefs", t->root, sizeof(t->root)))
		return 0;
	e1 = -blk_mount("tracefs", TRACEFS_DIR);
	if (!e1) {
		snprintf(t->root, sizeof(t->root), "%s", TRACEFS_DIR);
		snprintf(t->mnt_tracefs, sizeof(t->mnt_tracefs), "%s", TRACEFS_DIR);
		fprintf(stderr, "rebench: --record-block: mounted tracefs on %s (unmounted at the end)\n",
			TRACEFS_DIR);
		return 0;
	}
	/* before tracefs (Linux 4.1), tracing was debugfs's */
	if (!blk_mount_find("debugfs", t->root, sizeof(t->root))) {
		e2 = -blk_mount("debugfs", DEBUGFS_DIR);
		if (e2) {
			snprintf(err, len, "tracefs is not mounted, and neither tracefs on %s (%s) nor debugfs on %s (%s) could be mounted: the kernel needs tracing (CONFIG_FTRACE); mount it with 'mount -t tracefs nodev %s'",
				 TRACEFS_DIR, strerror(e1), DEBUGFS_DIR,
				 strerror(e2), TRACEFS_DIR);
			return -e1;
		}
		snprintf(t->root, sizeof(t->root), "%s", DEBUGFS_DIR);
		snprintf(t->mnt_debugfs, sizeof(t->mnt_debugfs), "%s", DEBUGFS_DIR);
		fprintf(stderr, "rebench: --record-block: mounted debugfs on %s (unmounted at the end)\n",
			DEBUGFS_DIR);
	}
	strncat(t->root, "/tracing", sizeof(t->root) - strlen(t->root) - 1);
	if (!is_dir(t->root)) {
		snprintf(err, len, "tracefs is not mounted and could not be mounted on %s (%s), and debugfs has no tracing directory: the kernel needs tracing (CONFIG_FTRACE)",
			 TRACEFS_DIR, strerror(e1));
		return -ENOENT;
	}
	return 0;
}

/* instances/rebench-PID of a PID that no longer runs: removed. */
static void remove_stale(struct blk_tracefs *t)
{
	char dir[PATH_MAX + 16], path[PATH_MAX + 300];
	struct dirent *de;
	char *end;
	long pid;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/instances", t->root);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)))
			continue;
		pid = strtol(de->d_name + strlen(INSTANCE_PREFIX), &end, 10);
		if (*end || pid <= 0 || pid == getpid() ||
		    !(kill((pid_t)pid, 0) && errno == ESRCH))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!rmdir(path)) {
			fprintf(stderr, "rebench: --record-block: removed the tracefs instance %s of a record that ended without removing it (killed?)\n",
				path);
			t->stale_removed++;
		}
	}
	closedir(d);
}

static int read_formats(struct blk_tracefs *t, char *err, size_t len)
{
	char path[PATH_MAX + 128], text[8192], why[256];
	int k, ret;

	if ((ret = get(t->root, "events/header_page", text, sizeof(text)))) {
		snprintf(err, len, "%s/events/header_page: %s: this tracefs cannot be read as binary", t->root,
			 strerror(-ret));
		return ret;
	}
	if (blk_ring_parse_format(text, -1, &t->fmt, why, sizeof(why))) {
		snprintf(err, len, "%s/events/header_page: %s", t->root, why);
		return -EINVAL;
	}
	for (k = 0; k < BLK_EV_KINDS; k++) {
		snprintf(path, sizeof(path), "events/block/%s/format",
			 blk_ev_names[k]);
		ret = get(t->root, path, text, sizeof(text));
		if (ret) {
			snprintf(err, len, "%s/%s: %s: this kernel has no block request tracepoints (CONFIG_BLOCK and CONFIG_EVENT_TRACING)",
				 t->root, path, strerror(-ret));
			return ret;
		}
		if (blk_ring_parse_format(text, k, &t->fmt, why, sizeof(why))) {
			snprintf(err, len, "%s/%s: %s", t->root, path, why);
			return -EINVAL;
		}
	}
	return 0;
}

/* The instance's settings; name says which failed. */
static int configure(struct blk_tracefs *t, const char *filter, char *err,
		     size_t len)
{
	char name[128], num[32];
	int k, ret;

	/* a clock change clears the buffer: first, before any event */
	ret = put(t->inst, "trace_clock", "mono");
	if (ret) {
		snprintf(err, len, "%s/trace_clock: cannot set the clock 'mono' (%s): this kernel's tracing has no CLOCK_MONOTONIC clock (Linux 4.10 or later has)",
			 t->inst, strerror(-ret));
		return ret;
	}
	snprintf(num, sizeof(num), "%d", BLK_BUFFER_KB);
	ret = put(t->inst, "buffer_size_kb", num);
	if (ret) {
		snprintf(err, len, "%s/buffer_size_kb: cannot make each CPU's buffer %d KiB: %s",
			 t->inst, BLK_BUFFER_KB, strerror(-ret));
		return ret;
	}
	snprintf(num, sizeof(num), "%d", BLK_WAKE_PERCENT);
	put(t->inst, "buffer_percent", num);	/* older kernels: a page */
	for (k = 0; k < BLK_EV_KINDS; k++) {
		snprintf(name, sizeof(name), "events/block/%s/filter",
			 blk_ev_names[k]);
		ret = put(t->inst, name, filter);
		if (ret) {
			snprintf(err, len, "%s/%s: the kernel refused the filter '%s': %s",
				 t->inst, name, filter, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static int open_cpus(struct blk_tracefs *t, char *err, size_t len)
{
	char dir[PATH_MAX + 64], path[PATH_MAX + 400], num[32];
	struct dirent *de;
	int cpu, fd, *v;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/per_cpu", t->inst);
	d = opendir(dir);
	if (!d) {
		snprintf(err, len, "%s: %s", dir, strerror(errno));
		return -errno;
	}
	while ((de = readdir(d))) {
		if (sscanf(de->d_name, "cpu%d", &cpu) != 1)
			continue;
		snprintf(path, sizeof(path), "%s/%s/trace_pipe_raw", dir,
			 de->d_name);
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			snprintf(err, len, "%s: %s", path, strerror(errno));
			closedir(d);
			return -errno;
		}
		v = realloc(t->fd, (size_t)(t->ncpu + 1) * sizeof(*v));
		if (!v) {
			close(fd);
			closedir(d);
			snprintf(err, len, "out of memory");
			return -ENOMEM;
		}
		t->fd = v;
		t->fd[t->ncpu++] = fd;
	}
	closedir(d);
	if (!t->ncpu) {
		snprintf(err, len, "%s has no cpuN directory", dir);
		return -ENOENT;
	}
	/* one read returns one sub-buffer: a page unless set otherwise */
	t->subbuf = (size_t)sysconf(_SC_PAGESIZE);
	if (!get(t->inst, "buffer_subbuf_size_kb", num, sizeof(num)) &&
	    atoi(num) > 0)
		t->subbuf = (size_t)atoi(num) * 1024;
	t->buf = malloc(t->subbuf);
	if (!t->buf) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

int blk_tracefs_open(struct blk_tracefs *t, const char *filter, char *err,
		     size_t len)
{
	char dir[PATH_MAX + 16];
	int ret;

	memset(t, 0, sizeof(*t));
	ret = find_root(t, err, len);
	if (ret)
		goto fail;
	snprintf(dir, sizeof(dir), "%s/events/block/%s", t->root,
		 blk_ev_names[BLK_EV_ISSUE]);
	if (!is_dir(dir)) {
		snprintf(err, len, "%s is missing: this kernel has no block request tracepoints (CONFIG_BLOCK and CONFIG_EVENT_TRACING), or %s is not tracefs",
			 dir, t->root);
		ret = -ENOENT;
		goto fail;
	}
	snprintf(dir, sizeof(dir), "%s/instances", t->root);
	if (!is_dir(dir)) {
		snprintf(err, len, "%s is missing: this tracefs has no instances (Linux 3.10 or later has), so a record would disturb the global trace",
			 dir);
		ret = -ENOENT;
		goto fail;
	}
	remove_stale(t);
	ret = read_formats(t, err, len);
	if (ret)
		goto fail;
	snprintf(t->inst, sizeof(t->inst), "%s/" INSTANCE_PREFIX "%ld",
		 dir, (long)getpid());
	if (mkdir(t->inst, 0755)) {
		ret = -errno;
		snprintf(err, len, "cannot create the tracefs instance %s: %s",
			 t->inst, strerror(errno));
		t->inst[0] = '\0';
		goto fail;
	}
	ret = configure(t, filter, err, len);
	if (!ret)
		ret = open_cpus(t, err, len);
	if (!ret)
		return 0;
fail:
	blk_tracefs_close(t);
	return ret;
}

int blk_tracefs_enable(struct blk_tracefs *t, int kind, bool on, char *err,
		       size_t len)
{
	char name[128];
	int ret;

	snprintf(name, sizeof(name), "events/block/%s/enable",
		 blk_ev_names[kind]);
	ret = put(t->inst, name, on ? "1" : "0");
	if (ret && err)
		snprintf(err, len, "%s/%s: cannot %s the event: %s", t->inst,
			 name, on ? "enable" : "disable", strerror(-ret));
	return ret;
}

int blk_tracefs_stop(struct blk_tracefs *t)
{
	return put(t->inst, "tracing_on", "0");
}

int blk_tracefs_drain(struct blk_tracefs *t, struct blk_events *out,
		      char *err, size_t len)
{
	ssize_t n;
	int i, ret;

	for (i = 0; i < t->ncpu; i++) {
		for (;;) {
			n = read(t->fd[i], t->buf, t->subbuf);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && errno == EAGAIN)
				break;
			if (n < 0) {
				snprintf(err, len, "%s/per_cpu: reading a CPU's buffer: %s",
					 t->inst, strerror(errno));
				return -errno;
			}
			if (!n)
				break;
			ret = blk_ring_decode(&t->fmt, t->buf, (size_t)n, out,
					      &t->loss);
			if (ret == -ENOMEM) {
				snprintf(err, len, "out of memory holding the events");
				return ret;
			}
			if (ret) {
				snprintf(err, len, "%s/per_cpu: a sub-buffer of %zd bytes does not decode as events/header_page describes it",
					 t->inst, n);
				return ret;
			}
		}
	}
	return 0;
}

int blk_tracefs_wait(struct blk_tracefs *t, int extra_fd, int timeout_ms)
{
	struct pollfd p[t->ncpu + 1];
	int i, n = 0;

	for (i = 0; i < t->ncpu; i++) {
		p[n].fd = t->fd[i];
		p[n++].events = POLLIN;
	}
	if (extra_fd >= 0) {
		p[n].fd = extra_fd;
		p[n++].events = POLLIN;
	}
	return poll(p, (nfds_t)n, timeout_ms);
}

uint64_t blk_tracefs_lost(const struct blk_tracefs *t)
{
	char dir[PATH_MAX + 64], name[300], text[2048];
	unsigned long long v, sum = 0;
	const char *p;
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/per_cpu", t->inst);
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "cpu", 3))
			continue;
		snprintf(name, sizeof(name), "%s/stats", de->d_name);
		if (get(dir, name, text, sizeof(text)))
			continue;
		p = strstr(text, "overrun:");
		if (p && sscanf(p, "overrun: %llu", &v) == 1)
			sum += v;
		p = strstr(text, "dropped events:");
		if (p && sscanf(p, "dropped events: %llu", &v) == 1)
			sum += v;
	}
	closedir(d);
	return sum;
}

static const char *unmount_why(int ret)
{
	return ret == -EBUSY ? "it is in use, or another mount is over it now (it stays; the next record unmounts it when it can)" :
	       ret == -ENOENT ? "it is no longer there, or no longer the one rebench mounted" :
	       strerror(-ret);
}

void blk_tracefs_close(struct blk_tracefs *t)
{
	char path[PATH_MAX + 16];
	int i, k, ret;

	if (t->inst[0]) {
		for (k = 0; k < BLK_EV_KINDS; k++)
			blk_tracefs_enable(t, k, false, NULL, 0);
		blk_tracefs_stop(t);
	}
	for (i = 0; i < t->ncpu; i++)
		close(t->fd[i]);
	free(t->fd);
	free(t->buf);
	t->fd = NULL;
	t->buf = NULL;
	t->ncpu = 0;
	if (t->inst[0]) {
		if (rmdir(t->inst))
			fprintf(stderr, "rebench: --record-block: cannot remove the tracefs instance %s: %s; remove it with rmdir\n",
				t->inst, strerror(errno));
		t->inst[0] = '\0';
	}
	if (t->mnt_tracefs[0]) {
		ret = blk_unmount(t->mnt_tracefs);
		if (ret)
			fprintf(stderr, "rebench: --record-block: cannot unmount the tracefs rebench mounted on %s: %s\n",
				t->mnt_tracefs, unmount_why(ret));
		t->mnt_tracefs[0] = '\0';
	}
	if (t->mnt_debugfs[0]) {
		/* debugfs's tracing is a tracefs mounted in ours on first use */
		snprintf(path, sizeof(path), "%s/tracing", t->mnt_debugfs);
		umount(path);
		ret = blk_unmount(t->mnt_debugfs);
		if (ret)
			fprintf(stderr, "rebench: --record-block: cannot unmount the debugfs rebench mounted on %s: %s\n",
				t->mnt_debugfs, unmount_why(ret));
		t->mnt_debugfs[0] = '\0';
	}
}
