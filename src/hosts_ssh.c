/* hosts_ssh.c - see hosts_ssh.h. */
#include "hosts_ssh.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "options.h"
#include "signals.h"

#define SSH_MAX_WORDS 64
#define HEREDOC_END "REBENCH_HOSTS_WORKLOADS"

struct buf {
	char *p;
	size_t len, cap;
};

static int put(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p)
			return -ENOMEM;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

static int puts_(struct buf *b, const char *s)
{
	return put(b, s, strlen(s));
}

/* 'word', with each ' as '\'' */
static int quoted(struct buf *b, const char *w)
{
	int ret = puts_(b, "'");

	for (; *w && !ret; w++)
		ret = *w == '\'' ? puts_(b, "'\\''") : put(b, w, 1);
	return ret ? ret : puts_(b, "'");
}

char *ssh_remote_command(char *const *words, size_t n, const char *stdin_text,
			 enum remote_stdin how)
{
	struct buf b = { 0 };
	int ret = puts_(&b, "exec");
	size_t i;

	for (i = 0; i < n && !ret; i++) {
		ret = puts_(&b, " ");
		if (!ret)
			ret = quoted(&b, words[i]);
	}
	if (!ret && how == REMOTE_FD3_SSH)
		ret = puts_(&b, " 3<&0");
	if (how == REMOTE_STDIN_SSH) {
		/* as it is */
	} else if (!ret && stdin_text) {
		ret = puts_(&b, " <<'" HEREDOC_END "'\n");
		if (!ret)
			ret = puts_(&b, stdin_text);
		if (!ret && b.len && b.p[b.len - 1] != '\n')
			ret = puts_(&b, "\n");
		if (!ret)
			ret = puts_(&b, HEREDOC_END "\n");
	} else if (!ret) {
		ret = puts_(&b, " </dev/null");
	}
	if (ret) {
		free(b.p);
		return NULL;
	}
	return b.p;
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int ssh_spawn(struct ssh_job *j, const char *ssh_cmd, const struct host *h,
	      const char *remote)
{
	char *words[SSH_MAX_WORDS + 8], *line = strdup(ssh_cmd);
	int in[2], out[2], err[2], n, k;
	pid_t pid;

	memset(j, 0, sizeof(*j));
	j->in_fd = j->out_fd = j->err_fd = -1;
	if (!line)
		return -ENOMEM;
	n = options_split_line(line, words, SSH_MAX_WORDS);
	if (n <= 0) {
		fprintf(stderr, "rebench: --ssh '%s': give the ssh command and its options, as ssh -F cluster.conf\n",
			ssh_cmd);
		free(line);
		return -EINVAL;
	}
	k = n;
	words[k++] = "-o";
	words[k++] = "BatchMode=yes";
	if (h->port[0]) {
		words[k++] = "-p";
		words[k++] = (char *)h->port;
	}
	words[k++] = "--";
	words[k++] = (char *)h->dest;
	words[k++] = (char *)remote;
	words[k] = NULL;
	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) ||
	    pipe2(err, O_CLOEXEC)) {
		free(line);
		return -errno;
	}
	j->seconds = mono_s();
	pid = fork();
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		sigset_t none;

		signals_restore_for_child();
		/* the threads that start ssh block the stop signals: not ssh */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		/* a Ctrl-C on the terminal is rebench's to handle: it closes
		 * every host's stdin, and the hosts stop with their results */
		setpgid(0, 0);
		execvp(words[0], words);
		fprintf(stderr, "cannot run %s: %s\n", words[0], strerror(errno));
		_exit(127);
	}
	free(line);
	close(in[0]);
	close(out[1]);
	close(err[1]);
	if (pid < 0) {
		close(in[1]);
		close(out[0]);
		close(err[0]);
		return -errno;
	}
	j->pid = pid;
	j->in_fd = in[1];
	j->out_fd = out[0];
	j->err_fd = err[0];
	return 0;
}

static int drain(int fd, char **p, size_t *len)
{
	struct buf b = { *p, *len, *p ? *len + 1 : 0 };
	char chunk[8192];
	ssize_t r = read(fd, chunk, sizeof(chunk));

	if (r > 0) {
		if (put(&b, chunk, (size_t)r))
			return -ENOMEM;
		*p = b.p;
		*len = b.len;
	}
	return r > 0 ? 1 : r == 0 || errno != EINTR ? 0 : 1;
}

void ssh_finish(struct ssh_job *j)
{
	int st = 0;

	while (j->out_fd >= 0 || j->err_fd >= 0) {
		struct pollfd p[2] = { { j->out_fd, POLLIN, 0 },
				       { j->err_fd, POLLIN, 0 } };

		if (poll(p, 2, 1000) < 0 && errno != EINTR)
			break;
		if (j->out_fd >= 0 && p[0].revents &&
		    drain(j->out_fd, &j->out, &j->out_len) <= 0) {
			close(j->out_fd);
			j->out_fd = -1;
		}
		if (j->err_fd >= 0 && p[1].revents &&
		    drain(j->err_fd, &j->err, &j->err_len) <= 0) {
			close(j->err_fd);
			j->err_fd = -1;
		}
	}
	while (j->pid > 0 && waitpid(j->pid, &st, 0) < 0 && errno == EINTR)
		;
	j->code = WIFEXITED(st) ? WEXITSTATUS(st) : 256 + WTERMSIG(st);
	j->pid = 0;
	j->seconds = mono_s() - j->seconds;
	if (!j->out)
		j->out = strdup("");
	if (!j->err)
		j->err = strdup("");
}

void ssh_close_stdin(struct ssh_job *j)
{
	int fd = __atomic_exchange_n(&j->in_fd, -1, __ATOMIC_SEQ_CST);

	if (fd >= 0)
		close(fd);
}

void ssh_job_free(struct ssh_job *j)
{
	ssh_close_stdin(j);
	free(j->out);
	free(j->err);
	j->out = j->err = NULL;
}

void ssh_last_error(const struct ssh_job *j, char *buf, size_t len)
{
	const char *e = j->err ? j->err : "", *end = e + strlen(e), *start;

	while (end > e && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	for (start = end; start > e && start[-1] != '\n'; start--)
		;
	if (end > start)
		snprintf(buf, len, "%.*s", (int)(end - start), start);
	else
		snprintf(buf, len, "no message (exit status %d)", j->code);
}
