/* memcg.c - see memcg.h. */
#include "target/memcg.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/memory.h"
#include "core/memory_check.h"
#include "core/units.h"
#include "core/workload.h"

/* Where this process's memory cgroup is, and the one made for the run. */
struct memcg {
	int version;		/* 1 or 2; 0 none usable */
	char cur[PATH_MAX];	/* the process's cgroup directory */
	char run[PATH_MAX];	/* the run's child, "" when none */
	char why[512];		/* version 0: why not */
};

static struct memcg cg;
static char where[PATH_MAX + 32];

/* Is word one of the comma-separated words of list? */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ',') && (!p[n] || p[n] == ','))
			return true;
		p += n;
	}
	return false;
}

/* The memory cgroup paths of /proc/self/cgroup: v1's memory hierarchy
 * ("4:memory:/a/b") and v2's unified one ("0::/a/b"). */
static void self_paths(char *v1, char *v2, size_t len)
{
	char line[PATH_MAX + 64], *a, *b;
	FILE *f = fopen("/proc/self/cgroup", "re");

	v1[0] = v2[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		a = strchr(line, ':');
		b = a ? strchr(a + 1, ':') : NULL;
		if (!b)
			continue;
		*b = '\0';
		if (!strcmp(line, "0:") || !strcmp(line, "0"))
			snprintf(v2, len, "%s", b + 1);
		else if (has_word(a + 1, "memory"))
			snprintf(v1, len, "%s", b + 1);
	}
	fclose(f);
}

/* Mount point and root of the v1 memory hierarchy and of cgroup2, from
 * /proc/self/mountinfo ("id parent dev root mnt opts ... - type src sb"). */
static void mounts(char *m1, char *r1, char *m2, char *r2, size_t len)
{
	char line[2 * PATH_MAX], root[PATH_MAX], mnt[PATH_MAX], type[32];
	char sb[512], *sep;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	m1[0] = m2[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		sep = strstr(line, " - ");
		if (!sep || sscanf(line, "%*s %*s %*s %4095s %4095s", root,
				   mnt) != 2 ||
		    sscanf(sep + 3, "%31s %*s %511s", type, sb) != 2)
			continue;
		if (!strcmp(type, "cgroup2") && !m2[0]) {
			snprintf(m2, len, "%s", mnt);
			snprintf(r2, len, "%s", root);
		} else if (!strcmp(type, "cgroup") && has_word(sb, "memory") &&
			   !m1[0]) {
			snprintf(m1, len, "%s", mnt);
			snprintf(r1, len, "%s", root);
		}
	}
	fclose(f);
}

/* The directory of cgroup path p in a hierarchy mounted at mnt whose root
 * is root (a container's mount shows only its own subtree). */
static void cg_dir(char *out, size_t len, const char *mnt, const char *root,
		   const char *p)
{
	size_t rl = strlen(root);

	if (strcmp(root, "/") && !strncmp(p, root, rl))
		p += rl;
	snprintf(out, len, "%s%s", mnt, p);
}

static bool file_has_word(const char *dir, const char *name, const char *word,
			  char *text, size_t len)
{
	text[0] = '\0';
	if (!read_first_line(dir, name, text, len))
		return false;
	for (char *t = text; *t; t++)
		if (*t == ' ')
			*t = ',';
	return has_word(text, word);
}

/* Fill cg.version and cg.cur, or cg.why: v2 where it offers the memory
 * controller, else v1. */
static void locate(void)
{
	char p1[PATH_MAX], p2[PATH_MAX], m1[PATH_MAX], r1[PATH_MAX];
	char m2[PATH_MAX], r2[PATH_MAX], dir[PATH_MAX], ctl[256];

	memset(&cg, 0, sizeof(cg));
	self_paths(p1, p2, sizeof(p1));
	mounts(m1, r1, m2, r2, sizeof(m1));
	if (p2[0] && m2[0]) {
		cg_dir(dir, sizeof(dir), m2, r2, p2);
		if (file_has_word(dir, "cgroup.controllers", "memory", ctl,
				  sizeof(ctl))) {
			cg.version = 2;
			snprintf(cg.cur, sizeof(cg.cur), "%s", dir);
			return;
		}
	}
	if (p1[0] && m1[0]) {
		cg_dir(cg.cur, sizeof(cg.cur), m1, r1, p1);
		cg.version = 1;
		return;
	}
	snprintf(cg.why, sizeof(cg.why), "this process has no usable memory controller: %s, and %s",
		 p1[0] ? "cgroup v1's memory hierarchy is not mounted" :
		 "/proc/self/cgroup has no cgroup v1 memory hierarchy",
		 !p2[0] || !m2[0] ? "no cgroup v2 hierarchy is mounted" :
		 ctl[0] ? "its cgroup v2 does not offer the memory controller" :
		 "its cgroup v2 offers no controllers (cgroup.controllers is empty)");
}

