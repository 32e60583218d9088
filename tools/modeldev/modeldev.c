/* modeldev.c - rebench-modeldev: a FUSE file system with one file, disk,
 * that behaves like a model device, and one, counters, that says what the
 * model did (rebench-modeldev(1)).
 *
 * A loop device with direct I/O over disk is a block device that reaches
 * the model through the real kernel path: each request the loop device
 * sends is a FUSE read, write, fsync or fallocate here.  The model (a
 * struct model_type) gives the time the request completes; the thread
 * that serves it replies then, by the calibrated absolute-deadline wait
 * rebench's --delay uses (src/core/delay.c: sleep, then spin the last
 * stretch).  Requests are served by up to MAX_THREADS threads at once,
 * and the kernel may keep MAX_BACKGROUND asynchronous ones outstanding, so
 * requests queued together overlap as the model allows.
 *
 * The data lives in memory (an anonymous mapping the size of the device,
 * touched only where written), so it is gone when the daemon stops.  A
 * third file, control, takes commands: "cut" is a power cut (the write
 * cache's pending writes are lost, model.h).
 */
#define FUSE_USE_VERSION 312

#include <errno.h>
#include <fcntl.h>
#include <fuse3/fuse.h>
#include <getopt.h>
#include <linux/falloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "core/delay.h"
#include "core/units.h"
#include "model.h"

#define MAX_THREADS 128
#define MAX_BACKGROUND 128
#define COUNTERS_MAX 65536

static struct model model;
static struct delay_calib calib;

static const char *const disk_path = "/disk";
static const char *const counters_path = "/counters";
static const char *const control_path = "/control";

/* Reply at done (CLOCK_MONOTONIC ns), never before. */
static void wait_until(uint64_t done)
{
	struct delay_clock dc = { .c = &calib, .carry_ns = 0 };

	delay_wait(&dc, 0, done);
	model_done(&model);
}

static void *md_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	/* no page cache between the loop device and the model */
	cfg->direct_io = 1;
	cfg->kernel_cache = 0;
	cfg->attr_timeout = 3600;
	cfg->entry_timeout = 3600;
	if (conn->capable & FUSE_CAP_ASYNC_DIO)
		conn->want |= FUSE_CAP_ASYNC_DIO;
	conn->max_background = MAX_BACKGROUND;
	conn->congestion_threshold = MAX_BACKGROUND;
	return NULL;
}

static int md_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
	} else if (!strcmp(path, disk_path)) {
		st->st_mode = S_IFREG | 0600;
		st->st_nlink = 1;
		st->st_size = (off_t)model.size;
		st->st_blocks = (blkcnt_t)(model.size / 512);
	} else if (!strcmp(path, counters_path)) {
		st->st_mode = S_IFREG | 0444;
		st->st_nlink = 1;
	} else if (!strcmp(path, control_path)) {
		st->st_mode = S_IFREG | 0200;
		st->st_nlink = 1;
	} else {
		return -ENOENT;
	}
	return 0;
}

static int md_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
		      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	(void)off;
	(void)fi;
	(void)flags;
	if (strcmp(path, "/"))
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, disk_path + 1, NULL, 0, 0);
	fill(buf, counters_path + 1, NULL, 0, 0);
	fill(buf, control_path + 1, NULL, 0, 0);
	return 0;
}

/* counters: a snapshot taken at open, read as a file */
struct snapshot {
	size_t len;
	char text[];
};

static int md_open(const char *path, struct fuse_file_info *fi)
{
	fi->direct_io = 1;
	if (!strcmp(path, disk_path))
		return 0;
	if (!strcmp(path, control_path))
		return (fi->flags & O_ACCMODE) == O_WRONLY ? 0 : -EACCES;
	if (strcmp(path, counters_path))
		return -ENOENT;
	if ((fi->flags & O_ACCMODE) != O_RDONLY)
		return -EACCES;
	{
		struct snapshot *s = malloc(sizeof(*s) + COUNTERS_MAX);
		FILE *f;

		if (!s)
			return -ENOMEM;
		f = fmemopen(s->text, COUNTERS_MAX, "w");
		if (!f) {
			free(s);
			return -ENOMEM;
		}
		model_counters(&model, f);
		fflush(f);
		s->len = (size_t)ftell(f);
		fclose(f);
		fi->fh = (uint64_t)(uintptr_t)s;
	}
	return 0;
}

static int md_release(const char *path, struct fuse_file_info *fi)
{
	if (!strcmp(path, counters_path))
		free((void *)(uintptr_t)fi->fh);
	return 0;
}

