/* hosts_ssh.h - one ssh to one host of --hosts: the command line (the
 * user's --ssh, BatchMode=yes, the time limits, the port), the remote
 * command quoted for the host's shell, and its output collected within
 * bounds (hosts_collect.c).
 *
 * Each ssh leads a process group of its own: a Ctrl-C on the terminal is
 * rebench's to handle, and ending a host ends the group (ssh and whatever
 * an --ssh wrapper started), never ssh's pid alone.
 */
#ifndef REBENCH_HOSTS_SSH_H
#define REBENCH_HOSTS_SSH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hosts/hosts.h"
#include "core/json_read.h"

/* A host's standard output is its JSON document: no document of rebench
 * comes near the reader's own limit, so more is not one.  Every byte kept
 * is also counted against the memory budget (memory.h). */
#define SSH_OUT_MAX JSON_READ_MAX_BYTES
/* Of its standard error, the last bytes (for the messages). */
#define SSH_ERR_KEEP (64U << 10)

/* Why rebench ended an ssh (its process group), or SSH_NOT_ENDED. */
enum ssh_ended {
	SSH_NOT_ENDED,
	SSH_TIMED_OUT,		/* past its deadline */
	SSH_STOPPED,		/* a stop signal, during the checks */
	SSH_TOO_LONG,		/* its output passed SSH_OUT_MAX */
	SSH_OVER_BUDGET,	/* ... or the memory budget */
};

struct ssh_job {
	pid_t pid;		/* 0: not running; also its process group */
	int in_fd;		/* its stdin (-1: closed) */
	int out_fd, err_fd;
	char *out, *err;	/* what it printed, NUL-terminated */
	size_t out_len, err_len;
	size_t out_cap;		/* out's allocation, taken from the budget */
	int code;		/* exit status 0..255, 256 + signal */
	double seconds;		/* spawn to exit */
	uint64_t timeout_ns;	/* the hosts' time limit */
	/* CLOCK_MONOTONIC ns at which it is ended, 0: none; another thread
	 * brings it forward at a stop (ssh_end_by) */
	uint64_t deadline_ns;
	bool end_on_stop;	/* a stop signal ends it at once */
	enum ssh_ended ended;
};

/* Where the remote command's stdin comes from. */
enum remote_stdin {
	REMOTE_STDIN_TEXT,	/* the text as a here-document, else /dev/null */
	REMOTE_STDIN_SSH,	/* ssh's: what this side writes (--clock-echo) */
	REMOTE_FD3_SSH,		/* the text on stdin, ssh's on fd 3
				 * (--stop-on-eof 3) */
};

/* A command for the host's POSIX shell: exec, each word quoted, and the
 * stdin of how.  Allocated; NULL on ENOMEM. */
char *ssh_remote_command(char *const *words, size_t n, const char *stdin_text,
			 enum remote_stdin how);

/* Start ssh to h running remote, in a process group of its own, with
 * ConnectTimeout and ServerAlive set from timeout_ns (a host that does not
 * answer ssh's keepalives for that long is given up by ssh); a check
 * (check: true) is also ended timeout_ns after its start and at a stop
 * signal.  0 or -errno after a message. */
int ssh_spawn(struct ssh_job *j, const char *ssh_cmd, const struct host *h,
	      const char *remote, uint64_t timeout_ns, bool check);

/* Collect its output to the end and reap it; j->code and j->ended are
 * set.  Its process group gets SIGTERM, then SIGKILL 5 s later, when it
 * passes its deadline or an output bound, and when its pipes are still
 * held 5 s after ssh itself exited (a wrapper's leftover child): never
 * waits on what rebench did not start. */
void ssh_finish(struct ssh_job *j);

/* From another thread: end it at mono_ns (delay_now_ns()) at the latest. */
void ssh_end_by(struct ssh_job *j, uint64_t mono_ns);

/* Close its stdin (the host's --stop-on-eof sees the end). */
void ssh_close_stdin(struct ssh_job *j);

/* Its stdout, to be freed with ssh_give_out(text, *charged). */
char *ssh_take_out(struct ssh_job *j, size_t *len, size_t *charged);
void ssh_give_out(char *text, size_t charged);

void ssh_job_free(struct ssh_job *j);

/* The last non-empty line of what it printed on stderr, for messages;
 * control characters shown as '?'. */
void ssh_last_error(const struct ssh_job *j, char *buf, size_t len);

/* Why rebench ended it ("no answer within 60 s (REBENCH_HOSTS_TIMEOUT);
 * its ssh was ended"), for j->ended != SSH_NOT_ENDED. */
void ssh_ended_why(const struct ssh_job *j, char *buf, size_t len);

/* s copied into buf, each control character (a newline, an escape) as
 * '?': what a host says never splits a line or reaches the terminal as a
 * command. */
void hosts_printable(char *buf, size_t len, const char *s);

#endif