/* What rebench itself needs inside the limit: what the run allocates
 * after moving in (buffers, statistics: memory.h) and MEMCG_MARGIN for
 * thread stacks and kernel memory.  The margin is measured: a 4-thread
 * run on a 1 GiB file under cgroup v1 peaked at 3.2 MiB above its
 * estimate without page cache (memory.max_usage_in_bytes). */
static uint64_t own_need(const struct workload *wls, size_t n)
{
	uint64_t need = MEMCG_MARGIN;
	size_t k;

	for (k = 0; k < n; k++)
		need += memory_estimate(&wls[k]);
	return need;
}

static const char *line_name(const struct spec *s, char *buf, size_t len)
{
	if (s->line)
		snprintf(buf, len, "%s line %u", s->file ? s->file : "stdin",
			 s->line);
	else
		snprintf(buf, len, "the command line");
	return buf;
}

int memcg_check(const struct workload *wls, size_t n)
{
	const struct workload *first = NULL;
	char a[32], b[32], c[32], d[32], l[64];
	uint64_t need;
	size_t k;

	for (k = 0; k < n && !first; k++)
		if (wls[k].spec.cache_bytes)
			first = &wls[k];
	if (!first)
		return 0;
	for (k = 0; k < n; k++) {
		const struct spec *s = &wls[k].spec;

		if (s->cache_bytes != first->spec.cache_bytes) {
			if (s->cache_bytes)
				spec_error(s, "--cache %s: %s (%s) has --cache %s; the workloads of one run share one memory cgroup, so one limit: give all of them the same --cache",
					   fmt_size_human(a, sizeof(a), s->cache_bytes),
					   line_name(&first->spec, l, sizeof(l)),
					   first->tgt.path,
					   fmt_size_human(b, sizeof(b), first->spec.cache_bytes));
			else
				spec_error(s, "%s has no --cache, but %s has --cache %s: the workloads of one run share the memory cgroup, so this one would be limited too; give every workload the same --cache, or run them apart",
					   wls[k].tgt.path,
					   line_name(&first->spec, l, sizeof(l)),
					   fmt_size_human(b, sizeof(b), first->spec.cache_bytes));
			return -EINVAL;
		}
		if (!s->paged) {
			spec_error(s, "--cache %s: the limit is on the page cache, which O_DIRECT (rebench's default) bypasses, so it would limit nothing; add -p (buffered) or -t mmap, or drop --cache",
				   fmt_size_human(a, sizeof(a), s->cache_bytes));
			return -EINVAL;
		}
	}
	need = own_need(wls, n);
	if (first->spec.cache_bytes < need) {
		spec_error(&first->spec, "--cache %s: below the %s this run needs for rebench itself (%s of buffers and statistics, and %s for thread stacks, kernel memory and room to do I/O), which the limit counts too; give --cache %s or more, or fewer threads (-c), a smaller -q or -b, or a larger -g",
			   fmt_size_human(a, sizeof(a), first->spec.cache_bytes),
			   fmt_size_human(b, sizeof(b), need),
			   fmt_size_human(c, sizeof(c), need - MEMCG_MARGIN),
			   fmt_size_human(l, sizeof(l), MEMCG_MARGIN),
			   fmt_size_short(d, sizeof(d), (need + (1 << 20) - 1) & ~(uint64_t)((1 << 20) - 1)));
		return -EINVAL;
	}
	locate();
	if (!cg.version) {
		spec_error(&first->spec, "--cache: %s; it needs a memory cgroup (v2 memory.max, or v1 memory.limit_in_bytes): enable the memory controller, or drop --cache",
			   cg.why);
		return -EINVAL;
	}
	if (access(cg.cur, W_OK)) {
		spec_error(&first->spec, "--cache: cannot create a memory cgroup under %s: %s%s",
			   cg.cur, strerror(errno),
			   geteuid() ? " (creating cgroups needs root: run with sudo, or drop --cache)" : "; drop --cache");
		return -EINVAL;
	}
	return 0;
}

static int write_str(const char *dir, const char *name, const char *val)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return write_value(path, val);
}

/* Empty cgroups rebench-PID left by a process that is gone (killed by
 * SIGKILL or the OOM killer, which no cleanup survives). */
