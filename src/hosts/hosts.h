/* hosts.h - --hosts: the same workloads on many machines through ssh, at
 * one common start, with one merged result.
 *
 * No daemon and no protocol of rebench's own: each host runs its installed
 * rebench over the user's ssh (keys, agent, configuration; BatchMode, so
 * never a password prompt), first with --dry-run --json (is rebench there,
 * of this JSON version, does every workload validate against its target),
 * then --clock-echo (the clock offset, from round trips as NTP takes them),
 * then the run itself with --json --yes --start-at T (T in the host's own
 * clock) --stop-on-eof 3 (the ssh connection going away stops it).  The
 * per-host documents carry every workload's latency histogram, so the
 * merged percentiles are exact.
 */
#ifndef REBENCH_HOSTS_H
#define REBENCH_HOSTS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/json_read.h"
#include "core/options.h"
#include "core/plan.h"
#include "core/spec.h"
#include "core/sweep.h"

#define HOSTS_MAX 256

enum host_state {
	HOST_OK,		/* ran to its end */
	HOST_UNREACHABLE,	/* ssh could not connect or log in */
	HOST_REFUSED,		/* its rebench refused (checks) */
	HOST_FAILED,		/* died, lost, or no result */
	HOST_IO_FAILED,		/* its run had an I/O error (results kept) */
	HOST_INTERRUPTED,	/* stopped early (results so far) */
};

struct host {
	char name[256];		/* as given: [user@]host[:port] */
	char dest[256];		/* [user@]host, for ssh */
	char port[8];		/* "" for ssh's own */
	char target[PATH_MAX];	/* the hosts file's TARGET, or "" */
	unsigned line;		/* in the hosts file, 0 from --hosts */
	/* the checks */
	char version[64];	/* its rebench's version */
	uint64_t json_version;
	double check_s;		/* the check's round trip, seconds */
	bool destroys;		/* its workloads write or trim */
	char targets[512];	/* its workloads' targets, for the question */
	size_t nwl;		/* its workloads, as its dry run counted them */
	/* the clock: host clock - this clock, within +- bound */
	int64_t offset_ns;
	uint64_t bound_ns;
	bool offset_known;
	/* the checks: HOST_OK, or why the host cannot run */
	enum host_state state;
	char reason[1024];
};

struct host_list {
	struct host *h;
	size_t n;
	/* what every host is sent besides its own TARGET: the command
	 * line's, or the TARGET of each workload line on stdin */
	const char *target;
	char **sent;
	size_t nsent;
};

/* The hosts of --hosts LIST or --hosts-file FILE (one of them): 0 and
 * list, or -EINVAL after a message naming the entry, the line and the
 * fix (an empty list, a malformed entry, a host twice). */
int hosts_parse(const struct run_opts *run, struct host_list *list);
void hosts_free(struct host_list *list);

/* A TARGET sent to the hosts: any byte passes, quoted, to the host's
 * shell, but a control character (a newline, an escape) would come back
 * in its document and split -n lines and messages: 0, or -EINVAL with
 * why. */
int hosts_target_check(const char *target, char *why, size_t len);

/* The workloads each host runs (every host the same number) and the
 * TARGET host i is sent for workload k. */
size_t hosts_sent_count(const struct host_list *l);
const char *hosts_sent_target(const struct host_list *l, size_t i, size_t k);

/* The whole --hosts run after the command line was parsed; the exit
 * status (EXIT_HOST_FAILED when a host failed and others ran). */
int hosts_main(struct spec *base, struct run_opts *run, struct sweep *sw,
	       int argc, char **argv, const struct argv_map *map);

#endif
