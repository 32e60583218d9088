/* outpath.c - see outpath.h. */
#include "outpath.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inuse.h"

static const char *kind_of(mode_t m)
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

/* The rule, on an open descriptor (or the stat of an existing path). */
static int check_stat(const char *what, const char *path, const struct stat *st,
		      char *err, size_t len)
{
	char why[1024];

	if (!S_ISREG(st->st_mode)) {
		snprintf(err, len, "%s %s: refusing to write there: it is %s; rebench writes only regular files or new names in an existing directory",
			 what, path, kind_of(st->st_mode));
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
	struct stat st;
	int fd;

	if (!path[0]) {
		snprintf(err, len, "%s: the file name is empty", what);
		return -EINVAL;
	}
	if (!stat(path, &st)) {
		int ret = check_stat(what, path, &st, err, len);

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
	/* a new name: prove it by creating it, then leave nothing behind */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, 0644);
	if (fd < 0)
		return open_failed(what, path, errno, err, len);
	close(fd);
	unlink(path);
	return 0;
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
	ret = check_stat(what, path, &st, err, sizeof(err));
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

int outpath_close(const char *what, const char *path, FILE *f)
{
	int e = 0;

	/* a failed write leaves its data in the buffer: flushing again gets
	 * the real errno (ENOSPC, EDQUOT), where ferror() only says "failed" */
	if (fflush(f))
		e = errno;
	else if (ferror(f))
		e = EIO;
	if (fclose(f) && !e)
		e = errno;
	if (!e)
		return 0;
	fprintf(stderr, "rebench: cannot write %s %s: %s; the file is incomplete\n",
		what, path, strerror(e));
	return -e;
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