static void remove_stale(void)
{
	char path[PATH_MAX + 300], proc[64];
	struct dirent *d;
	DIR *dir = opendir(cg.cur);
	long pid;

	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (sscanf(d->d_name, "rebench-%ld", &pid) != 1)
			continue;
		snprintf(proc, sizeof(proc), "/proc/%ld", pid);
		if (!access(proc, F_OK))
			continue;
		snprintf(path, sizeof(path), "%s/%s", cg.cur, d->d_name);
		rmdir(path);
	}
	closedir(dir);
}

int memcg_enter(const struct workload *wls, size_t n)
{
	static bool at_exit;
	const struct spec *s = n ? &wls[0].spec : NULL;
	char val[32], pid[24];
	int e;

	if (!s || !s->cache_bytes)
		return 0;
	if (!at_exit && !atexit(memcg_leave))
		at_exit = true;	/* an exit() anywhere still removes it */
	if (!cg.version)
		locate();
	if (!cg.version) {
		spec_error(s, "--cache: %s", cg.why);
		return -ENODEV;
	}
	remove_stale();
	snprintf(cg.run, sizeof(cg.run), "%.4000s/rebench-%ld", cg.cur,
		 (long)getpid());
	if (mkdir(cg.run, 0755) && errno != EEXIST) {
		e = -errno;
		spec_error(s, "--cache: cannot create the memory cgroup %s: %s%s",
			   cg.run, strerror(-e), e == -EACCES || e == -EPERM ?
			   " (creating cgroups needs root: run with sudo, or drop --cache)" : "; drop --cache");
		cg.run[0] = '\0';
		return e;
	}
	snprintf(val, sizeof(val), "%" PRIu64, s->cache_bytes);
	e = write_str(cg.run, cg.version == 2 ? "memory.max" :
		      "memory.limit_in_bytes", val);
	if (e) {
		spec_error(s, "--cache %s: cannot set the limit of %s: %s",
			   val, cg.run, strerror(-e));
		memcg_leave();
		return e;
	}
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	e = write_str(cg.run, "cgroup.procs", pid);
	if (e) {
		spec_error(s, "--cache: cannot move rebench into %s: %s%s",
			   cg.run, strerror(-e), cg.version == 2 && e == -EBUSY ?
			   " (cgroup v2 moves a process only between cgroups that may hold processes)" : "");
		memcg_leave();
		return e;
	}
	snprintf(where, sizeof(where), "cgroup v%d %s", cg.version, cg.run);
	return 0;
}

int memcg_drop_target_pages(const struct workload *wls, size_t n)
{
	size_t k;
	int fd, e;

	for (k = 0; k < n; k++) {
		const struct workload *wl = &wls[k];

		if (!wl->spec.cache_bytes)
			continue;
		fd = open(wl->tgt.path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			e = errno;
			spec_error(&wl->spec, "--cache: cannot open %s to drop its cached pages: %s",
				   wl->tgt.path, strerror(e));
			return -e;
		}
		/* dirty pages (a layout just written) are not dropped */
		fdatasync(fd);
		e = posix_fadvise(fd, (off_t)wl->spec.region_start,
				  (off_t)wl->spec.region_len,
				  POSIX_FADV_DONTNEED);
		close(fd);
		if (e) {
			spec_error(&wl->spec, "--cache: cannot drop the cached pages of %s: posix_fadvise: %s",
				   wl->tgt.path, strerror(e));
			return -e;
		}
	}
	return 0;
}

void memcg_leave(void)
{
	char pid[24];
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	int e, tries;

	if (!cg.run[0])
		return;
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	e = write_str(cg.cur, "cgroup.procs", pid);
	if (e)
		fprintf(stderr, "rebench: cannot move back from the memory cgroup %s to %s: %s\n",
			cg.run, cg.cur, strerror(-e));
	/* v1: reclaim what it holds now, so rmdir has nothing to move */
	if (cg.version == 1)
		write_str(cg.run, "memory.force_empty", "0");
	for (tries = 0; (e = rmdir(cg.run) ? errno : 0) == EBUSY && tries < 50;
	     tries++)
		nanosleep(&pause, NULL);	/* exiting threads still in it */
	if (e && e != ENOENT)
		fprintf(stderr, "rebench: cannot remove the memory cgroup %s: %s; remove it by hand: rmdir %s\n",
			cg.run, strerror(e), cg.run);
	cg.run[0] = '\0';
}

const char *memcg_where(void)
{
	return where;
}
