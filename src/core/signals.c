/* signals.c - see signals.h. */
#include "core/signals.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NSTOP (sizeof(stop_signals) / sizeof(stop_signals[0]))

static volatile sig_atomic_t stop_sig;
static volatile sig_atomic_t stop_count;	/* stop signals received */
static bool ignored_at_start[NSTOP];	/* the caller's SIG_IGN, kept */
static bool pipe_ignored_at_start;

static void on_stop(int sig)
{
	stop_sig = sig;
	stop_count++;
}

void signals_init(void)
{
	/* no SA_RESTART: a read of the terminal's answer ends at once */
	struct sigaction sa = { .sa_handler = on_stop }, old;
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NSTOP; i++) {
		sigaction(stop_signals[i], NULL, &old);
		ignored_at_start[i] = old.sa_handler == SIG_IGN;
		if (!ignored_at_start[i])
			sigaction(stop_signals[i], &sa, NULL);
	}
	sigaction(SIGPIPE, NULL, &old);
	pipe_ignored_at_start = old.sa_handler == SIG_IGN;
	signal(SIGPIPE, SIG_IGN);
}

int signals_stop_requested(void)
{
	return stop_sig;
}

unsigned signals_stop_count(void)
{
	return (unsigned)stop_count;
}

void signals_stop_set(sigset_t *set)
{
	size_t i;

	sigemptyset(set);
	for (i = 0; i < NSTOP; i++)
		if (!ignored_at_start[i])
			sigaddset(set, stop_signals[i]);
}

void signals_restore_for_child(void)
{
	size_t i;

	for (i = 0; i < NSTOP; i++)
		signal(stop_signals[i], ignored_at_start[i] ? SIG_IGN : SIG_DFL);
	signal(SIGPIPE, pipe_ignored_at_start ? SIG_IGN : SIG_DFL);
}

/* The watch of --stop-on-eof: read until the end, then stop as SIGTERM
 * does (the signal reaches the thread that takes stop signals). */
static void *watch_eof(void *arg)
{
	int fd = (int)(intptr_t)arg;
	char buf[256];
	ssize_t r;

	do
		r = read(fd, buf, sizeof(buf));
	while (r > 0 || (r < 0 && errno == EINTR));
	kill(getpid(), SIGTERM);
	return NULL;
}

int signals_stop_on_eof(int fd)
{
	sigset_t all, old;
	pthread_t t;
	int ret;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);	/* the watch takes none */
	ret = pthread_create(&t, NULL, watch_eof, (void *)(intptr_t)fd);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		return -ret;
	pthread_detach(t);
	return 0;
}

/* Pass on the stop signals received so far, each once. */
static void forward(pid_t pid, int *forwarded)
{
	int sig = signals_stop_requested();

	if ((sig == SIGTERM || sig == SIGHUP) && !(*forwarded & (1 << sig))) {
		kill(pid, sig);
		*forwarded |= 1 << sig;
	}
}

int signals_wait_forwarding(pid_t pid, int *status)
{
	/* a pidfd is readable once the child has ended, so ppoll() waits for
	 * the end or a signal with the mask let go atomically; without one
	 * (a kernel before 5.3) it looks again every 10 ms */
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	struct pollfd p = { pfd, POLLIN, 0 };
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	sigset_t stop, old;
	int forwarded = 0, ret = 0;
	pid_t r;

	signals_stop_set(&stop);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	for (;;) {
		forward(pid, &forwarded);	/* one that came before the block */
		r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
		if (ppoll(pfd >= 0 ? &p : NULL, pfd >= 0 ? 1 : 0,
			  pfd >= 0 ? NULL : &tick, &old) < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (pfd >= 0)
		close(pfd);
	return ret;
}
