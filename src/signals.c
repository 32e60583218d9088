/* signals.c - see signals.h. */
#include "signals.h"

#include <string.h>

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NSTOP (sizeof(stop_signals) / sizeof(stop_signals[0]))

static volatile sig_atomic_t stop_sig;
static bool ignored_at_start[NSTOP];	/* the caller's SIG_IGN, kept */
static bool pipe_ignored_at_start;

static void on_stop(int sig)
{
	stop_sig = sig;
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
