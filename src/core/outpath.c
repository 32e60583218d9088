/* outpath.c - see outpath.h. */
#include "core/outpath.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "target/inuse.h"

/* File systems whose files are not data but the kernel's settings and
 * state (a write to /proc/sys/kernel/hostname renames the machine, one to
 * a cgroup file moves processes or limits memory): no output goes there,
 * whatever the file looks like to stat(2). */
static const struct pseudo_fs {
	unsigned long magic;
	const char *name;
} pseudo_fs[] = {
	{ PROC_SUPER_MAGIC, "proc" },
	{ SYSFS_MAGIC, "sysfs" },
	{ DEBUGFS_MAGIC, "debugfs" },
	{ TRACEFS_MAGIC, "tracefs" },
	{ CGROUP_SUPER_MAGIC, "cgroup" },
	{ CGROUP2_SUPER_MAGIC, "cgroup2" },
	{ SECURITYFS_MAGIC, "securityfs" },
	{ SELINUX_MAGIC, "selinuxfs" },
	{ SMACK_MAGIC, "smackfs" },
	{ BPF_FS_MAGIC, "bpf" },
	{ PSTOREFS_MAGIC, "pstore" },
	{ EFIVARFS_MAGIC, "efivarfs" },
	{ DEVPTS_SUPER_MAGIC, "devpts" },
	{ BINFMTFS_MAGIC, "binfmt_misc" },
	{ RDTGROUP_SUPER_MAGIC, "resctrl" },
	{ NSFS_MAGIC, "nsfs" },
	{ USBDEVICE_SUPER_MAGIC, "usbfs" },
	{ OPENPROM_SUPER_MAGIC, "openpromfs" },
	{ AAFS_MAGIC, "apparmorfs" },
	{ 0x62656570, "configfs" },
	{ 0x65735543, "fusectl" },
	{ 0x19800202, "mqueue" },
	{ AUTOFS_SUPER_MAGIC, "autofs" },
	{ BINDERFS_SUPER_MAGIC, "binderfs" },
	{ XENFS_SUPER_MAGIC, "xenfs" },
	{ 0x6e667364, "nfsd" },		/* /proc/fs/nfsd: "threads" 0 stops it */
	{ 0x67596969, "rpc_pipefs" },
	{ 0xa647361, "functionfs" },
	{ 0xaee71ee7, "gadgetfs" },
	{ HUGETLBFS_MAGIC, "hugetlbfs" },	/* no write(2) at all */
};

/* The pseudo file system under fd (or path, when fd < 0), or NULL. */
static const char *pseudo_fs_of(int fd, const char *path)
{
	struct statfs sfs;
	size_t i;

	if (fd >= 0 ? fstatfs(fd, &sfs) : statfs(path, &sfs))
		return NULL;
	for (i = 0; i < sizeof(pseudo_fs) / sizeof(pseudo_fs[0]); i++)
		if ((unsigned long)sfs.f_type == pseudo_fs[i].magic)
			return pseudo_fs[i].name;
	return NULL;
}

const char *outpath_pseudo_fs(const char *path)
{
	return pseudo_fs_of(-1, path);
}

static int pseudo_refused(const char *what, const char *path, const char *fs,
			  char *err, size_t len)
{
	snprintf(err, len, "%s %s: refusing to write there: it is on %s, a pseudo file system whose files are the kernel's settings and state, not data; write to a file on a real file system",
		 what, path, fs);
	return -EPERM;
}

const char *outpath_kind(mode_t m)
{
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/* The rule, on an open descriptor fd (or, when fd < 0, the stat of an
 * existing path). */
static int check_stat(const char *what, const char *path, int fd,
		      const struct stat *st, char *err, size_t len)
{
	const char *fs = pseudo_fs_of(fd, path);
	char why[1024];

	if (fs)
		return pseudo_refused(what, path, fs, err, len);
	if (!S_ISREG(st->st_mode)) {
		snprintf(err, len, "%s %s: refusing to write there: it is %s; rebench writes only regular files or new names in an existing directory",
			 what, path, outpath_kind(st->st_mode));
		return -EINVAL;
	}
	if (inuse_file(path, st->st_dev, st->st_ino, why, sizeof(why))) {
		snprintf(err, len, "%s %s: refusing to write there: %s", what, path,
			 why);
		return -EBUSY;
	}
	return 0;
}

static int open_failed(const char *what, const char *path, int e, char *err,
		       size_t len)
{
	snprintf(err, len, "%s %s: cannot write there: %s%s", what, path,
		 strerror(e),
		 e == ENOENT ? " (the directory does not exist)" :
		 e == ENOTDIR ? " (a part of the path is not a directory)" :
		 e == ENXIO ? " (a FIFO or socket, not a regular file)" : "");
	return -e;
}

int outpath_check(const char *what, const char *path, char *err, size_t len)
{
	const char *fs_name;
	struct stat st;
	int fd;

	if (!path[0]) {
		snprintf(err, len, "%s: the file name is empty", what);
		return -EINVAL;
	}
	if (!stat(path, &st)) {
		int ret = check_stat(what, path, -1, &st, err, len);

		if (ret)
			return ret;
		/* writable, without truncating what is there yet */
		fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd < 0)
			return open_failed(what, path, errno, err, len);
		close(fd);
		return 0;
	}
	if (errno != ENOENT)
		return open_failed(what, path, errno, err, len);
	/* a new name: its directory's file system first (creating a name on
	 * mqueue makes a kernel object), then prove it by creating it and
	 * leave nothing behind */
	{
		char dir[PATH_MAX];

		snprintf(dir, sizeof(dir), "%s", path);
		fs_name = pseudo_fs_of(-1, dirname(dir));
		if (fs_name)
			return pseudo_refused(what, path, fs_name, err, len);
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, 0644);
	if (fd < 0)
		return open_failed(what, path, errno, err, len);
	fs_name = pseudo_fs_of(fd, path);
	close(fd);
	unlink(path);
	return fs_name ? pseudo_refused(what, path, fs_name, err, len) : 0;
}

