/* hosts_collect.c - an ssh of --hosts to its end (see hosts_ssh.h): its
 * standard output kept within SSH_OUT_MAX and the memory budget, the tail
 * of its standard error, and its process group ended when it passes a
 * bound or its deadline, or when its pipes outlive ssh.
 *
 * Bounds: a host costs at most SSH_OUT_MAX + 1 bytes of output (taken from
 * memory_budget() as the buffer doubles) and SSH_ERR_KEEP + 1 of stderr;
 * ssh_finish() wakes every POLL_MS to see a deadline that a stop brought
 * forward, and returns within KILL_GRACE_NS of ending a group (LINGER_NS
 * more when ssh exited first).
 */
#include "hosts/hosts_ssh.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/delay.h"
#include "core/memory.h"
#include "core/signals.h"

#define NS 1000000000ULL
#define LINGER_NS (5 * NS)	/* ssh exited: the pipes' last bytes */
#define KILL_GRACE_NS (5 * NS)	/* SIGTERM, then SIGKILL */
#define POLL_MS 200
#define CHUNK (16U << 10)

void ssh_end_by(struct ssh_job *j, uint64_t mono_ns)
{
	uint64_t cur = __atomic_load_n(&j->deadline_ns, __ATOMIC_ACQUIRE);

	while ((!cur || mono_ns < cur) &&
	       !__atomic_compare_exchange_n(&j->deadline_ns, &cur, mono_ns, false,
					    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		;
}

/* The group ssh leads and ssh itself (should it have left the group):
 * neither can be another process's, since ssh is not reaped yet. */
static void signal_job(const struct ssh_job *j, int sig)
{
	kill(-j->pid, sig);
	kill(j->pid, sig);
}

/* Has ssh exited?  It stays a zombie (WNOWAIT), so its pid and group id
 * stay its own until ssh_finish() reaps it. */
static bool exited(const struct ssh_job *j)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	return !waitid(P_PID, (id_t)j->pid, &si, WEXITED | WNOHANG | WNOWAIT) &&
	       si.si_pid == j->pid;
}

/* Room for n more bytes of stdout: 0, or the bound it would pass. */
static enum ssh_ended out_room(struct ssh_job *j, size_t n)
{
	size_t need = j->out_len + n + 1, cap;
	char *p;

	if (need <= j->out_cap)
		return SSH_NOT_ENDED;
	if (j->out_len + n > SSH_OUT_MAX)
		return SSH_TOO_LONG;
	for (cap = j->out_cap ? j->out_cap : CHUNK; cap < need; cap *= 2)
		;
	if (cap > SSH_OUT_MAX + 1)
		cap = SSH_OUT_MAX + 1;
	if (!memory_take(cap - j->out_cap))
		return SSH_OVER_BUDGET;
	p = realloc(j->out, cap);
	if (!p) {
		memory_give(cap - j->out_cap);
		return SSH_OVER_BUDGET;
	}
	j->out = p;
	j->out_cap = cap;
	return SSH_NOT_ENDED;
}

/* The tail of stderr: past SSH_ERR_KEEP, the oldest half goes. */
static void err_add(struct ssh_job *j, const char *s, size_t n)
{
	size_t drop;

	if (!j->err && !(j->err = malloc(SSH_ERR_KEEP + 1)))
		return;
	if (n > SSH_ERR_KEEP) {
		s += n - SSH_ERR_KEEP;
		n = SSH_ERR_KEEP;
	}
	if (j->err_len + n > SSH_ERR_KEEP) {
		drop = j->err_len + n - SSH_ERR_KEEP;
		if (drop < SSH_ERR_KEEP / 2)
			drop = SSH_ERR_KEEP / 2;
		if (drop > j->err_len)
			drop = j->err_len;
		memmove(j->err, j->err + drop, j->err_len - drop);
		j->err_len -= drop;
	}
	memcpy(j->err + j->err_len, s, n);
	j->err_len += n;
	j->err[j->err_len] = '\0';
}

/* One read of fd: 1 (bytes), 0 (its end, or a bound: stop reading). */
static int read_some(struct ssh_job *j, bool out)
{
	char chunk[CHUNK];
	ssize_t r = read(out ? j->out_fd : j->err_fd, chunk, sizeof(chunk));
	enum ssh_ended e;

	if (r < 0)
		return errno == EINTR || errno == EAGAIN;
	if (r == 0)
		return 0;
	if (!out) {
		err_add(j, chunk, (size_t)r);
		return 1;
	}
	e = out_room(j, (size_t)r);
	if (e != SSH_NOT_ENDED) {
		if (!j->ended)
			j->ended = e;
		return 0;
	}
	memcpy(j->out + j->out_len, chunk, (size_t)r);
	j->out_len += (size_t)r;
	j->out[j->out_len] = '\0';
	return 1;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void ssh_finish(struct ssh_job *j)
{
	uint64_t now, gone_at = 0, term_at = 0, deadline;
	bool gone = false;
	int st = 0;

	while (j->out_fd >= 0 || j->err_fd >= 0 || !gone) {
		struct pollfd p[2] = { { j->out_fd, POLLIN, 0 },
				       { j->err_fd, POLLIN, 0 } };

		now = delay_now_ns();
		deadline = __atomic_load_n(&j->deadline_ns, __ATOMIC_ACQUIRE);
		if (!j->ended && deadline && now >= deadline)
			j->ended = SSH_TIMED_OUT;
		if (!j->ended && j->end_on_stop && signals_stop_requested())
			j->ended = SSH_STOPPED;
		/* LINGER_NS after ssh exited, whatever still writes (a
		 * wrapper's child that chatters must not hold it open) */
		if (!term_at && (j->ended || (gone && now - gone_at >= LINGER_NS))) {
			signal_job(j, SIGTERM);
			term_at = now;
		}
		if (term_at && now - term_at >= KILL_GRACE_NS) {
			signal_job(j, SIGKILL);
			break;
		}
		if (poll(p, 2, POLL_MS) > 0) {
			if (p[0].revents && !read_some(j, true))
				close_fd(&j->out_fd);
			if (p[1].revents && !read_some(j, false))
				close_fd(&j->err_fd);
		}
		if (!gone && exited(j)) {
			gone = true;
			gone_at = delay_now_ns();
		}
	}
	close_fd(&j->out_fd);
	close_fd(&j->err_fd);
	while (j->pid > 0 && waitpid(j->pid, &st, 0) < 0 && errno == EINTR)
		;
	j->code = WIFEXITED(st) ? WEXITSTATUS(st) : 256 + WTERMSIG(st);
	j->pid = 0;
	j->seconds = (double)delay_now_ns() / 1e9 - j->seconds;
	if (!j->out && out_room(j, 0) == SSH_NOT_ENDED)
		j->out[0] = '\0';
	if (!j->err)
		err_add(j, "", 0);
}

void ssh_close_stdin(struct ssh_job *j)
{
	int fd = __atomic_exchange_n(&j->in_fd, -1, __ATOMIC_SEQ_CST);

	if (fd >= 0)
		close(fd);
}

char *ssh_take_out(struct ssh_job *j, size_t *len, size_t *charged)
{
	char *t = j->out;

	*len = j->out_len;
	*charged = j->out_cap;
	j->out = NULL;
	j->out_len = j->out_cap = 0;
	return t;
}

void ssh_give_out(char *text, size_t charged)
{
	free(text);
	memory_give(charged);
}

void ssh_job_free(struct ssh_job *j)
{
	ssh_close_stdin(j);
	ssh_give_out(j->out, j->out_cap);
	free(j->err);
	j->out = j->err = NULL;
	j->out_len = j->out_cap = j->err_len = 0;
}
