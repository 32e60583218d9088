/* hosts_ssh.c - see hosts_ssh.h. */
#include "hosts/hosts_ssh.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/delay.h"
#include "core/memory.h"
#include "core/options.h"
#include "core/signals.h"
#include "core/units.h"

#define SSH_MAX_WORDS 64
#define HEREDOC_END "REBENCH_HOSTS_WORKLOADS"
/* ssh's keepalives unanswered before it gives a host up */
#define SSH_ALIVE_COUNT 4
#define SSH_ALIVE_COUNT_TEXT "4"

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

/* ssh's own limits from the hosts' one: a connection within it, and a
 * host whose sshd answers no keepalive for about as long given up (ssh
 * exits 255), while a healthy connection lasts as long as the run. */
static void limit_words(uint64_t timeout_ns, char *connect, char *alive,
			size_t len)
{
	uint64_t s = (timeout_ns + 999999999ULL) / 1000000000ULL;

	snprintf(connect, len, "ConnectTimeout=%llu", (unsigned long long)s);
	snprintf(alive, len, "ServerAliveInterval=%llu",
		 (unsigned long long)(s / SSH_ALIVE_COUNT ? s / SSH_ALIVE_COUNT : 1));
}

/* ssh's words in words (SSH_MAX_WORDS + 16, NULL-terminated): the user's
 * --ssh, split in line, then the options of rebench, the host and the
 * remote command.  connect and alive (len each) hold the time limits. */
static int ssh_words(char **words, char *line, const char *ssh_cmd,
		     const struct host *h, const char *remote,
		     uint64_t timeout_ns, char *connect, char *alive,
		     size_t len)
{
	int n = options_split_line(line, words, SSH_MAX_WORDS), k;

	if (n <= 0) {
		fprintf(stderr, "rebench: --ssh '%s': give the ssh command and its options, as ssh -F cluster.conf\n",
			ssh_cmd);
		return -EINVAL;
	}
	limit_words(timeout_ns, connect, alive, len);
	k = n;
	words[k++] = "-o";
	words[k++] = "BatchMode=yes";
	words[k++] = "-o";
	words[k++] = connect;
	words[k++] = "-o";
	words[k++] = alive;
	words[k++] = "-o";
	words[k++] = "ServerAliveCountMax=" SSH_ALIVE_COUNT_TEXT;
	if (h->port[0]) {
		words[k++] = "-p";
		words[k++] = (char *)h->port;
	}
	words[k++] = "--";
	words[k++] = (char *)h->dest;
	words[k++] = (char *)remote;
	words[k] = NULL;
	return 0;
}

/* Its stdin, stdout and stderr pipes: 0, or -errno with none open. */
static int open_pipes(int in[2], int out[2], int err[2])
{
	int e, i;

	if (!pipe2(in, O_CLOEXEC) && !pipe2(out, O_CLOEXEC) &&
	    !pipe2(err, O_CLOEXEC))
		return 0;
	e = -errno;
	for (i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
	}
	return e;
}

/* In the child: the pipes as 0, 1 and 2, then ssh; never returns. */
static void exec_ssh(char **words, const int in[2], const int out[2],
		     const int err[2])
{
	sigset_t none;

	dup2(in[0], 0);
	dup2(out[1], 1);
	dup2(err[1], 2);
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

int ssh_spawn(struct ssh_job *j, const char *ssh_cmd, const struct host *h,
	      const char *remote, uint64_t timeout_ns, bool check)
{
	char *words[SSH_MAX_WORDS + 16], *line = strdup(ssh_cmd);
	char connect[48], alive[48];
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 }, ret;
	pid_t pid;

	memset(j, 0, sizeof(*j));
	j->in_fd = j->out_fd = j->err_fd = -1;
	j->timeout_ns = timeout_ns;
	if (!line)
		return -ENOMEM;
	ret = ssh_words(words, line, ssh_cmd, h, remote, timeout_ns, connect,
			alive, sizeof(connect));
	if (!ret)
		ret = open_pipes(in, out, err);
	if (ret) {
		free(line);
		return ret;
	}
	j->seconds = (double)delay_now_ns() / 1e9;
	if (check) {
		j->deadline_ns = delay_now_ns() + timeout_ns;
		j->end_on_stop = true;
	}
	pid = fork();
	if (pid == 0)
		exec_ssh(words, in, out, err);
	/* here too: the group exists before rebench may signal it */
	if (pid > 0)
		setpgid(pid, pid);
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

void hosts_printable(char *buf, size_t len, const char *s)
{
	size_t i;

	if (!len)
		return;
	for (i = 0; s[i] && i + 1 < len; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	buf[i] = '\0';
}

void ssh_last_error(const struct ssh_job *j, char *buf, size_t len)
{
	const char *e = j->err ? j->err : "", *end = e + strlen(e), *start;
	char line[1024];

	while (end > e && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	for (start = end; start > e && start[-1] != '\n'; start--)
		;
	if (end > start) {
		snprintf(line, sizeof(line), "%.*s", (int)(end - start), start);
		hosts_printable(buf, len, line);
	} else {
		snprintf(buf, len, "no message (exit status %d)", j->code);
	}
}

void ssh_ended_why(const struct ssh_job *j, char *buf, size_t len)
{
	char a[32];

	switch (j->ended) {
	case SSH_TIMED_OUT:
		if (j->end_on_stop)	/* a check */
			snprintf(buf, len, "no answer within %g s (REBENCH_HOSTS_TIMEOUT); its ssh was ended",
				 (double)j->timeout_ns / 1e9);
		else if (signals_stop_requested())
			snprintf(buf, len, "it did not end within %g s of the stop (REBENCH_HOSTS_TIMEOUT); its ssh was ended",
				 (double)j->timeout_ns / 1e9);
		else
			snprintf(buf, len, "no result within its run and %g s more (REBENCH_HOSTS_TIMEOUT); its ssh was ended",
				 (double)j->timeout_ns / 1e9);
		break;
	case SSH_STOPPED:
		snprintf(buf, len, "stopped by a signal; its ssh was ended");
		break;
	case SSH_TOO_LONG:
		snprintf(buf, len, "it printed more than %s, more than any document of rebench; its ssh was ended",
			 fmt_size_human(a, sizeof(a), SSH_OUT_MAX));
		break;
	case SSH_OVER_BUDGET:
		snprintf(buf, len, "its output, %s so far, passed rebench's memory budget of %s (see MEMORY in rebench(1)); its ssh was ended",
			 fmt_size_human(a, sizeof(a), j->out_len),
			 memory_budget_text());
		break;
	default:
		snprintf(buf, len, "ended by itself");
	}
}