FILE *outpath_open(const char *what, const char *path)
{
	char err[PATH_MAX + 1200];
	struct stat st;
	FILE *f;
	int fd, ret;

	/* O_NONBLOCK: a FIFO without a reader fails instead of hanging; no
	 * O_TRUNC until fstat says it is a regular file */
	fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
		  0644);
	if (fd < 0) {
		open_failed(what, path, errno, err, sizeof(err));
		goto out_err;
	}
	if (fstat(fd, &st)) {
		open_failed(what, path, errno, err, sizeof(err));
		goto out_close;
	}
	ret = check_stat(what, path, fd, &st, err, sizeof(err));
	if (ret)
		goto out_close;
	if (ftruncate(fd, 0) || fcntl(fd, F_SETFL, 0)) {
		open_failed(what, path, errno, err, sizeof(err));
		goto out_close;
	}
	f = fdopen(fd, "w");
	if (f)
		return f;
	open_failed(what, path, errno, err, sizeof(err));
out_close:
	close(fd);
out_err:
	fprintf(stderr, "rebench: %s\n", err);
	return NULL;
}

/* Close f: 0, or the first -errno of its writes, its flush or its close;
 * st is what f wrote (for a removal), when it can be had. */
static int close_stream(FILE *f, struct stat *st, bool *have_st)
{
	int e = 0;

	*have_st = !fstat(fileno(f), st);
	/* a failed write leaves its data in the buffer: flushing again gets
	 * the real errno (ENOSPC, EDQUOT), where ferror() only says "failed" */
	if (fflush(f))
		e = errno;
	else if (ferror(f))
		e = EIO;
	if (fclose(f) && !e)
		e = errno;
	return -e;
}

int outpath_close(const char *what, const char *path, FILE *f)
{
	struct stat st;
	bool have_st;
	int ret = close_stream(f, &st, &have_st);

	if (ret)
		fprintf(stderr, "rebench: cannot write %s %s: %s; the file is incomplete\n",
			what, path, strerror(-ret));
	return ret;
}

int outpath_close_removing(const char *what, const char *path, FILE *f)
{
	struct stat st;
	bool have_st;
	int ret = close_stream(f, &st, &have_st);

	if (!ret)
		return 0;
	if (have_st)
		outpath_unlink_same(path, st.st_dev, st.st_ino);
	fprintf(stderr, "rebench: cannot write %s %s: %s; %s\n", what, path,
		strerror(-ret), have_st ? "removed it" : "left it as it is");
	return ret;
}

void outpath_unlink_same(const char *path, dev_t dev, ino_t ino)
{
	struct stat st;

	if (!lstat(path, &st) && S_ISREG(st.st_mode) && st.st_dev == dev &&
	    st.st_ino == ino)
		unlink(path);
}

int outpath_reopen(int fd, int flags)
{
	char link[40];

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	return open(link, flags | O_NOCTTY | O_CLOEXEC);
}

/* The first error of stdout: later flushes of a failed stream only say
 * EIO, or nothing. */
static int stdout_errno;

int outpath_flush_stdout(void)
{
	if (fflush(stdout) && !stdout_errno)
		stdout_errno = errno;
	if (ferror(stdout) && !stdout_errno)
		stdout_errno = EIO;
	return -stdout_errno;
}

int outpath_finish_stdout(void)
{
	int e;

	outpath_flush_stdout();
	if (fclose(stdout) && !stdout_errno)
		stdout_errno = errno;
	e = stdout_errno;
	if (!e)
		return 0;
	fprintf(stderr, "rebench: cannot write the results to standard output: %s%s\n",
		strerror(e), e == EPIPE ? " (the reader closed the pipe); the --output files, if any, are complete" : "");
	return -e;
}

int outpath_make_tmpdir(const char *what, const char *name, char *dir,
			size_t len)
{
	const char *env = getenv("TMPDIR");
	/* a relative TMPDIR would depend on where rebench was started */
	bool own = env && env[0] == '/';
	const char *base = own ? env : "/tmp";
	int n, e;

	n = snprintf(dir, len, "%s/rebench-%s.XXXXXX", base, name);
	if (n < 0 || (size_t)n >= len) {
		fprintf(stderr, "rebench: %s: cannot make a temporary directory in %.100s%s: the name is too long\n",
			what, base, own ? " (TMPDIR)" : "");
		return -ENAMETOOLONG;
	}
	if (mkdtemp(dir))
		return 0;
	e = errno;
	fprintf(stderr, "rebench: %s: cannot make a temporary directory in %s%s: %s\n",
		what, base, own ? " (TMPDIR)" : "", strerror(e));
	return -e;
}

void outpath_remove_tmpdir(const char *dir)
{
	char path[PATH_MAX + 300];
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

bool outpath_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	bool ea = !stat(a, &sa), eb = !stat(b, &sb);

	if (ea && eb)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	return !ea && !eb && !strcmp(a, b);
}