/* The part of [off, off + size) inside the device. */
static size_t clamp(off_t off, size_t size)
{
	if (off < 0 || (uint64_t)off >= model.size)
		return 0;
	if (size > model.size - (uint64_t)off)
		size = (size_t)(model.size - (uint64_t)off);
	return size;
}

static int md_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	uint64_t now = delay_now_ns(), done;

	if (!strcmp(path, counters_path)) {
		const struct snapshot *s = (const struct snapshot *)(uintptr_t)fi->fh;

		if (off < 0 || (size_t)off >= s->len)
			return 0;
		if (size > s->len - (size_t)off)
			size = s->len - (size_t)off;
		memcpy(buf, s->text + off, size);
		return (int)size;
	}
	size = clamp(off, size);
	if (!size)
		return 0;
	done = model_read(&model, buf, (uint64_t)off, size, now);
	wait_until(done);
	return (int)size;
}

static int md_write(const char *path, const char *buf, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	uint64_t now = delay_now_ns(), done;

	(void)fi;
	if (!strcmp(path, control_path)) {
		/* "cut" (with or without its newline): a power cut, now */
		if ((size == 3 || (size == 4 && buf[3] == '\n')) && !memcmp(buf, "cut", 3)) {
			model_cut(&model, now);
			return (int)size;
		}
		return -EINVAL;
	}
	if (strcmp(path, disk_path))
		return -EACCES;
	size = clamp(off, size);
	if (!size)
		return -ENOSPC;
	done = model_write(&model, buf, (uint64_t)off, size, now);
	wait_until(done);
	return (int)size;
}

static int md_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void)datasync;
	(void)fi;
	if (strcmp(path, disk_path))
		return 0;
	wait_until(model_flush(&model, delay_now_ns()));
	return 0;
}

/* The loop device's discard (punch a hole) is a trim; its write-zeroes
 * (zero a range) a write of zeros. */
static int md_fallocate(const char *path, int mode, off_t off, off_t len,
			struct fuse_file_info *fi)
{
	uint64_t now = delay_now_ns(), done;
	size_t n;

	(void)fi;
	if (strcmp(path, disk_path))
		return -EACCES;
	if (!(mode & FALLOC_FL_KEEP_SIZE) && mode)
		return -EOPNOTSUPP;
	n = clamp(off, (size_t)len);
	if (!(mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE)))
		return 0;	/* allocate: the whole device always is */
	if (!n)
		return 0;
	done = model_trim(&model, (uint64_t)off, n, !(mode & FALLOC_FL_PUNCH_HOLE), now);
	wait_until(done);
	return 0;
}

static int md_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	(void)fi;
	if (strcmp(path, disk_path))
		return -EACCES;
	return (uint64_t)size == model.size ? 0 : -EPERM;	/* a drive keeps its size */
}

static const struct fuse_operations ops = {
	.init = md_init,
	.getattr = md_getattr,
	.readdir = md_readdir,
	.open = md_open,
	.release = md_release,
	.read = md_read,
	.write = md_write,
	.fsync = md_fsync,
	.fallocate = md_fallocate,
	.truncate = md_truncate,
};

