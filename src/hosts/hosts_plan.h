/* hosts_plan.h - inside --hosts: what every ssh to a host shares (the
 * plan: ssh, the remote rebench, the command line's words for the hosts,
 * the workload lines), a task per host, and running a task on every host
 * at once.  For hosts_check.c and hosts_run.c only. */
#ifndef REBENCH_HOSTS_PLAN_H
#define REBENCH_HOSTS_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "hosts/hosts.h"
#include "hosts/hosts_result.h"
#include "hosts/hosts_ssh.h"

struct hosts_plan {
	const struct run_opts *run;
	const char *ssh, *rebench;
	char **words;		/* the command line without the driver's */
	size_t nwords;
	const char *target;	/* the command line's TARGET, or NULL */
	char *stdin_text;	/* the workload lines, or NULL */
	const struct sweep *sw;
	uint64_t timeout_ns;	/* REBENCH_HOSTS_TIMEOUT, or HOSTS_TIMEOUT_S */
	uint64_t run_ns;	/* the longest a point's workloads take
				 * (duration and warm-up); 0: not known (a
				 * duration in bytes or %) */
};

/* The hosts' time limit: each check, keepalives, the end after a stop. */
#define HOSTS_TIMEOUT_S 60


struct host_task {
	const struct hosts_plan *pl;
	struct host_list *list;
	struct host *h;
	/* a run: the point's words and the result */
	const char *const *extra;
	size_t nextra;
	char *const *point;
	size_t npoint;
	struct host_run *out;
	uint64_t start_ns;	/* the start sent, the host's clock */
	uint64_t end_ns;	/* CLOCK_MONOTONIC past which the host is
				 * ended as silent; 0: none */
	struct ssh_job job;
	int spawned;		/* 1 running, -1 could not start */
	int done;
};

/* The plan of this command line, and what l's hosts are sent (its
 * TARGET, or the targets of the workload lines); 0 or -EINVAL after a
 * message. */
int hosts_plan_of(struct spec *base, const struct run_opts *run,
		  const struct sweep *sw, struct host_list *l, int argc,
		  char **argv, const struct argv_map *map, struct hosts_plan *pl);

/* words of one invocation on h: rebench, the plan's, extra, the point's
 * values, then the target, in out (hosts_max_words() slots); the count. */
size_t hosts_words(const struct hosts_plan *pl, const struct host *h,
		   const char *const *extra, size_t nextra, char *const *point,
		   size_t npoint, char **out);
size_t hosts_max_words(const struct hosts_plan *pl);

/* Start words on h with the stdin of how (check: a check, ended past the
 * time limit or at a stop); 0 or -errno. */
int hosts_run_words(const struct hosts_plan *pl, const struct host *h,
		    char **words, size_t n, enum remote_stdin how, bool check,
		    struct ssh_job *j);

/* fn on every task at once, each in a thread; a stop signal closes every
 * running ssh's stdin, and ends those still there the time limit later. */
int hosts_each(struct host_task *t, size_t n, void *(*fn)(void *));

/* hosts_check.c: every host checked and its clock measured (EXIT_OK, or
 * EXIT_BAD_ARGS after naming each that cannot run), the offsets said, and
 * one question for every host that would write (0 or as
 * confirm_ask_text()). */
int hosts_check_all(const struct hosts_plan *pl, struct host_list *l,
		    bool chatty);
void hosts_say_offsets(const struct host_list *l, uint64_t max_ns,
		       bool chatty);
int hosts_confirm(const struct host_list *l, const struct run_opts *run);

#endif
