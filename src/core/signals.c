/* signals.c - see signals.h. */
#include "core/signals.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
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