static int write_pidfile(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f || fprintf(f, "%ld\n", (long)getpid()) < 0 || fclose(f)) {
		fprintf(stderr, "rebench-modeldev: cannot write %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* Go to the background once the file system is mounted.  The parent
 * exits 0 only after the daemon has written its pid file, so that a
 * script that started it finds the mount and the pid when it returns. */
static int daemonize(const char *pidfile)
{
	int fd[2], nul;
	pid_t pid;
	char ok = 0;

	if (pipe(fd)) {
		perror("rebench-modeldev: pipe");
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		perror("rebench-modeldev: fork");
		return -1;
	}
	if (pid > 0) {
		close(fd[1]);
		/* 1 byte: ready; end of file: the daemon failed */
		_exit(read(fd[0], &ok, 1) == 1 && ok == 1 ? 0 : 1);
	}
	close(fd[0]);
	setsid();
	if (chdir("/"))
		return -1;
	if (pidfile && write_pidfile(pidfile))
		return -1;
	nul = open("/dev/null", O_RDWR);
	if (nul >= 0) {
		dup2(nul, 0);
		dup2(nul, 1);
		dup2(nul, 2);
		if (nul > 2)
			close(nul);
	}
	ok = 1;
	if (write(fd[1], &ok, 1) != 1)
		return -1;
	close(fd[1]);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rebench-modeldev [-f] [--pidfile FILE] --size SIZE MODEL MOUNTPOINT\n"
		"\n"
		"Mount a FUSE file system at MOUNTPOINT whose file disk (SIZE bytes)\n"
		"behaves like MODEL, and whose file counters says what the model did.\n"
		"Put a loop device with direct I/O over MOUNTPOINT/disk to get a block\n"
		"device (workloads/model-device.sh does all of it).\n"
		"\n"
		"  -f, --foreground  stay in the foreground\n"
		"  --pidfile FILE    write the daemon's pid to FILE once it serves\n"
		"  --size SIZE       the device's size (4k, 64m, 1g: powers of 1024)\n"
		"  -h, --help        this text\n"
		"\n"
		"MODEL is NAME:KEY=VALUE,... with the keys below (defaults shown);\n"
		"times need a unit (ns, us, ms, s), sizes take k, m, g.\n");
	model_help(f);
}

struct args {
	const char *pidfile, *model, *mnt;
	uint64_t size;
	int fg;
};

/* The command line into a: -1 to go on, else main's exit status (0 after
 * --help, 1 after a message). */
static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option longopts[] = {
		{ "foreground", no_argument, NULL, 'f' },
		{ "pidfile", required_argument, NULL, 'p' },
		{ "size", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *size_arg = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "fh", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': a->fg = 1; break;
		case 'p': a->pidfile = optarg; break;
		case 's': size_arg = optarg; break;
		case 'h': usage(stdout); return 0;
		default:
			fprintf(stderr, "rebench-modeldev: see rebench-modeldev --help\n");
			return 1;
		}
	}
	if (argc - optind != 2 || !size_arg) {
		fprintf(stderr, "rebench-modeldev: give --size SIZE, MODEL and MOUNTPOINT (see --help)\n");
		return 1;
	}
	if (parse_size(size_arg, &a->size) || !a->size) {
		fprintf(stderr, "rebench-modeldev: --size %s: not a size (4k, 64m, 1g)\n", size_arg);
		return 1;
	}
	a->model = argv[optind];
	a->mnt = argv[optind + 1];
	return -1;
}

/* Serve the mounted file system until unmounted or signalled (as a daemon
 * unless a->fg); main's exit status. */
static int serve(struct fuse *fuse, const struct args *a)
{
	struct fuse_loop_config *lc;
	int rc = 1;

	if (!a->fg && daemonize(a->pidfile))
		return 1;
	if (a->fg && a->pidfile && write_pidfile(a->pidfile))
		return 1;
	if (fuse_set_signal_handlers(fuse_get_session(fuse)))
		return 1;
	lc = fuse_loop_cfg_create();
	if (lc) {
		fuse_loop_cfg_set_max_threads(lc, MAX_THREADS);
		fuse_loop_cfg_set_idle_threads(lc, 16);
		rc = fuse_loop_mt(fuse, lc) ? 1 : 0;
		fuse_loop_cfg_destroy(lc);
		if (a->pidfile)
			unlink(a->pidfile);
	}
	fuse_remove_signal_handlers(fuse_get_session(fuse));
	return rc;
}

int main(int argc, char **argv)
{
	char err[512], *fargv[4];
	struct args a = { 0 };
	struct fuse_args args;
	struct fuse *fuse;
	int rc = 1;

	if (argc == 3 && !strcmp(argv[1], "--help") && !strcmp(argv[2], "roff")) {
		model_help_roff(stdout);	/* the man page's keys (make man) */
		return 0;
	}
	rc = parse_args(argc, argv, &a);
	if (rc >= 0)
		return rc;
	if (model_parse(&model, a.model, a.size, err, sizeof(err))) {
		fprintf(stderr, "rebench-modeldev: %s: %s\n", a.model, err);
		return 1;
	}
	/* waits end when asked, not up to 50 us later */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	delay_calibrate(&calib);

	fargv[0] = argv[0];
	fargv[1] = "-o";
	fargv[2] = "fsname=rebench-modeldev,subtype=modeldev";
	fargv[3] = NULL;
	args = (struct fuse_args)FUSE_ARGS_INIT(3, fargv);
	fuse = fuse_new(&args, &ops, sizeof(ops), NULL);
	if (!fuse) {
		fprintf(stderr, "rebench-modeldev: fuse_new failed\n");
		model_free(&model);
		return 1;
	}
	rc = 1;
	if (fuse_mount(fuse, a.mnt))
		fprintf(stderr, "rebench-modeldev: cannot mount on %s (is it an empty directory? is /dev/fuse there?)\n",
			a.mnt);
	else {
		rc = serve(fuse, &a);
		fuse_unmount(fuse);
	}
	fuse_destroy(fuse);
	model_free(&model);
	return rc;
}
