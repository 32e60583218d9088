/* record_dup2.c - a program that puts its own file on the number of the
 * log of rebench --record while another thread's calls are logged: the
 * race of a dup2() onto the log's descriptor (test_record_safety.sh).
 *
 *	record_dup2 LOG DATA VICTIM ROUNDS
 *
 * Thread 1 reads DATA with pread, each read a logged call.  Thread 2 finds
 * the descriptor the interposer holds on LOG (in /proc/self/fd), then
 * ROUNDS times dup2()s VICTIM's descriptor onto that number and closes it
 * again, as a program that reuses descriptor numbers does.  No line of
 * the log may ever reach VICTIM: the test checks it is still empty.
 * Exit 0, or 1 after a message when something could not be set up.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *data_path;
static volatile int done;

static void *reader(void *arg)
{
	char buf[512];
	int fd = open(data_path, O_RDONLY);

	(void)arg;
	if (fd < 0)
		return NULL;
	while (!done)
		if (pread(fd, buf, sizeof(buf), 0) < 0)
			break;
	close(fd);
	return NULL;
}

/* The descriptor whose link is log, or -1. */
static int log_number(const char *log)
{
	char link[300], target[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir("/proc/self/fd");
	int fd = -1;
	ssize_t n;

	while (d && fd < 0 && (e = readdir(d))) {
		snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (!strcmp(target, log))
			fd = atoi(e->d_name);
	}
	if (d)
		closedir(d);
	return fd;
}

int main(int argc, char **argv)
{
	pthread_t t;
	long rounds, i;
	int victim, n;

	if (argc != 5) {
		fprintf(stderr, "usage: record_dup2 LOG DATA VICTIM ROUNDS\n");
		return 1;
	}
	data_path = argv[2];
	rounds = atol(argv[4]);
	victim = open(argv[3], O_WRONLY);
	n = log_number(argv[1]);
	if (victim < 0 || n < 0) {
		fprintf(stderr, "record_dup2: %s\n", victim < 0 ?
			"cannot open VICTIM" : "no descriptor of LOG: not under rebench --record?");
		return 1;
	}
	if (pthread_create(&t, NULL, reader, NULL))
		return 1;
	for (i = 0; i < rounds; i++) {
		if (dup2(victim, n) < 0)
			break;
		close(n);
	}
	done = 1;
	pthread_join(t, NULL);
	return 0;
}
