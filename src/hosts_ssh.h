/* hosts_ssh.h - one ssh to one host of --hosts: the command line (the
 * user's --ssh, BatchMode=yes, the port), the remote command quoted for
 * the host's shell, and its output collected whole. */
#ifndef REBENCH_HOSTS_SSH_H
#define REBENCH_HOSTS_SSH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "hosts.h"

struct ssh_job {
	pid_t pid;		/* 0: not running */
	int in_fd;		/* its stdin (-1: closed) */
	int out_fd, err_fd;
	char *out, *err;	/* what it printed, NUL-terminated */
	size_t out_len, err_len;
	int code;		/* exit status 0..255, 256 + signal */
	double seconds;		/* spawn to exit */
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

/* Start ssh to h running remote; 0 or -errno after a message. */
int ssh_spawn(struct ssh_job *j, const char *ssh_cmd, const struct host *h,
	      const char *remote);

/* Collect its output to the end and reap it; j->code is set. */
void ssh_finish(struct ssh_job *j);

/* Close its stdin (the host's --stop-on-eof sees the end). */
void ssh_close_stdin(struct ssh_job *j);

void ssh_job_free(struct ssh_job *j);

/* The last non-empty line of what it printed on stderr, for messages. */
void ssh_last_error(const struct ssh_job *j, char *buf, size_t len);

#endif
