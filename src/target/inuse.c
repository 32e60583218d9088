/* inuse.c - see inuse.h.  Everything here only reads: sysfs, /proc and
 * an O_EXCL open that is closed at once. */
#include "target/inuse.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "target/mountinfo.h"
#include "target/sysfs.h"

/* Stacks deeper than this are not followed (and count as in use). */
#define MAX_DEPTH 8

static bool blk_busy(dev_t dev, const char *node, char *why, size_t len,
		     int depth, bool whole_disk_of_target);

static bool dev_of(const char *sysdir, dev_t *dev)
{
	char buf[32];
	unsigned maj, min;

	if (!read_first_line(sysdir, "dev", buf, sizeof(buf)) ||
	    sscanf(buf, "%u:%u", &maj, &min) != 2)
		return false;
	*dev = makedev(maj, min);
	return true;
}

/* A swap area on a block device (by device number) or a file (by inode). */
static bool is_swap(dev_t rdev, dev_t st_dev, ino_t ino, bool file)
{
	char line[4096], path[PATH_MAX];
	struct stat st;
	bool found = false;
	FILE *f = fopen("/proc/swaps", "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%4095s", path) != 1 || path[0] != '/' ||
		    stat(path, &st))
			continue;
		found = file ? S_ISREG(st.st_mode) && st.st_dev == st_dev &&
			       st.st_ino == ino :
			       S_ISBLK(st.st_mode) && st.st_rdev == rdev;
	}
	fclose(f);
	return found;
}

