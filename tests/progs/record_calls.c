/* record_calls.c - a known sequence of file calls for test_record.sh, which
 * records it with rebench --record and compares the log line by line with
 * the one it expects.
 *
 *	record_calls DIR		the sequence, in DIR
 *	record_calls --exec FD DIR	the forked child after its exec: a
 *					write on the inherited FD, then a file
 *					of its own opened with O_APPEND
 *
 * Every call is checked; any surprise exits 1 with the call named, so a
 * wrong log is never blamed on the recorder when the program went astray.
 * Nothing is printed on success (stdio's own writes are not recorded, but
 * the less noise the better).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static char buf[16384];

#define CHECK(call, want)						\
	do {								\
		long long got_ = (long long)(call);			\
		if (got_ != (long long)(want)) {			\
			fprintf(stderr, "record_calls: %s gave %lld, expected %lld: %s\n", \
				#call, got_, (long long)(want),		\
				strerror(errno));			\
			exit(1);					\
		}							\
	} while (0)

static int data_fd = -1;

static void *reader_thread(void *arg)
{
	(void)arg;
	CHECK(pread(data_fd, buf, 512, 8192), 512);
	return NULL;
}

static int exec_child(int fd, const char *dir)
{
	char path[PATH_MAX];
	int out;

	/* adopted: the position is asked of the kernel (6220) */
	CHECK(write(fd, buf, 100), 100);
	snprintf(path, sizeof(path), "%s/appended", dir);
	out = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
	CHECK(out >= 0, 1);
	CHECK(write(out, buf, 50), 50);
	CHECK(write(out, buf, 50), 50);
	CHECK(close(out), 0);
	return 0;
}

int main(int argc, char **argv)
{
	char path[PATH_MAX], self[PATH_MAX], fdtext[16];
	struct iovec iov[2] = { { buf, 512 }, { buf + 512, 512 } };
	int fd, pipefd[2], status;
	pthread_t th;
	FILE *f;
	pid_t pid;
	ssize_t n;

	if (argc == 4 && !strcmp(argv[1], "--exec"))
		return exec_child(atoi(argv[2]), argv[3]);
	if (argc != 2) {
		fprintf(stderr, "usage: record_calls DIR\n");
		return 2;
	}
	memset(buf, 'r', sizeof(buf));

	snprintf(path, sizeof(path), "%s/data", argv[1]);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0, 1);
	data_fd = fd;
	CHECK(pwrite(fd, buf, 8192, 0), 8192);
	CHECK(pread64(fd, buf, 4096, 0), 4096);
	CHECK(lseek64(fd, 4096, SEEK_SET), 4096);
	CHECK(read(fd, buf, 1000), 1000);
	CHECK(writev(fd, iov, 2), 1024);
	CHECK(fsync(fd), 0);
	CHECK(fdatasync(fd), 0);
	CHECK(ftruncate(fd, 16384), 0);

	snprintf(path, sizeof(path), "%s/missing", argv[1]);
	CHECK(openat(AT_FDCWD, path, O_RDONLY), -1);

	/* neither a regular file nor a block device: not recorded */
	n = open("/dev/null", O_WRONLY);
	CHECK(n >= 0, 1);
	CHECK(write((int)n, buf, 10), 10);
	CHECK(close((int)n), 0);
	CHECK(pipe(pipefd), 0);
	CHECK(write(pipefd[1], buf, 10), 10);
	CHECK(read(pipefd[0], buf, 10), 10);
	CHECK(close(pipefd[0]), 0);
	CHECK(close(pipefd[1]), 0);

	/* a second thread */
	CHECK(pthread_create(&th, NULL, reader_thread, NULL), 0);
	CHECK(pthread_join(th, NULL), 0);

	/* a child that writes at the shared position (6120), then execs */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	CHECK(n > 0, 1);
	self[n] = '\0';
	snprintf(fdtext, sizeof(fdtext), "%d", fd);
	pid = fork();
	CHECK(pid >= 0, 1);
	if (!pid) {
		CHECK(write(fd, buf, 100), 100);
		execl(self, self, "--exec", fdtext, argv[1], (char *)NULL);
		_exit(127);
	}
	CHECK(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, 1);

	/* the children moved the shared position: the kernel says 6320 */
	CHECK(lseek(fd, 0, SEEK_CUR), 6320);
	CHECK(pwrite(fd, buf, 4096, 8192), 4096);
	CHECK(close(fd), 0);

	/* a failure is recorded with its errno; fclose is a close */
	snprintf(path, sizeof(path), "%s/created", argv[1]);
	fd = creat(path, 0600);
	CHECK(fd >= 0, 1);
	CHECK(read(fd, buf, 10), -1);
	CHECK(write(fd, buf, 10), 10);
	f = fdopen(fd, "w");
	CHECK(f != NULL, 1);
	CHECK(fclose(f), 0);
	return 0;
}
