/* fds.c - what the interposer knows of each descriptor (preload.h): a
 * fixed table of MAX_FDS entries, and MAX_PATHS slots for the paths of the
 * followed ones.  A descriptor the program opened through a hook is
 * followed from its open; one it got otherwise (inherited across exec,
 * dup'ed, opened inside the C library) is adopted on its first call, its
 * path and position asked of the kernel.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "trace/preload/preload.h"

struct path_slot paths[MAX_PATHS];
static struct fd_entry fds[MAX_FDS];
static int warned_fds, warned_paths;

/* The file behind fd, as the kernel names it (absolute, links resolved). */
int fd_name(int fd, char *name)
{
	char link[40] = "/proc/self/fd/";
	struct line l = { link + 14, link + sizeof(link) - 1 };
	ssize_t n;

	put_u(&l, (uint64_t)fd, 10);
	*l.p = '\0';
	n = readlink(link, name, PATH_MAX - 1);
	if (n <= 0 || name[0] != '/')
		return -1;
	name[n] = '\0';
	return 0;
}

/* Regular files and block devices, and directories: a database's
 * fsync of its directory is part of what a commit costs. */
static bool recorded_kind(mode_t m)
{
	return S_ISREG(m) || S_ISBLK(m) || S_ISDIR(m);
}

bool is_data_file(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && recorded_kind(st.st_mode);
}

void forget(int fd)
{
	struct fd_entry *e;

	if (fd < 0 || fd >= MAX_FDS)
		return;
	e = &fds[fd];
	if (e->state == FD_TRACKED)
		__atomic_store_n(&paths[e->path].used, 0, __ATOMIC_RELEASE);
	e->state = FD_UNKNOWN;
}

/* A free path slot, taken; -1 (and a warning, once) when all are. */
int slot_take(int fd)
{
	static int hint;
	int i, s, zero;

	for (i = 0; i < MAX_PATHS; i++) {
		s = (hint + i) % MAX_PATHS;
		zero = 0;
		if (__atomic_compare_exchange_n(&paths[s].used, &zero, 1, false,
						__ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			hint = s + 1;
			return s;
		}
	}
	if (!__atomic_exchange_n(&warned_paths, 1, __ATOMIC_ACQ_REL))
		warn("more than 1024 files open at once: the calls on the others are not recorded",
		     fd);
	return -1;
}

void slot_release(int s)
{
	__atomic_store_n(&paths[s].used, 0, __ATOMIC_RELEASE);
}

/* fd is a data file the program opened (or uses), its path in slot s:
 * follow it.  false when fd is beyond the table (the slot is the
 * caller's to release). */
bool track(int fd, int s, int64_t pos, bool append)
{
	struct fd_entry *e;

	if (fd >= MAX_FDS) {
		if (!__atomic_exchange_n(&warned_fds, 1, __ATOMIC_ACQ_REL))
			warn("descriptors from 65536 on are not followed: their calls after the open are not recorded",
			     fd);
		return false;
	}
	forget(fd);
	e = &fds[fd];
	e->path = s;
	e->pos = pos;
	e->append = append;
	e->state = FD_TRACKED;
	return true;
}

/* The slot holding the name of fd when it is to be recorded, else -1. */
int named_slot(int fd)
{
	int s = slot_take(fd);

	if (s >= 0 && (fd_name(fd, paths[s].name) || !wanted(paths[s].name))) {
		slot_release(s);
		return -1;
	}
	return s;
}

/* A descriptor not seen opened: a data file matching the globs is
 * followed from here, its position asked of the kernel. */
static void adopt(int fd, struct fd_entry *e)
{
	struct stat st;
	int fl, s;

	if (fstat(fd, &st))
		return;		/* not open: stays unknown */
	e->state = FD_IGNORED;
	if (!recorded_kind(st.st_mode) || (s = named_slot(fd)) < 0)
		return;
	fl = fcntl(fd, F_GETFL);
	if (!track(fd, s, syscall(SYS_lseek, fd, 0, SEEK_CUR),
		   fl >= 0 && (fl & O_APPEND)))
		slot_release(s);
}

/* The entry of a followed descriptor, or NULL. */
struct fd_entry *lookup(int fd, bool adopting)
{
	struct fd_entry *e;

	if (fd < 0 || fd == log_fd || fd == counts_fd)
		return NULL;
	if (fd >= MAX_FDS) {
		if (!__atomic_exchange_n(&warned_fds, 1, __ATOMIC_ACQ_REL))
			warn("descriptors from 65536 on are not followed: their calls are not recorded",
			     fd);
		return NULL;
	}
	e = &fds[fd];
	if (e->state == FD_UNKNOWN && adopting)
		adopt(fd, e);
	return e->state == FD_TRACKED ? e : NULL;
}