/* Processes holding node open, "1234 (python3)", up to three. */
static void openers(const char *node, char *out, size_t len)
{
	char path[600], link[PATH_MAX], comm[64];
	struct dirent *p, *fd;
	size_t n = 0, used = 0;
	DIR *procs = opendir("/proc"), *fds;

	out[0] = '\0';
	if (!procs)
		return;
	while (n < 3 && (p = readdir(procs))) {
		if (p->d_name[0] < '1' || p->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fd", p->d_name);
		fds = opendir(path);
		if (!fds)
			continue;
		while ((fd = readdir(fds))) {
			ssize_t l;

			snprintf(path, sizeof(path), "/proc/%s/fd/%s", p->d_name,
				 fd->d_name);
			l = readlink(path, link, sizeof(link) - 1);
			if (l <= 0)
				continue;
			link[l] = '\0';
			if (strcmp(link, node))
				continue;
			snprintf(path, sizeof(path), "/proc/%s", p->d_name);
			if (!read_first_line(path, "comm", comm, sizeof(comm)))
				snprintf(comm, sizeof(comm), "?");
			used += (size_t)snprintf(out + used, len - used, "%s%s (%s)",
						 n ? ", " : "", p->d_name, comm);
			n++;
			break;
		}
		closedir(fds);
		if (used >= len)
			break;
	}
	closedir(procs);
}

/* The device under a loop's backing file, when that file is a block
 * device node; false for a regular file or one that cannot be found. */
static bool loop_backing_blockdev(const char *loopdir, dev_t *dev)
{
	char back[PATH_MAX];
	struct stat st;
	char *del;

	if (!read_first_line(loopdir, "loop/backing_file", back, sizeof(back)))
		return false;
	del = strstr(back, " (deleted)");
	if (del)
		*del = '\0';
	if (stat(back, &st) || !S_ISBLK(st.st_mode))
		return false;
	*dev = st.st_rdev;
	return true;
}

/* "A backs B, and B is mounted on M"; "A backs B, B backs C, and C ..." */
static void stack_why(char *why, size_t len, const char *lower,
		      const char *loop, const char *inner)
{
	snprintf(why, len, "%s backs %s, %s%s", lower, loop,
		 strstr(inner, " backs ") ? "" : "and ", inner);
}

/* The kernel's 32-bit device encoding (loop_info64.lo_device). */
static dev_t decode_dev(uint64_t d)
{
	return makedev((unsigned)((d & 0xfff00) >> 8),
		       (unsigned)((d & 0xff) | ((d >> 12) & 0xfff00)));
}

/* What a loop device is backed by: a block device, or a file's inode. */
struct backing {
	bool file;
	dev_t dev;		/* the block device, or the file's st_dev */
	ino_t ino;
};

/* Is the attached loop device /sys/block/NAME backed by what? */
static bool loop_backed_by(const char *name, const struct backing *what)
{
	char dir[PATH_MAX], lnode[300];
	struct loop_info64 li;
	dev_t back;
	bool match;
	int fd;

	snprintf(dir, sizeof(dir), "/sys/block/%.255s", name);
	if (!what->file)
		return loop_backing_blockdev(dir, &back) && back == what->dev;
	snprintf(lnode, sizeof(lnode), "/dev/%.255s", name);
	/* the backing file's identity, exact even if renamed */
	fd = open(lnode, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	match = !ioctl(fd, LOOP_GET_STATUS64, &li) &&
		decode_dev(li.lo_device) == what->dev &&
		li.lo_inode == (uint64_t)what->ino;
	close(fd);
	return match;
}

/* Loop devices stacked on lower (backed by it) that are in use: the
 * first one found goes to why, with the chain that makes it busy. */
static bool loops_above(const struct backing *what, const char *lower,
			char *why, size_t len, int depth)
{
	char dir[PATH_MAX], inner[1024], lnode[300];
	struct dirent *de;
	bool busy = false;
	dev_t ldev;
	DIR *d = opendir("/sys/block");

	if (!d)
		return false;
	while (!busy && (de = readdir(d))) {
		if (strncmp(de->d_name, "loop", 4) ||
		    !loop_backed_by(de->d_name, what))
			continue;
		snprintf(dir, sizeof(dir), "/sys/block/%.255s", de->d_name);
		if (!dev_of(dir, &ldev))
			continue;
		snprintf(lnode, sizeof(lnode), "/dev/%.255s", de->d_name);
		if (blk_busy(ldev, lnode, inner, sizeof(inner), depth + 1, false)) {
			stack_why(why, len, lower, lnode, inner);
			busy = true;
		}
	}
	closedir(d);
	return busy;
}

/* Mounted, swap, holders and loops above: the checks that apply to a
 * target's whole disk as well as to the target. */
static bool used_directly(dev_t dev, const char *node, const char *sysdir,
			  char *why, size_t len, int depth)
{
	struct backing what = { .file = false, .dev = dev };
	char where[PATH_MAX], path[PATH_MAX + 16];
	struct dirent *de;
	pid_t pid;
	DIR *d;

	if (mountinfo_find_any(dev, where, sizeof(where), &pid)) {
		if (pid)
			snprintf(why, len, "%s is mounted on %.900s in another mount namespace (process %d; see nsenter -t %d -m findmnt)",
				 node, where, (int)pid, (int)pid);
		else
			snprintf(why, len, "%s is mounted on %.900s", node, where);
		return true;
	}
	if (is_swap(dev, 0, 0, false)) {
		snprintf(why, len, "%s is in use as swap", node);
		return true;
	}
	snprintf(path, sizeof(path), "%s/holders", sysdir);
	d = opendir(path);
	if (d) {
		while ((de = readdir(d)))
			if (de->d_name[0] != '.')
				break;
		if (de)
			snprintf(why, len, "%s is held by %s (LVM, RAID, device mapper or similar)",
				 node, de->d_name);
		closedir(d);
		if (de)
			return true;
	}
	return loops_above(&what, node, why, len, depth);
}

/* Is block device dev (node names it in messages and is opened for the
 * O_EXCL test) in use?  A whole disk's partitions are checked too. */
static bool blk_busy(dev_t dev, const char *node, char *why, size_t len,
		     int depth, bool whole_disk_of_target)
{
	char dir[PATH_MAX], sub[PATH_MAX + 300], pnode[300], who[256];
	struct dirent *de;
	bool busy;
	dev_t pdev;
	DIR *d;
	int fd;

	if (depth > MAX_DEPTH) {
		snprintf(why, len, "%s is under a stack of more than %d devices, too deep to check",
			 node, MAX_DEPTH);
		return true;
	}
	if (!sysfs_dir(dev, dir))
		return false;
	if (used_directly(dev, node, dir, why, len, depth))
		return true;
	if (whole_disk_of_target)
		return false;	/* a sibling partition in use is no concern */
	/* a whole disk is in use when any of its partitions is */
	d = opendir(dir);
	if (!d)
		return false;
	busy = false;
	while (!busy && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/partition", dir, de->d_name);
		if (access(sub, F_OK))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (!dev_of(sub, &pdev))
			continue;
		snprintf(pnode, sizeof(pnode), "/dev/%s", de->d_name);
		busy = blk_busy(pdev, pnode, why, len, depth, false);
	}
	closedir(d);
	if (busy)
		return true;
	/* an exclusive claim by a program, or by the kernel for a user the
	 * checks above do not know */
	fd = open(node, O_RDONLY | O_EXCL | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
	} else if (errno == EBUSY) {
		openers(node, who, sizeof(who));
		snprintf(why, len, "%s is claimed exclusively (opened with O_EXCL) by %s%s",
			 node, who[0] ? "process " : "another program or the kernel",
			 who);
		return true;
	}
	return false;
}

bool inuse_blockdev(const char *path, dev_t dev, char *why, size_t len)
{
	char dir[PATH_MAX], parent[PATH_MAX + 16], pnode[300];
	dev_t pdev;

	if (blk_busy(dev, path, why, len, 0, false))
		return true;
	/* a partition's whole disk: mounted as a whole, swap, or under a
	 * loop device in use overlaps the partition */
	if (!sysfs_dir(dev, dir))
		return false;
	snprintf(parent, sizeof(parent), "%.4000s/partition", dir);
	if (access(parent, F_OK))
		return false;
	snprintf(parent, sizeof(parent), "%s", dir);
	*strrchr(parent, '/') = '\0';
	if (!dev_of(parent, &pdev))
		return false;
	snprintf(pnode, sizeof(pnode), "/dev/%s", strrchr(parent, '/') + 1);
	return blk_busy(pdev, pnode, why, len, 0, true);
}

bool inuse_file(const char *path, dev_t st_dev, ino_t ino, char *why,
		size_t len)
{
	struct backing what = { .file = true, .dev = st_dev, .ino = ino };

	if (is_swap(0, st_dev, ino, true)) {
		snprintf(why, len, "%s is in use as swap (a swap file)", path);
		return true;
	}
	return loops_above(&what, path, why, len, 0);
}

bool inuse_read_only(const char *path, bool blockdev, char *why, size_t len)
{
	int fd, ro = 0;

	if (!blockdev) {
		if (!access(path, F_OK) && faccessat(AT_FDCWD, path, W_OK, AT_EACCESS)) {
			snprintf(why, len, "%s cannot be written: %s", path,
				 strerror(errno));
			return true;
		}
		return false;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (!ioctl(fd, BLKROGET, &ro) && ro)
		snprintf(why, len, "%s is read-only (the kernel's BLKROGET says so: a loop device attached with losetup -r, blockdev --setro, or a write-protected drive)",
			 path);
	close(fd);
	return ro != 0;
}
